"""Repeatability: pass^k = C(c, k)/C(n, k) per task, averaged over tasks with >= 3 outcomes.

Checked by hand on small cases, exactly for large n, and against the pass^k table that
τ-bench publishes for its gpt-4o airline agent (real data, ``tests/data``).
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from datetime import UTC, datetime, timedelta
from fractions import Fraction
from pathlib import Path

import pytest

from scoring import aggregate_pass_hat_k, build_report, pass_hat_k, score_repeatability
from scoring.registry import ScoringError

TAU_BENCH = Path(__file__).parent / "data" / "tau-bench-gpt-4o-airline.jsonl"
# τ-bench README, gpt-4o tool-calling agent, airline domain: pass^1..pass^4.
TAU_BENCH_PUBLISHED = {
    1: Fraction("0.420"),
    2: Fraction("0.273"),
    3: Fraction("0.220"),
    4: Fraction("0.200"),
}
HALF_OF_LAST_PUBLISHED_DIGIT = Fraction(5, 10_000)


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


def test_pass_hat_k_domain() -> None:
    with pytest.raises(ScoringError):
        pass_hat_k(3, 4, 1)
    with pytest.raises(ScoringError):
        pass_hat_k(3, 1, 0)


def test_tasks_with_fewer_than_three_outcomes_are_left_out() -> None:
    # (3, 3): pass^1 1, pass^3 1, pass^5 0 (n < 5)
    # (4, 3): pass^1 3/4, pass^3 1/4, pass^5 0
    # (2, 0): left out (n = 2 < 3); counting it would pull pass^1 down to 7/12
    result = score_repeatability([(3, 3), (4, 3), (2, 0)])
    assert result.tasks == 2
    assert result.pass_hat == {1: Fraction(7, 8), 3: Fraction(5, 8), 5: Fraction(0)}


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
    # task t: n = 3, c = 2 → pass^1 2/3, pass^3 0 (c < 3), pass^5 0
    assert rep.tasks == 1
    assert rep.pass_hat == {1: Fraction(2, 3), 3: Fraction(0), 5: Fraction(0)}


# --- τ-bench: published pass^k on real data ---------------------------------------------------


def tau_bench_runs() -> list[dict]:
    """One completed run per τ-bench trajectory; success when the reward is 1 (within 1e-6)."""
    base = datetime(2026, 1, 1, tzinfo=UTC)
    runs = []
    for i, line in enumerate(TAU_BENCH.read_text().splitlines()):
        trajectory = json.loads(line)
        runs.append(
            {
                "run_id": f"tau-{trajectory['task_id']}-{trajectory['trial']}",
                "agent_id": "gpt-4o-airline",
                "task_id": str(trajectory["task_id"]),
                "status": "completed",
                "success": abs(trajectory["reward"] - 1) <= 1e-6,
                "latency_ms": 1000 + i,  # made up: τ-bench does not record them here
                "cost_usd": 0.01,
                "steps": None,
                "finished_at": (base + timedelta(minutes=i)).isoformat(),
            }
        )
    return runs


def test_tau_bench_data_is_the_documented_file() -> None:
    runs = tau_bench_runs()
    per_task = defaultdict(int)
    for run in runs:
        per_task[run["task_id"]] += 1
    assert len(runs) == 200
    assert len(per_task) == 50
    assert set(per_task.values()) == {4}


@pytest.mark.parametrize("k", [1, 3])
def test_tau_bench_report_matches_published_pass_k(as_jsonl, k: int) -> None:
    (agent,) = build_report(as_jsonl(tau_bench_runs()).splitlines()).agents
    assert agent.repeatability.tasks == 50
    assert (
        abs(agent.repeatability.pass_hat[k] - TAU_BENCH_PUBLISHED[k]) < HALF_OF_LAST_PUBLISHED_DIGIT
    )


@pytest.mark.parametrize("k", [1, 2, 3, 4])
def test_tau_bench_pass_hat_k_matches_published_table(k: int) -> None:
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for run in tau_bench_runs():
        counts[run["task_id"]][0] += 1
        counts[run["task_id"]][1] += run["success"]
    value = aggregate_pass_hat_k([(n, c) for n, c in counts.values()], k)
    assert value is not None
    assert abs(value - TAU_BENCH_PUBLISHED[k]) < HALF_OF_LAST_PUBLISHED_DIGIT


def test_tau_bench_cli_json_shows_four_decimals(as_jsonl, scoring_cli, tmp_path) -> None:
    path = tmp_path / "tau.jsonl"
    path.write_bytes(as_jsonl(tau_bench_runs()))
    code, out, err = scoring_cli("report", str(path), "--format", "json")
    assert (code, err) == (0, "")
    rep = json.loads(out)["agents"][0]["repeatability"]
    assert round(rep["pass^1"], 3) == 0.42
    assert round(rep["pass^3"], 3) == 0.22
    assert rep["tasks"] == 50
