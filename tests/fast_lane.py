"""The fast lane (``-m "not slow"``, the pre-commit hook) draws at most
:data:`FAST_LANE_EXAMPLES` examples per property, where a test asks for more: every property
still runs, on a smaller sample; the whole suite (CI) draws what each test asks for.

The cap is set where Hypothesis reads it, ``settings.max_examples``: it reaches the settings
a test is decorated with and those of a property defined and run inside a test's body (one
per formula in ``tests/scoring/test_registry.py``), which no collection hook can reach.
``tests/conftest.py`` sets it for a fast-lane session and removes it at the end.
"""

from __future__ import annotations

from hypothesis import settings

FAST_LANE = "not slow"
FAST_LANE_EXAMPLES = 10
#: Hypothesis's own property, kept to read the asked number through and to restore.
_MAX_EXAMPLES: property = settings.__dict__["max_examples"]


def _capped(chosen: settings) -> int:
    asked: int = _MAX_EXAMPLES.__get__(chosen)
    return min(asked, FAST_LANE_EXAMPLES)


def cap_examples() -> None:
    """Every property draws at most :data:`FAST_LANE_EXAMPLES`. (``settings`` refuses
    assignment to its class attributes through its metaclass, to keep users off them;
    ``type.__setattr__`` is the plain class assignment, undone by :func:`uncap_examples`.)"""
    type.__setattr__(settings, "max_examples", property(_capped))


def uncap_examples() -> None:
    type.__setattr__(settings, "max_examples", _MAX_EXAMPLES)
