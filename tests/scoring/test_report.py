"""The report against the in-memory reference (``report_reference.py``) on random logs.

Random run logs (statuses, windows, offsets, late arrivals, viewer weights) and small
hypothesis-drawn logs: the published JSON equals the reference's, and stays in bounds.
"""

from __future__ import annotations

import random
from decimal import Decimal
from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st
from report_logs import OFFSETS, STATUSES, random_log, timestamp_at
from report_reference import TERMINAL, check_bounds, reference_report, to_lines

from scoring import (
    Axis,
    build_report,
    report_to_json,
)
from scoring.constants import (
    COST_ANCHORS_USD,
    LATENCY_ANCHORS_MS,
    RADAR_COST_ZERO_USD,
    RADAR_WINDOW_RUNS,
)

#: Where the cost curve and the cost axis bend: the curve's anchors and the axis's zero.
_COST_BENDS_USD = [*(float(a.x) for a in COST_ANCHORS_USD), float(RADAR_COST_ZERO_USD)]

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
    extra=st.lists(st.integers(1, 9), max_size=4),
)
def test_extra_levels_equal_reference_and_change_no_score(seed: int, extra: list[int]) -> None:
    """``--pass-k``: the levels asked for are added as the reference computes them, and every
    score, rank and published level stays as it was."""
    records = random_log(random.Random(seed), 200, 2, 3, 30)
    plain = report_to_json(build_report(to_lines(records)))
    more = report_to_json(build_report(to_lines(records), extra_levels=extra))
    assert more == reference_report(records, extra_levels=extra)
    for a, b in zip(plain["agents"], more["agents"], strict=True):
        assert (a["rank"], a["composite"], a["radar"]) == (b["rank"], b["composite"], b["radar"])
        for key, value in a["repeatability"]["intervals"].items():
            assert b["repeatability"][key] == a["repeatability"][key]
            assert b["repeatability"]["intervals"][key] == value


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
                "finished_at": timestamp_at(minute, 0, OFFSETS[i % 4]),
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
            st.integers(0, int(LATENCY_ANCHORS_MS[-1].x) * 2),
            st.floats(0, 1e7, allow_nan=False, allow_infinity=False),
        ),
        "cost_usd": st.one_of(
            st.none(),
            st.sampled_from(
                [0, *(float(a.x) for a in COST_ANCHORS_USD), float(RADAR_COST_ZERO_USD)]
            ),
            st.floats(0, float(COST_ANCHORS_USD[-1].x) * 5, allow_nan=False, allow_infinity=False),
        ),
        "steps": st.one_of(st.none(), st.integers(0, 20)),
        "minute": st.integers(0, 5),
        "offset": st.sampled_from(OFFSETS),
    }
)


def _valid(draft: dict[str, Any], i: int) -> dict[str, Any]:
    record = {k: v for k, v in draft.items() if k not in ("minute", "offset")}
    record["run_id"] = f"r{i}"
    if record["status"] == "completed":
        record["latency_ms"] = 0 if record["latency_ms"] is None else record["latency_ms"]
        record["cost_usd"] = 0 if record["cost_usd"] is None else record["cost_usd"]
    record["finished_at"] = (
        timestamp_at(draft["minute"], 0, draft["offset"])
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
