"""The five-axis fitness radar and its weighted profile (a diagnostic, never the composite)."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from scoring.constants import (
    RADAR_COST_FULL_USD,
    RADAR_COST_ZERO_USD,
    RADAR_DEFAULT_WEIGHTS,
    RADAR_LATENCY_FULL_MS,
    RADAR_LATENCY_MIN_RUNS,
    RADAR_LATENCY_POINTS_PER_STEP,
    RADAR_LATENCY_STEP_MS,
    RADAR_POINTS_PER_EXTRA_STEP,
    RADAR_STEPS_FREE,
    ROBUSTNESS_MIN_OUTCOMES,
    SCORE_SCALE,
    Anchor,
    Axis,
)
from scoring.formulas.curves import along, slope_points, written
from scoring.numeric import Number, clamp, exact, exact_sum
from scoring.registry import (
    Arg,
    FormulaParts,
    Point,
    ScoringError,
    arg,
    at_least,
    column,
    const,
    entry,
    formula,
    point,
    present,
    rows,
    tex_number,
)

# The numbers a formula shows are the constants', so a changed constant changes the formula.
_SCALE = tex_number(SCORE_SCALE)
_CLAMP = r"\operatorname{clamp}_{[0," + _SCALE + r"]}\!"

_ZERO = Fraction(0)
# The constants as exact fractions, converted once (not on every agent's score). A dict
# keyed by value: constants that happen to be equal share one entry, harmlessly.
_EXACT = {
    c: exact(c)
    for c in (
        SCORE_SCALE,
        RADAR_LATENCY_FULL_MS,
        RADAR_LATENCY_POINTS_PER_STEP,
        RADAR_LATENCY_STEP_MS,
        RADAR_COST_FULL_USD,
        RADAR_COST_ZERO_USD,
        RADAR_POINTS_PER_EXTRA_STEP,
    )
}

# The axes of the profile's golden points: one missing, the others spread over the scale.
_PROFILE_AXES: dict[Axis, Fraction | None] = {
    Axis.CORRECTNESS: Fraction(80),
    Axis.LATENCY: None,
    Axis.COST: Fraction(40),
    Axis.TOOL_EFFICIENCY: Fraction(100),
    Axis.ROBUSTNESS: Fraction(25),
}

# Where the latency axis reaches 0.
_LATENCY_ZERO_MS = (
    RADAR_LATENCY_FULL_MS + SCORE_SCALE / RADAR_LATENCY_POINTS_PER_STEP * RADAR_LATENCY_STEP_MS
)


def latency_ramp() -> tuple[Anchor, ...]:
    """The latency axis as a curve: the full score at ``RADAR_LATENCY_FULL_MS``, falling
    linearly to 0 where the steps have taken every point, flat beyond both (the clamp).

    >>> [latency_axis(a.x, RADAR_LATENCY_MIN_RUNS) == a.score for a in latency_ramp()]
    [True, True]
    """
    return (Anchor(RADAR_LATENCY_FULL_MS, SCORE_SCALE), Anchor(_LATENCY_ZERO_MS, Decimal(0)))


def cost_ramp() -> tuple[Anchor, ...]:
    """The cost axis as a curve: the full score at ``RADAR_COST_FULL_USD``, 0 at
    ``RADAR_COST_ZERO_USD``, linear between, flat beyond both (the clamp).

    >>> [cost_axis(anchor.x) == anchor.score for anchor in cost_ramp()]
    [True, True]
    """
    return (Anchor(RADAR_COST_FULL_USD, SCORE_SCALE), Anchor(RADAR_COST_ZERO_USD, Decimal(0)))


def _on_scale(value: Fraction) -> Fraction:
    """``clamp_[0, scale](value)``: an axis limited to the score's scale."""
    return clamp(value, _ZERO, _EXACT[SCORE_SCALE])


def _clamped_axis(axis: str, inner: str) -> str:
    """The LaTeX of an axis clamped to the scale: ``axis = clamp_[0, 100](inner)``."""
    return rf"\mathrm{{{axis}}} = {_CLAMP}\left({inner}\right)"


def _median_axis(
    *,
    title: str,
    latex: str,
    median: tuple[str, Arg],
    constants: Mapping[str, str],
    values: Iterable[Number],
    others: Iterable[Point] = (),
    **inputs: Any,
) -> FormulaParts:
    """The formula of an axis read off one median: its ``latex``, the median's symbol and
    argument, the symbols of its ``constants`` (LaTeX → constant name), and golden points
    at each of ``values`` (labelled by the value), then ``others``, then ``"none"`` for an
    absent median; every point also takes the fixed ``inputs``."""
    symbol, argument = median
    spread = [point(str(value), **{argument.name: value}, **inputs) for value in values]
    return FormulaParts(
        title=title,
        latex=latex,
        symbols={symbol: argument, **{tex: const(c) for tex, c in constants.items()}},
        golden=[*spread, *others, point("none", **{argument.name: None}, **inputs)],
    )


@formula(
    "radar.correctness",
    title="Correctness axis",
    latex=(
        r"\mathrm{correctness} = " + _SCALE + r" \cdot "
        r"\dfrac{\text{passes}}{\text{window runs with a known outcome}}"
    ),
    symbols={
        r"\text{passes}": arg("passes"),
        r"\text{window runs with a known outcome}": arg("known_outcomes"),
    },
    golden=[
        point("3/4", passes=3, known_outcomes=4),
        point("none", passes=0, known_outcomes=0),
    ],
)
def correctness_axis(passes: int, known_outcomes: int) -> Fraction | None:
    """Pass rate × 100 over window runs with a known outcome; ``None`` if there are none.

    Returns a value in [0, 100] or ``None``; 100 is best.

    >>> correctness_axis(3, 4), correctness_axis(0, 0)
    (Fraction(75, 1), None)
    """
    if known_outcomes == 0:
        return None
    if not 0 <= passes <= known_outcomes:
        raise ScoringError("passes must lie between 0 and the known outcomes")
    return _EXACT[SCORE_SCALE] * Fraction(passes, known_outcomes)


@formula(
    "radar.latency",
    **_median_axis(
        title="Latency axis",
        latex=_clamped_axis(
            "latency",
            _SCALE + r" - \Delta \cdot \dfrac{\tilde{t} - t_{\mathrm{full}}}{\mathrm{step}}",
        ),
        median=(
            r"\tilde{t}",
            arg("median_latency_ms", unless_below=("runs_with_latency", "RADAR_LATENCY_MIN_RUNS")),
        ),
        constants={
            r"t_{\mathrm{full}}": "RADAR_LATENCY_FULL_MS",
            r"\Delta": "RADAR_LATENCY_POINTS_PER_STEP",
            r"\mathrm{step}": "RADAR_LATENCY_STEP_MS",
        },
        # On the axis's slope (its clamped ends are tool efficiency's golden points).
        values=[Decimal(written(x)) for x in slope_points(latency_ramp())],
        others=(
            point(
                f"hidden,n={RADAR_LATENCY_MIN_RUNS - 1}",
                median_latency_ms=Decimal(written(along(latency_ramp(), "0.5"))),
                runs_with_latency=RADAR_LATENCY_MIN_RUNS - 1,
            ),
        ),
        runs_with_latency=RADAR_LATENCY_MIN_RUNS,
    ),
)
def latency_axis(median_latency_ms: Number | None, runs_with_latency: int) -> Fraction | None:
    """From the median latency: 100 at 500 ms, minus 2 points per 100 ms; clamped.

    ``None`` until ``RADAR_LATENCY_MIN_RUNS`` window runs have a latency.

    Returns a value in [0, 100] or ``None``; 100 is best.

    >>> latency_axis(1000, 5), latency_axis(1000, 4)
    (Fraction(90, 1), None)
    """
    if median_latency_ms is None or runs_with_latency < RADAR_LATENCY_MIN_RUNS:
        return None
    median = exact(median_latency_ms)
    scale, full = _EXACT[SCORE_SCALE], _EXACT[RADAR_LATENCY_FULL_MS]
    points, step = _EXACT[RADAR_LATENCY_POINTS_PER_STEP], _EXACT[RADAR_LATENCY_STEP_MS]
    return _on_scale(scale - points * (median - full) / step)


@formula(
    "radar.cost",
    **_median_axis(
        title="Cost axis",
        latex=_clamped_axis(
            "cost",
            _SCALE + r" \cdot \dfrac{c_{\mathrm{zero}} - \tilde{c}}"
            r"{c_{\mathrm{zero}} - c_{\mathrm{full}}}",
        ),
        median=(r"\tilde{c}", arg("median_cost_usd")),
        constants={
            r"c_{\mathrm{zero}}": "RADAR_COST_ZERO_USD",
            r"c_{\mathrm{full}}": "RADAR_COST_FULL_USD",
        },
        values=[Decimal(written(x)) for x in slope_points(cost_ramp())],
    ),
)
def cost_axis(median_cost_usd: Number | None) -> Fraction | None:
    """From the median cost: 100 at $0.01 or less, linearly to 0 at $0.11; ``None`` if absent.

    Returns a value in [0, 100] or ``None``; 100 is best.

    >>> from decimal import Decimal
    >>> cost_axis(Decimal("0.06")), cost_axis(None)
    (Fraction(50, 1), None)
    """
    if median_cost_usd is None:
        return None
    median = exact(median_cost_usd)
    scale, full = _EXACT[SCORE_SCALE], _EXACT[RADAR_COST_FULL_USD]
    zero = _EXACT[RADAR_COST_ZERO_USD]
    return _on_scale(scale * (zero - median) / (zero - full))


@formula(
    "radar.tool_efficiency",
    **_median_axis(
        title="Tool-efficiency axis",
        latex=_clamped_axis(
            "tool", _SCALE + r" - \delta \cdot \max\!\left(0,\ \tilde{s} - s_{\mathrm{free}}\right)"
        ),
        median=(r"\tilde{s}", arg("median_steps")),
        constants={
            r"s_{\mathrm{free}}": "RADAR_STEPS_FREE",
            r"\delta": "RADAR_POINTS_PER_EXTRA_STEP",
        },
        values=(
            0,
            RADAR_STEPS_FREE,
            RADAR_STEPS_FREE + 1,
            RADAR_STEPS_FREE + Fraction(1, 2),
            RADAR_STEPS_FREE + 5,
            RADAR_STEPS_FREE + 20,
        ),
    ),
)
def tool_efficiency_axis(median_steps: Number | None) -> Fraction | None:
    """From the median step count: 100 at 3 or fewer, minus 10 per extra step; clamped.

    Returns a value in [0, 100] or ``None``; 100 is best.

    >>> tool_efficiency_axis(5), tool_efficiency_axis(None)
    (Fraction(80, 1), None)
    """
    if median_steps is None:
        return None
    median, free = exact(median_steps), exact(RADAR_STEPS_FREE)
    scale, points = _EXACT[SCORE_SCALE], _EXACT[RADAR_POINTS_PER_EXTRA_STEP]
    return _on_scale(scale - points * max(_ZERO, median - free))


@formula(
    "radar.determinism",
    title="Task determinism",
    latex=r"d(q) = (2q - 1)^2",
    symbols={"q": arg("q")},
    golden=[
        point(str(q), q=q)
        for q in (Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(1))
    ],
)
def determinism(q: Number) -> Fraction:
    """Determinism of one task with pass rate ``q``: 1 at all-pass or all-fail, 0 at 50/50.

    Returns a value in [0, 1]; 1 is best.

    >>> determinism(Fraction(1, 2)), determinism(1), determinism(Fraction(1, 4))
    (Fraction(0, 1), Fraction(1, 1), Fraction(1, 4))
    """
    rate = exact(q)
    if not 0 <= rate <= 1:
        raise ScoringError("a pass rate q must lie in [0, 1]")
    return (2 * rate - 1) ** 2


@formula(
    "radar.robustness",
    title="Robustness axis",
    latex=r"\mathrm{robustness} = \dfrac{" + _SCALE + r"}{|T|} \sum_{t \in T} (2q_t - 1)^2",
    symbols={
        "T": rows("tasks", "passes", "known", keep=at_least("known", "ROBUSTNESS_MIN_OUTCOMES")),
        "q_t": column("passes", ratio="known"),
    },
    golden=[
        point("sample", tasks=((2, 2), (1, 2), (3, 4), (1, 1))),
        point("none", tasks=((1, ROBUSTNESS_MIN_OUTCOMES - 1),)),
    ],
)
def robustness_axis(tasks: Iterable[tuple[int, int]]) -> Fraction | None:
    """Mean determinism × 100 over tasks with enough known outcomes in the window.

    ``tasks`` holds ``(passes, known_outcomes)`` per task; tasks with fewer than
    ``ROBUSTNESS_MIN_OUTCOMES`` known outcomes are left out; ``None`` if none remain.

    Returns a value in [0, 100] or ``None``; 100 is best.

    >>> robustness_axis([(2, 2), (1, 2), (1, 1)])
    Fraction(50, 1)
    """
    rule = determinism  # looked up on each call, so the registered formula is the one used
    values = [
        _determinism_of(rule, passes, known)
        for passes, known in tasks
        if known >= ROBUSTNESS_MIN_OUTCOMES
    ]
    if not values:
        return None
    return _EXACT[SCORE_SCALE] / len(values) * exact_sum(values)


@functools.lru_cache(maxsize=4096)
def _determinism_of(rule: Callable[[Number], Fraction], passes: int, known: int) -> Fraction:
    """``rule(passes/known)``: the determinism of a task's pass rate, remembered per rule and
    tally (a window holds few distinct tallies, and the rule is pure)."""
    return rule(Fraction(passes, known))


@formula(
    "radar.profile",
    title="Radar profile",
    latex=r"\mathrm{profile} = \dfrac{\sum_{a \in A} w_a\, x_a}{\sum_{a \in A} w_a}",
    symbols={
        "A": rows("axes", "key", "value", keep=present()),
        "x_a": column("value"),
        "w_a": entry(arg("weights", default=const("RADAR_DEFAULT_WEIGHTS"))),
    },
    golden=[
        point("one-missing", axes=_PROFILE_AXES),
        point("weighted", axes=_PROFILE_AXES, weights=dict(zip(Axis, range(5), strict=True))),
        point("all-missing", axes=dict.fromkeys(Axis)),
    ],
)
def profile(
    axes: Mapping[Axis, Fraction | None], weights: Mapping[Axis, Number] | None = None
) -> Fraction | None:
    """Weighted mean of the available axes, weights re-normalised over them.

    ``weights`` defaults to ``RADAR_DEFAULT_WEIGHTS``. ``None`` if every axis is ``None``
    or the available axes carry no weight.

    Returns a value in [0, 100] or ``None``; 100 is best.

    >>> profile({Axis.CORRECTNESS: Fraction(80), Axis.LATENCY: None, Axis.COST: Fraction(40)})
    Fraction(60, 1)
    """
    chosen = default_weights() if weights is None else weights
    present = [(axis, exact(value)) for axis, value in axes.items() if value is not None]
    w = {axis: exact(chosen.get(axis, 0)) for axis, _ in present}
    for axis, weight in w.items():
        if weight < 0:
            raise ScoringError(f"the weight of axis {axis!s} must not be negative")
    total = exact_sum(w.values())
    if total == 0:
        return None
    return exact_sum(w[a] * x_a for a, x_a in present) / total


def normalised(weights: Mapping[Axis, Number]) -> dict[Axis, Fraction]:
    """``weights`` of every axis (0 for one not named) divided by their sum: the share of
    the profile each axis has when every axis has a score (all 0 when they sum to 0).

    >>> normalised({Axis.CORRECTNESS: 2, Axis.COST: 1})[Axis.CORRECTNESS]
    Fraction(2, 3)
    """
    exactly = {axis: exact(weights.get(axis, 0)) for axis in Axis}
    total = sum(exactly.values(), Fraction(0))
    return {axis: value / total if total else Fraction(0) for axis, value in exactly.items()}


def default_weights() -> Mapping[Axis, Number]:
    """The weights :func:`profile` uses when it is given none: ``RADAR_DEFAULT_WEIGHTS``,
    read when it is called."""
    return RADAR_DEFAULT_WEIGHTS


@dataclass(frozen=True, slots=True)
class RadarResult:
    """The five axes, the profile, the window size and the raw median latency (exact)."""

    axes: dict[Axis, Fraction | None]
    profile: Fraction | None
    window_runs: int
    median_latency_ms: Fraction | None
