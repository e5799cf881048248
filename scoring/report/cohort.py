"""Per-task sums of an agent's composite cohort (its completed runs).

The composite needs the means of ``latency_ms`` and ``cost_usd`` over the completed runs,
and its interval (methodology 1.1.0) the same per task, with each task's runs and successes
(see :func:`scoring.intervals.variance.composite_interval`). So the report keeps them per task
only: memory grows with tasks, never with runs, and the agent's totals are their sums. The
reader (:class:`scoring.report.stats.LogRuns`) feeds the columns of each chunk's completed
runs, keyed by ``(agent_id, task_id)``: every agent's at once.

Exact and cheap: counts go through ``Counter.update`` (in C); a value is added as an integer
number of 10^-9 units when it is one exactly as written (see ``_fixed_point``), the few
others (above 2^22, or with more decimals) as the fraction of their shortest ``repr``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Sequence
from fractions import Fraction
from itertools import compress, repeat
from operator import eq, is_, mul, truediv
from typing import Generic, TypeVar

# Fixed point for the exact sums, so that most values need no decimal conversion: a float
# x <= 2^22 and an integer n with n / 10^9 == x (Python divides integers correctly rounded)
# give x as written = n·10^-9 exactly. Below 2^22 the reals that round to x span less than
# 10^-9, so n·10^-9 is the only multiple of 10^-9 among them, and the shortest decimal
# that rounds to x (``repr``) has no more decimals than it, so it is that multiple.
FIXED_DIGITS = 9
FIXED_SCALE = 10**FIXED_DIGITS
_FIXED_LIMIT = float(2**22)


def _fixed_point(values: Sequence[float]) -> tuple[list[int], list[int]]:
    """Each value in 10^-9 units (0 where it is not one exactly), and the positions of the
    values that are not.

    >>> _fixed_point([0.25, 1e-10, 5e6])
    ([250000000, 0, 0], [1, 2])
    """
    # Clamped (so that a large value fails the check below) only when one is that large.
    clamped = (
        values
        if max(values, default=0.0) <= _FIXED_LIMIT
        else list(map(min, values, repeat(_FIXED_LIMIT)))
    )
    # float.__round__, not round: the products are floats, and the direct call is cheaper.
    scaled = list(map(float.__round__, map(mul, clamped, repeat(float(FIXED_SCALE)))))
    fits = list(map(eq, map(truediv, scaled, repeat(FIXED_SCALE)), values))
    if all(fits):
        return scaled, []
    others = [i for i, fit in enumerate(fits) if not fit]
    for i in others:
        scaled[i] = 0
    return scaled, others


#: What the sums are kept by: a task, or an agent and a task.
Key = TypeVar("Key", bound=Hashable)


class CohortSums(Generic[Key]):
    """Per task (any key): completed runs, successes, and the exact sums of latency_ms and
    cost_usd.

    >>> sums = CohortSums()
    >>> sums.add(["a", "b", "a"], [True, None, False], [1000.0, 250.5, 3000.0], [0.01, 0.2, 1e-10])
    >>> a, b = sums.tasks()
    >>> a == ("a", 2, 1, 4000, Fraction("0.0100000001"), 0, 0)
    True
    >>> b == ("b", 1, 0, Fraction("250.5"), Fraction("0.2"), 0, 0)
    True
    >>> sums.add(["b"], [True], [None], [0.5])
    >>> sums.tasks()[1][1:]
    (2, 1, Fraction(501, 2), Fraction(7, 10), 1, 0)
    """

    __slots__ = (
        "_cost_unrecorded",
        "_costs",
        "_latencies",
        "_latency_unrecorded",
        "_rest",
        "_runs",
        "_successes",
    )

    def __init__(self) -> None:
        self._runs: Counter[Key] = Counter()
        self._successes: Counter[Key] = Counter()
        # task -> sum in 10^-9 units of the values that are whole units
        self._latencies: dict[Key, int] = {}
        self._costs: dict[Key, int] = {}
        # task -> [latency, cost]: exact sums of the other values
        self._rest: dict[Key, list[Fraction]] = {}
        # task -> completed runs whose latency_ms, cost_usd is null (unrecorded)
        self._latency_unrecorded: Counter[Key] = Counter()
        self._cost_unrecorded: Counter[Key] = Counter()

    def add(
        self,
        tasks: Sequence[Key],
        successes: Sequence[bool | None],
        latencies: Sequence[float | None],
        costs: Sequence[float | None],
    ) -> None:
        """Account for completed runs given as columns (``success`` null counts as not; a
        null latency or cost is counted as unrecorded and adds nothing to its sum)."""
        self._runs.update(tasks)
        self._successes.update(compress(tasks, successes))
        latencies = self._recorded(tasks, latencies, self._latency_unrecorded)
        costs = self._recorded(tasks, costs, self._cost_unrecorded)
        latency_units, latency_others = _fixed_point(latencies)
        cost_units, cost_others = _fixed_point(costs)
        sum_latency, sum_cost = self._latencies, self._costs
        get_latency, get_cost = sum_latency.get, sum_cost.get
        for task, latency, cost in zip(tasks, latency_units, cost_units, strict=True):
            sum_latency[task] = get_latency(task, 0) + latency
            sum_cost[task] = get_cost(task, 0) + cost
        for column, positions, values in (
            (0, latency_others, latencies),
            (1, cost_others, costs),
        ):
            for i in positions:
                rest = self._rest.setdefault(tasks[i], [Fraction(0), Fraction(0)])
                rest[column] += Fraction(repr(values[i]))

    @staticmethod
    def _recorded(
        tasks: Sequence[Key], values: Sequence[float | None], unrecorded: Counter[Key]
    ) -> Sequence[float]:
        """``values`` with each null counted in ``unrecorded`` (by task) and read as 0 in
        the sum: the mean divides by the recorded runs only when every run has one."""
        if None not in values:
            return values  # type: ignore[return-value]  # no None, checked just above
        unrecorded.update(compress(tasks, map(is_, values, repeat(None))))
        return [0.0 if v is None else v for v in values]

    def tasks(self) -> list[tuple[Key, int, int, Fraction, Fraction, int, int]]:
        """``(task, runs, successes, latency sum, cost sum, latencies unrecorded, costs
        unrecorded)`` per task, in order of first run."""
        found: list[tuple[Key, int, int, Fraction, Fraction, int, int]] = []
        for task, runs in self._runs.items():
            # Built directly (units over the scale): multiplying by a Fraction unit costs
            # an operator dispatch and a gcd more.
            latency = Fraction(self._latencies[task], FIXED_SCALE)
            cost = Fraction(self._costs[task], FIXED_SCALE)
            rest = self._rest.get(task)
            if rest is not None:
                latency += rest[0]
                cost += rest[1]
            found.append(
                (
                    task,
                    runs,
                    self._successes[task],
                    latency,
                    cost,
                    self._latency_unrecorded[task],
                    self._cost_unrecorded[task],
                )
            )
        return found
