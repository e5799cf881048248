"""What every harness reader shares: the harness names, the mapping table, the problems a
log can have and the assumptions a mapping had to make.

A reader turns the logs an evaluation harness wrote into run records
(:class:`scoring.models.RunRecord`, as dicts in the field order of the run log) and says,
separately, what it had to assume. Its mapping is one table (:class:`Mapping`): a row per
run field, naming the harness's field and the rule in words, and holding the function that
derives the value. The reader builds each record by running those functions, and the
documentation renders the same rows, so the page cannot say one thing while the code does
another.

Nothing here prints: problems are raised (:class:`LogError`, an
:class:`~scoring.errors.InputError`), assumptions returned.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from decimal import Decimal
from enum import StrEnum
from pathlib import Path
from typing import Any, Generic, TypeVar

from pydantic import ValidationError

from scoring.errors import InputError, Problem, ProblemLog, cut, inert, problems_from, shown
from scoring.models import RFC3339_PATTERN, RunRecord

#: A harness's reward or numeric score counts as a success within this distance of 1 (as
#: τ-bench counts its rewards: a float that should be 1 may be written 0.9999999).
REWARD_TOLERANCE = 1e-6
#: The tolerance as the mapping tables write it (``1e-6``).
TOLERANCE = f"{REWARD_TOLERANCE:.0e}".replace("e-0", "e-")

#: Characters of a path in a message.
_PATH_MAX_CHARS = 200
_RFC3339 = re.compile(RFC3339_PATTERN)


class Harness(StrEnum):
    """The harnesses whose logs ``scoring report --from`` and ``scoring convert`` read."""

    INSPECT = "inspect"
    HARBOR = "harbor"
    TAU_BENCH = "tau-bench"


#: The run record's fields, in the order of the run log (every row of a mapping, in order).
RUN_FIELDS: tuple[str, ...] = tuple(RunRecord.model_fields)


@dataclass(frozen=True, slots=True)
class Options:
    """What the operator told the reader (the command line's options)."""

    #: ``--agent``: the agent_id of every run (τ-bench records name none).
    agent: str | None = None
    #: ``--agent-from`` (Inspect): where the agent_id is read from.
    agent_from: str | None = None
    #: ``--scorer`` (Inspect): the scorer whose value decides success.
    scorer: str | None = None
    #: ``--assume-utc``: a timestamp without a UTC offset is read as UTC (else refused).
    assume_utc: bool = False


class FieldError(Exception):
    """A value the mapping needs is missing or breaks its rule: the field and the rule."""

    def __init__(self, field: str, rule: str) -> None:
        super().__init__(f"{field}: {rule}")
        self.field = field
        self.rule = rule


def shown_path(path: str | Path) -> str:
    """A path as a message names it: inert and cut."""
    return cut(inert(str(path)), _PATH_MAX_CHARS)


@dataclass(frozen=True, slots=True)
class LogProblem(Problem):
    """A problem in a harness log: the file, the record in it (a sample, a trial, a τ-bench
    record), the field and the rule. ``line`` is the line of a JSON Lines file, if any."""

    file: str = ""
    record: str | None = None

    def __str__(self) -> str:
        parts = [shown_path(self.file)] if self.file else []
        if self.record:
            parts.append(self.record)
        if self.field:
            parts.append(self.field)
        return ": ".join([*parts, self.rule])


class LogError(InputError):
    """Harness logs that cannot be converted: every problem names its file and record."""


class Notes:
    """The assumptions a mapping made while it read: said once, or counted over runs."""

    def __init__(self, harness: Harness) -> None:
        self.harness = harness
        self._once: dict[str, None] = {}
        self._counted: Counter[str] = Counter()

    def once(self, text: str) -> None:
        """An assumption about the whole input (said once, in the order first made)."""
        self._once.setdefault(text)

    def count(self, template: str) -> None:
        """An assumption made for one run; ``template`` holds ``{runs}`` (``3 runs``)."""
        self._counted[template] += 1

    def lines(self) -> tuple[str, ...]:
        """One line each, prefixed by the harness's name."""
        counted = (template.format(runs=runs(n)) for template, n in self._counted.items())
        return tuple(f"{self.harness.value}: {text}" for text in [*self._once, *counted])


def runs(count: int) -> str:
    """``1 run``, ``3 runs``: a count of runs in an assumption."""
    return f"{count} run{'' if count == 1 else 's'}"


T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Row(Generic[T]):
    """One row of a mapping: the run field, the harness's field or expression, the rule in
    words (`code` in backticks) and the function that applies it to one harness record."""

    run_field: str
    source: str
    rule: str
    derive: Callable[[T], object] = field(repr=False, compare=False)


@dataclass(frozen=True, slots=True)
class Mapping(Generic[T]):
    """A harness's mapping: a row per run field, in the run log's order."""

    harness: Harness
    rows: tuple[Row[T], ...]

    def __post_init__(self) -> None:
        fields = tuple(row.run_field for row in self.rows)
        if fields != RUN_FIELDS:
            raise ValueError(
                f"the {self.harness.value} mapping must have one row per run field, in "
                f"order {RUN_FIELDS}, not {fields}"
            )

    def record(self, item: T) -> tuple[dict[str, object], list[FieldError]]:
        """The run record of ``item``, and what each row refused (every row is tried)."""
        record: dict[str, object] = {}
        refused: list[FieldError] = []
        for row in self.rows:
            try:
                record[row.run_field] = row.derive(item)
            except FieldError as error:
                refused.append(error)
        return record, refused


@dataclass(frozen=True, slots=True)
class Converted:
    """The run records read from harness logs, and what the mapping had to assume."""

    runs: tuple[dict[str, object], ...]
    assumptions: tuple[str, ...]


class Collector:
    """Builds the run records of one conversion: each checked against the run schema, run
    ids unique over the whole input, every problem kept (the first few listed)."""

    def __init__(self, mapping: Mapping[Any]) -> None:
        self.mapping = mapping
        self.problems = ProblemLog()
        self.runs: list[dict[str, object]] = []
        self._seen: dict[str, str] = {}

    def problem(
        self, file: str | Path, record: str | None, field: str | None, rule: str, line: int | None
    ) -> None:
        """Note one problem of the input."""
        self.problems.add(LogProblem(line, field, rule, str(file), record))

    def add(self, item: object, file: str | Path, record: str, line: int | None = None) -> None:
        """Map one harness record (``record`` names it in messages) into a run."""
        run, refused = self.mapping.record(item)
        for error in refused:
            self.problem(file, record, error.field, error.rule, line)
        if refused:
            return
        try:
            # As JSON, as the run log is read: the record must be a valid line of one.
            RunRecord.model_validate_json(json.dumps(run))
        except ValidationError as error:
            for found in problems_from(error, 0):
                self.problem(file, record, found.field, found.rule, line)
            return
        run_id = str(run["run_id"])
        where = f"{shown_path(file)}: {record}"
        first = self._seen.setdefault(run_id, where)
        if first != where:
            self.problem(
                file,
                record,
                "run_id",
                f"{shown(run_id)} is also the run id of {first}: a run id must be unique",
                line,
            )
            return
        self.runs.append(run)

    def converted(self, notes: Notes) -> Converted:
        """The runs, or :class:`LogError` naming every problem: nothing partial."""
        if self.problems.total:
            raise LogError(self.problems.listed, self.problems.total)
        return Converted(tuple(self.runs), notes.lines())


def refuse_input(file: str | Path, rule: str, record: str | None = None) -> LogError:
    """One problem that stops the whole input (a file that is not the named format)."""
    return LogError([LogProblem(None, None, rule, str(file), record)])


# --- values -----------------------------------------------------------------------------------


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: dict[str, Any] = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError(f"the key {shown(key)} is repeated in one object")
        seen[key] = value
    return seen


def parse_json(data: bytes) -> Any:
    """JSON text as the run log reads it: UTF-8 (a byte-order mark skipped), no NaN or
    Infinity, no key repeated in one object. ``ValueError`` says what is wrong."""
    text = data.decode("utf-8-sig")  # UnicodeDecodeError is a ValueError
    return json.loads(text, object_pairs_hook=_unique_keys, parse_constant=_no_constant)


def read_bytes(path: Path) -> bytes:
    """The bytes of ``path``; a file that cannot be read is a :class:`LogError`."""
    try:
        return path.read_bytes()
    except OSError as error:
        reason = error.strerror or type(error).__name__
        raise refuse_input(path, f"cannot be read: {reason}") from None


def dig(data: object, dotted: str) -> object:
    """The value at ``dotted`` (``a.b.c``) in nested JSON objects; ``None`` where absent."""
    for key in dotted.split("."):
        if not isinstance(data, dict):
            return None
        data = data.get(key)
    return data


def number(value: object, field: str, what: str) -> float:
    """``value`` as a finite JSON number (a boolean is not one)."""
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise FieldError(field, f"must be a number: {what} (got {shown(value)})")
    return float(value)


def is_one(value: float) -> bool:
    """Whether a reward or score counts as a success: within ``REWARD_TOLERANCE`` of 1."""
    return abs(value - 1) <= REWARD_TOLERANCE


def as_written(value: float) -> Decimal:
    """A float as its shortest decimal (what a log wrote), for exact unit conversions."""
    return Decimal(repr(value))


def seconds_to_ms(seconds: float) -> float:
    """Seconds as written, in milliseconds (``0.963`` -> ``963.0``, not ``962.9999…``)."""
    return float(as_written(seconds) * 1000)


def decimal_sum(values: Iterable[float]) -> float:
    """The sum of floats as written (``0.1 + 0.2`` -> ``0.3``)."""
    return float(sum((as_written(v) for v in values), Decimal(0)))


def timestamp(value: object, field: str, options: Options, notes: Notes) -> datetime:
    """An ISO 8601 timestamp; one without a UTC offset only with ``--assume-utc``."""
    if value is None:
        raise FieldError(field, "required: when the run finished (an ISO 8601 timestamp)")
    if not isinstance(value, str):
        raise FieldError(field, f"must be a timestamp (got {shown(value)})")
    try:
        moment = datetime.fromisoformat(value)
    except ValueError:
        raise FieldError(field, f"not an ISO 8601 timestamp (got {shown(value)})") from None
    if moment.tzinfo is None:
        if not options.assume_utc:
            raise FieldError(
                field,
                f"{shown(value)} has no UTC offset: pass --assume-utc to read such "
                "timestamps as UTC",
            )
        notes.count(f"{field} has no UTC offset; read as UTC (--assume-utc) on {{runs}}")
        moment = moment.replace(tzinfo=UTC)
    return moment


def rfc3339(value: object, field: str, options: Options, notes: Notes) -> str:
    """``finished_at`` from a harness timestamp: as written when it is RFC 3339 with an
    offset already, else the same instant written so (``Z`` added under ``--assume-utc``)."""
    moment = timestamp(value, field, options, notes)
    text = str(value)
    for candidate in (text, text + "Z"):
        if _RFC3339.match(candidate) and datetime.fromisoformat(candidate) == moment:
            return candidate
    return moment.isoformat()


def duration_ms(start: object, end: object, field: str) -> float | None:
    """Milliseconds from ``start`` to ``end`` (both ISO 8601, on one clock), or ``None``
    when either is missing."""
    if start is None or end is None:
        return None
    try:
        begun = datetime.fromisoformat(str(start))
        ended = datetime.fromisoformat(str(end))
        if (begun.tzinfo is None) != (ended.tzinfo is None):
            raise TypeError
        elapsed = ended - begun
    except (ValueError, TypeError):
        raise FieldError(
            field, f"must be two ISO 8601 timestamps (got {shown(start)} and {shown(end)})"
        ) from None
    micros = (elapsed.days * 86_400 + elapsed.seconds) * 1_000_000 + elapsed.microseconds
    if micros < 0:
        raise FieldError(field, f"ends before it starts ({shown(start)} to {shown(end)})")
    return float(Decimal(micros) / 1000)


def identifier(value: object, field: str) -> str:
    """A non-empty name (a number is written as its decimal text, as ids often are)."""
    if isinstance(value, bool) or value is None or value == "":
        raise FieldError(field, f"required: a non-empty name or number (got {shown(value)})")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return value
    raise FieldError(field, f"must be a name or a whole number (got {shown(value)})")


def files_in(paths: Sequence[str | Path]) -> list[Path]:
    """The paths as given (a missing one is a :class:`LogError`)."""
    found = []
    for path in map(Path, paths):
        if not path.exists():
            raise refuse_input(path, "no such file or folder")
        found.append(path)
    return found
