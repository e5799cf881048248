"""What the methodology reads about one agent: its sufficient statistics, :class:`AgentStats`.

Every score, interval, rank input and null reason of the report is a function of an
agent's :class:`AgentStats` (and the profile's weights) alone: :func:`scoring.report.score.score`
computes them from it with the registered formulas, and nothing else about the runs is
read. So a reader of the run log (this package's, or an engine that aggregates the same log
in SQL) only has to produce these values, per agent, exactly.

Conventions, the same for every field:

- **Exact.** Counts are ``int``. Every other number is a :class:`~fractions.Fraction`
  holding the value *as written* in the log: a JSON number ``0.6`` is ``3/5`` (its shortest
  decimal, ``repr`` of the parsed float, which is what the input wrote for up to 17
  significant digits), never the binary double nearest to it. A sum is the exact sum of
  such values. An SQL engine gets them from ``DECIMAL`` arithmetic on the text of the
  numbers, or from ``repr`` of each double.
- **Ordered.** Every per-task tuple is sorted by ``task_id`` (Python's ``str`` order: by
  code point), each task at most once. The order changes no score (every formula is exact
  and symmetric in its tasks); it is fixed so that two producers' stats compare equal.
- **Missing.** A count of zero means there was nothing to count; a task that would have
  only zeros is left out of its tuple. A value that may be absent is ``None``, and says
  when.
- **Status words.** *Completed*: ``status == "completed"``. *Terminal*: completed, failed or
  timeout (queued and running runs count for nothing but the agent's existence). *Known
  outcome*: a terminal run whose ``success`` is not null; a *pass* is one whose ``success``
  is true.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from itertools import compress, count, repeat
from operator import attrgetter, ge, is_not, sub
from typing import NamedTuple

from scoring.constants import RADAR_WINDOW_RUNS
from scoring.models import TERMINAL_STATUSES, RunRow, RunStatus, instant_key
from scoring.numeric import as_written
from scoring.report.cohort import CohortSums


class CohortTask(NamedTuple):
    """One task of the composite's cohort: the agent's completed runs of that task.

    Tasks with no completed run are not listed.
    """

    #: The task's ``task_id``.
    task_id: str
    #: Completed runs of the task (at least 1).
    runs: int
    #: Of these, the runs whose ``success`` is true (a null success counts as not).
    successes: int
    #: Exact sum of ``latency_ms`` over these runs that recorded one, as written
    #: (milliseconds).
    latency_ms_sum: Fraction
    #: Exact sum of ``cost_usd`` over these runs that recorded one, as written (US dollars).
    cost_usd_sum: Fraction
    #: Of these runs, those with ``latency_ms`` null (unrecorded, from 1.3.0).
    latency_unrecorded: int = 0
    #: Of these runs, those with ``cost_usd`` null.
    cost_unrecorded: int = 0


class OutcomeTask(NamedTuple):
    """One task's recorded outcomes over the whole log: pass^k's ``(n, c)``.

    Tasks with no known outcome are not listed (also those below
    ``REPEATABILITY_MIN_OUTCOMES``: the formula itself leaves them out, and the report
    counts the qualifying ones).
    """

    #: The task's ``task_id``.
    task_id: str
    #: ``n``: the agent's terminal runs of the task with a known outcome (at least 1).
    n: int
    #: ``c``: of these, the passes (``0 <= c <= n``).
    c: int


class WindowTask(NamedTuple):
    """One task's tallies inside the radar window (robustness, the correctness interval).

    Tasks with no known outcome in the window are not listed.
    """

    #: The task's ``task_id``.
    task_id: str
    #: Window runs of the task with a known outcome (at least 1).
    known: int
    #: Of these, the passes (``0 <= passes <= known``).
    passes: int


@dataclass(frozen=True, slots=True)
class Middle:
    """The middle values of a median: what the median of ``count`` values needs, and no
    more (the values are never averaged here: the formula reading the median does that).

    With an odd ``count``, ``low`` and ``high`` are both the middle value; with an even one
    they are the two middle values of the sorted list, ``low <= high``.
    """

    #: How many values there were (at least 1).
    count: int
    #: The lower middle value, exact as written.
    low: Fraction
    #: The upper middle value (``== low`` when ``count`` is odd), exact as written.
    high: Fraction

    @property
    def median(self) -> Fraction:
        """The median of the values: the mean of the two middle ones.

        >>> Middle(4, Fraction(2), Fraction(3)).median, Middle(3, Fraction(5), Fraction(5)).median
        (Fraction(5, 2), Fraction(5, 1))
        """
        low, high = self.low, self.high
        # An odd count's middle value is its own mean: no Fraction sum and division.
        return low if low == high else (low + high) / 2


@dataclass(frozen=True, slots=True)
class RadarWindow:
    """The radar's window: the agent's latest ``RADAR_WINDOW_RUNS`` terminal runs (all of
    them when it has fewer).

    *Latest*: by the instant of ``finished_at`` (offsets applied, exact to every fraction
    digit), a later line of the log being newer among equal instants.
    """

    #: Terminal runs in the window (0 to ``RADAR_WINDOW_RUNS``).
    runs: int
    #: Per task with a known outcome in the window, sorted by ``task_id``.
    tasks: tuple[WindowTask, ...]
    #: Window runs with a ``latency_ms`` (not null): the latency axis needs
    #: ``RADAR_LATENCY_MIN_RUNS`` of them.
    latency_runs: int
    #: The middle values of the window's ``latency_ms`` values (ms); ``None`` when no
    #: window run has one.
    latency_ms: Middle | None
    #: The middle values of the window's ``cost_usd`` values (USD); ``None`` when none has one.
    cost_usd: Middle | None
    #: The middle values of the window's ``steps`` values (integers, as fractions);
    #: ``None`` when none has one.
    steps: Middle | None

    @property
    def known_outcomes(self) -> int:
        """Window runs with a known outcome (the correctness axis's denominator)."""
        return sum(task.known for task in self.tasks)

    @property
    def passes(self) -> int:
        """Window runs that passed (the correctness axis's numerator)."""
        return sum(task.passes for task in self.tasks)


#: The window of an agent with no terminal run.
EMPTY_WINDOW = RadarWindow(0, (), 0, None, None, None)


@dataclass(frozen=True, slots=True)
class AgentStats:
    """Everything the methodology reads about one agent, and nothing else.

    An agent is listed once it has a run of any status. Its composite reads ``cohort``,
    its radar ``window``, its repeatability ``outcomes``; its intervals read the same
    three.
    """

    #: The agent's ``agent_id``.
    agent_id: str
    #: The composite's cohort, per task with a completed run, sorted by ``task_id``.
    cohort: tuple[CohortTask, ...]
    #: Recorded outcomes over the whole log, per task with one, sorted by ``task_id``.
    outcomes: tuple[OutcomeTask, ...]
    #: The radar window.
    window: RadarWindow

    @property
    def completed_runs(self) -> int:
        """Completed runs (the composite's ``n``)."""
        return sum(task.runs for task in self.cohort)

    @property
    def successes(self) -> int:
        """Completed runs whose ``success`` is true."""
        return sum(task.successes for task in self.cohort)


# --- Building the stats while the log is read ------------------------------------------------

# A window candidate: (instant, finer digits, input order, run), the first two being
# ``instant_key`` of finished_at (exact to any number of fraction digits, offsets applied).
# The input order is unique, so candidates compare by instant, then by input order (later
# is newer), never by run.
_Kept = tuple[timedelta, str, int, RunRow]

# Window candidates kept per agent before they are trimmed to the latest RADAR_WINDOW_RUNS.
_WINDOW_TRIM = 4 * RADAR_WINDOW_RUNS
_COMPLETED = RunStatus.COMPLETED
_TERMINAL = frozenset(TERMINAL_STATUSES)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_AGENT_ID = attrgetter("agent_id")
_TASK_ID = attrgetter("task_id")
_FINISHED_AT = attrgetter("finished_at")
_LATENCY_MS = attrgetter("latency_ms")
_COST_USD = attrgetter("cost_usd")
# What ``datetime.fromisoformat`` would not read exactly: fraction digits beyond the
# microsecond, or a lowercase "z" (the only letter z a timestamp can hold).
_BEYOND_MICROSECOND = re.compile(r"\.[0-9]{7}")


class StatusRuleError(Exception):
    """A run breaks a rule of :class:`~scoring.models.RunRecord` that depends on its status
    (found while it is accounted for: its chunk is then read again line by line, which
    names the problem)."""


def instant_keys(timestamps: list[str]) -> tuple[Sequence[timedelta], Sequence[str] | None]:
    """``instant_key`` of every timestamp, as two columns; in C when none needs more, and
    then the second column (digits beyond the microsecond) is ``None``: all empty.

    >>> stamps = ["2026-07-01T12:00:00Z", "2026-07-01t14:00:00.5+02:00"]
    >>> instants, finer = instant_keys(stamps)
    >>> finer is None and [(i, "") for i in instants] == [instant_key(t) for t in stamps]
    True
    >>> instant_keys(["2026-07-01T12:00:00.12345678Z"])[1]
    ['78']
    """
    joined = "\n".join(timestamps)
    if "z" in joined or _BEYOND_MICROSECOND.search(joined):
        keys = list(map(instant_key, timestamps))
        return [k[0] for k in keys], [k[1] for k in keys]
    moments = map(datetime.fromisoformat, timestamps)
    return list(map(sub, moments, repeat(_EPOCH))), None


def middle(values: list[float] | list[int]) -> Middle | None:
    """The middle values of ``values``, exact as written; ``None`` if there are none.

    Floats sort in the order of their shortest decimals, so only the middle ones are
    converted.

    >>> middle([0.3, 0.1, 0.2, 0.4]), middle([])
    (Middle(count=4, low=Fraction(1, 5), high=Fraction(3, 10)), None)
    """
    if not values:
        return None
    ordered = sorted(values)
    half = len(ordered) // 2
    high = as_written(ordered[half])
    low = high if len(ordered) % 2 else as_written(ordered[half - 1])
    return Middle(len(ordered), low, high)


class AgentRuns:
    """One agent's window candidates as they are read, trimmed as they go: memory grows
    with ``RADAR_WINDOW_RUNS``, never with its runs. (Its counts and sums are kept for
    every agent at once, by :class:`LogRuns`.)"""

    __slots__ = ("floor", "window")

    def __init__(self) -> None:
        # Window candidates, trimmed to the newest RADAR_WINDOW_RUNS when they reach
        # _WINDOW_TRIM; ``floor`` is then the oldest run kept: an older one can never enter
        # the window again.
        self.window: list[_Kept] = []
        self.floor: _Kept | None = None

    def add(self, terminal: Sequence[RunRow], order: int) -> int:
        """Take this agent's terminal runs (each with a ``finished_at``), in input order
        (``order``: the last input order used), as window candidates; returns the last
        input order used now."""
        finished: list[str] = [r.finished_at for r in terminal]  # type: ignore[misc]
        instants, finer = instant_keys(finished)
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

    def latest(self) -> list[_Kept]:
        """The window: the newest RADAR_WINDOW_RUNS terminal runs, oldest first."""
        self.window.sort()
        del self.window[:-RADAR_WINDOW_RUNS]
        return self.window


class LogRuns:
    """Every agent's runs as they are read, kept as the stats need them: per agent and task
    the completed runs' counts and exact sums (:class:`~scoring.report.cohort.CohortSums`,
    keyed by ``(agent_id, task_id)``) and the known outcomes and passes, each chunk's
    counted at once for all its agents; per agent its window candidates
    (:class:`AgentRuns`). Memory grows with agents × tasks, never with runs.

    >>> from scoring.models import RunRow
    >>> log = LogRuns()
    >>> log.add([RunRow("r1", "a", "t", RunStatus.COMPLETED, True, 1000.0, 0.01, 2,
    ...                 "2026-07-01T12:00:00Z"),
    ...          RunRow("r2", "b", "t", RunStatus.QUEUED, None, None, None, None, None)])
    >>> [(s.agent_id, s.completed_runs, s.window.runs) for s in log.stats()]
    [('a', 1, 1), ('b', 0, 0)]
    """

    __slots__ = ("_numbers", "agents", "cohort", "known", "order", "pairs", "passed")

    def __init__(self) -> None:
        # Per agent, in order of first run (of any status).
        self.agents: dict[str, AgentRuns] = {}
        # (agent, task) -> its number: the tables below count by number, so that a run
        # costs one lookup of its pair, not one per table (a tuple's hash is never kept).
        self.pairs: dict[tuple[str, str], int] = {}
        self._numbers = count()  # numbers given out (one a run: unique, not consecutive)
        # Per (agent, task) of the completed runs: counts and the exact sums of latency and
        # cost.
        self.cohort: CohortSums[int] = CohortSums()
        # (agent, task) -> terminal runs with a known outcome, and passes.
        self.known: Counter[int] = Counter()
        self.passed: Counter[int] = Counter()
        self.order = 0  # the input order of the last terminal run accounted for

    def add(self, rows: Sequence[RunRow]) -> None:
        """Account for a chunk of validated runs, in input order."""
        agents = self.agents
        for agent_id in dict.fromkeys(map(_AGENT_ID, rows)):
            if agent_id not in agents:
                agents[agent_id] = AgentRuns()
        terminal = [r for r in rows if r.status in _TERMINAL]
        if not terminal:
            return
        if None in map(_FINISHED_AT, terminal):
            raise StatusRuleError  # RunRecord requires it on a terminal run
        pairs = zip(map(_AGENT_ID, terminal), map(_TASK_ID, terminal), strict=True)
        keys = list(map(self.pairs.setdefault, pairs, self._numbers))
        successes = [r.success for r in terminal]
        completed = [r.status is _COMPLETED for r in terminal]
        if True in completed:
            self.cohort.add(
                list(compress(keys, completed)),
                list(compress(successes, completed)),
                list(compress(map(_LATENCY_MS, terminal), completed)),
                list(compress(map(_COST_USD, terminal), completed)),
            )
        # Counted in C, by (agent, task): compress keeps a key where its success is true.
        if None in successes:
            self.known.update(compress(keys, map(is_not, successes, repeat(None))))
        else:
            self.known.update(keys)
        self.passed.update(compress(keys, successes))
        by_agent: dict[str, list[RunRow]] = {}
        for r in terminal:
            by_agent.setdefault(r.agent_id, []).append(r)  # each agent's stay in input order
        order = self.order
        for agent_id, mine in by_agent.items():
            order = agents[agent_id].add(mine, order)
        self.order = order

    def stats(self) -> list[AgentStats]:
        """Every agent's :class:`AgentStats` from every run accounted for, in order of first
        run."""
        pair_of = {number: pair for pair, number in self.pairs.items()}
        cohorts: dict[str, list[CohortTask]] = {}
        for number, *sums in self.cohort.tasks():
            agent_id, task_id = pair_of[number]
            cohorts.setdefault(agent_id, []).append(CohortTask._make((task_id, *sums)))
        outcomes: dict[str, list[OutcomeTask]] = {}
        passed = self.passed
        for number, n in self.known.items():
            agent_id, task_id = pair_of[number]
            outcomes.setdefault(agent_id, []).append(OutcomeTask(task_id, n, passed[number]))
        found = []
        for agent_id, candidates in self.agents.items():
            window = [kept[3] for kept in candidates.latest()]
            found.append(
                AgentStats(
                    agent_id,
                    tuple(sorted(cohorts.get(agent_id, ()))),
                    tuple(sorted(outcomes.get(agent_id, ()))),
                    window_of(window) if window else EMPTY_WINDOW,
                )
            )
        return found


def window_of(runs: Sequence[RunRow]) -> RadarWindow:
    """The :class:`RadarWindow` of the runs of a window (in any order)."""
    tallies: dict[str, list[int]] = {}
    for r in runs:
        if r.success is not None:
            counts = tallies.setdefault(r.task_id, [0, 0])
            counts[0] += 1
            counts[1] += r.success
    latencies = [r.latency_ms for r in runs if r.latency_ms is not None]
    return RadarWindow(
        len(runs),
        tuple(WindowTask(task, known, passes) for task, (known, passes) in sorted(tallies.items())),
        len(latencies),
        middle(latencies),
        middle([r.cost_usd for r in runs if r.cost_usd is not None]),
        middle([r.steps for r in runs if r.steps is not None]),
    )
