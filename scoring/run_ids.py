"""Duplicate ``run_id`` detection, once, for the report and the outcome paths alike.

A ``run_id`` is remembered by a 64-bit BLAKE2b fingerprint (:func:`fingerprints`), not by
the string: memory stays a small constant per record (no Python object per id) and the
codes are the same in every process, unlike Python's salted ``hash``. The same id always
has the same code, so no duplicate is ever missed; two different ids can share one, and
would then be reported as a duplicate. How likely that is follows from the width of what a
slot keeps, :data:`DISTINGUISHING_BITS` (:func:`collision_odds`, said once in
:data:`COLLISION_ODDS`, which the README and the inputs page quote).
"""

from __future__ import annotations

import hashlib
import math
import sys
from array import array
from collections import deque
from collections.abc import Iterable, Iterator
from fractions import Fraction
from itertools import islice, repeat

import numpy as np

from scoring.errors import Problem, shown
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
_PROBE_KEYS = 1 << _PROBE_BITS
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


def duplicate_problem(run_id: str, line: int, first_line: int | None = None) -> Problem:
    """The problem of a repeated ``run_id`` on ``line`` (naming its first line if known)."""
    first = f", first on line {first_line}" if first_line is not None else ""
    return Problem(line, "run_id", f"duplicate run_id {shown(run_id)}{first} [unique]")


class RunIds:
    """An open-addressing set of ``run_id`` fingerprints: 8 bytes a slot, and 8 more for
    the line an id was first seen on when ``lines`` is asked for (the outcome path names
    it; the report, which keeps a slot per run of a large log, does not).

    A slot holds ``fingerprint(run_id) | 1`` (never 0, the empty slot). A code's home slot
    is given by its high bits, so a table rehashed in slot order sweeps memory in one
    direction. A batch (:meth:`add_all`, the report's chunks) probes in numpy, all its keys
    at once; one key (:meth:`add`, :meth:`first`) in Python.
    """

    def __init__(self, *, lines: bool = False) -> None:
        size = 1 << _START_SLOTS_BITS
        self._slots = array("Q", bytes(8 * size))
        self._lines = array("Q", bytes(8 * size)) if lines else None
        self._mask = size - 1
        self._shift = FINGERPRINT_BITS - _START_SLOTS_BITS
        self._used = 0

    def reserve(self, count: int) -> None:
        """Make room for ``count`` keys in all (growing now, not while they are added)."""
        while count * 3 > self._mask * 2:
            self._grow()

    def add_all(self, keys: Iterable[str]) -> list[int]:
        """Add every key; the positions (0-based) of the keys that were already present
        (in the set, or earlier in ``keys``).

        The whole batch probes the table at once, in numpy, its keys ordered by home slot
        (in input order within one): every key still looking reads its slot, keys that find
        their own code are repeats, and of the keys at one empty slot the first takes it and
        the others look again. Keys move one slot at a time, so they stay in slot order
        (they are ordered again only after wrapping around the table's end); a code repeated
        in a batch keeps its places' order, so its first place is the new one when the code
        is new.
        """
        codes = np.array(fingerprints(keys), dtype=np.uint64) | np.uint64(1)
        self.reserve(self._used + len(codes))  # room for the whole batch: no growing
        found: list[int] = []
        for start in range(0, len(codes), _PROBE_KEYS):
            piece = codes[start : start + _PROBE_KEYS]
            found += [start + position for position in self._probe(piece)]
        return found

    def _probe(self, codes: np.ndarray) -> list[int]:
        """:meth:`add_all` of at most ``_PROBE_KEYS`` codes, in a table with room for them."""
        # A view of the table: what is written here is written there.
        slots = np.frombuffer(self._slots, dtype=np.uint64)
        mask, one = np.uint64(self._mask), np.uint64(1)
        repeated = np.zeros(len(codes), dtype=bool)
        at = (codes >> np.uint64(self._shift)) & mask
        # Ordered by (slot, position), packed into one word: a plain sort of distinct
        # numbers, several times faster than a stable argsort. The slot takes the top
        # 64 − shift bits, the position the low _PROBE_BITS (a table of 2^48 slots would be
        # two pebibytes).
        packed = np.sort(at << np.uint64(_PROBE_BITS) | np.arange(len(codes), dtype=np.uint64))
        looking = (packed & np.uint64(_PROBE_KEYS - 1)).astype(np.intp)  # positions looking
        at, wanted = at[looking], codes[looking]
        while looking.size:
            held = slots[at]
            found = held == wanted
            repeated[looking[found]] = True
            vacant = held == 0
            takers = vacant.copy()
            takers[1:] &= at[1:] != at[:-1]  # the first key at each empty slot
            slots[at[takers]] = wanted[takers]
            # A key that found its slot taken by another looks at the next one; a key
            # beaten to an empty slot looks at the same slot again (it may hold its code).
            moving = ~found & ~takers
            at = np.where(vacant, at, (at + one) & mask)[moving]
            looking, wanted = looking[moving], wanted[moving]
            if at.size > 1 and bool((at[1:] < at[:-1]).any()):  # wrapped around
                again = np.argsort(at, kind="stable")
                at, looking, wanted = at[again], looking[again], wanted[again]
        self._used += len(codes) - int(np.count_nonzero(repeated))
        return np.flatnonzero(repeated).tolist()

    def add(self, key: str) -> bool:
        """Add ``key``; ``False`` if it was already present (one key: in Python, on the
        same table, without numpy's cost per call)."""
        index, code = self._slot(key)
        if self._slots[index]:
            return False
        self._slots[index] = code
        self._used += 1
        return True

    def first(self, key: str, line: int) -> int:
        """The line ``key`` was first seen on; records ``line`` if it is new (a set made
        with ``lines=True``)."""
        if self._lines is None:
            raise TypeError("this set keeps no lines: make it with RunIds(lines=True)")
        index, code = self._slot(key)
        if self._slots[index]:
            return self._lines[index]
        self._slots[index], self._lines[index] = code, line
        self._used += 1
        return line

    def _slot(self, key: str) -> tuple[int, int]:
        """The slot that holds ``key``'s code, or the empty one it would take (the table
        made room for it), and the code."""
        self.reserve(self._used + 1)
        code = fingerprints((key,))[0] | 1
        index = (code >> self._shift) & self._mask
        while (held := self._slots[index]) and held != code:
            index = (index + 1) & self._mask
        return index, code

    def _grow(self) -> None:
        old_slots, old_lines = self._slots, self._lines
        self._mask = mask = 2 * len(old_slots) - 1
        self._shift = shift = self._shift - 1
        self._slots = slots = array("Q", bytes(8 * (mask + 1)))
        if old_lines is None:
            for code in filter(None, old_slots):
                index = (code >> shift) & mask
                while slots[index]:
                    index = (index + 1) & mask
                slots[index] = code
            return
        lines = self._lines = array("Q", bytes(8 * (mask + 1)))
        for code, line in zip(old_slots, old_lines, strict=True):
            if code:
                index = (code >> shift) & mask
                while slots[index]:
                    index = (index + 1) & mask
                slots[index], lines[index] = code, line
