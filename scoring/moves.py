"""The headline composite's interval of methodology 1.2.0: asymmetric moves read off each
part's own interval (decisions.md, "Uncertainty, revised", the headline composite, rules
1 to 5); the rates' interval it reads is :mod:`scoring.rates`'s."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from scoring.clustered import Columns, weighted_at
from scoring.composite import outcome_consistency
from scoring.constants import (
    CONSISTENCY_MIN_RUNS,
    INTERVAL_MIN_TASKS,
    SCORE_DECIMALS,
)
from scoring.curves import cost_score, latency_score
from scoring.numeric import Number, exact
from scoring.rates import (
    _SCALE,
    _W_C,
    _W_R,
    _W_S,
    outwards_with_margin,
    rate_bounds,
    t_factor,
)
from scoring.registry import ScoringError
from scoring.surd import Interval, Surd
from scoring.uncertainty import (
    CohortTask,
    composite_gradient,
)

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
