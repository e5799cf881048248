"""Inspect AI eval logs (``.eval`` and ``.json``) as run records.

Read through ``inspect_ai.log``'s own functions, the stable surface of a format its
maintainers do not freeze: ``read_eval_log(path, header_only=True)`` for the eval's spec
and ``read_eval_log_sample_summaries`` for the samples (summaries, not whole samples: the
messages and events are never loaded). A folder is read as ``list_eval_logs`` lists it:
every ``.eval`` file in it or below, and ``.json`` logs named as Inspect names them.

One run per sample and epoch. ``inspect_ai`` is the ``inspect`` extra
(``pip install -e ".[inspect]"``), imported only when a log is read: the rest of
``scoring`` works without it.
"""

from __future__ import annotations

import zipfile
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import unquote, urlparse

from scoring.errors import cut, inert, shown
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
    decimal_sum,
    files_in,
    identifier,
    is_one,
    refuse_input,
    rfc3339,
    seconds_to_ms,
)
from scoring.models import RunStatus

#: The pinned release of the extra (pyproject.toml), named in the message when it is missing.
INSTALL = 'pip install -e ".[inspect]"'
#: Inspect's letter grades (``inspect_ai.scorer``: CORRECT, INCORRECT, PARTIAL, NOANSWER):
#: a partial answer is not a success, and no answer is a failure.
GRADES: dict[str, bool] = {"C": True, "I": False, "P": False, "N": False}
#: Limits that stop a sample for time: the run timed out. Any other limit (context, message,
#: token, turn, cost, operator, custom) ends a sample that is still scored: completed.
TIME_LIMITS = frozenset({"time", "working"})
#: Characters of inspect_ai's own message quoted in ours.
_CAUSE_MAX_CHARS = 200
#: The file names a log may have.
SUFFIXES = (".eval", ".json")


class InspectMissingError(ImportError):
    """``inspect_ai`` is not installed: its logs cannot be read."""


def inspect_log() -> ModuleType:
    """``inspect_ai.log``, imported now; :class:`InspectMissingError` without the extra."""
    try:
        import inspect_ai.log
    except ImportError as error:
        raise InspectMissingError(
            f"reading Inspect logs needs inspect_ai: {INSTALL}", name="inspect_ai"
        ) from error
    return inspect_ai.log


def available() -> bool:
    """Whether ``inspect_ai`` can be imported."""
    try:
        inspect_log()
    except InspectMissingError:
        return False
    return True


class AgentSource(StrEnum):
    """Where ``--agent-from`` reads the agent_id of an eval log."""

    MODEL = "model"
    SOLVER = "solver"
    TASK_ARG = "task-arg"
    TAG = "tag"


#: The values ``--agent-from`` takes (NAME: a task argument's or a tag's name).
AGENT_FROM_FORMS = ("model", "solver", "task-arg:NAME", "tag:NAME")


def parse_agent_from(text: str) -> tuple[AgentSource, str | None]:
    """``--agent-from``'s value: a source, and the name it needs (``task-arg:NAME``)."""
    source, colon, name = text.partition(":")
    try:
        kind = AgentSource(source)
    except ValueError:
        kind = None
    named = kind in (AgentSource.TASK_ARG, AgentSource.TAG)
    if kind is None or named != bool(colon) or (named and not name):
        raise ValueError(f"must be one of {', '.join(AGENT_FROM_FORMS)} (got {shown(text)})")
    return kind, name if named else None


NO_PRICES = (
    "cost not recorded (no prices configured: model_usage.*.total_cost absent): cost_usd "
    "null on {runs}"
)
NO_USAGE = "cost not recorded (no model usage recorded): cost_usd null on {runs}"
NO_TIME = "latency not recorded (total_time absent): latency_ms null on {runs}"
NO_STEPS = (
    "steps not recorded (a sample summary counts messages and turns, not tool calls): "
    "steps null on {runs}"
)
ERRORED = "errored samples have no score: success null (status failed) on {runs}"
TIMED_OUT = "stopped by a time or working limit: status timeout on {runs}"
OTHER_LIMIT = "stopped by another limit (message, token, ...): completed and scored on {runs}"
UNFINISHED = "samples not completed: status running (not scored) on {runs}"
SEVERAL_TASKS = "logs of several tasks: task ids are the task's name, '/', the sample id"
SEVERAL_SCORERS = "several scorers ({names}): success is read from the first, {first} (--scorer NAME picks another)"  # noqa: E501

#: What the mapping may say on stderr (the templates; ``{runs}`` counts runs).
NOTES: tuple[str, ...] = (
    NO_PRICES,
    NO_USAGE,
    NO_TIME,
    NO_STEPS,
    ERRORED,
    TIMED_OUT,
    OTHER_LIMIT,
    UNFINISHED,
    SEVERAL_TASKS,
    SEVERAL_SCORERS,
)


@dataclass(frozen=True, slots=True)
class _Log:
    """What the samples of one log share."""

    eval_id: str
    task: str
    agent: str
    several_tasks: bool
    options: Options
    notes: Notes
    scorers: list[str]


@dataclass(frozen=True, slots=True)
class _Sample:
    """One sample summary (one epoch of one sample), with its log."""

    log: _Log
    summary: Any  # inspect_ai.log.EvalSampleSummary

    @property
    def finished(self) -> bool:
        return bool(self.summary.completed)


def _sample_id(s: _Sample) -> str:
    return identifier(s.summary.id, "id")


def _run_id(s: _Sample) -> str:
    eval_id = identifier(s.log.eval_id, "eval.eval_id")
    return f"{eval_id}/{_sample_id(s)}/{s.summary.epoch}"


def _task_id(s: _Sample) -> str:
    sample = _sample_id(s)
    return f"{s.log.task}/{sample}" if s.log.several_tasks else sample


def _status(s: _Sample) -> str:
    if not s.finished:
        s.log.notes.count(UNFINISHED)
        return RunStatus.RUNNING.value
    if s.summary.error:
        return RunStatus.FAILED.value
    if s.summary.limit in TIME_LIMITS:
        s.log.notes.count(TIMED_OUT)
        return RunStatus.TIMEOUT.value
    if s.summary.limit:
        s.log.notes.count(OTHER_LIMIT)
    return RunStatus.COMPLETED.value


def _grade(value: object, field: str) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return is_one(float(value))
    if isinstance(value, str) and value in GRADES:
        return GRADES[value]
    raise FieldError(
        field,
        f"must be a grade ({', '.join(GRADES)}), a number or a boolean to decide success "
        f"(got {shown(value)}); --scorer NAME picks another scorer",
    )


def _success(s: _Sample) -> bool | None:
    if not s.finished:
        return None
    scores = s.summary.scores or {}
    for name in scores:
        if name not in s.log.scorers:
            s.log.scorers.append(name)
    wanted = s.log.options.scorer
    name = next(iter(scores), None) if wanted is None else wanted
    if name is not None and name in scores:
        return _grade(scores[name].value, f"scores.{name}.value")
    if s.summary.error:
        s.log.notes.count(ERRORED)
        return None
    if wanted is not None:
        has = ", ".join(scores) or "none"
        raise FieldError(f"scores.{wanted}", f"no score of the scorer --scorer names (has: {has})")
    raise FieldError(
        "scores",
        "a sample that ended without an error must be scored: its score decides success "
        "(score the log first: inspect score LOG)",
    )


def _latency(s: _Sample) -> float | None:
    if s.summary.total_time is None:
        s.log.notes.count(NO_TIME)
        return None
    return seconds_to_ms(s.summary.total_time)


def _cost(s: _Sample) -> float | None:
    usage = s.summary.model_usage or {}
    if not usage:
        s.log.notes.count(NO_USAGE)
        return None
    costs = [model.total_cost for model in usage.values()]
    if any(cost is None for cost in costs):
        s.log.notes.count(NO_PRICES)
        return None
    return decimal_sum(costs)


def _steps(s: _Sample) -> None:
    s.log.notes.count(NO_STEPS)


def _finished_at(s: _Sample) -> str | None:
    if not s.finished:
        return None
    return rfc3339(s.summary.completed_at, "completed_at", s.log.options, s.log.notes)


#: The Inspect AI mapping, one row per run field.
MAPPING: Mapping[_Sample] = Mapping(
    Harness.INSPECT,
    (
        Row(
            "run_id",
            "`eval.eval_id`/`id`/`epoch`",
            "the eval's id (one per task and model of an eval run), the sample id and the "
            "epoch, joined by `/`: unique, as the eval id holds no `/` and the epoch comes last",
            _run_id,
        ),
        Row(
            "agent_id",
            "`eval.model`",
            "the model by default; `--agent-from solver` (the plan's solvers), "
            "`task-arg:NAME`, `tag:NAME` (a tag `NAME=VALUE`) read it elsewhere; `--agent "
            "NAME` names it",
            lambda s: s.log.agent,
        ),
        Row(
            "task_id",
            "`id`",
            "the sample id; when the logs hold several tasks, `eval.task`/`id`",
            _task_id,
        ),
        Row(
            "status",
            "`error`, `limit`, `completed`",
            "an error: failed; a `time` or `working` limit: timeout; any other limit (context, "
            "message, token, turn, cost, operator, custom): completed, and still scored; a "
            "sample not completed: running",
            _status,
        ),
        Row(
            "success",
            "`scores.*.value`",
            "of the first scorer (`--scorer NAME`: that one): `C` true; `I`, `P` (partial) "
            f"and `N` (no answer) false; a number: true within {TOLERANCE} of 1; a boolean as "
            "is; anything else is refused. An errored sample has no score: null; an "
            "unscored sample otherwise is refused",
            _success,
        ),
        Row(
            "latency_ms",
            "`total_time` × 1000",
            "the sample's clock time in seconds (waits included), in milliseconds; null when "
            "not recorded",
            _latency,
        ),
        Row(
            "cost_usd",
            "Σ `model_usage.*.total_cost`",
            "only when every model's `total_cost` is recorded (Inspect writes it where prices "
            "were configured); otherwise null, never 0",
            _cost,
        ),
        Row(
            "steps",
            "—",
            "null: a summary counts messages (`message_count`) and model turns "
            "(`turn_count`), not tool calls",
            _steps,
        ),
        Row(
            "finished_at",
            "`completed_at`",
            "as `inspect_ai` gives it (UTC, with its offset); null on a sample not completed",
            _finished_at,
        ),
    ),
)


# --- files ------------------------------------------------------------------------------------


def _cause(error: BaseException) -> str:
    """The innermost cause's message, on one line: what went wrong, not where."""
    while (error.__cause__ or error.__context__) is not None:
        error = error.__cause__ or error.__context__  # type: ignore[assignment]
    return cut(inert(" ".join(str(error).split()) or type(error).__name__), _CAUSE_MAX_CHARS)


def _local(name: str) -> Path:
    """A path ``list_eval_logs`` names as a ``file://`` URI, as a local path."""
    if name.startswith("file://"):
        return Path(unquote(urlparse(name).path))
    return Path(name)


def log_files(paths: Sequence[str | Path]) -> list[Path]:
    """The logs the paths name: a file as given, a folder as ``list_eval_logs`` lists it."""
    log = inspect_log()
    found: list[Path] = []
    for path in files_in(paths):
        if not path.is_dir():
            found.append(path)
            continue
        listed = sorted(_local(info.name) for info in log.list_eval_logs(str(path)))
        if not listed:
            raise refuse_input(
                path,
                "no Inspect logs in this folder (.eval files, or .json logs named as "
                "Inspect names them)",
            )
        found += listed
    return found


def _check_file(path: Path) -> None:
    """Refuse what is plainly not a log, before ``inspect_ai`` gives a vaguer message."""
    if path.suffix not in SUFFIXES:
        raise refuse_input(path, "not an Inspect log: its name must end in .eval or .json")
    try:
        with path.open("rb") as handle:
            head = handle.read(64).lstrip()
    except OSError as error:
        raise refuse_input(path, f"cannot be read: {error.strerror}") from None
    if path.suffix == ".eval":
        try:
            with zipfile.ZipFile(path) as archive:
                names = set(archive.namelist())
        except zipfile.BadZipFile as error:
            raise refuse_input(
                path, f"not a complete zip archive, as an .eval log is (truncated?): {error}"
            ) from None
        if not names & {"header.json", "_journal/start.json"}:
            raise refuse_input(path, "not an Inspect log: the archive has no header.json")
    elif head.startswith(b"["):
        raise refuse_input(
            path,
            "a JSON list, not an Inspect log (one JSON object); a τ-bench results file? "
            "(--from tau-bench)",
        )
    elif not head.removeprefix(b"\xef\xbb\xbf").startswith(b"{"):
        raise refuse_input(path, "not an Inspect log: not a JSON object")


def _agent(header: Any, options: Options) -> str:
    if options.agent:
        return options.agent
    kind, name = parse_agent_from(options.agent_from or AgentSource.MODEL.value)
    spec = header.eval
    if kind is AgentSource.MODEL:
        return identifier(spec.model, "eval.model")
    if kind is AgentSource.SOLVER:
        solvers = [step.solver for step in getattr(header.plan, "steps", None) or []]
        return identifier(spec.solver or "+".join(solvers), "eval.solver, plan.steps[].solver")
    if kind is AgentSource.TASK_ARG:
        value = (spec.task_args or {}).get(name)
        if isinstance(value, bool) or not isinstance(value, str | int):
            raise FieldError(
                f"eval.task_args.{name}",
                f"--agent-from task-arg:{name} needs the task argument {name}, a name or a "
                f"whole number (got {shown(value)})",
            )
        return str(value)
    values = {
        tag[len(name or "") + 1 :]
        for tag in spec.tags or []
        if isinstance(tag, str) and tag[: len(name or "") + 1] in (f"{name}=", f"{name}:")
    }
    if len(values) != 1:
        raise FieldError(
            "eval.tags",
            f"--agent-from tag:{name} needs one tag {name}=VALUE (found {len(values)})",
        )
    return identifier(values.pop(), "eval.tags")


def _read(function: Any, path: Path, **kwargs: Any) -> Any:
    try:
        return function(str(path), **kwargs)
    except Exception as error:  # inspect_ai's own errors: ValueError, its parser's, pydantic's
        raise refuse_input(path, f"not readable as an Inspect log: {_cause(error)}") from None


def read(paths: Sequence[str | Path], options: Options) -> Converted:
    """The run records of Inspect eval logs: one per sample and epoch."""
    log = inspect_log()
    notes = Notes(Harness.INSPECT)
    collector = Collector(MAPPING)
    files = log_files(paths)
    headers = []
    for path in files:
        _check_file(path)
        headers.append(_read(log.read_eval_log, path, header_only=True))
    several_tasks = len({header.eval.task for header in headers}) > 1
    if several_tasks:
        notes.once(SEVERAL_TASKS)
    scorers: list[str] = []
    for path, header in zip(files, headers, strict=True):
        try:
            agent = _agent(header, options)
        except FieldError as error:
            collector.problem(path, None, error.field, error.rule, None)
            continue
        shared = _Log(
            header.eval.eval_id, header.eval.task, agent, several_tasks, options, notes, scorers
        )
        for summary in _read(log.read_eval_log_sample_summaries, path):
            where = f"sample {shown(summary.id)} epoch {summary.epoch}"
            collector.add(_Sample(shared, summary), path, where)
    if len(scorers) > 1 and options.scorer is None:
        notes.once(SEVERAL_SCORERS.format(names=", ".join(scorers), first=scorers[0]))
    return collector.converted(notes)
