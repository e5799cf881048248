"""Repeatability: pass^k, the chance that k attempts drawn from the recorded ones all passed."""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from scoring.constants import PASS_K_LEVELS, REPEATABILITY_MIN_OUTCOMES
from scoring.numeric import exact_sum
from scoring.registry import ScoringError, arg, column, const, formula, point, rows, uses


@formula(
    "repeatability.pass_hat_k",
    title="pass^k of one task",
    latex=(
        r"\mathrm{pass}^k(n, c) = \begin{cases} \dfrac{\binom{c}{k}}{\binom{n}{k}} & c \ge k \\"
        r" 0 & c < k \end{cases}"
    ),
    symbols={"n": arg("n"), "c": arg("c"), "k": arg("k")},
    golden=[
        point(f"n={n},c={c},k={k}", n=n, c=c, k=k)
        for n, c in ((5, 5), (5, 4), (5, 3), (5, 1), (2, 2))
        for k in PASS_K_LEVELS
    ],
)
def pass_hat_k(n: int, c: int, k: int) -> Fraction:
    """Probability that ``k`` outcomes drawn without replacement from ``n`` all passed.

    ``c`` of the ``n`` recorded outcomes passed. Exact: ``math.comb`` and ``Fraction``,
    so a large ``n`` never overflows. 0 when ``c < k`` (and so when ``n < k``).

    Returns a value in [0, 1]; 1 is best.

    >>> pass_hat_k(4, 3, 1), pass_hat_k(4, 3, 3), pass_hat_k(4, 3, 5)
    (Fraction(3, 4), Fraction(1, 4), Fraction(0, 1))
    """
    if k < 1:
        raise ScoringError("k must be at least 1")
    if n < 0 or not 0 <= c <= n:
        raise ScoringError("successes c must lie between 0 and the outcomes n")
    if c < k:
        return Fraction(0)
    return _binomial_ratio(n, c, k)


@functools.lru_cache(maxsize=4096)
def _binomial_ratio(n: int, c: int, k: int) -> Fraction:
    """``C(c, k) / C(n, k)``, remembered: agents share few distinct ``(n, c, k)``."""
    return Fraction(math.comb(c, k), math.comb(n, k))


@formula(
    "repeatability.min_outcomes",
    title="Outcomes a task needs at level k",
    latex=r"n_{\min}(k) = \max(n_{\min}, k)",
    symbols={r"n_{\min}": const("REPEATABILITY_MIN_OUTCOMES"), "k": arg("k")},
    golden=[point(f"k={k}", k=k) for k in sorted({*PASS_K_LEVELS, 2, 4, 8})],
)
def min_outcomes(k: int) -> int:
    """The recorded outcomes a task needs to enter pass^k at level ``k``: never fewer than
    ``REPEATABILITY_MIN_OUTCOMES``, and never fewer than ``k`` (a task run fewer than ``k``
    times says nothing of ``k`` passes in a row).

    Returns a value between the lowest and the highest counts it compares: a number of
    outcomes, not a score.

    >>> min_outcomes(1), min_outcomes(3), min_outcomes(5)
    (3, 3, 5)
    """
    if k < 1:
        raise ScoringError("k must be at least 1")
    return max(REPEATABILITY_MIN_OUTCOMES, k)


def qualifying_tasks(tasks: Iterable[tuple[int, int]], k: int) -> list[tuple[int, int]]:
    """The ``(n, c)`` tasks that enter pass^k at level ``k``: ``n ≥ min_outcomes(k)``.

    >>> qualifying_tasks([(4, 4), (5, 1), (2, 2)], 5)
    [(5, 1)]
    """
    needed = min_outcomes(k)
    return [(n, c) for n, c in tasks if n >= needed]


def missing_reason(k: int) -> str:
    """Why pass^k is ``null`` at level ``k``: no task has the outcomes it needs.

    >>> missing_reason(5)
    'no task has 5 recorded outcomes'
    """
    return f"no task has {min_outcomes(k)} recorded outcomes"


@formula(
    "repeatability.aggregate",
    title="Aggregate pass^k",
    latex=(
        r"\mathrm{pass}^k = \dfrac{1}{|T|} \sum_{t \in T} \mathrm{pass}^k(n_t, c_t),"
        r"\quad T = \{t : n_t \ge \max(n_{\min}, k)\}"
    ),
    symbols={
        "t": rows("tasks", "n", "c"),
        "n_t": column("n"),
        "c_t": column("c"),
        "k": arg("k"),
        r"n_{\min}": const("REPEATABILITY_MIN_OUTCOMES"),
        r"\mathrm{pass}^k": uses("repeatability.pass_hat_k", "n", "c", k=arg("k")),
    },
    golden=[
        *(point(f"k={k}", tasks=((5, 5), (5, 3), (4, 2), (2, 2)), k=k) for k in PASS_K_LEVELS),
        point("none", tasks=((REPEATABILITY_MIN_OUTCOMES - 1, 0),), k=PASS_K_LEVELS[0]),
        point("none at k", tasks=((4, 4), (4, 3)), k=5),
    ],
)
def aggregate_pass_hat_k(tasks: Iterable[tuple[int, int]], k: int) -> Fraction | None:
    """Unweighted mean of pass^k over the tasks run often enough to measure it.

    ``tasks`` holds ``(n, c)`` per task; a task with fewer than
    ``max(REPEATABILITY_MIN_OUTCOMES, k)`` outcomes is left out (:func:`min_outcomes`);
    ``None`` if none remain: a level no task was run often enough to measure has no value,
    not 0.

    Returns a value in [0, 1] or ``None``; 1 is best.

    >>> aggregate_pass_hat_k([(4, 4), (4, 0), (2, 2)], 1)
    Fraction(1, 2)
    >>> aggregate_pass_hat_k([(4, 4), (4, 0)], 5) is None
    True
    """
    values = [pass_hat_k(n, c, k) for n, c in qualifying_tasks(tasks, k)]
    if not values:
        return None
    return exact_sum(values) / len(values)


@dataclass(frozen=True, slots=True)
class RepeatabilityResult:
    """pass^k per level (exact), the qualifying tasks of each level, and why a level has
    no value.

    ``tasks`` counts the tasks with at least ``REPEATABILITY_MIN_OUTCOMES`` outcomes (those
    of every level up to it); ``tasks_by_level`` each level's own; ``reasons`` holds a
    level only when its pass^k is ``None``.
    """

    pass_hat: dict[int, Fraction | None]
    tasks: int
    tasks_by_level: dict[int, int] = field(default_factory=dict)
    reasons: dict[int, str] = field(default_factory=dict)


def levels_of(extra: Iterable[int] = ()) -> tuple[int, ...]:
    """The published levels with any ``extra`` ones, in increasing order, each once.

    >>> levels_of((4, 2, 3))
    (1, 2, 3, 4, 5)
    """
    for k in extra:
        if k < 1:
            raise ScoringError(f"a pass^k level must be at least 1 (got {k})")
    return tuple(sorted({*PASS_K_LEVELS, *extra}))


def score_repeatability(
    tasks: Sequence[tuple[int, int]], levels: Sequence[int] = PASS_K_LEVELS
) -> RepeatabilityResult:
    """pass^k at every level over ``(n, c)`` per task.

    >>> score_repeatability([(4, 2), (5, 5)], (1,)).pass_hat
    {1: Fraction(3, 4)}
    >>> score_repeatability([(4, 2), (4, 4)], (1, 5)).reasons
    {5: 'no task has 5 recorded outcomes'}
    """
    values = {k: aggregate_pass_hat_k(tasks, k) for k in levels}
    return RepeatabilityResult(
        values,
        sum(1 for n, _ in tasks if n >= REPEATABILITY_MIN_OUTCOMES),
        {k: len(qualifying_tasks(tasks, k)) for k in levels},
        {k: missing_reason(k) for k, value in values.items() if value is None},
    )
