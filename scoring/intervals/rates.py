"""The intervals of the rates: the success rate, the correctness axis and pass^k.

As the uncertainty page (docs/uncertainty.md) sets them: a rate's interval is read at an
effective size capped by the runs a score of order ``k`` can use, by Clopper–Pearson with a
Student t correction for ``k = 1`` (the t factor, the capped size, Wilson's and
Clopper–Pearson's bounds are registered here too). The composite's interval is
:mod:`scoring.intervals.moves`; the paired comparison of two agents
:mod:`scoring.comparisons.paired`.

Pure functions of plain inputs (per-task sums, as :mod:`scoring.intervals.variance` takes them).
What 1.2.0 keeps from 1.1.0 is imported, never written again: ``m`` and ``V``
(:func:`~scoring.intervals.variance.clustered_variance`), ``Σ``
(:func:`~scoring.intervals.variance.clustered_covariance`), the gradient ``g``
(:func:`~scoring.intervals.variance.composite_gradient`), the curves ``L`` and ``C``,
``cons(p)`` and the weighted formula, the Wilson bounds and the exact outward rounding.

Exact where it can be (``Fraction``; 1.1.0's exact surds for the Wilson bounds of ``k ≥ 2``);
a bound built on the Beta and t quantiles (floats to 1e-12) is rounded outwards with a margin
(:mod:`scoring.intervals.rate_bounds`, which holds the numbers these formulas read; their
shared LaTeX and check inputs are :mod:`scoring.intervals.rate_tex`).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

from scoring.constants import (
    FRACTION_DECIMALS,
    INTERVAL_LEVEL,
    INTERVAL_MIN_TASKS,
    SCORE_DECIMALS,
    SCORE_SCALE,
)
from scoring.formulas import repeatability
from scoring.intervals import quantiles, rate_tex as tex
from scoring.intervals.clustered import (
    clustered_wilson_golden,
    effective_sample_size,
    wilson_bounds,
)
from scoring.intervals.rate_bounds import (
    RateBounds,
    clopper_pearson_bounds,
    counts_checked,
    level_share,
    n_star_of,
    outwards_with_margin,
    pass_hat_k_moments,
    pooled,
    upper_share,
)
from scoring.intervals.surd import Interval, outwards
from scoring.numeric import Number, exact
from scoring.registry import (
    ScoringError,
    arg,
    column,
    const,
    formula,
    point,
    total,
    uses,
)

# Re-exported: what was importable from here before the bounds had a module of their own.
__all__ = ["RateBounds", "clopper_pearson_bounds", "outwards_with_margin", "pass_hat_k_moments"]

_ONE = Fraction(1)
_LEVEL = exact(INTERVAL_LEVEL)


@formula(
    "uncertainty.t_factor",
    title="Student t factor",
    latex=tex.Q_TEX,
    symbols={r"t^{-1}": tex.T_QUANTILE, r"\gamma": tex.LEVEL_BINDING, "T": arg("tasks")},
    golden=(
        point("T=30", tasks=30),
        point("T=10", tasks=INTERVAL_MIN_TASKS),
        point("T=100", tasks=100),
        point("T=2", tasks=2),
        point("T=30, 80%", tasks=30, level=Decimal("0.8")),
    ),
)
def t_factor(tasks: int, level: Number = INTERVAL_LEVEL) -> float:
    """``q``: the Student t quantile at ``(1 + level)/2`` with ``T − 1`` degrees of freedom.

    Returns a value in [1.9599, 12.7063] at the default level (``T ≥ 2``): above ``z``
    (``INTERVAL_Z``), falling towards it as ``T`` grows; ``12.7062…`` at ``T = 2``.

    >>> round(t_factor(30), 5)
    2.04523
    """
    if tasks < 2:
        raise ScoringError(f"tasks must be at least 2 for a t quantile (T − 1 ≥ 1), not {tasks}")
    return quantiles.t_quantile(upper_share(level), tasks - 1)


@formula(
    "uncertainty.capped_effective_size",
    title="Effective size, capped by the order of the score",
    latex=(
        r"n_{\mathrm{eff}} = \min\!\left(\begin{cases} \dfrac{m(1 - m)}{V} & V > 0 \\"
        r" T & V = 0 \end{cases},\ \dfrac{N}{k}\right)"
    ),
    symbols={
        "m": arg("m"),
        "V": arg("variance"),
        "T": arg("tasks"),
        "N": arg("runs"),
        "k": arg("k"),
    },
    golden=(
        point("capped at N/k", m=Fraction(1, 2), variance=Fraction(1, 400), tasks=10, runs=40, k=5),
        point("uncapped", m=Fraction(1, 2), variance=Fraction(1, 40), tasks=10, runs=40, k=1),
        point("capped at N", m=Fraction(1, 2), variance=Fraction(1, 400), tasks=10, runs=40, k=1),
        point("V=0", m=Fraction(0), variance=Fraction(0), tasks=10, runs=40, k=3),
        point("V=0, capped", m=Fraction(1), variance=Fraction(0), tasks=10, runs=40, k=5),
    ),
)
def capped_effective_size(m: Number, variance: Number, tasks: int, runs: int, k: int) -> Fraction:
    """``n_eff = m(1 − m)/V`` when ``V > 0``, else ``T``; capped at ``N/k``, ``N = Σ_t n_t``.

    A task of ``n`` runs holds at least ``n/k`` independent trials' worth of information
    about ``p^k`` and no more is credited (for ``k = 1`` the cap of 1.1.0, the runs).

    Returns a value between the lowest and the highest size it may credit: positive, at
    most ``N/k``.

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


@formula(
    "uncertainty.wilson",
    title="Wilson interval at an effective size",
    latex=(
        r"\mathrm{Wilson}(m, n_{\mathrm{eff}}) ="
        r" \dfrac{m + \dfrac{z^2}{2 n_{\mathrm{eff}}}}{1 + \dfrac{z^2}{n_{\mathrm{eff}}}}"
        r" \pm \dfrac{z}{1 + \dfrac{z^2}{n_{\mathrm{eff}}}}"
        r" \sqrt{\dfrac{m(1 - m)}{n_{\mathrm{eff}}} + \dfrac{z^2}{4 n_{\mathrm{eff}}^2}}"
    ),
    symbols={"m": arg("m"), r"n_{\mathrm{eff}}": arg("n_eff"), "z": const("INTERVAL_Z")},
    golden=(
        point("m=1/2, n=10", m=Fraction(1, 2), n_eff=Fraction(10)),
        point("m=3/4, n=40", m=Fraction(3, 4), n_eff=Fraction(40)),
        point("m=0", m=Fraction(0), n_eff=Fraction(10)),
        point("m=1", m=Fraction(1), n_eff=Fraction(8)),
        point("small m, n=667/5", m=Fraction(1, 68), n_eff=Fraction(667, 5)),
    ),
)
def wilson_interval(m: Number, n_eff: Number) -> Interval:
    """The Wilson score interval of a proportion ``m`` at size ``n_eff``; four decimals,
    outwards. 1.2.0 reads it for pass^k of order ``k ≥ 2``, at the capped size.

    Returns an interval within [0, 1] that contains ``m``.

    >>> wilson_interval(Fraction(1, 2), 10)
    Interval(low=Decimal('0.2365'), high=Decimal('0.7635'))
    """
    share, size = exact(m), exact(n_eff)
    if not 0 <= share <= 1:
        raise ScoringError(f"m must lie in [0, 1], not {m!r}")
    low, high = wilson_bounds(share, size)
    return outwards(low, high, FRACTION_DECIMALS, _ONE)


@formula(
    "uncertainty.clopper_pearson",
    title="Clopper–Pearson interval at a non-integer size",
    latex=(
        r"\mathrm{CP}(m, n^{*}) = [L, U],\quad"
        r" L = \begin{cases} 0 & m = 0 \\"
        r" B^{-1}\!\left(\tfrac{\alpha}{2},\ x,\ n^{*} - x + 1\right) & m > 0 \end{cases},\quad"
        r" U = \begin{cases} 1 & m = 1 \\"
        r" B^{-1}\!\left(1 - \tfrac{\alpha}{2},\ x + 1,\ n^{*} - x\right) & m < 1"
        r" \end{cases},\quad x = m \cdot n^{*},\quad \alpha = 1 - \gamma"
    ),
    symbols={
        "m": arg("m"),
        "n^{*}": arg("n_star"),
        r"B^{-1}": uses("quantiles.beta_quantile", "probability", "a", "b"),
        r"\gamma": const("INTERVAL_LEVEL"),
    },
    golden=(
        point("m=1/2, n*=10", m=Fraction(1, 2), n_star=10.0),
        point("m=0", m=Fraction(0), n_star=10.0),
        point("m=1", m=Fraction(1), n_star=12.5),
        point("success check", m=Fraction(163, 182), n_star=36.66),
        point("small n*", m=Fraction(1, 3), n_star=1.5),
        point("large n*", m=Fraction(9, 10), n_star=5000.25),
    ),
)
def clopper_pearson_interval(
    m: Number, n_star: float, *, places: int = FRACTION_DECIMALS, scale: Number = 1
) -> Interval:
    """The Clopper–Pearson interval of a rate ``m`` at size ``n*`` (:func:`clopper_pearson_bounds`),
    four decimals, rounded outwards past any boundary within ``INTERVAL_BOUND_MARGIN``
    (``places`` decimals on ``[0, scale]`` for a score on another scale: radar correctness).

    Returns an interval within [0, 1] that contains ``m``.

    >>> clopper_pearson_interval(Fraction(1, 2), 10.0)
    Interval(low=Decimal('0.1870'), high=Decimal('0.8130'))
    """
    low, high = clopper_pearson_bounds(m, float(n_star))
    top = exact(scale)
    return outwards_with_margin(low * float(top), high * float(top), places, 0, top)


def rate_bounds(
    m: Number, variance: Number, tasks: int, runs: int, k: int = 1, level: Number = INTERVAL_LEVEL
) -> RateBounds:
    """The 1.2.0 bounds of a rate ``m`` (order ``k``) with clustered variance ``V`` over
    ``tasks`` tasks holding ``runs`` runs (outcomes) in all, before rounding.

    ``n_eff`` from :func:`capped_effective_size`. ``k = 1``: Clopper–Pearson
    (:func:`clopper_pearson_bounds`) at ``n* = n_eff·z²/q²``, ``q`` = :func:`t_factor`
    (``n*`` computed exactly, then rounded once to a float). ``k ≥ 2``: the Wilson bounds
    at the capped ``n_eff`` (at ``INTERVAL_LEVEL`` only, the level of ``z``). ``level``
    other than ``INTERVAL_LEVEL``: for a reader's calculator and the tests; ``z`` is then
    the normal quantile at that level.

    >>> b = rate_bounds(Fraction(1, 2), Fraction(1, 40), 10, 40)
    >>> float(b.n_eff), round(b.n_star, 4), round(b.low, 4), round(b.high, 4)
    (10.0, 7.5067, 0.1484, 0.8516)
    """
    n_eff = capped_effective_size(m, variance, tasks, runs, k)
    share = level_share(level)
    if k >= 2:
        if share != _LEVEL:
            raise ScoringError(f"level must be INTERVAL_LEVEL for k ≥ 2 (Wilson), not {level!r}")
        low, high = wilson_bounds(exact(m), n_eff)
        return RateBounds(low, high, n_eff, None, None)
    q = t_factor(tasks, level)
    n_star = n_star_of(n_eff, q, share)
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
    """The published 1.2.0 interval of a rate, by the registered formulas: for ``k = 1``
    :func:`clopper_pearson_interval` at the ``n*`` of :func:`rate_bounds` (``places``
    decimals on ``[0, scale]``), for ``k ≥ 2`` :func:`wilson_interval` at the capped
    ``n_eff`` (four decimals on [0, 1]: pass^k is a fraction).

    >>> rate_interval(Fraction(1, 2), Fraction(1, 40), 10, 40)
    Interval(low=Decimal('0.1483'), high=Decimal('0.8517'))
    """
    if k >= 2:
        if (places, exact(scale)) != (FRACTION_DECIMALS, _ONE):
            raise ScoringError("a rate of order k ≥ 2 is a fraction: four decimals on [0, 1]")
        return wilson_interval(m, capped_effective_size(m, variance, tasks, runs, k))
    # Only n* of rate_bounds: the bounds themselves are clopper_pearson_interval's to compute.
    n_eff = capped_effective_size(m, variance, tasks, runs, k)
    n_star = n_star_of(n_eff, t_factor(tasks), _LEVEL)
    return clopper_pearson_interval(m, n_star, places=places, scale=scale)


@formula(
    "uncertainty.success_rate_interval",
    title="Success-rate interval",
    latex=tex.pooled_tex(r"\hat p", "p"),
    symbols=tex.pooled_symbols(tex.COHORT_TASKS, "n", "c", r"\hat p"),
    golden=(
        point("decisions check", tasks=tex.SUCCESS_CHECK),
        *clustered_wilson_golden(
            lambda successes, runs: (runs, successes), "zero successes", "all successes", runs=3
        ),
    ),
)
def success_rate_interval(tasks: Sequence[tuple[int, int]]) -> Interval | None:
    """The 1.2.0 interval of the composite's success rate: Clopper–Pearson at
    ``n* = n_eff·z²/q²`` (k = 1), ``n_eff = p̂(1 − p̂)/V(p̂)`` capped at the runs.

    ``tasks`` holds ``(runs n_t, successes c_t)`` per task of the cohort; ``None`` below
    ``INTERVAL_MIN_TASKS`` tasks. By hand: ``p̂``, ``V(p̂)``, ``n_eff``, ``q`` (the t
    quantile with ``T − 1`` degrees of freedom), ``n*``, then the two Beta quantiles
    (a spreadsheet's ``BETA.INV``); four decimals, outwards.

    >>> success_rate_interval([(4, 3), (4, 1)] * 5)
    Interval(low=Decimal('0.3030'), high=Decimal('0.6970'))
    >>> success_rate_interval([(4, 3)] * 9) is None
    True
    """
    if len(tasks) < INTERVAL_MIN_TASKS:
        counts_checked(tasks)  # impossible counts are refused even below the minimum
        return None
    p, variance, n = pooled(tasks)
    return rate_interval(p, variance, len(tasks), n)


@formula(
    "uncertainty.success_interval",
    title="Success-rate interval of independent runs",
    latex=(
        r"p \in \mathrm{CP}(\hat p,\ n^{*}),\quad \hat p = \dfrac{s}{n},\quad "
        + tex.N_STAR_TEX
        + r",\quad n_{\mathrm{eff}} = \begin{cases} n - 1 & 0 < s < n \\ n & s = 0 \text{ or }"
        r" s = n \end{cases},\quad q = t^{-1}\!\left(\dfrac{1 + \gamma}{2},\ n - 1\right),"
        r"\quad n \ge " + tex.MIN_TASKS_TEX
    ),
    symbols={
        r"\mathrm{CP}": tex.CP,
        "n": arg("runs"),
        "s": arg("successes"),
        r"t^{-1}": tex.T_QUANTILE,
        r"\gamma": const("INTERVAL_LEVEL"),
        "z": const("INTERVAL_Z"),
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
    own task, as in the reader's calculator): :func:`success_rate_interval` of ``runs``
    one-run tasks; four decimals, outwards.

    With one run per task ``V = p̂(1 − p̂)/(n − 1)``, so ``n_eff = n − 1`` (``n`` when
    ``p̂`` is 0 or 1, where ``V = 0`` and ``n_eff = T = n``), and ``q`` has ``n − 1``
    degrees of freedom. Below ``INTERVAL_MIN_TASKS`` runs: ``None``, as in the report.

    >>> success_interval(20, 10)
    Interval(low=Decimal('0.2512'), high=Decimal('0.7488'))
    >>> success_interval(9, 4) is None
    True
    """
    if runs < 0 or not 0 <= successes <= runs:
        raise ScoringError("successes must lie between 0 and the runs")
    if runs < INTERVAL_MIN_TASKS:
        return None
    p = Fraction(successes, runs)
    # Σ_t (s_t − p)² = n·p(1 − p) over one-run tasks, so V = n/(n − 1)·n·p(1 − p)/n².
    return rate_interval(p, p * (1 - p) / (runs - 1), runs, runs)


@formula(
    "uncertainty.correctness_interval",
    title="Radar correctness interval",
    latex=tex.pooled_tex(r"\hat r", r"\mathrm{correctness}", tex.SCALE_TEX + r" \cdot "),
    symbols={
        **tex.pooled_symbols(tex.WINDOW_TASKS, "known", "passes", r"\hat r"),
    },
    golden=clustered_wilson_golden(
        lambda passes, known: (passes, known), "no passes", "every pass", runs=2
    ),
)
def correctness_interval(tasks: Sequence[tuple[int, int]]) -> Interval | None:
    """The 1.2.0 interval of the radar's correctness axis from ``(passes, known)`` per task
    of the window: the rate interval (k = 1) of the window's pass rate, times 100, two
    decimals on 0–100, outwards. ``None`` below ``INTERVAL_MIN_TASKS`` tasks.

    >>> correctness_interval([(3, 4), (1, 4)] * 5)
    Interval(low=Decimal('30.30'), high=Decimal('69.70'))
    """
    counts = [(known, passes) for passes, known in tasks]
    if len(tasks) < INTERVAL_MIN_TASKS:
        counts_checked(counts)
        return None
    p, variance, n = pooled(counts)
    return rate_interval(p, variance, len(tasks), n, places=SCORE_DECIMALS, scale=SCORE_SCALE)


@formula(
    "uncertainty.pass_hat_k_interval",
    title="pass^k interval",
    latex=(
        r"\mathrm{pass}^k \in \begin{cases} \mathrm{CP}(m,\ n^{*}) & k = 1 \\"
        r" \mathrm{Wilson}(m,\ n_{\mathrm{eff}}) & k \ge 2 \end{cases},\quad "
        + tex.N_STAR_TEX
        + r",\quad n_{\mathrm{eff}} = N_{\mathrm{eff}}(m, V, T, N, k),\quad "
        + tex.Q_TEX
        + r",\quad U_t = \mathrm{pass}^k(n_t, c_t),"
        r"\quad m = \dfrac{1}{T} \sum_{t=1}^{T} U_t,"
        r"\quad V = \dfrac{1}{T(T - 1)} \sum_{t=1}^{T} (U_t - m)^2,"
        r"\quad N = \sum_{t=1}^{T} n_t,\quad T \ge " + tex.MIN_TASKS_TEX
    ),
    symbols={
        r"\mathrm{CP}": tex.CP,
        r"\mathrm{Wilson}": uses("uncertainty.wilson", "m", "n_eff"),
        r"\mathrm{pass}^k": uses("repeatability.pass_hat_k", "n", "c", k=arg("k")),
        r"N_{\mathrm{eff}}": uses(
            "uncertainty.capped_effective_size", "m", "variance", "tasks", "runs", "k"
        ),
        r"t^{-1}": tex.T_QUANTILE,
        r"\gamma": const("INTERVAL_LEVEL"),
        "z": const("INTERVAL_Z"),
        "T": total(tex.QUALIFYING),
        "t": tex.QUALIFYING,
        "n_t": column("n"),
        "c_t": column("c"),
        "k": arg("k"),
    },
    golden=(
        point("decisions check, k=5", tasks=tex.PASS5_CHECK, k=5),
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
        point("cap below T", tasks=((4, 4), (4, 1)) * 5, k=5),
        point("cap below T, five outcomes", tasks=((5, 5), (5, 1)) * 5, k=5),
        point("k=5, four-outcome tasks left out", tasks=((5, 5), (5, 1)) * 5 + ((4, 4),) * 3, k=5),
    ),
)
def pass_hat_k_interval(tasks: Sequence[tuple[int, int]], k: int) -> Interval | None:
    """The 1.2.0 interval of aggregate pass^k from ``(n, c)`` per task: ``n_eff`` capped at
    ``N/k`` (:func:`capped_effective_size`); Clopper–Pearson at ``n*`` for ``k = 1``, the
    Wilson interval at ``n_eff`` for ``k ≥ 2``; ``None`` below ``INTERVAL_MIN_TASKS``
    qualifying tasks. Four decimals, outwards.

    >>> pass_hat_k_interval([(4, 4), (4, 2), (5, 4)] * 4, 3)
    Interval(low=Decimal('0.2545'), high=Decimal('0.6916'))
    """
    if len(repeatability.qualifying_tasks(tasks, k)) < INTERVAL_MIN_TASKS:
        return None
    m, variance, count_, runs = pass_hat_k_moments(tasks, k)
    return rate_interval(m, variance, count_, runs, k)
