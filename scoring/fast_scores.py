"""The per-agent formulas evaluated faster, to the same exact values.

A report scores every agent once. With many small agents (20,000 agents of one run each)
that arithmetic, not the reading, is the time: ``Fraction`` checks its operands' types and
reduces by a gcd at every step. Here the same formulas are evaluated on plain integers
(numerator and denominator kept apart, one ``Fraction`` built per published value), and
those whose inputs come from a small set (counts, step medians, the per-task counts of
pass^k) are remembered. The formulas themselves stay where they are, the one definition:
``tests/scoring/test_report_speed.py`` proves every function here equal to the formula it
stands for, on random inputs and on every edge (anchors, clamps, empty cohorts).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from itertools import pairwise

from scoring.composite import CompositeResult
from scoring.constants import (
    COMPOSITE_WEIGHT_COST,
    COMPOSITE_WEIGHT_RELIABILITY,
    COMPOSITE_WEIGHT_SUCCESS,
    CONSISTENCY_MIN_RUNS,
    COST_ANCHORS_USD,
    LATENCY_ANCHORS_MS,
    NEUTRAL_CONSISTENCY,
    RADAR_COST_FULL_USD,
    RADAR_COST_ZERO_USD,
    SCORE_SCALE,
    Anchor,
    Axis,
)
from scoring.numeric import UNIT_ROUNDOFF, Number, exact
from scoring.radar import correctness_axis, robustness_axis, tool_efficiency_axis
from scoring.repeatability import RepeatabilityResult, score_repeatability

# A rational as (numerator, denominator), denominator > 0, not necessarily reduced.
Ratio = tuple[int, int]


def ratio(value: Number) -> Ratio:
    """``value`` as integers, exactly.

    >>> from decimal import Decimal
    >>> ratio(Decimal("0.25")), ratio(3)
    ((1, 4), (3, 1))
    """
    if isinstance(value, int):
        return value, 1
    if isinstance(value, Fraction):
        return value.numerator, value.denominator
    return value.as_integer_ratio()


def _fraction(value: Ratio) -> Fraction:
    return Fraction(*value)


class Curve:
    """``scoring.curves.piecewise_linear`` over fixed anchors, in integers.

    Each segment's line ``s_i + slope_i · (x − x_i)`` is prepared once as ``(P·x + Q) / D``
    in integers, so that a score costs two products and a sum.

    >>> Curve(LATENCY_ANCHORS_MS).at((7000, 2))  # 3500 ms: 65 points
    (13000, 200)
    """

    def __init__(self, anchors: Sequence[Anchor]) -> None:
        xs = [exact(a.x) for a in anchors]
        scores = [exact(a.score) for a in anchors]
        self._xs = [(x.numerator, x.denominator) for x in xs]
        self._first = ratio(scores[0])
        self._last = ratio(scores[-1])
        self._lines: list[tuple[int, int, int]] = []
        for (x0, x1), (s0, s1) in zip(pairwise(xs), pairwise(scores), strict=True):
            slope = (s1 - s0) / (x1 - x0)
            offset = s0 - slope * x0
            # slope·x + offset = (slope_n·offset_d·x + offset_n·slope_d) / (slope_d·offset_d)
            common = slope.denominator * offset.denominator
            self._lines.append(
                (slope.numerator * offset.denominator, offset.numerator * slope.denominator, common)
            )
        # The same curve in floats (each constant within u of its exact value, relatively):
        # for each segment its start, its score there and its slope.
        self._float_xs = [float(x) for x in xs]
        self._float_lines = [
            (float(x0), float(s0), float((s1 - s0) / (x1 - x0)))
            for (x0, x1), (s0, s1) in zip(pairwise(xs), pairwise(scores), strict=True)
        ]
        self._float_first, self._float_last = float(scores[0]), float(scores[-1])
        # How far at_float can be from the exact curve at the exact input, for an input
        # within u of it (relatively). On a segment, fl(s0 + fl(m·fl(x − x0))) is off by at
        # most |m|·3u·X (the input's and x0's error and the subtraction's, X the larger
        # end of the segment), u·|Δs| from the slope's error and u·|Δs| more from the product,
        # and u·|s0| + u·|result| from the sum: below 5u·|m|·X + 6u·S (S the largest score),
        # which also covers a float input that falls on the neighbouring segment (the curve
        # is continuous there, the two lines differ by at most (|m| + |m'|)·u·X) or beyond
        # an end (where the curve is flat).
        largest = max(abs(float(score)) for score in scores)
        self.float_error = (
            max(
                (
                    5 * UNIT_ROUNDOFF * abs(slope) * max(abs(x0), abs(x1))
                    for (x0, _, slope), x1 in zip(
                        self._float_lines, self._float_xs[1:], strict=True
                    )
                ),
                default=0.0,
            )
            + 6 * UNIT_ROUNDOFF * largest
        )

    def at(self, x: Ratio) -> Ratio:
        """The curve's score at ``x``: s_i + slope_i · (x − x_i) on the segment (x_i, x_{i+1}]."""
        n, d = x
        xs = self._xs
        if n * xs[0][1] <= xs[0][0] * d:
            return self._first
        for i in range(1, len(xs)):
            xn, xd = xs[i]
            if n * xd <= xn * d:
                p, q, common = self._lines[i - 1]
                return p * n + q * d, common * d
        return self._last

    def at_float(self, x: float) -> float:
        """:meth:`at` in floats: within ``float_error`` of the exact score at the exact value
        ``x`` approximates to within u (relatively).

        >>> Curve(LATENCY_ANCHORS_MS).at_float(3500.0)
        65.0
        """
        xs = self._float_xs
        if x <= xs[0]:
            return self._float_first
        for i in range(1, len(xs)):
            if x <= xs[i]:
                x0, s0, slope = self._float_lines[i - 1]
                return s0 + slope * (x - x0)
        return self._float_last


_LATENCY = Curve(LATENCY_ANCHORS_MS)
_COST = Curve(COST_ANCHORS_USD)
_SCALE = ratio(SCORE_SCALE)
_W_SUCCESS = ratio(COMPOSITE_WEIGHT_SUCCESS)
_W_RELIABILITY = ratio(COMPOSITE_WEIGHT_RELIABILITY)
_W_COST = ratio(COMPOSITE_WEIGHT_COST)
_NEUTRAL = ratio(NEUTRAL_CONSISTENCY)


# The composite's fields as integer ratios: score, success rate, consistency, latency score,
# cost score (``None`` for all without a completed run).
CompositeRatios = tuple[Ratio, Ratio, Ratio, Ratio, Ratio]


def consistency_ratio(completed: int, successes: int) -> Ratio:
    """The composite's consistency ``1 − 4p(1 − p)`` of these counts (``completed`` > 0),
    neutral below ``CONSISTENCY_MIN_RUNS``, as an integer ratio.

    >>> consistency_ratio(10, 8), consistency_ratio(10, 5)
    ((36, 100), (0, 100))
    """
    n = completed
    if n < CONSISTENCY_MIN_RUNS:
        return _NEUTRAL
    return n * n - 4 * successes * (n - successes), n * n


def composite_ratios(
    completed: int, successes: int, latency_sum: Ratio, cost_sum: Ratio
) -> CompositeRatios:
    """:func:`composite` as integer ratios (``completed`` > 0): score, success rate,
    consistency, latency score and cost score, none of them reduced.

    >>> score, rate, *_ = composite_ratios(4, 3, (8000, 1), (4, 100))
    >>> Fraction(*score), rate
    (Fraction(78, 1), (3, 4))
    """
    n = completed
    consistency = consistency_ratio(n, successes)
    latency = _LATENCY.at((latency_sum[0], latency_sum[1] * n))
    cost = _COST.at((cost_sum[0], cost_sum[1] * n))
    if successes == 0:
        score: Ratio = (0, 1)
    else:
        # scale · w_s · s/n
        a = (_SCALE[0] * _W_SUCCESS[0] * successes, _SCALE[1] * _W_SUCCESS[1] * n)
        # w_r · consistency · latency
        b = (
            _W_RELIABILITY[0] * consistency[0] * latency[0],
            _W_RELIABILITY[1] * consistency[1] * latency[1],
        )
        c = (_W_COST[0] * cost[0], _W_COST[1] * cost[1])
        score = (
            a[0] * b[1] * c[1] + b[0] * a[1] * c[1] + c[0] * a[1] * b[1],
            a[1] * b[1] * c[1],
        )
    return score, (successes, n), consistency, latency, cost


_U = UNIT_ROUNDOFF
_F_SCALE = float(SCORE_SCALE)
_F_SUCCESS = float(exact(SCORE_SCALE) * exact(COMPOSITE_WEIGHT_SUCCESS))
_F_RELIABILITY = float(exact(COMPOSITE_WEIGHT_RELIABILITY))
_F_COST = float(exact(COMPOSITE_WEIGHT_COST))
#: How far each value of :func:`composite_floats` can be from the exact one: the score's
#: terms are off by at most 3u·|scale·w_s| (a product and a quotient of exact integers'
#: floats), |w_r|·(latency's error + 5u·scale) (consistency is a quotient, 2 products)
#: and |w_c|·(cost's error + 2u·scale); the two sums add u·|sum| each.
COMPOSITE_FLOAT_ERROR = (
    abs(_F_RELIABILITY) * (_LATENCY.float_error + 5 * _U * _F_SCALE)
    + abs(_F_COST) * (_COST.float_error + 2 * _U * _F_SCALE)
    + 3 * _U * abs(_F_SUCCESS)
    + 4 * _U * (abs(_F_SUCCESS) + (abs(_F_RELIABILITY) + abs(_F_COST)) * _F_SCALE)
)


def composite_floats(
    completed: int, successes: int, latency_mean: float, cost_mean: float
) -> tuple[float, float, float]:
    """:func:`composite_ratios`' score, latency score and cost score in floats
    (``completed`` > 0), each within ``COMPOSITE_FLOAT_ERROR`` of the exact value, for
    means within u of the exact means (relatively); the success rate and consistency are
    ratios of counts, exact as :func:`composite_ratios` gives them.

    >>> composite_floats(4, 3, 2000.0, 0.01)
    (78.0, 80.0, 80.0)
    """
    latency = _LATENCY.at_float(latency_mean)
    cost = _COST.at_float(cost_mean)
    if successes == 0:
        return 0.0, latency, cost
    n = completed
    numerator, denominator = consistency_ratio(n, successes)
    consistency = numerator / denominator  # one correctly rounded quotient
    score = _F_SUCCESS * successes / n + _F_RELIABILITY * consistency * latency + _F_COST * cost
    return score, latency, cost


def composite(
    completed: int, successes: int, latency_sum: Number, cost_sum: Number
) -> CompositeResult:
    """``scoring.composite.score_composite`` of a cohort's counts and exact sums.

    Means are the sums over ``completed``; the composite is written
    ``scale·w_s·p + w_r·consistency·latency + w_c·cost``, the formula with its scale
    multiplied through (equal in exact arithmetic).

    >>> from decimal import Decimal
    >>> from scoring.composite import score_composite
    >>> fast = composite(4, 3, Decimal(8000), Decimal("0.04"))
    >>> fast == score_composite(4, 3, 2000, Decimal("0.010"))
    True
    """
    if completed == 0:
        return CompositeResult(None, None, None, None, None, 0, False)
    score, rate, consistency, latency, cost = composite_ratios(
        completed, successes, ratio(latency_sum), ratio(cost_sum)
    )
    return CompositeResult(
        score=_fraction(score),
        success_rate=_fraction(rate),
        consistency=_fraction(consistency),
        latency_score=_fraction(latency),
        cost_score=_fraction(cost),
        completed_runs=completed,
        zero_success_floor=successes == 0,
    )


_COST_FULL = ratio(RADAR_COST_FULL_USD)
_COST_ZERO = ratio(RADAR_COST_ZERO_USD)


def cost_axis_ratio(median_cost_usd: Ratio) -> Ratio:
    """:func:`cost_axis` of an integer ratio, as one.

    >>> Fraction(*cost_axis_ratio((6, 100))), cost_axis_ratio((1, 1000))
    (Fraction(50, 1), (100, 1))
    """
    c_n, c_d = median_cost_usd
    z_n, z_d = _COST_ZERO
    f_n, f_d = _COST_FULL
    # (z − c) / (z − f) = (z_n·c_d − c_n·z_d)·f_d / (c_d · (z_n·f_d − f_n·z_d))
    num = _SCALE[0] * (z_n * c_d - c_n * z_d) * f_d
    den = _SCALE[1] * c_d * (z_n * f_d - f_n * z_d)
    if num <= 0:
        return (0, 1)
    if num * _SCALE[1] >= _SCALE[0] * den:
        return _SCALE
    return num, den


_F_COST_ZERO = float(exact(RADAR_COST_ZERO_USD))
_F_COST_PER_USD = float(
    exact(SCORE_SCALE) / (exact(RADAR_COST_ZERO_USD) - exact(RADAR_COST_FULL_USD))
)
#: How far :func:`cost_axis_float` can be from the exact axis: before the clamp (which
#: only brings values closer) the axis is K·(z − c) with |c| at most max(|z|, |f|) where
#: it is on the scale, so the difference is off by 3u·(|z| + max(|z|, |f|)) and K's error
#: and the product's add 2u·scale.
COST_AXIS_FLOAT_ERROR = (
    abs(_F_COST_PER_USD)
    * 3
    * _U
    * (abs(_F_COST_ZERO) + max(abs(_F_COST_ZERO), abs(float(exact(RADAR_COST_FULL_USD)))))
    + 3 * _U * _F_SCALE
)


def cost_axis_float(median_cost_usd: float) -> float:
    """:func:`cost_axis_ratio` in floats, within ``COST_AXIS_FLOAT_ERROR`` of the exact
    axis for a median within u of the exact one (relatively).

    >>> cost_axis_float(0.06), cost_axis_float(0.001)
    (50.0, 100.0)
    """
    value = _F_COST_PER_USD * (_F_COST_ZERO - median_cost_usd)
    return 0.0 if value <= 0.0 else min(value, _F_SCALE)


def float_weights(weights: Sequence[Ratio | None]) -> list[float | None] | None:
    """The profile's weights (:func:`weight_ratios`) as floats, for :func:`profile_float`;
    ``None`` if one is so large or so small that a float would not keep it to within u
    (the exact profile then).

    >>> float_weights([(1, 2), None, (3, 1), None, None])
    [0.5, None, 3.0, None, None]
    >>> float_weights([(1, 10**400), None, None, None, None]) is None
    True
    """
    found: list[float | None] = []
    for weight in weights:
        if weight is None:
            found.append(None)
            continue
        try:
            value = weight[0] / weight[1]  # correctly rounded, however large the integers
        except OverflowError:
            return None
        if not _WEIGHT_FLOATS[0] <= value <= _WEIGHT_FLOATS[1]:
            return None
        found.append(value)
    return found


# Weights a float keeps to within u and whose products and sums with axis values stay far
# from overflow and from subnormals.
_WEIGHT_FLOATS = (2.0**-400, 2.0**400)


def profile_float(axes: Sequence[float | None], weights: Sequence[float | None]) -> float | None:
    """:func:`profile_ratio` in floats: ``Σ w_a x_a / Σ w_a`` over the axes with a value and
    a weight. Within ``axis error + PROFILE_FLOAT_ROUNDING`` of the exact profile when each
    axis value is within ``axis error`` of its exact value (a weighted mean moves by at most
    the largest move of its values) and each weight is :func:`float_weights`'.

    >>> profile_float([80.0, None, 40.0, None, None], [1.0, 1.0, 1.0, None, None])
    60.0
    """
    total = weighted = 0.0
    for value, weight in zip(axes, weights, strict=True):
        if value is not None and weight is not None:
            total += weight
            weighted += weight * value
    return None if total == 0.0 else weighted / total


#: What the float operations of :func:`profile_float` add to its error: the weights'
#: own error (u each) and the rounding of five products, ten sums and one quotient move a
#: mean of values at most ``scale`` by at most 32u·scale.
PROFILE_FLOAT_ROUNDING = 32 * _U * _F_SCALE


def cost_axis(median_cost_usd: Fraction | None) -> Fraction | None:
    """``scoring.radar.cost_axis``: ``scale · (zero − c) / (zero − full)``, clamped to the
    scale.

    >>> cost_axis(Fraction(6, 100))
    Fraction(50, 1)
    """
    if median_cost_usd is None:
        return None
    return _fraction(cost_axis_ratio((median_cost_usd.numerator, median_cost_usd.denominator)))


def profile_ratio(axes: Iterable[tuple[Ratio | None, Ratio | None]]) -> Ratio | None:
    """:func:`profile` of ``(axis value, weight)`` pairs as integer ratios: a pair whose
    value or weight is ``None`` is left out (and so is a weight of 0).

    >>> profile_ratio([((80, 1), (1, 1)), (None, (1, 1)), ((40, 1), (1, 1))])
    (120, 2)
    """
    total_n, total_d = 0, 1
    sum_n, sum_d = 0, 1
    for value, weight in axes:
        if value is None or weight is None:
            continue
        w_n, w_d = weight
        total_n, total_d = total_n * w_d + w_n * total_d, total_d * w_d
        x_n, x_d = w_n * value[0], w_d * value[1]
        sum_n, sum_d = sum_n * x_d + x_n * sum_d, sum_d * x_d
    if total_n == 0:
        return None
    return sum_n * total_d, sum_d * total_n


def weight_ratios(weights: Mapping[Axis, Fraction]) -> list[Ratio | None]:
    """The profile's weights by axis (in ``Axis`` order) as :func:`profile_ratio` reads
    them: ``None`` for an axis without weight.

    >>> weight_ratios({Axis.CORRECTNESS: Fraction(1, 2)})
    [(1, 2), None, None, None, None]
    """
    found = [weights.get(axis) for axis in Axis]
    return [None if not w else (w.numerator, w.denominator) for w in found]


def profile(
    axes: Mapping[Axis, Fraction | None], weights: Mapping[Axis, Fraction]
) -> Fraction | None:
    """``scoring.radar.profile`` with weights already exact and not negative (the report
    converts and checks them once): ``Σ w_a x_a / Σ w_a`` over the available axes.

    >>> profile({Axis.CORRECTNESS: Fraction(80), Axis.COST: Fraction(40)},
    ...         {Axis.CORRECTNESS: Fraction(1), Axis.COST: Fraction(1)})
    Fraction(60, 1)
    """
    by_axis = dict(zip(Axis, weight_ratios(weights), strict=True))
    found = profile_ratio(
        (None if value is None else (value.numerator, value.denominator), by_axis[axis])
        for axis, value in axes.items()
    )
    return None if found is None else _fraction(found)


# Inputs from small sets: counts of at most the window's runs, medians of step counts,
# (passes, known) per task. Remembered per process (bounded).
correctness = functools.lru_cache(maxsize=1 << 14)(correctness_axis)
tool_efficiency = functools.lru_cache(maxsize=1 << 12)(tool_efficiency_axis)


@functools.lru_cache(maxsize=1 << 12)
def robustness(tasks: tuple[tuple[int, int], ...]) -> Fraction | None:
    """``scoring.radar.robustness_axis`` of ``(passes, known)`` per task (order is free:
    it is a mean)."""
    return robustness_axis(tasks)


@functools.lru_cache(maxsize=1 << 12)
def _repeatability(tasks: tuple[tuple[int, int], ...]) -> RepeatabilityResult:
    return score_repeatability(tasks)


def repeatability(tasks: Sequence[tuple[int, int]]) -> RepeatabilityResult:
    """``scoring.repeatability.score_repeatability`` of ``(n, c)`` per task, remembered by
    the sorted counts (pass^k is a mean over tasks: their order is free). Each agent gets
    its own copy of the levels' dict."""
    shared = _repeatability(tuple(sorted(tasks)))
    return RepeatabilityResult(dict(shared.pass_hat), shared.tasks)


def _as_ratio(value: Fraction | None) -> Ratio | None:
    return None if value is None else value.as_integer_ratio()


@functools.lru_cache(maxsize=1 << 14)
def correctness_ratio(passes: int, known_outcomes: int) -> Ratio | None:
    """``scoring.radar.correctness_axis`` as an integer ratio (remembered, as
    :func:`correctness`)."""
    return _as_ratio(correctness_axis(passes, known_outcomes))


@functools.lru_cache(maxsize=1 << 12)
def tool_efficiency_ratio(median_steps: int | Fraction) -> Ratio | None:
    """``scoring.radar.tool_efficiency_axis`` as an integer ratio (remembered)."""
    return _as_ratio(tool_efficiency_axis(median_steps))


@functools.lru_cache(maxsize=1 << 12)
def robustness_ratio(tasks: tuple[tuple[int, int], ...]) -> Ratio | None:
    """``scoring.radar.robustness_axis`` as an integer ratio (remembered)."""
    return _as_ratio(robustness_axis(tasks))
