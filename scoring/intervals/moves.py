"""The headline composite's interval of methodology 1.2.0: asymmetric moves read off each
part's own interval (docs/uncertainty.md, the headline composite, rules
1 to 5); the rates' interval it reads is :mod:`scoring.intervals.rates`'s."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

import scoring.constants as C  # noqa: N812 - golden cohorts are placed on the live anchors
from scoring.constants import (
    CONSISTENCY_MIN_RUNS,
    INTERVAL_MIN_TASKS,
    SCORE_DECIMALS,
    SCORE_SCALE,
)
from scoring.formulas.composite import (
    SCALE,
    W_COST,
    W_RELIABILITY,
    W_SUCCESS,
    outcome_consistency,
    weighted_formula,
)
from scoring.formulas.curves import along, as_written, cost_score, latency_score
from scoring.intervals import rates, variance
from scoring.intervals.clustered import CohortTask, Columns
from scoring.intervals.rate_bounds import outwards_with_margin
from scoring.intervals.surd import Interval
from scoring.numeric import Number, exact
from scoring.registry import ScoringError, const, formula, point, tex_number, uses, words

# The scale a formula shows is the constant's, so a changed constant changes the formula.
_SCALE_TEX = tex_number(SCORE_SCALE)

# --- Headline composite -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CompositeMoves:
    """The 1.2.0 composite interval of one cohort and every part it was read from.

    ``moves`` holds ``(D⁻, D⁺)`` per part, in the order (success, latency, cost);
    ``correlations`` the ``r_jk`` of rule 4 in the pairs (0, 1), (0, 2), (1, 2).
    """

    score_unfloored: Fraction
    success_low: float
    success_high: float
    q: float
    moves: tuple[tuple[float, float], tuple[float, float], tuple[float, float]]
    correlations: tuple[float, float, float]
    low: float
    high: float
    interval: Interval


def _weighted(p: Fraction, runs: int, latency: Fraction, cost: Fraction) -> Fraction:
    """``f(p) = 100·w_s·p + w_r·L̂·cons(p) + w_c·Ĉ``: the composite's weighted formula
    (:func:`scoring.formulas.composite.weighted_formula`) with the registered consistency
    (:func:`scoring.formulas.composite.outcome_consistency`) at an exact ``p``, before the
    zero-success floor, exactly."""
    return weighted_formula(p, outcome_consistency(p, runs), latency, cost)


@formula(
    "uncertainty.success_moves",
    title="Composite interval: the success rate's moves",
    latex=(
        r"D_p^- = \max\!\left(S^0 - f_{\min},\ q\,|g_p|\sqrt{\Sigma_{pp}}\right),\quad"
        r" D_p^+ = f_{\max} - S^0,\quad"
        r" f(p) = " + _SCALE_TEX + r"\,w_s\,p + w_r\,\hat L\,\mathrm{cons}(p) + w_c\,\hat C,\quad"
        r" f_{\min} = \min\!\left(f(p^-),\ f(p^+),"
        r"\ f(\operatorname{clamp}_{[p^-, p^+]}(p_v))\right),"
        r"\quad f_{\max} = \max\!\left(f(p^-),\ f(p^+)\right),"
        r"\quad p_v = \dfrac{1}{2} - \dfrac{" + _SCALE_TEX + r"\,w_s}{8\,w_r\,\hat L}"
    ),
    symbols={
        # One entry for the pair: a minus sign set as a small superscript beside a subscript
        # is too thin to read in the list's type size.
        "D_p^+": words(
            "how far the success rate's interval can move the composite up (and D_p^- down)"
        ),
        "S^0": words("the weighted formula at the observed means, before the zero-success floor"),
        "q": uses("uncertainty.t_factor"),
        "g_p": words(
            "the composite's gradient in the success rate (uncertainty.composite_gradient)"
        ),
        r"\Sigma_{pp}": words("the clustered variance of the success rate"),
        "p^-": words("the low bound of the success rate's interval (before rounding)"),
        "p^+": words("its high bound"),
        "p_v": words(
            "the success rate where the weighted formula is lowest (the parabola's vertex)"
        ),
        r"\hat L": words("the latency score at the mean latency"),
        r"\hat C": words("the cost score at the mean cost"),
        "w_s": const("COMPOSITE_WEIGHT_SUCCESS"),
        "w_r": const("COMPOSITE_WEIGHT_RELIABILITY"),
        "w_c": const("COMPOSITE_WEIGHT_COST"),
        r"\mathrm{cons}": uses("composite.outcome_consistency"),
    },
    descriptive=(
        "the least and largest value of a quadratic over an interval, with a floor read off "
        "the delta method's move; its parts are the weighted formula and the rate interval"
    ),
    golden=(
        point(
            "rising",
            score=Fraction(44),
            bounds=(0.4, 0.6),
            runs=20,
            latency=Fraction(80),
            cost=Fraction(80),
            floor_move=0.0,
        ),
        point(
            "below the vertex",
            score=Fraction(30),
            bounds=(0.05, 0.35),
            runs=20,
            latency=Fraction(90),
            cost=Fraction(50),
            floor_move=0.5,
        ),
        point(
            "floor move wins",
            score=Fraction(60),
            bounds=(0.59, 0.61),
            runs=20,
            latency=Fraction(50),
            cost=Fraction(50),
            floor_move=4.0,
        ),
    ),
)
def success_moves(
    score: Fraction,
    bounds: tuple[float, float],
    runs: int,
    latency: Fraction,
    cost: Fraction,
    floor_move: float,
) -> tuple[float, float]:
    """``(D_p⁻, D_p⁺)``: how far ``f`` moves the score over the success interval.

    ``f(p) = 100·w_s·p + w_r·L̂·cons(p) + w_c·Ĉ``, vertex ``p_v = ½ − 100·w_s/(8·w_r·L̂)``
    (``f`` linear when ``L̂ = 0`` or consistency is neutral); ``f_min`` the least of
    ``f(p⁻)``, ``f(p⁺)``, ``f(clip(p_v, p⁻, p⁺))``, ``f_max`` the larger of ``f(p⁻)``,
    ``f(p⁺)``; ``D_p⁻ = max(S⁰ − f_min, floor_move)``, ``D_p⁺ = f_max − S⁰``, where
    ``floor_move = q·|g_p|·√Σ_pp``. The vertex matters below ``p_v`` (about 0.30 with the
    1.x weights), where ``S`` falls as ``p`` rises.

    >>> from fractions import Fraction as F
    >>> [round(d, 4) for d in success_moves(F(44), (0.4, 0.6), 20, F(80), F(80), 0.0)]
    [3.04, 4.96]
    """
    p_low, p_high = bounds
    if not 0 <= p_low <= p_high <= 1:
        raise ScoringError(f"bounds must satisfy 0 ≤ low ≤ high ≤ 1, not {bounds!r}")
    # Each float bound converted to its exact binary value once; f is evaluated exactly
    # on rationals (no surd) and rounded once.
    low, high = exact(p_low), exact(p_high)
    values = [float(_weighted(bound, runs, latency, cost)) for bound in (low, high)]
    f_max = max(values)
    if latency > 0 and runs >= CONSISTENCY_MIN_RUNS:
        vertex = Fraction(1, 2) - SCALE * W_SUCCESS / (8 * W_RELIABILITY * latency)
        clipped = min(max(vertex, low), high)
        values.append(float(_weighted(clipped, runs, latency, cost)))
    s0 = float(score)
    return max(s0 - min(values), floor_move), f_max - s0


@formula(
    "uncertainty.mean_moves",
    title="Composite interval: the moves of a mean latency or cost",
    latex=(
        r"D^- = w\,\bigl(F(\bar x) - F(x^+)\bigr),\quad D^+ = w\,\bigl(F(x^-) - F(\bar x)\bigr),"
        r"\quad x^{\pm} = \bar x \cdot \exp\!\left(\pm \dfrac{q \sqrt{\Sigma_{xx}}}{\bar x}\right)"
    ),
    symbols={
        "D^-": words("how far the mean can move the composite down"),
        "D^+": words("how far it can move the composite up"),
        "w": words("the mean's weight in the composite: w_r·cons(p̂) for latency, w_c for cost"),
        "F": words("the mean's curve: the latency score or the cost score"),
        r"\bar x": words("the mean latency (ms) or the mean cost (USD) of the cohort"),
        r"\Sigma_{xx}": words("the clustered variance of that mean"),
        "q": uses("uncertainty.t_factor"),
    },
    descriptive=(
        "an exponential move of a mean, read through the piecewise-linear curve of its "
        "score (uncertainty.curve_slope's curves); w is w_r·cons(p̂) for latency, w_c for cost"
    ),
    # Each mean on a sloped segment of its curve (placed relative to the anchors), its
    # spread a tenth (a fifth) of it, so that both moves read the slope.
    golden=(
        point(
            "latency",
            mean=(latency := along(C.LATENCY_ANCHORS_MS, Fraction(1, 3), 1)),
            variance=(latency / 10) ** 2,
            q=2.0,
            weight=Fraction(3, 10),
            curve_of="latency",
        ),
        point(
            "cost",
            mean=(cost := along(C.COST_ANCHORS_USD, "0.375", 1)),
            variance=(cost / 5) ** 2,
            q=2.04523,
            weight=Fraction(2, 10),
            curve_of="cost",
        ),
        point(
            "mean 0",
            mean=Fraction(0),
            variance=Fraction(0),
            q=2.0,
            weight=Fraction(1),
            curve_of="cost",
        ),
    ),
)
def mean_moves(
    mean: Fraction, variance: Fraction, q: float, weight: Fraction, curve_of: str
) -> tuple[float, float]:
    """``(D⁻, D⁺)`` of a mean latency or cost: ``x± = x̄·exp(±q·√Σ_xx/x̄)`` and
    ``D⁻ = weight·(F(x̄) − F(x⁺))``, ``D⁺ = weight·(F(x⁻) − F(x̄))`` on the curve ``F``
    (``curve_of``: ``"latency"`` or ``"cost"``; the curves fall as the mean grows). The
    ``weight`` is ``w_r·cons(p̂)`` for latency, ``w_c`` for cost. A mean of 0 moves 0.

    Halfway along a sloped segment, with a small spread, both moves read its slope, and
    the move down is the larger (``x⁺ − x̄ > x̄ − x⁻``):

    >>> mean = along(C.LATENCY_ANCHORS_MS, "0.5")
    >>> down, up = mean_moves(mean, (mean / 100) ** 2, 2.0, Fraction(3, 10), "latency")
    >>> down > up > 0
    True
    """
    curves = {"latency": latency_score, "cost": cost_score}
    if curve_of not in curves:
        raise ScoringError(f"curve_of must be 'latency' or 'cost', not {curve_of!r}")
    if mean < 0 or variance < 0:
        raise ScoringError("a mean and its variance must not be negative")
    if mean == 0:
        return 0.0, 0.0
    curve = curves[curve_of]
    spread = math.exp(q * math.sqrt(variance) / float(mean))
    up, down = float(mean) * spread, float(mean) / spread
    centre = curve(mean)
    down_move = float(weight * (centre - curve(up)))  # D⁻: the mean moves up
    return down_move, float(weight * (curve(down) - centre))


def move_correlations(
    gradient: Sequence[Number], sigma: Sequence[Sequence[Number]]
) -> tuple[float, ...]:
    """``r_jk = sign(g_j·g_k)·Σ_jk/√(Σ_jj·Σ_kk)`` for ``j < k`` (in the order (0, 1),
    (0, 2), (1, 2), …), 0 where a gradient or a variance is 0.

    >>> move_correlations([1, -1], [[4, 2], [2, 4]])
    (-0.5,)
    """
    size = len(gradient)
    values: list[float] = []
    for j in range(size):
        for k in range(j + 1, size):
            g, s_jj, s_kk = exact(gradient[j]) * exact(gradient[k]), sigma[j][j], sigma[k][k]
            if g == 0 or s_jj == 0 or s_kk == 0:
                values.append(0.0)
                continue
            sign = 1 if g > 0 else -1
            values.append(
                sign * float(sigma[j][k]) / math.sqrt(float(sigma[j][j]) * float(sigma[k][k]))
            )
    return tuple(values)


def combined_move(moves: Sequence[float], correlations: Sequence[float]) -> float:
    """``√(Σ_j D_j² + 2·Σ_{j<k} r_jk·D_j·D_k)`` (``r`` in the order of
    :func:`move_correlations`); 0 when rounding makes the sum negative.

    With symmetric moves ``D_j = z·|g_j|·√Σ_jj`` it is ``z·√(gᵀΣg)``, 1.1.0's half-width.

    >>> combined_move([3.0, 4.0], [0.0])
    5.0
    """
    size = len(moves)
    if len(correlations) != size * (size - 1) // 2:
        raise ScoringError("correlations needs one value per pair of moves")
    total = sum(d * d for d in moves)
    pairs = iter(correlations)
    for j in range(size):
        for k in range(j + 1, size):
            total += 2 * next(pairs) * moves[j] * moves[k]
    return math.sqrt(max(total, 0.0))


def cohort_means(tasks: Sequence[CohortTask]) -> tuple[int, Fraction, Fraction, Fraction]:
    """The completed runs, success rate, mean latency (ms) and mean cost (USD) of a cohort
    given per task as (runs, successes, latency_ms sum, cost_usd sum)."""
    n = sum(task[0] for task in tasks)
    successes = sum(task[1] for task in tasks)
    latency = sum((exact(task[2]) for task in tasks), Fraction(0))
    cost = sum((exact(task[3]) for task in tasks), Fraction(0))
    return n, Fraction(successes, n), latency / n, cost / n


def check_cohort(tasks: Sequence[CohortTask], name: str) -> None:
    """Refuse a cohort whose task sums no cohort of runs could have (``name`` names it)."""
    for runs, successes, latency, cost in tasks:
        if runs <= 0 or not 0 <= successes <= runs:
            raise ScoringError(
                f"{name}: each task needs runs > 0 and successes between 0 and its runs "
                f"(got {runs} runs, {successes} successes)"
            )
        if exact(latency).numerator < 0 or exact(cost).numerator < 0:  # no Fraction compare
            raise ScoringError(f"{name}: latency and cost sums must not be negative")


def composite_moves(tasks: Sequence[CohortTask]) -> CompositeMoves | None:
    """The 1.2.0 interval of the headline composite from :data:`CohortTask` per task
    (runs, successes, latency_ms sum, cost_usd sum); ``None`` below ``INTERVAL_MIN_TASKS``.

    ``S⁰`` the weighted formula before the floor at ``p̂``, ``ℓ̄``, ``ū``; ``Σ`` and ``g``
    as 1.1.0; ``q`` = :func:`t_factor`. Moves: success (:func:`success_moves` over the rate
    interval of ``p̂``), latency and cost (:func:`mean_moves`); correlations
    (:func:`move_correlations`); low = ``S⁰ −`` :func:`combined_move` of the ``D⁻``, high
    = ``S⁰ +`` that of the ``D⁺``; under the zero-success floor low = 0. Clipped to
    [0, 100] and rounded outwards at two decimals (:func:`outwards_with_margin`).

    >>> found = composite_moves(list(MIXED_COHORT))
    >>> found.interval.low < found.score_unfloored < found.interval.high
    True
    >>> all(move > 0 for move in found.moves[2])  # the mean cost sits on a slope
    True
    """
    check_cohort(tasks, "tasks")
    if len(tasks) < INTERVAL_MIN_TASKS:
        return None
    # The means from the integer columns; Σ and g by their registered formulas.
    sums = tuple((task[0], tuple(task[1:])) for task in tasks)  # Columns.of's, twice
    columns = Columns.of(sums)
    n, sigma = sum(columns.counts), variance.clustered_covariance(sums)
    p, mean_latency, mean_cost = columns.mean(0), columns.mean(1), columns.mean(2)
    gradient = variance.composite_gradient(p, mean_latency, mean_cost, n)
    latency, cost = latency_score(mean_latency), cost_score(mean_cost)
    s0 = _weighted(p, n, latency, cost)  # rational at a rational p
    q = rates.t_factor(len(tasks))
    rate = rates.rate_bounds(p, sigma[0][0], len(tasks), n)
    bounds = (float(rate.low), float(rate.high))
    floor_move = q * abs(float(gradient[0])) * math.sqrt(sigma[0][0])
    success = success_moves(s0, bounds, n, latency, cost, floor_move)
    consistency = outcome_consistency(p, n)
    by_latency = mean_moves(mean_latency, sigma[1][1], q, W_RELIABILITY * consistency, "latency")
    by_cost = mean_moves(mean_cost, sigma[2][2], q, W_COST, "cost")
    moves = (success, by_latency, by_cost)
    correlations = move_correlations(gradient, sigma)
    r = (correlations[0], correlations[1], correlations[2])
    low = float(s0) - combined_move([m[0] for m in moves], r)
    high = float(s0) + combined_move([m[1] for m in moves], r)
    if p == 0:  # the zero-success floor: the score is 0, and so is its low bound
        low = 0.0
    low, high = min(max(low, 0.0), float(SCALE)), min(max(high, 0.0), float(SCALE))
    interval = outwards_with_margin(low, high, SCORE_DECIMALS, 0, SCALE)
    return CompositeMoves(s0, bounds[0], bounds[1], q, moves, r, low, high, interval)


def placed_task(
    runs: int,
    successes: int,
    latency: tuple[Number | str, int],
    cost: tuple[Number | str, int],
) -> CohortTask:
    """A task of a golden cohort whose runs all read the latency and the cost curve at
    ``(fraction, sloped segment)`` of each (:func:`scoring.formulas.curves.along`): its sums are
    placed relative to the live anchors, so the cohort's means stay on their slopes.

    >>> task = placed_task(2, 1, ("0.5", 0), (1, -1))
    >>> task[2] == 2 * along(C.LATENCY_ANCHORS_MS, "0.5"), task[3] == 2 * C.COST_ANCHORS_USD[-1].x
    (True, True)
    """
    latency_sum = runs * along(C.LATENCY_ANCHORS_MS, *latency)
    cost_sum = runs * along(C.COST_ANCHORS_USD, *cost)
    return runs, successes, as_written(latency_sum), as_written(cost_sum)


#: Ten tasks, half passed twice and half failed twice: the means (a third and all of the
#: way along the latency curve's first slope, a quarter of the way along the cost curve's
#: second) sit on slopes of both curves.
MIXED_COHORT = (
    placed_task(2, 2, (Fraction(1, 3), 0), (0, 1)),
    placed_task(2, 0, (1, 0), ("0.5", 1)),
) * 5


# The composite's check agent of the uncertainty page (docs/uncertainty.md; its run log is
# tests/data/composite-check-agent.jsonl): per task (runs, successes, Σ latency_ms,
# Σ cost_usd); 193 runs over 30 tasks, 190 successes.
COMPOSITE_CHECK = (
    (6, 6, 12102, Decimal("0.137680")),
    (7, 7, 15873, Decimal("0.193710")),
    (7, 7, 8062, Decimal("0.071794")),
    (7, 7, 5508, Decimal("0.295128")),
    (8, 8, 5739, Decimal("0.029813")),
    (6, 6, 6369, Decimal("0.330505")),
    (7, 7, 9877, Decimal("0.046926")),
    (5, 5, 6199, Decimal("0.145732")),
    (7, 6, 10194, Decimal("0.100480")),
    (7, 7, 20873, Decimal("0.257096")),
    (7, 7, 7997, Decimal("0.053698")),
    (6, 6, 5552, Decimal("0.097213")),
    (7, 7, 17689, Decimal("0.190133")),
    (6, 6, 5238, Decimal("0.053911")),
    (5, 5, 10613, Decimal("0.171018")),
    (8, 8, 10435, Decimal("0.322539")),
    (6, 6, 8839, Decimal("0.296873")),
    (5, 5, 9041, Decimal("0.139432")),
    (5, 5, 11295, Decimal("0.259292")),
    (5, 5, 13205, Decimal("0.101373")),
    (7, 7, 14017, Decimal("0.046222")),
    (8, 8, 15257, Decimal("0.340060")),
    (5, 5, 12885, Decimal("0.057700")),
    (8, 6, 15824, Decimal("0.101572")),
    (5, 5, 5021, Decimal("0.094162")),
    (6, 6, 7193, Decimal("0.160155")),
    (8, 8, 17154, Decimal("0.129626")),
    (5, 5, 9802, Decimal("0.115753")),
    (7, 7, 23425, Decimal("0.296876")),
    (7, 7, 4746, Decimal("0.137771")),
)


@formula(
    "uncertainty.composite_interval",
    title="Composite interval",
    latex=(
        r"S \in \left[S^0 - \Delta^-,\ S^0 + \Delta^+\right],\quad"
        r" \Delta^{\pm} = \sqrt{\sum_j (D_j^{\pm})^2 + 2 \sum_{j<k} r_{jk} D_j^{\pm} D_k^{\pm}},"
        r"\quad"
        r" r_{jk} = \operatorname{sign}(g_j g_k)"
        r" \dfrac{\Sigma_{jk}}{\sqrt{\Sigma_{jj} \Sigma_{kk}}},"
        r"\quad j, k \in \{p, L, C\},\quad T \ge " + tex_number(INTERVAL_MIN_TASKS)
    ),
    symbols={
        "S^0": words("the weighted formula at the observed means, before the zero-success floor"),
        r"\Delta^{\pm}": words("the combined move down (−) or up (+)"),
        r"D_j^{\pm}": words(
            "the moves of the success rate (uncertainty.success_moves), the mean latency and "
            "the mean cost (uncertainty.mean_moves)"
        ),
        "r_{jk}": words("the correlation of two parts' moves"),
        "g_j": words("the composite's gradient (uncertainty.composite_gradient)"),
        r"\Sigma_{jk}": words(
            "the clustered covariance of the means (uncertainty.clustered_covariance)"
        ),
        "T": words("the distinct tasks of the cohort"),
    },
    descriptive=(
        "a combination of asymmetric moves over a 3×3 covariance, with the zero-success "
        "floor (low = 0 when p̂ = 0); its moves are uncertainty.success_moves and "
        "uncertainty.mean_moves, its rate interval uncertainty.success_rate_interval, Σ and g "
        "uncertainty.clustered_covariance and uncertainty.composite_gradient"
    ),
    # Every cohort's means sit on sloped segments of both curves (placed relative to the
    # anchors), so that every move is read off a slope.
    golden=(
        point(
            "thirty tasks",
            tasks=tuple(
                placed_task(
                    runs,
                    successes,
                    (Fraction(1 + i % 9, 10), i % 2),
                    (Fraction(1 + i % 7, 8), i % 2),
                )
                for i, (runs, successes, _, _) in enumerate(COMPOSITE_CHECK)
            ),
        ),
        point("mixed", tasks=MIXED_COHORT),
        point("zero-success", tasks=(placed_task(2, 0, (Fraction(1, 3), 0), ("0.25", 1)),) * 10),
        point(
            "all-success",
            tasks=tuple(
                placed_task(2, 2, latency, ("0.25", 1))
                for latency in ((Fraction(1, 3), 0), (Fraction(1, 6), 1))
            )
            * 5,
        ),
        point("below the minimum", tasks=(placed_task(2, 1, (Fraction(1, 3), 0), (0, 1)),) * 9),
    ),
)
def composite_interval(tasks: Sequence[CohortTask]) -> Interval | None:
    """The 1.2.0 interval of the headline composite (:func:`composite_moves`), two decimals,
    outwards; ``None`` below ``INTERVAL_MIN_TASKS`` tasks.

    Returns an interval within [0, 100].

    >>> composite_interval(list(MIXED_COHORT)) == composite_moves(list(MIXED_COHORT)).interval
    True
    """
    found = composite_moves(tasks)
    return None if found is None else found.interval
