"""The agent report: composite, radar and repeatability from one pass over a run log.

Memory grows with agents × tasks, not with runs: per agent the report keeps counts, exact
decimal sums, the latest ``RADAR_WINDOW_RUNS`` terminal runs (a bounded heap) and an (n, c) pair per
task. The one per-run cost is the duplicate ``run_id`` check: an 8-byte hash per run.
"""

from __future__ import annotations

import heapq
from array import array
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from decimal import MAX_EMAX, MAX_PREC, MIN_EMIN, Context, Decimal, Inexact
from fractions import Fraction

from pydantic import ValidationError

from scoring.composite import CompositeResult, score_composite
from scoring.constants import (
    METHODOLOGY_VERSION,
    RADAR_WINDOW_RUNS,
    SCORE_DECIMALS,
    Axis,
)
from scoring.errors import Problem, ProblemLog, problems_from
from scoring.models import TERMINAL_STATUSES, RunRecord, RunStatus
from scoring.numeric import Number, as_written, median, round_half_up
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

# Sums of latency and cost are kept as exact decimals of the numbers as written (see
# ``as_written``). 60 digits hold any realistic sum exactly; the rare sum that does not fit
# (values spanning hundreds of orders of magnitude) traps Inexact and is redone unbounded.
_SUM = Context(prec=60, traps=[Inexact])
_WIDE_SUM = Context(prec=MAX_PREC, Emax=MAX_EMAX, Emin=MIN_EMIN, traps=[Inexact])


def _add(total: Decimal, value: float) -> Decimal:
    written = Decimal(repr(value))
    try:
        return _SUM.add(total, written)
    except Inexact:
        return _WIDE_SUM.add(total, written)


class _SeenIds:
    """Open-addressing set of 64-bit ``run_id`` hashes, 8 bytes a slot (no objects per run).

    Two different ids share a 64-bit hash with probability about n² / 2^65 (under 3 in
    100 million for a million runs); such a pair would be reported as a duplicate.
    """

    def __init__(self) -> None:
        self._slots = array("q", bytes(8 * 1024))
        self._mask = 1023
        self._used = 0

    def add(self, key: str) -> bool:
        """Add ``key``; ``False`` if it was already present."""
        code = hash(key) or 1
        slots, mask = self._slots, self._mask
        index = code & mask
        while True:
            held = slots[index]
            if held == 0:
                break
            if held == code:
                return False
            index = (index + 1) & mask
        slots[index] = code
        self._used += 1
        if self._used * 3 > mask * 2:
            self._grow()
        return True

    def _grow(self) -> None:
        old = self._slots
        self._mask = mask = 2 * len(old) - 1
        self._slots = slots = array("q", bytes(8 * (mask + 1)))
        for code in old:
            if code:
                index = code & mask
                while slots[index]:
                    index = (index + 1) & mask
                slots[index] = code


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
    latency_sum: Decimal = Decimal(0)
    cost_sum: Decimal = Decimal(0)
    # Min-heap of (finished_at, input order, run): the root is the oldest run kept.
    window: list[tuple[datetime, int, _WindowRun]] = field(default_factory=list)
    # task_id -> [recorded outcomes n, successes c] over every terminal run.
    outcomes: dict[str, list[int]] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class AgentReport:
    """Every score of one agent, as exact values."""

    agent_id: str
    composite: CompositeResult
    radar: RadarResult
    repeatability: RepeatabilityResult


@dataclass(frozen=True, slots=True)
class Report:
    """The report over one run log: agents by composite, highest first (``null`` last)."""

    methodology_version: str
    agents: tuple[AgentReport, ...]


class ReportBuilder:
    """Feeds validated runs one at a time; :meth:`finish` computes every score."""

    def __init__(self) -> None:
        self._agents: dict[str, _AgentState] = {}
        self._order = 0

    def add(self, run: RunRecord) -> None:
        """Account for one run (already validated)."""
        state = self._agents.get(run.agent_id)
        if state is None:
            state = self._agents[run.agent_id] = _AgentState()
        status = run.status
        if status not in TERMINAL_STATUSES:
            return
        success = run.success
        if status is RunStatus.COMPLETED:
            state.completed += 1
            if success is True:
                state.successes += 1
            # The model guarantees both on completed runs.
            state.latency_sum = _add(state.latency_sum, run.latency_ms)  # type: ignore[arg-type]
            state.cost_sum = _add(state.cost_sum, run.cost_usd)  # type: ignore[arg-type]
        if success is not None:
            counts = state.outcomes.get(run.task_id)
            if counts is None:
                state.outcomes[run.task_id] = [1, int(success)]
            else:
                counts[0] += 1
                counts[1] += success
        self._order += 1
        key = (run.finished_at, self._order)
        window = state.window
        if len(window) >= RADAR_WINDOW_RUNS and key <= window[0][:2]:
            return
        kept = (*key, _WindowRun(run.task_id, success, run.latency_ms, run.cost_usd, run.steps))
        if len(window) < RADAR_WINDOW_RUNS:
            heapq.heappush(window, kept)  # type: ignore[arg-type]
        else:
            heapq.heapreplace(window, kept)  # type: ignore[arg-type]

    def finish(self, weights: Mapping[Axis, Number] | None = None) -> Report:
        """Score every agent seen so far."""
        agents = [
            _score_agent(agent_id, state, weights) for agent_id, state in self._agents.items()
        ]
        agents.sort(key=_rank)
        return Report(METHODOLOGY_VERSION, tuple(agents))


def _rank(agent: AgentReport) -> tuple[bool, float, str]:
    score = agent.composite.score
    shown = 0.0 if score is None else round_half_up(score, SCORE_DECIMALS)
    return (score is None, -shown, agent.agent_id)


def _score_agent(
    agent_id: str, state: _AgentState, weights: Mapping[Axis, Number] | None
) -> AgentReport:
    completed = state.completed
    if completed:
        mean_latency = Fraction(state.latency_sum) / completed
        mean_cost = Fraction(state.cost_sum) / completed
    else:
        mean_latency = mean_cost = Fraction(0)
    composite = score_composite(completed, state.successes, mean_latency, mean_cost)
    radar = score_window([entry[2] for entry in state.window], weights)
    repeatability = score_repeatability([(n, c) for n, c in state.outcomes.values()])
    return AgentReport(agent_id, composite, radar, repeatability)


def score_window(
    window: Iterable[_WindowRun], weights: Mapping[Axis, Number] | None = None
) -> RadarResult:
    """The radar over the runs of one window (order does not matter)."""
    runs = list(window)
    known = [r.success for r in runs if r.success is not None]
    latencies = [as_written(r.latency_ms) for r in runs if r.latency_ms is not None]
    costs = [as_written(r.cost_usd) for r in runs if r.cost_usd is not None]
    steps = [Fraction(r.steps) for r in runs if r.steps is not None]
    per_task: dict[str, list[int]] = {}
    for r in runs:
        if r.success is not None:
            counts = per_task.setdefault(r.task_id, [0, 0])
            counts[0] += int(r.success)
            counts[1] += 1
    median_latency = median(latencies) if latencies else None
    axes: dict[Axis, Fraction | None] = {
        Axis.CORRECTNESS: correctness_axis(sum(known), len(known)),
        Axis.LATENCY: latency_axis(median_latency, len(latencies)),
        Axis.COST: cost_axis(median(costs) if costs else None),
        Axis.TOOL_EFFICIENCY: tool_efficiency_axis(median(steps) if steps else None),
        Axis.ROBUSTNESS: robustness_axis((p, k) for p, k in per_task.values()),
    }
    return RadarResult(axes, profile(axes, weights), len(runs), median_latency)


def _lines(source: Iterable[bytes]) -> Iterable[tuple[int, bytes]]:
    for number, line in enumerate(source, start=1):
        if line.strip():
            yield number, line


def build_report(source: Iterable[bytes], weights: Mapping[Axis, Number] | None = None) -> Report:
    """Read a JSON Lines run log once and score every agent.

    ``source`` yields the raw lines (an open binary file works). Blank lines are skipped.
    Raises :class:`scoring.errors.InputError` naming every problem's line, field and rule;
    nothing is scored from an input that has one.
    """
    builder = ReportBuilder()
    log = ProblemLog()
    seen = _SeenIds()
    validate = RunRecord.model_validate_json
    for number, line in _lines(source):
        try:
            run = validate(line)
        except ValidationError as error:
            log.extend(problems_from(error, number))
            continue
        if not seen.add(run.run_id):
            log.add(Problem(number, "run_id", f"duplicate run_id {run.run_id!r} [unique]"))
            continue
        if not log.total:
            builder.add(run)
    log.raise_if_any()
    return builder.finish(weights)
