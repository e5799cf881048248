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
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from fractions import Fraction
from statistics import NormalDist

from scoring.clustered import Columns
from scoring.constants import (
    COMPOSITE_WEIGHT_COST,
    COMPOSITE_WEIGHT_RELIABILITY,
    COMPOSITE_WEIGHT_SUCCESS,
    FRACTION_DECIMALS,
    INTERVAL_BOUND_MARGIN,
    INTERVAL_LEVEL,
    INTERVAL_MIN_TASKS,
    INTERVAL_Z,
    REPEATABILITY_MIN_OUTCOMES,
    SCORE_DECIMALS,
    SCORE_SCALE,
)
from scoring.numeric import Number, exact
from scoring.quantiles import beta_quantile, t_quantile
from scoring.registry import ScoringError
from scoring.repeatability import pass_hat_k
from scoring.surd import Interval, Surd
from scoring.uncertainty import (
    clustered_variance,
    effective_sample_size,
    outwards,
    wilson_bounds,
)

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
    margin = INTERVAL_BOUND_MARGIN
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
