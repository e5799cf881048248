"""Planning the runs: how many runs tell two agents apart (methodology 1.1.0, the
uncertainty page, docs/uncertainty.md), registered with its golden points."""

from __future__ import annotations

import math
from fractions import Fraction

from scoring.constants import (
    INTERVAL_MIN_TASKS,
    SCORE_SCALE,
)
from scoring.intervals.surd import Z_POWER, Z
from scoring.numeric import Number, exact
from scoring.registry import (
    ScoringError,
    arg,
    const,
    formula,
    point,
    tex_number,
)

# The numbers a formula shows are the constants', so a changed constant changes the formula.
_SCALE = tex_number(SCORE_SCALE)
_MIN_TASKS = tex_number(INTERVAL_MIN_TASKS)

_ZERO = Fraction(0)
_ONE = Fraction(1)


# --- Planning -----------------------------------------------------------------------------


def _given(value: Number) -> Fraction:
    """A reader's input exactly as written (a float's shortest decimal: 0.7 is 7/10)."""
    return Fraction(repr(value)) if isinstance(value, float) else exact(value)


@formula(
    "uncertainty.runs_needed",
    title="Runs needed to tell two agents apart",
    latex=(
        r"N = \left\lceil \dfrac{(z + z_{\mathrm{power}})^2\,"
        r"\left(p_A(1 - p_A) + p_B(1 - p_B)\right)}{\delta^2}"
        r"\,\left(1 + (K - 1)\rho\right) \right\rceil,\quad p_B = p_A - \delta"
    ),
    symbols={
        "z": const("INTERVAL_Z"),
        r"z_{\mathrm{power}}": const("INTERVAL_Z_POWER"),
        "p_A": arg("p_a"),
        r"\delta": arg("delta"),
        "K": arg("runs_per_task"),
        r"\rho": arg("rho"),
    },
    golden=[
        point(label, p_a=p_a, delta=delta, runs_per_task=k, rho=rho)
        for label, p_a, delta, k, rho in (
            ("decisions' example", Fraction(7, 10), Fraction(1, 10), 5, 0),
            ("rho=0.3", Fraction(7, 10), Fraction(1, 10), 5, Fraction(3, 10)),
            ("one run a task", Fraction(1, 2), Fraction(1, 20), 1, 1),
            ("p_A=0.9", Fraction(9, 10), Fraction(1, 20), 5, Fraction(3, 10)),
        )
    ],
)
def runs_needed(p_a: Number, delta: Number, runs_per_task: int, rho: Number) -> int:
    """Runs per agent to detect a difference ``δ`` in success rate between ``p_A`` and
    ``p_B = p_A − δ``, two-sided at the interval level with the planned power, for ``K``
    runs per task with within-task correlation ``ρ`` (``ρ = 0``: independent runs).

    ``N = ⌈(z + z_power)²·(p_A(1 − p_A) + p_B(1 − p_B))/δ²·(1 + (K − 1)·ρ)⌉``, the
    normal-approximation sample size of a two-proportion test times the design effect of
    clustering. Exact: the inputs as written (a float's shortest decimal), ``z`` and
    ``z_power`` as the binary values of their floats. By hand: square ``z + z_power``,
    multiply, round up.

    Returns a value between the lowest and the highest whole number of runs the inputs
    allow: 1 upwards, growing as ``δ`` shrinks.

    >>> runs_needed(0.7, 0.1, 5, 0), runs_needed(0.7, 0.1, 5, 0.3)
    (354, 778)
    """
    share, gap, correlation = _given(p_a), _given(delta), _given(rho)
    if not 0 < share <= 1:
        raise ScoringError("p_a must lie in (0, 1]")
    if not 0 < gap <= share:
        raise ScoringError("delta must lie in (0, p_a], so that p_b = p_a − delta is a rate")
    if runs_per_task < 1:
        raise ScoringError("runs_per_task must be at least 1")
    if not 0 <= correlation <= 1:
        raise ScoringError("rho must lie in [0, 1]")
    other = share - gap
    spread = share * (1 - share) + other * (1 - other)
    design = 1 + (runs_per_task - 1) * correlation
    return max(1, math.ceil((Z + Z_POWER) ** 2 * spread / gap**2 * design))
