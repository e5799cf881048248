"""A Harbor job folder as run records.

``harbor run`` writes a job folder: ``config.json``, ``lock.json`` and ``result.json`` (the
job's summary) at the top, and one folder per trial (``TASK__suffix``) whose
``result.json`` holds the trial: ``task_name``, ``agent_info`` (``name``, ``version``,
``model_info``), ``agent_result`` (``cost_usd``, token counts), ``verifier_result``
(``rewards.reward``), ``exception_info``, ``started_at``/``finished_at`` and the timing of
each phase (``environment_setup``, ``agent_setup``, ``agent_execution``, ``verifier``).

One run per trial folder with a ``result.json``; a folder without one (a trial still
running) is skipped and counted on stderr. Harbor records no attempt number: the repeated
attempts of a task (``-k``) share ``task_name`` and differ by their folder's name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from scoring.errors import shown
from scoring.harnesses.base import (
    TOLERANCE,
    Collector,
    Converted,
    FieldError,
    Harness,
    Mapping,
    Notes,
    Options,
    Row,
    dig,
    duration_ms,
    files_in,
    identifier,
    is_one,
    number,
    parse_json,
    read_bytes,
    refuse_input,
    rfc3339,
    shown_path,
)
from scoring.models import RunStatus

#: The exception Harbor records when the agent ran out of time: the run timed out.
TIMEOUT_EXCEPTION = "AgentTimeoutError"
#: The name of a trial's (and the job's) result file.
RESULT_FILE = "result.json"

NO_ATTEMPT = "no attempt number is recorded; run ids are the trial folder names"
AGENT_PHASE = (
    "latency is the agent's execution phase (agent_execution), not the trial's setup or "
    "verification"
)
NO_COST = "cost not recorded (agent_result.cost_usd null): cost_usd null on {runs}"
NO_LATENCY = "latency not recorded (no agent_execution timing): latency_ms null on {runs}"
NO_VERIFIER = "no verifier result (the trial raised an exception): success null on {runs}"
NO_STEPS = "steps not recorded (no tool-call count in result.json): steps null on {runs}"
UNFINISHED = "trial folders without result.json skipped (trials not finished?): {count}"


@dataclass(frozen=True, slots=True)
class _Trial:
    """One trial folder's ``result.json``, with what its mapping reads besides it."""

    folder: str
    data: dict[str, object]
    options: Options
    notes: Notes


def _agent(t: _Trial) -> str:
    if t.options.agent:
        return t.options.agent
    name = identifier(dig(t.data, "agent_info.name"), "agent_info.name")
    model = dig(t.data, "agent_info.model_info")
    if not isinstance(model, dict):
        return name
    parts = [model.get("provider"), model.get("name")]
    return "/".join([name, *(str(p) for p in parts if isinstance(p, str) and p)])


def _exception(t: _Trial) -> str | None:
    info = t.data.get("exception_info")
    if info is None:
        return None
    kind = dig(info, "exception_type")
    if not isinstance(kind, str) or not kind:
        raise FieldError(
            "exception_info.exception_type",
            f"required when exception_info is recorded: the exception's class (got {shown(kind)})",
        )
    return kind


def _status(t: _Trial) -> str:
    kind = _exception(t)
    if kind is None:
        return RunStatus.COMPLETED.value
    return (RunStatus.TIMEOUT if kind == TIMEOUT_EXCEPTION else RunStatus.FAILED).value


def _success(t: _Trial) -> bool | None:
    verifier = t.data.get("verifier_result")
    if verifier is None:
        if _exception(t) is None:
            raise FieldError(
                "verifier_result",
                "required on a trial that raised no exception: its reward decides success",
            )
        t.notes.count(NO_VERIFIER)
        return None
    reward = dig(verifier, "rewards.reward")
    return is_one(number(reward, "verifier_result.rewards.reward", "the verifier's reward"))


def _latency(t: _Trial) -> float | None:
    t.notes.once(AGENT_PHASE)
    phase = t.data.get("agent_execution")
    elapsed = duration_ms(dig(phase, "started_at"), dig(phase, "finished_at"), "agent_execution")
    if elapsed is None:
        t.notes.count(NO_LATENCY)
    return elapsed


def _cost(t: _Trial) -> float | None:
    cost = dig(t.data, "agent_result.cost_usd")
    if cost is None:
        t.notes.count(NO_COST)
        return None
    return number(cost, "agent_result.cost_usd", "the agent's cost in US dollars")


def _steps(t: _Trial) -> None:
    t.notes.count(NO_STEPS)


#: The Harbor mapping, one row per run field.
MAPPING: Mapping[_Trial] = Mapping(
    Harness.HARBOR,
    (
        Row(
            "run_id",
            "the trial folder's name (`trial_name`)",
            "Harbor records no attempt number: each attempt is its own folder, named by the "
            "task and a random suffix",
            lambda t: t.folder,
        ),
        Row(
            "agent_id",
            "`agent_info.name`, `agent_info.model_info`",
            "the agent's name, then `/provider/model` when a model is recorded; `--agent NAME` "
            "replaces it",
            _agent,
        ),
        Row(
            "task_id",
            "`task_name`",
            "as recorded: the attempts of one task share it",
            lambda t: identifier(t.data.get("task_name"), "task_name"),
        ),
        Row(
            "status",
            "`exception_info.exception_type`",
            f"no exception: completed; `{TIMEOUT_EXCEPTION}`: timeout; any other exception "
            "(a verifier's timeout included): failed",
            _status,
        ),
        Row(
            "success",
            "`verifier_result.rewards.reward`",
            f"true when the reward is within {TOLERANCE} of 1, whatever the status (a timed-out "
            "trial is verified too); no verifier result after an exception: null; none "
            "without an exception is refused",
            _success,
        ),
        Row(
            "latency_ms",
            "`agent_execution.finished_at` − `agent_execution.started_at`",
            "the agent's execution phase in milliseconds, not the environment's or the "
            "agent's setup nor the verification; null when not recorded",
            _latency,
        ),
        Row(
            "cost_usd",
            "`agent_result.cost_usd`",
            "as recorded; null when Harbor recorded none (never 0)",
            _cost,
        ),
        Row("steps", "—", "null: `result.json` counts tokens and episodes, not tool calls", _steps),
        Row(
            "finished_at",
            "`finished_at`",
            "the trial's end, required; without a UTC offset only with `--assume-utc`",
            lambda t: rfc3339(t.data.get("finished_at"), "finished_at", t.options, t.notes),
        ),
    ),
)

#: What the mapping may say on stderr (the templates; ``{runs}`` counts runs).
NOTES: tuple[str, ...] = (
    NO_ATTEMPT,
    AGENT_PHASE,
    NO_COST,
    NO_LATENCY,
    NO_VERIFIER,
    NO_STEPS,
    UNFINISHED,
)


def _trial_folders(job: Path, notes: Notes) -> list[Path]:
    if not job.is_dir():
        raise refuse_input(
            job,
            "not a Harbor job folder: give the folder `harbor run` wrote (trial folders "
            "inside, each with result.json)",
        )
    folders = sorted(child for child in job.iterdir() if child.is_dir())
    trials = [folder for folder in folders if (folder / RESULT_FILE).is_file()]
    if len(folders) > len(trials):
        notes.once(UNFINISHED.format(count=len(folders) - len(trials)))
    if not trials:
        hint = (
            " (this is a trial folder: give the job folder above it)"
            if (job / RESULT_FILE).is_file() and (job / "verifier").exists()
            else ""
        )
        raise refuse_input(
            job, f"not a Harbor job folder: no trial folder with a result.json in it{hint}"
        )
    return trials


def read(paths: Sequence[str | Path], options: Options) -> Converted:
    """The run records of Harbor job folders: one per trial folder's ``result.json``."""
    notes = Notes(Harness.HARBOR)
    collector = Collector(MAPPING)
    notes.once(NO_ATTEMPT)
    for job in files_in(paths):
        for folder in _trial_folders(job, notes):
            path = folder / RESULT_FILE
            trial = f"trial {shown_path(folder.name)}"
            try:
                data = parse_json(read_bytes(path))
            except ValueError as error:
                collector.problem(path, trial, None, f"not valid JSON ({error})", None)
                continue
            if not isinstance(data, dict):
                collector.problem(path, trial, None, "must be a JSON object (a trial)", None)
                continue
            collector.add(_Trial(folder.name, data, options, notes), path, trial)
    return collector.converted(notes)
