"""The headline composite: success rate, the evidence gate, the zero-success floor, null
without completed runs, the cohort, rounding and the order of agents in the report.

composite = 100 × (w_s·p + w_r·consistency·latency/100 + w_c·cost/100), rounded half up
to two decimals; consistency = 1 − 4p(1 − p) with at least n_min completed runs, else 1.
Runs sit at anchors of the curves or beyond their ends, and the expected composites are the
weighted formula of the live constants (``on_curves``): the comments work them out by hand
on 1.0.0's constants (weights 0.40, 0.30, 0.30; 2,000 ms → 80, $0.010 → 80).
"""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from builders import (
    NULL_COMPOSITE,
    composite_json,
    report_document as report,
    run_fields,
    scores_only,
)
from on_curves import (
    CHEAPEST_USD,
    COST_AT,
    COST_SCORE,
    COST_USD,
    FASTEST_MS,
    LATENCY_AT,
    LATENCY_MS,
    LATENCY_SCORE,
    SLOWEST_MS,
    composite,
    half_up_case,
    published,
    tie_case,
)

from scoring import (
    build_report,
    composite_score,
    outcome_consistency,
    report_to_json,
    score_composite,
)
from scoring.constants import (
    COMPOSITE_WEIGHT_COST,
    COMPOSITE_WEIGHT_RELIABILITY,
    COMPOSITE_WEIGHT_SUCCESS,
    CONSISTENCY_MIN_RUNS,
    COST_ANCHORS_USD,
    LATENCY_ANCHORS_MS,
    NEUTRAL_CONSISTENCY,
)
from scoring.formulas.composite import success_rate
from scoring.formulas.curves import cost_score, latency_score, sloped_segments
from scoring.registry import ScoringError

_T0 = datetime(2024, 1, 1, tzinfo=UTC)
_counter = iter(range(10**9))


def rec(
    agent: str = "a",
    status: str = "completed",
    success: bool | None = True,
    latency: float | None = LATENCY_MS,
    cost: float | None = COST_USD,
    task: str = "t",
    steps: int | None = None,
) -> dict[str, Any]:
    n = next(_counter)
    finished = (_T0 + timedelta(minutes=n)).isoformat()
    return run_fields(f"run-{n}", agent, task, status, success, latency, cost, steps, finished)


def agent(doc: dict[str, Any], agent_id: str) -> dict[str, Any]:
    return next(a for a in doc["agents"] if a["agent_id"] == agent_id)


# --- the weights are the published ones ----------------------------------------------------


def test_weights_are_40_30_30() -> None:
    assert (
        Decimal("0.40"),
        Decimal("0.30"),
        Decimal("0.30"),
    ) == (COMPOSITE_WEIGHT_SUCCESS, COMPOSITE_WEIGHT_RELIABILITY, COMPOSITE_WEIGHT_COST)


# --- success rate --------------------------------------------------------------------------


def test_success_rate() -> None:
    assert success_rate(3, 4) == Fraction(3, 4)
    assert success_rate(0, 7) == 0
    assert success_rate(7, 7) == 1


@pytest.mark.parametrize(("successes", "completed"), [(0, 0), (1, 0), (5, 4), (-1, 3)])
def test_success_rate_domain(successes: int, completed: int) -> None:
    with pytest.raises(ScoringError):
        success_rate(successes, completed)


# --- the evidence gate --------------------------------------------------------------------


def test_gate_follows_the_constants() -> None:
    p = Fraction(1, 2)
    assert outcome_consistency(p, CONSISTENCY_MIN_RUNS - 1) == Fraction(NEUTRAL_CONSISTENCY)
    assert outcome_consistency(p, CONSISTENCY_MIN_RUNS) == 1 - 4 * p * (1 - p)


def test_gate_at_4_and_5_runs_by_hand() -> None:
    assert CONSISTENCY_MIN_RUNS == 5
    assert outcome_consistency(Fraction(1, 2), 4) == 1  # below the gate: neutral
    assert outcome_consistency(Fraction(1, 2), 5) == 0  # 1 − 4 × 1/2 × 1/2
    # 1 − 4 × 2/5 × 3/5 = 1 − 24/25
    assert outcome_consistency(Fraction(2, 5), 5) == Fraction(1, 25)
    assert outcome_consistency(Fraction(1, 4), 4) == 1
    assert outcome_consistency(Fraction(1, 4), 8) == Fraction(1, 4)  # 1 − 4 × 1/4 × 3/4 = 1/4
    assert outcome_consistency(0, 100) == 1
    assert outcome_consistency(1, 100) == 1


@pytest.mark.parametrize("p", [Fraction(-1, 10), Fraction(11, 10)])
def test_consistency_domain(p: Fraction) -> None:
    with pytest.raises(ScoringError):
        outcome_consistency(p, 10)


def test_gate_through_the_report_at_4_completed_runs() -> None:
    # 4 completed runs, 2 successes: p = 1/2, consistency neutral 1; 2000 ms → 80, $0.01 → 80.
    # composite = 100 × (0.40 × 0.5 + 0.30 × 1 × 0.80 + 0.30 × 0.80) = 20 + 24 + 24 = 68
    runs = [rec(success=s) for s in (True, True, False, False)]
    found = report(runs)["agents"][0]["composite"]
    expected = published(composite(Fraction(1, 2), NEUTRAL_CONSISTENCY))
    assert scores_only(found) == composite_json(
        expected,
        0.5,
        1.0,
        float(LATENCY_SCORE),
        float(COST_SCORE),
        runs=4,
        mean_ms=LATENCY_MS,
        mean_usd=COST_USD,
    )


# Composites through the report, worked by hand: the successes of one agent's completed runs
# (every run at the rec() defaults) and the composite the report publishes.
BY_HAND_THROUGH_THE_REPORT = {
    # 5 completed runs, 2 successes: p = 2/5, consistency 1 − 4 × 2/5 × 3/5 = 1/25.
    # composite = 100 × (0.40 × 0.4 + 0.30 × 0.04 × 0.80 + 0.30 × 0.80)
    #           = 16 + 0.96 + 24 = 40.96
    "the gate at 5 completed runs": (
        [True, False, True, False, False],
        {
            "score": published(composite(Fraction(2, 5), Fraction(1, 25))),
            "success_rate": 0.4,
            "consistency": 0.04,
            "completed_runs": 5,
        },
    ),
    # 150 completed runs: the first 50 fail, the last 100 succeed. The cohort has no
    # window, the composite reads all of them: p = 100/150 = 2/3, consistency
    # 1 − 4 × 2/3 × 1/3 = 1/9.
    # 100 × (0.40 × 2/3 + 0.30 × 1/9 × 0.80 + 0.30 × 0.80) = 80/3 + 8/3 + 24 = 53.333…
    "the cohort has no window": (
        [i >= 50 for i in range(150)],
        {
            "score": published(composite(Fraction(2, 3), Fraction(1, 9))),
            "success_rate": 0.6667,
            "consistency": 0.1111,
            "completed_runs": 150,
        },
    ),
}


@pytest.mark.parametrize("case", sorted(BY_HAND_THROUGH_THE_REPORT))
def test_composite_through_the_report_by_hand(case: str) -> None:
    successes, expected = BY_HAND_THROUGH_THE_REPORT[case]
    composite = report([rec(success=s) for s in successes])["agents"][0]["composite"]
    for field, value in expected.items():
        assert composite[field] == value, field


# --- the formula ---------------------------------------------------------------------------


def test_composite_formula_by_hand() -> None:
    # 100 × (0.40 × 3/4 + 0.30 × 1/4 × 65/100 + 0.30 × 50/100) = 30 + 4.875 + 15 = 49.875
    expected = Fraction(49875, 1000)
    assert composite_score(Fraction(3, 4), Fraction(1, 4), Fraction(65), Fraction(50)) == expected
    assert composite_score(1, 1, 100, 100) == 100
    # 100 × (0.40 × 1 + 0 + 0) = 40
    assert composite_score(1, 1, 0, 0) == 40


def test_score_composite_by_hand() -> None:
    # 4 runs, 3 successes: p = 3/4, consistency neutral; 2000 ms → 80; $0.010 → 80.
    # 100 × (0.30 + 0.30 × 0.80 + 0.30 × 0.80) = 30 + 24 + 24 = 78
    result = score_composite(4, 3, LATENCY_AT.x, COST_AT.x)
    assert result.score == composite(Fraction(3, 4), 1)
    assert result.success_rate == Fraction(3, 4)
    assert result.consistency == 1
    assert (result.latency_score, result.cost_score) == (LATENCY_SCORE, COST_SCORE)
    assert result.completed_runs == 4
    assert result.zero_success_floor is False


def test_no_completed_run_gives_null_composite() -> None:
    result = score_composite(0, 0, 0, 0)
    assert result.score is None
    assert result.success_rate is None
    assert result.completed_runs == 0
    assert result.zero_success_floor is False


# --- the zero-success floor ----------------------------------------------------------------


def test_zero_success_floor_pure() -> None:
    # Perfect latency and cost would give 100 × (0 + 0.30 + 0.30) = 60 without the floor.
    assert composite_score(0, 1, 100, 100) == 0
    result = score_composite(6, 0, 0, 0)
    assert result.score == 0
    assert result.zero_success_floor is True
    assert (result.latency_score, result.cost_score) == (100, 100)


def test_zero_success_floor_through_the_report() -> None:
    runs = [rec(success=False, latency=0, cost=0) for _ in range(6)]
    composite = report(runs)["agents"][0]["composite"]
    # consistency: p = 0, so 1 − 0
    assert scores_only(composite) == composite_json(
        0.0, 0.0, 1.0, 100.0, 100.0, runs=6, floor=True, mean_ms=0.0, mean_usd=0.0
    )


def test_unknown_outcomes_are_not_successes_and_trigger_the_floor() -> None:
    runs = [rec(success=None, latency=0, cost=0) for _ in range(3)]
    composite = report(runs)["agents"][0]["composite"]
    assert composite["score"] == 0.0
    assert composite["zero_success_floor"] is True
    # one success and one unknown: p = 1/2 (unknown counts as not successful)
    # 100 × (0.40 × 0.5 + 0.30 × 1 × 1 + 0.30 × 1) = 20 + 30 + 30 = 80
    runs = [rec(success=True, latency=0, cost=0), rec(success=None, latency=0, cost=0)]
    composite = report(runs)["agents"][0]["composite"]
    assert composite["success_rate"] == 0.5
    assert composite["score"] == 80.0


def test_one_success_keeps_the_weighted_formula() -> None:
    # 10 completed runs, 1 success: p = 0.1, consistency 1 − 4 × 0.1 × 0.9 = 0.64;
    # below the first anchors, 100 and 100.
    # composite = 100 × (0.40 × 0.1 + 0.30 × 0.64 × 1 + 0.30 × 1) = 4 + 19.2 + 30 = 53.2
    runs = [rec(success=i == 0, latency=FASTEST_MS, cost=CHEAPEST_USD) for i in range(10)]
    found = report(runs)["agents"][0]["composite"]
    best = (LATENCY_ANCHORS_MS[0].score, COST_ANCHORS_USD[0].score)
    expected = composite(Fraction(1, 10), Fraction(64, 100), *best)
    assert found["score"] == published(expected)
    assert found["consistency"] == 0.64
    assert found["zero_success_floor"] is False
    fastest, cheapest = Decimal(str(FASTEST_MS)), Decimal(str(CHEAPEST_USD))
    assert score_composite(10, 1, fastest, cheapest).score == expected


# --- the cohort: every completed run, nothing else ----------------------------------------


def test_cohort_is_completed_runs_only() -> None:
    base = [rec(success=True, latency=1000, cost=0.02), rec(success=False, latency=3000, cost=0.04)]
    others = [
        rec(status="failed", success=True, latency=99999, cost=9.0),
        rec(status="timeout", success=True, latency=None, cost=None),
        rec(status="queued", success=True, latency=1, cost=0.0),
        rec(status="running", success=False, latency=1, cost=0.0),
    ]
    # Mean 2000 ms → 80; mean $0.03 → 65; p = 1/2, neutral consistency.
    # 100 × (0.20 + 0.30 × 0.80 + 0.30 × 0.65) = 20 + 24 + 19.5 = 63.5
    expected = report(base)["agents"][0]["composite"]
    means = (Decimal(str(expected["mean_latency_ms"])), Decimal(str(expected["mean_cost_usd"])))
    score = composite(Fraction(1, 2), 1, latency_score(means[0]), cost_score(means[1]))
    assert expected["score"] == published(score)
    assert report(base + others)["agents"][0]["composite"] == expected


# --- agents without completed runs --------------------------------------------------------


def test_agent_without_completed_runs_is_null_and_last() -> None:
    runs = [
        rec(agent="aaa", status="failed", success=False, latency=None, cost=None),
        rec(agent="aaa", status="timeout", success=None, latency=None, cost=None),
        rec(agent="zzz", success=False, latency=0, cost=0),  # scores 0 (floor)
        rec(agent="mmm", success=True),
    ]
    doc = report(runs)
    assert [a["agent_id"] for a in doc["agents"]] == ["mmm", "zzz", "aaa"]
    assert agent(doc, "aaa")["composite"] == NULL_COMPOSITE
    # the other scores are still reported for it
    assert agent(doc, "aaa")["radar"]["window_runs"] == 2


def test_null_json_is_literally_null() -> None:
    runs = [rec(agent="x", status="failed", success=False, latency=None, cost=None)]
    text = json.dumps(report(runs))
    assert (
        '"composite": {"score": null, "success_rate": null, "consistency": null, '
        '"latency_score": null, "cost_score": null, "completed_runs": 0, '
        '"zero_success_floor": false, "mean_latency_ms": null, "mean_cost_usd": null, '
        '"reason": "no completed run", "interval": null, "success_rate_interval": null, '
        '"interval_reason": ' + json.dumps(NULL_COMPOSITE["interval_reason"]) + "}"
    ) in text


# --- rounding and order -------------------------------------------------------------------


def test_composite_rounds_half_up() -> None:
    # Three successful runs beyond the last latency anchor, their costs on the cost curve's
    # last slope placed so that the exact composite ends in a half at the third decimal
    # (with 1.0.0's constants, mean cost 0.59975/3: 40 + 0.30 × 1/60 = 40.005).
    costs, exact = half_up_case()
    runs = [rec(latency=SLOWEST_MS, cost=float(c)) for c in costs]
    found = report(runs)["agents"][0]["composite"]
    assert found["score"] == published(exact)
    assert found["score"] > exact  # half-even would round it down


def test_order_uses_the_published_two_decimal_value_then_agent_id() -> None:
    # One successful run each, beyond the last latency anchor, costs on the last slope of
    # the cost curve: "a-low" and "b-high" publish the same value from different exact
    # ones (a-low's the lower), "c-top" a higher one. (With 1.0.0's constants, 40.025 and
    # 40.03 both publish as 40.03; c-top 40.06.)
    low, high, top = tie_case()
    runs = [
        rec(agent="b-high", latency=SLOWEST_MS, cost=float(high)),
        rec(agent="a-low", latency=SLOWEST_MS, cost=float(low)),
        rec(agent="c-top", latency=SLOWEST_MS, cost=float(top)),
        # "d-null": no completed run.
        rec(agent="d-null", status="timeout", success=None, latency=None, cost=None),
        # "0-null": no completed run either; nulls are ordered by agent_id.
        rec(agent="0-null", status="failed", success=None, latency=None, cost=None),
    ]
    doc = report(runs)
    order = [(a["agent_id"], a["composite"]["score"]) for a in doc["agents"]]
    tied = order[1][1]
    assert [name for name, _ in order] == ["c-top", "a-low", "b-high", "0-null", "d-null"]
    assert order[0][1] > tied == order[2][1]
    assert [score_composite(1, 1, SLOWEST_MS, c).score for c in (low, high)] == sorted(
        score_composite(1, 1, SLOWEST_MS, c).score for c in (low, high)
    )
    assert (
        score_composite(1, 1, SLOWEST_MS, low).score < score_composite(1, 1, SLOWEST_MS, high).score
    )


def test_order_of_exact_ties_is_by_agent_id() -> None:
    runs = [rec(agent=name) for name in ("delta", "alpha", "charlie", "bravo")]
    assert [a["agent_id"] for a in report(runs)["agents"]] == [
        "alpha",
        "bravo",
        "charlie",
        "delta",
    ]


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
        run_record(success=s, latency_ms=LATENCY_MS, cost_usd=COST_USD)
        for s in (True, True, False, False)
    ]
    code, out, _ = scoring_cli("report", "-", "--format", "json", stdin=as_jsonl(runs))
    assert code == 0
    found = agents_by_id(out)["agent"]["composite"]
    assert found["consistency"] == 1.0
    assert found["score"] == published(composite(Fraction(1, 2), 1))


def test_composite_at_five_completed_runs(run_record, as_jsonl, scoring_cli) -> None:
    # p = 3/5, consistency = 1 − 4·(3/5)·(2/5) = 1/25 = 0.04
    # 100 × (0.4·0.6 + 0.3·0.04·0.8 + 0.3·0.8) = 24 + 0.96 + 24 = 48.96
    runs = [
        run_record(success=s, latency_ms=LATENCY_MS, cost_usd=COST_USD)
        for s in (True, True, True, False, False)
    ]
    code, out, _ = scoring_cli("report", "-", "--format", "json", stdin=as_jsonl(runs))
    assert code == 0
    found = agents_by_id(out)["agent"]["composite"]
    assert found["consistency"] == 0.04
    assert found["success_rate"] == 0.6
    assert found["score"] == published(composite(Fraction(3, 5), Fraction(1, 25)))


def test_composite_at_fifty_fifty_with_six_runs(run_record, as_jsonl, scoring_cli) -> None:
    # p = 1/2, consistency 0: 100 × (0.4·0.5 + 0 + 0.3·0.8) = 20 + 24 = 44
    runs = [
        run_record(success=i % 2 == 0, latency_ms=LATENCY_MS, cost_usd=COST_USD) for i in range(6)
    ]
    _, out, _ = scoring_cli("report", "-", "--format", "json", stdin=as_jsonl(runs))
    expected = published(composite(Fraction(1, 2), 0))
    assert agents_by_id(out)["agent"]["composite"]["score"] == expected


# --- zero-success floor -------------------------------------------------------------------


def test_zero_success_floor_overrides_perfect_latency_and_cost(
    run_record, as_jsonl, scoring_cli
) -> None:
    # Below the first anchors latency and cost both score their best; without the floor the
    # composite would be 100 × (0 + 0.3·1·1 + 0.3·1) = 60 (consistency 1: p = 0). The floor
    # makes it 0.
    fast = {"latency_ms": FASTEST_MS, "cost_usd": CHEAPEST_USD}
    runs = [run_record(success=False, **fast) for _ in range(8)]
    runs.append(run_record(success=None, **fast))  # unknown: not a pass
    _, out, _ = scoring_cli("report", "-", "--format", "json", stdin=as_jsonl(runs))
    found = agents_by_id(out)["agent"]["composite"]
    assert found["latency_score"] == float(LATENCY_ANCHORS_MS[0].score)
    assert found["cost_score"] == float(COST_ANCHORS_USD[0].score)
    assert composite(0, 1, found["latency_score"], found["cost_score"]) > 0
    assert found["score"] == 0.0
    assert found["zero_success_floor"] is True
    assert found["completed_runs"] == 9


def test_one_success_out_of_many_keeps_the_weighted_formula(
    run_record, as_jsonl, scoring_cli
) -> None:
    # p = 1/50; consistency = 1 − 4·(1/50)·(49/50) = 1 − 196/2500 = 0.9216
    # 100 × (0.4·0.02 + 0.3·0.9216·1 + 0.3·1) = 0.8 + 27.648 + 30 = 58.448 → 58.45
    fast = {"latency_ms": FASTEST_MS, "cost_usd": CHEAPEST_USD}
    runs = [run_record(success=i == 0, **fast) for i in range(50)]
    _, out, _ = scoring_cli("report", "-", "--format", "json", stdin=as_jsonl(runs))
    found = agents_by_id(out)["agent"]["composite"]
    assert found["zero_success_floor"] is False
    assert found["consistency"] == 0.9216
    best = (LATENCY_ANCHORS_MS[0].score, COST_ANCHORS_USD[0].score)
    assert found["score"] == published(composite(Fraction(1, 50), Fraction(9216, 10000), *best))


def test_composite_score_formula_and_floor() -> None:
    assert composite_score(Fraction(0), Fraction(1), Fraction(100), Fraction(100)) == 0
    # 100 × (0.4·0.5 + 0.3·1·0.8 + 0.3·0.65) = 20 + 24 + 19.5 = 63.5
    assert composite_score(Fraction(1, 2), 1, 80, 65) == Fraction(127, 2)
    # the smallest p > 0 keeps the formula: 100 × (0.4·0.001 + 0.3·1·0 + 0.3·0) = 0.04
    assert composite_score(Fraction(1, 1000), 1, 0, 0) == Fraction(4, 100)


def test_score_composite_refuses_more_successes_than_runs() -> None:
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
        run_record(success=True, latency_ms=LATENCY_MS, cost_usd=COST_USD),
        run_record(success=False, latency_ms=LATENCY_MS, cost_usd=COST_USD),
        run_record(status="failed", success=False, latency_ms=99999, cost_usd=9.0),
        run_record(status="timeout", success=False, latency_ms=99999, cost_usd=9.0),
        run_record(status="running", success=None, latency_ms=None, finished_at=None),
    ]
    report = build_report(as_jsonl(runs).splitlines())
    (agent,) = report.agents
    assert agent.composite.completed_runs == 2
    assert agent.composite.success_rate == Fraction(1, 2)
    assert agent.composite.score == composite(Fraction(1, 2), 1)


def test_means_are_taken_as_written_in_the_json(run_record, as_jsonl) -> None:
    # Two costs a ten-thousandth of a sloped segment apart average to a decimal with one
    # more digit, exactly as written (with 1.0.0's constants 0.0612 and 0.0613: 0.06125,
    # 50 − 30·(0.06125 − 0.05)/0.05 = 43.25). In binary floats the mean is not that decimal,
    # which would show in the score.
    left, right = sloped_segments(COST_ANCHORS_USD)[-2]
    step = (right.x - left.x) / 10000
    costs = next(
        (c, c + step)
        for c in (left.x + (right.x - left.x) * Decimal(f"0.{d}") for d in range(21, 99))
        if (Fraction(float(c)) + Fraction(float(c + step))) / 2 != Fraction(c + step / 2)
    )
    runs = [run_record(latency_ms=FASTEST_MS, cost_usd=float(c)) for c in costs]
    (agent,) = build_report(as_jsonl(runs).splitlines()).agents
    mean = Fraction(costs[0] + step / 2)
    slope = Fraction(right.score - left.score) / Fraction(right.x - left.x)
    cost = Fraction(left.score) + slope * (mean - Fraction(left.x))
    assert agent.composite.cost_score == cost
    exact = composite(1, 1, LATENCY_ANCHORS_MS[0].score, cost)
    assert agent.composite.score == exact
    shown = report_to_json(build_report(as_jsonl(runs).splitlines()))
    assert shown["agents"][0]["composite"]["score"] == published(exact)
