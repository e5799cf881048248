"""The fitness radar: its window, every axis at its edges, medians, clamping and the profile.

docs/radar.md: the window is the latest 100 terminal runs by ``finished_at`` (a tie goes to
the run later in the input); axes are 0–100, clamped, or null without evidence; latency
is hidden until 5 window runs have one; medians of even counts average the middle two;
the profile re-normalises the weights over the axes that are not null.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from builders import report_document as report, run_fields

from scoring import Axis
from scoring.constants import (
    RADAR_COST_FULL_USD,
    RADAR_COST_ZERO_USD,
    RADAR_DEFAULT_WEIGHTS,
    RADAR_LATENCY_FULL_MS,
    RADAR_LATENCY_MIN_RUNS,
    RADAR_STEPS_FREE,
    RADAR_WINDOW_RUNS,
    ROBUSTNESS_MIN_OUTCOMES,
    SCORE_DECIMALS,
)
from scoring.formulas import radar
from scoring.formulas.curves import cost_score
from scoring.numeric import decimal_half_up
from scoring.registry import ScoringError

_T0 = datetime(2024, 1, 1, tzinfo=UTC)


def rec(
    n: int,
    *,
    agent: str = "a",
    status: str = "completed",
    success: bool | None = True,
    latency: float | None = 1000,
    cost: float | None = 0.01,
    steps: int | None = None,
    task: str = "t",
    at: str | None = None,
) -> dict[str, Any]:
    """Run number ``n``; by default it finished ``n`` minutes after 2024-01-01T00:00Z."""
    finished = at if at is not None else (_T0 + timedelta(minutes=n)).isoformat()
    return run_fields(f"{agent}-{n}", agent, task, status, success, latency, cost, steps, finished)


def _next_day(n: int) -> str:
    return (_T0 + timedelta(days=1, minutes=n)).isoformat()


def failed(n: int, **kw: Any) -> dict[str, Any]:
    kw.setdefault("success", False)
    kw.setdefault("latency", None)
    kw.setdefault("cost", None)
    return rec(n, status="failed", **kw)


def radar_of(records: list[dict[str, Any]], weights: Any = None) -> dict[str, Any]:
    return report(records, weights)["agents"][0]["radar"]


# --- pure axes at and around their boundaries ---------------------------------------------


def test_correctness_axis() -> None:
    assert radar.correctness_axis(3, 4) == 75
    assert radar.correctness_axis(0, 3) == 0
    assert radar.correctness_axis(2, 3) == Fraction(200, 3)
    assert radar.correctness_axis(0, 0) is None
    with pytest.raises(ScoringError):
        radar.correctness_axis(5, 4)


def test_latency_axis_follows_the_constants() -> None:
    full = Fraction(RADAR_LATENCY_FULL_MS)
    assert radar.latency_axis(full, RADAR_LATENCY_MIN_RUNS) == 100
    assert radar.latency_axis(full, RADAR_LATENCY_MIN_RUNS - 1) is None
    assert radar.latency_axis(None, RADAR_LATENCY_MIN_RUNS) is None


@pytest.mark.parametrize(
    ("median_ms", "expected"),
    [
        (0, Fraction(100)),  # 100 + 10 → clamped to 100
        (499, Fraction(100)),  # 100.02 → clamped
        (500, Fraction(100)),
        (501, Fraction(9998, 100)),  # 100 − 2 × 1/100
        (1000, Fraction(90)),  # 100 − 2 × 500/100
        (Fraction(2500), Fraction(60)),
        (5499, Fraction(2, 100)),
        (5500, Fraction(0)),  # 100 − 2 × 5000/100
        (5501, Fraction(0)),  # −0.02 → clamped to 0
        (10**7, Fraction(0)),
    ],
)
def test_latency_axis_by_hand(median_ms: Any, expected: Fraction) -> None:
    assert radar.latency_axis(median_ms, 5) == expected


@pytest.mark.parametrize(
    ("median_usd", "expected"),
    [
        ("0", Fraction(100)),  # 110 → clamped
        ("0.0099", Fraction(100)),  # 100.1 → clamped
        ("0.01", Fraction(100)),
        ("0.0101", Fraction(999, 10)),  # 100 × (0.11 − 0.0101) / 0.10 = 99.9
        ("0.06", Fraction(50)),
        ("0.1099", Fraction(1, 10)),
        ("0.11", Fraction(0)),
        ("0.1101", Fraction(0)),  # −0.1 → clamped
        ("3", Fraction(0)),
    ],
)
def test_cost_axis_by_hand(median_usd: str, expected: Fraction) -> None:
    assert radar.cost_axis(Decimal(median_usd)) == expected


def test_cost_axis_follows_the_constants() -> None:
    assert radar.cost_axis(RADAR_COST_FULL_USD) == 100
    assert radar.cost_axis(RADAR_COST_ZERO_USD) == 0
    assert radar.cost_axis((RADAR_COST_FULL_USD + RADAR_COST_ZERO_USD) / 2) == 50
    assert radar.cost_axis(None) is None


@pytest.mark.parametrize(
    ("median_steps", "expected"),
    [
        (0, Fraction(100)),
        (2, Fraction(100)),
        (3, Fraction(100)),
        (Fraction(7, 2), Fraction(95)),  # even-count median 3.5: 100 − 10 × 0.5
        (4, Fraction(90)),
        (12, Fraction(10)),
        (13, Fraction(0)),
        (14, Fraction(0)),  # −10 → clamped
        (None, None),
    ],
)
def test_tool_efficiency_axis_by_hand(median_steps: Any, expected: Fraction | None) -> None:
    assert radar.tool_efficiency_axis(median_steps) == expected


def test_tool_efficiency_axis_follows_the_constants() -> None:
    assert radar.tool_efficiency_axis(RADAR_STEPS_FREE) == 100
    assert radar.tool_efficiency_axis(RADAR_STEPS_FREE + 1) == 90


def test_determinism() -> None:
    assert radar.determinism(0) == 1
    assert radar.determinism(1) == 1
    assert radar.determinism(Fraction(1, 2)) == 0
    assert radar.determinism(Fraction(1, 4)) == Fraction(1, 4)  # (2 × 1/4 − 1)² = 1/4
    assert radar.determinism(Fraction(2, 3)) == Fraction(1, 9)  # (4/3 − 1)² = 1/9
    with pytest.raises(ScoringError):
        radar.determinism(Fraction(3, 2))


def test_robustness_axis_boundary_of_known_outcomes() -> None:
    assert ROBUSTNESS_MIN_OUTCOMES == 2
    assert radar.robustness_axis([(1, 1)]) is None  # 1 known outcome: left out
    assert radar.robustness_axis([(1, 2)]) == 0  # 2 known outcomes, 50/50
    assert radar.robustness_axis([(2, 2), (1, 2), (1, 1)]) == 50  # (1 + 0) / 2 × 100
    assert radar.robustness_axis([(2, 3), (0, 4)]) == Fraction(1000, 18)  # (1/9 + 1) / 2 × 100
    assert radar.robustness_axis([]) is None


def test_profile_renormalises_over_available_axes() -> None:
    axes = {
        Axis.CORRECTNESS: Fraction(80),
        Axis.LATENCY: None,
        Axis.COST: Fraction(40),
        Axis.TOOL_EFFICIENCY: None,
        Axis.ROBUSTNESS: Fraction(30),
    }
    assert radar.profile(axes) == 50  # (80 + 40 + 30) / 3
    viewer = {Axis.CORRECTNESS: 2, Axis.COST: 1, Axis.LATENCY: 7}
    assert radar.profile(axes, viewer) == Fraction(200, 3)  # (2 × 80 + 1 × 40) / 3
    assert radar.profile(dict.fromkeys(Axis)) is None
    only_null_weighted = {Axis.LATENCY: 1}
    assert radar.profile(axes, only_null_weighted) is None
    with pytest.raises(ScoringError):
        radar.profile(axes, {Axis.CORRECTNESS: -1, Axis.COST: 2})


def test_default_weights_are_equal() -> None:
    assert set(RADAR_DEFAULT_WEIGHTS) == set(Axis)
    assert set(RADAR_DEFAULT_WEIGHTS.values()) == {Decimal("0.20")}


# --- the window ---------------------------------------------------------------------------


def _window_of(total: int, oldest_fails: bool = True) -> list[dict[str, Any]]:
    # Runs 1..total-1 succeed; run 0, the oldest, fails and is written LAST in the input.
    runs = [rec(n) for n in range(1, total)]
    return [*runs, rec(0, success=not oldest_fails)]


def test_window_at_exactly_100_terminal_runs_keeps_all() -> None:
    assert RADAR_WINDOW_RUNS == 100
    result = radar_of(_window_of(100))
    assert result["window_runs"] == 100
    assert result["axes"]["correctness"] == 99.0  # 99 passes of 100


def test_window_at_101_terminal_runs_drops_the_oldest() -> None:
    doc = report(_window_of(101))
    me = doc["agents"][0]
    assert me["radar"]["window_runs"] == 100
    assert me["radar"]["axes"]["correctness"] == 100.0  # the failed oldest run is out
    # composite and repeatability have no window: 100 successes of 101
    assert me["composite"]["completed_runs"] == 101
    assert me["composite"]["success_rate"] == 0.9901  # 100/101
    # one task, n = 101, c = 100: pass^3 = 100·99·98 / (101·100·99) = 98/101 = 0.97029…
    assert me["repeatability"]["pass^3"] == 0.9703
    assert me["repeatability"]["pass^5"] == 0.9505  # 96/101 = 0.950495…


def test_window_counts_terminal_runs_only_of_all_statuses() -> None:
    runs = [
        rec(n, status=("completed", "failed", "timeout")[n % 3], success=True) for n in range(101)
    ]
    runs.append(rec(0, status="completed", success=False, at="2023-01-01T00:00:00Z"))
    runs[-1]["run_id"] = "oldest"
    assert radar_of(runs)["window_runs"] == 100
    assert radar_of(runs)["axes"]["correctness"] == 100.0


@pytest.mark.parametrize(("first_success", "expected"), [(False, 100.0), (True, 99.0)])
def test_ties_in_finished_at_later_in_input_is_newer(first_success: bool, expected: float) -> None:
    # The two oldest runs finished at the same instant; the one written first is older and
    # is the one dropped when the window is full (101 terminal runs).
    tied = "2023-06-01T12:00:00Z"
    runs = [
        rec(1000, success=first_success, at=tied),
        rec(1001, success=not first_success, at=tied),
        *(rec(n) for n in range(1, 100)),
    ]
    assert radar_of(runs)["axes"]["correctness"] == expected


@pytest.mark.parametrize(
    "same_instant",
    ["2024-01-01T01:00:00+01:00", "2023-12-31T19:00:00-05:00", "2024-01-01T05:30:00+05:30"],
)
def test_same_instant_with_other_offset_is_a_tie(same_instant: str) -> None:
    # Written first: the failure at 2024-01-01T00:00Z, spelled with another offset; written
    # second: a success at the same instant in Z. The first is older and is dropped.
    # (Comparing local clock times or strings would drop the second one instead.)
    runs = [
        rec(1000, success=False, at=same_instant),
        rec(1001, success=True, at="2024-01-01T00:00:00Z"),
        *(rec(n, at=_next_day(n)) for n in range(1, 100)),
    ]
    result = radar_of(runs)
    assert result["window_runs"] == 100
    assert result["axes"]["correctness"] == 100.0


def test_offsets_are_compared_as_instants() -> None:
    # "00:30+01:00" is 23:30Z the day before: older than "00:00Z" although written later
    # and with a later clock time. It is the one dropped.
    runs = [
        rec(1000, success=True, at="2024-01-01T00:00:00Z"),
        *(rec(n, at=_next_day(n)) for n in range(1, 100)),
        rec(1001, success=False, at="2024-01-01T00:30:00+01:00"),
    ]
    assert radar_of(runs)["axes"]["correctness"] == 100.0


@pytest.mark.parametrize(
    ("older", "newer"),
    [
        ("2024-01-01T00:00:00.000001Z", "2024-01-01T00:00:00.000002Z"),  # microseconds
        ("2024-01-01T00:00:00.0000001Z", "2024-01-01T00:00:00.0000009Z"),  # below a µs
        ("2024-01-01T00:00:00.100000001Z", "2024-01-01T00:00:00.100000002Z"),  # nanoseconds
    ],
)
def test_fractional_seconds_order_the_window(older: str, newer: str) -> None:
    # RFC 3339 allows any number of fraction digits. The newer run (a success) is written
    # FIRST, the older one (a failure) second; with 101 terminal runs the older is dropped.
    # These are two different finished_at values, so input order must not decide.
    runs = [
        rec(1000, success=True, at=newer),
        rec(1001, success=False, at=older),
        *(rec(n, at=_next_day(n)) for n in range(1, 100)),
    ]
    assert radar_of(runs)["axes"]["correctness"] == 100.0


def test_queued_and_running_runs_never_enter_anything() -> None:
    # 100 terminal runs of mixed statuses; then queued/running runs that would change every
    # score if they entered: newest finished_at, huge latency/cost/steps, other outcomes.
    base = [
        rec(n, status=("completed", "failed", "timeout")[n % 3], success=n % 4 != 0, steps=n % 7)
        for n in range(100)
    ]
    extra = [
        rec(
            500 + i,
            status=status,
            success=success,
            latency=10**6,
            cost=50.0,
            steps=99,
            task=task,
            at=at,
        )
        for i, (status, success, task, at) in enumerate(
            [
                ("queued", False, "t", "2030-01-01T00:00:00Z"),
                ("running", False, "t", "2030-01-01T00:00:01Z"),
                ("queued", True, "new-task", "2030-01-01T00:00:02Z"),
                ("running", True, "new-task", "2030-01-01T00:00:03Z"),
                ("queued", True, "new-task", "2030-01-01T00:00:04Z"),
                ("queued", None, "t", None),
                ("running", None, "t", None),
            ]
        )
    ]
    expected = report(base)
    mixed = extra[:3] + base[:50] + extra[3:] + base[50:]
    assert report(mixed) == expected
    assert report(base + extra) == expected


# --- the axes through the report ----------------------------------------------------------


def test_latency_axis_hidden_with_4_latencies_median_still_reported() -> None:
    assert RADAR_LATENCY_MIN_RUNS == 5
    runs = [rec(n, latency=ms) for n, ms in enumerate([1000, 2000, 3000, 4000])]
    runs += [failed(10), failed(11)]  # terminal, no latency
    result = radar_of(runs)
    assert result["window_runs"] == 6
    assert result["axes"]["latency"] is None
    assert result["median_latency_ms"] == 2500.0  # (2000 + 3000) / 2


def test_latency_axis_shown_with_5_latencies() -> None:
    runs = [rec(n, latency=ms) for n, ms in enumerate([1000, 2000, 3000, 4000, 600])]
    runs += [failed(10), failed(11)]
    result = radar_of(runs)
    assert result["median_latency_ms"] == 2000.0
    assert result["axes"]["latency"] == 70.0  # 100 − 2 × 1500/100


def test_latency_of_failed_runs_counts_in_the_window() -> None:
    # 3 completed + 2 failed runs with a latency: 5 window runs have one.
    runs = [rec(n, latency=ms) for n, ms in enumerate([600, 700, 800])]
    runs += [failed(10, latency=900), failed(11, latency=5000)]
    result = radar_of(runs)
    assert result["median_latency_ms"] == 800.0
    assert result["axes"]["latency"] == 94.0  # 100 − 2 × 300/100


def test_medians_of_even_counts() -> None:
    latencies = [600, 700, 800, 1000, 2000, 3000]  # middle: (800 + 1000) / 2 = 900
    costs = [0.01, 0.02, 0.04, 0.05, 0.05, 0.06]  # middle: (0.04 + 0.05) / 2 = 0.045
    steps = [3, 4, 5, 8, None, None]  # middle of 3,4,5,8: 4.5
    runs = [
        rec(n, latency=ms, cost=usd, steps=s)
        for n, (ms, usd, s) in enumerate(zip(latencies, costs, steps, strict=True))
    ]
    result = radar_of(runs)
    assert result["median_latency_ms"] == 900.0
    assert result["axes"]["latency"] == 92.0  # 100 − 2 × 400/100
    assert result["axes"]["cost"] == 65.0  # 100 × (0.11 − 0.045) / 0.10
    assert result["axes"]["tool_efficiency"] == 85.0  # 100 − 10 × 1.5


def test_axes_are_clamped_to_0_and_100() -> None:
    fast = [rec(n, latency=100, cost=0.0, steps=0) for n in range(5)]
    axes = radar_of(fast)["axes"]
    # 100 − 2 × (100 − 500)/100 = 108 → 100; cost 110 → 100; steps → 100
    assert (axes["latency"], axes["cost"], axes["tool_efficiency"]) == (100.0, 100.0, 100.0)
    slow = [rec(n, latency=9000, cost=0.5, steps=20) for n in range(5)]
    axes = radar_of(slow)["axes"]
    # 100 − 170 = −70 → 0; 100 × (0.11 − 0.5)/0.1 = −390 → 0; 100 − 170 → 0
    assert (axes["latency"], axes["cost"], axes["tool_efficiency"]) == (0.0, 0.0, 0.0)


def test_cost_axis_null_when_no_window_run_has_a_cost() -> None:
    # The only completed run (with a cost) is older than the 100 failed runs in the window.
    runs = [rec(0, success=True, latency=1000, cost=0.02, steps=4)]
    runs += [failed(n, task=f"t{n}") for n in range(1, 101)]
    doc = report(runs)["agents"][0]
    result = doc["radar"]
    assert result["window_runs"] == 100
    assert result["axes"]["cost"] is None
    assert result["axes"]["tool_efficiency"] is None  # no window run has steps either
    assert result["axes"]["latency"] is None
    assert result["median_latency_ms"] is None
    assert result["axes"]["correctness"] == 0.0
    assert result["axes"]["robustness"] is None  # every task has one outcome
    assert result["profile"] == 0.0  # only correctness is available
    # the composite still reads the completed run (with 1.0.0's anchors $0.02 → 72.5)
    cost = decimal_half_up(cost_score(Decimal("0.02")), SCORE_DECIMALS)
    assert doc["composite"]["cost_score"] == float(cost)
    assert doc["composite"]["mean_cost_usd"] == 0.02


def test_tool_efficiency_null_without_steps() -> None:
    result = radar_of([rec(n, steps=None) for n in range(6)])
    assert result["axes"]["tool_efficiency"] is None
    assert result["axes"]["cost"] == 100.0


def test_correctness_ignores_unknown_outcomes_and_counts_failed_runs() -> None:
    runs = [
        rec(0, success=True),
        rec(1, success=None),
        failed(2, success=False),
        rec(3, status="timeout", success=None, latency=None, cost=None),
        failed(4, success=True),
    ]
    # known: True, False, True → 2 of 3
    assert radar_of(runs)["axes"]["correctness"] == 66.67


def test_correctness_null_without_known_outcomes() -> None:
    runs = [rec(n, success=None) for n in range(3)]
    result = radar_of(runs)
    assert result["axes"]["correctness"] is None
    assert result["axes"]["robustness"] is None


def test_robustness_only_over_tasks_with_two_known_outcomes() -> None:
    runs = [
        # task A: 2 known, 1 pass → q = 1/2 → 0
        rec(0, task="A", success=True),
        rec(1, task="A", success=False),
        # task B: 1 known + 3 unknown → left out (would add determinism 1)
        rec(2, task="B", success=True),
        rec(3, task="B", success=None),
        rec(4, task="B", success=None),
        rec(5, task="B", success=None),
        # task C: 3 known, all pass → 1
        rec(6, task="C", success=True),
        failed(7, task="C", success=True),
        rec(8, task="C", success=True),
    ]
    assert radar_of(runs)["axes"]["robustness"] == 50.0  # 100 × (0 + 1) / 2


def test_profile_renormalised_and_weights_change_profile_only() -> None:
    runs = [
        rec(0, task="A", success=True, cost=0.03),  # 4 window runs with a latency: hidden
        rec(1, task="B", success=False, cost=0.03),
        rec(2, task="C", success=True, cost=0.03),
        rec(3, task="D", success=False, cost=0.03),
    ]
    doc = report(runs)["agents"][0]
    axes = doc["radar"]["axes"]
    # correctness 50; latency null; cost 100 × (0.11 − 0.03)/0.1 = 80; tool null;
    # robustness null (one outcome per task). Profile over the two: (50 + 80) / 2 = 65.
    assert axes == {
        "correctness": 50.0,
        "latency": None,
        "cost": 80.0,
        "tool_efficiency": None,
        "robustness": None,
    }
    assert doc["radar"]["profile"] == 65.0
    viewer = dict.fromkeys(Axis, Decimal(0)) | {Axis.CORRECTNESS: Decimal(2), Axis.COST: 1}
    weighted = report(runs, viewer)["agents"][0]
    assert weighted["radar"]["profile"] == 60.0  # (2 × 50 + 1 × 80) / 3
    assert weighted["radar"]["axes"] == axes
    assert weighted["composite"] == doc["composite"]
    assert weighted["repeatability"] == doc["repeatability"]
    only_latency = dict.fromkeys(Axis, Decimal(0)) | {Axis.LATENCY: Decimal(1)}
    assert report(runs, only_latency)["agents"][0]["radar"]["profile"] is None


def test_profile_default_is_mean_of_all_five_axes() -> None:
    runs = [
        rec(0, task="A", success=True, latency=1000, cost=0.06, steps=5),
        rec(1, task="A", success=True, latency=1000, cost=0.06, steps=5),
        rec(2, task="A", success=False, latency=1000, cost=0.06, steps=5),
        rec(3, task="B", success=True, latency=1000, cost=0.06, steps=5),
        rec(4, task="B", success=True, latency=1000, cost=0.06, steps=5),
    ]
    result = radar_of(runs)
    # correctness 4/5 → 80; latency 90; cost 50; tool 80;
    # robustness: A q = 2/3 → 1/9, B → 1: 100 × (10/9) / 2 = 500/9 = 55.56
    # profile = (80 + 90 + 50 + 80 + 500/9) / 5 = (300 + 500/9) / 5 = 640/9 = 71.11
    assert result["axes"] == {
        "correctness": 80.0,
        "latency": 90.0,
        "cost": 50.0,
        "tool_efficiency": 80.0,
        "robustness": 55.56,
    }
    assert result["profile"] == 71.11
