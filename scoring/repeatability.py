"""Repeatability: pass^k, the chance that k attempts drawn from the recorded ones all passed."""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
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
    "repeatability.aggregate",
    title="Aggregate pass^k",
    latex=(
        r"\mathrm{pass}^k = \dfrac{1}{|T|} \sum_{t \in T} \mathrm{pass}^k(n_t, c_t),"
        r"\quad T = \{t : n_t \ge n_{\min}\}"
    ),
    symbols={
        "t": rows("tasks", "n", "c"),
        "n_t": column("n"),
        "c_t": column("c"),
        r"n_{\min}": const("REPEATABILITY_MIN_OUTCOMES"),
        r"\mathrm{pass}^k": uses("repeatability.pass_hat_k", "n", "c", k=arg("k")),
    },
    golden=[
        *(point(f"k={k}", tasks=((5, 5), (5, 3), (4, 2), (2, 2)), k=k) for k in PASS_K_LEVELS),
        point("none", tasks=((REPEATABILITY_MIN_OUTCOMES - 1, 0),), k=PASS_K_LEVELS[0]),
    ],
)
def aggregate_pass_hat_k(tasks: Iterable[tuple[int, int]], k: int) -> Fraction | None:
    """Unweighted mean of pass^k over tasks with enough recorded outcomes.

    ``tasks`` holds ``(n, c)`` per task; tasks with fewer than
    ``REPEATABILITY_MIN_OUTCOMES`` outcomes are left out; ``None`` if none remain.

    Returns a value in [0, 1] or ``None``; 1 is best.

    >>> aggregate_pass_hat_k([(4, 4), (4, 0), (2, 2)], 1)
    Fraction(1, 2)
    """
    values = [pass_hat_k(n, c, k) for n, c in tasks if n >= REPEATABILITY_MIN_OUTCOMES]
    if not values:
        return None
    return exact_sum(values) / len(values)


@dataclass(frozen=True, slots=True)
class RepeatabilityResult:
    """pass^k per published level (exact) and the number of qualifying tasks."""

    pass_hat: dict[int, Fraction | None]
    tasks: int


def score_repeatability(
    tasks: Sequence[tuple[int, int]], levels: Sequence[int] = PASS_K_LEVELS
) -> RepeatabilityResult:
    """pass^k at every level over ``(n, c)`` per task.

    >>> score_repeatability([(4, 2), (5, 5)], (1,)).pass_hat
    {1: Fraction(3, 4)}
    """
    qualifying = sum(1 for n, _ in tasks if n >= REPEATABILITY_MIN_OUTCOMES)
    return RepeatabilityResult({k: aggregate_pass_hat_k(tasks, k) for k in levels}, qualifying)
