"""The intervals of methodology 1.2.0, and the paired comparison of two agents.

decisions.md, section "Uncertainty, revised (from methodology version 1.2.0)": rates at an
effective size capped by the runs a score of order ``k`` can use, Clopper–Pearson with a
Student t correction for ``k = 1``; the composite from asymmetric moves read off each
part's own interval; the difference of two agents on the tasks they share.

Pure functions of plain inputs (per-task sums, as :mod:`scoring.uncertainty` takes them).
What 1.2.0 keeps from 1.1.0 is imported, never written again: ``m`` and ``V``
(:func:`~scoring.uncertainty.clustered_variance`), ``Σ``
(:func:`~scoring.uncertainty.clustered_covariance`), the gradient ``g``
(:func:`~scoring.uncertainty.composite_gradient`), the curves ``L`` and ``C``,
``cons(p)`` and the weighted formula, the Wilson bounds and the exact outward rounding.

Exact where it can be (``Fraction``, and 1.1.0's exact surds for the Wilson bounds of
``k ≥ 2``); the Beta and t quantiles are floats computed to 1e-12 (:mod:`scoring.quantiles`),
so a bound built on them is a float, rounded outwards past any rounding boundary within
``INTERVAL_BOUND_MARGIN`` of it (rule 4 of the rates).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from fractions import Fraction
from statistics import NormalDist

from scoring.clustered import Columns, weighted_at
from scoring.composite import composite_score, outcome_consistency
from scoring.constants import (
    COMPOSITE_WEIGHT_COST,
    COMPOSITE_WEIGHT_RELIABILITY,
    COMPOSITE_WEIGHT_SUCCESS,
    CONSISTENCY_MIN_RUNS,
    FRACTION_DECIMALS,
    INTERVAL_LEVEL,
    INTERVAL_MIN_TASKS,
    INTERVAL_Z,
    REPEATABILITY_MIN_OUTCOMES,
    SCORE_DECIMALS,
    SCORE_SCALE,
)
from scoring.curves import cost_score, latency_score
from scoring.numeric import Number, exact
from scoring.quantiles import beta_quantile, t_quantile
from scoring.registry import ScoringError
from scoring.repeatability import pass_hat_k
from scoring.surd import Interval, Surd
from scoring.uncertainty import (
    CohortTask,
    clustered_covariance,
    clustered_variance,
    composite_gradient,
    effective_sample_size,
    interval_reason,
    outwards,
    wilson_bounds,
)

# --- New constants of 1.2.0 (for scoring/constants.py; the lead moves them) ----------------

#: decisions.md 1.2.0, rates rule 4: a bound computed from a numerical quantile that lies
#: within this distance of a rounding boundary is rounded outwards past it.
INTERVAL_BOUND_MARGIN = Fraction(1, 10**10)

#: The verdicts of a paired comparison (decisions.md 1.2.0, "Comparing two agents").
VERDICT_A_AHEAD = "A ahead"
VERDICT_B_AHEAD = "B ahead"
VERDICT_WITHIN_NOISE = "within the noise"

# -------------------------------------------------------------------------------------------

_ONE = Fraction(1)
_LEVEL = exact(INTERVAL_LEVEL)
# The weights and the scale as exact fractions, converted once by scoring.composite.
_SCALE = exact(SCORE_SCALE)
_W_S, _W_R, _W_C = (
    exact(COMPOSITE_WEIGHT_SUCCESS),
    exact(COMPOSITE_WEIGHT_RELIABILITY),
    exact(COMPOSITE_WEIGHT_COST),
)


def _tails(level: Number) -> tuple[float, float, float]:
    """``α/2``, ``1 − α/2`` (``α = 1 − level``: the Clopper–Pearson tails, the t quantile's
    probability) and the normal quantile at ``1 − α/2``."""
    share = exact(level)
    if not 0 < share < 1:
        raise ScoringError(f"level must lie in (0, 1), not {level!r}")
    high = float((1 + share) / 2)
    return float((1 - share) / 2), high, NormalDist(0, 1).inv_cdf(high)


# --- Rounding -----------------------------------------------------------------------------


def outwards_with_margin(
    low: float, high: float, places: int, bottom: Number, top: Number
) -> Interval:
    """``[low, high]`` rounded outwards at ``places`` decimals, a bound within
    ``INTERVAL_BOUND_MARGIN`` of a rounding boundary rounded past it, then clipped to
    ``[bottom, top]``: low = ``⌊(low − ε)·10^d⌋/10^d``, high = ``⌈(high + ε)·10^d⌉/10^d``.

    Exact on the float's binary value (``Decimal`` of a float is exact), so a printed
    interval never claims more than the one computed to 1e-12.

    >>> outwards_with_margin(0.25, 0.7500000000001, 2, 0, 1)
    Interval(low=Decimal('0.24'), high=Decimal('0.76'))
    >>> outwards_with_margin(0.2512, 0.7488, 2, 0, 1)
    Interval(low=Decimal('0.25'), high=Decimal('0.75'))
    """
    for name, value in (("low", low), ("high", high)):
        if not math.isfinite(value):
            raise ScoringError(f"{name} must be a finite bound, not {value!r}")
    if low > high:
        raise ScoringError(f"low must not exceed high ({low!r} > {high!r})")
    grid = Decimal(1).scaleb(-places)
    margin = Decimal(INTERVAL_BOUND_MARGIN.numerator) / INTERVAL_BOUND_MARGIN.denominator
    floor = (Decimal(low) - margin).quantize(grid, rounding=ROUND_FLOOR)
    ceil = (Decimal(high) + margin).quantize(grid, rounding=ROUND_CEILING)
    lowest, highest = (
        (Decimal(edge.numerator) / edge.denominator).quantize(grid)
        for edge in (exact(bottom), exact(top))
    )
    return Interval(min(max(floor, lowest), highest), max(min(ceil, highest), lowest))


# --- Rates --------------------------------------------------------------------------------


def t_factor(tasks: int, level: Number = INTERVAL_LEVEL) -> float:
    """``q``: the Student t quantile at ``(1 + level)/2`` with ``T − 1`` degrees of freedom.

    Returns a value above ``z`` (``INTERVAL_Z``), falling towards it as ``T`` grows.

    >>> round(t_factor(30), 5)
    2.04523
    """
    if tasks < 2:
        raise ScoringError(f"tasks must be at least 2 for a t quantile (T − 1 ≥ 1), not {tasks}")
    return t_quantile(_tails(level)[1], tasks - 1)


def capped_effective_size(m: Number, variance: Number, tasks: int, runs: int, k: int) -> Fraction:
    """``n_eff = m(1 − m)/V`` when ``V > 0``, else ``T``; capped at ``Σ_t n_t / k``.

    A task of ``n`` runs holds at least ``n/k`` independent trials' worth of information
    about ``p^k`` and no more is credited (for ``k = 1`` the cap of 1.1.0, the runs).
    1.1.0's :func:`~scoring.uncertainty.effective_sample_size` caps at the runs, which is
    never below ``Σ n_t / k``, so the smaller of the two is the 1.2.0 rule.

    >>> capped_effective_size(Fraction(1, 2), Fraction(1, 400), 10, 40, 1)
    Fraction(40, 1)
    >>> capped_effective_size(Fraction(1, 2), Fraction(1, 400), 10, 40, 5)
    Fraction(8, 1)
    """
    if k < 1:
        raise ScoringError(f"k must be at least 1, not {k}")
    if runs < 1:
        raise ScoringError(f"runs must be at least 1, not {runs}")
    return min(effective_sample_size(exact(m), exact(variance), tasks, runs), Fraction(runs, k))


@dataclass(frozen=True, slots=True)
class RateBounds:
    """A rate's bounds before rounding, and what they were read from.

    ``low``/``high`` are floats for ``k = 1`` (Clopper–Pearson) and exact surds for
    ``k ≥ 2`` (Wilson); ``n_star`` and ``q`` are ``None`` for ``k ≥ 2``.
    """

    low: float | Surd
    high: float | Surd
    n_eff: Fraction
    q: float | None
    n_star: float | None


def clopper_pearson_bounds(
    m: Number, n_star: float, level: Number = INTERVAL_LEVEL
) -> tuple[float, float]:
    """The Clopper–Pearson bounds of a rate ``m`` at a (non-integer) size ``n*``, with
    ``x = m·n*``: low = ``B⁻¹(α/2; x, n* − x + 1)`` (0 when ``x = 0``), high =
    ``B⁻¹(1 − α/2; x + 1, n* − x)`` (1 when ``x = n*``); ``α = 1 − level``.

    Returns two values in [0, 1], low ≤ m ≤ high.

    >>> [round(b, 4) for b in clopper_pearson_bounds(Fraction(1, 2), 10.0)]
    [0.1871, 0.8129]
    >>> [round(b, 4) for b in clopper_pearson_bounds(0, 10.0)]
    [0.0, 0.3085]
    """
    share = exact(m)
    if not 0 <= share <= 1:
        raise ScoringError(f"m must lie in [0, 1], not {m!r}")
    if not (math.isfinite(n_star) and n_star > 0):
        raise ScoringError(f"n_star must be a positive size, not {n_star!r}")
    low_tail, high_tail, _ = _tails(level)
    x = float(share) * n_star
    low = 0.0 if share == 0 else beta_quantile(low_tail, x, n_star - x + 1)
    high = 1.0 if share == 1 else beta_quantile(high_tail, x + 1, n_star - x)
    return low, high


def rate_bounds(
    m: Number, variance: Number, tasks: int, runs: int, k: int = 1, level: Number = INTERVAL_LEVEL
) -> RateBounds:
    """The 1.2.0 bounds of a rate ``m`` (order ``k``) with clustered variance ``V`` over
    ``tasks`` tasks holding ``runs`` runs (outcomes) in all, before rounding.

    ``n_eff`` from :func:`capped_effective_size`. ``k = 1``: Clopper–Pearson
    (:func:`clopper_pearson_bounds`) at ``n* = n_eff·(z/q)²``, ``q`` = :func:`t_factor`.
    ``k ≥ 2``: 1.1.0's Wilson bounds at the capped ``n_eff`` (at ``INTERVAL_LEVEL`` only,
    the level of 1.1.0's ``z``). ``level`` other than ``INTERVAL_LEVEL``: for a reader's
    calculator and the tests; ``z`` is then the normal quantile at that level.

    >>> b = rate_bounds(Fraction(1, 2), Fraction(1, 40), 10, 40)
    >>> float(b.n_eff), round(b.n_star, 4), round(b.low, 4), round(b.high, 4)
    (10.0, 7.5067, 0.1484, 0.8516)
    """
    n_eff = capped_effective_size(m, variance, tasks, runs, k)
    if k >= 2:
        if exact(level) != _LEVEL:
            raise ScoringError(f"level must be INTERVAL_LEVEL for k ≥ 2 (Wilson), not {level!r}")
        low, high = wilson_bounds(exact(m), n_eff)
        return RateBounds(low, high, n_eff, None, None)
    q = t_factor(tasks, level)
    z = INTERVAL_Z if exact(level) == _LEVEL else _tails(level)[2]
    n_star = float(n_eff) * (z / q) ** 2
    low_cp, high_cp = clopper_pearson_bounds(m, n_star, level)
    return RateBounds(low_cp, high_cp, n_eff, q, n_star)


def rate_interval(
    m: Number,
    variance: Number,
    tasks: int,
    runs: int,
    k: int = 1,
    *,
    places: int = FRACTION_DECIMALS,
    scale: Number = 1,
) -> Interval:
    """The published 1.2.0 interval of a rate: :func:`rate_bounds` times ``scale``, rounded
    outwards at ``places`` decimals and clipped to ``[0, scale]`` (with the margin of
    :func:`outwards_with_margin` for ``k = 1``, exactly for the Wilson bounds of ``k ≥ 2``).

    >>> rate_interval(Fraction(1, 2), Fraction(1, 40), 10, 40)
    Interval(low=Decimal('0.1483'), high=Decimal('0.8517'))
    """
    bounds = rate_bounds(m, variance, tasks, runs, k)
    top = exact(scale)
    if isinstance(bounds.low, Surd) and isinstance(bounds.high, Surd):
        return outwards(bounds.low * top, bounds.high * top, places, top)
    return outwards_with_margin(
        float(bounds.low) * float(top), float(bounds.high) * float(top), places, 0, top
    )


def _pooled(tasks: Sequence[tuple[int, int]]) -> tuple[Fraction, Fraction, int]:
    """``p̂ = Σc/Σn``, its clustered variance and ``Σn`` of ``(runs, successes)`` tasks."""
    for runs, successes in tasks:
        if runs <= 0 or not 0 <= successes <= runs:
            raise ScoringError(
                "each task needs runs > 0 and successes between 0 and its runs "
                f"(got {runs} runs, {successes} successes)"
            )
    n = sum(runs for runs, _ in tasks)
    return Fraction(sum(c for _, c in tasks), n), clustered_variance(tasks), n


def success_rate_interval(tasks: Sequence[tuple[int, int]]) -> Interval | None:
    """The 1.2.0 success-rate interval of a cohort of ``(runs, successes)`` tasks
    (Clopper–Pearson at ``n*``, k = 1); ``None`` below ``INTERVAL_MIN_TASKS`` tasks.

    >>> success_rate_interval([(4, 3), (4, 1)] * 5)
    Interval(low=Decimal('0.3030'), high=Decimal('0.6970'))
    """
    if len(tasks) < INTERVAL_MIN_TASKS:
        return None
    p, variance, n = _pooled(tasks)
    return rate_interval(p, variance, len(tasks), n)


def correctness_interval(tasks: Sequence[tuple[int, int]]) -> Interval | None:
    """The 1.2.0 interval of the radar's correctness axis from ``(passes, known)`` per task
    of the window (the order of 1.1.0's): the rate interval (k = 1) times 100, two decimals.

    >>> correctness_interval([(3, 4), (1, 4)] * 5)
    Interval(low=Decimal('30.30'), high=Decimal('69.70'))
    """
    if len(tasks) < INTERVAL_MIN_TASKS:
        return None
    p, variance, n = _pooled([(known, passes) for passes, known in tasks])
    return rate_interval(p, variance, len(tasks), n, places=SCORE_DECIMALS, scale=SCORE_SCALE)


def pass_hat_k_moments(
    tasks: Sequence[tuple[int, int]], k: int
) -> tuple[Fraction, Fraction, int, int]:
    """``m``, ``V``, ``T`` and ``Σ n_t`` of aggregate pass^k over the qualifying tasks of
    ``(n, c)`` tasks, as 1.1.0 defines them: ``U_t = C(c, k)/C(n, k)`` (0 when ``c < k``),
    ``m`` their mean, ``V = Σ_t (U_t − m)²/(T(T − 1))`` — the clustered variance of 1.1.0
    with each task one value (``n_t = 1``, ``S_t = U_t``). Needs two qualifying tasks.

    >>> pass_hat_k_moments([(4, 4), (4, 0)] * 5, 1)
    (Fraction(1, 2), Fraction(1, 36), 10, 40)
    """
    qualifying = [(n, c) for n, c in tasks if n >= REPEATABILITY_MIN_OUTCOMES]
    values = [pass_hat_k(n, c, k) for n, c in qualifying]
    if len(values) < 2:
        raise ScoringError(f"pass^k moments need at least two qualifying tasks, not {len(values)}")
    # 1.1.0's integer columns: the mean and the clustered variance in one pass.
    columns = Columns.of([(1, (u,)) for u in values])
    runs = sum(n for n, _ in qualifying)
    return columns.mean(0), columns.covariance()[0][0], len(values), runs


def pass_hat_k_interval(tasks: Sequence[tuple[int, int]], k: int) -> Interval | None:
    """The 1.2.0 interval of aggregate pass^k from ``(n, c)`` per task: ``n_eff`` capped at
    ``Σ n_t / k``; Clopper–Pearson at ``n*`` for ``k = 1``, Wilson for ``k ≥ 2``;
    ``None`` below ``INTERVAL_MIN_TASKS`` qualifying tasks.

    >>> pass_hat_k_interval([(4, 4), (4, 2), (5, 4)] * 4, 3)
    Interval(low=Decimal('0.2545'), high=Decimal('0.6916'))
    """
    qualifying = sum(1 for n, _ in tasks if n >= REPEATABILITY_MIN_OUTCOMES)
    if qualifying < INTERVAL_MIN_TASKS:
        return None
    m, variance, count, runs = pass_hat_k_moments(tasks, k)
    return rate_interval(m, variance, count, runs, k)


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


def _weighted(p: float | Fraction, runs: int, latency: Fraction, cost: Fraction) -> float:
    """``f(p) = 100·w_s·p + w_r·L̂·cons(p) + w_c·Ĉ``: the weighted formula of 1.1.0 before
    the zero-success floor, at a float or exact ``p`` (latency and cost scores fixed)."""
    return float(weighted_at(Surd(exact(p)), runs, latency, cost))


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
    values = [_weighted(p_low, runs, latency, cost), _weighted(p_high, runs, latency, cost)]
    f_max = max(values)
    if latency > 0 and runs >= CONSISTENCY_MIN_RUNS:
        vertex = Fraction(1, 2) - _SCALE * _W_S / (8 * _W_R * latency)
        clipped = min(max(vertex, exact(p_low)), exact(p_high))
        values.append(_weighted(clipped, runs, latency, cost))
    s0 = float(score)
    return max(s0 - min(values), floor_move), f_max - s0


def mean_moves(
    mean: Fraction, variance: Fraction, q: float, weight: Fraction, curve_of: str
) -> tuple[float, float]:
    """``(D⁻, D⁺)`` of a mean latency or cost: ``x± = x̄·exp(±q·√Σ_xx/x̄)`` and
    ``D⁻ = weight·(F(x̄) − F(x⁺))``, ``D⁺ = weight·(F(x⁻) − F(x̄))`` on the curve ``F``
    (``curve_of``: ``"latency"`` or ``"cost"``; the curves fall as the mean grows). The
    ``weight`` is ``w_r·cons(p̂)`` for latency, ``w_c`` for cost. A mean of 0 moves 0.

    >>> moves = mean_moves(Fraction(3000), Fraction(90000), 2.0, Fraction(3, 10), "latency")
    >>> [round(d, 4) for d in moves]
    [1.9926, 1.6314]
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
    return float(weight * (centre - curve(up))), float(weight * (curve(down) - centre))


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


def _means(tasks: Sequence[CohortTask]) -> tuple[int, Fraction, Fraction, Fraction]:
    n = sum(task[0] for task in tasks)
    successes = sum(task[1] for task in tasks)
    latency = sum((exact(task[2]) for task in tasks), Fraction(0))
    cost = sum((exact(task[3]) for task in tasks), Fraction(0))
    return n, Fraction(successes, n), latency / n, cost / n


def _checked(tasks: Sequence[CohortTask], name: str) -> None:
    for runs, successes, latency, cost in tasks:
        if runs <= 0 or not 0 <= successes <= runs:
            raise ScoringError(
                f"{name}: each task needs runs > 0 and successes between 0 and its runs "
                f"(got {runs} runs, {successes} successes)"
            )
        if exact(latency) < 0 or exact(cost) < 0:
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

    >>> tasks = [(2, 2, 2000, Fraction(2, 100)), (2, 0, 4000, Fraction(6, 100))] * 5
    >>> composite_moves(tasks).interval
    Interval(low=Decimal('24.60'), high=Decimal('71.73'))
    """
    _checked(tasks, "tasks")
    if len(tasks) < INTERVAL_MIN_TASKS:
        return None
    # The means and Σ from one pass over the sums, as 1.1.0's composite interval takes them.
    columns = Columns.of([(task[0], task[1:]) for task in tasks])
    n, sigma = sum(columns.counts), columns.covariance()
    p, mean_latency, mean_cost = columns.mean(0), columns.mean(1), columns.mean(2)
    gradient = composite_gradient(p, mean_latency, mean_cost, n)
    latency, cost = latency_score(mean_latency), cost_score(mean_cost)
    s0 = weighted_at(Surd(p), n, latency, cost).a  # rational at a rational p
    q = t_factor(len(tasks))
    rate = rate_bounds(p, sigma[0][0], len(tasks), n)
    bounds = (float(rate.low), float(rate.high))
    floor_move = q * abs(float(gradient[0])) * math.sqrt(sigma[0][0])
    success = success_moves(s0, bounds, n, latency, cost, floor_move)
    consistency = outcome_consistency(p, n)
    by_latency = mean_moves(mean_latency, sigma[1][1], q, _W_R * consistency, "latency")
    by_cost = mean_moves(mean_cost, sigma[2][2], q, _W_C, "cost")
    moves = (success, by_latency, by_cost)
    correlations = move_correlations(gradient, sigma)
    r = (correlations[0], correlations[1], correlations[2])
    low = float(s0) - combined_move([m[0] for m in moves], r)
    high = float(s0) + combined_move([m[1] for m in moves], r)
    if p == 0:  # the zero-success floor: the score is 0, and so is its low bound
        low = 0.0
    low, high = min(max(low, 0.0), float(_SCALE)), min(max(high, 0.0), float(_SCALE))
    interval = outwards_with_margin(low, high, SCORE_DECIMALS, 0, _SCALE)
    return CompositeMoves(s0, bounds[0], bounds[1], q, moves, r, low, high, interval)


# --- Comparing two agents -----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Comparison:
    """A paired comparison of agents A and B on the tasks both have.

    ``difference`` is ``A − B`` (exact), ``interval`` its published interval, ``verdict``
    one of the three verdicts; all three ``None`` with a ``reason`` when there is none.
    ``standard_error`` is ``√Var(d)`` from the paired covariance, ``unpaired_standard_error``
    ``√(Var_A + Var_B)`` (the two agents' own variances on the shared tasks, as if
    independent), reported beside it.
    """

    shared_tasks: int
    difference: Fraction | None
    interval: Interval | None
    verdict: str | None
    reason: str | None
    standard_error: float | None
    unpaired_standard_error: float | None


def verdict(interval: Interval) -> str:
    """ "A ahead" when the interval of ``d = A − B`` lies above 0, "B ahead" when below,
    "within the noise" when it contains 0 (read off the published, rounded interval).

    >>> above, touching = Interval(Decimal("0.01"), Decimal(2)), Interval(Decimal(-1), Decimal(0))
    >>> verdict(above), verdict(touching)
    ('A ahead', 'within the noise')
    """
    if interval.low > 0:
        return VERDICT_A_AHEAD
    if interval.high < 0:
        return VERDICT_B_AHEAD
    return VERDICT_WITHIN_NOISE


def paired_covariance(
    a: Sequence[CohortTask], b: Sequence[CohortTask]
) -> tuple[tuple[Fraction, ...], ...]:
    """The clustered covariance of the six means (A's success, latency, cost; B's) over
    shared tasks (``a[t]`` and ``b[t]`` the same task): ``Σ_AB = T/(T − 1)·Σ_t e_t e_tᵀ``
    with ``e_t = (r^A_t/n_A, r^B_t/n_B)``, each agent's residual vector over its own runs.

    1.1.0's Σ with both agents' residuals: each agent's block is its own
    :func:`~scoring.uncertainty.clustered_covariance`. Computed by that function on the
    vectors ``e_t`` as one-run tasks (their mean is 0, so it returns ``Σ_AB/T²``).

    >>> s = paired_covariance([(1, 1, 1, 0), (1, 0, 3, 0)], [(1, 1, 2, 0), (1, 0, 2, 0)])
    >>> s[0][0], s[0][3], s[1][4]
    (Fraction(1, 4), Fraction(1, 4), Fraction(0, 1))
    """
    if len(a) != len(b):
        raise ScoringError("a and b must hold the same shared tasks")
    if len(a) < 2:
        raise ScoringError("a paired covariance needs at least two shared tasks")
    scaled: list[list[Fraction]] = [[] for _ in a]
    for agent in (a, b):
        n, *means = _means(agent)
        for row, task in zip(scaled, agent, strict=True):
            row.extend(
                (exact(value) - task[0] * mean) / n
                for value, mean in zip(task[1:], means, strict=True)
            )
    tasks = len(a)
    one_run = clustered_covariance([(1, row) for row in scaled])
    return tuple(tuple(entry * tasks * tasks for entry in line) for line in one_run)


def _quadratic(gradient: Sequence[Fraction], sigma: Sequence[Sequence[Fraction]]) -> Fraction:
    size = range(len(gradient))
    return sum((gradient[j] * sigma[j][k] * gradient[k] for j in size for k in size), Fraction(0))


def _shared(
    a: Mapping[str, CohortTask], b: Mapping[str, CohortTask]
) -> tuple[list[CohortTask], list[CohortTask]]:
    _checked(list(a.values()), "a")
    _checked(list(b.values()), "b")
    names = sorted(a.keys() & b.keys())
    return [a[t] for t in names], [b[t] for t in names]


def _compared(
    shared: int,
    d: Fraction,
    gradient: Sequence[Fraction],
    sigma: Sequence[Sequence[Fraction]],
    places: int,
    top: Fraction,
) -> Comparison:
    half = len(gradient) // 2
    paired = _quadratic(gradient, sigma)
    unpaired = _quadratic(gradient[:half], [row[:half] for row in sigma[:half]]) + _quadratic(
        gradient[half:], [row[half:] for row in sigma[half:]]
    )
    q = t_factor(shared)
    se = math.sqrt(paired)
    interval = outwards_with_margin(float(d) - q * se, float(d) + q * se, places, -top, top)
    return Comparison(shared, d, interval, verdict(interval), None, se, math.sqrt(unpaired))


def _no_comparison(shared: int) -> Comparison | None:
    reason = interval_reason(shared, "shared tasks")
    if reason is None:
        return None
    return Comparison(shared, None, None, None, reason, None, None)


def _floored_gradient(tasks: Sequence[CohortTask]) -> tuple[Fraction, Fraction, Fraction]:
    """The composite's gradient at an agent's shared-task means; under the zero-success
    floor the score is 0 whatever the latency and cost, so those entries are 0 (its
    success residuals are all 0, so the success entry multiplies nothing)."""
    n, p, latency, cost = _means(tasks)
    by_p, by_latency, by_cost = composite_gradient(p, latency, cost, n)
    return (by_p, Fraction(0), Fraction(0)) if p == 0 else (by_p, by_latency, by_cost)


def _composite_on(tasks: Sequence[CohortTask]) -> Fraction:
    n, p, latency, cost = _means(tasks)
    return composite_score(p, outcome_consistency(p, n), latency_score(latency), cost_score(cost))


def compare_composites(a: Mapping[str, CohortTask], b: Mapping[str, CohortTask]) -> Comparison:
    """The paired comparison of two agents' composites on their shared tasks.

    ``a``, ``b``: :data:`CohortTask` per task id of each agent's composite cohort. On the
    ``T_AB`` shared tasks: ``d = S_A − S_B`` (each composite computed on those tasks, with
    its floor), ``Var(d) = g_ABᵀ Σ_AB g_AB`` with ``g_AB = (g_A, −g_B)`` and ``Σ_AB`` the
    :func:`paired_covariance`; interval ``d ± q·√Var(d)``, ``q`` with ``T_AB − 1`` degrees
    of freedom, two decimals outwards on [−100, 100]; the :func:`verdict`. Below
    ``INTERVAL_MIN_TASKS`` shared tasks: no interval, the reason.

    >>> same = {f"t{i}": (4, 3, 4000, Fraction(8, 100)) for i in range(10)}
    >>> compare_composites(same, dict(same)).verdict
    'within the noise'
    """
    shared_a, shared_b = _shared(a, b)
    missing = _no_comparison(len(shared_a))
    if missing is not None:
        return missing
    d = _composite_on(shared_a) - _composite_on(shared_b)
    gradient = (*_floored_gradient(shared_a), *(-g for g in _floored_gradient(shared_b)))
    sigma = paired_covariance(shared_a, shared_b)
    return _compared(len(shared_a), d, gradient, sigma, SCORE_DECIMALS, _SCALE)


def compare_success_rates(a: Mapping[str, CohortTask], b: Mapping[str, CohortTask]) -> Comparison:
    """The paired comparison of two agents' success rates on their shared tasks: ``d =
    p_A − p_B``, ``Var(d) = Σ_{p_A p_A} + Σ_{p_B p_B} − 2·Σ_{p_A p_B}`` (the gradient
    ``(1, 0, 0, −1, 0, 0)`` on :func:`paired_covariance`), ``d ± q·√Var(d)``, four decimals
    outwards on [−1, 1]; the :func:`verdict`, or the reason below ``INTERVAL_MIN_TASKS``.

    >>> a = {f"t{i}": (4, 4 if i < 8 else 0, 4000, 0) for i in range(10)}
    >>> b = {f"t{i}": (4, 2 if i < 8 else 0, 4000, 0) for i in range(10)}
    >>> c = compare_success_rates(a, b)
    >>> c.difference, c.interval, c.verdict
    (Fraction(2, 5), Interval(low=Decimal('0.2491'), high=Decimal('0.5509')), 'A ahead')
    """
    shared_a, shared_b = _shared(a, b)
    missing = _no_comparison(len(shared_a))
    if missing is not None:
        return missing
    d = _means(shared_a)[1] - _means(shared_b)[1]
    zero, one = Fraction(0), Fraction(1)
    gradient = (one, zero, zero, -one, zero, zero)
    sigma = paired_covariance(shared_a, shared_b)
    return _compared(len(shared_a), d, gradient, sigma, FRACTION_DECIMALS, _ONE)
