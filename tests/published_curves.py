"""The composite's curves as a released version published them, for the tests whose point is
a published value (a table of the methodology page, a check value of the decisions): their
data must not follow the live anchors, so they read the anchors of the release that
published them from its committed snapshot (released snapshots never change) and, where
the code under test reads the live anchors, set those for the test (:func:`use_anchors`).
"""

from __future__ import annotations

import functools
from decimal import Decimal

import pytest

import scoring.constants as C  # noqa: N812 - the module of constants
from contracts import store
from scoring.constants import Anchor

#: The release whose tables the methodology page worked through by hand (latency 500 ms →
#: 100 … 10,000 ms → 0; cost $0.001 → 100 … $0.200 → 0), and the one whose decisions
#: published the intervals' check values (the same anchors).
FIRST = "1.0.0"
INTERVALS = "1.2.0"


@functools.cache
def anchors(version: str, name: str) -> tuple[Anchor, ...]:
    """The anchors of the curve constant ``name`` (``composite.latency_anchors_ms``) as the
    committed snapshot of ``version`` records them."""
    value = store.load_snapshot(version).constant(name).value
    return tuple(Anchor(Decimal(str(a["x"])), Decimal(str(a["score"]))) for a in value)


def latency_anchors(version: str) -> tuple[Anchor, ...]:
    """The latency curve's anchors of ``version``."""
    return anchors(version, "composite.latency_anchors_ms")


def cost_anchors(version: str) -> tuple[Anchor, ...]:
    """The cost curve's anchors of ``version``."""
    return anchors(version, "composite.cost_anchors_usd")


def use_anchors(monkeypatch: pytest.MonkeyPatch, version: str) -> None:
    """For one test, the code under test reads ``version``'s latency and cost anchors (the
    scores read them from ``scoring.constants`` when they are computed)."""
    monkeypatch.setattr(C, "LATENCY_ANCHORS_MS", latency_anchors(version))
    monkeypatch.setattr(C, "COST_ANCHORS_USD", cost_anchors(version))
