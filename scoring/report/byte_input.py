"""What an input is, read from its first bytes, before any line is decoded.

Run logs are often kept gzipped (``runs.jsonl.gz``): a gzip stream is recognised by its
magic bytes, whatever its name (stdin has none), and decompressed as it is read, a block
at a time, so memory stays what it is for plain text and the lines keep the numbers they
have in the decompressed text. Any other binary input (a zip archive, zstd, xz or bzip2
data, an image, UTF-16 text...) is named for what it is, in one problem, instead of a
screenful of "not UTF-8" lines. Then a UTF-8 byte-order mark is skipped
(:func:`scoring.report.jsonlines.without_bom`).

The first non-blank line is also looked at once: when it is not a record of the kind
expected but plainly one of the other kind (a run record given to the outcome score, an
outcome record given to the report), the one problem says which command reads it.

All of this works on the byte stream, so it composes with any decoder of the lines.
"""

from __future__ import annotations

import gzip
import json
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from itertools import chain

from pydantic import BaseModel, ValidationError

from scoring.errors import InputError, Problem
from scoring.models import OutcomeRecord, RunRecord
from scoring.report.jsonlines import UTF8_BOM, without_bom

#: The two magic bytes every gzip member starts with (RFC 1952, section 2.3.1).
GZIP_MAGIC = b"\x1f\x8b"
# Bytes needed to tell what an input is: the longest signature below that starts at
# offset 0 (SQLite's) is 16. No more is waited for, so that a record on stdin is read
# when it arrives; what is already there is looked at up to SNIFF_MAX_BYTES (a tar
# archive writes "ustar" at offset 257, POSIX.1-1988).
SNIFF_MIN_BYTES = 16
SNIFF_MAX_BYTES = 512
# Bytes decompressed or copied at a time.
_BLOCK_BYTES = 1 << 16

# The rule a binary input breaks.
BINARY_RULE_CODE = "binary_input"
# The rule of an input that is plainly the other command's.
OTHER_COMMAND_RULE_CODE = "other_command"


@dataclass(frozen=True, slots=True)
class Signature:
    """A kind of binary input: the bytes it starts with (at ``offset``), and what to do."""

    magic: bytes
    kind: str
    advice: str
    offset: int = 0

    def matches(self, head: bytes) -> bool:
        """Whether ``head`` (the first bytes of an input) has this signature."""
        return head[self.offset : self.offset + len(self.magic)] == self.magic


_DECOMPRESS = "decompress it first"
_GIVE_LOG = "give the run log itself"


def _advised(advice: str, *signatures: tuple[bytes, str]) -> tuple[Signature, ...]:
    """Signatures, ``(magic, kind)`` each, of inputs that take the same ``advice``."""
    return tuple(Signature(magic, kind, advice) for magic, kind in signatures)


#: Binary inputs that are named, not read; longer signatures first where two share a start
#: (UTF-32 LE begins with the UTF-16 LE mark). Sources: each format's specification.
SIGNATURES: tuple[Signature, ...] = (
    *_advised(
        "extract the log from it first (unzip)",
        (b"PK\x03\x04", "a zip archive"),
        (b"PK\x05\x06", "an empty zip archive"),
    ),
    Signature(b"\x28\xb5\x2f\xfd", "zstd-compressed data", f"{_DECOMPRESS} (zstd -d)"),
    Signature(b"\xfd7zXZ\x00", "xz-compressed data", f"{_DECOMPRESS} (xz -d)"),
    Signature(b"BZh", "bzip2-compressed data", f"{_DECOMPRESS} (bunzip2)"),
    Signature(b"\x04\x22\x4d\x18", "lz4-compressed data", f"{_DECOMPRESS} (lz4 -d)"),
    Signature(b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive", "extract the log from it first (7z x)"),
    Signature(b"ustar", "a tar archive", "extract the log from it first (tar -x)", 257),
    *_advised(
        _GIVE_LOG,
        (b"\x89PNG\r\n\x1a\n", "a PNG image"),
        (b"\xff\xd8\xff", "a JPEG image"),
        (b"GIF8", "a GIF image"),
        (b"%PDF-", "a PDF document"),
    ),
    *_advised(
        "export the records as JSON Lines",
        (b"SQLite format 3\x00", "an SQLite database"),
        (b"PAR1", "a Parquet file"),
    ),
    Signature(b"\x7fELF", "an executable (ELF)", _GIVE_LOG),
    *_advised(
        "JSON Lines is UTF-8: convert it first (iconv -t UTF-8)",
        (b"\xff\xfe\x00\x00", "UTF-32 text (little-endian)"),
        (b"\x00\x00\xfe\xff", "UTF-32 text (big-endian)"),
        (b"\xff\xfe", "UTF-16 text (little-endian)"),
        (b"\xfe\xff", "UTF-16 text (big-endian)"),
        # Without a byte-order mark, UTF-16 writes an ASCII "{" or "[" beside a NUL byte.
        (b"{\x00", "UTF-16 text (little-endian)"),
        (b"\x00{", "UTF-16 text (big-endian)"),
    ),
)


class RecordKind(StrEnum):
    """What an input holds, and the command that reads it."""

    RUNS = "runs"
    OUTCOMES = "outcomes"


_MODELS: dict[RecordKind, type[BaseModel]] = {
    RecordKind.RUNS: RunRecord,
    RecordKind.OUTCOMES: OutcomeRecord,
}
# (one record, a whole input, the command that scores it)
_NAMES = {
    RecordKind.RUNS: ("a run record", "a run log", "scoring report"),
    RecordKind.OUTCOMES: ("an outcome record", "a file of outcome records", "scoring outcome"),
}


def binary_kind(head: bytes) -> Signature | None:
    """The binary input ``head`` starts like, if any (gzip is not one: it is read).

    >>> binary_kind(b"PK\\x03\\x04...").kind, binary_kind(b'{"run_id": "r"}')
    ('a zip archive', None)
    """
    return next((s for s in SIGNATURES if s.matches(head)), None)


def _problem(rule: str, line: int | None = None) -> InputError:
    return InputError([Problem(line, None, rule)])


class _Prefixed:
    """A byte stream that first gives back ``head``, then reads on with ``more``."""

    def __init__(self, head: bytes, more: Callable[[int], bytes]) -> None:
        self._head = head
        self._more = more

    def read(self, size: int = -1, /) -> bytes:
        if not self._head:
            return self._more(size)
        if size < 0:
            head, self._head = self._head, b""
            return head + self._more(-1)
        head, self._head = self._head[:size], self._head[size:]
        return head


def _chunk_reader(chunks: Iterator[bytes]) -> Callable[[int], bytes]:
    """``read(size)`` over an iterator of byte chunks (lines, blocks)."""
    pending = b""

    def read(size: int = -1) -> bytes:
        nonlocal pending
        while size < 0 or len(pending) < size:
            chunk = next(chunks, None)
            if chunk is None:
                break
            pending += chunk
        cut = len(pending) if size < 0 else size
        block, pending = pending[:cut], pending[cut:]
        return block

    return read


class _Gunzipped:
    """A gzip stream, decompressed as it is read (a block at a time, as a file is read);
    broken data (a truncated download, a log still being written) is bad input, naming
    how many lines came out whole."""

    def __init__(self, stream: _Prefixed) -> None:
        self._file = gzip.GzipFile(fileobj=stream, mode="rb")  # type: ignore[call-overload]
        self._newlines = 0

    def _broken(self, error: Exception) -> InputError:
        reason = str(error) or type(error).__name__
        return _problem(f"gzip data broken after line {self._newlines} ({reason}) [gzip]")

    def read(self, size: int = -1, /) -> bytes:
        try:
            data: bytes = self._file.read(size)
        except (EOFError, zlib.error, gzip.BadGzipFile) as error:
            raise self._broken(error) from None
        self._newlines += data.count(b"\n")
        return data

    def readline(self) -> bytes:
        try:
            line: bytes = self._file.readline()
        except (EOFError, zlib.error, gzip.BadGzipFile) as error:
            raise self._broken(error) from None
        self._newlines += line.endswith(b"\n")
        return line

    def __iter__(self) -> Iterator[bytes]:
        while line := self.readline():
            yield line


def _lines(source: Iterable[bytes], inside_gzip: bool = False) -> Iterator[bytes]:
    """The text lines of ``source``: a binary file (read, readline) or an iterable of
    byte chunks (usually lines), decompressed if it is gzip."""
    read = getattr(source, "read", None)
    readline = getattr(source, "readline", None)
    if callable(read) and callable(readline):
        # read1: what is there now (one system call), so a pipe is not waited on.
        read_now = getattr(source, "read1", read)
        head: bytes = b""
        while len(head) < SNIFF_MIN_BYTES and (block := read_now(SNIFF_MAX_BYTES - len(head))):
            head += block
        more: Callable[[int], bytes] = read
        lines: Iterator[bytes] | None = None
    else:
        chunks = iter(source)
        pulled: list[bytes] = []
        size = 0
        for chunk in chunks:
            pulled.append(chunk)
            size += len(chunk)
            if size >= SNIFF_MIN_BYTES:
                break
        head = b"".join(pulled)
        lines = chain(pulled, chunks)
        more = _chunk_reader(chunks)  # after the head
    if head.startswith(GZIP_MAGIC):
        if inside_gzip:
            raise _problem(f"gzip inside gzip: decompress it first [{BINARY_RULE_CODE}]")
        return _lines(_Gunzipped(_Prefixed(head, more)), inside_gzip=True)
    signature = binary_kind(head[:SNIFF_MAX_BYTES])
    if signature is not None:
        what = f"gzip-compressed {signature.kind}" if inside_gzip else signature.kind
        rule = f"{what}, not JSON Lines text: {signature.advice} [{BINARY_RULE_CODE}]"
        raise _problem(rule)
    nul = head.find(b"\x00", 0, SNIFF_MAX_BYTES)
    if nul != -1:
        # JSON text never holds a NUL byte (in a string it is written \u0000).
        what = "gzip-compressed binary data" if inside_gzip else "binary data"
        rule = f"{what} (a NUL byte at byte {nul + 1}), not JSON Lines text [{BINARY_RULE_CODE}]"
        raise _problem(rule)
    if lines is not None:
        return lines
    if not head:
        return iter(())
    # The first bytes were read as a block: split them at "\n" as a file's lines are, and
    # finish the last one, which the block may have cut.
    pieces = [piece + b"\n" for piece in head.split(b"\n")]
    pieces[-1] = pieces[-1][:-1] + readline()  # type: ignore[misc]
    if not pieces[-1]:
        pieces.pop()
    return chain(pieces, source)


def _plainly(line: bytes, kind: RecordKind, not_kind: RecordKind) -> bool:
    """Whether ``line`` is a record of ``kind`` that names a field ``not_kind`` has not
    (``{"run_id": "x"}`` could be either, and is not plainly the other)."""
    try:
        _MODELS[kind].__pydantic_validator__.validate_json(line)
    except ValidationError:
        return False
    return bool(set(json.loads(line)) - set(_MODELS[not_kind].model_fields))


def _not_the_other_kind(lines: Iterator[bytes], kind: RecordKind) -> Iterator[bytes]:
    """``lines``, once its first non-blank line is found not to be plainly a record of the
    other kind where this kind was expected."""
    pulled: list[bytes] = []
    for line in lines:
        pulled.append(line)
        if line.strip():
            break
    else:
        return iter(pulled)
    first = pulled[-1].removeprefix(UTF8_BOM)
    expected = _MODELS[kind].__pydantic_validator__
    (other,) = set(RecordKind) - {kind}
    try:
        expected.validate_json(first)
    except ValidationError:
        if _plainly(first, other, kind):
            record, _, command = _NAMES[kind]
            other_record, other_input, other_command = _NAMES[other]
            rule = (
                f"{other_record}, where {record} was expected: this is {other_input}; "
                f"score it with `{other_command}`, not `{command}` [{OTHER_COMMAND_RULE_CODE}]"
            )
            raise _problem(rule, len(pulled)) from None
    return chain(pulled, lines)


def record_lines(source: Iterable[bytes], kind: RecordKind) -> Iterator[bytes]:
    """The JSON Lines of ``source`` as the readers of ``kind`` take them.

    ``source`` is a binary file or an iterable of byte chunks (usually its lines). Gzip is
    decompressed as it is read; other binary input, and an input that is plainly of the
    other kind, raise :class:`scoring.errors.InputError` in one problem; a UTF-8
    byte-order mark at the start is skipped.

    >>> import gzip
    >>> text = b'{"run_id": "r", "judged": {"checklist": 1}}\\n'
    >>> list(record_lines([gzip.compress(text)], RecordKind.OUTCOMES)) == [text]
    True
    """
    return without_bom(_not_the_other_kind(_lines(source), kind))
