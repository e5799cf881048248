"""How far a score can be trusted: 95% intervals clustered by task (methodology 1.1.0).

Runs of one task are not independent draws, so the task is the cluster everywhere here
(decisions.md, section "Uncertainty"; after Miller, "Adding Error Bars to Evals", 2024, and
Inspect's clustered standard errors). Every interval is computed from per-task sums, never
from a list of runs: a task contributes its number of runs and the sums of its values.

This module holds the registered formulas (each with its LaTeX, where the contracts
snapshot records it); their exact bounds are :mod:`scoring.surd`, the shared machinery
(integer columns, Wilson bounds, effective sample size) :mod:`scoring.clustered`.

Below ``INTERVAL_MIN_TASKS`` distinct tasks an interval is ``None``; :func:`interval_reason`
says why in words. An interval never changes a score, a rank or a floor.
"""

from __future__ import annotations

import bisect
import math
import operator
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

from scoring import composite, curves, repeatability
from scoring.clustered import (
    CohortTask,
    Columns,
    TaskSum,
    clustered_variance_tex,
    clustered_wilson_golden,
    clustered_wilson_symbols,
    effective_sample_size,
    enough_tasks,
    weighted_at,
    wilson_bounds,
)
from scoring.constants import (
    COMPOSITE_WEIGHT_COST,
    COMPOSITE_WEIGHT_RELIABILITY,
    COMPOSITE_WEIGHT_SUCCESS,
    CONSISTENCY_MIN_RUNS,
    COST_ANCHORS_USD,
    FRACTION_DECIMALS,
    INTERVAL_MIN_TASKS,
    LATENCY_ANCHORS_MS,
    REPEATABILITY_MIN_OUTCOMES,
    SCORE_DECIMALS,
    SCORE_SCALE,
    Anchor,
)
from scoring.curves import CURVE_SYMBOLS, curve_golden
from scoring.numeric import Number, exact, exact_sum
from scoring.registry import (
    ScoringError,
    arg,
    at_least,
    attribute,
    column,
    const,
    count,
    formula,
    point,
    present,
    rows,
    runs_of,
    tex_number,
    total,
    uses,
)
from scoring.surd import Z_POWER, Interval, Surd, Z, interval_reason, outwards

# The numbers a formula shows are the constants', so a changed constant changes the formula.
_SCALE = tex_number(SCORE_SCALE)
_MIN_TASKS = tex_number(INTERVAL_MIN_TASKS)

_ZERO = Fraction(0)
_ONE = Fraction(1)


# --- Clustered variance -------------------------------------------------------------------


@formula(
    "uncertainty.clustered_variance",
    title="Clustered variance of a mean",
    latex=(
        r"V(\bar v) = \dfrac{T}{T - 1} \cdot \dfrac{1}{n^2} \sum_{t=1}^{T}"
        r" \left(\sum_{i \in t} (v_i - \bar v)\right)^2"
        r" = \dfrac{T}{T - 1} \cdot \dfrac{1}{n^2} \sum_{t=1}^{T} (S_t - n_t \bar v)^2"
    ),
    symbols={
        "T": count("tasks"),
        "t": rows("tasks", "n", "S"),
        "n_t": column("n"),
        "S_t": column("S"),
        "n": total(rows("tasks", "n", "S"), "n"),
        r"\bar v": total(rows("tasks", "n", "S"), "S", per="n"),
        "i": runs_of("t", "n", "S"),
        "v_i": column("value"),
    },
    golden=(
        point("two tasks 1,1|0,0", tasks=((2, 2), (2, 0))),
        point("independent runs", tasks=((1, 1), (1, 0), (1, 1), (1, 0))),
        point("no spread V=0", tasks=((3, 1), (3, 1), (3, 1))),
        point("uneven tasks", tasks=((5, 4), (2, 0), (3, 3), (1, 1), (4, 1))),
        point("fractional values", tasks=((2, Fraction(3, 2)), (3, Fraction(1, 4)))),
    ),
)
def clustered_variance(tasks: Sequence[TaskSum]) -> Fraction:
    """Variance of the mean ``v̄`` of per-run values, clustered by task.

    ``tasks`` holds, per task ``t``, its runs ``n_t`` and the sum ``S_t`` of their values.
    The residual sum of a task is ``Σ_{i∈t} (v_i − v̄) = S_t − n_t·v̄``, so per-task sums are
    all it takes: ``V = T/(T − 1) · Σ_t (S_t − n_t·v̄)² / n²`` with ``n = Σ n_t`` and
    ``v̄ = Σ S_t / n``. By hand: the mean, each task's residual sum, the sum of their
    squares, times ``T/(T − 1)``, over ``n²``. Needs at least two tasks.

    Returns a value in [0, 1/4] for values in [0, 1] (a proportion); for other values,
    at most a quarter of their squared range.

    >>> clustered_variance([(2, 2), (2, 0)])          # runs 1, 1 | 0, 0
    Fraction(1, 4)
    >>> clustered_variance([(1, 1), (1, 0), (1, 1), (1, 0)])   # four independent runs
    Fraction(1, 12)
    """
    return clustered_covariance([(count, (total,)) for count, total in tasks])[0][0]


@formula(
    "uncertainty.clustered_covariance",
    title="Clustered covariance matrix of several means",
    latex=(
        r"\Sigma = \dfrac{T}{T - 1} \cdot \dfrac{1}{n^2} \sum_{t=1}^{T} r_t\, r_t^{\mathrm{T}},"
        r"\quad r_t = \sum_{i \in t} (v_i - \bar v)"
        r" = S_t - n_t \bar v"
    ),
    # Matrix notation (outer products r_t r_tᵀ); each entry is the clustered variance or
    # covariance of uncertainty.clustered_variance, whose LaTeX is evaluated at its points.
    descriptive=(
        "a matrix written with outer products; each entry is the clustered (co)variance, "
        "proven as uncertainty.clustered_variance"
    ),
    golden=(point("2-tasks", tasks=((1, (1, 10)), (1, (0, 30)))),),
)
def clustered_covariance(
    tasks: Sequence[tuple[int, Sequence[Number]]],
) -> tuple[tuple[Fraction, ...], ...]:
    """Covariance matrix of the means of several per-run values, clustered by task.

    ``tasks`` holds, per task, its runs ``n_t`` and the vector ``S_t`` of the sums of each
    value over its runs (for the composite: successes, latency_ms, cost_usd). The residual
    vector of a task is ``r_t = S_t − n_t·v̄``; ``Σ = T/(T − 1) · Σ_t r_t r_tᵀ / n²``. Its
    diagonal is :func:`clustered_variance` of each value. By hand: the means, the residual
    vector of each task, the sum of their outer products, times ``T/(T − 1)``, over ``n²``.

    >>> clustered_covariance([(1, (1, 10)), (1, (0, 30))])
    ((Fraction(1, 4), Fraction(-5, 1)), (Fraction(-5, 1), Fraction(100, 1)))
    """
    return Columns.of(tasks).covariance()


_WILSON_LATEX = (
    r"\mathrm{Wilson}(m, V) ="
    r" \dfrac{m + \dfrac{z^2}{2 n_{\mathrm{eff}}}}{1 + \dfrac{z^2}{n_{\mathrm{eff}}}}"
    r" \pm \dfrac{z}{1 + \dfrac{z^2}{n_{\mathrm{eff}}}}"
    r" \sqrt{\dfrac{m(1 - m)}{n_{\mathrm{eff}}} + \dfrac{z^2}{4 n_{\mathrm{eff}}^2}},\quad"
    r" n_{\mathrm{eff}} = \begin{cases} \min\!\left(\dfrac{m(1 - m)}{V},\ n\right) & V > 0 \\"
    r" T & V = 0 \end{cases}"
)


@formula(
    "uncertainty.cluster_wilson",
    title="Cluster-adjusted Wilson interval",
    latex=_WILSON_LATEX,
    symbols={
        "m": arg("m"),
        "V": arg("variance"),
        "T": arg("tasks"),
        "n": arg("observations"),
        "z": const("INTERVAL_Z"),
    },
    golden=(
        point(
            "m=1/2,n_eff=10", m=Fraction(1, 2), variance=Fraction(1, 40), tasks=10, observations=40
        ),
        point(
            "capped at n", m=Fraction(1, 2), variance=Fraction(1, 400), tasks=10, observations=40
        ),
        point("m=3/4", m=Fraction(3, 4), variance=Fraction(3, 320), tasks=12, observations=60),
        point("m=0,V=0", m=Fraction(0), variance=Fraction(0), tasks=10, observations=40),
        point("m=1,V=0", m=Fraction(1), variance=Fraction(0), tasks=10, observations=40),
        point("V=0 inside", m=Fraction(2, 5), variance=Fraction(0), tasks=15, observations=75),
    ),
)
def cluster_wilson_interval(m: Number, variance: Number, tasks: int, observations: int) -> Interval:
    """The cluster-adjusted Wilson interval of a proportion ``m`` with clustered variance
    ``V``, over ``tasks`` clusters and ``observations`` runs; four decimals, outwards.

    The effective sample size is ``n_eff = m(1 − m)/V`` (the number of independent runs
    that would give the same variance), capped at the observations, and ``T`` when
    ``V = 0``; then the Wilson score interval at ``n_eff``, clipped to [0, 1]. By hand:
    ``n_eff``, then the centre and half-width with ``z`` = ``INTERVAL_Z``; the low bound
    rounded down, the high bound up, at four decimals.

    >>> cluster_wilson_interval(Fraction(1, 2), Fraction(1, 40), 10, 40)
    Interval(low=Decimal('0.2365'), high=Decimal('0.7635'))
    >>> cluster_wilson_interval(0, 0, 10, 40)    # no spread: n_eff = T
    Interval(low=Decimal('0.0000'), high=Decimal('0.2776'))
    """
    share = exact(m)
    n_eff = effective_sample_size(share, exact(variance), tasks, observations)
    low, high = wilson_bounds(share, n_eff)
    return outwards(low, high, FRACTION_DECIMALS, _ONE)


def _success_bounds(tasks: Sequence[tuple[int, int]]) -> tuple[Surd, Surd]:
    n = sum(count for count, _ in tasks)
    p = Fraction(sum(successes for _, successes in tasks), n)
    n_eff = effective_sample_size(p, clustered_variance(tasks), len(tasks), n)
    return wilson_bounds(p, n_eff)


def _pooled_rate_interval(
    tasks: Sequence[tuple[int, int]], places: int, scale: Fraction
) -> Interval | None:
    """The cluster-adjusted Wilson interval of the pooled rate of ``tasks`` (``(runs,
    successes)`` each), times ``scale``, rounded outwards at ``places`` and clipped to
    ``[0, scale]``; ``None`` below ``INTERVAL_MIN_TASKS`` tasks."""
    if not enough_tasks(tasks):
        return None
    low, high = _success_bounds(tasks)
    return outwards(low * scale, high * scale, places, scale)


#: The cohort's tasks of the success rate: completed runs and successes.
_COHORT_TASKS = rows("tasks", "n", "c")


@formula(
    "uncertainty.success_rate_interval",
    title="Success-rate interval",
    latex=(
        r"p \in \mathrm{Wilson}\!\left(\hat p,\ V(\hat p)\right),"
        r"\quad " + clustered_variance_tex(r"\hat p")
    ),
    symbols=clustered_wilson_symbols(
        _COHORT_TASKS, "n", "c", {r"\hat p": total(_COHORT_TASKS, "c", per="n")}
    ),
    golden=clustered_wilson_golden(
        lambda successes, runs: (runs, successes), "zero successes", "all successes", runs=3
    ),
)
def success_rate_interval(tasks: Sequence[tuple[int, int]]) -> Interval | None:
    """The interval of the composite's success rate: the cluster-adjusted Wilson interval
    of ``p̂`` with ``V = V(p̂)`` over the completed runs (``s_i`` = 1 for a success).

    ``tasks`` holds ``(runs n_t, successes c_t)`` per task of the cohort; ``None`` below
    ``INTERVAL_MIN_TASKS`` tasks (see :func:`interval_reason`). By hand: ``p̂ = Σc/Σn``,
    each task's residual ``c_t − n_t·p̂``, then :func:`cluster_wilson_interval`.

    >>> success_rate_interval([(4, 3), (4, 1)] * 5)
    Interval(low=Decimal('0.3447'), high=Decimal('0.6553'))
    >>> success_rate_interval([(4, 3)] * 9) is None
    True
    """
    return _pooled_rate_interval(tasks, FRACTION_DECIMALS, _ONE)


@formula(
    "uncertainty.success_interval",
    title="Success-rate interval of independent runs",
    latex=(
        r"p \in \mathrm{Wilson}\!\left(\hat p,\ \dfrac{\hat p(1 - \hat p)}{n - 1}\right),"
        r"\quad \hat p = \dfrac{s}{n},\quad n \ge " + _MIN_TASKS
    ),
    symbols={
        r"\mathrm{Wilson}": uses(
            "uncertainty.cluster_wilson",
            "m",
            "variance",
            tasks=arg("runs"),
            observations=arg("runs"),
        ),
        "n": arg("runs"),
        "s": arg("successes"),
    },
    golden=(
        point("20 runs, 10 successes", runs=20, successes=10),
        point("all successes", runs=INTERVAL_MIN_TASKS, successes=INTERVAL_MIN_TASKS),
        point("zero successes", runs=INTERVAL_MIN_TASKS, successes=0),
        point("below the minimum", runs=INTERVAL_MIN_TASKS - 1, successes=4),
        point("100 runs, 37 successes", runs=100, successes=37),
    ),
)
def success_interval(runs: int, successes: int) -> Interval | None:
    """The success-rate interval of ``successes`` in ``runs`` independent runs (each run its
    own task, as in the reader's calculator); four decimals, outwards.

    With one run per task the clustered variance is ``p̂(1 − p̂)/(n − 1)``, so
    ``n_eff = n − 1`` (``n`` when ``p̂`` is 0 or 1, where ``V = 0`` and ``n_eff = T = n``).
    Each run counts as a task, so below ``INTERVAL_MIN_TASKS`` runs there is no interval:
    ``None``, as in the report. By hand: the Wilson interval at ``n − 1``.

    >>> success_interval(20, 10)
    Interval(low=Decimal('0.2949'), high=Decimal('0.7051'))
    >>> success_interval(10, 10), success_interval(9, 4)
    (Interval(low=Decimal('0.7224'), high=Decimal('1.0000')), None)
    """
    if runs < 0 or not 0 <= successes <= runs:
        raise ScoringError("successes must lie between 0 and the runs")
    if runs < INTERVAL_MIN_TASKS:
        return None
    p = Fraction(successes, runs)
    # Σ_t (s_t − p)² = n·p(1 − p) over one-run tasks, so V = n/(n − 1)·n·p(1 − p)/n².
    variance = p * (1 - p) / (runs - 1)
    return cluster_wilson_interval(p, variance, runs, runs)


# --- Headline composite -------------------------------------------------------------------


@formula(
    "uncertainty.curve_slope",
    title="Slope of a piecewise-linear curve",
    latex=(
        r"f'(x) = \begin{cases} 0 & x < x_1 \text{ or } x > x_m \\"
        r" \sigma(1) & x = x_1 \\"
        r" \sigma(i) & x_i < x < x_{i+1} \\"
        r" \sigma(i) & x = x_{i+1} \text{ and } |\sigma(i)| \ge |\sigma(i + 1)| \\"
        r" \sigma(i + 1) & x = x_{i+1} \end{cases},\quad"
        r" \sigma(i) = \begin{cases} \dfrac{s_{i+1} - s_i}{x_{i+1} - x_i} & 1 \le i < m \\"
        r" 0 & i = m \end{cases}"
    ),
    symbols=CURVE_SYMBOLS,
    golden=(
        *curve_golden("latency", LATENCY_ANCHORS_MS),
        *curve_golden("cost", COST_ANCHORS_USD),
        point("one anchor", x=Decimal(1), anchors=LATENCY_ANCHORS_MS[:1]),
    ),
)
def curve_slope(x: Number, anchors: Sequence[Anchor]) -> Fraction:
    """The slope of the curve's segment at ``x`` (points per unit of ``x``).

    0 beyond the first and the last anchors (the curve is flat there); exactly at an anchor,
    the steeper of the two sides (the larger in absolute value; on a tie the left), so the
    delta method never understates a score's sensitivity at a kink.

    Returns a value between the lowest and the highest segment slope of the curve, or 0.

    >>> from decimal import Decimal as D
    >>> curve = [Anchor(D(500), D(100)), Anchor(D(2000), D(80)), Anchor(D(5000), D(50))]
    >>> curve_slope(1000, curve), curve_slope(2000, curve), curve_slope(500, curve)
    (Fraction(-1, 75), Fraction(-1, 75), Fraction(-1, 75))
    >>> curve_slope(400, curve), curve_slope(6000, curve)
    (Fraction(0, 1), Fraction(0, 1))
    """
    # The curve's exact anchors and segment slopes, prepared once per curve (checked there).
    xs, _, segments, _ = curves.prepared(anchors)
    slopes = (_ZERO, *segments, _ZERO)
    value = exact(x)
    # Side i lies left of anchor i (side 0 is the flat part before the first anchor).
    for i, xi in enumerate(xs):
        if value < xi:
            return slopes[i]
        if value == xi:
            left, right = slopes[i], slopes[i + 1]
            return right if abs(right) > abs(left) else left
    return slopes[-1]


@formula(
    "uncertainty.composite_gradient",
    title="Gradient of the composite",
    latex=(
        r"\dfrac{\partial S}{\partial p} = "
        + _SCALE
        + r"\,w_s + \begin{cases} w_r\,L(\bar\lambda)\cdot 4(2\hat p - 1) & n \ge n_{\min} \\"
        r" 0 & n < n_{\min} \end{cases},"
        r"\quad \dfrac{\partial S}{\partial \lambda} = w_r\,\mathrm{cons}(\hat p)\,L'(\bar\lambda),"
        r"\quad \dfrac{\partial S}{\partial u} = w_c\,C'(\bar u)"
    ),
    symbols={
        "w_s": const("COMPOSITE_WEIGHT_SUCCESS"),
        "w_r": const("COMPOSITE_WEIGHT_RELIABILITY"),
        "w_c": const("COMPOSITE_WEIGHT_COST"),
        "L": uses("composite.latency_score", "mean_latency_ms"),
        r"\mathrm{cons}": uses(
            "composite.outcome_consistency", "p", completed_runs=arg("completed_runs")
        ),
        "L'": uses("uncertainty.curve_slope", "x", anchors=const("LATENCY_ANCHORS_MS")),
        "C'": uses("uncertainty.curve_slope", "x", anchors=const("COST_ANCHORS_USD")),
        r"\bar\lambda": arg("mean_latency_ms"),
        r"\bar u": arg("mean_cost_usd"),
        r"\hat p": arg("p"),
        "n": arg("completed_runs"),
        r"n_{\min}": const("CONSISTENCY_MIN_RUNS"),
    },
    golden=[
        point(label, p=p, mean_latency_ms=ms, mean_cost_usd=usd, completed_runs=n)
        for label, p, ms, usd, n in (
            ("example", Fraction(3, 4), 1000, Fraction(3, 100), 20),
            (
                "below the consistency gate",
                Fraction(3, 4),
                1000,
                Fraction(3, 100),
                CONSISTENCY_MIN_RUNS - 1,
            ),
            ("p=0", Fraction(0), 3500, Fraction(1, 100), 20),
            ("p=1", Fraction(1), 400, Fraction(1, 1000), 20),
            ("at anchors", Fraction(1, 2), LATENCY_ANCHORS_MS[1].x, COST_ANCHORS_USD[1].x, 20),
            (
                "beyond the last anchors",
                Fraction(2, 5),
                LATENCY_ANCHORS_MS[-1].x * 2,
                COST_ANCHORS_USD[-1].x * 2,
                20,
            ),
        )
    ],
)
def composite_gradient(
    p: Number, mean_latency_ms: Number, mean_cost_usd: Number, completed_runs: int
) -> tuple[Fraction, Fraction, Fraction]:
    """The gradient of ``S(p, ℓ, u) = 100·(w_s·p + w_r·cons(p)·L(ℓ)/100 + w_c·C(u)/100)``
    at the cohort's success rate, mean latency (ms) and mean cost (USD).

    ``∂S/∂p = 100·w_s + w_r·L(ℓ̄)·4(2p̂ − 1)`` (the derivative of ``1 − 4p(1 − p)`` is
    ``4(2p − 1)``; below ``CONSISTENCY_MIN_RUNS`` consistency is neutral and that term is
    0), ``∂S/∂ℓ = w_r·cons(p̂)·L′(ℓ̄)``, ``∂S/∂u = w_c·C′(ū)``, with the slopes of
    :func:`curve_slope`. In points per unit of success rate, per ms and per USD.

    >>> composite_gradient(Fraction(3, 4), 1000, Fraction(3, 100), 20)
    (Fraction(96, 1), Fraction(-1, 1000), Fraction(-225, 1))
    """
    rate = exact(p)
    scale = exact(SCORE_SCALE)
    w_s, w_r, w_c = (
        exact(COMPOSITE_WEIGHT_SUCCESS),
        exact(COMPOSITE_WEIGHT_RELIABILITY),
        exact(COMPOSITE_WEIGHT_COST),
    )
    gated = completed_runs >= CONSISTENCY_MIN_RUNS
    by_rate = scale * w_s + (
        w_r * curves.latency_score(mean_latency_ms) * 4 * (2 * rate - 1) if gated else 0
    )
    consistency = composite.outcome_consistency(rate, completed_runs)
    by_latency = w_r * consistency * curve_slope(mean_latency_ms, LATENCY_ANCHORS_MS)
    by_cost = w_c * curve_slope(mean_cost_usd, COST_ANCHORS_USD)
    return by_rate, by_latency, by_cost


@formula(
    "uncertainty.composite_interval",
    title="Composite interval (delta method)",
    latex=(
        r"S \pm z\,\sqrt{g^{\mathrm{T}} \Sigma\, g},\quad"
        r" g = \left(\dfrac{\partial S}{\partial p}, \dfrac{\partial S}{\partial \lambda},"
        r" \dfrac{\partial S}{\partial u}\right);\quad"
        r" \hat p = 0:\ \left[0,\ S(p^{+})\right];\quad"
        r" \hat p = 1:\ \mathrm{low} = \min\!\left(S - z\,\sqrt{g^{\mathrm{T}} \Sigma\, g},"
        r"\ S(p^{-})\right)"
    ),
    # A quadratic form over the clustered covariance matrix: its parts are proven one by one
    # (uncertainty.composite_gradient, uncertainty.clustered_variance); the whole is held to
    # an independent implementation in tests/scoring/interval_reference.py.
    descriptive=(
        "a quadratic form gᵀΣg over a matrix, with two edge rules; its gradient and "
        "variances are proven as uncertainty.composite_gradient and clustered_variance"
    ),
    golden=(
        point("mixed", tasks=((2, 2, 2000, Fraction(2, 100)), (2, 0, 4000, Fraction(6, 100))) * 5),
        point("zero-success", tasks=((2, 0, 2000, Fraction(2, 100)),) * 10),
        point(
            "all-success", tasks=tuple((2, 2, 2 * ms, Fraction(2, 100)) for ms in (1000, 3000) * 5)
        ),
    ),
)
def composite_interval(tasks: Sequence[CohortTask]) -> Interval | None:
    """The 95% interval of the headline composite, by the delta method; two decimals.

    ``tasks`` holds :data:`CohortTask` per task of the cohort (every completed run).
    ``S`` is the weighted formula at ``p̂``, the mean latency and the mean cost;
    ``Σ`` the :func:`clustered_covariance` of (success, latency_ms, cost_usd);
    ``g`` the :func:`composite_gradient`; the interval ``S ± z·√(gᵀΣg)``, clipped to
    [0, 100]. Two edges, where the success rate has no spread to propagate: under the
    zero-success floor (``p̂ = 0``) it is ``[0, S(p⁺)]``, with ``p⁺`` the high bound of
    :func:`success_rate_interval` (exact, before rounding); when every run succeeded
    (``p̂ = 1``) the low bound is the lower of ``S − z·SE`` and ``S(p⁻)``, ``p⁻`` the success
    rate's low bound. Latency and cost scores stay as observed. ``None`` below
    ``INTERVAL_MIN_TASKS`` tasks. By hand: the three means, each task's residual vector,
    ``gᵀΣg = T/(T − 1)·Σ_t (g·r_t)²/n²``, then ``S ± z·SE``; the low bound rounded down, the
    high bound up.

    >>> tasks = [(2, 2, 2000, Fraction(2, 100)), (2, 0, 4000, Fraction(6, 100))] * 5
    >>> composite_interval(tasks)
    Interval(low=Decimal('27.21'), high=Decimal('56.29'))
    >>> composite_interval([(2, 0, 2000, Fraction(2, 100))] * 10)   # zero-success floor
    Interval(low=Decimal('0.00'), high=Decimal('40.65'))
    """
    if not enough_tasks([(runs, successes) for runs, successes, _, _ in tasks]):
        return None
    if any(latency < 0 or cost < 0 for _, _, latency, cost in tasks):
        raise ScoringError("latency and cost sums must not be negative")
    n = sum(runs for runs, _, _, _ in tasks)
    successes = sum(successes for _, successes, _, _ in tasks)
    p = Fraction(successes, n)
    mean_latency = exact_sum(exact(latency) for _, _, latency, _ in tasks) / n
    mean_cost = exact_sum(exact(cost) for _, _, _, cost in tasks) / n
    sigma = clustered_covariance([(task[0], task[1:]) for task in tasks])
    # sigma[0][0] is the clustered variance of the success indicator: p's own interval.
    rate_low, rate_high = wilson_bounds(p, effective_sample_size(p, sigma[0][0], len(tasks), n))
    latency, cost = curves.latency_score(mean_latency), curves.cost_score(mean_cost)
    places, top = SCORE_DECIMALS, exact(SCORE_SCALE)
    if successes == 0:
        return outwards(Surd(_ZERO), weighted_at(rate_high, n, latency, cost), places, top)
    score = composite.composite_score(p, composite.outcome_consistency(p, n), latency, cost)
    gradient = composite_gradient(p, mean_latency, mean_cost, n)
    # gᵀΣg: each product g_j·Σ_jk·g_k as an integer ratio, summed over one denominator
    # with one division.
    g = [exact(value) for value in gradient]
    products = [
        (
            g[j].numerator * entry.numerator * g[k].numerator,
            g[j].denominator * entry.denominator * g[k].denominator,
        )
        for j in range(3)
        for k in range(3)
        for entry in (exact(sigma[j][k]),)
    ]
    common = math.lcm(*(den for _, den in products))
    spread = Fraction(sum(num * (common // den) for num, den in products), common)
    radicand = Z * Z * spread
    low, high = Surd(score, -_ONE, radicand), Surd(score, _ONE, radicand)
    interval = outwards(low, high, places, top)
    if successes == n:
        edge = outwards(weighted_at(rate_low, n, latency, cost), high, places, top)
        return Interval(min(interval.low, edge.low), interval.high)
    return interval


# --- Repeatability and the radar ----------------------------------------------------------


#: The qualifying tasks of pass^k: those with enough recorded outcomes.
_QUALIFYING = rows("tasks", "n", "c", keep=at_least("n", "REPEATABILITY_MIN_OUTCOMES"))


@formula(
    "uncertainty.pass_hat_k_interval",
    title="pass^k interval",
    latex=(
        r"\mathrm{pass}^k \in \mathrm{Wilson}(m, V),\quad"
        r" U_t = \dfrac{\binom{c_t}{k}}{\binom{n_t}{k}},\quad m = \dfrac{1}{T} \sum_{t=1}^{T} U_t,"
        r"\quad V = \dfrac{1}{T(T - 1)} \sum_{t=1}^{T} (U_t - m)^2,"
        r"\quad T \ge " + _MIN_TASKS
    ),
    symbols={
        r"\mathrm{Wilson}": uses(
            "uncertainty.cluster_wilson",
            "m",
            "variance",
            tasks=total(_QUALIFYING),
            observations=total(_QUALIFYING, "n"),
        ),
        "T": total(_QUALIFYING),
        "t": _QUALIFYING,
        "n_t": column("n"),
        "c_t": column("c"),
        "k": arg("k"),
    },
    golden=(
        point("example,k=1", tasks=((4, 4), (4, 0)) * 5, k=1),
        point("example,k=3", tasks=((4, 4), (4, 2), (5, 4)) * 4, k=3),
        point("below the minimum", tasks=((4, 4),) * (INTERVAL_MIN_TASKS - 1), k=1),
        point(
            "unqualified left out",
            tasks=((4, 4),) * (INTERVAL_MIN_TASKS - 1) + ((2, 2),) * 3,
            k=1,
        ),
        point("m=0", tasks=((5, 1),) * INTERVAL_MIN_TASKS, k=3),
        point("m=1", tasks=((5, 5),) * INTERVAL_MIN_TASKS, k=5),
    ),
)
def pass_hat_k_interval(tasks: Sequence[tuple[int, int]], k: int) -> Interval | None:
    """The interval of aggregate pass^k: the cluster-adjusted Wilson interval of the mean
    ``m`` of the per-task values ``U_t``, with ``V = Σ_t (U_t − m)² / (T(T − 1))``.

    ``tasks`` holds ``(n, c)`` per task (recorded outcomes, successes), as
    :func:`scoring.repeatability.aggregate_pass_hat_k` takes them; tasks with fewer than
    ``REPEATABILITY_MIN_OUTCOMES`` outcomes are left out, and ``T`` counts the others.
    ``n_eff`` is capped at their recorded outcomes ``Σ n_t``. ``None`` below
    ``INTERVAL_MIN_TASKS`` qualifying tasks. By hand: each ``U_t``, their mean and sample
    variance over ``T``, then :func:`cluster_wilson_interval`; four decimals, outwards.

    >>> pass_hat_k_interval([(4, 4), (4, 0)] * 5, 1)
    Interval(low=Decimal('0.2265'), high=Decimal('0.7735'))
    >>> pass_hat_k_interval([(4, 4)] * 9, 1) is None
    True
    """
    qualifying = [(n, c) for n, c in tasks if n >= REPEATABILITY_MIN_OUTCOMES]
    count = len(qualifying)
    if count < INTERVAL_MIN_TASKS:
        return None
    # U_t is the registered pass^k of each task; m and V exactly, one division each.
    values = [repeatability.pass_hat_k(n, c, k) for n, c in qualifying]
    m = exact_sum(values) / count
    variance = exact_sum((u - m) ** 2 for u in values) / (count * (count - 1))
    observations = sum(n for n, _ in qualifying)
    return cluster_wilson_interval(m, variance, count, observations)


#: The window's tasks of the correctness axis: passes and known outcomes.
_WINDOW_TASKS = rows("tasks", "passes", "known")


@formula(
    "uncertainty.correctness_interval",
    title="Correctness-axis interval",
    latex=(
        r"\mathrm{correctness} \in "
        + _SCALE
        + r" \cdot \mathrm{Wilson}\!\left(\hat q,\ V(\hat q)\right),"
        r"\quad \hat q = \dfrac{\text{passes}}{\text{window runs with a known outcome}},"
        r"\quad " + clustered_variance_tex(r"\hat q")
    ),
    symbols=clustered_wilson_symbols(
        _WINDOW_TASKS,
        "known",
        "passes",
        {
            r"\text{passes}": total(_WINDOW_TASKS, "passes"),
            r"\text{window runs with a known outcome}": total(_WINDOW_TASKS, "known"),
        },
    ),
    golden=clustered_wilson_golden(
        lambda passes, known: (passes, known), "no passes", "every pass", runs=2
    ),
)
def correctness_interval(tasks: Sequence[tuple[int, int]]) -> Interval | None:
    """The interval of the radar's correctness axis: the cluster-adjusted Wilson interval
    of the window's pass rate, times 100; two decimals on 0–100, outwards.

    ``tasks`` holds ``(passes, known_outcomes)`` per task among the window's runs with a
    known outcome (the order :func:`scoring.radar.robustness_axis` takes); ``V`` is the
    :func:`clustered_variance` of the pass indicator. ``None`` below
    ``INTERVAL_MIN_TASKS`` tasks. By hand: the success-rate interval of the window, each
    bound times 100 before it is rounded (down, up) at two decimals.

    >>> correctness_interval([(3, 4), (1, 4)] * 5)
    Interval(low=Decimal('34.47'), high=Decimal('65.53'))
    """
    counts = [(known, passes) for passes, known in tasks]
    return _pooled_rate_interval(counts, SCORE_DECIMALS, exact(SCORE_SCALE))


# --- Ranks --------------------------------------------------------------------------------


@formula(
    "uncertainty.rank",
    title="Competition rank",
    latex=r"\mathrm{rank}_a = 1 + \left|\{ b : S_b > S_a \}\right|",
    symbols={
        "a": rows("scores", "value"),
        "b": rows("scores", "value", keep=present()),
        "S_b": column("value"),
        "S_a": column("value"),
    },
    golden=(
        point("ties and a null", scores=(80, 70, 70, None, 60)),
        point("all equal", scores=(50, 50)),
        point("one", scores=(Fraction(713, 10),)),
    ),
)
def competition_ranks(scores: Sequence[Number | None]) -> list[int | None]:
    """The competition rank of each of ``scores`` (every agent's published composite): 1 +
    the number of higher scores, so equal scores share a rank; ``None`` for a ``null``
    composite. A sort and a binary search each, so a report of many agents stays fast.

    >>> competition_ranks([80, 70, 70, None, 60])
    [1, 2, 2, None, 4]
    """
    present = [s for s in scores if s is not None]
    if all(map(operator.ge, present, present[1:])):
        # Highest first already (as the report orders its agents): one pass, each score's
        # rank the place of the first score equal to it.
        ranks: list[int | None] = []
        place, rank, previous = 0, 0, None
        for s in scores:
            if s is None:
                ranks.append(None)
                continue
            place += 1
            if s != previous:
                rank, previous = place, s
            ranks.append(rank)
        return ranks
    # Floats (the published composites) are sorted and searched as they are: Python
    # compares floats by their exact values, and a Fraction per agent made a report of
    # 20,000 agents spend a fifth of its time here.
    if all(type(s) is float for s in present):
        known: list[Number] = sorted(present)
        key = _same
    else:
        known, key = sorted(map(exact, present)), exact
    return [
        None if s is None else 1 + len(known) - bisect.bisect_right(known, key(s)) for s in scores
    ]


def _same(value: Number) -> Number:
    return value


_GOLDEN_HIGH = Interval(Decimal("70"), Decimal("80"))
_GOLDEN_MID = Interval(Decimal("65"), Decimal("72.5"))
_GOLDEN_LOW = Interval(Decimal("60"), Decimal("69.99"))


@formula(
    "uncertainty.rank_upper_bound",
    title="Rank upper bound (rank (UB))",
    latex=(r"\mathrm{UB}_a = 1 + \left|\{ b : \mathrm{low}_b > \mathrm{high}_a \}\right|"),
    symbols={
        "a": rows("intervals", "value"),
        "b": rows("intervals", "value", keep=present()),
        r"\mathrm{low}_b": attribute(column("value"), "low"),
        r"\mathrm{high}_a": attribute(column("value"), "high"),
    },
    golden=(
        point("apart and a null", intervals=(_GOLDEN_HIGH, _GOLDEN_LOW, None)),
        point("overlapping", intervals=(_GOLDEN_HIGH, _GOLDEN_MID, _GOLDEN_LOW)),
    ),
)
def rank_upper_bounds(intervals: Sequence[Interval | None]) -> list[int | None]:
    """How high each agent could truly stand: 1 + the number of agents whose composite
    interval lies entirely above its own (their low bound above its high bound), as
    LMArena's "rank (UB)"; ``None`` for an agent without an interval, and agents without
    one are not counted. Read from the published (rounded) bounds, so a reader counts it
    off the table. Never above the competition rank: an interval entirely above belongs to a
    higher composite.

    >>> a, b = Interval(Decimal(70), Decimal(80)), Interval(Decimal(60), Decimal("69.99"))
    >>> rank_upper_bounds([a, b, None, Interval(Decimal(65), Decimal(75))])
    [1, 2, None, 1]
    """
    lows = sorted(i.low for i in intervals if i is not None)
    return [
        None if i is None else 1 + len(lows) - bisect.bisect_right(lows, i.high) for i in intervals
    ]


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


# Re-exported: the bounds and the shared machinery, as they were importable from here.
__all__ = [
    "FRACTION_DECIMALS",
    "Z_POWER",
    "CohortTask",
    "Interval",
    "Surd",
    "TaskSum",
    "Z",
    "cluster_wilson_interval",
    "clustered_covariance",
    "clustered_variance",
    "competition_ranks",
    "composite_gradient",
    "composite_interval",
    "correctness_interval",
    "curve_slope",
    "effective_sample_size",
    "interval_reason",
    "outwards",
    "pass_hat_k_interval",
    "rank_upper_bounds",
    "runs_needed",
    "success_interval",
    "success_rate_interval",
    "wilson_bounds",
]
