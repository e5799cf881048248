"""The one reader of a run log: bytes in, one :class:`~scoring.report.stats.AgentStats` per agent
out.

One streaming pass in one process (:func:`read_stats`): the lines are cut into chunks, each
chunk validated, its runs accounted for (:class:`scoring.report.stats.LogRuns`), and
every problem named with its line, field and rule; nothing is scored from an input that
has one.

A chunk is decoded and validated in C by msgspec (:func:`chunk_rows`), straight into
:class:`RunRow` structs, with every field's type and constraint of
:class:`scoring.models.RunRecord` and ``CALENDAR_PATTERN`` for ``finished_at``. msgspec is
the compiled decoder chosen for this (see ``benchmarks/bench_report.py``): it validates
while it parses, so no Python runs per line, where orjson or pydantic-core's ``from_json``
parse to dicts that would still have to be checked field by field. A repeated key
is ruled out by counting quotes (:func:`keys_repeated`); the rules that depend on the
status are checked per chunk (:func:`status_rules_hold`). A chunk that fails any of these
(or leaves an optional key out) is read again line by line by the model itself
(:func:`rows_one_by_one`), which names every problem. Duplicate
``run_id`` values are found with :class:`scoring.report.run_ids.RunIds`, 12 bytes a run (its
fingerprint and the line it was first seen on).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from itertools import compress, islice, repeat
from operator import attrgetter, is_, is_not
from typing import BinaryIO

import msgspec

from scoring.errors import ProblemLog
from scoring.models import RunFields, RunRecord, RunRow, RunStatus
from scoring.report.byte_input import RecordKind, record_lines
from scoring.report.collector import collector_paused
from scoring.report.jsonlines import file_bytes, repeated_keys, valid_lines
from scoring.report.run_ids import UniqueIds, start_of
from scoring.report.stats import AgentStats, LogRuns, StatusRuleError

_COMPLETED, _FAILED, _TIMEOUT = RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.TIMEOUT
TERMINAL = (_COMPLETED, _FAILED, _TIMEOUT)

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
# The fast path checks a chunk's timestamps together: joined by "\n" (which no valid
# timestamp holds, and which the join must add exactly len − 1 times), a few hundred at a
# time, against the pattern repeated. One match call instead of one per line (msgspec's
# per-field pattern check took half of its decoding time); a longer run makes Python's
# regular expression engine keep more backtracking state than it saves.
_CALENDAR = CALENDAR_PATTERN.removeprefix("^").removesuffix("$")
_CALENDAR_LINES = re.compile(rf"(?:{_CALENDAR}\n)*{_CALENDAR}\Z")
_STAMPS_PER_MATCH = 512

# The row's fields are the model's, in its order (RunRow is made from RunFields).
ROW_FIELDS = tuple(RunFields.model_fields)
_decode_row = msgspec.json.Decoder(RunRow).decode
_FIELDS = attrgetter(*ROW_FIELDS)
# A struct takes its fields by position (the type checker reads a row as the model).
_new_row: Callable[..., RunRow] = RunRow


def row_of(run: RunFields) -> RunRow:
    """The row of a validated run record."""
    return _new_row(*_FIELDS(run))


_RUN_ID = attrgetter("run_id")
_STATUS = attrgetter("status")
_FINISHED_AT = attrgetter("finished_at")


def rows_one_by_one(chunk: Sequence[bytes], first: int, ids: UniqueIds) -> list[RunRow]:
    """Validate a chunk line by line (it holds a bad or a blank line); problems in line order,
    to ``ids.log``.

    ``first`` is the number of the chunk's first line. Blank lines are skipped.
    """
    validate = RunRecord.__pydantic_validator__.validate_json
    rows: list[RunRow] = []
    for number, run in valid_lines(validate, chunk, first, ids.log):
        if ids.new(run.run_id, number):
            rows.append(row_of(run))
    return rows


def check_new_ids(rows: Sequence[RunRow], first: int, ids: UniqueIds) -> None:
    """Add the rows' ``run_id`` values to ``ids``; a repeat is a problem on its line, naming
    the line its id was first seen on (``first`` is the line of the first row: a chunk that
    passed the fast path has no blank line)."""
    ids.new_all(list(map(_RUN_ID, rows)), first)


def status_rules_hold(rows: Sequence[RunRow]) -> bool:
    """Whether every row keeps :class:`RunRecord`'s rules that depend on the status: a
    terminal run has ``finished_at``.

    In C: only the statuses of the rows that lack a value are looked at.
    """
    values = list(map(_FINISHED_AT, rows))
    if None in values:
        lacking = compress(map(_STATUS, rows), map(is_, values, repeat(None)))
        if any(status in TERMINAL for status in lacking):
            return False
    return True


def chunk_rows(chunk: list[bytes]) -> list[RunRow] | None:
    """The rows of a chunk validated field by field, or ``None`` if a line fails or
    repeats a key.

    Decoded in C by msgspec, every key written (the common case); a chunk it refuses (a bad
    line, a blank one, or a line that leaves an optional key out) is read line by line by
    the model itself.
    """
    try:
        rows = list(map(_decode_row, chunk))
    except (msgspec.ValidationError, msgspec.DecodeError):
        return None
    if not timestamps_valid(rows):
        return None
    return None if keys_repeated(chunk, [len(ROW_FIELDS)] * len(chunk), rows) else rows


def timestamps_valid(rows: Sequence[RunRow]) -> bool:
    """Whether every ``finished_at`` that is not null matches ``CALENDAR_PATTERN``.

    >>> def row(stamp):
    ...     return RunRow("r", "a", "t", RunStatus.QUEUED, None, None, None, None, stamp)
    >>> leap, not_leap = "2028-02-29T00:00:00Z", "2026-02-29T00:00:00Z"
    >>> timestamps_valid([row(leap)]), timestamps_valid([row(not_leap)])
    (True, False)
    >>> timestamps_valid([row(leap + "\\n" + leap)])  # one value, not two
    False
    """
    values = list(map(_FINISHED_AT, rows))
    stamps = list(compress(values, map(is_not, values, repeat(None))))
    match = _CALENDAR_LINES.match
    for start in range(0, len(stamps), _STAMPS_PER_MATCH):
        part = stamps[start : start + _STAMPS_PER_MATCH]
        joined = "\n".join(part)
        if joined.count("\n") != len(part) - 1 or match(joined) is None:
            return False
    return True


# Values a validated row certainly holds as JSON strings: run_id, agent_id, task_id and
# status (an enum read from a string); finished_at too when it is not null. Only fields
# whose values are strings by the model may be counted (see keys_repeated).
_STRING_VALUES_PER_ROW = 4


def _string_tokens(key_counts: Sequence[int], rows: Sequence[RunRow]) -> int:
    """JSON strings written in lines with these keys and values, if no key is repeated."""
    unset = list(map(is_, map(_FINISHED_AT, rows), repeat(None))).count(True)
    return sum(key_counts) + (_STRING_VALUES_PER_ROW + 1) * len(rows) - unset


def keys_repeated(chunk: list[bytes], key_counts: Sequence[int], rows: Sequence[RunRow]) -> bool:
    """Whether a validated chunk repeats a key in a line (``key_counts``: distinct keys).

    Outside strings JSON has no ``"``; inside one, a ``"`` is written ``\\"``. So a line
    holds ``2 × (keys written + string values written) + escaped quotes`` of them. A repeated
    key writes one more key (and maybe one more string value) than the validated row holds,
    so the count can equal ``2 × (distinct keys + string values of the row)`` only when no
    key is repeated (and no quote is escaped). That is one scan of the chunk's lines in C; the
    lines of a chunk that fails it are counted one by one, and a line whose count differs
    is parsed again for its repeats.
    """
    if sum(map(bytes.count, chunk, repeat(b'"'))) == 2 * _string_tokens(key_counts, rows):
        return False
    for line, keys, row in zip(chunk, key_counts, rows, strict=True):
        if line.count(b'"') != 2 * _string_tokens((keys,), [row]) and repeated_keys(line):
            return True
    return False


# Input lines validated and accounted for together. Larger chunks share the per-agent
# work among more rows; each line in flight holds about 1 KiB, and at 65,536 the peak
# memory of a million runs grew beyond the memory target of benchmarks/bench_report.py.
CHUNK_LINES = 32768


def read_stats(
    source: Iterable[bytes] | BinaryIO,
    *,
    on_read: Callable[[int], None] | None = None,
    on_rows: Callable[[int], None] | None = None,
) -> list[AgentStats]:
    """Read a JSON Lines run log once: the stats of every agent, in order of first run.

    ``source`` is a binary stream (an open file, stdin's buffer), read in blocks, or an
    iterable of raw lines; gzip is read, other binary formats are named. Blank lines are
    skipped. ``on_read`` is told the bytes of each block read, ``on_rows`` the lines of
    each chunk accounted for (the command line's progress line).

    Raises :class:`scoring.errors.InputError` naming every problem's line, field and rule;
    a repeated ``run_id`` names the line it was first seen on, confirmed by reading that
    line again where ``source`` can be read twice (:meth:`UniqueIds.confirm`).
    """
    start = start_of(source)
    lines = record_lines(source, RecordKind.RUNS)
    size = file_bytes(source)
    agents = LogRuns()
    log = ProblemLog()
    ids = UniqueIds(log)
    first = 1
    with collector_paused():
        while chunk := list(islice(lines, CHUNK_LINES)):
            if on_read is not None:
                on_read(sum(map(len, chunk)))
            if first == 1 and size:
                # The run_id table sized once for the whole file (lines as long as the
                # first chunk's), instead of rehashed at every doubling.
                ids.seen.reserve(size * len(chunk) // max(1, sum(map(len, chunk))))
            # Each field is checked in C. RunRecord's status rules: while the rows are
            # accounted for, or on the whole chunk once the input is known to be bad. A
            # chunk that breaks one is read again line by line (its run_ids are added to
            # ``ids`` only after the check, so only once).
            rows = chunk_rows(chunk)
            if rows is not None:
                if log.total:
                    rows = rows if status_rules_hold(rows) else None
                else:
                    try:
                        agents.add(rows)
                    except StatusRuleError:
                        rows = None  # the report fails: what was accounted no longer counts
            if rows is None:
                rows = rows_one_by_one(chunk, first, ids)
                if not log.total:
                    agents.add(rows)  # RunRecord's own validation: the rules hold
            else:
                check_new_ids(rows, first, ids)
            first += len(chunk)
            if on_rows is not None:
                on_rows(len(chunk))
        if ids.named and start is not None:
            # The first lines named, read back to confirm each holds the repeated id.
            source.seek(start)  # type: ignore[union-attr]
            ids.confirm(record_lines(source, RecordKind.RUNS))
        log.raise_if_any()
        # Still paused: the stats of thousands of agents are as many objects again, and a
        # collection among them would scan every one (about a third of the read's time).
        return agents.stats()
