"""How the agent report (:mod:`scoring.report`) reads its input: a chunk of lines at a time.

A chunk is validated in C straight into row tuples (:func:`_rows`, with every field's
type and constraint of :class:`scoring.models.RunRecord` and ``CALENDAR_PATTERN`` for
``finished_at``); a repeated key is ruled out by counting quotes (:func:`_keys_repeated`);
the rules that depend on the status are checked per chunk (:func:`_status_rules_hold`).
A chunk that fails any of these is read again line by line (:func:`_one_by_one`), which
names every problem. Duplicate ``run_id`` values are found with
:class:`scoring.run_ids.RunIds`, 8 bytes a run. The names are private to the report, which
imports them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from operator import attrgetter, itemgetter
from typing import Annotated, Any

from pydantic import StringConstraints, TypeAdapter, ValidationError, with_config
from typing_extensions import TypedDict

from scoring.errors import ProblemLog
from scoring.jsonlines import repeated_keys, valid_lines
from scoring.models import RunRecord, RunStatus, _RunFields
from scoring.run_ids import RunIds, duplicate_problem

_COMPLETED, _FAILED, _TIMEOUT = RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.TIMEOUT

# A run as the report reads it, one tuple built in C: (agent_id, status, success, task_id,
# finished_at, latency_ms, cost_usd, steps, run_id). Taking it right after validation lets
# the model go while it is still in the CPU cache.
_ROW_FIELDS = (
    "agent_id",
    "status",
    "success",
    "task_id",
    "finished_at",
    "latency_ms",
    "cost_usd",
    "steps",
    "run_id",
)
_ROW = attrgetter(*_ROW_FIELDS)
_Row = tuple[
    str, RunStatus, bool | None, str, str | None, float | None, float | None, int | None, str
]
_ROW_RUN_ID = itemgetter(8)


def _one_by_one(chunk: Sequence[bytes], first: int, seen: RunIds, log: ProblemLog) -> list[_Row]:
    """Validate a chunk line by line (it holds a bad or a blank line); problems in line order.

    ``first`` is the number of the chunk's first line. Blank lines are skipped.
    """
    validate = RunRecord.__pydantic_validator__.validate_json
    rows: list[_Row] = []
    for number, run in valid_lines(validate, chunk, first, log):
        if seen.add(run.run_id):
            rows.append(_ROW(run))
        else:
            log.add(duplicate_problem(run.run_id, number))
    return rows


def _status_rules_hold(rows: list[_Row]) -> bool:
    """Whether every row keeps :class:`RunRecord`'s rules that depend on the status: a
    terminal run has ``finished_at``, a completed one also ``latency_ms`` and ``cost_usd``."""
    terminal = [r for r in rows if r[1] is _COMPLETED or r[1] is _FAILED or r[1] is _TIMEOUT]
    broken = [
        r
        for r in terminal
        if r[4] is None or (r[1] is _COMPLETED and (r[5] is None or r[6] is None))
    ]
    return not broken


# The fast path's reading of ``finished_at``: models.Timestamp's RFC 3339 pattern with the
# calendar written into it (day of month, leap years, years 0001 to 9999), so that no Python
# runs per line. A line it refuses is read again by the model, whose check names the problem;
# tests/scoring/test_report.py checks that both accept exactly the same timestamps.
# ASCII digits only: pydantic's regular expressions read \d as any Unicode digit.
_D = "[0-9]"
_YEAR = rf"(?:{_D}{{3}}[1-9]|{_D}{{2}}[1-9]{_D}|{_D}[1-9]{_D}{{2}}|[1-9]{_D}{{3}})"
_MONTH_DAY = (
    r"(?:(?:0[1-9]|1[0-2])-(?:0[1-9]|1[0-9]|2[0-8])"
    r"|(?:0[13-9]|1[0-2])-(?:29|30)"
    r"|(?:0[13578]|1[02])-31)"
)
_LEAP_DAY = (
    rf"(?:{_D}{{2}}(?:0[48]|[2468][048]|[13579][26])|(?:0[48]|[2468][048]|[13579][26])00)-02-29"
)
CALENDAR_PATTERN = (
    rf"^(?:{_YEAR}-{_MONTH_DAY}|{_LEAP_DAY})[Tt ]([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]"
    r"(\.[0-9]+)?([Zz]|[+-]([01][0-9]|2[0-3]):[0-5][0-9])$"
)


def _dict_validator() -> Callable[[bytes], dict[str, Any]]:
    """Validation of one line straight into a dict, with no model instance to build.

    The fields, types, constraints and configuration are those of ``_RunFields``, except
    that every key is required (a line that leaves an optional field out fails here and is
    validated again with ``_RunFields`` itself) and ``finished_at`` is checked by
    ``CALENDAR_PATTERN`` alone.
    """
    fields = {
        name: Annotated[(info.annotation, *info.metadata)] if info.metadata else info.annotation
        for name, info in _RunFields.model_fields.items()
    }
    fields["finished_at"] = Annotated[str, StringConstraints(pattern=CALENDAR_PATTERN)] | None
    every_key = with_config(_RunFields.model_config)(TypedDict("_EveryKey", fields))  # type: ignore[operator]
    return TypeAdapter(every_key).validator.validate_json


_validate_every_key = _dict_validator()
_DICT_ROW = itemgetter(*_ROW_FIELDS)


def _rows(chunk: list[bytes]) -> list[_Row] | None:
    """The rows of a chunk validated field by field, or ``None`` if a line fails or
    repeats a key."""
    try:
        rows = list(map(_DICT_ROW, map(_validate_every_key, chunk)))
        key_counts: Sequence[int] = [len(_ROW_FIELDS)] * len(chunk)
    except ValidationError:
        # A key left out (allowed), a bad line or a blank one.
        try:
            models = list(map(_RunFields.__pydantic_validator__.validate_json, chunk))
        except ValidationError:
            return None
        rows = list(map(_ROW, models))
        key_counts = list(map(len, map(_FIELDS_SET, models)))
    return None if _keys_repeated(chunk, key_counts, rows) else rows


_FIELDS_SET = attrgetter("model_fields_set")
_FINISHED_AT = itemgetter(4)
# Values a validated row certainly holds as JSON strings: run_id, agent_id, task_id and
# status (an enum read from a string); finished_at too when it is not null. Only fields
# whose values are strings by the model may be counted (see _keys_repeated).
_STRING_VALUES_PER_ROW = 4


def _string_tokens(key_counts: Sequence[int], rows: list[_Row]) -> int:
    """JSON strings written in lines with these keys and values, if no key is repeated."""
    unset = list(map(_FINISHED_AT, rows)).count(None)
    return sum(key_counts) + (_STRING_VALUES_PER_ROW + 1) * len(rows) - unset


def _keys_repeated(chunk: list[bytes], key_counts: Sequence[int], rows: list[_Row]) -> bool:
    """Whether a validated chunk repeats a key in a line (``key_counts``: distinct keys).

    Outside strings JSON has no ``"``; inside one, a ``"`` is written ``\\"``. So a line
    holds ``2 × (keys written + string values written) + escaped quotes`` of them. A repeated
    key writes one more key (and maybe one more string value) than the validated row holds,
    so the count can equal ``2 × (distinct keys + string values of the row)`` only when no
    key is repeated (and no quote is escaped). That is two scans of the chunk in C; the
    lines of a chunk that fails it are counted one by one, and a line whose count differs
    is parsed again for its repeats.
    """
    joined = b"".join(chunk)
    if joined.count(b'"') == 2 * _string_tokens(key_counts, rows):
        return False
    for line, keys, row in zip(chunk, key_counts, rows, strict=True):
        if line.count(b'"') != 2 * _string_tokens((keys,), [row]) and repeated_keys(line):
            return True
    return False
