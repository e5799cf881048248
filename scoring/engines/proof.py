"""Whether a JSON Lines run log is clean: every line a run the Python reader accepts, in a
form every engine's JSON reader reads to the same values.

An engine reads a JSON Lines log only once this pass has proven it clean; on any other log
the command line reads it with the Python reader, which names every problem as it always
does. So a log an engine scores is one the methodology accepts, and a log it refuses is
refused in the Python reader's own words.

The pass is the Python reader's own validation of each chunk of lines
(:func:`scoring.reading.chunk_rows`: every field's type and rule, in C, repeated keys
included; :func:`~scoring.reading.status_rules_hold`: the rules that depend on the status),
without its accounting; the duplicate ``run_id`` check is left to the engine's
``checks.sql``. It also refuses, to be safe rather than to be right, what is valid but
which an engine's JSON reader might read otherwise: a blank line (the chunk is then not
proven), a carriage return that does not end a line, a ``\\u`` escape of a surrogate (an
engine may replace an unpaired one). Nothing is printed and nothing raised: a log that
cannot be proven is simply not clean.
"""

from __future__ import annotations

import gzip
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from scoring.byte_input import GZIP_MAGIC
from scoring.jsonlines import line_chunks
from scoring.reading import chunk_rows, status_rules_hold

# Lines validated together (as the Python reader's chunks: the same C calls per chunk).
PROOF_CHUNK_LINES = 32768
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


def _chunk_clean(chunk: list[bytes]) -> bool:
    rows = chunk_rows(chunk)
    if rows is None or not status_rules_hold(rows):
        return False
    joined = b"\n".join(chunk)
    # One scan for a backslash (memchr); escapes are rare, their kinds looked at only then.
    if b"\\" in joined and any(escape in joined for escape in _SURROGATE_ESCAPES):
        return False
    returns = joined.count(_CARRIAGE_RETURN)
    return not returns or returns == (joined + b"\n").count(_CRLF)


def _lines_clean(stream: BinaryIO) -> int | None:
    runs = 0
    for read in line_chunks(stream, PROOF_CHUNK_LINES):
        if not _chunk_clean(read.lines):
            return None
        runs += len(read.lines)
    return runs


def prove(path: Path) -> Proof:
    """Read the log at ``path`` (plain or gzip) once: is it clean, and how many runs."""
    try:
        with path.open("rb") as raw:
            compressed = raw.read(len(GZIP_MAGIC)) == GZIP_MAGIC
            raw.seek(0)
            if compressed:
                with gzip.GzipFile(fileobj=raw) as unpacked:
                    runs = _lines_clean(unpacked)  # type: ignore[arg-type]
            else:
                runs = _lines_clean(raw)
    except (OSError, EOFError, zlib.error):
        return NOT_CLEAN  # unreadable, or a broken gzip stream: the reader says which
    if not runs:
        return NOT_CLEAN  # an empty log: the reader says "no runs"
    return Proof(True, runs, compressed)
