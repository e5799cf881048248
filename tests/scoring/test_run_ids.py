"""Duplicate ``run_id`` detection is written once (``scoring.run_ids``) and used by both
readers; its collision odds are derived from the width a slot really keeps, and quoted
from that one place by the README and the inputs page."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from unittest import mock

import pytest
from builders import GOOD

from contracts.readme import README_PATH
from scoring import run_ids
from scoring.errors import InputError
from scoring.examples import EXAMPLES
from scoring.outcome import score_outcome_lines
from scoring.report import build_report
from scoring.run_ids import (
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
        assert seen.add_all(["bb"]) == [0]  # 4 | 1 == 5 | 1: taken for a duplicate
    with mock.patch.object(run_ids, "fingerprints", lambda keys: [6 for _ in keys]):
        assert seen.add_all(["cc"]) == []


def test_both_readers_use_the_one_detector() -> None:
    """Every id colliding: the report and the outcome scorer both call the second one a
    duplicate, so both go through :mod:`scoring.run_ids`."""
    runs = [run_line("a"), run_line("b")]
    records = [outcome_line("a"), outcome_line("b")]
    with mock.patch.object(run_ids, "fingerprints", lambda keys: [8 for _ in keys]):
        with pytest.raises(InputError, match=r"line 2: run_id: duplicate run_id 'b' \[unique\]"):
            build_report([line.encode() for line in runs])
        with pytest.raises(InputError, match=r"duplicate run_id 'b', first on line 1 \[unique\]"):
            score_outcome_lines([line.encode() for line in records])
    build_report([line.encode() for line in runs])
    score_outcome_lines([line.encode() for line in records])


def test_first_lines_survive_the_table_growing() -> None:
    seen = RunIds(lines=True)
    count = 5000  # several doublings of the 1,024-slot start
    for number in range(1, count + 1):
        assert seen.first(f"run-{number}", number) == number
    for number in range(1, count + 1, 97):
        assert seen.first(f"run-{number}", count + number) == number


def test_a_set_without_lines_refuses_to_say_one() -> None:
    with pytest.raises(TypeError, match="keeps no lines"):
        RunIds().first("a", 1)


def test_the_readme_quotes_the_one_statement_of_the_odds() -> None:
    readme = " ".join(README_PATH.read_text(encoding="utf-8").split())
    assert COLLISION_ODDS in readme
    assert "2⁶⁵" not in readme  # the wrong figure it had before
    assert json.dumps(COLLISION_ODDS)  # plain text, for the page's macro too
