"""The 95% intervals of methodology 1.1.0 in the report: checked against a second, naive
implementation (``interval_reference``: runs listed, the decisions' formulas in 60-digit
decimals) on random run logs, and for their properties: low ≤ estimate ≤ high, bounds on the
scale, ``null`` exactly with a reason, ``rank_upper_bound ≤ rank``. The last tests break the
implementation on purpose (monkeypatched) and see each check fail. The pure functions of
``scoring.uncertainty`` are tested in ``test_interval_functions.py``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from builders import jsonl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from interval_reference import composite_part, correctness_part, pass_part, with_ranks

import scoring.uncertainty as unc
from scoring import build_report, report_to_json
from scoring.constants import COST_ANCHORS_USD, LATENCY_ANCHORS_MS, PASS_K_LEVELS, RADAR_WINDOW_RUNS
from scoring.uncertainty import Interval

SOME = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- random run logs with enough tasks ------------------------------------------------------


_LATENCY_CHOICES = [float(a.x) for a in LATENCY_ANCHORS_MS]
_COST_CHOICES = [float(a.x) for a in COST_ANCHORS_USD]


def random_agent_runs(rng: random.Random, agent: str, first: int) -> list[dict[str, Any]]:
    """One agent's runs: 8 to 30 tasks, each with its own success rate and latency and cost
    levels; some agents never succeed, some always do; unknown outcomes and non-completed
    terminal runs mixed in; latencies and costs sometimes exactly at an anchor."""
    mode = rng.choice(["mixed", "mixed", "mixed", "never", "always"])
    records = []
    for t in range(rng.randint(8, 30)):
        rate = {"never": 0.0, "always": 1.0}.get(mode, rng.random())
        level_ms = rng.choice([*_LATENCY_CHOICES, rng.uniform(0, 12000)])
        level_usd = rng.choice([*_COST_CHOICES, rng.uniform(0, 0.3)])
        for _ in range(rng.randint(1, 7)):
            status = rng.choices(["completed", "failed", "timeout"], [8, 1, 1])[0]
            success: bool | None = rng.random() < rate
            if rng.random() < 0.08:
                success = None
            exact_ms = rng.random() < 0.3
            latency = level_ms if exact_ms else round(level_ms * rng.uniform(0.7, 1.3), 1)
            cost = level_usd if exact_ms else round(level_usd * rng.uniform(0.7, 1.3), 6)
            index = first + len(records)
            records.append(
                {
                    "run_id": f"{agent}-{index}",
                    "agent_id": agent,
                    "task_id": f"task-{t}",
                    "status": status,
                    "success": success if status == "completed" else rng.choice([False, None]),
                    "latency_ms": latency if status == "completed" else None,
                    "cost_usd": cost if status == "completed" else None,
                    "steps": None,
                    "finished_at": None,
                }
            )
    return records


def random_log(seed: int, agents: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    records: list[dict[str, Any]] = []
    for a in range(agents):
        records += random_agent_runs(rng, f"agent-{a}", len(records))
    rng.shuffle(records)
    for second, record in enumerate(records):  # input order is time order: the window is easy
        record["finished_at"] = (
            f"2026-01-01T{second // 3600:02d}:{second // 60 % 60:02d}:{second % 60:02d}Z"
        )
    return records


def naive_agent(records: list[dict[str, Any]]) -> dict[str, Any]:
    """The naive interval parts of one agent, from its runs in input order."""
    completed = [r for r in records if r["status"] == "completed"]
    window = records[-RADAR_WINDOW_RUNS:]  # every run is terminal, finished in input order
    outcomes: dict[str, list[int]] = {}
    for r in records:
        if r["success"] is not None:
            counts = outcomes.setdefault(r["task_id"], [0, 0])
            counts[0] += 1
            counts[1] += int(r["success"])
    correctness, correctness_reason = correctness_part(window)
    passes, pass_reason = pass_part([(n, c) for n, c in outcomes.values()])
    return {
        "composite": composite_part(completed),
        "correctness": (correctness, correctness_reason),
        "passes": (passes, pass_reason),
    }


def interval_parts(agent: dict[str, Any]) -> dict[str, Any]:
    """The same parts, read off one agent of the report's JSON."""
    c, r, rep = agent["composite"], agent["radar"], agent["repeatability"]
    return {
        "composite": {
            "interval": c["interval"],
            "success_rate_interval": c["success_rate_interval"],
            "interval_reason": c["interval_reason"],
        },
        "correctness": (r["intervals"]["correctness"], r["interval_reasons"]["correctness"]),
        "passes": (rep["intervals"], rep["interval_reasons"]["pass^1"]),
    }


def report_of(records: list[dict[str, Any]]) -> dict[str, Any]:
    return report_to_json(build_report(jsonl(records).splitlines(keepends=True)))


def check_report_against_reference(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Every interval and rank of the report equals the naive implementation's."""
    document = report_of(records)
    by_agent: dict[str, list[dict[str, Any]]] = {}
    for record in records:
        by_agent.setdefault(record["agent_id"], []).append(record)
    for agent in document["agents"]:
        assert interval_parts(agent) == naive_agent(by_agent[agent["agent_id"]]), agent["agent_id"]
    ranked = with_ranks(
        [{k: v for k, v in a.items() if "rank" not in k} for a in document["agents"]]
    )
    assert document["agents"] == ranked
    return document


@SOME
@given(seed=st.integers(0, 2**32), agents=st.integers(1, 4))
def test_report_intervals_equal_the_naive_reference(seed: int, agents: int) -> None:
    document = check_report_against_reference(random_log(seed, agents))
    for agent in document["agents"]:
        check_agent_properties(agent)


def check_agent_properties(agent: dict[str, Any]) -> None:
    """low ≤ estimate ≤ high, on the scale, null exactly with a reason, UB ≤ rank."""
    c = agent["composite"]
    pairs = [
        (c["score"], c["interval"], 100),
        (c["success_rate"], c["success_rate_interval"], 1),
        (agent["radar"]["axes"]["correctness"], agent["radar"]["intervals"]["correctness"], 100),
        *(
            (
                agent["repeatability"][f"pass^{k}"],
                agent["repeatability"]["intervals"][f"pass^{k}"],
                1,
            )
            for k in PASS_K_LEVELS
        ),
    ]
    for estimate, interval, top in pairs:
        if interval is not None:
            assert 0 <= interval["low"] <= estimate <= interval["high"] <= top
    assert (c["interval"] is None) == (c["interval_reason"] is not None)
    assert (c["success_rate_interval"] is None) == (c["interval_reason"] is not None)
    if agent["rank_upper_bound"] is not None:
        assert 1 <= agent["rank_upper_bound"] <= agent["rank"]


def test_the_corpus_report_keeps_the_properties() -> None:
    from contracts.scoreboard import corpus_paths

    for path in corpus_paths():
        document = report_to_json(build_report(path.read_bytes().splitlines(keepends=True)))
        with_interval = [a for a in document["agents"] if a["composite"]["interval"] is not None]
        assert with_interval, f"{path.name}: no agent has an interval, the check checks nothing"
        for agent in document["agents"]:
            check_agent_properties(agent)


# --- each check can fail ----------------------------------------------------------------------


_FIXED_SEED_LOG = random_log(7, 3)


def _inward(low: unc.Surd, high: unc.Surd, places: int, top: Fraction) -> Interval:
    """Rounded inwards: the low bound up, the high bound down (wrong)."""
    return Interval(max(low.ceil(places), Decimal(0)), min(high.floor(places), Decimal(int(top))))


def _without_small_sample_factor(tasks):  # type: ignore[no-untyped-def]
    """The covariance without T/(T − 1) (wrong)."""
    matrix = ORIGINAL_COVARIANCE(tasks)
    t = len(tasks)
    return tuple(tuple(x * (t - 1) / t for x in row) for row in matrix)


ORIGINAL_COVARIANCE = unc.clustered_covariance


@pytest.mark.parametrize(
    ("name", "replacement"),
    [
        ("outwards", _inward),
        ("clustered_covariance", _without_small_sample_factor),
        ("Z", Fraction(2)),  # a typed z instead of the quantile
    ],
)
def test_the_reference_check_fails_on_a_broken_implementation(
    monkeypatch: pytest.MonkeyPatch, name: str, replacement: Callable[..., Any] | Fraction
) -> None:
    check_report_against_reference(_FIXED_SEED_LOG)  # the real code passes
    monkeypatch.setattr(unc, name, replacement)
    with pytest.raises(AssertionError):
        check_report_against_reference(_FIXED_SEED_LOG)


def test_the_property_check_fails_on_an_interval_that_misses_its_estimate() -> None:
    document = report_of(_FIXED_SEED_LOG)
    agent = next(a for a in document["agents"] if a["composite"]["interval"] is not None)
    check_agent_properties(agent)
    shifted = json.loads(json.dumps(agent))
    shifted["composite"]["interval"]["low"] = shifted["composite"]["score"] + 0.01
    with pytest.raises(AssertionError):
        check_agent_properties(shifted)
    beyond = json.loads(json.dumps(agent))
    beyond["rank_upper_bound"] = beyond["rank"] + 1
    with pytest.raises(AssertionError):
        check_agent_properties(beyond)
