"""The numbers a 1.2.0 rate interval is read from, and its rounding: the pooled rate and
its clustered variance, the moments of pass^k, the Clopper–Pearson bounds at a non-integer
size, and a float bound rounded outwards with a margin (rule 4 of the rates).

Not formulas of their own: the registered rate intervals of :mod:`scoring.intervals.rates` read them
(and the composite's interval, :mod:`scoring.intervals.moves`). Every registered formula they call
is looked up in its module when it is called (``quantiles.beta_quantile``,
``variance.clustered_variance``, ``repeatability.pass_hat_k``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal
from fractions import Fraction
from statistics import NormalDist

from scoring.constants import (
    INTERVAL_BOUND_MARGIN,
    INTERVAL_LEVEL,
    INTERVAL_Z,
)
from scoring.formulas import repeatability
from scoring.intervals import quantiles, variance
from scoring.intervals.clustered import Columns
from scoring.intervals.surd import Interval, Surd
from scoring.numeric import Number, exact
from scoring.registry import ScoringError

_ONE = Fraction(1)
_LEVEL = exact(INTERVAL_LEVEL)


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
    lowest, highest = _edges(bottom, top, grid)
    return Interval(min(max(floor, lowest), highest), max(min(ceil, highest), lowest))


@functools.lru_cache(maxsize=64)
def _edges(bottom: Number, top: Number, grid: Decimal) -> tuple[Decimal, Decimal]:
    """``bottom`` and ``top`` on the grid (a scale's ends: the same few for every agent)."""
    return (
        (Decimal(exact(bottom).numerator) / exact(bottom).denominator).quantize(grid),
        (Decimal(exact(top).numerator) / exact(top).denominator).quantize(grid),
    )


# Pure, and asked several times per agent for the same level (a Decimal, converted once).
@functools.lru_cache(maxsize=64)
def level_share(level: Number) -> Fraction:
    """``level`` as an exact share in (0, 1), or a clear error."""
    share = exact(level)
    if not 0 < share < 1:
        raise ScoringError(f"level must lie in (0, 1), not {level!r}")
    return share


@functools.lru_cache(maxsize=64)
def upper_share(level: Number) -> Fraction:
    """``(1 + level)/2``, the share of a two-sided interval's upper quantile (asked for
    every t factor: several times per agent, at one level)."""
    return (1 + level_share(level)) / 2


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


def n_star_of(n_eff: Fraction, q: float, share: Fraction) -> float:
    """``n* = n_eff·z²/q²`` at the level ``share`` (``z`` the normal quantile at it, the
    float ``INTERVAL_Z`` at ``INTERVAL_LEVEL``), computed exactly and rounded once to a
    float: one integer division (the quotient of two integers is correctly rounded)."""
    z = INTERVAL_Z if share == _LEVEL else NormalDist(0, 1).inv_cdf(float((1 + share) / 2))
    (zn, zd), (qn, qd) = z.as_integer_ratio(), q.as_integer_ratio()
    return (n_eff.numerator * zn * zn * qd * qd) / (n_eff.denominator * zd * zd * qn * qn)


def clopper_pearson_bounds(
    m: Number, n_star: float, level: Number = INTERVAL_LEVEL
) -> tuple[float, float]:
    """The Clopper–Pearson bounds of a rate ``m`` at a (non-integer) size ``n*``, with
    ``x = m·n*``: low = ``B⁻¹(α/2; x, n* − x + 1)`` (0 when ``x = 0``), high =
    ``B⁻¹(1 − α/2; x + 1, n* − x)`` (1 when ``x = n*``); ``α = 1 − level``. The shape
    parameters are computed exactly from the float ``n*`` and rounded once each.

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
    below, above = _tails(level)
    # x = m·n* and the shape parameters as integers over one denominator (m = a/b, the
    # float n* = sn/sd exactly): each rounded once, by one integer division.
    a, b = share.numerator, share.denominator
    sn, sd = n_star.as_integer_ratio()
    den, x = b * sd, a * sn
    low = 0.0 if a == 0 else quantiles.beta_quantile(below, x / den, (b * sn - x + den) / den)
    high = 1.0 if a == b else quantiles.beta_quantile(above, (x + den) / den, (b * sn - x) / den)
    return low, high


@functools.lru_cache(maxsize=64)
def _tails(level: Number) -> tuple[float, float]:
    """``α/2`` and ``1 − α/2`` at ``α = 1 − level``, each rounded once to a float
    (``1 − α/2`` is :func:`upper_share`, and ``α/2`` is 1 minus it, exactly)."""
    upper = upper_share(level)
    return float(1 - upper), float(upper)


def pooled(tasks: Sequence[tuple[int, int]]) -> tuple[Fraction, Fraction, int]:
    """``p̂ = Σc/Σn``, its clustered variance and ``Σn`` of ``(runs, successes)`` tasks."""
    counts_checked(tasks)
    n = sum(runs for runs, _ in tasks)
    return Fraction(sum(c for _, c in tasks), n), variance.clustered_variance(tasks), n


def counts_checked(tasks: Sequence[tuple[int, int]]) -> None:
    """Refuse a ``(runs, successes)`` task with no run or impossible successes."""
    for runs, successes in tasks:
        if runs <= 0 or not 0 <= successes <= runs:
            raise ScoringError(
                "each task needs runs > 0 and successes between 0 and its runs "
                f"(got {runs} runs, {successes} successes)"
            )


def pass_hat_k_moments(
    tasks: Sequence[tuple[int, int]], k: int
) -> tuple[Fraction, Fraction, int, int]:
    """``m``, ``V``, ``T`` and ``Σ n_t`` of aggregate pass^k over the qualifying tasks of
    ``(n, c)`` tasks: ``U_t = C(c, k)/C(n, k)`` (0 when ``c < k``), ``m`` their mean,
    ``V = Σ_t (U_t − m)²/(T(T − 1))`` — the clustered variance with each task one value
    (``n_t = 1``, ``S_t = U_t``). Needs two qualifying tasks.

    >>> pass_hat_k_moments([(4, 4), (4, 0)] * 5, 1)
    (Fraction(1, 2), Fraction(1, 36), 10, 40)
    """
    qualifying = repeatability.qualifying_tasks(tasks, k)
    values = [repeatability.pass_hat_k(n, c, k) for n, c in qualifying]
    if len(values) < 2:
        raise ScoringError(f"pass^k moments need at least two qualifying tasks, not {len(values)}")
    # The integer columns of the clustered variance: the mean and V in one pass.
    columns = Columns.of([(1, (u,)) for u in values])
    runs = sum(n for n, _ in qualifying)
    return columns.mean(0), columns.covariance()[0][0], len(values), runs
