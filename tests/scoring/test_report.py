"""The streaming report against one plain in-memory reference written here (hypothesis).

The reference groups, windows, sums and takes medians itself, exactly, on the numbers as
written, with every number of the methodology read from ``scoring.constants``; it calls the
library's pure per-axis functions only for the last formula of a value (the latency/cost
curves, the radar latency/cost/tool axes, the composite formula). Both the published JSON
and the library's exact values are checked against it. The report's fast validation is
checked against ``RunRecord``'s.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import re
import statistics
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from fractions import Fraction
from typing import Any
from unittest import mock

import pytest
from builders import NULL_COMPOSITE, jsonl
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from interval_reference import with_intervals, with_ranks
from pydantic import ValidationError

from scoring import (
    Axis,
    InputError,
    RunRecord,
    build_report,
    cost_axis,
    cost_score,
    latency_axis,
    latency_score,
    report_to_json,
    tool_efficiency_axis,
)
from scoring import report as report_module
from scoring.composite import CompositeResult, composite_score
from scoring.constants import (
    CONSISTENCY_MIN_RUNS,
    COST_ANCHORS_USD,
    FRACTION_DECIMALS,
    LATENCY_ANCHORS_MS,
    METHODOLOGY_VERSION,
    NEUTRAL_CONSISTENCY,
    PASS_K_LEVELS,
    RADAR_DEFAULT_WEIGHTS,
    RADAR_WINDOW_RUNS,
    REPEATABILITY_MIN_OUTCOMES,
    ROBUSTNESS_MIN_OUTCOMES,
    SCORE_DECIMALS,
    SCORE_SCALE,
)
from scoring.errors import MAX_LISTED_PROBLEMS, Problem, problems_from
from scoring.run_ids import RunIds


def to_lines(records: list[dict[str, Any]]) -> list[bytes]:
    return jsonl(records).splitlines(keepends=True)


TERMINAL = {"completed", "failed", "timeout"}
STATUSES = ["completed", "failed", "timeout", "queued", "running"]
_T0 = datetime(2024, 3, 1, tzinfo=UTC)
_OFFSETS = [timedelta(0), timedelta(hours=1), timedelta(hours=-5), timedelta(hours=5, minutes=30)]


# --- the reference --------------------------------------------------------------------------
# One plain in-memory reference, exact: whole lists, sorts and statistics.median, every
# number of the methodology read from scoring.constants. The JSON document (rounded as the
# report publishes it) and the exact values (as the library holds them) both come from it.


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


STAMP = re.compile(
    r"(\d{4})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d):(\d\d)(?:\.(\d+))?(?:[Zz]|([+-])(\d\d):(\d\d))$"
)


def exact_instant(text: str) -> Fraction:
    """Seconds since 1970-01-01T00:00:00Z, exactly, read with a regular expression (digits
    beyond the microsecond, which a datetime cannot hold, still order runs)."""
    year, month, day, hour, minute, second, fraction, sign, oh, om = STAMP.match(text).groups()
    days = (datetime(int(year), int(month), int(day)) - datetime(1970, 1, 1)).days
    seconds = Fraction(days * 86400 + int(hour) * 3600 + int(minute) * 60 + int(second))
    if fraction:
        seconds += Fraction(int(fraction), 10 ** len(fraction))
    if sign:
        seconds -= (1 if sign == "+" else -1) * (int(oh) * 3600 + int(om) * 60)
    return seconds


def exact_agent(
    agent_id: str, runs: list[tuple[int, dict[str, Any]]], weights: Mapping[Axis, Any] | None
) -> dict[str, Any]:
    """One agent's scores, exact."""
    scale = Fraction(SCORE_SCALE)
    # composite: every completed run
    completed = [r for _, r in runs if r["status"] == "completed"]
    n = len(completed)
    if n == 0:
        composite = CompositeResult(None, None, None, None, None, 0, False)
    else:
        successes = sum(1 for r in completed if r.get("success") is True)
        p = Fraction(successes, n)
        consistency = (
            1 - 4 * p * (1 - p) if n >= CONSISTENCY_MIN_RUNS else Fraction(NEUTRAL_CONSISTENCY)
        )
        mean_latency = sum((written(r["latency_ms"]) for r in completed), Fraction(0)) / n
        mean_cost = sum((written(r["cost_usd"]) for r in completed), Fraction(0)) / n
        lat, cost = latency_score(mean_latency), cost_score(mean_cost)
        score = Fraction(0) if successes == 0 else composite_score(p, consistency, lat, cost)
        composite = CompositeResult(score, p, consistency, lat, cost, n, successes == 0)

    # radar: the latest RADAR_WINDOW_RUNS terminal runs by (instant, input order)
    terminal = [(i, r) for i, r in runs if r["status"] in TERMINAL]
    terminal.sort(key=lambda ir: (exact_instant(ir[1]["finished_at"]), ir[0]))
    window = [r for _, r in terminal[-RADAR_WINDOW_RUNS:]]
    known = [r["success"] for r in window if r.get("success") is not None]
    latencies = [written(r["latency_ms"]) for r in window if r.get("latency_ms") is not None]
    costs = [written(r["cost_usd"]) for r in window if r.get("cost_usd") is not None]
    steps = [Fraction(r["steps"]) for r in window if r.get("steps") is not None]
    median_latency = _median(latencies)
    per_task: dict[str, list[bool]] = {}
    for r in window:
        if r.get("success") is not None:
            per_task.setdefault(r["task_id"], []).append(r["success"])
    determinisms = [
        (2 * Fraction(sum(o), len(o)) - 1) ** 2
        for o in per_task.values()
        if len(o) >= ROBUSTNESS_MIN_OUTCOMES
    ]
    axes: dict[Axis, Fraction | None] = {
        Axis.CORRECTNESS: scale * Fraction(sum(known), len(known)) if known else None,
        Axis.LATENCY: latency_axis(median_latency, len(latencies)),
        Axis.COST: cost_axis(_median(costs)),
        Axis.TOOL_EFFICIENCY: tool_efficiency_axis(_median(steps)),
        Axis.ROBUSTNESS: scale * sum(determinisms, Fraction(0)) / len(determinisms)
        if determinisms
        else None,
    }
    chosen = RADAR_DEFAULT_WEIGHTS if weights is None else weights
    total = sum((Fraction(chosen.get(a, 0)) for a, v in axes.items() if v is not None), Fraction(0))
    weighted = sum(
        (Fraction(chosen.get(a, 0)) * v for a, v in axes.items() if v is not None), Fraction(0)
    )

    # repeatability: every terminal run with a known outcome, by task
    outcomes: dict[str, list[int]] = {}
    for _, r in terminal:
        if r.get("success") is not None:
            counts = outcomes.setdefault(r["task_id"], [0, 0])
            counts[0] += 1
            counts[1] += r["success"]
    qualifying = [(n_, c) for n_, c in outcomes.values() if n_ >= REPEATABILITY_MIN_OUTCOMES]
    pass_hat: dict[int, Fraction | None] = {}
    for k in PASS_K_LEVELS:
        values = [
            Fraction(math.comb(c, k), math.comb(n_, k)) if c >= k else Fraction(0)
            for n_, c in qualifying
        ]
        pass_hat[k] = sum(values, Fraction(0)) / len(values) if values else None
    return {
        "agent_id": agent_id,
        "composite": composite,
        "axes": axes,
        "profile": weighted / total if total else None,
        "window_runs": len(window),
        "median_latency_ms": median_latency,
        "pass_hat": pass_hat,
        "tasks": len(qualifying),
        # what the interval reference needs (tests/scoring/interval_reference.py)
        "runs": (completed, window, list(outcomes.values())),
    }


def reference_agents(
    records: list[dict[str, Any]], weights: Mapping[Axis, Any] | None = None
) -> list[dict[str, Any]]:
    """Every agent's exact scores, in the report's order: by published composite, highest
    first, null last, then by agent id."""
    by_agent: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for index, record in enumerate(records):
        by_agent.setdefault(record["agent_id"], []).append((index, record))
    agents = [exact_agent(a, runs, weights) for a, runs in by_agent.items()]
    agents.sort(
        key=lambda a: (
            a["composite"].score is None,
            -(half_up(a["composite"].score, SCORE_DECIMALS) or 0.0),
            a["agent_id"],
        )
    )
    return agents


def _published_composite(composite: CompositeResult) -> dict[str, Any]:
    if composite.completed_runs == 0:
        return dict(NULL_COMPOSITE)
    return {
        "score": half_up(composite.score, SCORE_DECIMALS),
        "success_rate": half_up(composite.success_rate, FRACTION_DECIMALS),
        "consistency": half_up(composite.consistency, FRACTION_DECIMALS),
        "latency_score": half_up(composite.latency_score, SCORE_DECIMALS),
        "cost_score": half_up(composite.cost_score, SCORE_DECIMALS),
        "completed_runs": composite.completed_runs,
        "zero_success_floor": composite.zero_success_floor,
    }


def reference_report(
    records: list[dict[str, Any]], weights: Mapping[Axis, Any] | None = None
) -> dict[str, Any]:
    """The reference as ``report --format json`` publishes it."""
    agents = [
        {
            "agent_id": a["agent_id"],
            "composite": _published_composite(a["composite"]),
            "radar": {
                "axes": {axis.value: half_up(v, SCORE_DECIMALS) for axis, v in a["axes"].items()},
                "profile": half_up(a["profile"], SCORE_DECIMALS),
                "window_runs": a["window_runs"],
                "median_latency_ms": None
                if a["median_latency_ms"] is None
                else float(a["median_latency_ms"]),
            },
            "repeatability": {
                **{f"pass^{k}": half_up(v, FRACTION_DECIMALS) for k, v in a["pass_hat"].items()},
                "tasks": a["tasks"],
            },
            "runs": a["runs"],
        }
        for a in reference_agents(records, weights)
    ]
    agents = [
        with_intervals({k: v for k, v in a.items() if k != "runs"}, *a["runs"]) for a in agents
    ]
    return {"methodology_version": METHODOLOGY_VERSION, "agents": with_ranks(agents)}


def check_bounds(document: dict[str, Any]) -> None:
    def within(value: float | None, high: float) -> None:
        assert value is None or 0 <= value <= high, value

    top = float(SCORE_SCALE)
    for agent in document["agents"]:
        c = agent["composite"]
        for key in ("score", "latency_score", "cost_score"):
            within(c[key], top)
        for key in ("success_rate", "consistency"):
            within(c[key], 1)
        for value in agent["radar"]["axes"].values():
            within(value, top)
        within(agent["radar"]["profile"], top)
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


# --- the streaming report's exact values against the reference ---------------------------------

OFFSETS = [timedelta(0), timedelta(hours=2), timedelta(hours=-5, minutes=-30), timedelta(hours=14)]
BASE = datetime(2026, 5, 1, tzinfo=UTC)


def timestamp(instant: datetime, offset: timedelta, rng: random.Random) -> str:
    """``instant`` written in RFC 3339 with ``offset``, in one of its many spellings.

    Now and then with fraction digits beyond the microsecond (finer than a datetime holds:
    they still order runs), "t" or a space for "T", and "z" for "Z".
    """
    local = instant + offset
    text = local.strftime("%Y-%m-%d") + rng.choice("TTTt ") + local.strftime("%H:%M:%S")
    if instant.microsecond or rng.random() < 0.2:
        text += f".{instant.microsecond:06d}"
        if rng.random() < 0.3:
            text += rng.choice(["0", "1", "5", "000000001", "9"])
    if offset == timedelta(0):
        return text + rng.choice(["Z", "Z", "z", "+00:00"])
    sign = "+" if offset > timedelta(0) else "-"
    minutes = abs(int(offset.total_seconds())) // 60
    return f"{text}{sign}{minutes // 60:02d}:{minutes % 60:02d}"


def measurement(rng: random.Random, scale: float) -> float | int:
    kind = rng.randrange(6)
    if kind == 0:
        return rng.randrange(0, int(scale * 3) + 1)
    if kind == 1:
        return round(rng.uniform(0, scale * 3), rng.randrange(1, 7))
    if kind == 2:
        return rng.uniform(0, scale * 3)
    if kind == 3:
        return rng.uniform(0, 1e-6)
    if kind == 4:
        return rng.uniform(4e6, 1e9)
    return float(rng.choice([0, scale, scale / 3]))


@st.composite
def run_logs(draw: st.DrawFn) -> list[dict[str, Any]]:
    """A valid run log: few agents (one dominant) and tasks, many ties, mixed offsets."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    size = draw(st.integers(0, 360))
    agents = [f"agent-{i}" for i in range(draw(st.integers(1, 4)))]
    tasks = [f"task-{i}" for i in range(draw(st.integers(1, 5)))]
    span = draw(st.integers(1, 500))  # distinct instants: small spans make many ties
    records = []
    for i in range(size):
        status = rng.choices(
            ["completed", "failed", "timeout", "queued", "running"], [60, 12, 8, 10, 10]
        )[0]
        terminal = status in TERMINAL
        required = status == "completed"
        instant = BASE + timedelta(minutes=rng.randrange(span), microseconds=rng.choice([0, 7]))
        records.append(
            {
                "run_id": f"r{i}",
                "agent_id": agents[0] if rng.random() < 0.6 else rng.choice(agents),
                "task_id": rng.choice(tasks),
                "status": status,
                "success": rng.choice([True, False, None]),
                "latency_ms": measurement(rng, 2000) if required or rng.random() < 0.5 else None,
                "cost_usd": measurement(rng, 0.05) if required or rng.random() < 0.5 else None,
                "steps": rng.choice([None, rng.randrange(0, 20)]),
                "finished_at": timestamp(instant, rng.choice(OFFSETS), rng)
                if terminal or rng.random() < 0.2
                else None,
            }
        )
        if rng.random() < 0.1:  # leave optional fields out altogether
            for key in ("success", "steps"):
                records[-1].pop(key)
    return records


def streamed(records: list[dict[str, Any]], weights=None) -> list[dict[str, Any]]:
    lines = to_lines(records)
    report = build_report(iter(lines), weights)
    return [
        {
            "agent_id": a.agent_id,
            "composite": a.composite,
            "axes": a.radar.axes,
            "profile": a.radar.profile,
            "window_runs": a.radar.window_runs,
            "median_latency_ms": a.radar.median_latency_ms,
            "pass_hat": a.repeatability.pass_hat,
            "tasks": a.repeatability.tasks,
        }
        for a in report.agents
    ]


# The streaming report reads its input in chunks and trims its window candidates now and
# then; small chunk and trim sizes make every boundary happen on small logs.
internals = st.fixed_dictionaries(
    {
        "_CHUNK_LINES": st.sampled_from([1, 2, 7, 64, 4096]),
        "_WINDOW_TRIM": st.sampled_from([101, 137, 400]),
    }
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(run_logs(), internals, st.sampled_from([None, {Axis.CORRECTNESS: 2, Axis.COST: 1}]))
def test_streaming_report_equals_the_in_memory_reference(records, sizes, weights) -> None:
    expected = [
        {k: v for k, v in a.items() if k != "runs"} for a in reference_agents(records, weights)
    ]
    with mock.patch.multiple(report_module, **sizes):
        assert streamed(records, weights) == expected


# --- the report's fast validation is RunRecord's validation ---------------------------------

json_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["", "a", "completed", "failed", "queued", "true", "1700000000"]),
    st.sampled_from(["2026-01-01T00:00:00Z", "2026-01-01T00:00:00", "2026-01-01T02:00:00+02:00"]),
    st.lists(st.integers(), max_size=2),
)
run_fields = {
    "run_id": st.one_of(st.text(max_size=3), json_values),
    "agent_id": st.one_of(st.text(max_size=3), json_values),
    "task_id": st.one_of(st.text(max_size=3), json_values),
    "status": st.one_of(
        st.sampled_from(["queued", "running", "completed", "failed", "timeout"]), json_values
    ),
    "success": json_values,
    "latency_ms": json_values,
    "cost_usd": json_values,
    "steps": json_values,
    "finished_at": json_values,
}


@settings(max_examples=300, deadline=None)
@given(st.fixed_dictionaries(run_fields), st.sets(st.sampled_from(sorted(run_fields)), max_size=2))
def test_fast_validation_accepts_exactly_what_run_record_accepts(record, left_out) -> None:
    for key in left_out:
        record.pop(key)
    line = json.dumps(record).encode()
    try:
        expected = report_module._ROW(RunRecord.model_validate_json(line))
    except ValidationError:
        expected = None
    rows = report_module._rows([line])
    got = rows[0] if rows is not None and report_module._status_rules_hold(rows) else None
    assert got == expected


timestamps = st.builds(
    "{:04d}-{:02d}-{:02d}{}{:02d}:{:02d}:{:02d}{}{}".format,
    st.one_of(st.integers(0, 9999), st.sampled_from([0, 4, 100, 400, 1900, 2000, 2024, 2100])),
    st.integers(0, 13),
    st.integers(0, 32),
    st.sampled_from(["T", "t", " ", "_", "x"]),
    st.integers(0, 24),
    st.integers(0, 60),
    st.integers(0, 60),
    st.sampled_from(["", ".5", ".123456", ".1234567", ".000000001", "."]),
    st.sampled_from(["Z", "z", "+00:00", "-05:30", "+23:59", "+24:00", "", "+0200"]),
)


@settings(max_examples=400, deadline=None)
@given(timestamps)
def test_the_fast_timestamp_pattern_accepts_what_the_model_accepts(stamp: str) -> None:
    # The report's fast path reads finished_at with report.CALENDAR_PATTERN alone.
    record = {"run_id": "r", "agent_id": "a", "task_id": "t", "status": "queued"}
    try:
        RunRecord.model_validate_json(json.dumps(record | {"finished_at": stamp}))
        accepted = True
    except ValidationError:
        accepted = False
    assert bool(re.match(report_module.CALENDAR_PATTERN, stamp)) == accepted


# --- problems: the same, in line order, whatever the chunks ---------------------------------


def reference_problems(lines: list[bytes]) -> tuple[list[Problem], int]:
    problems: list[Problem] = []
    seen: set[str] = set()
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            run = RunRecord.model_validate_json(line)
        except ValidationError as error:
            problems.extend(problems_from(error, number))
            continue
        if run.run_id in seen:
            problems.append(Problem(number, "run_id", f"duplicate run_id {run.run_id!r} [unique]"))
        seen.add(run.run_id)
    return problems[:MAX_LISTED_PROBLEMS], len(problems)


BAD_LINES = [
    b"{",
    b"\n",
    b"   \n",
    b'{"run_id": 5}\n',
    b"[]\n",
    b"\xff\n",
    b'{"run_id": "r1", "agent_id": "a", "task_id": "t", "status": "completed"}\n',
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    run_logs(),
    st.lists(st.tuples(st.integers(0, 400), st.sampled_from(BAD_LINES)), max_size=30),
    st.sampled_from([1, 3, 64, 4096]),
)
def test_problems_are_the_same_whatever_the_chunks(records, bad, chunk) -> None:
    lines = to_lines(records)
    for position, line in bad:
        lines.insert(min(position, len(lines)), line)
    if records and bad:
        lines.append(json.dumps(records[0]).encode() + b"\n")  # a duplicate, last
    expected, total = reference_problems(lines)
    with mock.patch.object(report_module, "_CHUNK_LINES", chunk):
        if total == 0:
            build_report(iter(lines))
            return
        with pytest.raises(InputError) as caught:
            build_report(iter(lines))
    assert caught.value.problems == expected
    assert caught.value.total == total


@pytest.mark.parametrize("chunk", [7, 4096])
def test_duplicates_across_chunks_and_table_growth(chunk: int) -> None:
    # 5,000 distinct ids grow the hash table several times; duplicates sit at chunk edges.
    records = [
        {
            "run_id": f"id-{i}",
            "agent_id": "a",
            "task_id": "t",
            "status": "queued",
        }
        for i in range(5000)
    ]
    lines = [json.dumps(r).encode() for r in records]
    lines.insert(1500, json.dumps(records[0]).encode())  # line 1501 repeats line 1
    lines.append(json.dumps(records[4999]).encode())  # line 5002 repeats line 5001
    with (
        mock.patch.object(report_module, "_CHUNK_LINES", chunk),
        pytest.raises(InputError) as caught,
    ):
        build_report(lines)
    assert [(p.line, p.field) for p in caught.value.problems] == [
        (1501, "run_id"),
        (5002, "run_id"),
    ]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from([f"id-{i}" for i in range(12)]), max_size=60),
    st.lists(st.integers(1, 9), min_size=1, max_size=12),
)
def test_seen_ids_report_every_repeat_where_it_is(keys: list[str], cuts: list[int]) -> None:
    # Feed the keys in batches of the drawn sizes; a repeat is every occurrence after the
    # first, reported at its own place in its batch.
    seen, start, found = RunIds(), 0, []
    sizes = itertools.cycle(cuts)
    while start < len(keys):
        batch = keys[start : start + next(sizes)]
        found += [start + p for p in seen.add_all(batch)]
        start += len(batch)
    assert found == [i for i, key in enumerate(keys) if key in keys[:i]]
