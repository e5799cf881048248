"""Validated input records, as the input formats page (docs/inputs.md) specifies them.

Every model is strict (no type coercion), refuses unknown fields, NaN and Infinity, and
refuses negative numbers where the rule says ``≥ 0``.
"""

from __future__ import annotations

import calendar
import dataclasses
import functools
import operator
import re
import types
import typing
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, Union

import annotated_types
import msgspec
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    model_validator,
)
from pydantic.fields import FieldInfo
from pydantic_core import PydanticCustomError

from scoring.errors import shown

# cache_strings="keys": field values (run ids, timestamps) are rarely repeated, so caching
# them only costs time; JSON keys are.
_STRICT = ConfigDict(
    extra="forbid", frozen=True, strict=True, allow_inf_nan=False, cache_strings="keys"
)

NonNegativeFloat = Annotated[float, Field(ge=0)]
NonNegativeInt = Annotated[int, Field(ge=0)]
UnitInterval = Annotated[float, Field(ge=0, le=1)]
Identifier = Annotated[str, Field(min_length=1)]

# RFC 3339 section 5.6 date-time with its offset required ("Z" or ±hh:mm); "T" may be "t" or
# a space (section 5.6, NOTE). Any number of fraction digits; ASCII digits only (pydantic's
# regular expressions would read \d as any Unicode digit). A leap second (:60) has no
# datetime and is refused. The pattern is checked in pydantic's core, before any Python.
RFC3339_PATTERN = (
    r"^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])[Tt ]([01][0-9]|2[0-3]):[0-5][0-9]"
    r":[0-5][0-9](\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$"
)
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def instant_key(timestamp: str) -> tuple[timedelta, str]:
    """Exact ordering key of an RFC 3339 timestamp (already matched by the pattern).

    The instant to the microsecond (offsets applied, so one instant written with two
    offsets gives one key), then the fraction digits beyond the microsecond with trailing
    zeros dropped: compared as strings they order like the numbers they write.

    >>> instant_key("2026-07-01T12:00:00.0000009Z") > instant_key("2026-07-01T14:00:00+02:00")
    True
    """
    text = timestamp[:-1] + "Z" if timestamp[-1] == "z" else timestamp
    since_epoch = datetime.fromisoformat(text) - _EPOCH
    dot = text.find(".", 19)
    if dot == -1:
        return since_epoch, ""
    end = len(text) - (1 if text[-1] == "Z" else 6)
    return since_epoch, text[dot + 7 : end].rstrip("0")


# A timestamp's parts read loosely (any digits where the pattern wants a range), only to say
# which part RFC3339_PATTERN refused: the pattern alone decides what is accepted
# (tests/scoring/test_messages.py checks that a stamp of this shape is accepted exactly when
# every part lies in the range the message names).
_PARTS = re.compile(
    r"(?P<year>[0-9]{4})-(?P<month>[0-9]{2})-(?P<day>[0-9]{2})[Tt ]"
    r"(?P<hour>[0-9]{2}):(?P<minute>[0-9]{2}):(?P<second>[0-9]{2})(?:\.[0-9]+)?(?P<offset>.*)",
    re.DOTALL,
)
_NUMERIC_OFFSET = re.compile(r"[+-](?P<hour>[0-9]{2}):(?P<minute>[0-9]{2})")
#: What each part of a timestamp may be, as the messages name it (RFC 3339 section 5.6).
TIMESTAMP_RANGES = {
    "month": (1, 12),
    "day": (1, 31),
    "hour": (0, 23),
    "minute": (0, 59),
    "second": (0, 59),
}
_OFFSET_RANGES = {"hour": TIMESTAMP_RANGES["hour"], "minute": TIMESTAMP_RANGES["minute"]}
#: The rule of a timestamp whose shape is wrong (not one part), with an example.
TIMESTAMP_SHAPE = "must be an RFC 3339 timestamp with an offset, e.g. 2026-07-01T12:00:00Z"
#: The rule of a timestamp without its offset.
NO_OFFSET = "has no UTC offset: add Z or ±hh:mm"


def _out_of_range(name: str, digits: str, bounds: tuple[int, int]) -> str | None:
    low, high = bounds
    if low <= int(digits) <= high:
        return None
    return f"{name} must be {low:0{len(digits)}d}–{high:0{len(digits)}d}, not {digits}"


def timestamp_problem(text: str) -> str:
    """What is wrong with a timestamp ``RFC3339_PATTERN`` refused: the first part out of
    its range, a missing or malformed offset, a digit that is not ASCII; else its shape.

    >>> timestamp_problem("2026-07-01T25:00:00Z")
    'hour must be 00–23, not 25'
    >>> timestamp_problem("2026-07-01T12:00:00")
    'has no UTC offset: add Z or ±hh:mm'
    """
    for position, char in enumerate(text, 1):
        if char.isdigit() and not char.isascii():
            return f"digits must be ASCII 0–9, not {shown(char)} (character {position})"
    parts = _PARTS.fullmatch(text)
    if parts is None:
        return TIMESTAMP_SHAPE
    for name, bounds in TIMESTAMP_RANGES.items():
        if wrong := _out_of_range(name, parts[name], bounds):
            return wrong
    offset = parts["offset"]
    if not offset:
        return NO_OFFSET
    if offset in ("Z", "z"):
        return TIMESTAMP_SHAPE  # every part in range: not reached for a stamp of this shape
    numeric = _NUMERIC_OFFSET.fullmatch(offset)
    if numeric is None:
        return f"offset must be Z or ±hh:mm, not {shown(offset)}"
    for name, bounds in _OFFSET_RANGES.items():
        if wrong := _out_of_range(f"offset {name}", numeric[name], bounds):
            return wrong
    return TIMESTAMP_SHAPE


def _real_date(value: str) -> str:
    # The pattern allows 2026-02-30 and year 0000; the calendar does not.
    try:
        instant_key(value)
    except ValueError:
        raise PydanticCustomError("datetime_invalid", _no_such_date(value)) from None
    return value


def _no_such_date(value: str) -> str:
    """Why a stamp the pattern accepts is no date.

    >>> _no_such_date("2026-02-30T00:00:00Z")
    '2026-02-30 does not exist: month 02 of 2026 has 28 days'
    """
    year, month = int(value[:4]), int(value[5:7])
    if year < 1:
        return f"year must be 0001–9999, not {value[:4]}"
    days = calendar.monthrange(year, month)[1]
    return f"{value[:10]} does not exist: month {value[5:7]} of {year} has {days} days"


def _timestamp(value: object, handler: ValidatorFunctionWrapHandler) -> str:
    """The pattern (in pydantic's core), then the calendar; a refusal names the part."""
    try:
        text: str = handler(value)
    except ValidationError as error:
        if isinstance(value, str) and error.errors()[0]["type"] == "string_pattern_mismatch":
            raise PydanticCustomError(
                "rfc3339", "{problem}", {"problem": timestamp_problem(value)}
            ) from None
        raise
    return _real_date(text)


Timestamp = Annotated[str, StringConstraints(pattern=RFC3339_PATTERN), WrapValidator(_timestamp)]


class RunStatus(StrEnum):
    """Status of a run; the last three are terminal."""

    QUEUED = "queued"
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"
    TIMEOUT = "timeout"

    @property
    def terminal(self) -> bool:
        """Whether the run has finished (completed, failed or timed out)."""
        return self in TERMINAL_STATUSES


TERMINAL_STATUSES = frozenset({RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.TIMEOUT})
_COMPLETED, _FAILED, _TIMEOUT = RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.TIMEOUT


def _required(field: str, status: str) -> PydanticCustomError:
    return PydanticCustomError(
        "required_for_status",
        "required (not null) on a {status} run",
        {"field": field, "status": status},
    )


class RunFields(BaseModel):
    """The fields of a run record, each checked on its own (not against the status).

    The report validates its hot path with this model and checks the status rules of
    :class:`RunRecord` on whole chunks at once; a chunk that breaks one is validated again,
    line by line, with :class:`RunRecord` itself.
    """

    model_config = _STRICT

    run_id: Identifier
    agent_id: Identifier
    task_id: Identifier
    status: RunStatus
    success: bool | None = None
    latency_ms: NonNegativeFloat | None = None
    cost_usd: NonNegativeFloat | None = None
    steps: NonNegativeInt | None = None
    finished_at: Timestamp | None = None


class RunRecord(RunFields):
    """One run of an agent on a task: a line of the ``report`` input."""

    @model_validator(mode="after")
    def _required_by_status(self) -> RunRecord:
        # latency_ms and cost_usd may be null on any run (from 1.3.0, docs/inputs.md):
        # a harness that records no cost leaves it unrecorded, never 0.
        status = self.status
        if status is not _COMPLETED and status is not _FAILED and status is not _TIMEOUT:
            return self
        if self.finished_at is None:
            raise _required("finished_at", status.value)
        return self


#: The bounds msgspec checks as pydantic does (``msgspec.Meta`` takes each by the same name).
_BOUNDS = (
    annotated_types.Ge,
    annotated_types.Gt,
    annotated_types.Le,
    annotated_types.Lt,
    annotated_types.MinLen,
    annotated_types.MaxLen,
)


def _decoded(annotation: Any) -> Any:
    """The msgspec type of a model field's annotation: its types and its bounds.

    ``ge``/``gt``/``le``/``lt`` and ``min_length``/``max_length`` become
    :class:`msgspec.Meta`; a pattern is left to the reader, which checks a whole chunk's
    timestamps at once (``scoring.report.read.CALENDAR_PATTERN``), and a validator function
    is pydantic's own. Any other constraint stops the import: a bound added to the model
    can never be dropped from the decoder without a word.
    """
    origin = typing.get_origin(annotation)
    if origin is Annotated:
        base, *extras = typing.get_args(annotation)
        bounds: dict[str, Any] = {}
        for extra in extras:
            for item in extra.metadata if isinstance(extra, FieldInfo) else [extra]:
                if isinstance(item, StringConstraints):
                    set_bounds = {
                        k: v for k, v in dataclasses.asdict(item).items() if v is not None
                    }
                    if set(set_bounds) - {"pattern"}:
                        raise TypeError(f"no msgspec form for {item!r}")
                elif isinstance(item, annotated_types.BaseMetadata) and item.__class__ in _BOUNDS:
                    bounds.update(dataclasses.asdict(item))
                elif not isinstance(item, WrapValidator):
                    raise TypeError(f"no msgspec form for {item!r}")
        decoded = _decoded(base)
        return Annotated[decoded, msgspec.Meta(**bounds)] if bounds else decoded
    if origin in (Union, types.UnionType):
        return functools.reduce(
            operator.or_, (_decoded(arg) for arg in typing.get_args(annotation))
        )
    return annotation


def _field_type(info: FieldInfo) -> Any:
    """A field's annotation with the bounds pydantic moved into its metadata put back."""
    if not info.metadata:
        return _decoded(info.annotation)
    return _decoded(Annotated[(info.annotation, *info.metadata)])


if TYPE_CHECKING:
    # For the type checker, a row has the model's fields and types (it is made from them).
    RunRow = RunFields
else:
    RunRow = msgspec.defstruct(
        "RunRow",
        [(name, _field_type(info)) for name, info in RunFields.model_fields.items()],
        module=__name__,
        forbid_unknown_fields=True,
        frozen=True,
        gc=False,
    )
    RunRow.__doc__ = """A run as the report reads it: :class:`RunFields`' fields, types and
    bounds, made from the model itself and decoded by msgspec in C (one schema of a run:
    tests/scoring/test_run_schema.py reads both back field by field).

    As a decoding target every key is required (a line that leaves one out is read by
    pydantic, see ``scoring.report.read.chunk_rows``); ``finished_at``'s pattern is checked on
    the chunk's timestamps together. No garbage-collector tracking (``gc=False``): a row
    holds only strings, numbers and an enum member, never a cycle."""


class Role(StrEnum):
    """What a verification entry checks."""

    OBJECTIVE = "objective"
    SAFEGUARD = "safeguard"


class Severity(StrEnum):
    """How bad it is when a safeguard does not hold."""

    RECOVERABLE = "recoverable"
    CATASTROPHIC = "catastrophic"


class CheckStatus(StrEnum):
    """Result of one verification entry; ``error`` means it could not be evaluated."""

    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"


class VerificationEntry(BaseModel):
    """One deterministic check of a run: an objective or a safeguard."""

    model_config = _STRICT

    name: Identifier
    role: Role
    severity: Severity | None = None
    status: CheckStatus
    weight: float = Field(default=1.0, gt=0)

    @model_validator(mode="after")
    def _severity_matches_role(self) -> VerificationEntry:
        if self.role is Role.SAFEGUARD and self.severity is None:
            raise PydanticCustomError(
                "severity_required",
                "required on a safeguard (recoverable or catastrophic)",
                {"field": "severity"},
            )
        if self.role is Role.OBJECTIVE and self.severity is not None:
            raise PydanticCustomError(
                "severity_forbidden",
                "must be absent on an objective",
                {"field": "severity"},
            )
        return self


class Judged(BaseModel):
    """Readings from a judge, each in [0, 1]; used only where no deterministic check applies."""

    model_config = _STRICT

    checklist: UnitInterval | None = None
    outcome_validity: UnitInterval | None = None
    recoverable: UnitInterval | None = None


class Efficiency(BaseModel):
    """Efficiency of a run, reported beside the outcome score and never part of it."""

    model_config = _STRICT

    latency_sec: NonNegativeFloat | None = None
    input_tokens: NonNegativeInt | None = None
    output_tokens: NonNegativeInt | None = None
    cached_tokens: NonNegativeInt | None = None
    reasoning_tokens: NonNegativeInt | None = None
    total_tokens: NonNegativeInt | None = None


class OutcomeRecord(BaseModel):
    """One run's verification results: a line of the ``outcome`` input."""

    model_config = _STRICT

    run_id: Identifier
    verification: list[VerificationEntry] = Field(default_factory=list)
    judged: Judged | None = None
    efficiency: Efficiency | None = None
