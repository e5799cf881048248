"""One scorer: every score of an agent from its :class:`~scoring.report.stats.AgentStats`.

:func:`score` calls the registered formulas (the functions the site typesets) and only
them, each looked up in its module when it is called: there is no second implementation of
any formula, in any number system, so changing a formula changes every report.
:func:`ranked` orders the scored agents and ranks them with the registered rank formulas.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from types import MappingProxyType

from scoring.comparisons import ranks as ranks_module
from scoring.constants import PASS_K_LEVELS, SCORE_DECIMALS, Axis
from scoring.formulas import composite, radar, repeatability
from scoring.formulas.composite import CompositeResult
from scoring.formulas.radar import RadarResult
from scoring.formulas.repeatability import RepeatabilityResult
from scoring.intervals import moves, rates
from scoring.intervals.clustered import CohortTask
from scoring.intervals.surd import Interval, interval_reason
from scoring.numeric import Number, exact_sum, round_half_up
from scoring.report.stats import AgentStats, Middle


@dataclass(frozen=True, slots=True)
class AgentIntervals:
    """Every interval of one agent, and why each missing one is missing.

    ``composite_reason`` is shared by the composite and its success rate (one cohort);
    ``pass_hat_reasons`` holds each pass^k level's (its own qualifying tasks).
    """

    composite: Interval | None
    success_rate: Interval | None
    composite_reason: str | None
    correctness: Interval | None
    correctness_reason: str | None
    pass_hat: Mapping[int, Interval | None]
    pass_hat_reasons: Mapping[int, str | None]


def score_intervals(
    cohort: Sequence[CohortTask],
    window: Sequence[tuple[int, int]],
    outcomes: Sequence[tuple[int, int]],
    levels: Sequence[int] = PASS_K_LEVELS,
    *,
    composite_scored: bool = True,
) -> AgentIntervals:
    """The intervals of one agent from its per-task sums, by the registered interval
    formulas of :mod:`scoring.intervals.rates` and :mod:`scoring.intervals.moves`.

    ``cohort``: :data:`~scoring.intervals.clustered.CohortTask` per task of the completed runs;
    ``window``: ``(passes, known outcomes)`` per task with a known outcome in the radar
    window; ``outcomes``: ``(n, c)`` per task of the recorded outcomes. Without a composite
    (``composite_scored`` false: a latency or cost unrecorded) it has no interval either;
    the success rate keeps its own.

    >>> score_intervals([], [], []).pass_hat_reasons[5]
    'fewer than 10 qualifying tasks (0)'
    """
    return AgentIntervals(
        composite=moves.composite_interval(cohort) if composite_scored else None,
        success_rate=rates.success_rate_interval([(t[0], t[1]) for t in cohort]),
        composite_reason=interval_reason(len(cohort)),
        correctness=rates.correctness_interval(window),
        correctness_reason=interval_reason(len(window)),
        pass_hat=MappingProxyType({k: rates.pass_hat_k_interval(outcomes, k) for k in levels}),
        pass_hat_reasons=MappingProxyType(
            {
                k: interval_reason(
                    len(repeatability.qualifying_tasks(outcomes, k)), "qualifying tasks"
                )
                for k in levels
            }
        ),
    )


#: The intervals of an agent scored without them (no cohort, no window, no outcomes).
NO_INTERVALS = score_intervals([], [], [])


@dataclass(frozen=True, slots=True)
class AgentReport:
    """Every score of one agent, as exact values; its intervals and ranks (1.1.0).

    ``rank`` is the competition rank by published composite, ``rank_upper_bound`` 1 + the
    agents whose composite interval lies entirely above this one's; both ``None`` without
    a composite (and the bound without an interval).
    """

    agent_id: str
    composite: CompositeResult
    radar: RadarResult
    repeatability: RepeatabilityResult
    intervals: AgentIntervals = NO_INTERVALS
    rank: int | None = None
    rank_upper_bound: int | None = None


def _median(values: Middle | None) -> Fraction | None:
    return None if values is None else values.median


def score(
    stats: AgentStats,
    weights: Mapping[Axis, Number] | None = None,
    levels: Sequence[int] = PASS_K_LEVELS,
) -> AgentReport:
    """The composite, radar, repeatability and intervals of one agent (not yet ranked).

    ``weights`` are the radar profile's (``None``: its defaults); ``levels`` the pass^k
    levels reported (the published ones, and any asked for: they change no score).

    >>> from scoring.report.stats import EMPTY_WINDOW
    >>> score(AgentStats("a", (), (), EMPTY_WINDOW)).composite.score is None
    True
    """
    cohort = stats.cohort
    completed = stats.completed_runs
    if completed:
        # One exact division per mean, of sums that are exact as written; no mean where a
        # completed run left the value unrecorded (docs/composite.md).
        latency_unrecorded = sum(task.latency_unrecorded for task in cohort)
        cost_unrecorded = sum(task.cost_unrecorded for task in cohort)
        mean_latency = (
            None
            if latency_unrecorded
            else exact_sum(task.latency_ms_sum for task in cohort) / completed
        )
        mean_cost = (
            None if cost_unrecorded else exact_sum(task.cost_usd_sum for task in cohort) / completed
        )
        scored = composite.score_composite(
            completed,
            stats.successes,
            mean_latency,
            mean_cost,
            latency_unrecorded=latency_unrecorded,
            cost_unrecorded=cost_unrecorded,
        )
    else:
        scored = composite.score_composite(0, 0, 0, 0)
    window = stats.window
    median_latency = _median(window.latency_ms)
    tallies = [(task.passes, task.known) for task in window.tasks]
    axes: dict[Axis, Fraction | None] = {
        Axis.CORRECTNESS: radar.correctness_axis(window.passes, window.known_outcomes),
        Axis.LATENCY: radar.latency_axis(median_latency, window.latency_runs),
        Axis.COST: radar.cost_axis(_median(window.cost_usd)),
        Axis.TOOL_EFFICIENCY: radar.tool_efficiency_axis(_median(window.steps)),
        Axis.ROBUSTNESS: radar.robustness_axis(tallies),
    }
    radar_result = RadarResult(axes, radar.profile(axes, weights), window.runs, median_latency)
    outcomes = [(task.n, task.c) for task in stats.outcomes]
    intervals = score_intervals(
        [task[1:5] for task in cohort],  # (runs, successes, latency sum, cost sum)
        tallies,
        outcomes,
        levels,
        composite_scored=scored.score is not None,
    )
    return AgentReport(
        stats.agent_id,
        scored,
        radar_result,
        repeatability.score_repeatability(outcomes, levels),
        intervals,
    )


def ranking(
    scores: Sequence[float | None],
    agent_ids: Sequence[str],
    intervals: Sequence[Interval | None],
) -> tuple[list[int], list[int | None], list[int | None]]:
    """The report's order of its agents and their ranks: ``(order, ranks, bounds)``, the
    positions by published composite (``scores``, highest first, ``null`` last, then by
    agent id), and in that order each one's competition rank and rank upper bound (from the
    exact composite ``intervals``).

    >>> ranking([70.0, None, 80.0, 70.0], ["b", "c", "a", "a2"], [None] * 4)[:2]
    ([2, 3, 0, 1], [1, 2, 2, None])
    """
    keys = [
        (True, 0.0, agent_id) if score is None else (False, -score, agent_id)
        for score, agent_id in zip(scores, agent_ids, strict=True)
    ]
    order = sorted(range(len(keys)), key=keys.__getitem__)
    ranks = ranks_module.competition_ranks([scores[i] for i in order])
    return order, ranks, ranks_module.rank_upper_bounds([intervals[i] for i in order])


def ranked(agents: Sequence[AgentReport]) -> tuple[AgentReport, ...]:
    """The agents in the report's order, with their ranks (:func:`ranking`)."""
    scores = [
        None if a.composite.score is None else round_half_up(a.composite.score, SCORE_DECIMALS)
        for a in agents
    ]
    order, ranks, bounds = ranking(
        scores, [a.agent_id for a in agents], [a.intervals.composite for a in agents]
    )
    return tuple(
        AgentReport(a.agent_id, a.composite, a.radar, a.repeatability, a.intervals, rank, bound)
        for a, rank, bound in zip((agents[i] for i in order), ranks, bounds, strict=True)
    )
