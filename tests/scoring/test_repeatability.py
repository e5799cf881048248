"""Repeatability: pass^k = C(c, k)/C(n, k) per task, averaged over tasks with >= 3 outcomes.

Checked by hand on small cases, exactly for large n, non-increasing in k (hypothesis), and
against the pass^k table that τ-bench publishes for its gpt-4o airline agent (in
``test_taubench.py``).
"""

from __future__ import annotations

import itertools
import json
import math
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from typing import Any

import pytest
from builders import FAST, scores_only, successes_of
from hypothesis import given, settings, strategies as st

from scoring import (
    aggregate_pass_hat_k,
    build_report,
    pass_hat_k,
    report_to_json,
    score_repeatability,
)
from scoring.constants import (
    PASS_K_LEVELS,
    REPEATABILITY_MIN_OUTCOMES,
)
from scoring.registry import ScoringError


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
        5: Fraction(1),  # (5, 5) alone has 5 outcomes: 1
    }
    assert result.tasks_by_level == {1: 2, 3: 2, 5: 1}
    assert result.reasons == {}
    empty = score_repeatability([(2, 1)])
    assert empty.tasks == 0
    assert empty.pass_hat == {1: None, 3: None, 5: None}


# --- through the report -------------------------------------------------------------------

_T0 = datetime(2024, 1, 1, tzinfo=UTC)


#: The runs of one agent, task by task in the order they finish: (status, success) each.
_Tasks = dict[str, list[tuple[str, bool | None]]]


def _lines(tasks: _Tasks) -> list[bytes]:
    lines = []
    spec = [(task, status, success) for task, runs in tasks.items() for status, success in runs]
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


def _repeatability(tasks: _Tasks) -> dict[str, Any]:
    """The repeatability the report prints for one agent with these runs (scores only)."""
    report = report_to_json(build_report(_lines(tasks)))
    return scores_only(report["agents"][0]["repeatability"])


def test_report_repeatability_by_hand() -> None:
    rep = _repeatability(
        {
            # X: 2 outcomes → left out
            "X": [("completed", True)] * 2,
            # Y: 3 outcomes (failed/timeout runs count), 1 pass; queued/running never count
            "Y": [
                ("completed", True),
                ("failed", False),
                ("timeout", False),
                ("queued", True),
                ("running", True),
            ],
            # Z: 5 outcomes, all pass, plus 2 unknown
            "Z": [("completed", True)] * 5 + [("completed", None), ("timeout", None)],
            # W: 4 terminal runs but only 2 known outcomes → left out
            "W": [("completed", True)] * 2 + [("completed", None), ("failed", None)],
        }
    )
    # Y: n = 3, c = 1: pass^1 = 1/3, pass^3 = 0; too few outcomes for pass^5.
    # Z: n = 5, c = 5: 1, 1, 1.
    assert rep == {
        "pass^1": 0.6667,  # (1/3 + 1) / 2 = 2/3, four decimals, half up
        "pass^3": 0.5,
        "pass^5": 1.0,  # Z alone
        "tasks": 2,
        "tasks_by_level": {"pass^1": 2, "pass^3": 2, "pass^5": 1},
        "reasons": {"pass^1": None, "pass^3": None, "pass^5": None},
    }
    assert list(rep) == ["pass^1", "pass^3", "pass^5", "tasks", "tasks_by_level", "reasons"]


def test_report_repeatability_null_without_qualifying_task() -> None:
    rep = _repeatability({"A": [("completed", True)] * 2, "B": [("failed", False)]})
    assert rep == {
        "pass^1": None,
        "pass^3": None,
        "pass^5": None,
        "tasks": 0,
        "tasks_by_level": {"pass^1": 0, "pass^3": 0, "pass^5": 0},
        "reasons": {
            f"pass^{k}": f"no task has {max(REPEATABILITY_MIN_OUTCOMES, k)} recorded outcomes"
            for k in (1, 3, 5)
        },
    }


def test_report_pass5_null_with_its_reason_when_tasks_have_four_outcomes() -> None:
    """1.3.0: a level no task was run often enough to measure is null, never 0."""
    rep = _repeatability({"A": [("completed", True)] * 4})
    assert rep == {
        "pass^1": 1.0,
        "pass^3": 1.0,
        "pass^5": None,
        "tasks": 1,
        "tasks_by_level": {"pass^1": 1, "pass^3": 1, "pass^5": 0},
        "reasons": {"pass^1": None, "pass^3": None, "pass^5": "no task has 5 recorded outcomes"},
    }


def test_report_pass_hat_k_rounds_to_four_decimals_half_up() -> None:
    # One task, n = 16, c = 15: pass^1 = 15/16 = 0.9375;
    # pass^3 = C(15,3)/C(16,3) = 455/560 = 13/16 = 0.8125; pass^5 = 3003/4368 = 11/16.
    rep = _repeatability({"A": [("completed", True)] * 15 + [("completed", False)]})
    assert rep["pass^1"] == 0.9375
    assert rep["pass^3"] == 0.8125
    assert rep["pass^5"] == 0.6875
    # n = 6, c = 5: pass^1 = 5/6 = 0.833333 → 0.8333; pass^3 = C(5,3)/C(6,3) = 10/20 = 0.5;
    # pass^5 = 1/6 = 0.1666… → 0.1667 (half up at the 4th decimal)
    rep = _repeatability({"B": [("completed", True)] * 5 + [("completed", False)]})
    assert (rep["pass^1"], rep["pass^3"], rep["pass^5"]) == (0.8333, 0.5, 0.1667)


def test_pass_hat_k_small_cases_by_hand() -> None:
    assert pass_hat_k(4, 3, 1) == Fraction(3, 4)  # C(3,1)/C(4,1)
    assert pass_hat_k(4, 3, 3) == Fraction(1, 4)  # C(3,3)/C(4,3) = 1/4
    assert pass_hat_k(4, 4, 3) == 1
    assert pass_hat_k(5, 2, 3) == 0  # c < k
    assert pass_hat_k(10, 5, 2) == Fraction(10, 45)  # C(5,2)/C(10,2)


def test_a_task_with_fewer_outcomes_than_k_scores_zero() -> None:
    # n = 3 < k = 5, even with every outcome a pass: no 5 attempts can be drawn.
    assert pass_hat_k(3, 3, 5) == 0
    assert pass_hat_k(4, 4, 5) == 0
    assert pass_hat_k(5, 5, 5) == 1


def test_pass_hat_k_domain_examples() -> None:
    with pytest.raises(ScoringError):
        pass_hat_k(3, 4, 1)
    with pytest.raises(ScoringError):
        pass_hat_k(3, 1, 0)


def test_tasks_with_fewer_than_three_outcomes_are_left_out() -> None:
    # (3, 3): pass^1 1, pass^3 1; left out of pass^5 (n < 5)
    # (4, 3): pass^1 3/4, pass^3 1/4; left out of pass^5
    # (2, 0): left out (n = 2 < 3); counting it would pull pass^1 down to 7/12
    result = score_repeatability([(3, 3), (4, 3), (2, 0)])
    assert result.tasks == 2
    assert result.pass_hat == {1: Fraction(7, 8), 3: Fraction(5, 8), 5: None}
    assert result.reasons == {5: "no task has 5 recorded outcomes"}


def test_no_qualifying_task_gives_null() -> None:
    result = score_repeatability([(2, 2), (1, 0)])
    assert result.tasks == 0
    assert result.pass_hat == {1: None, 3: None, 5: None}
    assert aggregate_pass_hat_k([], 1) is None


def test_the_mean_is_unweighted_over_tasks() -> None:
    # An easy task run 1000 times weighs as much as a hard task run 3 times: (1 + 0)/2.
    assert aggregate_pass_hat_k([(1000, 1000), (3, 0)], 1) == Fraction(1, 2)


def test_large_n_is_exact() -> None:
    # C(1999, k)/C(2000, k) = (2000 − k)/2000
    assert pass_hat_k(2000, 1999, 1) == Fraction(1999, 2000)
    assert pass_hat_k(2000, 1999, 3) == Fraction(1997, 2000)
    assert pass_hat_k(2000, 1999, 5) == Fraction(1995, 2000)
    # C(1000, 5)/C(2000, 5) = (1000·999·998·997·996)/(2000·1999·1998·1997·1996)
    expected = Fraction(1000 * 999 * 998 * 997 * 996, 2000 * 1999 * 1998 * 1997 * 1996)
    assert pass_hat_k(2000, 1000, 5) == expected
    # k = 1000: C(2000, 1000) has 600 digits, far beyond a float, and the ratio is still
    # exactly (2000 − 1000)/2000.
    with pytest.raises(OverflowError):
        float(math.comb(2000, 1000))
    assert pass_hat_k(2000, 1999, 1000) == Fraction(1, 2)


def test_report_repeatability_with_two_thousand_outcomes(run_record, as_jsonl) -> None:
    base = datetime(2026, 1, 1, tzinfo=UTC)
    runs = [
        run_record(success=i != 7, finished_at=(base + timedelta(seconds=i)).isoformat())
        for i in range(2000)
    ]
    (agent,) = build_report(as_jsonl(runs).splitlines()).agents
    rep = agent.repeatability
    assert rep.tasks == 1
    # n = 2000, c = 1999: pass^k = (2000 − k)/2000
    assert rep.pass_hat == {
        1: Fraction(1999, 2000),
        3: Fraction(1997, 2000),
        5: Fraction(1995, 2000),
    }


def test_repeatability_reads_every_terminal_run_with_a_known_outcome(run_record, as_jsonl) -> None:
    runs = [
        run_record(task_id="t", success=True),
        run_record(task_id="t", status="failed", success=False),
        run_record(task_id="t", status="timeout", success=True),
        run_record(task_id="t", success=None),  # unknown: not recorded
        run_record(task_id="t", status="queued", success=True, finished_at=None),  # not terminal
        run_record(task_id="u", success=True),
        run_record(task_id="u", success=True),  # n = 2: left out
    ]
    (agent,) = build_report(as_jsonl(runs).splitlines()).agents
    rep = agent.repeatability
    # task t: n = 3, c = 2 → pass^1 2/3, pass^3 0 (c < 3), pass^5 null (n < 5)
    assert rep.tasks == 1
    assert rep.pass_hat == {1: Fraction(2, 3), 3: Fraction(0), 5: None}


# --- pass^k ---------------------------------------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 80).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n))))
def test_pass_hat_k_non_increasing_in_k(nc: tuple[int, int]) -> None:
    n, c = nc
    values = [pass_hat_k(n, c, k) for k in range(1, n + 3)]
    assert all(0 <= v <= 1 for v in values)
    assert all(a >= b for a, b in itertools.pairwise(values))
    if n:
        assert values[0] == Fraction(c, n)


@settings(max_examples=100, deadline=None)
@given(
    st.lists(
        st.integers(0, 12).flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n))),
        max_size=8,
    )
)
def test_aggregate_pass_hat_k_non_increasing_in_k(tasks: list[tuple[int, int]]) -> None:
    """Null exactly where no task has max(n_min, k) outcomes; in [0, 1] elsewhere, and
    non-increasing in k between levels that read the same tasks."""
    levels = range(1, 8)
    values = {k: aggregate_pass_hat_k(tasks, k) for k in levels}
    kept = {k: [t for t in tasks if t[0] >= max(REPEATABILITY_MIN_OUTCOMES, k)] for k in levels}
    for k in levels:
        assert (values[k] is None) == (not kept[k])
        assert values[k] is None or 0 <= values[k] <= 1
    for a, b in itertools.pairwise(levels):
        if kept[a] and kept[a] == kept[b]:
            assert values[a] >= values[b]  # type: ignore[operator]


# --- pass^k -------------------------------------------------------------------------------------


@FAST
@given(successes_of(), st.integers(1, 12))
def test_pass_hat_k_is_non_increasing_in_k(cn: tuple[int, int], k: int) -> None:
    c, n = cn
    assert pass_hat_k(n, c, k + 1) <= pass_hat_k(n, c, k)


@FAST
@given(successes_of(low=3), st.integers(1, 12))
def test_pass_hat_k_matches_the_falling_product(cn: tuple[int, int], k: int) -> None:
    # C(c, k)/C(n, k) = Π_{i<k} (c − i)/(n − i), 0 once a factor is 0 (c < k)
    c, n = cn
    product = Fraction(1)
    for i in range(k):
        product *= Fraction(max(c - i, 0), n - i) if n - i > 0 else 0
    assert pass_hat_k(n, c, k) == product
