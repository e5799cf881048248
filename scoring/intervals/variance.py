"""How far a score can be trusted: 95% intervals clustered by task (methodology 1.1.0).

Runs of one task are not independent draws, so the task is the cluster everywhere here
(docs/uncertainty.md; after Miller, "Adding Error Bars to Evals", 2024, and
Inspect's clustered standard errors). Every interval is computed from per-task sums, never
from a list of runs: a task contributes its number of runs and the sums of its values.

This module holds the registered formulas (each with its LaTeX, where the contracts
snapshot records it); their exact bounds are :mod:`scoring.intervals.surd`, the shared machinery
(integer columns, Wilson bounds, effective sample size) :mod:`scoring.intervals.clustered`.

Below ``INTERVAL_MIN_TASKS`` distinct tasks an interval is ``None``; :func:`interval_reason`
says why in words. An interval never changes a score, a rank or a floor.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

import scoring.constants as C  # noqa: N812 - the anchors are read when a gradient is computed
from scoring.constants import (
    CONSISTENCY_MIN_RUNS,
    COST_ANCHORS_USD,
    INTERVAL_MIN_TASKS,
    LATENCY_ANCHORS_MS,
    SCORE_SCALE,
    Anchor,
)
from scoring.formulas import composite, curves
from scoring.formulas.curves import CURVE_SYMBOLS, along, as_written, curve_golden
from scoring.intervals.clustered import (
    Columns,
    TaskSum,
)
from scoring.numeric import Number, exact
from scoring.registry import (
    arg,
    column,
    const,
    count,
    formula,
    point,
    rows,
    runs_of,
    tex_number,
    total,
    uses,
)

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
    _, _, segments, ratios = curves.prepared(anchors)
    slopes = (_ZERO, *segments, _ZERO)
    value = exact(x)
    a, b = value.numerator, value.denominator  # x = a/b, b > 0
    # Side i lies left of anchor i (side 0 is the flat part before the first anchor). Each
    # anchor x_i = xn/xd (xd > 0) compared with x in integers: a·xd against xn·b.
    for i, (xn, xd, *_) in enumerate(ratios):
        here, anchor = a * xd, xn * b
        if here < anchor:
            return slopes[i]
        if here == anchor:
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
    # Each point's means sit on sloped segments of both curves (placed relative to the
    # anchors), where the gradient's latency and cost terms are not 0; the kinks and the
    # flat ends are curve_slope's own golden points.
    golden=[
        point(
            label,
            p=p,
            mean_latency_ms=as_written(along(LATENCY_ANCHORS_MS, *at_ms)),
            mean_cost_usd=as_written(along(COST_ANCHORS_USD, *at_usd)),
            completed_runs=n,
        )
        for label, p, at_ms, at_usd, n in (
            ("example", Fraction(3, 4), (Fraction(1, 3), 0), ("0.5", 1), 20),
            (
                "below the consistency gate",
                Fraction(3, 4),
                (Fraction(1, 3), 0),
                ("0.5", 1),
                CONSISTENCY_MIN_RUNS - 1,
            ),
            ("p=0", Fraction(0), ("0.5", 1), ("0.5", 0), 20),
            ("p=1", Fraction(1), ("0.1", 0), ("0.1", 0), 20),
            ("last segments", Fraction(2, 5), ("0.5", -1), ("0.5", -1), 20),
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

    On a sloped segment of the cost curve, the cost term is ``w_c`` times its slope:

    >>> (left, right), *_ = curves.sloped_segments(C.COST_ANCHORS_USD)
    >>> slope = Fraction(right.score - left.score) / Fraction(right.x - left.x)
    >>> halfway = curves.along(C.COST_ANCHORS_USD, "0.5")
    >>> composite_gradient(Fraction(3, 4), 0, halfway, 20)[2] == composite.W_COST * slope
    True
    """
    rate = exact(p)
    scale = composite.SCALE
    w_s, w_r, w_c = composite.W_SUCCESS, composite.W_RELIABILITY, composite.W_COST
    by_rate = scale * w_s
    if completed_runs >= CONSISTENCY_MIN_RUNS:
        by_rate += w_r * curves.latency_score(mean_latency_ms) * 4 * (2 * rate - 1)
    consistency = composite.outcome_consistency(rate, completed_runs)
    by_latency = w_r * consistency * curve_slope(mean_latency_ms, C.LATENCY_ANCHORS_MS)
    by_cost = w_c * curve_slope(mean_cost_usd, C.COST_ANCHORS_USD)
    return by_rate, by_latency, by_cost


# Re-exported: the bounds and the shared machinery, as they were importable from here.
from scoring.constants import FRACTION_DECIMALS  # noqa: E402
from scoring.intervals.clustered import CohortTask, effective_sample_size, wilson_bounds  # noqa: E402
from scoring.intervals.surd import Z_POWER, Interval, Surd, Z, interval_reason, outwards  # noqa: E402

__all__ = [
    "FRACTION_DECIMALS",
    "Z_POWER",
    "CohortTask",
    "Interval",
    "Surd",
    "TaskSum",
    "Z",
    "clustered_covariance",
    "clustered_variance",
    "composite_gradient",
    "curve_slope",
    "effective_sample_size",
    "interval_reason",
    "outwards",
    "wilson_bounds",
]
