"""τ-bench and τ²-bench results files as run records.

τ-bench (sierra-research/tau-bench) writes a results file that is a JSON list of records,
one per trajectory: ``task_id``, ``trial``, ``reward``, ``info``, ``traj``. τ²-bench
(sierra-research/tau2-bench) writes a ``Results`` object whose ``simulations`` list holds
one ``SimulationRun`` per simulation: ``id``, ``task_id``, ``trial``, ``start_time``,
``end_time``, ``duration``, ``termination_reason``, ``agent_cost``,
``reward_info.reward``. Both are read, as a JSON list of records, a ``Results`` object, or
JSON Lines (one record per line, as in ``docs/data/tau-bench-gpt-4o-airline.jsonl``).

Neither names the agent: ``--agent`` is required. A record with ``termination_reason`` is
read by τ²-bench's rules, any other by τ-bench's. τ-bench records no time: latency and
cost stay null, and ``finished_at``, which a finished run must have, is a placeholder
(:data:`PLACEHOLDER`), said on stderr.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from scoring.errors import shown
from scoring.harnesses.base import (
    TOLERANCE,
    Collector,
    Converted,
    FieldError,
    Harness,
    LogError,
    LogProblem,
    Mapping,
    Notes,
    Options,
    Row,
    dig,
    files_in,
    identifier,
    is_one,
    number,
    parse_json,
    read_bytes,
    refuse_input,
    rfc3339,
    seconds_to_ms,
)
from scoring.models import RunStatus


@dataclass(frozen=True, slots=True)
class Placeholder:
    """The ``finished_at`` of a record that records none: ``start`` plus ``step`` per
    record before it, in the order the files list them (so the order of the file stands for
    the order the runs finished)."""

    start: datetime
    step: timedelta

    def describe(self) -> str:
        """The rule in words: ``1970-01-01T00:00:00Z plus 1 s per record in file order``."""
        return f"{self.at(0)} plus {self.step.total_seconds():g} s per record in file order"

    def at(self, position: int) -> str:
        """The placeholder of the record at ``position`` (0-based), RFC 3339 in UTC."""
        moment = (self.start + self.step * position).astimezone(UTC)
        return moment.isoformat().replace("+00:00", "Z")


#: The placeholder of τ-bench records: the Unix epoch, plainly not a time anything ran at,
#: one second further for each record.
PLACEHOLDER = Placeholder(datetime(1970, 1, 1, tzinfo=UTC), timedelta(seconds=1))

#: Between the task id and the trial number in a τ-bench run id (``5-trial-0``).
TRIAL_SEPARATOR = "-trial-"

#: τ²-bench's ``termination_reason`` -> the run's status. A run stopped by its step limit
#: was still evaluated (a completed run, scored); an error ends it as failed.
TERMINATION_STATUS: dict[str, RunStatus] = {
    "user_stop": RunStatus.COMPLETED,
    "agent_stop": RunStatus.COMPLETED,
    "max_steps": RunStatus.COMPLETED,
    "timeout": RunStatus.TIMEOUT,
    "too_many_errors": RunStatus.FAILED,
    "agent_error": RunStatus.FAILED,
    "user_error": RunStatus.FAILED,
    "infrastructure_error": RunStatus.FAILED,
    "context_window_exceeded": RunStatus.FAILED,
    "unexpected_error": RunStatus.FAILED,
}

NO_AGENT = "τ-bench records name no agent: give the agent's name (--agent NAME)"
NO_TIME = (
    "no finish time is recorded (a τ-bench record has none): finished_at is a placeholder, "
    "{placeholder}, on {runs}"
)
NO_LATENCY = "latency not recorded (a τ-bench record has no timing): latency_ms null on {runs}"
NO_COST = "cost not recorded (a τ-bench record has none): cost_usd null on {runs}"
NO_AGENT_COST = "cost not recorded (agent_cost null): cost_usd null on {runs}"
NO_REWARD = "no reward recorded (reward_info null): success null on {runs}"
NO_STEPS = "steps not recorded (no tool-call count in a record): steps null on {runs}"


@dataclass(frozen=True, slots=True)
class _Record:
    """One record of a results file, with what its mapping reads besides it."""

    data: dict[str, object]
    position: int
    agent: str
    options: Options
    notes: Notes
    placeholder: Placeholder

    @property
    def tau2(self) -> bool:
        return "termination_reason" in self.data


def _run_id(r: _Record) -> str:
    if r.tau2:
        return identifier(r.data.get("id"), "id")
    task = identifier(r.data.get("task_id"), "task_id")
    trial = r.data.get("trial")
    if isinstance(trial, bool) or not isinstance(trial, int):
        rule = f"required: the trial number, a whole number (got {shown(trial)})"
        raise FieldError("trial", rule)
    return f"{task}{TRIAL_SEPARATOR}{trial}"


def _status(r: _Record) -> str:
    if not r.tau2:
        return RunStatus.COMPLETED.value
    reason = r.data["termination_reason"]
    status = TERMINATION_STATUS.get(reason) if isinstance(reason, str) else None
    if status is None:
        known = ", ".join(TERMINATION_STATUS)
        raise FieldError("termination_reason", f"must be one of {known} (got {shown(reason)})")
    return status.value


def _success(r: _Record) -> bool | None:
    if "reward" in r.data:
        return is_one(number(r.data["reward"], "reward", "the trial's reward"))
    if not r.tau2:
        rule = f"required: the trial's reward, a success within {TOLERANCE} of 1"
        raise FieldError("reward", rule)
    if r.data.get("reward_info") is None:
        r.notes.count(NO_REWARD)
        return None
    reward = dig(r.data, "reward_info.reward")
    return is_one(number(reward, "reward_info.reward", "the simulation's reward"))


def _latency(r: _Record) -> float | None:
    if not r.tau2:
        r.notes.count(NO_LATENCY)
        return None
    seconds = number(r.data.get("duration"), "duration", "the simulation's seconds")
    return seconds_to_ms(seconds)


def _cost(r: _Record) -> float | None:
    if not r.tau2:
        r.notes.count(NO_COST)
        return None
    cost = r.data.get("agent_cost")
    if cost is None:
        r.notes.count(NO_AGENT_COST)
        return None
    return number(cost, "agent_cost", "the agent's cost in US dollars")


def _steps(r: _Record) -> None:
    r.notes.count(NO_STEPS)


def _finished_at(r: _Record) -> str:
    if not r.tau2:
        r.notes.count(NO_TIME.format(placeholder=r.placeholder.describe(), runs="{runs}"))
        return r.placeholder.at(r.position)
    return rfc3339(r.data.get("end_time"), "end_time", r.options, r.notes)


def _status_rule() -> str:
    by_status = [
        f"{status.value} on "
        + ", ".join(f"`{reason}`" for reason, s in TERMINATION_STATUS.items() if s is status)
        for status in (RunStatus.COMPLETED, RunStatus.TIMEOUT, RunStatus.FAILED)
    ]
    return (
        "τ-bench: completed. τ²-bench: "
        + "; ".join(by_status)
        + " (a run stopped at its step limit was still evaluated)"
    )


#: The τ-bench and τ²-bench mapping, one row per run field.
MAPPING: Mapping[_Record] = Mapping(
    Harness.TAU_BENCH,
    (
        Row(
            "run_id",
            "`id` (τ²); `task_id`-trial-`trial` (τ)",
            "τ²-bench's simulation id; τ-bench has none: the task id and the trial number, "
            "`5-trial-0`",
            _run_id,
        ),
        Row("agent_id", "`--agent NAME`", "required: neither records the agent", lambda r: r.agent),
        Row(
            "task_id",
            "`task_id`",
            "as recorded (a number written as its decimal text)",
            lambda r: identifier(r.data.get("task_id"), "task_id"),
        ),
        Row("status", "`termination_reason` (τ²)", _status_rule(), _status),
        Row(
            "success",
            "`reward` (τ); `reward_info.reward` (τ²)",
            f"true when the reward is within {TOLERANCE} of 1, as τ-bench counts a success; "
            "τ²-bench with no `reward_info`: null. A τ-bench record without a reward is refused",
            _success,
        ),
        Row(
            "latency_ms",
            "`duration` × 1000 (τ²)",
            "τ²-bench: the simulation's seconds (the user simulator's turns included), in "
            "milliseconds. τ-bench records no time: null",
            _latency,
        ),
        Row(
            "cost_usd",
            "`agent_cost` (τ²)",
            "τ²-bench: the agent's cost, not the user simulator's; null when null. "
            "τ-bench records none: null",
            _cost,
        ),
        Row("steps", "—", "null: neither counts tool calls per record", _steps),
        Row(
            "finished_at",
            "`end_time` (τ²)",
            "τ²-bench writes it without a UTC offset: read as UTC only with `--assume-utc`, "
            f"refused otherwise. τ-bench records none: a placeholder, {PLACEHOLDER.describe()}",
            _finished_at,
        ),
    ),
)

#: What the mapping may say on stderr (the templates; ``{runs}`` counts runs).
NOTES: tuple[str, ...] = (NO_TIME, NO_LATENCY, NO_COST, NO_AGENT_COST, NO_REWARD, NO_STEPS)


def _records(path: Path) -> list[tuple[int | None, str, object]]:
    """``(line, name in messages, record)`` for each record of a results file."""
    data = read_bytes(path)
    if data[:4] == b"PK\x03\x04":
        raise refuse_input(
            path,
            "a zip archive, not a τ-bench results file (an Inspect .eval log? --from inspect)",
        )
    try:
        whole = parse_json(data)
    except ValueError as error:
        return _json_lines(path, data, error)
    if isinstance(whole, list):
        return [(None, f"record {n}", item) for n, item in enumerate(whole, 1)]
    if isinstance(whole, dict) and isinstance(whole.get("simulations"), list):
        return [(None, f"simulation {n}", item) for n, item in enumerate(whole["simulations"], 1)]
    if isinstance(whole, dict) and "task_id" in whole:
        return [(1, "line 1", whole)]  # JSON Lines of one record
    raise refuse_input(
        path,
        "not a τ-bench results file: a JSON list of records, a τ²-bench Results object "
        "(with `simulations`) or JSON Lines of records",
    )


def _json_lines(path: Path, data: bytes, whole: ValueError) -> list[tuple[int | None, str, object]]:
    lines = data.splitlines()
    first = next((line for line in lines if line.strip()), b"")
    try:
        parsed_first = parse_json(first)
    except ValueError:
        parsed_first = None
    if not isinstance(parsed_first, dict):
        raise refuse_input(path, f"not a τ-bench results file: not valid JSON ({whole})")
    records: list[tuple[int | None, str, object]] = []
    problems = []
    for number_, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            records.append((number_, f"line {number_}", parse_json(line)))
        except ValueError as error:
            problems.append((number_, f"not valid JSON ({error})"))
    if problems:
        raise LogError([LogProblem(n, None, rule, str(path), f"line {n}") for n, rule in problems])
    return records


def convert(
    paths: Sequence[str | Path], options: Options, placeholder: Placeholder = PLACEHOLDER
) -> Converted:
    """The run records of τ-bench or τ²-bench results files, in file order; ``placeholder``
    stands for the finish time τ-bench does not record."""
    if not options.agent:
        raise ValueError(NO_AGENT)
    notes = Notes(Harness.TAU_BENCH)
    collector = Collector(MAPPING)
    position = 0
    for path in files_in(paths):
        if path.is_dir():
            raise refuse_input(path, "a folder: give the results files (JSON) themselves")
        for line, name, data in _records(path):
            if not isinstance(data, dict):
                collector.problem(path, name, None, "must be a JSON object (a record)", line)
                continue
            item = _Record(data, position, options.agent, options, notes, placeholder)
            collector.add(item, path, name, line)
            position += 1
    return collector.converted(notes)


def read(paths: Sequence[str | Path], options: Options) -> Converted:
    """The run records of τ-bench or τ²-bench results files (see :func:`convert`)."""
    return convert(paths, options)
