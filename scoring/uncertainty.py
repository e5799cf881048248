"""How far a score can be trusted: 95% intervals clustered by task (methodology 1.1.0).

Runs of one task are not independent draws, so the task is the cluster everywhere here
(decisions.md, section "Uncertainty"; after Miller, "Adding Error Bars to Evals", 2024, and
Inspect's clustered standard errors). Every interval is computed from per-task sums, never
from a list of runs: a task contributes its number of runs and the sums of its values.

Exact arithmetic: every quantity is a ``Fraction`` up to the one square root of a bound.
A bound is kept as ``a + b·√q`` with rational ``a``, ``b`` and ``q`` (:class:`Surd`), and
rounded outwards exactly (the low bound down, the high bound up) at the score's own
decimals: two on the 0–100 scale, four for a fraction; then clipped to the scale. ``z`` is
the binary value of the float ``statistics.NormalDist(0, 1).inv_cdf((1 + level) / 2)``
(:data:`scoring.constants.INTERVAL_Z`), taken exactly.

Below ``INTERVAL_MIN_TASKS`` distinct tasks an interval is ``None``; :func:`interval_reason`
says why in words. An interval never changes a score, a rank or a floor.
"""

from __future__ import annotations

import bisect
import itertools
import math
import operator
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType

from scoring.composite import composite_score, outcome_consistency
from scoring.constants import (
    COMPOSITE_WEIGHT_COST,
    COMPOSITE_WEIGHT_RELIABILITY,
    COMPOSITE_WEIGHT_SUCCESS,
    CONSISTENCY_MIN_RUNS,
    COST_ANCHORS_USD,
    FRACTION_DECIMALS,
    INTERVAL_MIN_TASKS,
    INTERVAL_Z,
    INTERVAL_Z_POWER,
    LATENCY_ANCHORS_MS,
    NEUTRAL_CONSISTENCY,
    PASS_K_LEVELS,
    REPEATABILITY_MIN_OUTCOMES,
    SCORE_DECIMALS,
    SCORE_SCALE,
    Anchor,
)
from scoring.curves import CURVE_SYMBOLS, cost_score, curve_golden, latency_score
from scoring.numeric import Number, exact
from scoring.registry import (
    Binding,
    Point,
    Rows,
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
from scoring.repeatability import pass_hat_k

# The numbers a formula shows are the constants', so a changed constant changes the formula.
_SCALE = tex_number(SCORE_SCALE)
_MIN_TASKS = tex_number(INTERVAL_MIN_TASKS)

_ZERO = Fraction(0)
_ONE = Fraction(1)


def _rational(value: Number) -> int | Fraction:
    """``value`` as an exact rational, without rebuilding an ``int`` or a ``Fraction``."""
    return value if isinstance(value, int | Fraction) else exact(value)


#: ``z`` and ``z_power`` as exact rationals (the binary value of each float).
Z = Fraction(INTERVAL_Z)
Z_POWER = Fraction(INTERVAL_Z_POWER)


# --- Exact bounds -------------------------------------------------------------------------


def _floor_surd(a: Fraction, b: Fraction, q: Fraction) -> int:
    """``⌊a + b·√q⌋`` exactly (``q ≥ 0``), with integer square roots only.

    >>> _floor_surd(Fraction(0), Fraction(1), Fraction(2)), _floor_surd(Fraction(3), -1, 4)
    (1, 1)
    """
    if b == 0 or q == 0:
        return math.floor(a)
    r = b * b * q  # a + sign·√r
    positive = b > 0
    root = Fraction(math.isqrt(r.numerator * r.denominator), r.denominator)  # √r − 1/den < root
    guess = math.floor(a + root if positive else a - root)

    def at_most(m: int) -> bool:  # m ≤ a + sign·√r
        gap = m - a
        if positive:
            return gap <= 0 or gap * gap <= r
        return gap <= 0 and gap * gap >= r

    # |root − √r| < 1, so the floor is within one of the guess.
    for candidate in (guess + 1, guess, guess - 1):
        if at_most(candidate):
            return candidate
    raise AssertionError("unreachable: the floor lies within one of the guess")


# The float shortcut of Surd: its error bound per unit of magnitude (2^-50 would do; 2^-40
# leaves room), an absolute floor for values near 0, and the magnitude beyond which the
# exact path is taken (every published bound is far below it).
_ESTIMATE_SLACK = 2.0**-40
_TINY = 2.0**-1000
_ESTIMATE_LIMIT = 2.0**60


@dataclass(frozen=True, slots=True)
class Surd:
    """The exact real ``a + b·√q`` (rational ``a``, ``b``, ``q ≥ 0``): an interval bound.

    Sums, rational multiples and products of two surds with the same ``q`` stay exact.

    >>> x = Surd(Fraction(1), Fraction(1), Fraction(2))   # 1 + √2
    >>> x.floor(2), x.ceil(2), (x * x).floor(3)            # (1 + √2)² = 3 + 2√2
    (Decimal('2.41'), Decimal('2.42'), Decimal('5.828'))
    """

    a: Fraction
    b: Fraction = _ZERO
    q: Fraction = _ZERO

    def __post_init__(self) -> None:
        if self.q < 0:
            raise ScoringError("the radicand of a bound must not be negative")

    def __add__(self, other: Surd | Fraction | int) -> Surd:
        if isinstance(other, Surd):
            if other.b and self.b and other.q != self.q:
                raise ScoringError("surds with different radicands do not add exactly")
            q = self.q if self.b else other.q
            return Surd(self.a + other.a, self.b + other.b, q)
        return Surd(self.a + other, self.b, self.q)

    def __mul__(self, other: Surd | Fraction | int) -> Surd:
        if isinstance(other, Surd):
            if other.b and self.b and other.q != self.q:
                raise ScoringError("surds with different radicands do not multiply exactly")
            q = self.q if self.b else other.q
            return Surd(
                self.a * other.a + self.b * other.b * q, self.a * other.b + self.b * other.a, q
            )
        return Surd(self.a * other, self.b * other, self.q)

    __radd__ = __add__
    __rmul__ = __mul__

    def _estimate(self) -> tuple[float, float] | None:
        """A float near the value and a bound on its error, or ``None`` (out of range).

        ``float`` of a ``Fraction`` is correctly rounded, and so are ``sqrt``, the product
        and the sum: four roundings, each within 2^-53 of its result, so the error stays
        below ``2^-50·(|a| + |b·√q|)`` (``_ESTIMATE_SLACK`` is far more).
        """
        try:
            a, root = float(self.a), float(self.b) * math.sqrt(self.q)
        except OverflowError:
            return None
        size = abs(a) + abs(root)
        if not size < _ESTIMATE_LIMIT:
            return None
        return a + root, size * _ESTIMATE_SLACK + _TINY

    def sign(self) -> int:
        """-1, 0 or 1: the sign of the value, decided exactly (a float when it is clear)."""
        estimate = self._estimate()
        if estimate is not None and abs(estimate[0]) > estimate[1]:
            return 1 if estimate[0] > 0 else -1
        a, r = self.a, self.b * self.b * self.q
        if r == 0 or (a >= 0 and self.b >= 0) or (a <= 0 and self.b <= 0):
            both = a if a else self.b if r else _ZERO
            return (both > 0) - (both < 0)
        # a and b·√q have opposite signs: the larger square wins.
        bigger = (a * a > r) - (a * a < r)
        return bigger if a > 0 else -bigger

    def _units_floor(self, places: int) -> int:
        """``⌊value·10^places⌋``: from the float when it is clearly between two integers,
        else with integer square roots."""
        scale: int = 10**places
        estimate = self._estimate()
        if estimate is not None:
            # The product adds one more rounding, well within the slack.
            value, error = estimate[0] * float(scale), estimate[1] * float(scale)
            below = math.floor(value)
            if below < value - error and value + error < below + 1:
                return below
        return _floor_surd(self.a * scale, self.b * scale, self.q)

    def floor(self, places: int) -> Decimal:
        """The value rounded down at ``places`` decimals, exactly."""
        return Decimal(self._units_floor(places)).scaleb(-places)

    def ceil(self, places: int) -> Decimal:
        """The value rounded up at ``places`` decimals, exactly."""
        return Decimal(-(self * -1)._units_floor(places)).scaleb(-places)

    def clipped(self, low: Fraction, high: Fraction) -> Surd:
        """The value limited to ``[low, high]`` (decided exactly)."""
        if (self + -low).sign() < 0:
            return Surd(low)
        if (self + -high).sign() > 0:
            return Surd(high)
        return self

    def __float__(self) -> float:
        return float(self.a) + float(self.b) * math.sqrt(self.q)


@dataclass(frozen=True, slots=True)
class Interval:
    """A published interval: bounds rounded outwards at the score's decimals, on its scale.

    ``low`` and ``high`` are exact decimals (``Decimal``); JSON shows them as numbers.
    """

    low: Decimal
    high: Decimal


def outwards(low: Surd, high: Surd, places: int, top: Fraction) -> Interval:
    """The interval ``[low, high]`` rounded outwards at ``places`` and clipped to ``[0, top]``.

    Rounding down then clipping at 0 is clipping then rounding (0 and ``top`` lie on the
    grid of ``places`` decimals), so the order does not matter.

    >>> outwards(Surd(Fraction(1, 3)), Surd(Fraction(2, 3)), 2, Fraction(1))
    Interval(low=Decimal('0.33'), high=Decimal('0.67'))
    """
    grid = Decimal(1).scaleb(-places)
    zero, ceiling = (
        Decimal(0).quantize(grid),
        (Decimal(top.numerator) / top.denominator).quantize(grid),
    )
    return Interval(max(low.floor(places), zero), min(high.ceil(places), ceiling))


def interval_reason(tasks: int, kind: str = "distinct tasks") -> str | None:
    """Why an interval is ``null`` with ``tasks`` tasks of the ``kind`` it counts (distinct
    tasks of its cohort; for pass^k, qualifying tasks), or ``None`` when it has enough.

    >>> interval_reason(3)
    'fewer than 10 distinct tasks (3)'
    >>> interval_reason(12) is None
    True
    """
    if tasks >= INTERVAL_MIN_TASKS:
        return None
    return f"fewer than {INTERVAL_MIN_TASKS} {kind} ({tasks})"


# --- Clustered variance -------------------------------------------------------------------


TaskSum = tuple[int, Number]
"""One task of a cohort: its number of runs and the sum of their values."""


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
    return _Columns.of(tasks).covariance()


@dataclass(frozen=True, slots=True)
class _Columns:
    """Per-task sums as integers: column ``j`` scaled by the common denominator ``D_j`` of
    its sums, so that every residual and every sum of their products is an integer."""

    counts: list[int]
    integers: list[list[int]]
    scales: list[int]
    totals: list[int]

    @staticmethod
    def of(tasks: Sequence[tuple[int, Sequence[Number]]]) -> _Columns:
        if len(tasks) < 2:
            raise ScoringError("a clustered variance needs at least two tasks")
        width = len(tasks[0][1])
        if any(len(sums) != width for _, sums in tasks):
            raise ScoringError("every task needs the same number of sums")
        if any(count <= 0 for count, _ in tasks):
            raise ScoringError("every task needs at least one run")
        columns = [[_rational(values[j]) for _, values in tasks] for j in range(width)]
        scales = [math.lcm(*(value.denominator for value in column)) for column in columns]
        integers = [
            [value.numerator * (scale // value.denominator) for value in column]
            for column, scale in zip(columns, scales, strict=True)
        ]
        counts = [count for count, _ in tasks]
        return _Columns(counts, integers, scales, [sum(column) for column in integers])

    def mean(self, j: int) -> Fraction:
        """``v̄_j = Σ_t S_tj / n``."""
        return Fraction(self.totals[j], self.scales[j] * sum(self.counts))

    def covariance(self) -> tuple[tuple[Fraction, ...], ...]:
        """``Σ``: ``n·D_j·r_tj = n·(D_j·S_tj) − n_t·Σ_u (D_j·S_uj)`` is an integer, so
        ``Σ_jk = T/(T − 1) · Σ_t (n·D_j·r_tj)(n·D_k·r_tk) / (n⁴·D_j·D_k)``, one division
        per entry."""
        n = sum(self.counts)
        residuals = [
            [n * value - count * total for value, count in zip(column, self.counts, strict=True)]
            for column, total in zip(self.integers, self.totals, strict=True)
        ]
        tasks = len(self.counts)
        factor = Fraction(tasks, tasks - 1) / n**4
        width = range(len(self.scales))
        return tuple(
            tuple(
                factor
                * Fraction(
                    sum(map(operator.mul, residuals[j], residuals[k])),
                    self.scales[j] * self.scales[k],
                )
                for k in width
            )
            for j in width
        )


# --- The cluster-adjusted Wilson interval -------------------------------------------------


def effective_sample_size(
    m: Fraction, variance: Fraction, tasks: int, observations: int
) -> Fraction:
    """``n_eff = m(1 − m)/V`` capped at the observations when ``V > 0``; ``T`` when ``V = 0``.

    >>> effective_sample_size(Fraction(1, 2), Fraction(1, 40), 10, 40)
    Fraction(10, 1)
    >>> effective_sample_size(Fraction(1, 2), Fraction(1, 400), 10, 40)  # capped
    Fraction(40, 1)
    """
    if not 0 <= m <= 1:
        raise ScoringError("a proportion m must lie in [0, 1]")
    if variance < 0:
        raise ScoringError("a variance must not be negative")
    if variance == 0:
        return Fraction(tasks)
    spread = m * (1 - m)
    if spread == 0:
        raise ScoringError("a proportion of 0 or 1 has no spread, so its variance must be 0")
    return min(spread / variance, Fraction(observations))


def wilson_bounds(m: Fraction, n_eff: Fraction) -> tuple[Surd, Surd]:
    """The Wilson score interval of ``m`` at sample size ``n_eff``, exact and clipped to
    [0, 1]: centre ``(m + z²/(2n))/(1 + z²/n)``, half-width
    ``z/(1 + z²/n)·√(m(1 − m)/n + z²/(4n²))``.

    >>> low, high = wilson_bounds(Fraction(1, 2), Fraction(10))
    >>> low.floor(4), high.ceil(4)
    (Decimal('0.2365'), Decimal('0.7635'))
    """
    if n_eff <= 0:
        raise ScoringError("an effective sample size must be positive")
    z2 = Z * Z
    shrink = 1 + z2 / n_eff
    centre = (m + z2 / (2 * n_eff)) / shrink
    radicand = z2 / (shrink * shrink) * (m * (1 - m) / n_eff + z2 / (4 * n_eff * n_eff))
    low = Surd(centre, -_ONE, radicand).clipped(_ZERO, _ONE)
    high = Surd(centre, _ONE, radicand).clipped(_ZERO, _ONE)
    return low, high


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


# --- Success rate -------------------------------------------------------------------------


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
    if not _enough_tasks(tasks):
        return None
    low, high = _success_bounds(tasks)
    return outwards(low * scale, high * scale, places, scale)


def _enough_tasks(tasks: Sequence[tuple[int, int]]) -> bool:
    """Whether ``tasks`` (``(runs, successes)`` each) are enough for an interval: at least
    ``INTERVAL_MIN_TASKS`` of them. Raises :class:`ScoringError` on impossible counts."""
    for runs, successes in tasks:
        if runs <= 0 or not 0 <= successes <= runs:
            raise ScoringError("each task needs runs > 0 and successes between 0 and its runs")
    return len(tasks) >= INTERVAL_MIN_TASKS


def _clustered_variance_tex(estimate: str) -> str:
    """The LaTeX of ``V(estimate)``, the clustered variance of a pooled rate over tasks,
    and the minimum number of tasks."""
    return (
        rf"V({estimate}) = \dfrac{{T}}{{T - 1}} \cdot \dfrac{{1}}{{n^2}} \sum_{{t=1}}^{{T}}"
        rf" (c_t - n_t {estimate})^2,\quad T \ge " + _MIN_TASKS
    )


def _clustered_wilson_symbols(
    tasks: Rows, runs: str, successes: str, estimate: Mapping[str, Binding]
) -> dict[str, Binding]:
    """The symbols of a Wilson interval of a pooled rate with its clustered variance
    (:func:`_clustered_variance_tex`): ``t`` ranges over ``tasks``, ``n_t`` and ``c_t`` are
    its columns ``runs`` and ``successes``; ``estimate`` binds the rate and its parts."""
    n = total(tasks, runs)
    return {
        r"\mathrm{Wilson}": uses(
            "uncertainty.cluster_wilson",
            "m",
            "variance",
            tasks=count(tasks.name),
            observations=n,
        ),
        **estimate,
        "T": count(tasks.name),
        "t": tasks,
        "n_t": column(runs),
        "c_t": column(successes),
        "n": n,
    }


def _clustered_wilson_golden(
    task: Callable[[int, int], tuple[int, int]], none: str, every: str, *, runs: int
) -> tuple[Point, ...]:
    """The golden points of an interval of :func:`_clustered_wilson_symbols`, each task
    written by ``task`` from its (successes, runs): an example, one task short of the
    minimum, ``none`` and ``every`` (no success and only successes, tasks of ``runs`` runs)
    and uneven tasks."""

    def tasks(*pairs: tuple[int, int]) -> tuple[tuple[int, int], ...]:
        return tuple(task(successes, n) for successes, n in pairs)

    return (
        point("example", tasks=tasks((3, 4), (1, 4)) * 5),
        point("below the minimum", tasks=tasks((3, 4)) * (INTERVAL_MIN_TASKS - 1)),
        point(none, tasks=tasks((0, runs)) * INTERVAL_MIN_TASKS),
        point(every, tasks=tasks((runs, runs)) * INTERVAL_MIN_TASKS),
        point("uneven", tasks=tasks((4, 5), (0, 2), (3, 3), (1, 1), (1, 4), (2, 6)) * 2),
    )


#: The cohort's tasks of the success rate: completed runs and successes.
_COHORT_TASKS = rows("tasks", "n", "c")


@formula(
    "uncertainty.success_rate_interval",
    title="Success-rate interval",
    latex=(
        r"p \in \mathrm{Wilson}\!\left(\hat p,\ V(\hat p)\right),"
        r"\quad " + _clustered_variance_tex(r"\hat p")
    ),
    symbols=_clustered_wilson_symbols(
        _COHORT_TASKS, "n", "c", {r"\hat p": total(_COHORT_TASKS, "c", per="n")}
    ),
    golden=_clustered_wilson_golden(
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
    if not anchors:
        raise ScoringError("a curve needs at least one anchor")
    points = [(exact(a.x), exact(a.score)) for a in anchors]
    slopes = [_ZERO]
    for (x0, s0), (x1, s1) in itertools.pairwise(points):
        if x1 <= x0:
            raise ScoringError("curve anchors must have strictly increasing x")
        slopes.append((s1 - s0) / (x1 - x0))
    slopes.append(_ZERO)
    value = exact(x)
    # Side i lies left of anchor i (side 0 is the flat part before the first anchor).
    for i, (xi, _) in enumerate(points):
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
        w_r * latency_score(mean_latency_ms) * 4 * (2 * rate - 1) if gated else 0
    )
    consistency = outcome_consistency(rate, completed_runs)
    by_latency = w_r * consistency * curve_slope(mean_latency_ms, LATENCY_ANCHORS_MS)
    by_cost = w_c * curve_slope(mean_cost_usd, COST_ANCHORS_USD)
    return by_rate, by_latency, by_cost


CohortTask = tuple[int, int, Number, Number]
"""One task of the composite's cohort: completed runs, successes, and the sums of their
``latency_ms`` and ``cost_usd`` (as written)."""


def _weighted_at(p: Surd, completed_runs: int, latency: Fraction, cost: Fraction) -> Surd:
    """``S`` at a (possibly irrational) success rate, without the zero-success floor."""
    scale = exact(SCORE_SCALE)
    if completed_runs >= CONSISTENCY_MIN_RUNS:
        consistency = p * p * 4 + p * -4 + 1  # 1 − 4p(1 − p)
    else:
        consistency = Surd(exact(NEUTRAL_CONSISTENCY))
    return (
        p * exact(COMPOSITE_WEIGHT_SUCCESS)
        + consistency * (exact(COMPOSITE_WEIGHT_RELIABILITY) * latency / scale)
        + exact(COMPOSITE_WEIGHT_COST) * cost / scale
    ) * scale


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
    found = _composite_and_success(tasks)
    return None if found is None else found[0]


def _composite_and_success(tasks: Sequence[CohortTask]) -> tuple[Interval, Interval] | None:
    """The composite's interval and its success rate's, from one pass over the sums."""
    if not _enough_tasks([(runs, successes) for runs, successes, _, _ in tasks]):
        return None
    columns = _Columns.of([(task[0], task[1:]) for task in tasks])
    if any(total < 0 for total in columns.integers[1] + columns.integers[2]):
        raise ScoringError("latency and cost sums must not be negative")
    n = sum(columns.counts)
    successes = columns.totals[0]
    p, mean_latency, mean_cost = columns.mean(0), columns.mean(1), columns.mean(2)
    sigma = columns.covariance()
    n_eff = effective_sample_size(p, sigma[0][0], len(tasks), n)
    rate_low, rate_high = wilson_bounds(p, n_eff)
    rate = outwards(rate_low, rate_high, FRACTION_DECIMALS, _ONE)
    latency, cost = latency_score(mean_latency), cost_score(mean_cost)
    places, top = SCORE_DECIMALS, exact(SCORE_SCALE)
    if successes == 0:
        floor = outwards(Surd(_ZERO), _weighted_at(rate_high, n, latency, cost), places, top)
        return floor, rate
    score = composite_score(p, outcome_consistency(p, n), latency, cost)
    gradient = composite_gradient(p, mean_latency, mean_cost, n)
    spread = sum(
        (gradient[j] * sigma[j][k] * gradient[k] for j in range(3) for k in range(3)), _ZERO
    )
    low, high = Surd(score, -_ONE, Z * Z * spread), Surd(score, _ONE, Z * Z * spread)
    interval = outwards(low, high, places, top)
    if successes == n:
        edge = outwards(_weighted_at(rate_low, n, latency, cost), high, places, top)
        return Interval(min(interval.low, edge.low), interval.high), rate
    return interval, rate


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
    for n, c in qualifying:
        pass_hat_k(n, c, k)  # checks the domain
    # Exact and fast: U_t = C(c, k)/C(n, k) = A_t/L over the common denominator L, so
    # m = ΣA/(T·L) and V = (T·ΣA² − (ΣA)²)/(T²(T − 1)·L²), in integers.
    common = math.lcm(*(math.comb(n, k) for n, c in qualifying if c >= k))  # 1 if none
    scaled = [math.comb(c, k) * (common // math.comb(n, k)) if c >= k else 0 for n, c in qualifying]
    total = sum(scaled)
    m = Fraction(total, count * common)
    spread = count * sum(a * a for a in scaled) - total * total
    variance = Fraction(spread, count * count * (count - 1) * common * common)
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
        r"\quad " + _clustered_variance_tex(r"\hat q")
    ),
    symbols=_clustered_wilson_symbols(
        _WINDOW_TASKS,
        "known",
        "passes",
        {
            r"\text{passes}": total(_WINDOW_TASKS, "passes"),
            r"\text{window runs with a known outcome}": total(_WINDOW_TASKS, "known"),
        },
    ),
    golden=_clustered_wilson_golden(
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


# --- One agent's intervals ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AgentIntervals:
    """Every interval of one agent, and why each missing one is missing.

    ``composite_reason`` is shared by the composite and its success rate (one cohort);
    ``pass_hat_reason`` by every pass^k level (the same qualifying tasks).
    """

    composite: Interval | None
    success_rate: Interval | None
    composite_reason: str | None
    correctness: Interval | None
    correctness_reason: str | None
    pass_hat: Mapping[int, Interval | None]
    pass_hat_reason: str | None


def score_intervals(
    cohort: Sequence[CohortTask],
    window: Sequence[tuple[int, int]],
    outcomes: Sequence[tuple[int, int]],
    levels: Sequence[int] = PASS_K_LEVELS,
) -> AgentIntervals:
    """The intervals of one agent from its per-task sums.

    ``cohort``: :data:`CohortTask` per task of the completed runs; ``window``:
    ``(passes, known outcomes)`` per task with a known outcome in the radar window;
    ``outcomes``: ``(n, c)`` per task of the recorded outcomes, as
    :func:`scoring.repeatability.score_repeatability` takes them.

    >>> score_intervals([], [], []).pass_hat_reason
    'fewer than 10 qualifying tasks (0)'
    """
    qualifying = sum(1 for n, _ in outcomes if n >= REPEATABILITY_MIN_OUTCOMES)
    both = _composite_and_success(cohort)
    return AgentIntervals(
        composite=None if both is None else both[0],
        success_rate=None if both is None else both[1],
        composite_reason=interval_reason(len(cohort)),
        correctness=correctness_interval(window),
        correctness_reason=interval_reason(len(window)),
        pass_hat=MappingProxyType({k: pass_hat_k_interval(outcomes, k) for k in levels}),
        pass_hat_reason=interval_reason(qualifying, "qualifying tasks"),
    )


#: The intervals of an agent scored without them (no cohort, no window, no outcomes).
NO_INTERVALS = score_intervals([], [], [])
