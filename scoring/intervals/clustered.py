"""The machinery of the clustered intervals (methodology 1.1.0): per-task sums as integer
columns, the effective sample size, the Wilson bounds, the composite at an irrational rate,
and the symbols and golden points the registered interval formulas of
:mod:`scoring.intervals.variance` share.

Runs of one task are not independent draws, so the task is the cluster (docs/uncertainty.md;
after Miller, "Adding Error Bars to Evals", 2024, and Inspect's clustered standard errors): a
task contributes its number of runs and the sums of its values, never a list of runs.
"""

from __future__ import annotations

import functools
import math
import operator
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

from scoring.constants import (
    INTERVAL_MIN_TASKS,
)
from scoring.intervals.surd import Surd, Z, rational
from scoring.numeric import Number
from scoring.registry import (
    Point,
    ScoringError,
    point,
    tex_number,
)

# The numbers a formula shows are the constants', so a changed constant changes the formula.
_MIN_TASKS = tex_number(INTERVAL_MIN_TASKS)

_ZERO = Fraction(0)
_ONE = Fraction(1)


TaskSum = tuple[int, Number]
"""One task of a cohort: its number of runs and the sum of their values."""


@dataclass(frozen=True, slots=True)
class Columns:
    """Per-task sums as integers: column ``j`` scaled by the common denominator ``D_j`` of
    its sums, so that every residual and every sum of their products is an integer."""

    counts: list[int]
    integers: list[list[int]]
    scales: list[int]
    totals: list[int]

    @staticmethod
    def of(tasks: Sequence[tuple[int, Sequence[Number]]]) -> Columns:
        """The columns of ``tasks``; the last ones again when ``tasks`` is the very tuple
        of tuples they were made of (the composite's interval reads its means and, through
        the registered covariance, its Σ from one cohort)."""
        last_tasks, last_columns = _LAST_COLUMNS[0]
        if tasks is last_tasks:
            return last_columns
        columns = Columns._of(tasks)
        if type(tasks) is tuple and all(type(sums) is tuple for _, sums in tasks):
            # Immutable all the way down (numbers in tuples), and held here, so that its
            # identity cannot pass to another object while it is remembered.
            _LAST_COLUMNS[0] = (tasks, columns)
        return columns

    @staticmethod
    def _of(tasks: Sequence[tuple[int, Sequence[Number]]]) -> Columns:
        if len(tasks) < 2:
            raise ScoringError("a clustered variance needs at least two tasks")
        width = len(tasks[0][1])
        if any(len(sums) != width for _, sums in tasks):
            raise ScoringError("every task needs the same number of sums")
        if any(count <= 0 for count, _ in tasks):
            raise ScoringError("every task needs at least one run")
        columns = [[rational(values[j]) for _, values in tasks] for j in range(width)]
        scales = [math.lcm(*(value.denominator for value in column)) for column in columns]
        integers = [
            [value.numerator * (scale // value.denominator) for value in column]
            for column, scale in zip(columns, scales, strict=True)
        ]
        counts = [count for count, _ in tasks]
        return Columns(counts, integers, scales, [sum(column) for column in integers])

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
        # T/(T − 1)/n⁴ and the entry's own scales in one integer ratio; the matrix is
        # symmetric, so each entry below the diagonal is the one above it.
        above = tasks - 1
        per = n**4
        width = range(len(self.scales))
        entries: dict[tuple[int, int], Fraction] = {}
        for j in width:
            for k in width:
                if k < j:
                    entries[j, k] = entries[k, j]
                    continue
                products = sum(map(operator.mul, residuals[j], residuals[k]))
                entries[j, k] = Fraction(
                    tasks * products, above * per * self.scales[j] * self.scales[k]
                )
        return tuple(tuple(entries[j, k] for k in width) for j in width)


# The tasks Columns.of made columns of last, and those columns.
_LAST_COLUMNS: list[tuple[object, Columns]] = [((), Columns([], [], [], []))]


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


_Z2 = Z * Z


# Pure in its two exact arguments, and read twice per agent with the same ones (the
# composite's interval and its success rate's share p and n_eff): remembered.
@functools.lru_cache(maxsize=256)
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
    # The same two numbers in integers, one division each: with m = a/b, n = c/d and
    # z² = e/f, 1 + z²/n = (fc + ed)/(fc), so the centre is (2afc + bed)/(2b(fc + ed)) and
    # the radicand ed·(4fca(b − a) + b²ed)/(4b²(fc + ed)²).
    a, b = m.numerator, m.denominator
    c, d = n_eff.numerator, n_eff.denominator
    e, f = _Z2.numerator, _Z2.denominator
    fc, ed = f * c, e * d
    shrink = fc + ed
    centre = Fraction(2 * a * fc + b * ed, 2 * b * shrink)
    radicand = Fraction(ed * (4 * fc * a * (b - a) + b * b * ed), 4 * b * b * shrink * shrink)
    low = Surd(centre, -_ONE, radicand).clipped(_ZERO, _ONE)
    high = Surd(centre, _ONE, radicand).clipped(_ZERO, _ONE)
    return low, high


def enough_tasks(tasks: Sequence[tuple[int, int]]) -> bool:
    """Whether ``tasks`` (``(runs, successes)`` each) are enough for an interval: at least
    ``INTERVAL_MIN_TASKS`` of them. Raises :class:`ScoringError` on impossible counts."""
    for runs, successes in tasks:
        if runs <= 0 or not 0 <= successes <= runs:
            raise ScoringError("each task needs runs > 0 and successes between 0 and its runs")
    return len(tasks) >= INTERVAL_MIN_TASKS


def clustered_variance_tex(estimate: str) -> str:
    """The LaTeX of ``V(estimate)``, the clustered variance of a pooled rate over tasks,
    and the minimum number of tasks."""
    return (
        rf"V({estimate}) = \dfrac{{T}}{{T - 1}} \cdot \dfrac{{1}}{{n^2}} \sum_{{t=1}}^{{T}}"
        rf" (c_t - n_t {estimate})^2,\quad T \ge " + _MIN_TASKS
    )


def clustered_wilson_golden(
    task: Callable[[int, int], tuple[int, int]], none: str, every: str, *, runs: int
) -> tuple[Point, ...]:
    """The golden points of an interval of :func:`clustered_wilson_symbols`, each task
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


CohortTask = tuple[int, int, Number, Number]
"""One task of the composite's cohort: completed runs, successes, and the sums of their
``latency_ms`` and ``cost_usd`` (as written)."""
