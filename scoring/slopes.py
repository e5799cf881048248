"""Where each golden point and worked example reads a curve, so that none sits where the
curve is flat.

A golden point or a worked example of a formula that reads a curve (the composite's latency
and cost anchors, the radar's latency and cost axes) pins that curve's term only where the
curve slopes: where it is flat the result is the same whatever the anchors say, the snapshot
no longer notices a change of them, and a page's worked example shows moves of 0. So each
such formula and example says here which curve it reads, at which value of its inputs
(:data:`READINGS`); the drift check (:func:`contracts.check.formulas.formula_problems`) fails on
any reading where the curve is flat (:func:`scoring.formulas.curves.is_flat_at`), naming the point.
The curves' own definitions (:data:`CURVES_THEMSELVES`) are exempt: their flat ends are
cases of their LaTeX, and their golden points follow the anchors.

A reading is only listed where the code reads the curve: a gated point (below the minimum
of tasks, of runs, a mean of 0, no median) reads none.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import scoring.constants as C  # noqa: N812 - the curves are the live anchors
from scoring.constants import INTERVAL_MIN_TASKS, RADAR_LATENCY_MIN_RUNS, Anchor
from scoring.formulas import radar
from scoring.formulas.curves import is_flat_at
from scoring.numeric import exact

#: The curves a reading can name: each gives its anchors as the live code has them.
CURVES: Mapping[str, Callable[[], Sequence[Anchor]]] = {
    "latency": lambda: C.LATENCY_ANCHORS_MS,
    "cost": lambda: C.COST_ANCHORS_USD,
    "radar latency": radar.latency_ramp,
    "radar cost": radar.cost_ramp,
}

#: Formulas that are a curve themselves, evaluated on the anchors they are given: exempt,
#: with the reason.
CURVES_THEMSELVES: Mapping[str, str] = {
    "curve.piecewise_linear": "the curve itself: its golden points are its anchors, halfway "
    "points and both flat ends, each a case of its LaTeX",
    "uncertainty.curve_slope": "the curve's slope itself: 0 on its flat ends and the steeper "
    "side at a kink are cases of its LaTeX",
}


@dataclass(frozen=True, slots=True)
class Reading:
    """One value a golden point or worked example reads a curve at: what it is (``mean
    latency``), the curve (a key of :data:`CURVES`) and the value."""

    what: str
    curve: str
    x: Fraction


def _means(tasks: Iterable[Sequence[Any]], who: str = "") -> list[Reading]:
    """The mean latency and cost of a cohort given per task as (runs, successes, Σ latency,
    Σ cost), as the composite reads them."""
    rows = list(tasks)
    runs = sum(row[0] for row in rows)
    latency = sum((exact(row[2]) for row in rows), Fraction(0)) / runs
    cost = sum((exact(row[3]) for row in rows), Fraction(0)) / runs
    return [
        Reading(f"{who}mean latency", "latency", latency),
        Reading(f"{who}mean cost", "cost", cost),
    ]


def _cohort(tasks: Sequence[Sequence[Any]], who: str = "") -> list[Reading]:
    # Below the minimum of tasks the interval is null before any curve is read.
    return _means(tasks, who) if len(tasks) >= INTERVAL_MIN_TASKS else []


def _pair(a: Mapping[str, Sequence[Any]], b: Mapping[str, Sequence[Any]]) -> list[Reading]:
    shared = [task for task in a if task in b]
    return _means((a[t] for t in shared), "A's ") + _means((b[t] for t in shared), "B's ")


def _composite(inputs: Mapping[str, Any]) -> list[Reading]:
    return [
        Reading("mean latency", "latency", exact(inputs["mean_latency_ms"])),
        Reading("mean cost", "cost", exact(inputs["mean_cost_usd"])),
    ]


def _radar_latency(inputs: Mapping[str, Any]) -> list[Reading]:
    median = inputs["median_latency_ms"]
    if median is None or inputs["runs_with_latency"] < RADAR_LATENCY_MIN_RUNS:
        return []
    return [Reading("median latency", "radar latency", exact(median))]


def _radar_cost(inputs: Mapping[str, Any]) -> list[Reading]:
    median = inputs["median_cost_usd"]
    return [] if median is None else [Reading("median cost", "radar cost", exact(median))]


def _written(inputs: Mapping[str, Any]) -> dict[str, Any]:
    """A worked example's inputs with its decimal strings read as the numbers they are."""
    return {k: exact(Decimal(v)) if isinstance(v, str) else v for k, v in inputs.items()}


#: Per formula (its registered name) and per worked example (its name): the readings of
#: one golden point's or example's inputs.
READINGS: Mapping[str, Callable[[Mapping[str, Any]], list[Reading]]] = {
    "composite.latency_score": lambda i: [
        Reading("mean latency", "latency", exact(i["mean_latency_ms"]))
    ],
    "composite.cost_score": lambda i: [Reading("mean cost", "cost", exact(i["mean_cost_usd"]))],
    "uncertainty.composite_gradient": _composite,
    "uncertainty.mean_moves": lambda i: (
        [] if i["mean"] == 0 else [Reading("mean", i["curve_of"], exact(i["mean"]))]
    ),
    "uncertainty.composite_interval": lambda i: _cohort(i["tasks"]),
    "uncertainty.paired_composite": lambda i: _pair(i["a"], i["b"]),
    "radar.latency": _radar_latency,
    "radar.cost": _radar_cost,
    # Worked examples.
    "composite.typical": lambda i: _composite(_written(i)),
    "composite.below_gate": lambda i: _composite(_written(i)),
    "composite.zero_success": lambda i: _composite(_written(i)),
    "radar.typical": lambda i: [
        *_radar_latency(_written(i)),
        *_radar_cost(_written(i)),
    ],
    "uncertainty.composite": lambda i: _cohort(i["tasks"]),
    "uncertainty.paired": lambda i: _pair(
        {f"t{n}": task for n, task in enumerate(i["a"])},
        {f"t{n}": task for n, task in enumerate(i["b"])},
    ),
}


def flat_readings(inputs: Mapping[str, Any], owner: str) -> list[Reading]:
    """The readings of ``owner``'s (a formula's or a worked example's) ``inputs`` that sit
    where their curve is flat; none for an owner that reads no curve."""
    reads = READINGS.get(owner)
    if reads is None:
        return []
    return [r for r in reads(inputs) if is_flat_at(r.x, CURVES[r.curve]())]


def flat_text(reading: Reading) -> str:
    """Where a flat reading sits, in words: ``mean latency 400 on the latency curve, where
    it is flat (its sloped segments run from 500 to 10000)``."""
    from scoring.formulas.curves import sloped_segments
    from scoring.numeric import number_text

    segments = sloped_segments(CURVES[reading.curve]())
    span = (
        f"its slopes run from {number_text(segments[0][0].x)} to {number_text(segments[-1][1].x)}"
        if segments
        else "it has no slope"
    )
    return (
        f"{reading.what} {number_text(reading.x, max_places=6)} on the {reading.curve} curve, "
        f"where it is flat ({span})"
    )
