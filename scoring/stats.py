"""What the methodology reads about one agent: its sufficient statistics, :class:`AgentStats`.

Every score, interval, rank input and null reason of the report is a function of an
agent's :class:`AgentStats` (and the profile's weights) alone: :func:`scoring.score.score`
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

from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True, slots=True)
class CohortTask:
    """One task of the composite's cohort: the agent's completed runs of that task.

    Tasks with no completed run are not listed.
    """

    #: The task's ``task_id``.
    task_id: str
    #: Completed runs of the task (at least 1).
    runs: int
    #: Of these, the runs whose ``success`` is true (a null success counts as not).
    successes: int
    #: Exact sum of ``latency_ms`` over these runs, as written (milliseconds). Every
    #: completed run has one (the input rules require it).
    latency_ms_sum: Fraction
    #: Exact sum of ``cost_usd`` over these runs, as written (US dollars).
    cost_usd_sum: Fraction


@dataclass(frozen=True, slots=True)
class OutcomeTask:
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


@dataclass(frozen=True, slots=True)
class WindowTask:
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
        return (self.low + self.high) / 2


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
