"""Duplicate ``run_id`` detection, once, for the report and the outcome paths alike.

A ``run_id`` is remembered by a 64-bit BLAKE2b fingerprint (:func:`fingerprints`), not by
the string, beside the line it was first seen on (which a repeat's message names): memory
stays a small constant per record (no Python object per id) and the codes are the same in
every process, unlike Python's salted ``hash``. The same id always has the same code, so
no duplicate is ever missed; two different ids can share one, and would then be refused as
a duplicate (where the input can be read again, named as a shared fingerprint instead:
:meth:`UniqueIds.confirm`). How likely that is follows from the width of what a slot keeps,
:data:`DISTINGUISHING_BITS` (:func:`collision_odds`, said once in :data:`COLLISION_ODDS`,
which the README and the inputs page quote).
"""

from __future__ import annotations

import hashlib
import math
import sys
from array import array
from collections import deque
from collections.abc import Iterable, Iterator, Sequence
from contextlib import suppress
from dataclasses import dataclass
from fractions import Fraction
from itertools import islice, repeat

import msgspec
import numpy as np

from scoring.errors import Problem, ProblemLog, shown
from scoring.numeric import number_text

#: Bytes of a ``run_id`` fingerprint (a BLAKE2b digest of this size).
FINGERPRINT_BYTES = 8
#: Bits of a fingerprint.
FINGERPRINT_BITS = 8 * FINGERPRINT_BYTES
#: Bits that tell two ids apart: a slot holds ``fingerprint | 1`` (0 marks an empty slot),
#: so the lowest bit is lost.
DISTINGUISHING_BITS = FINGERPRINT_BITS - 1
#: The run count the odds are quoted at: the size of the largest log the benchmarks time
#: (``benchmarks/bench_report.py``).
ODDS_REFERENCE_RUNS = 1_000_000

# A fresh BLAKE2b state of the fingerprint's size, copied for each key: a copy costs about
# two thirds of a construction (which parses its keyword arguments and sets the parameter
# block up again), and copy, update and digest are each mapped over a batch in C.
_EMPTY = hashlib.blake2b(digest_size=FINGERPRINT_BYTES)
_COPY, _UPDATE, _DIGEST = hashlib.blake2b.copy, hashlib.blake2b.update, hashlib.blake2b.digest
# Keys hashed together: the states of a batch are alive at once (a few hundred bytes each).
_HASH_BATCH = 4096
# Keys probed together by add_all, and the bits of a position among them.
_PROBE_BITS = 16
PROBE_KEYS = 1 << _PROBE_BITS
# Slots of a new table (a power of two), and its bits.
_START_SLOTS_BITS = 10


def batched(items: Iterable[bytes], size: int) -> Iterator[list[bytes]]:
    """``items`` in lists of ``size`` (the last one shorter)."""
    items = iter(items)
    while batch := list(islice(items, size)):
        yield batch


def _digests(keys: list[bytes]) -> bytes:
    """The 8-byte BLAKE2b digests of ``keys``, joined."""
    states = list(map(_COPY, repeat(_EMPTY, len(keys))))
    deque(map(_UPDATE, states, keys), maxlen=0)
    return b"".join(map(_DIGEST, states))


def fingerprints(keys: Iterable[str]) -> list[int]:
    """The 64-bit BLAKE2b fingerprint of each key, as an unsigned integer; in C throughout.

    >>> fingerprints(["run-1"]) == fingerprints(["run-1"]) != fingerprints(["run-2"])
    True
    """
    # surrogatepass: a key is any str (the run logs cannot hold lone surrogates, but the
    # library may be called with anything) and must never fail to encode.
    encoded = map(str.encode, keys, repeat("utf-8"), repeat("surrogatepass"))
    # The digests read as one array of 8-byte words: one conversion for the whole batch
    # instead of an int.from_bytes call per key. Digests are big-endian numbers, so the
    # words are swapped on a little-endian machine: the same values everywhere.
    codes = array("Q", b"".join(map(_digests, batched(encoded, _HASH_BATCH))))
    if sys.byteorder == "little":
        codes.byteswap()
    return codes.tolist()


def collision_odds(runs: int) -> Fraction:
    """At most the probability that two of ``runs`` different ids share a code: the
    ``C(runs, 2)`` pairs, each sharing one with probability ``2^-DISTINGUISHING_BITS``
    (the union bound of the birthday problem), ``C(n, 2) / 2^63``.

    >>> collision_odds(2) == Fraction(1, 2**63)
    True
    >>> float(collision_odds(ODDS_REFERENCE_RUNS)) < 6e-8
    True
    """
    return Fraction(math.comb(runs, 2), 2**DISTINGUISHING_BITS)


def odds_in_words(odds: Fraction) -> str:
    """``odds`` as "under k in 10^m": the smallest whole k over the power of ten that makes
    it a one-digit count (thousands grouped).

    >>> odds_in_words(Fraction(542, 10**10))
    'under 6 in 100,000,000'
    """
    scale = 10 ** math.ceil(-math.log10(odds)) if odds < 1 else 1
    count = math.ceil(odds * scale)
    if count >= 10:
        scale //= 10
        count = math.ceil(odds * scale)
    return f"under {count} in {number_text(scale, grouping=True)}"


#: The collision odds, said once: what the README and the inputs page quote.
COLLISION_ODDS = (
    f"two different ids share a fingerprint with probability at most n(n − 1)/2 ÷ "
    f"2^{DISTINGUISHING_BITS} for n runs, "
    f"{odds_in_words(collision_odds(ODDS_REFERENCE_RUNS))} at "
    f"{number_text(ODDS_REFERENCE_RUNS, grouping=True)} runs"
)


#: The largest line number a slot keeps in 4 bytes; a longer input widens every slot's line
#: to 8 bytes (a log of 2^32 lines would need a table of tens of gibibytes anyway).
_NARROW_LINE_MAX = 2**32 - 1


def duplicate_problem(run_id: str, line: int, first_line: int) -> Problem:
    """The problem of ``run_id`` repeated on ``line``, first seen on ``first_line``: the one
    wording of both readers.

    >>> str(duplicate_problem("r7", 9, 3))
    "line 9: run_id: duplicate run_id 'r7', first on line 3 [unique]"
    """
    return Problem(
        line, "run_id", f"duplicate run_id {shown(run_id)}, first on line {first_line} [unique]"
    )


def collision_problem(run_id: str, line: int, other_id: str, other_line: int) -> Problem:
    """The problem of two different ids that share a fingerprint (see :data:`COLLISION_ODDS`):
    the input is refused as if ``run_id`` were repeated, and the message says why.

    >>> str(collision_problem("a", 9, "b", 3))  # doctest: +NORMALIZE_WHITESPACE
    "line 9: run_id: run_id 'a' shares its fingerprint with run_id 'b' of line 3 (two ids,
    one fingerprint): give one of them another run_id [fingerprint]"
    """
    return Problem(
        line,
        "run_id",
        f"run_id {shown(run_id)} shares its fingerprint with run_id {shown(other_id)} of line "
        f"{other_line} (two ids, one fingerprint): give one of them another run_id [fingerprint]",
    )


class RunIds:
    """An open-addressing set of ``run_id`` fingerprints, each with the line it was first
    seen on: 8 bytes a slot for the code and 4 for the line (8 past line 2^32 − 1).

    A slot holds ``fingerprint(run_id) | 1`` (never 0, the empty slot). A code's home slot
    is given by its high bits, so a table rehashed in slot order sweeps memory in one
    direction. A batch (:meth:`add_all`, the report's chunks, and the rehash when the table
    grows) probes in numpy, all its keys at once; one key (:meth:`first`) in Python.
    """

    def __init__(self) -> None:
        size = 1 << _START_SLOTS_BITS
        # Zeros by repetition: no temporary of the table's size (bytes(n) would be one).
        self._slots = array("Q", [0]) * size
        self._lines = array("I", [0]) * size
        self._mask = size - 1
        self._shift = FINGERPRINT_BITS - _START_SLOTS_BITS
        self._used = 0

    def reserve(self, count: int) -> None:
        """Make room for ``count`` keys in all (growing now, not while they are added)."""
        while count * 3 > self._mask * 2:
            self._grow()

    def add_all(self, keys: Iterable[str], first_line: int = 1) -> list[tuple[int, int]]:
        """Add every key, the first on line ``first_line`` and each on the next line; the
        position (0-based) of each key that was already present (in the set, or earlier in
        ``keys``) with the line it was first seen on.

        The whole batch probes the table at once, in numpy, its keys ordered by home slot
        (in input order within one): every key still looking reads its slot, keys that find
        their own code are repeats (and read its line), and of the keys at one empty slot
        the first takes it (with its line) and the others look again. Keys move one slot at
        a time, so they stay in slot order (they are ordered again only after wrapping
        around the table's end); a code repeated in a batch keeps its places' order, so its
        first place is the new one when the code is new.
        """
        codes = np.array(fingerprints(keys), dtype=np.uint64) | np.uint64(1)
        self.reserve(self._used + len(codes))  # room for the whole batch: no growing
        self._fit(first_line + len(codes))
        found: list[tuple[int, int]] = []
        for start in range(0, len(codes), PROBE_KEYS):
            piece = codes[start : start + PROBE_KEYS]
            numbers = np.arange(len(piece), dtype=np.uint64) + np.uint64(first_line + start)
            found += [(start + position, line) for position, line in self._probe(piece, numbers)]
        return found

    def _probe(self, codes: np.ndarray, numbers: np.ndarray) -> list[tuple[int, int]]:
        """:meth:`add_all` of at most ``PROBE_KEYS`` codes on lines ``numbers``, in a table
        with room for them."""
        # Views of the table: what is written here is written there.
        slots = np.frombuffer(self._slots, dtype=np.uint64)
        lines = np.frombuffer(self._lines, dtype=np.dtype(f"u{self._lines.itemsize}"))
        mask, one = np.uint64(self._mask), np.uint64(1)
        repeated = np.zeros(len(codes), dtype=bool)
        first_lines = np.zeros(len(codes), dtype=np.uint64)
        at = (codes >> np.uint64(self._shift)) & mask
        # Ordered by (slot, position), packed into one word: a plain sort of distinct
        # numbers, several times faster than a stable argsort. The slot takes the top
        # 64 − shift bits, the position the low _PROBE_BITS (a table of 2^48 slots would be
        # two pebibytes).
        packed = np.sort(at << np.uint64(_PROBE_BITS) | np.arange(len(codes), dtype=np.uint64))
        looking = (packed & np.uint64(PROBE_KEYS - 1)).astype(np.intp)  # positions looking
        at, wanted = at[looking], codes[looking]
        while looking.size:
            held = slots[at]
            found = held == wanted
            repeated[looking[found]] = True
            first_lines[looking[found]] = lines[at[found]]
            vacant = held == 0
            takers = vacant.copy()
            takers[1:] &= at[1:] != at[:-1]  # the first key at each empty slot
            slots[at[takers]] = wanted[takers]
            lines[at[takers]] = numbers[looking[takers]]
            # A key that found its slot taken by another looks at the next one; a key
            # beaten to an empty slot looks at the same slot again (it may hold its code).
            moving = ~found & ~takers
            at = np.where(vacant, at, (at + one) & mask)[moving]
            looking, wanted = looking[moving], wanted[moving]
            if at.size > 1 and bool((at[1:] < at[:-1]).any()):  # wrapped around
                again = np.argsort(at, kind="stable")
                at, looking, wanted = at[again], looking[again], wanted[again]
        self._used += len(codes) - int(np.count_nonzero(repeated))
        positions = np.flatnonzero(repeated)
        return list(zip(positions.tolist(), first_lines[positions].tolist(), strict=True))

    def first(self, key: str, line: int) -> int:
        """Add ``key``, seen on ``line``; the line it was first seen on (``line`` if it is
        new). One key: in Python, on the same table, without numpy's cost per call."""
        self._fit(line)
        self.reserve(self._used + 1)
        code = fingerprints((key,))[0] | 1
        index = (code >> self._shift) & self._mask
        while (held := self._slots[index]) and held != code:
            index = (index + 1) & self._mask
        if held:
            return self._lines[index]
        self._slots[index], self._lines[index] = code, line
        self._used += 1
        return line

    def _fit(self, line: int) -> None:
        """Widen the slots' lines to 8 bytes once a line number needs it."""
        if line > _NARROW_LINE_MAX and self._lines.itemsize < 8:
            self._lines = array("Q", self._lines)

    def _grow(self) -> None:
        """Double the table: its codes and lines placed again, a piece of the old table at
        a time (so that nothing but the two tables is as large as a table)."""
        old_slots = np.frombuffer(self._slots, dtype=np.uint64)
        old_lines = np.frombuffer(self._lines, dtype=np.dtype(f"u{self._lines.itemsize}"))
        size = 2 * len(self._slots)
        self._mask, self._shift, self._used = size - 1, self._shift - 1, 0
        self._slots = array("Q", [0]) * size
        self._lines = array(self._lines.typecode, [0]) * size
        for start in range(0, len(old_slots), PROBE_KEYS):  # distinct codes: none is found
            end = start + PROBE_KEYS
            used = np.flatnonzero(old_slots[start:end])
            if used.size:
                numbers = old_lines[start:end][used].astype(np.uint64)
                self._probe(old_slots[start:end][used], numbers)


@dataclass(frozen=True, slots=True)
class _Named:
    """A repeat listed in the problem log, named by the first line of its fingerprint."""

    index: int  # its place among the log's listed problems
    run_id: str
    line: int
    first_line: int


class _RunId(msgspec.Struct):
    run_id: str


_decode_run_id = msgspec.json.Decoder(_RunId).decode


class UniqueIds:
    """The ``run_id`` check of one input: its :class:`RunIds`, and a problem in ``log`` for
    every repeat, naming the line its id was first seen on.

    That line is the first of the repeat's fingerprint. Were two different ids to share one
    (:data:`COLLISION_ODDS`), it would hold the other id: when the input can be read again,
    :meth:`confirm` reads the ``run_id`` of each line a listed problem names, and says what
    a line holding another id means.
    """

    def __init__(self, log: ProblemLog) -> None:
        self.seen = RunIds()
        self.log = log
        self.named: list[_Named] = []

    def new(self, run_id: str, line: int) -> bool:
        """Whether ``run_id``, on ``line``, is new; a repeat is a problem on its line."""
        first = self.seen.first(run_id, line)
        if first == line:
            return True
        self._repeat(run_id, line, first)
        return False

    def new_all(self, run_ids: Sequence[str], first_line: int) -> None:
        """:meth:`new` of ids on consecutive lines from ``first_line``, in one batch."""
        for position, first in self.seen.add_all(run_ids, first_line):
            self._repeat(run_ids[position], first_line + position, first)

    def _repeat(self, run_id: str, line: int, first_line: int) -> None:
        index = self.log.add(duplicate_problem(run_id, line, first_line))
        if index is not None:
            self.named.append(_Named(index, run_id, line, first_line))

    def confirm(self, lines: Iterable[bytes]) -> None:
        """Read the input's lines again (numbered from 1, as first read) up to the last
        first line a listed problem names, and check that each holds the repeated id.

        One that holds another id is a collision: the first repeat of its id is named as
        one, and a later repeat of that id names the first. A first line that cannot be
        read back as a record (the input changed) leaves its problem as it was.
        """
        if not self.named:
            return
        wanted = {named.first_line for named in self.named}
        last = max(wanted)
        held: dict[int, str] = {}
        for number, line in enumerate(lines, 1):
            if number in wanted:
                with suppress(msgspec.ValidationError, msgspec.DecodeError):
                    held[number] = _decode_run_id(line).run_id
            if number == last:
                break
        first_of: dict[str, int] = {}  # an id's first line, where a collision moved it
        for named in self.named:
            other = held.get(named.first_line)
            if other is None or other == named.run_id:
                continue
            earlier = first_of.setdefault(named.run_id, named.line)
            if earlier == named.line:
                problem = collision_problem(named.run_id, named.line, other, named.first_line)
            else:
                problem = duplicate_problem(named.run_id, named.line, earlier)
            self.log.amend(named.index, problem)


def start_of(source: object) -> int | None:
    """Where the binary stream ``source`` starts, if it can be read again from there (a
    regular file, stdin redirected from one, an in-memory buffer); ``None`` for a pipe, a
    terminal or an iterable of lines."""
    try:
        if not source.seekable():  # type: ignore[attr-defined]
            return None
        position: int = source.tell()  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return None
    return position
