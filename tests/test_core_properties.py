"""Property tests: bounds, curve continuity and monotonicity, pass^k in k, and the streaming
``build_report`` against a plain in-memory reference written here.

The reference groups, windows, sums and takes medians itself (exactly, on the numbers as
written); it calls the library's pure per-axis functions only for the last formula of a
value (the latency/cost curves, the radar latency/cost/tool axes, the composite formula).
"""

from __future__ import annotations

import itertools
import json
import math
import random
import statistics
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from fractions import Fraction
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import build_report, report_to_json
from scoring.composite import composite_score
from scoring.constants import (
    CONSISTENCY_MIN_RUNS,
    COST_ANCHORS_USD,
    LATENCY_ANCHORS_MS,
    METHODOLOGY_VERSION,
    NEUTRAL_CONSISTENCY,
    PASS_K_LEVELS,
    RADAR_DEFAULT_WEIGHTS,
    RADAR_WINDOW_RUNS,
    REPEATABILITY_MIN_OUTCOMES,
    ROBUSTNESS_MIN_OUTCOMES,
    Axis,
)
from scoring.curves import cost_score, latency_score
from scoring.models import OutcomeRecord
from scoring.outcome import score_outcome
from scoring.radar import cost_axis, latency_axis, tool_efficiency_axis
from scoring.repeatability import aggregate_pass_hat_k, pass_hat_k

TERMINAL = {"completed", "failed", "timeout"}
STATUSES = ["completed", "failed", "timeout", "queued", "running"]
_T0 = datetime(2024, 3, 1, tzinfo=UTC)
_OFFSETS = [timedelta(0), timedelta(hours=1), timedelta(hours=-5), timedelta(hours=5, minutes=30)]

# --- the reference --------------------------------------------------------------------------


def half_up(value: Fraction | None, places: int) -> float | None:
    if value is None:
        return None
    units = math.floor(value * 10**places + Fraction(1, 2))
    return float(Decimal(units).scaleb(-places))


def written(value: float | int) -> Fraction:
    """The number as it was written in the JSON line (``json.dumps`` writes ``repr``)."""
    return Fraction(repr(value))


def _median(values: list[Fraction]) -> Fraction | None:
    return statistics.median(values) if values else None


def reference_agent(
    agent_id: str, runs: list[tuple[int, dict[str, Any]]], weights: Mapping[Axis, Any] | None
) -> dict[str, Any]:
    # composite: every completed run
    completed = [r for _, r in runs if r["status"] == "completed"]
    n = len(completed)
    if n == 0:
        composite: dict[str, Any] = {
            "score": None,
            "success_rate": None,
            "consistency": None,
            "latency_score": None,
            "cost_score": None,
            "completed_runs": 0,
            "zero_success_floor": False,
        }
    else:
        successes = sum(1 for r in completed if r["success"] is True)
        p = Fraction(successes, n)
        consistency = (
            1 - 4 * p * (1 - p) if n >= CONSISTENCY_MIN_RUNS else Fraction(NEUTRAL_CONSISTENCY)
        )
        mean_latency = sum((written(r["latency_ms"]) for r in completed), Fraction(0)) / n
        mean_cost = sum((written(r["cost_usd"]) for r in completed), Fraction(0)) / n
        lat, cost = latency_score(mean_latency), cost_score(mean_cost)
        score = Fraction(0) if successes == 0 else composite_score(p, consistency, lat, cost)
        composite = {
            "score": half_up(score, 2),
            "success_rate": half_up(p, 4),
            "consistency": half_up(consistency, 4),
            "latency_score": half_up(lat, 2),
            "cost_score": half_up(cost, 2),
            "completed_runs": n,
            "zero_success_floor": successes == 0,
        }

    # radar: the latest RADAR_WINDOW_RUNS terminal runs by (instant, input order)
    terminal = [(i, r) for i, r in runs if r["status"] in TERMINAL]
    terminal.sort(key=lambda ir: (datetime.fromisoformat(ir[1]["finished_at"]), ir[0]))
    window = [r for _, r in terminal[-RADAR_WINDOW_RUNS:]]
    known = [r["success"] for r in window if r["success"] is not None]
    correctness = Fraction(100 * sum(known), len(known)) if known else None
    latencies = [written(r["latency_ms"]) for r in window if r["latency_ms"] is not None]
    costs = [written(r["cost_usd"]) for r in window if r["cost_usd"] is not None]
    steps = [Fraction(r["steps"]) for r in window if r["steps"] is not None]
    median_latency = _median(latencies)
    per_task: dict[str, list[bool]] = {}
    for r in window:
        if r["success"] is not None:
            per_task.setdefault(r["task_id"], []).append(r["success"])
    determinisms = [
        (2 * Fraction(sum(o), len(o)) - 1) ** 2
        for o in per_task.values()
        if len(o) >= ROBUSTNESS_MIN_OUTCOMES
    ]
    axes: dict[Axis, Fraction | None] = {
        Axis.CORRECTNESS: correctness,
        Axis.LATENCY: latency_axis(median_latency, len(latencies)),
        Axis.COST: cost_axis(_median(costs)),
        Axis.TOOL_EFFICIENCY: tool_efficiency_axis(_median(steps)),
        Axis.ROBUSTNESS: 100 * sum(determinisms, Fraction(0)) / len(determinisms)
        if determinisms
        else None,
    }
    chosen = RADAR_DEFAULT_WEIGHTS if weights is None else weights
    total = sum((Fraction(chosen.get(a, 0)) for a, v in axes.items() if v is not None), Fraction(0))
    weighted = sum(
        (Fraction(chosen.get(a, 0)) * v for a, v in axes.items() if v is not None), Fraction(0)
    )
    radar = {
        "axes": {a.value: half_up(v, 2) for a, v in axes.items()},
        "profile": half_up(weighted / total, 2) if total else None,
        "window_runs": len(window),
        "median_latency_ms": None if median_latency is None else float(median_latency),
    }

    # repeatability: every terminal run with a known outcome, by task
    outcomes: dict[str, list[int]] = {}
    for _, r in runs:
        if r["status"] in TERMINAL and r["success"] is not None:
            counts = outcomes.setdefault(r["task_id"], [0, 0])
            counts[0] += 1
            counts[1] += r["success"]
    qualifying = [(n_, c) for n_, c in outcomes.values() if n_ >= REPEATABILITY_MIN_OUTCOMES]
    repeatability: dict[str, Any] = {}
    for k in PASS_K_LEVELS:
        values = [
            Fraction(math.comb(c, k), math.comb(n_, k)) if c >= k else Fraction(0)
            for n_, c in qualifying
        ]
        mean = sum(values, Fraction(0)) / len(values) if values else None
        repeatability[f"pass^{k}"] = half_up(mean, 4)
    repeatability["tasks"] = len(qualifying)
    return {
        "agent_id": agent_id,
        "composite": composite,
        "radar": radar,
        "repeatability": repeatability,
    }


def reference_report(
    records: list[dict[str, Any]], weights: Mapping[Axis, Any] | None = None
) -> dict[str, Any]:
    by_agent: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for index, record in enumerate(records):
        by_agent.setdefault(record["agent_id"], []).append((index, record))
    agents = [reference_agent(a, runs, weights) for a, runs in by_agent.items()]
    agents.sort(
        key=lambda a: (
            a["composite"]["score"] is None,
            -(a["composite"]["score"] or 0.0),
            a["agent_id"],
        )
    )
    return {"methodology_version": METHODOLOGY_VERSION, "agents": agents}


def to_lines(records: list[dict[str, Any]]) -> list[bytes]:
    return [json.dumps(r).encode() + b"\n" for r in records]


def check_bounds(document: dict[str, Any]) -> None:
    def within(value: float | None, high: float) -> None:
        assert value is None or 0 <= value <= high, value

    for agent in document["agents"]:
        c = agent["composite"]
        for key in ("score", "latency_score", "cost_score"):
            within(c[key], 100)
        for key in ("success_rate", "consistency"):
            within(c[key], 1)
        for value in agent["radar"]["axes"].values():
            within(value, 100)
        within(agent["radar"]["profile"], 100)
        assert 0 <= agent["radar"]["window_runs"] <= RADAR_WINDOW_RUNS
        for k in PASS_K_LEVELS:
            within(agent["repeatability"][f"pass^{k}"], 1)


# --- random run logs ------------------------------------------------------------------------


def _timestamp(minute: int, micro: int, offset: timedelta) -> str:
    instant = _T0 + timedelta(minutes=minute, microseconds=micro)
    text = instant.astimezone(timezone(offset)).isoformat()
    return text.replace("+00:00", "Z") if offset == timedelta(0) and minute % 2 else text


def _number(rng: random.Random, scale: float) -> float | int:
    kind = rng.randrange(7)
    if kind == 0:
        return rng.randint(0, int(scale))
    if kind == 1:
        return round(rng.uniform(0, scale), rng.randint(0, 4))
    if kind == 2:
        return rng.uniform(0, scale)  # 17 significant digits
    if kind == 3:
        return rng.uniform(0, scale * 1e-6)
    if kind == 4:
        return rng.uniform(0, scale * 1e4)  # beyond 2**22 for latencies
    if kind == 5:
        return rng.choice([0, 0.1, 0.2, 0.3, 1e-7, 2.5e-5, 4194304.0, 4194304.5])
    anchors = LATENCY_ANCHORS_MS if scale > 1 else COST_ANCHORS_USD
    return float(rng.choice(anchors).x)


def random_log(
    rng: random.Random, size: int, agents: int, tasks: int, minutes: int
) -> list[dict[str, Any]]:
    records = []
    status_weights = [rng.randint(1, 8) for _ in STATUSES]
    for i in range(size):
        status = rng.choices(STATUSES, status_weights)[0]
        terminal = status in TERMINAL
        completed = status == "completed"
        latency = _number(rng, 12000) if completed or rng.random() < 0.5 else None
        cost = _number(rng, 0.25) if completed or rng.random() < 0.5 else None
        at = None
        if terminal or rng.random() < 0.3:
            micro = rng.choice([0, 0, 0, rng.randrange(10**6)])
            at = _timestamp(rng.randrange(minutes), micro, rng.choice(_OFFSETS))
        records.append(
            {
                "run_id": f"run-{i}",
                "agent_id": f"agent-{rng.randrange(agents)}",
                "task_id": f"task-{rng.randrange(tasks)}",
                "status": status,
                "success": rng.choice([True, True, False, None]),
                "latency_ms": latency,
                "cost_usd": cost,
                "steps": rng.choice([None, rng.randint(0, 15)]),
                "finished_at": at,
            }
        )
    return records


_FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_FAST
@given(
    seed=st.integers(0, 2**32),
    size=st.one_of(st.integers(0, 40), st.integers(100, 450)),
    agents=st.integers(1, 4),
    tasks=st.integers(1, 8),
    minutes=st.sampled_from([1, 5, 60, 10_000]),
)
def test_report_equals_reference(seed: int, size: int, agents: int, tasks: int, minutes: int):
    records = random_log(random.Random(seed), size, agents, tasks, minutes)
    actual = report_to_json(build_report(to_lines(records)))
    assert actual == reference_report(records)
    check_bounds(actual)


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    weights=st.dictionaries(
        st.sampled_from(list(Axis)), st.integers(0, 5).map(Decimal), min_size=1
    ).filter(lambda w: any(w.values())),
)
def test_viewer_weights_equal_reference_and_never_change_composite(
    seed: int, weights: dict[Axis, Decimal]
) -> None:
    records = random_log(random.Random(seed), 150, 2, 4, 30)
    plain = report_to_json(build_report(to_lines(records)))
    viewed = report_to_json(build_report(to_lines(records), weights))
    assert viewed == reference_report(records, weights)
    assert [a["composite"] for a in viewed["agents"]] == [a["composite"] for a in plain["agents"]]


@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**32))
def test_report_equals_reference_on_long_logs(seed: int) -> None:
    # Several thousand runs: more than one read chunk, many window trims per agent, sums in
    # several batches; few distinct instants so ties are everywhere, input order shuffled.
    rng = random.Random(seed)
    records = random_log(rng, 5000, 2, 5, 90)
    actual = report_to_json(build_report(to_lines(records)))
    assert actual == reference_report(records)


def test_long_log_with_old_runs_arriving_late() -> None:
    # 1200 terminal runs of one agent: the newest 600 first (in time order), then 600 older
    # ones, ties included. Old runs arriving after a window trim must not enter the window.
    records = []
    for i in range(1200):
        minute = 1000 + i // 3 if i < 600 else (i - 600) // 2
        records.append(
            {
                "run_id": f"r{i}",
                "agent_id": "a",
                "task_id": f"t{i % 7}",
                "status": ["completed", "failed", "timeout"][i % 3],
                "success": [True, False, None, True][i % 4],
                "latency_ms": 100.0 + (i * 37) % 9000,
                "cost_usd": 0.001 * (i % 150),
                "steps": i % 11,
                "finished_at": _timestamp(minute, 0, _OFFSETS[i % 4]),
            }
        )
    # Runs 500..599 are the newest 100; run 500 is the oldest of them (minute 1166, tied
    # with runs 498 and 499, written before it). A copy written last ties with it and is
    # newer, so it enters the window and pushes run 500 out.
    records.append(dict(records[500], run_id="late-tie", success=False, steps=0))
    actual = report_to_json(build_report(to_lines(records)))
    assert actual == reference_report(records)
    assert actual["agents"][0]["radar"]["window_runs"] == RADAR_WINDOW_RUNS


# --- small logs drawn directly by hypothesis -------------------------------------------------

_run = st.fixed_dictionaries(
    {
        "agent_id": st.sampled_from(["a", "b", "c"]),
        "task_id": st.sampled_from(["t1", "t2", "t3"]),
        "status": st.sampled_from(STATUSES),
        "success": st.sampled_from([True, False, None]),
        "latency_ms": st.one_of(
            st.none(),
            st.integers(0, 20000),
            st.floats(0, 1e7, allow_nan=False, allow_infinity=False),
        ),
        "cost_usd": st.one_of(
            st.none(),
            st.sampled_from([0, 0.001, 0.01, 0.05, 0.1, 0.2, 0.11]),
            st.floats(0, 1, allow_nan=False, allow_infinity=False),
        ),
        "steps": st.one_of(st.none(), st.integers(0, 20)),
        "minute": st.integers(0, 5),
        "offset": st.sampled_from(_OFFSETS),
    }
)


def _valid(draft: dict[str, Any], i: int) -> dict[str, Any]:
    record = {k: v for k, v in draft.items() if k not in ("minute", "offset")}
    record["run_id"] = f"r{i}"
    if record["status"] == "completed":
        record["latency_ms"] = 0 if record["latency_ms"] is None else record["latency_ms"]
        record["cost_usd"] = 0 if record["cost_usd"] is None else record["cost_usd"]
    record["finished_at"] = (
        _timestamp(draft["minute"], 0, draft["offset"])
        if record["status"] in TERMINAL or draft["minute"] % 2
        else None
    )
    return record


@settings(max_examples=200, deadline=None)
@given(st.lists(_run, max_size=30))
def test_small_logs_equal_reference(drafts: list[dict[str, Any]]) -> None:
    records = [_valid(d, i) for i, d in enumerate(drafts)]
    actual = report_to_json(build_report(to_lines(records)))
    assert actual == reference_report(records)
    check_bounds(actual)


# --- curves ---------------------------------------------------------------------------------

_CURVES = [(LATENCY_ANCHORS_MS, latency_score), (COST_ANCHORS_USD, cost_score)]
_MAX_SLOPE = [Fraction(20, 1500), Fraction(20000, 9)]  # steepest segment of each curve


@settings(max_examples=200, deadline=None)
@given(
    curve=st.integers(0, 1),
    x=st.fractions(min_value=-1, max_value=30000, max_denominator=10**6),
    y=st.fractions(min_value=-1, max_value=30000, max_denominator=10**6),
)
def test_curves_monotone_non_increasing_and_bounded(curve: int, x: Fraction, y: Fraction):
    _, function = _CURVES[curve]
    if curve == 1:  # costs live on a scale 100 000 times smaller
        x, y = x / 100_000, y / 100_000
    low, high = min(x, y), max(x, y)
    assert function(low) >= function(high)
    assert 0 <= function(low) <= 100
    assert 0 <= function(high) <= 100


@settings(max_examples=200, deadline=None)
@given(
    curve=st.integers(0, 1),
    index=st.integers(0, 4),
    eps=st.fractions(min_value=Fraction(1, 10**9), max_value=Fraction(1, 10**4)),
)
def test_curves_continuous_at_anchors(curve: int, index: int, eps: Fraction) -> None:
    anchors, function = _CURVES[curve]
    anchor = anchors[index % len(anchors)]
    x, s = Fraction(anchor.x), Fraction(anchor.score)
    bound = _MAX_SLOPE[curve] * eps
    assert function(x) == s
    assert abs(function(x - eps) - s) <= bound
    assert abs(function(x + eps) - s) <= bound


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
    values = [aggregate_pass_hat_k(tasks, k) for k in range(1, 8)]
    if all(n < REPEATABILITY_MIN_OUTCOMES for n, _ in tasks):
        assert values == [None] * 7
        return
    assert all(v is not None and 0 <= v <= 1 for v in values)
    assert all(a >= b for a, b in itertools.pairwise(values))  # type: ignore[operator]


# --- outcome score bounds -------------------------------------------------------------------

_entry = st.one_of(
    st.fixed_dictionaries(
        {"role": st.just("objective"), "status": st.sampled_from(["passed", "failed", "error"])},
        optional={"weight": st.floats(1e-3, 1e3)},
    ),
    st.fixed_dictionaries(
        {
            "role": st.just("safeguard"),
            "severity": st.sampled_from(["recoverable", "catastrophic"]),
            "status": st.sampled_from(["passed", "failed", "error"]),
        },
        optional={"weight": st.floats(1e-3, 1e3)},
    ),
)
_unit = st.floats(0, 1)


@settings(max_examples=300, deadline=None)
@given(
    entries=st.lists(_entry, max_size=6),
    judged=st.one_of(
        st.none(),
        st.fixed_dictionaries(
            {}, optional={"checklist": _unit, "outcome_validity": _unit, "recoverable": _unit}
        ),
    ),
)
def test_outcome_score_bounds(entries: list[dict[str, Any]], judged: dict[str, Any] | None):
    data: dict[str, Any] = {
        "run_id": "r",
        "verification": [e | {"name": f"e{i}"} for i, e in enumerate(entries)],
    }
    if judged is not None:
        data["judged"] = judged
    result = score_outcome(OutcomeRecord.model_validate_json(json.dumps(data)))
    catastrophic = [e for e in entries if e.get("severity") == "catastrophic"]
    if any(e["status"] != "passed" for e in catastrophic):
        assert result.outcome_score == 0.0
        assert result.catastrophic_gate == 0
    else:
        assert result.catastrophic_gate == 1
        assert result.outcome_score is None or 0 <= result.outcome_score <= 1
    for reading in (result.correctness, result.recoverable_safety_raw):
        assert reading is None or 0 <= reading <= 1
    if result.recoverable_safety is not None:
        assert Fraction(1, 10) <= result.recoverable_safety <= 1
    if result.outcome_score is not None and result.catastrophic_gate == 1:
        assert result.correctness is not None
        assert result.outcome_score <= 1
        # the geometric mean never exceeds the larger reading, nor goes below the smaller
        rec_v = result.recoverable_safety if result.recoverable_safety is not None else 1
        low, high = sorted([float(result.correctness), float(rec_v)])
        assert low - 1e-12 <= result.outcome_score <= high + 1e-12
    assert result.scoring_version == "v1"
