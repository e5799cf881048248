"""Whether a JSON Lines run log is clean: every line a run the Python reader accepts, in a
form every engine's JSON reader reads to the same values.

An engine reads a JSON Lines log only once this pass has proven it clean; on any other log
the command line reads it with the Python reader, which names every problem as it always
does. So a log an engine scores is one the methodology accepts, and a log it refuses is
refused in the Python reader's own words.

The pass is the Python reader's own validation of each chunk of lines
(:func:`scoring.reading.chunk_rows`: every field's type and rule, in C, repeated keys
included; :func:`~scoring.reading.status_rules_hold`: the rules that depend on the status;
a chunk those refuse, line by line by the model, as the reader does), without its
accounting; the duplicate ``run_id`` check is left to the engine's ``checks.sql``. It
also refuses, to be safe rather than to be right, what is valid but which an engine's JSON
reader might read otherwise: a carriage return that does not end a line, a ``\\u`` escape
of a surrogate (an engine may replace an unpaired one). Nothing is printed and nothing
raised: a log that cannot be proven is simply not clean.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

from scoring.byte_input import GZIP_MAGIC, RecordKind, record_lines
from scoring.errors import InputError, ProblemLog
from scoring.reading import CHUNK_LINES, chunk_rows, rows_one_by_one, status_rules_hold
from scoring.run_ids import RunIds

# What an engine's JSON reader may read otherwise than Python's (see the module docstring).
_SURROGATE_ESCAPES = (b"\\ud", b"\\uD")
_CARRIAGE_RETURN = b"\r"
_CRLF = b"\r\n"


@dataclass(frozen=True, slots=True)
class Proof:
    """What the pass found: whether the log is clean, how many runs it holds, whether it is
    gzip."""

    clean: bool
    runs: int
    gzip: bool


NOT_CLEAN = Proof(False, 0, False)


def _chunk_runs(chunk: list[bytes], first: int) -> int | None:
    """The runs of a chunk of lines starting at line ``first``; ``None`` if not clean."""
    rows = chunk_rows(chunk)
    if rows is None:
        # As the reader does: line by line, by the model (a line may leave a key out, a
        # line may be blank).
        log = ProblemLog()
        rows = rows_one_by_one(chunk, first, RunIds(), log)
        if log.total:
            return None
    elif not status_rules_hold(rows):
        return None
    joined = b"\n".join(chunk)
    # One scan for a backslash (memchr); escapes are rare, their kinds looked at only then.
    if b"\\" in joined and any(escape in joined for escape in _SURROGATE_ESCAPES):
        return False
    returns = joined.count(_CARRIAGE_RETURN)
    if returns and returns != (joined + b"\n").count(_CRLF):
        return None
    return len(rows)


def _lines_clean(lines: Iterator[bytes]) -> int | None:
    # In the Python reader's chunks (the same C calls per chunk, the same lines).
    runs = lines_read = 0
    while chunk := list(islice(lines, CHUNK_LINES)):
        found = _chunk_runs(chunk, lines_read + 1)
        if found is None:
            return None
        runs += found
        lines_read += len(chunk)
    return runs


def prove(path: Path) -> Proof:
    """Read the log at ``path`` (plain or gzip) once, as the Python reader reads it: is
    it clean, and how many runs."""
    try:
        with path.open("rb") as raw:
            compressed = raw.read(len(GZIP_MAGIC)) == GZIP_MAGIC
            raw.seek(0)
            runs = _lines_clean(record_lines(raw, RecordKind.RUNS))
    except (OSError, EOFError, zlib.error, InputError):
        # Unreadable, a broken gzip stream, another format: the reader says which.
        return NOT_CLEAN
    if not runs:
        return NOT_CLEAN  # an empty log: the reader says "no runs"
    return Proof(True, runs, compressed)
