"""The agent report: composite, radar and repeatability from one pass over a run log.

Memory grows with agents × tasks, not with runs: an agent's first ``SMALL_AGENT_RUNS`` runs
are kept as they are (a small agent is scored from them, see :mod:`scoring.published`); past
that, per agent the report keeps counts, per
task of the completed runs their counts and exact sums of latency and cost
(:mod:`scoring.report_cohort`; the composite's means and its interval read them), a bounded
list of window candidates (trimmed to the latest ``RADAR_WINDOW_RUNS`` terminal runs) and a
count per (task, outcome). The one per-run cost is the duplicate ``run_id`` check: an
8-byte BLAKE2b fingerprint per run.

Speed (see ``benchmarks/bench_report.py`` and the README's measured figures): a large
regular file is read in two parts at once where a second core is free (``_read_in_parts``:
a forked helper reads the later half; its builder and ``run_id`` codes are merged into the
parent's; an input with any problem is read again at once, so that one reading names every
problem in line order). Lines are read in chunks
and each chunk is decoded and validated in C by msgspec, straight into
:class:`~scoring.report_input.RunRow` structs read by field name; the status rules,
grouping, counting and sums are done per chunk, the scores on prepared integers
(:mod:`scoring.fast_scores`), and the garbage collector is paused. The command line prints
:func:`scoring.published.publish_json`, the text of the same document as ``report_to_json``
of the exact report, small agents scored from their kept runs. A repeated key is ruled
out by counting the quotes of the chunk in C. A chunk with a bad (or blank) line, or a
repeated key, is read again line by line with :class:`RunRecord` and
:func:`scoring.jsonlines.validate_line`, which name every problem. Every path gives the
same result, which ``tests/scoring/test_report.py`` checks against a plain computation;
``tests/scoring/test_faults.py`` checks that both paths accept and refuse the same lines,
``tests/scoring/test_report_parts.py`` that the parts give what one reading gives.

The reading of a chunk (validation, the repeated-key and duplicate ``run_id`` checks, the
line-by-line fallback) is :mod:`scoring.report_input`; this module accounts for the rows
per agent and scores them.
"""

from __future__ import annotations

import gc
import io
import os
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from functools import partial
from itertools import compress, repeat
from operator import attrgetter, ge, is_, is_not, sub
from typing import BinaryIO

from scoring import fast_scores
from scoring.byte_input import GZIP_MAGIC, RecordKind, record_lines
from scoring.composite import CompositeResult
from scoring.constants import (
    INTERVAL_MIN_TASKS,
    METHODOLOGY_VERSION,
    RADAR_WINDOW_RUNS,
    REPEATABILITY_MIN_OUTCOMES,
    SCORE_DECIMALS,
    Axis,
)
from scoring.errors import ProblemLog
from scoring.forking import Helper, SharedCounts, helpers_allowed
from scoring.jsonlines import (
    READ_BLOCK_BYTES,
    UTF8_BOM,
    FilePart,
    LineChunk,
    file_bytes,
    line_chunks,
    line_start,
)
from scoring.models import RunRecord, instant_key
from scoring.numeric import Number, as_written, exact, round_half_up
from scoring.radar import (
    RadarResult,
    default_weights,
    latency_axis,
    profile,
)
from scoring.repeatability import RepeatabilityResult
from scoring.report_cohort import CohortSums
from scoring.report_input import CALENDAR_PATTERN as CALENDAR_PATTERN  # tests read it here
from scoring.report_input import (
    TERMINAL,
    RunRow,
    check_new_ids,
    chunk_rows,
    row_of,
    rows_one_by_one,
    status_rules_hold,
)
from scoring.run_ids import RunIds
from scoring.uncertainty import (
    NO_INTERVALS,
    AgentIntervals,
    CohortTask,
    Interval,
    competition_ranks,
    rank_upper_bounds,
    score_intervals,
)

# The names the tests patch or call (a test patches ``_rows`` to force the line-by-line
# path): looked up here, in this module's namespace, on every chunk.
_rows = chunk_rows
_status_rules_hold = status_rules_hold
_ROW = row_of
_COMPLETED = TERMINAL[0]
_STATUS = attrgetter("status")
_SUCCESS = attrgetter("success")
_TASK = attrgetter("task_id")
_LATENCY = attrgetter("latency_ms")
_COST = attrgetter("cost_usd")
_FINISHED_AT = attrgetter("finished_at")

# Completed runs buffered per agent before they are added to the per-task sums
# (scoring.report_cohort: exact sums of the numbers as written, counted in C) in one call;
# the composite's sums are those sums added up.
_SUM_BATCH = 1024
# Runs an agent may have and still be kept as they are, to be scored from them at the end
# (scoring.published): at most the radar's window, which is then every terminal run. A
# one-run agent then costs no per-agent state while the log is read.
SMALL_AGENT_RUNS = min(32, RADAR_WINDOW_RUNS)
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
_Kept = tuple[timedelta, str, int, RunRow]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
# What ``datetime.fromisoformat`` would not read exactly: fraction digits beyond the
# microsecond, or a lowercase "z" (the only letter z a timestamp can hold). Two searches:
# ``in`` scans for the letter with memchr, and a pattern starting with a literal "." is
# scanned for it in C too, where one alternation of both would try every position.
_BEYOND_MICROSECOND = re.compile(r"\.[0-9]{7}")


def _instant_keys(timestamps: list[str]) -> tuple[Sequence[timedelta], Sequence[str] | None]:
    """``instant_key`` of every timestamp, as two columns; in C when none needs more, and
    then the second column (digits beyond the microsecond) is ``None``: all empty.

    >>> from scoring.models import instant_key
    >>> stamps = ["2026-07-01T12:00:00Z", "2026-07-01t14:00:00.5+02:00"]
    >>> instants, finer = _instant_keys(stamps)
    >>> finer is None and [(i, "") for i in instants] == [instant_key(t) for t in stamps]
    True
    >>> finer = _instant_keys(["2026-07-01T12:00:00.12345678Z"])[1]
    >>> finer == [instant_key("2026-07-01T12:00:00.12345678Z")[1]] == ["78"]
    True
    """
    joined = "\n".join(timestamps)
    if "z" in joined or _BEYOND_MICROSECOND.search(joined):
        keys = list(map(instant_key, timestamps))
        return [k[0] for k in keys], [k[1] for k in keys]
    moments = map(datetime.fromisoformat, timestamps)
    return list(map(sub, moments, repeat(_EPOCH))), None


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a report reads its input, or publishes it.

    Reading allocates millions of short-lived objects and no reference cycles: collecting
    would only slow it down (by about a tenth); so would it while the document of 20,000
    agents, some 180,000 dicts, is built. The collector is resumed afterwards, also on
    error, unless it was already paused.
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


class _StatusRuleError(Exception):
    """A row breaks a rule of :class:`RunRecord` that depends on the status (found while
    its chunk is accounted for: the chunk is then read again line by line)."""


@dataclass(slots=True)
class _AgentState:
    completed: int = 0
    successes: int = 0
    # Completed runs not yet added to the per-task sums (``cohort``), as columns: task,
    # success, latency, cost. Their exact sums are the composite's sums too.
    pending: tuple[list[str], list[bool | None], list[float], list[float]] = field(
        default_factory=lambda: ([], [], [], [])
    )
    # Window candidates, trimmed to the newest RADAR_WINDOW_RUNS when they reach
    # _WINDOW_TRIM; ``floor`` is then the oldest run kept: an older one can never enter
    # the window again.
    window: list[_Kept] = field(default_factory=list)
    floor: _Kept | None = None
    # task_id -> terminal runs with a known outcome (recorded outcomes), and successes.
    known: Counter[str] = field(default_factory=Counter)
    passed: Counter[str] = field(default_factory=Counter)
    # Per task of the completed runs: counts and the exact sums of latency and cost (the
    # composite's means are their totals; its interval, 1.1.0, needs them per task).
    cohort: CohortSums = field(default_factory=CohortSums)

    def account(self, rows: Iterable[RunRow], order: int) -> int:
        """Account for this agent's rows, in input order; returns the last input order used."""
        terminal = [r for r in rows if r.status in TERMINAL]
        if not terminal:
            return order
        statuses = list(map(_STATUS, terminal))
        successes = list(map(_SUCCESS, terminal))
        tasks = list(map(_TASK, terminal))
        completed = list(map(is_, statuses, repeat(_COMPLETED)))
        if True in completed:
            latencies = list(map(_LATENCY, compress(terminal, completed)))
            costs = list(map(_COST, compress(terminal, completed)))
            if None in latencies or None in costs:
                raise _StatusRuleError  # RunRecord requires both on a completed run
            self.completed += completed.count(True)
            self.successes += list(compress(successes, completed)).count(True)
            pending = self.pending
            pending[0].extend(compress(tasks, completed))
            pending[1].extend(compress(successes, completed))
            pending[2].extend(latencies)
            pending[3].extend(costs)
            if len(pending[2]) >= _SUM_BATCH:
                self.flush_sums()
        # Counted in C, by task id (a string, whose hash Python keeps): compress keeps a
        # task where its success is true.
        if None in successes:
            self.known.update(compress(tasks, map(is_not, successes, repeat(None))))
        else:
            self.known.update(tasks)
        self.passed.update(compress(tasks, successes))
        finished = list(map(_FINISHED_AT, terminal))
        if None in finished:
            raise _StatusRuleError  # RunRecord requires it on a terminal run
        instants, finer = _instant_keys(finished)
        positions = range(order + 1, order + 1 + len(terminal))
        # (strict=False: repeat("") has no end; the other three have the same length.)
        candidates = zip(instants, finer or repeat(""), positions, terminal, strict=False)
        floor, window = self.floor, self.window
        if floor is None:
            window += candidates
        elif finer is None and not floor[1]:
            # Newer than the oldest kept: a later position, so an instant not before it.
            window += compress(candidates, map(ge, instants, repeat(floor[0])))
        else:
            window += [c for c in candidates if c > floor]
        if len(window) >= _WINDOW_TRIM:
            self.floor = self.latest()[0]
        return order + len(terminal)

    def merge(self, later: _AgentState, offset: int) -> None:
        """Account for the agent's runs read after these, as ``later`` accounted for them
        (input orders from 1): as if :meth:`account` had been given them, their input
        orders raised by ``offset`` (beyond every order used here)."""
        self.completed += later.completed
        self.successes += later.successes
        self.flush_sums()
        later.flush_sums()
        self.cohort.merge(later.cohort)
        # Each side kept at least its newest RADAR_WINDOW_RUNS candidates, so the newest of
        # both are among them; no floor until the next trim (a floor only ever drops runs
        # that cannot enter the window, and without one none is dropped).
        self.window += [(i, f, order + offset, row) for i, f, order, row in later.window]
        self.floor = self.latest()[0] if len(self.window) >= _WINDOW_TRIM else None
        self.known.update(later.known)
        self.passed.update(later.passed)

    def tasks(self) -> list[tuple[int, int]]:
        """(recorded outcomes n, successes c) per task."""
        passed = self.passed
        return [(n, passed[task_id]) for task_id, n in self.known.items()]

    def flush_sums(self) -> None:
        """Add the pending completed runs to the per-task sums."""
        pending = self.pending
        if pending[0]:
            self.cohort.add(*pending)
            for column in pending:
                column.clear()

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
    """Feeds validated runs in input order; :meth:`finish` computes every score.

    An agent's first ``SMALL_AGENT_RUNS`` runs are kept as they are (a small agent is
    scored from them, :mod:`scoring.published`); with one more it is accounted for like
    every large agent, its kept runs first.
    """

    def __init__(self) -> None:
        self._agents: dict[str, _AgentState] = {}
        self._small: dict[str, list[RunRow]] = {}
        self._order = 0

    def add(self, run: RunRecord) -> None:
        """Account for one run (already validated)."""
        self.add_all((run,))

    def add_all(self, runs: Iterable[RunRecord]) -> None:
        """Account for several runs (already validated), given in input order."""
        self._add_rows(map(_ROW, runs))

    def _add_rows(self, rows: Iterable[RunRow]) -> None:
        by_agent: defaultdict[str, list[RunRow]] = defaultdict(list)
        for row in rows:
            by_agent[row.agent_id].append(row)  # each agent's rows stay in input order
        agents, small = self._agents, self._small
        kept: list[RunRow] = []
        for agent_id, mine in by_agent.items():
            state = agents.get(agent_id)
            if state is None:
                before = small.get(agent_id)
                if before is None:
                    if len(mine) <= SMALL_AGENT_RUNS:
                        small[agent_id] = mine
                        kept += mine
                        continue
                elif len(before) + len(mine) <= SMALL_AGENT_RUNS:
                    before += mine
                    kept += mine
                    continue
                else:
                    mine = small.pop(agent_id) + mine
                state = agents[agent_id] = _AgentState()
            self._order = state.account(mine, self._order)
        # The rules account() checks on what it reads, for the rows kept as they are.
        if kept and not status_rules_hold(kept):
            raise _StatusRuleError

    def merge(self, later: ReportBuilder) -> None:
        """Account for the runs ``later`` read, which come after this builder's in the
        input: afterwards this builder is the one that would have read both."""
        for agent_id in later._agents:
            if agent_id in self._small:
                self._promoted(agent_id)  # its earlier runs accounted for first
        offset = self._order
        for agent_id, theirs in later._agents.items():
            mine = self._agents.get(agent_id)
            if mine is None:
                mine = self._agents[agent_id] = _AgentState()
            mine.merge(theirs, offset)
        self._order = offset + later._order
        # Kept runs last, in input order, like rows of a chunk read now (later orders).
        self._add_rows([row for rows in later._small.values() for row in rows])

    def small_agents(self) -> dict[str, list[RunRow]]:
        """The agents of at most ``SMALL_AGENT_RUNS`` runs, and their runs in input order."""
        return self._small

    def score(self, agent_id: str, weights: Mapping[Axis, Number] | None = None) -> AgentReport:
        """The exact scores of one agent seen so far (without its ranks)."""
        state = self._promoted(agent_id)
        return _score_agent(agent_id, state, weights, exact_profile_weights(weights))

    def _promoted(self, agent_id: str) -> _AgentState:
        """The agent's state, a small agent's kept runs accounted for first."""
        state = self._agents.get(agent_id)
        if state is None:
            state = self._agents[agent_id] = _AgentState()
            self._order = state.account(self._small.pop(agent_id), self._order)
        return state

    def large_agents(self) -> list[str]:
        """The agents of more than ``SMALL_AGENT_RUNS`` runs."""
        return list(self._agents)

    def finish(self, weights: Mapping[Axis, Number] | None = None) -> Report:
        """Score every agent seen so far."""
        for agent_id in list(self._small):
            self._promoted(agent_id)
        exact_weights = exact_profile_weights(weights)
        agents = [
            _score_agent(agent_id, state, weights, exact_weights)
            for agent_id, state in self._agents.items()
        ]
        return Report(METHODOLOGY_VERSION, _ranked(agents))


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
    ranks = competition_ranks([scores[i] for i in order])
    return order, ranks, rank_upper_bounds([intervals[i] for i in order])


def _ranked(agents: Sequence[AgentReport]) -> tuple[AgentReport, ...]:
    """The agents in the report's order, with their ranks (:func:`ranking`)."""
    scores = [
        None if a.composite.score is None else round_half_up(a.composite.score, SCORE_DECIMALS)
        for a in agents
    ]
    order, ranks, bounds = ranking(
        scores, [a.agent_id for a in agents], [a.intervals.composite for a in agents]
    )
    # Built directly: dataclasses.replace looks up every field by name, per agent.
    return tuple(
        AgentReport(a.agent_id, a.composite, a.radar, a.repeatability, a.intervals, rank, bound)
        for a, rank, bound in zip((agents[i] for i in order), ranks, bounds, strict=True)
    )


def _score_agent(
    agent_id: str,
    state: _AgentState,
    weights: Mapping[Axis, Number] | None,
    exact_weights: dict[Axis, Fraction] | None,
) -> AgentReport:
    state.flush_sums()
    completed = state.completed
    cohort = state.cohort.tasks()
    if len(cohort) == 1:  # the common case of a small agent: no Fraction addition
        latency_sum, cost_sum = cohort[0][2], cohort[0][3]
    else:
        latency_sum = exact(sum((task[2] for task in cohort), Fraction(0)))
        cost_sum = exact(sum((task[3] for task in cohort), Fraction(0)))
    composite = fast_scores.composite(completed, state.successes, latency_sum, cost_sum)
    window = [kept[3] for kept in state.latest()]
    radar = _radar(window, weights, exact_weights)
    outcomes = state.tasks()
    repeatability = fast_scores.repeatability(outcomes)
    intervals = _intervals(cohort, [(r.task_id, r.success) for r in window], outcomes)
    return AgentReport(agent_id, composite, radar, repeatability, intervals)


# The intervals of agents with fewer than INTERVAL_MIN_TASKS tasks everywhere, by those
# counts: every interval is then null and only the reasons, which name the counts, differ.
_FEW_TASKS: dict[tuple[int, int, int], AgentIntervals] = {}


def few_tasks_intervals(counts: tuple[int, int, int]) -> AgentIntervals | None:
    """The intervals of an agent with these counts of tasks (its composite cohort's, its
    window's with a known outcome, its qualifying ones for pass^k), if an agent with the
    same counts, all below ``INTERVAL_MIN_TASKS``, was scored before: every interval is
    then null, and the reasons name the counts alone."""
    return _FEW_TASKS.get(counts)


def _intervals(
    cohort: list[CohortTask],
    window: list[tuple[str, bool | None]],
    outcomes: list[tuple[int, int]],
) -> AgentIntervals:
    """``score_intervals`` of an agent; remembered for agents below the minimum of tasks."""
    counts = (
        len(cohort),
        len({task for task, success in window if success is not None}),
        sum(1 for n, _ in outcomes if n >= REPEATABILITY_MIN_OUTCOMES),
    )
    if max(counts) >= INTERVAL_MIN_TASKS:
        return score_intervals(cohort, window, outcomes)
    found = few_tasks_intervals(counts)
    if found is None:
        found = _FEW_TASKS[counts] = score_intervals(cohort, window, outcomes)
    return found


def exact_profile_weights(
    weights: Mapping[Axis, Number] | None,
) -> dict[Axis, Fraction] | None:
    """The profile's weights as exact fractions, converted once per report; ``None`` when
    one is negative (the formula itself then names the problem). The defaults are the
    profile formula's own (:func:`scoring.radar.default_weights`)."""
    chosen = default_weights() if weights is None else weights
    converted = {axis: exact(weight) for axis, weight in chosen.items()}
    return None if any(w < 0 for w in converted.values()) else converted


def score_window(
    window: Iterable[_WindowRun] | Iterable[RunRow], weights: Mapping[Axis, Number] | None = None
) -> RadarResult:
    """The radar over the runs of one window (order does not matter)."""
    runs: list[_WindowRun] | list[RunRow] = list(window)  # type: ignore[assignment]
    return _radar(runs, weights, exact_profile_weights(weights))


def _radar(
    runs: Sequence[_WindowRun] | Sequence[RunRow],
    weights: Mapping[Axis, Number] | None,
    exact_weights: dict[Axis, Fraction] | None,
) -> RadarResult:
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
    # The formulas of scoring.radar, through scoring.fast_scores (equal values).
    axes: dict[Axis, Fraction | None] = {
        Axis.CORRECTNESS: fast_scores.correctness(sum(known), len(known)),
        Axis.LATENCY: latency_axis(median_latency, len(latencies)),
        Axis.COST: fast_scores.cost_axis(_median_as_written(costs) if costs else None),
        Axis.TOOL_EFFICIENCY: fast_scores.tool_efficiency(
            _median_as_written(steps) if steps else None
        ),
        Axis.ROBUSTNESS: fast_scores.robustness(tuple((p, k) for p, k in per_task.values())),
    }
    if exact_weights is None:
        weighted = profile(axes, weights)  # a negative weight: the formula names it
    else:
        weighted = fast_scores.profile(axes, exact_weights)
    return RadarResult(axes, weighted, len(runs), median_latency)


def _chunks(
    source: Iterable[bytes] | BinaryIO, on_read: Callable[[int], None] | None
) -> Iterator[tuple[list[bytes], LineChunk]]:
    # _CHUNK_LINES is read here, on every report, so that a test can make it small.
    for chunk in line_chunks(source, _CHUNK_LINES, on_read):
        yield chunk.lines, chunk


def build_report(
    source: Iterable[bytes] | BinaryIO,
    weights: Mapping[Axis, Number] | None = None,
    *,
    on_read: Callable[[int], None] | None = None,
    on_rows: Callable[[int], None] | None = None,
) -> Report:
    """Read a JSON Lines run log once and score every agent.

    ``source`` is a binary stream (an open file, stdin's buffer), read in blocks, or an
    iterable of raw lines. Blank lines are skipped. ``on_read`` is told the bytes of each
    block read, ``on_rows`` the lines of each chunk accounted for (the command line's
    progress line).
    Raises :class:`scoring.errors.InputError` naming every problem's line, field and rule;
    nothing is scored from an input that has one.
    """
    return read_runs(source, on_read=on_read, on_rows=on_rows).finish(weights)


def read_runs(
    source: Iterable[bytes] | BinaryIO,
    *,
    on_read: Callable[[int], None] | None = None,
    on_rows: Callable[[int], None] | None = None,
) -> ReportBuilder:
    """:func:`build_report`'s reading: every run of the log accounted for, none scored yet.

    A large regular file is read in two parts at once where a second core is free (see
    :func:`_read_in_parts`); the result is the same. Raises
    :class:`scoring.errors.InputError` as :func:`build_report` does.
    """
    size = file_bytes(source)
    if size is not None and size >= PARALLEL_MIN_BYTES and helpers_allowed():
        builder = _read_in_parts(source, size, on_read, on_rows)  # type: ignore[arg-type]
        if builder is not None:
            return builder
    lines = record_lines(source, RecordKind.RUNS)  # gzip read, other binary named
    builder, _, log = _read(lines, size, on_read, on_rows)
    log.raise_if_any()
    return builder


# A regular file at least this large is read in two parts at once (two processes, where a
# second core is free): below it, starting the helper and merging cost more than they save.
PARALLEL_MIN_BYTES = 1 << 24
# The share of the file the helper reads: half (measured: the parent's merge afterwards and
# the helper's slower start, on memory it shares with the parent, about cancel).
HELPER_SHARE = 0.5


def _read_in_parts(
    source: BinaryIO,
    size: int,
    on_read: Callable[[int], None] | None,
    on_rows: Callable[[int], None] | None,
) -> ReportBuilder | None:
    """The reading of a regular file in two parts at once: the parent reads the first, a
    forked helper (:class:`scoring.forking.Helper`) the rest; the helper's builder and
    ``run_id`` codes are merged into the parent's.

    ``None`` where the parts cannot give the answer of one reading, which the caller then
    does: an input with any problem (so that every problem is named, in line order, by one
    reading), a ``run_id`` in both parts, gzip, a file read from elsewhere than its start
    or as text, a helper that failed.
    """
    if not isinstance(source, io.BufferedIOBase | io.RawIOBase):
        return None  # a text stream: one reading says what it says of one
    try:
        fd = source.fileno()
        if source.tell() != 0 or os.lseek(fd, 0, os.SEEK_CUR) != 0:
            return None
    except (AttributeError, OSError, ValueError):
        return None
    if os.pread(fd, len(GZIP_MAGIC), 0) == GZIP_MAGIC:
        return None
    split = line_start(fd, size - int(size * HELPER_SHARE), size)
    if split is None or split == 0:
        return None
    counts = SharedCounts(2) if on_read is not None or on_rows is not None else None
    helper = Helper(lambda: _read_part(fd, split, size, counts))
    try:
        first = io.BufferedReader(FilePart(fd, 0, split), READ_BLOCK_BYTES)
        told_read, told_rows = _with_helper(on_read, counts, 0), _with_helper(on_rows, counts, 1)
        builder, seen, log = _read(
            record_lines(first, RecordKind.RUNS), split, told_read, told_rows, give_up=True
        )
        if log.total:
            return None
        later = helper.result()
        for told in (told_read, told_rows):
            if told is not None:
                told(0)  # what the helper read after the parent's last count
    finally:
        helper.stop()
    if later is None:
        return None
    later_builder, later_codes = later
    if seen.holds_any(later_codes):
        return None  # a duplicate run_id: one reading names its line
    builder.merge(later_builder)
    return builder


def _with_helper(
    report: Callable[[int], None] | None, counts: SharedCounts | None, index: int
) -> Callable[[int], None] | None:
    """``report`` told the parent's counts and, with each, what the helper added since."""
    if report is None or counts is None:
        return report
    told = 0

    def told_both(count: int) -> None:
        nonlocal told
        helper = counts.value(index)
        report(count + helper - told)
        told = helper

    return told_both


def _read_part(
    fd: int, start: int, end: int, counts: SharedCounts | None
) -> tuple[ReportBuilder, bytes] | None:
    """The helper's reading of bytes ``start`` to ``end`` (whole lines): its builder and
    ``run_id`` codes, or ``None`` if the part holds a problem."""
    if os.pread(fd, len(UTF8_BOM), start) == UTF8_BOM:
        return None  # a mark inside the file belongs to its line: the one reading names it
    part = io.BufferedReader(FilePart(fd, start, end), READ_BLOCK_BYTES)
    on_read = None if counts is None else partial(counts.add, 0)
    on_rows = None if counts is None else partial(counts.add, 1)
    builder, seen, log = _read(part, end - start, on_read, on_rows, give_up=True)
    return None if log.total else (builder, seen.codes())


def _read(
    lines: Iterable[bytes] | BinaryIO,
    size: int | None,
    on_read: Callable[[int], None] | None,
    on_rows: Callable[[int], None] | None,
    *,
    give_up: bool = False,
) -> tuple[ReportBuilder, RunIds, ProblemLog]:
    """Read lines (``size``: their bytes, if known) into a new builder: the builder, the
    ``run_id`` codes seen and the problems found (the builder counts only if none). With
    ``give_up``, the reading stops at the first chunk with a problem."""
    builder = ReportBuilder()
    log = ProblemLog()
    seen = RunIds()
    first = 1
    with collector_paused():
        for chunk, read in _chunks(lines, on_read):
            if first == 1 and size:
                # The run_id table sized once for the whole file (lines as long as the
                # first chunk's), instead of rehashed at every doubling.
                seen.reserve(size * len(chunk) // max(1, sum(map(len, chunk))))
            # Each field is checked in C. RunRecord's status rules: while the rows are
            # accounted for (on the columns read for that), or on the whole chunk once the
            # input is known to be bad. A chunk that breaks one is read again line by line
            # (its run_ids are added to `seen` only after the check, so only once).
            rows = _rows(chunk)
            if rows is not None:
                if log.total:
                    rows = rows if _status_rules_hold(rows) else None
                else:
                    try:
                        builder._add_rows(rows)
                    except _StatusRuleError:
                        rows = None  # the report fails: what was accounted no longer counts
            if rows is None:
                rows = rows_one_by_one(read.as_read(), first, seen, log)
                if not log.total:
                    builder._add_rows(rows)  # RunRecord's own validation: the rules hold
            else:
                check_new_ids(rows, first, seen, log)
            first += len(chunk)
            if on_rows is not None:
                on_rows(len(chunk))
            if give_up and log.total:
                break
    return builder, seen, log
