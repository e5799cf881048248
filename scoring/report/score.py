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
    _, correctness, correctness_reason = _window_scores(tuple(window))
    _, pass_hat, pass_hat_reasons = _outcome_scores(tuple(outcomes), tuple(levels))
    return _intervals(
        cohort, composite_scored, correctness, correctness_reason, pass_hat, pass_hat_reasons
    )


def _intervals(
    cohort: Sequence[CohortTask],
    composite_scored: bool,
    correctness: Interval | None,
    correctness_reason: str | None,
    pass_hat: Mapping[int, Interval | None],
    pass_hat_reasons: Mapping[int, str | None],
) -> AgentIntervals:
    """The intervals of the composite's cohort, with those of the window and the outcomes."""
    return AgentIntervals(
        composite=moves.composite_interval(cohort) if composite_scored else None,
        success_rate=rates.success_rate_interval([(t[0], t[1]) for t in cohort]),
        composite_reason=interval_reason(len(cohort)),
        correctness=correctness,
        correctness_reason=correctness_reason,
        pass_hat=pass_hat,
        pass_hat_reasons=pass_hat_reasons,
    )


#: What the outcomes give: repeatability, and each level's pass^k interval and why it has none.
OutcomeScores = tuple[RepeatabilityResult, Mapping[int, Interval | None], Mapping[int, str | None]]
#: What the window's tallies give: robustness, the correctness interval and why it has none.
WindowScores = tuple[Fraction | None, Interval | None, str | None]


def _outcome_scores(
    outcomes: tuple[tuple[int, int], ...], levels: tuple[int, ...]
) -> OutcomeScores:
    """Every score read from ``(n, c)`` per task alone, by the registered formulas."""
    return (
        repeatability.score_repeatability(outcomes, levels),
        MappingProxyType({k: rates.pass_hat_k_interval(outcomes, k) for k in levels}),
        MappingProxyType(
            {
                k: interval_reason(
                    len(repeatability.qualifying_tasks(outcomes, k)), "qualifying tasks"
                )
                for k in levels
            }
        ),
    )


def _window_scores(tallies: tuple[tuple[int, int], ...]) -> WindowScores:
    """Every score read from ``(passes, known)`` per window task alone (but the correctness
    axis, which reads their sums), by the registered formulas."""
    return (
        radar.robustness_axis(tallies),
        rates.correctness_interval(tallies),
        interval_reason(len(tallies)),
    )


# Tallies shared per report at most this many of each kind: the agents that share them are
# those of few tasks; an agent of many tasks rarely shares its tallies with another.
_SHARED_LIMIT = 4096


class Shared:
    """The scores of one report that depend on an agent's per-task tallies alone (its
    outcomes' ``(n, c)``, its window's ``(passes, known)``), worked out once for all the
    agents that have the same tallies: agents of one or a few tasks often do. They are the
    registered formulas' values, computed by them; only the repetition is saved.

    >>> shared = Shared((1, 3, 5))
    >>> shared.outcomes(((4, 4),)) is shared.outcomes(((4, 4),))
    True
    """

    __slots__ = ("_levels", "_outcomes", "_window")

    def __init__(self, levels: Sequence[int] = PASS_K_LEVELS) -> None:
        self._levels = tuple(levels)
        self._outcomes: dict[tuple[tuple[int, int], ...], OutcomeScores] = {}
        self._window: dict[tuple[tuple[int, int], ...], WindowScores] = {}

    def outcomes(self, outcomes: tuple[tuple[int, int], ...]) -> OutcomeScores:
        """:func:`_outcome_scores` of ``outcomes`` at the report's levels."""
        found = self._outcomes.get(outcomes)
        if found is None:
            found = _outcome_scores(outcomes, self._levels)
            if len(self._outcomes) < _SHARED_LIMIT:
                self._outcomes[outcomes] = found
        return found

    def window(self, tallies: tuple[tuple[int, int], ...]) -> WindowScores:
        """:func:`_window_scores` of ``tallies``."""
        found = self._window.get(tallies)
        if found is None:
            found = _window_scores(tallies)
            if len(self._window) < _SHARED_LIMIT:
                self._window[tallies] = found
        return found


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
    shared: Shared | None = None,
) -> AgentReport:
    """The composite, radar, repeatability and intervals of one agent (not yet ranked).

    ``weights`` are the radar profile's (``None``: its defaults); ``levels`` the pass^k
    levels reported (the published ones, and any asked for: they change no score);
    ``shared`` the report's scores shared by tallies (``None``: this agent's own, at
    ``levels``).

    >>> from scoring.report.stats import EMPTY_WINDOW
    >>> score(AgentStats("a", (), (), EMPTY_WINDOW)).composite.score is None
    True
    """
    if shared is None:
        shared = Shared(levels)
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
    tallies = tuple([(task.passes, task.known) for task in window.tasks])
    robustness, correctness, correctness_reason = shared.window(tallies)
    axes: dict[Axis, Fraction | None] = {
        Axis.CORRECTNESS: radar.correctness_axis(window.passes, window.known_outcomes),
        Axis.LATENCY: radar.latency_axis(median_latency, window.latency_runs),
        Axis.COST: radar.cost_axis(_median(window.cost_usd)),
        Axis.TOOL_EFFICIENCY: radar.tool_efficiency_axis(_median(window.steps)),
        Axis.ROBUSTNESS: robustness,
    }
    radar_result = RadarResult(axes, radar.profile(axes, weights), window.runs, median_latency)
    repeat, pass_hat, pass_hat_reasons = shared.outcomes(
        tuple([(task.n, task.c) for task in stats.outcomes])
    )
    intervals = _intervals(
        [task[1:5] for task in cohort],  # (runs, successes, latency sum, cost sum)
        scored.score is not None,
        correctness,
        correctness_reason,
        pass_hat,
        pass_hat_reasons,
    )
    return AgentReport(stats.agent_id, scored, radar_result, repeat, intervals)


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
