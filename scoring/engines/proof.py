"""Whether a JSON Lines run log is clean: every line a run the Python reader accepts, in a
form an engine's JSON reader reads to the same values.

An engine reads a JSON Lines log only once it is proven clean; on any other log the
command line reads it with the Python reader, which names every problem as it always
does. So a log an engine scores is one the methodology accepts, and a log it refuses is
refused in the Python reader's own words. Two proofs:

- :func:`count_bytes`, DuckDB's half of its own proof (the other half is SQL:
  ``json_runs.sql`` and ``checks.sql``): one pass over the bytes, in C, for what
  DuckDB's JSON reader does not show. A backslash (an escape: a string's text is then not
  its value), a carriage return that does not end a line, and a head the Python reader
  names as binary send the log to :func:`prove` instead; the lines (DuckDB skips a blank
  one, and would take an object written over two lines as one run) and the commas (its
  reader lets a trailing one through) must be what DuckDB's runs write.
- :func:`prove`, the Python reader's own validation of each chunk of lines
  (:func:`scoring.report.read.chunk_rows`: every field's type and rule, in C, repeated keys
  included; :func:`~scoring.report.read.status_rules_hold`: the rules that depend on the
  status; a chunk those refuse, line by line by the model, as the reader does), without
  its accounting; the duplicate ``run_id`` check is left to the engine's ``checks.sql``.
  It also refuses, to be safe rather than to be right, what is valid but which an
  engine's JSON reader might read otherwise: a carriage return that does not end a line,
  a ``\\u`` escape of a surrogate (an engine may replace an unpaired one).

Nothing is printed and nothing raised: a log that cannot be proven is simply not clean.
"""

from __future__ import annotations

import gzip
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path

import numpy as np

from scoring.errors import InputError, ProblemLog
from scoring.report.byte_input import (
    GZIP_MAGIC,
    SNIFF_MAX_BYTES,
    RecordKind,
    binary_kind,
    record_lines,
)
from scoring.report.read import CHUNK_LINES, chunk_rows, rows_one_by_one, status_rules_hold
from scoring.report.run_ids import UniqueIds

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

# The bytes counted at a time: a count is a loop in C over a block, and two over one that
# stays in the cache (1 MiB) cost less than over one that does not.
_COUNT_BLOCK_BYTES = 1 << 20
_BACKSLASH = b"\\"
_LINE_FEED = b"\n"
_COMMA = b","
# The two bytes counted, as numbers: numpy counts a byte in a block about four times as fast
# as bytes.count, and the count runs beside DuckDB on the same cores.
_LINE_FEED_BYTE = _LINE_FEED[0]
_COMMA_BYTE = _COMMA[0]


@dataclass(frozen=True, slots=True)
class ByteCounts:
    """What :func:`count_bytes` counted: the lines (a last one without its line feed
    included), the commas."""

    lines: int
    commas: int


def _blocks(path: Path) -> Iterator[bytes]:
    with path.open("rb") as raw:
        compressed = raw.read(len(GZIP_MAGIC)) == GZIP_MAGIC
        raw.seek(0)
        stream = gzip.GzipFile(fileobj=raw) if compressed else raw
        while block := stream.read(_COUNT_BLOCK_BYTES):
            yield block


def count_bytes(path: Path) -> ByteCounts | None:
    """The lines and commas of the log at ``path`` (plain or gzip, decompressed), or
    ``None`` where it holds a backslash, a carriage return not before a line feed, or
    starts as the Python reader names binary input (a NUL byte, a format's signature, gzip
    inside gzip), or cannot be read whole."""
    lines = commas = 0
    last = b""
    head = b""
    try:
        for block in _blocks(path):
            if len(head) < SNIFF_MAX_BYTES:
                head += block[: SNIFF_MAX_BYTES - len(head)]
            if _BACKSLASH in block:
                return None
            if _CARRIAGE_RETURN in block:
                returns = block.count(_CARRIAGE_RETURN)
                if returns != block.count(_CRLF) + block.endswith(_CARRIAGE_RETURN):
                    return None
            if last == _CARRIAGE_RETURN and not block.startswith(_LINE_FEED):
                return None
            octets = np.frombuffer(block, dtype=np.uint8)
            lines += int(np.count_nonzero(octets == _LINE_FEED_BYTE))
            commas += int(np.count_nonzero(octets == _COMMA_BYTE))
            last = block[-1:]
    except (OSError, EOFError, zlib.error):
        return None
    if last == _CARRIAGE_RETURN:
        return None
    if head.startswith(GZIP_MAGIC) or b"\x00" in head or binary_kind(head) is not None:
        return None
    return ByteCounts(lines + (last not in (b"", _LINE_FEED)), commas)


def _chunk_runs(chunk: list[bytes], first: int) -> int | None:
    """The runs of a chunk of lines starting at line ``first``; ``None`` if not clean."""
    rows = chunk_rows(chunk)
    if rows is None:
        # As the reader does: line by line, by the model (a line may leave a key out, a
        # line may be blank).
        log = ProblemLog()
        rows = rows_one_by_one(chunk, first, UniqueIds(log))
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
