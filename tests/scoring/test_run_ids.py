"""Duplicate ``run_id`` detection is written once (``scoring.report.run_ids``) and used by both
readers; its collision odds are derived from the width a slot really keeps, and quoted
from that one place by the README and the inputs page."""

from __future__ import annotations

import itertools
import json
import math
import random
from collections.abc import Callable, Iterable
from fractions import Fraction
from unittest import mock

import pytest
from builders import GOOD

from contracts.readme import README_PATH
from scoring.errors import InputError
from scoring.examples import EXAMPLES
from scoring.formulas.outcome import score_outcome_lines
from scoring.report import build_report, run_ids
from scoring.report.run_ids import (
    COLLISION_ODDS,
    DISTINGUISHING_BITS,
    FINGERPRINT_BITS,
    ODDS_REFERENCE_RUNS,
    RunIds,
    collision_odds,
)


def run_line(run_id: str) -> str:
    return json.dumps({**GOOD, "run_id": run_id})


def outcome_line(run_id: str) -> str:
    record = next(e for e in EXAMPLES if e.name.startswith("outcome.")).inputs["record"]
    return json.dumps({**record, "run_id": run_id})


def test_the_odds_come_from_the_width_a_slot_keeps() -> None:
    assert DISTINGUISHING_BITS == FINGERPRINT_BITS - 1
    n = ODDS_REFERENCE_RUNS
    assert collision_odds(n) == Fraction(math.comb(n, 2), 2**DISTINGUISHING_BITS)
    assert f"2^{DISTINGUISHING_BITS}" in COLLISION_ODDS
    # 10^12 / 2 / 2^63 is 5.4e-8: under 6 in a hundred million.
    assert "under 6 in 100,000,000 at 1,000,000 runs" in COLLISION_ODDS


def test_a_slot_loses_the_lowest_bit_so_codes_differing_there_collide() -> None:
    """Why the width is 63 bits, not 64: ``code | 1`` marks a used slot."""
    seen = RunIds()
    with mock.patch.object(run_ids, "fingerprints", lambda keys: [2 * len(k) for k in keys]):
        assert seen.add_all(["aa"]) == []
    with mock.patch.object(run_ids, "fingerprints", lambda keys: [2 * len(k) + 1 for k in keys]):
        assert seen.add_all(["bb"], 2) == [(0, 1)]  # 4 | 1 == 5 | 1: taken for a duplicate
    with mock.patch.object(run_ids, "fingerprints", lambda keys: [6 for _ in keys]):
        assert seen.add_all(["cc"]) == []


def test_both_readers_use_the_one_detector() -> None:
    """Every id colliding: the report and the outcome scorer both call the second one a
    duplicate, so both go through :mod:`scoring.report.run_ids`."""
    runs = [run_line("a"), run_line("b")]
    records = [outcome_line("a"), outcome_line("b")]
    with mock.patch.object(run_ids, "fingerprints", lambda keys: [8 for _ in keys]):
        repeat = r"line 2: run_id: duplicate run_id 'b', first on line 1 \[unique\]"
        with pytest.raises(InputError, match=repeat):
            build_report([line.encode() for line in runs])
        with pytest.raises(InputError, match=r"duplicate run_id 'b', first on line 1 \[unique\]"):
            score_outcome_lines([line.encode() for line in records])
    build_report([line.encode() for line in runs])
    score_outcome_lines([line.encode() for line in records])


def test_first_lines_survive_the_table_growing() -> None:
    seen = RunIds()
    count = 5000  # several doublings of the 1,024-slot start
    for number in range(1, count + 1):
        assert seen.first(f"run-{number}", number) == number
    for number in range(1, count + 1, 97):
        assert seen.first(f"run-{number}", count + number) == number
    batched = RunIds()
    assert batched.add_all([f"run-{n}" for n in range(1, count + 1)], 1) == []
    repeats = [f"run-{n}" for n in range(1, count + 1, 97)]
    assert batched.add_all(repeats, count + 1) == [
        (position, int(key.removeprefix("run-"))) for position, key in enumerate(repeats)
    ]


def test_lines_past_four_bytes_widen_the_slots() -> None:
    seen = RunIds()
    seen.first("a", 7)
    past = 2**32 + 5
    assert seen.first("b", past) == past
    assert seen.add_all(["c", "a", "b", "c"], past + 1) == [(1, 7), (2, past), (3, past + 1)]


def test_the_readme_quotes_the_one_statement_of_the_odds() -> None:
    readme = " ".join(README_PATH.read_text(encoding="utf-8").split())
    assert COLLISION_ODDS in readme
    assert "2⁶⁵" not in readme  # the wrong figure it had before
    assert json.dumps(COLLISION_ODDS)  # plain text, for the page's macro too


def _reference(batches: list[list[str]], code: Callable[[str], int]) -> list[list[tuple[int, int]]]:
    """What ``add_all`` answers, one key at a time, keys on consecutive lines from 1: the
    positions whose code was seen, with the line it was first seen on."""
    seen: dict[int, int] = {}
    answers = []
    line = 0
    for batch in batches:
        found = []
        for position, key in enumerate(batch):
            line += 1
            if code(key) in seen:
                found.append((position, seen[code(key)]))
            seen.setdefault(code(key), line)
        answers.append(found)
    return answers


#: Codes of ``k<value>``: spread over the table; starting in one of four slots, so that keys
#: queue for the same empty slots and probe far; in the first, the middle or the last slot,
#: so that keys wrapping around the table's end meet keys that started there while keys
#: from the middle lie between them in the batch's slot order.
CODES: dict[str, Callable[[int], int]] = {
    "spread": lambda value: (value * 0x9E3779B97F4A7C15) % 2**64,
    "four homes": lambda value: (value % 4) << 62 | value * 2,
    "first, middle, last": lambda value: (0, 2**63, 2**64 - 2**40)[value % 3] | value * 2,
}


@pytest.mark.parametrize("codes", CODES)
def test_a_batch_finds_what_one_key_at_a_time_finds(codes: str) -> None:
    """Random batches with repeats inside and across them, against a ``set``: a batch's
    keys that contend for one empty slot are resolved in input order."""
    rng = random.Random(codes)

    def code(key: str) -> int:
        return CODES[codes](int(key.removeprefix("k")))

    def fake(keys: Iterable[str]) -> list[int]:
        return [code(k) for k in keys]

    batches = [[f"k{rng.randrange(3000)}" for _ in range(rng.randrange(1, 900))] for _ in range(12)]
    batches.insert(3, [])
    seen = RunIds()
    starts = itertools.accumulate((len(b) for b in batches), initial=1)
    with mock.patch.object(run_ids, "fingerprints", fake):
        got = [seen.add_all(batch, start) for batch, start in zip(batches, starts, strict=False)]
        assert got == _reference(batches, lambda k: code(k) | 1)
        assert seen.first(batches[0][0], 10_000) == 1
        assert seen.first("k99999", 10_001) == 10_001
        assert seen.add_all(["k99999", "k100000", "k100000"], 10_002) == [
            (0, 10_001),
            (2, 10_003),
        ]


def test_a_batch_longer_than_one_probe_finds_repeats_across_its_pieces() -> None:
    keys = [f"run-{i}" for i in range(run_ids.PROBE_KEYS + 10)] + ["run-5", "run-65540"]
    keys.insert(run_ids.PROBE_KEYS + 3, "run-65537")  # a repeat inside the second piece
    assert RunIds().add_all(keys) == [
        (run_ids.PROBE_KEYS + 3, 65538),
        (len(keys) - 2, 6),
        (len(keys) - 1, 65542),  # after the inserted key
    ]
