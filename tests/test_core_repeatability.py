"""Repeatability: pass^k = C(c, k) / C(n, k) per task, the qualifying tasks, exactness."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest

from scoring import build_report, report_to_json
from scoring.constants import PASS_K_LEVELS, REPEATABILITY_MIN_OUTCOMES
from scoring.registry import ScoringError
from scoring.repeatability import aggregate_pass_hat_k, pass_hat_k, score_repeatability


def test_published_levels_and_threshold() -> None:
    assert PASS_K_LEVELS == (1, 3, 5)
    assert REPEATABILITY_MIN_OUTCOMES == 3


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    [
        (4, 3, 1, Fraction(3, 4)),  # C(3,1)/C(4,1)
        (4, 3, 3, Fraction(1, 4)),  # C(3,3)/C(4,3) = 1/4
        (10, 7, 3, Fraction(7, 24)),  # C(7,3)/C(10,3) = 35/120
        (6, 3, 2, Fraction(1, 5)),  # C(3,2)/C(6,2) = 3/15
        (10, 8, 5, Fraction(2, 9)),  # C(8,5)/C(10,5) = 56/252
        (5, 5, 5, Fraction(1)),
        (3, 3, 3, Fraction(1)),
        (4, 0, 1, Fraction(0)),
        (5, 4, 5, Fraction(0)),  # c < k
        (5, 2, 3, Fraction(0)),  # c < k
        (2, 2, 3, Fraction(0)),  # fewer outcomes than k
        (4, 4, 5, Fraction(0)),  # fewer outcomes than k, all passed
        (0, 0, 1, Fraction(0)),
    ],
)
def test_pass_hat_k_by_hand(n: int, c: int, k: int, expected: Fraction) -> None:
    result = pass_hat_k(n, c, k)
    assert result == expected
    assert isinstance(result, Fraction)


def test_pass_hat_k_exact_for_large_n() -> None:
    # C(2999, 5) / C(3000, 5) = (2999·2998·2997·2996·2995) / (3000·2999·2998·2997·2996)
    #                         = 2995/3000 = 599/600
    assert pass_hat_k(3000, 2999, 5) == Fraction(599, 600)
    # C(2999, 1500) / C(3000, 1500) = (3000 − 1500) / 3000 = 1/2; both binomials are far
    # beyond a float (C(3000, 1500) has about 900 digits).
    assert pass_hat_k(3000, 2999, 1500) == Fraction(1, 2)
    assert pass_hat_k(3000, 3000, 1500) == 1
    # C(1500, 1500) / C(3000, 1500) = 1 / C(3000, 1500): tiny but exact and not zero
    tiny = pass_hat_k(3000, 1500, 1500)
    assert tiny > 0
    assert tiny.numerator == 1


@pytest.mark.parametrize(
    ("n", "c", "k"),
    [(3, 4, 1), (5, 6, 3), (3, -1, 1), (-1, 0, 1), (5, 3, 0), (5, 3, -1)],
)
def test_pass_hat_k_domain(n: int, c: int, k: int) -> None:
    with pytest.raises(ScoringError):
        pass_hat_k(n, c, k)


def test_aggregate_leaves_out_tasks_under_three_outcomes() -> None:
    tasks = [(2, 2), (3, 0), (4, 4)]
    assert aggregate_pass_hat_k(tasks, 1) == Fraction(1, 2)  # (0 + 1) / 2; (2, 2) left out
    assert aggregate_pass_hat_k([(2, 2), (1, 1), (0, 0)], 1) is None
    assert aggregate_pass_hat_k([], 3) is None
    # unweighted over tasks: a task with many runs weighs as much as one with three
    assert aggregate_pass_hat_k([(300, 300), (3, 0)], 1) == Fraction(1, 2)


def test_score_repeatability_counts_qualifying_tasks() -> None:
    result = score_repeatability([(2, 2), (3, 1), (5, 5), (1, 0)])
    assert result.tasks == 2
    assert result.pass_hat == {
        1: Fraction(2, 3),  # (1/3 + 1) / 2
        3: Fraction(1, 2),  # (0 + 1) / 2
        5: Fraction(1, 2),  # (0 + 1) / 2
    }
    empty = score_repeatability([(2, 1)])
    assert empty.tasks == 0
    assert empty.pass_hat == {1: None, 3: None, 5: None}


# --- through the report -------------------------------------------------------------------

_T0 = datetime(2024, 1, 1, tzinfo=UTC)


def _lines(spec: list[tuple[str, str, bool | None]]) -> list[bytes]:
    lines = []
    for n, (task, status, success) in enumerate(spec):
        completed = status == "completed"
        record = {
            "run_id": f"r{n}",
            "agent_id": "a",
            "task_id": task,
            "status": status,
            "success": success,
            "latency_ms": 1000 if completed else None,
            "cost_usd": 0.01 if completed else None,
            "steps": None,
            "finished_at": (_T0 + timedelta(minutes=n)).isoformat()
            if status in ("completed", "failed", "timeout")
            else None,
        }
        lines.append(json.dumps(record).encode() + b"\n")
    return lines


def test_report_repeatability_by_hand() -> None:
    spec: list[tuple[str, str, bool | None]] = [
        # X: 2 outcomes → left out
        ("X", "completed", True),
        ("X", "completed", True),
        # Y: 3 outcomes (failed/timeout runs count), 1 pass; queued/running never count
        ("Y", "completed", True),
        ("Y", "failed", False),
        ("Y", "timeout", False),
        ("Y", "queued", True),
        ("Y", "running", True),
        # Z: 5 outcomes, all pass, plus 2 unknown
        *[("Z", "completed", True)] * 5,
        ("Z", "completed", None),
        ("Z", "timeout", None),
        # W: 4 terminal runs but only 2 known outcomes → left out
        ("W", "completed", True),
        ("W", "completed", True),
        ("W", "completed", None),
        ("W", "failed", None),
    ]
    rep = report_to_json(build_report(_lines(spec)))["agents"][0]["repeatability"]
    # Y: n = 3, c = 1: pass^1 = 1/3, pass^3 = 0, pass^5 = 0. Z: n = 5, c = 5: 1, 1, 1.
    assert rep == {
        "pass^1": 0.6667,  # (1/3 + 1) / 2 = 2/3, four decimals, half up
        "pass^3": 0.5,
        "pass^5": 0.5,
        "tasks": 2,
    }
    assert list(rep) == ["pass^1", "pass^3", "pass^5", "tasks"]


def test_report_repeatability_null_without_qualifying_task() -> None:
    spec: list[tuple[str, str, bool | None]] = [("A", "completed", True)] * 2 + [
        ("B", "failed", False)
    ]
    rep = report_to_json(build_report(_lines(spec)))["agents"][0]["repeatability"]
    assert rep == {"pass^1": None, "pass^3": None, "pass^5": None, "tasks": 0}


def test_report_pass5_zero_when_tasks_have_four_outcomes() -> None:
    spec: list[tuple[str, str, bool | None]] = [("A", "completed", True)] * 4
    rep = report_to_json(build_report(_lines(spec)))["agents"][0]["repeatability"]
    assert rep == {"pass^1": 1.0, "pass^3": 1.0, "pass^5": 0.0, "tasks": 1}


def test_report_pass_hat_k_rounds_to_four_decimals_half_up() -> None:
    # One task, n = 16, c = 15: pass^1 = 15/16 = 0.9375;
    # pass^3 = C(15,3)/C(16,3) = 455/560 = 13/16 = 0.8125; pass^5 = 3003/4368 = 11/16.
    spec: list[tuple[str, str, bool | None]] = [("A", "completed", True)] * 15 + [
        ("A", "completed", False)
    ]
    rep = report_to_json(build_report(_lines(spec)))["agents"][0]["repeatability"]
    assert rep["pass^1"] == 0.9375
    assert rep["pass^3"] == 0.8125
    assert rep["pass^5"] == 0.6875
    # n = 6, c = 5: pass^1 = 5/6 = 0.833333 → 0.8333; pass^3 = C(5,3)/C(6,3) = 10/20 = 0.5;
    # pass^5 = 1/6 = 0.1666… → 0.1667 (half up at the 4th decimal)
    spec = [("B", "completed", True)] * 5 + [("B", "completed", False)]
    rep = report_to_json(build_report(_lines(spec)))["agents"][0]["repeatability"]
    assert (rep["pass^1"], rep["pass^3"], rep["pass^5"]) == (0.8333, 0.5, 0.1667)
