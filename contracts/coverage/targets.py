"""What the coverage figures are held to, and the verdicts of a measured document.

The targets (docs/uncertainty.md, "Coverage, measured"; the ceiling as corrected in 1.3.0):
coverage at least :data:`TARGET_LOW` in every published cell and :data:`STRESS_TARGET_LOW` in
the stress cells; at most :data:`TARGET_HIGH` where both ``θ·n*`` and ``(1 − θ)·n*`` are at
least :data:`UPPER_RULE_MIN` (``θ`` the truth, ``n* = θ(1 − θ)/Var(m̂)`` the effective size the
figures carry), and no ceiling below that. The composite is held to the ceiling where its
success rate is; the paired differences only to the lower target.

The rule is kept out of the simulation's fingerprint on purpose
(:data:`contracts.coverage.simulate.CODE`): the fingerprint covers what makes the measured
figures, and a verdict is a function of them. A change to this module alone re-judges the
committed figures (``python contracts/coverage/simulate.py --judge``, seconds) instead of
re-running the simulation; ``--check`` and the tests fail while the committed verdicts are
not this module's.
"""

from __future__ import annotations

from typing import Any

TARGET_LOW = 0.93
STRESS_TARGET_LOW = 0.91
#: The ceiling, where both θ·n* and (1 − θ)·n* are at least UPPER_RULE_MIN.
TARGET_HIGH = 0.99
UPPER_RULE_MIN = 5

#: The keys of a figure that are verdicts, not measurements.
VERDICT_KEYS = ("low", "high", "meets")


def targets() -> dict[str, float]:
    """The targets as ``coverage.json`` records them."""
    return {
        "published_low": TARGET_LOW,
        "stress_low": STRESS_TARGET_LOW,
        "high": TARGET_HIGH,
        "upper_rule_min": UPPER_RULE_MIN,
    }


def upper_rule_applies(rarer_count: float | None) -> bool:
    """Whether a rate is held to the ceiling: its smaller of ``θ·n*`` and ``(1 − θ)·n*``
    (``None`` when its estimates never varied) is at least :data:`UPPER_RULE_MIN`.

    >>> upper_rule_applies(6.25), upper_rule_applies(4.99), upper_rule_applies(None)
    (True, False, False)
    """
    return rarer_count is not None and rarer_count >= UPPER_RULE_MIN


def _verdict(figure: dict[str, Any], low: float, high: float | None) -> dict[str, Any]:
    """``figure`` with its target and whether it meets it, after its Monte Carlo error."""
    judged: dict[str, Any] = {}
    for key, value in figure.items():
        if key in VERDICT_KEYS:
            continue
        judged[key] = value
        if key == "mc_error":
            coverage = figure["coverage"]
            judged["low"], judged["high"] = low, high
            judged["meets"] = coverage >= low and (high is None or coverage <= high)
    return judged


def judged_row(row: dict[str, Any]) -> dict[str, Any]:
    """One cell's row with every figure's target and verdict."""
    low = STRESS_TARGET_LOW if row["stress"] else TARGET_LOW
    rates = row["scores"]
    scores = {}
    for name, figure in rates.items():
        # The composite's one-sided edge is its success rate's: held where that one is.
        rarer = rates["success_rate" if name == "composite" else name]["rarer_count"]
        high = TARGET_HIGH if upper_rule_applies(rarer) else None
        scores[name] = _verdict(figure, low, high)
    pairs = {name: _verdict(figure, low, None) for name, figure in row["pairs"].items()}
    return {**row, "scores": scores, "pairs": pairs}


def judged(document: dict[str, Any]) -> dict[str, Any]:
    """A measured ``coverage.json`` document with today's targets and every verdict."""
    return {
        **document,
        "targets": targets(),
        "cells": [judged_row(row) for row in document["cells"]],
    }
