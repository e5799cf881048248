"""The agent report: composite, radar and repeatability from one pass over a run log.

Memory grows with agents × tasks, not with runs: per agent the report keeps counts, per
task of the completed runs their counts and exact sums of latency and cost
(:mod:`scoring.report_cohort`; the composite's means and its interval read them), a bounded
list of window candidates (trimmed to the latest ``RADAR_WINDOW_RUNS`` terminal runs) and a
count per (task, outcome). The one per-run cost is the duplicate ``run_id`` check: an
8-byte BLAKE2b fingerprint per run.

Speed (a million runs take about twice as long as ``json.loads`` alone, see
``benchmarks/bench_report.py``): lines are read in chunks and each chunk is validated in C,
straight into tuples; the status rules, grouping, counting and sums are done per chunk,
and the garbage collector is paused. A repeated key is ruled out by counting the
quotes of the chunk in C. A chunk with a bad (or blank) line, or a
repeated key, is read again line by line with :class:`RunRecord` and
:func:`scoring.jsonlines.validate_line`, which name every problem. Every path gives the
same result, which ``tests/scoring/test_report.py`` checks against a plain computation;
``tests/scoring/test_faults.py`` checks that both paths accept and refuse the same lines.

The reading of a chunk (validation, the repeated-key and duplicate ``run_id`` checks, the
line-by-line fallback) is :mod:`scoring.report_input`; this module accounts for the rows
per agent and scores them.
"""

from __future__ import annotations

import gc
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from itertools import compress, islice, repeat
from operator import sub

from scoring.byte_input import RecordKind, record_lines
from scoring.composite import CompositeResult, score_composite
from scoring.constants import (
    METHODOLOGY_VERSION,
    RADAR_WINDOW_RUNS,
    SCORE_DECIMALS,
    Axis,
)
from scoring.errors import ProblemLog
from scoring.models import RunRecord, instant_key
from scoring.numeric import Number, as_written, round_half_up
from scoring.radar import (
    RadarResult,
    correctness_axis,
    cost_axis,
    latency_axis,
    profile,
    robustness_axis,
    tool_efficiency_axis,
)
from scoring.repeatability import RepeatabilityResult, score_repeatability
from scoring.report_cohort import CohortSums
from scoring.report_input import (
    _COMPLETED,
    _FAILED,
    _ROW,
    _ROW_RUN_ID,
    _TIMEOUT,
    _duplicate,
    _one_by_one,
    _Row,
    _rows,
    _SeenIds,
    _status_rules_hold,
)
from scoring.report_input import CALENDAR_PATTERN as CALENDAR_PATTERN  # tests read it here
from scoring.uncertainty import (
    NO_INTERVALS,
    AgentIntervals,
    competition_ranks,
    rank_upper_bounds,
    score_intervals,
)

# Window candidates kept per agent before they are trimmed to the latest RADAR_WINDOW_RUNS.
_WINDOW_TRIM = 4 * RADAR_WINDOW_RUNS
# Input lines validated and accounted for together. Larger chunks share the per-agent
# work among more rows (16,384 to 32,768 saved about a tenth of the time); each line in
# flight holds about 1 KiB, and at 65,536 the peak memory of a million runs grew beyond the
# memory target of benchmarks/bench_report.py.
_CHUNK_LINES = 32768


# A window candidate: (instant, finer digits, input order, row), the first two being
# ``instant_key`` of finished_at (exact to any number of fraction digits, offsets applied).
# The input order is unique, so candidates compare by instant, then by input order (later
# is newer), never by row.
_Kept = tuple[timedelta, str, int, _Row]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# What ``datetime.fromisoformat`` would not read exactly: fraction digits beyond the
# microsecond, or a lowercase "z" (the only letter z a timestamp can hold). Two searches:
# ``in`` scans for the letter with memchr, and a pattern starting with a literal "." is
# scanned for it in C too, where one alternation of both would try every position.
_BEYOND_MICROSECOND = re.compile(r"\.[0-9]{7}")


def _instant_keys(timestamps: list[str]) -> tuple[Sequence[timedelta], Sequence[str]]:
    """``instant_key`` of every timestamp, as two columns; in C when none needs more.

    >>> from scoring.models import instant_key
    >>> stamps = ["2026-07-01T12:00:00Z", "2026-07-01t14:00:00.5+02:00"]
    >>> list(zip(*_instant_keys(stamps))) == [instant_key(t) for t in stamps]
    True
    """
    joined = "\n".join(timestamps)
    if "z" in joined or _BEYOND_MICROSECOND.search(joined):
        keys = list(map(instant_key, timestamps))
        return [k[0] for k in keys], [k[1] for k in keys]
    moments = map(datetime.fromisoformat, timestamps)
    return list(map(sub, moments, repeat(_EPOCH))), [""] * len(timestamps)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a report reads its input.

    Reading allocates millions of short-lived objects and no reference cycles: collecting
    would only slow it down (by about a tenth). The collector is resumed afterwards, also
    on error, unless it was already paused.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def _median_as_written(values: Sequence[float]) -> Fraction:
    """Median of a non-empty list of floats, exact as written; an even count averages.

    Floats sort in the same order as their shortest decimals, so only the middle values
    are converted.
    """
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return as_written(ordered[middle])
    return (as_written(ordered[middle - 1]) + as_written(ordered[middle])) / 2


@dataclass(slots=True)
class _WindowRun:
    task_id: str
    success: bool | None
    latency_ms: float | None
    cost_usd: float | None
    steps: int | None


@dataclass(slots=True)
class _AgentState:
    completed: int = 0
    successes: int = 0
    # Window candidates, trimmed to the newest RADAR_WINDOW_RUNS when they reach
    # _WINDOW_TRIM; ``floor`` is then the oldest run kept: an older one can never enter
    # the window again.
    window: list[_Kept] = field(default_factory=list)
    floor: _Kept | None = None
    # (task_id, success) -> recorded outcomes, over every terminal run with a known one.
    outcomes: Counter[tuple[str, bool]] = field(default_factory=Counter)
    # Per task of the completed runs: counts and the exact sums of latency and cost (the
    # composite's means are their totals; its interval, 1.1.0, needs them per task).
    cohort: CohortSums = field(default_factory=CohortSums)

    def account(self, rows: Iterable[_Row], order: int) -> int:
        """Account for this agent's rows, in input order; returns the last input order used."""
        terminal = [r for r in rows if r[1] is _COMPLETED or r[1] is _FAILED or r[1] is _TIMEOUT]
        if not terminal:
            return order
        # One pass over the rows (they are spread over memory), then over their columns.
        _, statuses, successes, tasks, finished, latencies, costs, _, _ = zip(
            *terminal, strict=True
        )
        completed = [status is _COMPLETED for status in statuses]
        if True in completed:
            self.completed += completed.count(True)
            self.successes += list(compress(successes, completed)).count(True)
            # The model guarantees latency and cost on completed runs.
            self.cohort.add(
                list(compress(tasks, completed)),
                list(compress(successes, completed)),
                list(compress(latencies, completed)),
                list(compress(costs, completed)),
            )
        self.outcomes.update(
            [(t, s) for t, s in zip(tasks, successes, strict=True) if s is not None]
        )
        # The model guarantees finished_at on terminal runs.
        instants, finer = _instant_keys(list(finished))
        positions = range(order + 1, order + 1 + len(terminal))
        candidates = zip(instants, finer, positions, terminal, strict=True)
        floor, window = self.floor, self.window
        if floor is None:
            window += candidates
        else:
            window += [c for c in candidates if c > floor]  # newer than the oldest kept
        if len(window) >= _WINDOW_TRIM:
            self.floor = self.latest()[0]
        return order + len(terminal)

    def tasks(self) -> list[tuple[int, int]]:
        """(recorded outcomes n, successes c) per task."""
        per_task: defaultdict[str, list[int]] = defaultdict(lambda: [0, 0])
        for (task_id, success), n in self.outcomes.items():
            per_task[task_id][0] += n
            per_task[task_id][1] += n if success else 0
        return [(n, c) for n, c in per_task.values()]

    def latest(self) -> list[_Kept]:
        """The window: the newest RADAR_WINDOW_RUNS terminal runs, oldest first."""
        self.window.sort()
        del self.window[:-RADAR_WINDOW_RUNS]
        return self.window


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


@dataclass(frozen=True, slots=True)
class Report:
    """The report over one run log: agents by composite, highest first (``null`` last)."""

    methodology_version: str
    agents: tuple[AgentReport, ...]


class ReportBuilder:
    """Feeds validated runs in input order; :meth:`finish` computes every score."""

    def __init__(self) -> None:
        self._agents: dict[str, _AgentState] = {}
        self._order = 0

    def add(self, run: RunRecord) -> None:
        """Account for one run (already validated)."""
        self.add_all((run,))

    def add_all(self, runs: Iterable[RunRecord]) -> None:
        """Account for several runs (already validated), given in input order."""
        self._add_rows(map(_ROW, runs))

    def _add_rows(self, rows: Iterable[_Row]) -> None:
        by_agent: defaultdict[str, list[_Row]] = defaultdict(list)
        for row in rows:
            by_agent[row[0]].append(row)  # each agent's rows stay in input order
        agents = self._agents
        for agent_id, mine in by_agent.items():
            state = agents.get(agent_id)
            if state is None:
                state = agents[agent_id] = _AgentState()
            self._order = state.account(mine, self._order)

    def finish(self, weights: Mapping[Axis, Number] | None = None) -> Report:
        """Score every agent seen so far."""
        agents = [
            _score_agent(agent_id, state, weights) for agent_id, state in self._agents.items()
        ]
        agents.sort(key=_rank)
        return Report(METHODOLOGY_VERSION, _ranked(agents))


def _rank(agent: AgentReport) -> tuple[bool, float, str]:
    score = agent.composite.score
    shown = 0.0 if score is None else round_half_up(score, SCORE_DECIMALS)
    return (score is None, -shown, agent.agent_id)


def _ranked(agents: Sequence[AgentReport]) -> tuple[AgentReport, ...]:
    """The agents with their ranks: by published composite, and the rank upper bound from
    the published composite intervals."""
    scores = [
        None if a.composite.score is None else round_half_up(a.composite.score, SCORE_DECIMALS)
        for a in agents
    ]
    ranks = competition_ranks(scores)
    bounds = rank_upper_bounds([a.intervals.composite for a in agents])
    return tuple(
        replace(agent, rank=rank, rank_upper_bound=bound)
        for agent, rank, bound in zip(agents, ranks, bounds, strict=True)
    )


def _score_agent(
    agent_id: str, state: _AgentState, weights: Mapping[Axis, Number] | None
) -> AgentReport:
    completed = state.completed
    if completed:
        latency_sum, cost_sum = state.cohort.totals()
        mean_latency = latency_sum / completed
        mean_cost = cost_sum / completed
    else:
        mean_latency = mean_cost = Fraction(0)
    composite = score_composite(completed, state.successes, mean_latency, mean_cost)
    window = [_WindowRun(r[3], r[2], r[5], r[6], r[7]) for *_, r in state.latest()]
    radar = score_window(window, weights)
    outcomes = state.tasks()
    repeatability = score_repeatability(outcomes)
    intervals = score_intervals(
        state.cohort.tasks(), [(r.task_id, r.success) for r in window], outcomes
    )
    return AgentReport(agent_id, composite, radar, repeatability, intervals)


def score_window(
    window: Iterable[_WindowRun], weights: Mapping[Axis, Number] | None = None
) -> RadarResult:
    """The radar over the runs of one window (order does not matter)."""
    runs = list(window)
    known = [r.success for r in runs if r.success is not None]
    latencies = [r.latency_ms for r in runs if r.latency_ms is not None]
    costs = [r.cost_usd for r in runs if r.cost_usd is not None]
    steps = [r.steps for r in runs if r.steps is not None]
    per_task: dict[str, list[int]] = {}
    for r in runs:
        if r.success is not None:
            counts = per_task.setdefault(r.task_id, [0, 0])
            counts[0] += int(r.success)
            counts[1] += 1
    median_latency = _median_as_written(latencies) if latencies else None
    axes: dict[Axis, Fraction | None] = {
        Axis.CORRECTNESS: correctness_axis(sum(known), len(known)),
        Axis.LATENCY: latency_axis(median_latency, len(latencies)),
        Axis.COST: cost_axis(_median_as_written(costs) if costs else None),
        Axis.TOOL_EFFICIENCY: tool_efficiency_axis(_median_as_written(steps) if steps else None),
        Axis.ROBUSTNESS: robustness_axis((p, k) for p, k in per_task.values()),
    }
    return RadarResult(axes, profile(axes, weights), len(runs), median_latency)


def build_report(source: Iterable[bytes], weights: Mapping[Axis, Number] | None = None) -> Report:
    """Read a JSON Lines run log once and score every agent.

    ``source`` yields the raw lines (an open binary file works). Blank lines are skipped.
    Raises :class:`scoring.errors.InputError` naming every problem's line, field and rule;
    nothing is scored from an input that has one.
    """
    builder = ReportBuilder()
    log = ProblemLog()
    seen = _SeenIds()
    lines = record_lines(source, RecordKind.RUNS)  # gzip read, other binary named
    first = 1
    with _collector_paused():
        while chunk := list(islice(lines, _CHUNK_LINES)):
            # Each field is checked in C; RunRecord's status rules on the whole chunk.
            rows = _rows(chunk)
            if rows is None or not _status_rules_hold(rows):
                rows = _one_by_one(chunk, first, seen, log)
            else:
                for position in seen.add_all(map(_ROW_RUN_ID, rows)):
                    log.add(_duplicate(rows[position][8], first + position))
            if not log.total:
                builder._add_rows(rows)
            first += len(chunk)
    log.raise_if_any()
    return builder.finish(weights)
