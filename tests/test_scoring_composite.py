"""The headline composite: evidence gate, zero-success floor, null without completed runs.

composite = 100 × (0.40·p + 0.30·consistency·latency/100 + 0.30·cost/100), rounded half up
to two decimals; consistency = 1 − 4p(1 − p) with at least 5 completed runs, else 1.
Expected values are worked out by hand in the comments.
"""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from scoring import (
    build_report,
    composite_score,
    outcome_consistency,
    report_to_json,
    score_composite,
)
from scoring.registry import ScoringError

NULL_COMPOSITE = {
    "score": None,
    "success_rate": None,
    "consistency": None,
    "latency_score": None,
    "cost_score": None,
    "completed_runs": 0,
    "zero_success_floor": False,
}


def agents_by_id(stdout: str) -> dict[str, dict[str, Any]]:
    return {agent["agent_id"]: agent for agent in json.loads(stdout)["agents"]}


# --- evidence gate ----------------------------------------------------------------------------


def test_consistency_is_neutral_below_five_runs() -> None:
    # 4 runs at p = 1/2 would be the least consistent possible, but 4 < 5: neutral 1.
    assert outcome_consistency(Fraction(1, 2), 4) == 1
    assert outcome_consistency(Fraction(1, 4), 4) == 1


def test_consistency_applies_from_five_runs() -> None:
    assert outcome_consistency(Fraction(1, 2), 5) == 0  # 1 − 4·½·½
    # 1 − 4·(3/5)·(2/5) = 1 − 24/25
    assert outcome_consistency(Fraction(3, 5), 5) == Fraction(1, 25)
    assert outcome_consistency(Fraction(1), 5) == 1  # 1 − 4·1·0
    assert outcome_consistency(Fraction(0), 6) == 1  # 1 − 4·0·1


def test_composite_at_four_completed_runs(run_record, as_jsonl, scoring_cli) -> None:
    # p = 2/4, consistency neutral 1; mean latency 2000 ms → 80; mean cost $0.010 → 80.
    # 100 × (0.4·0.5 + 0.3·1·0.8 + 0.3·0.8) = 20 + 24 + 24 = 68
    runs = [
        run_record(success=s, latency_ms=2000, cost_usd=0.01) for s in (True, True, False, False)
    ]
    code, out, _ = scoring_cli("report", "-", "--format", "json", stdin=as_jsonl(runs))
    assert code == 0
    composite = agents_by_id(out)["agent"]["composite"]
    assert composite["consistency"] == 1.0
    assert composite["score"] == 68.0


def test_composite_at_five_completed_runs(run_record, as_jsonl, scoring_cli) -> None:
    # p = 3/5, consistency = 1 − 4·(3/5)·(2/5) = 1/25 = 0.04
    # 100 × (0.4·0.6 + 0.3·0.04·0.8 + 0.3·0.8) = 24 + 0.96 + 24 = 48.96
    runs = [
        run_record(success=s, latency_ms=2000, cost_usd=0.01)
        for s in (True, True, True, False, False)
    ]
    code, out, _ = scoring_cli("report", "-", "--format", "json", stdin=as_jsonl(runs))
    assert code == 0
    composite = agents_by_id(out)["agent"]["composite"]
    assert composite["consistency"] == 0.04
    assert composite["success_rate"] == 0.6
    assert composite["score"] == 48.96


def test_composite_at_fifty_fifty_with_six_runs(run_record, as_jsonl, scoring_cli) -> None:
    # p = 1/2, consistency 0: 100 × (0.4·0.5 + 0 + 0.3·0.8) = 20 + 24 = 44
    runs = [run_record(success=i % 2 == 0, latency_ms=2000, cost_usd=0.01) for i in range(6)]
    _, out, _ = scoring_cli("report", "-", "--format", "json", stdin=as_jsonl(runs))
    assert agents_by_id(out)["agent"]["composite"]["score"] == 44.0


# --- zero-success floor -------------------------------------------------------------------


def test_zero_success_floor_overrides_perfect_latency_and_cost(
    run_record, as_jsonl, scoring_cli
) -> None:
    # Latency 100 ms and $0.0001 both score 100; without the floor the composite would be
    # 100 × (0 + 0.3·1·1 + 0.3·1) = 60 (consistency 1: p = 0). The floor makes it 0.
    runs = [run_record(success=False, latency_ms=100, cost_usd=0.0001) for _ in range(8)]
    runs.append(run_record(success=None, latency_ms=100, cost_usd=0.0001))  # unknown: not a pass
    _, out, _ = scoring_cli("report", "-", "--format", "json", stdin=as_jsonl(runs))
    composite = agents_by_id(out)["agent"]["composite"]
    assert composite["latency_score"] == 100.0
    assert composite["cost_score"] == 100.0
    assert composite["score"] == 0.0
    assert composite["zero_success_floor"] is True
    assert composite["completed_runs"] == 9


def test_one_success_out_of_many_keeps_the_weighted_formula(
    run_record, as_jsonl, scoring_cli
) -> None:
    # p = 1/50; consistency = 1 − 4·(1/50)·(49/50) = 1 − 196/2500 = 0.9216
    # 100 × (0.4·0.02 + 0.3·0.9216·1 + 0.3·1) = 0.8 + 27.648 + 30 = 58.448 → 58.45
    runs = [run_record(success=i == 0, latency_ms=500, cost_usd=0.001) for i in range(50)]
    _, out, _ = scoring_cli("report", "-", "--format", "json", stdin=as_jsonl(runs))
    composite = agents_by_id(out)["agent"]["composite"]
    assert composite["zero_success_floor"] is False
    assert composite["consistency"] == 0.9216
    assert composite["score"] == 58.45


def test_composite_score_formula_and_floor() -> None:
    assert composite_score(Fraction(0), Fraction(1), Fraction(100), Fraction(100)) == 0
    # 100 × (0.4·0.5 + 0.3·1·0.8 + 0.3·0.65) = 20 + 24 + 19.5 = 63.5
    assert composite_score(Fraction(1, 2), 1, 80, 65) == Fraction(127, 2)
    # the smallest p > 0 keeps the formula: 100 × (0.4·0.001 + 0.3·1·0 + 0.3·0) = 0.04
    assert composite_score(Fraction(1, 1000), 1, 0, 0) == Fraction(4, 100)


def test_score_composite_without_completed_runs_is_null() -> None:
    result = score_composite(0, 0, 0, 0)
    assert result.score is None
    assert result.success_rate is None
    assert result.completed_runs == 0
    assert result.zero_success_floor is False


def test_success_rate_domain() -> None:
    with pytest.raises(ScoringError):
        score_composite(3, 4, 1000, Decimal("0.01"))  # more successes than runs


# --- cohort ---------------------------------------------------------------------------------


def test_no_completed_run_gives_a_null_composite_listed_last(
    run_record, as_jsonl, scoring_cli
) -> None:
    runs = [
        # "a-first" sorts first by id but has no completed run: null, so last.
        run_record(agent_id="a-first", status="failed", success=False),
        run_record(agent_id="a-first", status="timeout", success=None, latency_ms=None),
        run_record(agent_id="a-first", status="queued", finished_at=None, success=None),
        run_record(agent_id="b-zero", success=False),
        run_record(agent_id="c-good", success=True),
    ]
    _, out, _ = scoring_cli("report", "-", "--format", "json", stdin=as_jsonl(runs))
    agents = json.loads(out)["agents"]
    assert [a["agent_id"] for a in agents] == ["c-good", "b-zero", "a-first"]
    assert agents[-1]["composite"] == NULL_COMPOSITE
    assert agents[1]["composite"]["score"] == 0.0  # zero-success floor, not null


def test_only_completed_runs_enter_the_cohort(run_record, as_jsonl) -> None:
    # Failed and timed-out runs carry terrible latency and cost and no success: they must not
    # move the composite. Cohort: 2 completed, 1 success, latency 2000 → 80, $0.01 → 80.
    # p = 1/2 (2 < 5: consistency 1): 100 × (0.2 + 0.24 + 0.24) = 68
    runs = [
        run_record(success=True, latency_ms=2000, cost_usd=0.01),
        run_record(success=False, latency_ms=2000, cost_usd=0.01),
        run_record(status="failed", success=False, latency_ms=99999, cost_usd=9.0),
        run_record(status="timeout", success=False, latency_ms=99999, cost_usd=9.0),
        run_record(status="running", success=None, latency_ms=None, finished_at=None),
    ]
    report = build_report(as_jsonl(runs).splitlines())
    (agent,) = report.agents
    assert agent.composite.completed_runs == 2
    assert agent.composite.success_rate == Fraction(1, 2)
    assert agent.composite.score == 68


def test_means_are_taken_as_written_in_the_json(run_record, as_jsonl) -> None:
    # Costs 0.0612 and 0.0613 average to 0.06125 exactly as written. On the $0.050–$0.100
    # segment the cost score is 50 − 30·(0.06125 − 0.05)/0.05 = 43.25; with p = 1,
    # consistency 1 and latency 500 → 100: 100 × (0.4 + 0.3 + 0.3·0.4325) = 82.975 → 82.98
    # (a half, rounded up). In binary floats the mean is not 0.06125, which would show.
    runs = [run_record(latency_ms=500, cost_usd=c) for c in (0.0612, 0.0613)]
    (agent,) = build_report(as_jsonl(runs).splitlines()).agents
    assert agent.composite.cost_score == Fraction(173, 4)  # 43.25
    assert agent.composite.score == Fraction(82975, 1000)
    assert (Fraction(0.0612) + Fraction(0.0613)) / 2 != Fraction(6125, 100000)
    shown = report_to_json(build_report(as_jsonl(runs).splitlines()))
    assert shown["agents"][0]["composite"]["score"] == 82.98
