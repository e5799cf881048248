"""``scoring compare``: whether one agent of a run log is really ahead of another.

The library part of the command (nothing here prints): the agents' stats from the one validating
reader (:func:`scoring.report.read.read_stats`), their composite cohorts as
:data:`~scoring.intervals.variance.CohortTask` per task id, and the paired comparisons of
:mod:`scoring.comparisons.paired` (methodology 1.2.0, docs/uncertainty.md, "Is one agent really
ahead of another?") of the composite and of the success rate on the tasks both agents have. ``A``
and ``B`` are each agent's score *on those shared tasks* (the registered composite formula,
:func:`scoring.formulas.composite.score_composite`), so that ``d = A − B`` holds as printed up to
rounding; each agent's own report may differ where it has tasks the other lacks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from scoring.comparisons.paired import (
    Comparison,
    Verdict,
    compare_composites,
    compare_success_rates,
)
from scoring.constants import (
    FRACTION_DECIMALS,
    INTERVAL_LEVEL,
    METHODOLOGY_VERSION,
    SCORE_DECIMALS,
)
from scoring.errors import InputError, Problem, shown, visible
from scoring.formulas.composite import CompositeResult, score_composite, unrecorded_reason
from scoring.intervals.surd import Interval
from scoring.intervals.variance import CohortTask
from scoring.numeric import decimal_half_up, exact, exact_sum, round_half_up
from scoring.report.stats import AgentStats
from scoring.report.write import NO_INTERVAL, render_table

#: The level of the intervals, as the table's header says it: ``95%``.
LEVEL_TEXT = f"{(INTERVAL_LEVEL * 100).normalize():f}%"

#: Agent ids an unknown-agent message names before it only counts the rest (a message
#: names the problem; it does not copy a log of thousands of agents).
AGENTS_NAMED = 5

_NONE = "—"


def cohort_tasks(stats: AgentStats) -> dict[str, CohortTask]:
    """An agent's composite cohort as ``{task_id: (runs, successes, latency sum, cost sum)}``,
    the input of :func:`scoring.comparisons.paired.compare_composites`."""
    return {task.task_id: task[1:5] for task in stats.cohort}


def _unrecorded(stats: AgentStats, shared: Sequence[str]) -> list[str]:
    """Why an agent's composite on the shared tasks has no value: a completed run there left
    its latency or cost unrecorded (docs/composite.md)."""
    chosen = [task for task in stats.cohort if task.task_id in set(shared)]
    runs = sum(task.runs for task in chosen)
    counts = (
        ("latency", sum(task.latency_unrecorded for task in chosen)),
        ("cost", sum(task.cost_unrecorded for task in chosen)),
    )
    return [
        f"{shown(stats.agent_id)}: {unrecorded_reason(what, count, runs)}"
        for what, count in counts
        if count
    ]


@dataclass(frozen=True, slots=True)
class AgentComparison:
    """Agents A and B of one log compared on their shared tasks.

    ``tasks_a``/``tasks_b`` count each agent's cohort tasks, ``shared_tasks`` those both
    have; ``on_shared_a``/``on_shared_b`` are each agent's composite (and its inputs) on
    the shared tasks; ``composite`` and ``success_rate`` the paired comparisons, ``d =
    A − B``.
    """

    agent_a: str
    agent_b: str
    tasks_a: int
    tasks_b: int
    shared_tasks: int
    on_shared_a: CompositeResult
    on_shared_b: CompositeResult
    composite: Comparison
    success_rate: Comparison


def _on_shared(stats: AgentStats, shared: Sequence[str]) -> CompositeResult:
    """The registered composite of an agent restricted to the shared tasks."""
    wanted = set(shared)
    chosen = [task for task in stats.cohort if task.task_id in wanted]
    runs = sum(task.runs for task in chosen)
    if not runs:
        return score_composite(0, 0, 0, 0)
    successes = sum(task.successes for task in chosen)
    latency_unrecorded = sum(task.latency_unrecorded for task in chosen)
    cost_unrecorded = sum(task.cost_unrecorded for task in chosen)
    latency = exact_sum(exact(task.latency_ms_sum) for task in chosen)
    cost = exact_sum(exact(task.cost_usd_sum) for task in chosen)
    return score_composite(
        runs,
        successes,
        None if latency_unrecorded else latency / runs,
        None if cost_unrecorded else cost / runs,
        latency_unrecorded=latency_unrecorded,
        cost_unrecorded=cost_unrecorded,
    )


def compare_agents(a: AgentStats, b: AgentStats) -> AgentComparison:
    """The paired comparisons of two agents' composites and success rates (``a`` may be
    ``b``: then ``d = 0``, within the noise)."""
    tasks_a, tasks_b = cohort_tasks(a), cohort_tasks(b)
    shared = sorted(tasks_a.keys() & tasks_b.keys())
    unrecorded = _unrecorded(a, shared) + ([] if b is a else _unrecorded(b, shared))
    composite = (
        Comparison(len(shared), None, None, None, "; ".join(unrecorded), None, None)
        if unrecorded
        else compare_composites(tasks_a, tasks_b)
    )
    return AgentComparison(
        agent_a=a.agent_id,
        agent_b=b.agent_id,
        tasks_a=len(tasks_a),
        tasks_b=len(tasks_b),
        shared_tasks=len(shared),
        on_shared_a=_on_shared(a, shared),
        on_shared_b=_on_shared(b, shared),
        composite=composite,
        success_rate=compare_success_rates(tasks_a, tasks_b),
    )


def _agents_text(stats: Sequence[AgentStats]) -> str:
    count = len(stats)
    if not count:
        return "it has no agents"
    names = ", ".join(shown(agent.agent_id) for agent in stats[:AGENTS_NAMED])
    more = f" and {count - AGENTS_NAMED} more" if count > AGENTS_NAMED else ""
    return f"it has {count} agent{'' if count == 1 else 's'}: {names}{more}"


def find_agent(stats: Sequence[AgentStats], agent_id: str, argument: str) -> AgentStats:
    """The agent ``agent_id`` of a log's stats; an :class:`InputError` naming the argument,
    the agent and how many agents the log has when it is not there."""
    for agent in stats:
        if agent.agent_id == agent_id:
            return agent
    rule = f"no agent {shown(agent_id)} in the log ({_agents_text(stats)})"
    raise InputError([Problem(None, argument, rule)])


def compare_in(stats: Sequence[AgentStats], agent_a: str, agent_b: str) -> AgentComparison:
    """Agents ``agent_a`` and ``agent_b`` of a log (its :func:`~scoring.report.read.read_stats`)
    compared; an unknown agent is an :class:`InputError` (both named if both are)."""
    problems: list[Problem] = []
    found: list[AgentStats] = []
    for agent_id, argument in ((agent_a, "AGENT_A"), (agent_b, "AGENT_B")):
        try:
            found.append(find_agent(stats, agent_id, argument))
        except InputError as error:
            problems += error.problems
    if problems:
        raise InputError(problems)
    return compare_agents(*found)


# --- Output -------------------------------------------------------------------------------


def _rounded(value: Fraction | None, places: int) -> float | None:
    return None if value is None else round_half_up(value, places)


def _bounds(interval: Interval | None) -> dict[str, float] | None:
    return None if interval is None else {"low": float(interval.low), "high": float(interval.high)}


def ahead(comparison: AgentComparison, verdict: Verdict | None) -> str | None:
    """The id of the agent the verdict puts ahead; ``None`` within the noise or without one."""
    if verdict is Verdict.A_AHEAD:
        return comparison.agent_a
    if verdict is Verdict.B_AHEAD:
        return comparison.agent_b
    return None


def _comparison_json(
    whole: AgentComparison, c: Comparison, a: Fraction | None, b: Fraction | None, places: int
) -> dict[str, Any]:
    return {
        "a": _rounded(a, places),
        "b": _rounded(b, places),
        "difference": _rounded(c.difference, places),
        "interval": _bounds(c.interval),
        "verdict": None if c.verdict is None else str(c.verdict),
        "ahead": ahead(whole, c.verdict),
        "reason": c.reason,
        "standard_error": c.standard_error,
        "unpaired_standard_error": c.unpaired_standard_error,
    }


def comparison_to_json(c: AgentComparison) -> dict[str, Any]:
    """The ``compare --format json`` document: the agents' ids, their task counts, and per
    score (``composite``, ``success_rate``) A and B on the shared tasks, ``difference``
    ``d = A − B``, its ``interval``, the ``verdict`` ("A ahead", "B ahead", "within the
    noise"), the id of the agent ``ahead`` and the paired and unpaired standard errors
    (unrounded); ``null`` with a ``reason`` where there is no comparison. ``interval_level``
    is the level of every interval (``INTERVAL_LEVEL``)."""
    a, b = c.on_shared_a, c.on_shared_b
    return {
        "methodology_version": METHODOLOGY_VERSION,
        "agent_a": c.agent_a,
        "agent_b": c.agent_b,
        "tasks_a": c.tasks_a,
        "tasks_b": c.tasks_b,
        "shared_tasks": c.shared_tasks,
        "interval_level": float(INTERVAL_LEVEL),
        "composite": _comparison_json(c, c.composite, a.score, b.score, SCORE_DECIMALS),
        "success_rate": _comparison_json(
            c, c.success_rate, a.success_rate, b.success_rate, FRACTION_DECIMALS
        ),
    }


def signed_text(value: Fraction | Decimal, places: int) -> str:
    """``value`` at ``places`` decimals with its sign (``+1.50``, ``-0.25``, ``0.00``).

    >>> signed_text(Fraction(3, 2), 2), signed_text(Fraction(-1, 4), 2)
    ('+1.50', '-0.25')
    >>> signed_text(Fraction(-1, 1000), 2)
    '0.00'
    """
    rounded = decimal_half_up(Fraction(value), places)
    if not rounded:
        return f"{abs(rounded):.{places}f}"
    return f"{rounded:+.{places}f}"


def interval_text(interval: Interval, places: int) -> str:
    """``[low, high]`` at ``places`` decimals."""
    return f"[{interval.low:.{places}f}, {interval.high:.{places}f}]"


def verdict_text(comparison: AgentComparison, verdict: Verdict | None) -> str:
    """The verdict with the agents' ids: ``agent-x ahead``, ``within the noise``, ``—``."""
    if verdict is None:
        return _NONE
    leader = ahead(comparison, verdict)
    return str(verdict) if leader is None else f"{leader} ahead"


def _row(
    whole: AgentComparison,
    name: str,
    c: Comparison,
    a: Fraction | None,
    b: Fraction | None,
    places: int,
) -> list[str]:
    return [
        name,
        _NONE if a is None else f"{decimal_half_up(a, places):.{places}f}",
        _NONE if b is None else f"{decimal_half_up(b, places):.{places}f}",
        _NONE if c.difference is None else signed_text(c.difference, places),
        _NONE if c.interval is None else interval_text(c.interval, places),
        verdict_text(whole, c.verdict),
    ]


COMPARE_TITLE = "Paired comparison on the shared tasks (composite 0-100; success rate 0-1)"


def comparison_to_table(c: AgentComparison, width: int | None = None) -> str:
    """The ``compare`` table for a terminal: one row per score, then why a row has no
    comparison; wider than ``width`` characters, in blocks of columns, each led by the
    score column (:func:`scoring.report.write.render_table`)."""
    a, b = c.on_shared_a, c.on_shared_b
    table = render_table(
        ["score", "A", "B", "d = A - B", f"{LEVEL_TEXT} interval", "verdict"],
        [
            _row(c, "composite", c.composite, a.score, b.score, SCORE_DECIMALS),
            _row(c, "success", c.success_rate, a.success_rate, b.success_rate, FRACTION_DECIMALS),
        ],
        width,
    )
    notes = [
        f"  {what}: {reason}"
        for what, reason in (
            ("composite", c.composite.reason),
            ("success", c.success_rate.reason),
        )
        if reason is not None
    ]
    return "\n".join(
        [
            f"methodology {METHODOLOGY_VERSION}",
            f"A: {visible(c.agent_a)} ({c.tasks_a} tasks)",
            f"B: {visible(c.agent_b)} ({c.tasks_b} tasks)",
            f"shared tasks: {c.shared_tasks}",
            "",
            COMPARE_TITLE,
            table,
            *([NO_INTERVAL, *notes] if notes else []),
        ]
    )
