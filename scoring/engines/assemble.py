"""The rows of ``statistics.sql`` as :class:`~scoring.report.stats.AgentStats`, exactly.

Each row is one (agent, task) with the agent's own columns repeated (a row without a task
for an agent that has none). Every number arrives exact: counts as integers, sums as
integers of 10⁻⁹ units (a ``Decimal`` from Spark's ``DECIMAL(38, 0)``), the values left
out of a sum and the middle values of each median as the engine's doubles (bit for bit the
reader's floats), read as written by :func:`scoring.numeric.as_written` here, as the
Python reader reads them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from scoring.engines.sql import UNITS_PER_ONE
from scoring.numeric import as_written
from scoring.report.stats import (
    EMPTY_WINDOW,
    AgentStats,
    CohortTask,
    Middle,
    OutcomeTask,
    RadarWindow,
    WindowTask,
)


class StatisticsRow(NamedTuple):
    """One row of ``statistics.sql``, its columns in the order the query selects them."""

    agent_id: str
    first_order: int
    window_runs: int | None
    latency_count: int | None
    latency_low: float | None
    latency_high: float | None
    cost_count: int | None
    cost_low: float | None
    cost_high: float | None
    steps_count: int | None
    steps_low: int | None
    steps_high: int | None
    task_id: str | None
    cohort_runs: int | None
    cohort_successes: int | None
    latency_units_sum: int | None
    latency_ms_rest: Sequence[float] | None
    cost_units_sum: int | None
    cost_usd_rest: Sequence[float] | None
    latency_unrecorded: int | None
    cost_unrecorded: int | None
    outcome_n: int | None
    outcome_c: int | None
    window_known: int | None
    window_passes: int | None


def _exact_sum(units: int | None, rest: Sequence[float] | None) -> Fraction:
    """The sum of the values in 10⁻⁹ units plus those that are not, each as written."""
    total = Fraction(0) if units is None else Fraction(int(units), UNITS_PER_ONE)
    for value in rest or ():
        total += as_written(value)
    return total


def _middle(count: int | None, low: float | None, high: float | None) -> Middle | None:
    if not count or low is None or high is None:
        return None
    return Middle(count, as_written(low), as_written(high))


def _window(first: StatisticsRow, tasks: list[WindowTask]) -> RadarWindow:
    if not first.window_runs:
        return EMPTY_WINDOW
    return RadarWindow(
        first.window_runs,
        tuple(tasks),
        first.latency_count or 0,
        _middle(first.latency_count, first.latency_low, first.latency_high),
        _middle(first.cost_count, first.cost_low, first.cost_high),
        _middle(first.steps_count, first.steps_low, first.steps_high),
    )


def _agent(rows: list[StatisticsRow]) -> AgentStats:
    cohort: list[CohortTask] = []
    outcomes: list[OutcomeTask] = []
    window: list[WindowTask] = []
    # Python's order of task ids (by code point), whatever the engine's collation.
    for row in sorted((r for r in rows if r.task_id is not None), key=_task):
        task = _task(row)
        if row.cohort_runs:
            cohort.append(
                CohortTask(
                    task,
                    row.cohort_runs,
                    row.cohort_successes or 0,
                    _exact_sum(row.latency_units_sum, row.latency_ms_rest),
                    _exact_sum(row.cost_units_sum, row.cost_usd_rest),
                    int(row.latency_unrecorded or 0),
                    int(row.cost_unrecorded or 0),
                )
            )
        if row.outcome_n:
            outcomes.append(OutcomeTask(task, row.outcome_n, row.outcome_c or 0))
        if row.window_known:
            window.append(WindowTask(task, row.window_known, row.window_passes or 0))
    first = rows[0]
    return AgentStats(first.agent_id, tuple(cohort), tuple(outcomes), _window(first, window))


def _task(row: StatisticsRow) -> str:
    return row.task_id or ""


def agent_stats(rows: Iterable[Sequence[Any]]) -> list[AgentStats]:
    """Every agent's stats from the rows of ``statistics.sql`` (in any order), in order of
    each agent's first run, as the Python reader lists them."""
    by_agent: dict[str, list[StatisticsRow]] = {}
    for values in rows:
        row = StatisticsRow(*values)
        by_agent.setdefault(row.agent_id, []).append(row)
    ordered = sorted(by_agent.values(), key=lambda mine: mine[0].first_order)
    return [_agent(mine) for mine in ordered]
