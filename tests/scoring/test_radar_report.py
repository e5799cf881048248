"""The fitness radar through the report, run by run: the window (its size, the statuses
that enter it, ties and offsets), each axis at its gate and its clamp, and the profile with
default and viewer weights."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from scoring import Axis, build_report
from scoring.constants import (
    RADAR_WINDOW_RUNS,
)
from scoring.formulas import radar
from scoring.report import AgentReport

BASE = datetime(2026, 1, 1, tzinfo=UTC)


def at(minutes: int) -> str:
    """An RFC 3339 timestamp ``minutes`` after BASE, in UTC."""
    return (BASE + timedelta(minutes=minutes)).isoformat().replace("+00:00", "Z")


def only_agent(as_jsonl, runs: list[dict]) -> AgentReport:
    (agent,) = build_report(as_jsonl(runs).splitlines()).agents
    return agent


# --- the window -------------------------------------------------------------------------------


def test_window_keeps_all_of_100_terminal_runs(run_record, as_jsonl) -> None:
    # The oldest run is the only failure: with exactly 100 runs it stays in the window.
    runs = [run_record(success=i != 0, finished_at=at(i)) for i in range(100)]
    radar = only_agent(as_jsonl, runs).radar
    assert radar.window_runs == 100
    assert radar.axes[Axis.CORRECTNESS] == 99  # 100 × 99/100


def test_window_drops_the_oldest_of_101_terminal_runs(run_record, as_jsonl) -> None:
    # Written newest first, so input order is not time order: the failure is the oldest.
    runs = [run_record(success=i != 0, finished_at=at(i)) for i in reversed(range(101))]
    radar = only_agent(as_jsonl, runs).radar
    assert radar.window_runs == 100
    assert radar.axes[Axis.CORRECTNESS] == 100  # 100 × 100/100: the failure was dropped


def test_queued_and_running_runs_never_enter_the_window(run_record, as_jsonl) -> None:
    terminal = [run_record(success=True, finished_at=at(i)) for i in range(100)]
    pending = [
        run_record(status=status, success=False, latency_ms=None, finished_at=None, steps=50)
        for status in ("queued", "running")
        for _ in range(5)
    ]
    agent = only_agent(as_jsonl, terminal + pending)
    assert agent.radar.window_runs == 100
    assert agent.radar.axes[Axis.CORRECTNESS] == 100
    assert agent.radar.axes[Axis.TOOL_EFFICIENCY] == 100  # steps 3; the 50s never counted
    assert agent.repeatability.tasks == 1  # n = 100 terminal outcomes, pass^1 = 1
    assert agent.repeatability.pass_hat[1] == 1


@pytest.mark.parametrize("kinds", [("failed", "timeout"), ("timeout", "completed")])
def test_every_terminal_status_enters_the_window(run_record, as_jsonl, kinds) -> None:
    runs = [run_record(status=kinds[i % 2], success=False, finished_at=at(i)) for i in range(101)]
    assert only_agent(as_jsonl, runs).radar.window_runs == 100


def correctness_when_one_leaves(run_record, as_jsonl, oldest: list[tuple[bool, str]]) -> Any:
    """Window correctness for the ``oldest`` runs, (success, finished_at) in input order,
    then enough later passes that exactly one run falls out of the window."""
    newer = RADAR_WINDOW_RUNS + 1 - len(oldest)
    runs = [run_record(success=success, finished_at=when) for success, when in oldest]
    runs += [run_record(success=True, finished_at=at(24 * 60 + i)) for i in range(newer)]
    return only_agent(as_jsonl, runs).radar.axes[Axis.CORRECTNESS]


def test_a_tie_in_finished_at_goes_to_the_run_later_in_the_input(run_record, as_jsonl) -> None:
    # Two runs share the oldest instant. The one later in the input is newer, so the one
    # earlier in the input is dropped.
    first_fails = [(False, at(0)), (True, at(0))]
    assert correctness_when_one_leaves(run_record, as_jsonl, first_fails) == 100
    # Now the failure is the newer of the two and stays: 100 × 99/100.
    first_passes = [(True, at(0)), (False, at(0))]
    assert correctness_when_one_leaves(run_record, as_jsonl, first_passes) == 99


def test_the_same_instant_in_different_offsets_is_a_tie(run_record, as_jsonl) -> None:
    # 12:00Z, 14:00+02:00 and 06:30−05:30 are one instant: input order decides.
    tied = [
        (False, "2026-01-01T12:00:00Z"),
        (True, "2026-01-01T14:00:00+02:00"),
        (True, "2026-01-01T06:30:00-05:30"),
    ]
    # The oldest is the first of the tie, the failure.
    assert correctness_when_one_leaves(run_record, as_jsonl, tied) == 100
    # Reversed, the failure is the newest of the tie and stays.
    assert correctness_when_one_leaves(run_record, as_jsonl, tied[::-1]) == 99


def test_instants_are_compared_in_utc_not_by_wall_clock(run_record, as_jsonl) -> None:
    # 13:00+02:00 is 11:00Z, older than 12:00Z although its wall clock reads later.
    runs = [(True, "2026-01-01T12:00:00Z"), (False, "2026-01-01T13:00:00+02:00")]
    assert correctness_when_one_leaves(run_record, as_jsonl, runs) == 100


# --- axes ---------------------------------------------------------------------------------------


def test_correctness_counts_known_outcomes_only(run_record, as_jsonl) -> None:
    runs = [
        run_record(success=True, finished_at=at(0)),
        run_record(success=False, finished_at=at(1)),
        run_record(status="failed", success=None, finished_at=at(2)),
        run_record(success=None, finished_at=at(3)),
    ]
    assert only_agent(as_jsonl, runs).radar.axes[Axis.CORRECTNESS] == 50  # 100 × 1/2
    assert radar.correctness_axis(0, 0) is None


def test_latency_axis_hidden_below_five_runs_with_a_latency(run_record, as_jsonl) -> None:
    # Four runs with a latency (600, 700, 800, 900): even count, median (700 + 800)/2 = 750.
    # The failed runs without a latency do not count towards the five.
    runs = [
        run_record(latency_ms=ms, finished_at=at(i)) for i, ms in enumerate((600, 700, 800, 900))
    ]
    runs += [
        run_record(status="failed", latency_ms=None, cost_usd=None, finished_at=at(10 + i))
        for i in range(3)
    ]
    radar = only_agent(as_jsonl, runs).radar
    assert radar.axes[Axis.LATENCY] is None
    assert radar.median_latency_ms == 750  # still reported


def test_latency_axis_shown_at_five_runs_with_a_latency(run_record, as_jsonl) -> None:
    # Median of 600..1000 is 800: 100 − 2 × (800 − 500)/100 = 94
    runs = [
        run_record(latency_ms=ms, finished_at=at(i))
        for i, ms in enumerate((600, 700, 800, 900, 1000))
    ]
    radar = only_agent(as_jsonl, runs).radar
    assert radar.axes[Axis.LATENCY] == 94
    assert radar.median_latency_ms == 800


def test_latency_axis_function_at_the_gate() -> None:
    assert radar.latency_axis(1000, 4) is None
    assert radar.latency_axis(1000, 5) == 90  # 100 − 2 × 500/100
    assert radar.latency_axis(None, 10) is None


def test_medians_of_even_counts_in_a_report(run_record, as_jsonl) -> None:
    # costs 0.01, 0.02, 0.05, 0.07 → median (0.02 + 0.05)/2 = 0.035 → 100 × (0.11 − 0.035)/0.1 = 75
    # steps 3, 4, 6, 9 → median (4 + 6)/2 = 5 → 100 − 10 × 2 = 80
    values = [(0.05, 9), (0.01, 4), (0.07, 3), (0.02, 6)]
    runs = [
        run_record(cost_usd=cost, steps=steps, finished_at=at(i))
        for i, (cost, steps) in enumerate(values)
    ]
    radar = only_agent(as_jsonl, runs).radar
    assert radar.axes[Axis.COST] == 75
    assert radar.axes[Axis.TOOL_EFFICIENCY] == 80


def test_half_step_median_of_steps(run_record, as_jsonl) -> None:
    # steps 4 and 5 → median 4.5 → 100 − 10 × 1.5 = 85
    runs = [run_record(steps=s, finished_at=at(s)) for s in (4, 5)]
    assert only_agent(as_jsonl, runs).radar.axes[Axis.TOOL_EFFICIENCY] == 85


@pytest.mark.parametrize(
    ("median_ms", "expected"),
    [
        (100, 100),  # 100 − 2 × (−400)/100 = 108 → clamped to 100
        (500, 100),
        (501, Fraction(4999, 50)),  # 100 − 2 × 1/100 = 99.98
        (5499, Fraction(1, 50)),  # 100 − 2 × 4999/100 = 0.02
        (5500, 0),  # 100 − 2 × 5000/100 = 0
        (6000, 0),  # −10 → clamped to 0
    ],
)
def test_latency_axis_is_clamped(median_ms, expected) -> None:
    assert radar.latency_axis(median_ms, 5) == expected


@pytest.mark.parametrize(
    ("median_usd", "expected"),
    [
        ("0.001", 100),  # 100 × (0.11 − 0.001)/0.1 = 109 → 100
        ("0.01", 100),
        ("0.06", 50),  # 100 × 0.05/0.1
        ("0.11", 0),
        ("0.5", 0),  # −390 → 0
    ],
)
def test_cost_axis_is_clamped(median_usd, expected) -> None:

    assert radar.cost_axis(Decimal(median_usd)) == expected
    assert radar.cost_axis(None) is None


@pytest.mark.parametrize(
    ("median_steps", "expected"),
    [(0, 100), (3, 100), (4, 90), (12, 10), (13, 0), (20, 0), (None, None)],
)
def test_tool_efficiency_axis_is_clamped(median_steps, expected) -> None:
    # 100 − 10 × max(0, steps − 3), clamped to [0, 100]
    assert radar.tool_efficiency_axis(median_steps) == expected


def test_robustness_uses_tasks_with_two_known_outcomes(run_record, as_jsonl) -> None:
    # task A: pass, pass → q = 1, (2·1 − 1)² = 1
    # task B: pass, fail → q = 1/2, 0
    # task C: pass, fail, fail, fail → q = 1/4, (1/2 − 1)² = 1/4
    # task D: one outcome (and an unknown) → left out
    # robustness = 100 × (1 + 0 + 1/4)/3 = 125/3
    outcomes = {"A": [True, True], "B": [True, False], "C": [True, False, False, False]}
    runs = [
        run_record(task_id=task, success=s, finished_at=at(i))
        for i, (task, s) in enumerate((t, s) for t, ss in outcomes.items() for s in ss)
    ]
    runs += [
        run_record(task_id="D", success=True, finished_at=at(50)),
        run_record(task_id="D", success=None, finished_at=at(51)),
    ]
    assert only_agent(as_jsonl, runs).radar.axes[Axis.ROBUSTNESS] == Fraction(125, 3)
    assert radar.robustness_axis([(1, 1), (0, 1)]) is None


def test_axes_without_evidence_are_null(run_record, as_jsonl) -> None:
    runs = [
        run_record(
            status="failed",
            success=None,
            latency_ms=None,
            cost_usd=None,
            steps=None,
            finished_at=at(0),
        )
    ]
    shown = only_agent(as_jsonl, runs).radar
    assert shown.window_runs == 1
    assert all(value is None for value in shown.axes.values())
    assert shown.profile is None
    assert shown.median_latency_ms is None


# --- profile ------------------------------------------------------------------------------------


AXES = {
    Axis.CORRECTNESS: Fraction(80),
    Axis.LATENCY: None,
    Axis.COST: Fraction(40),
    Axis.TOOL_EFFICIENCY: None,
    Axis.ROBUSTNESS: Fraction(60),
}


def test_profile_with_default_weights_skips_missing_axes() -> None:
    # Default weights 20% each, latency and tool efficiency missing: (80 + 40 + 60)/3 = 60
    assert radar.profile(AXES) == 60


def test_viewer_weights_change_the_profile() -> None:
    # correctness 3, cost 1, the rest 0: (3·80 + 1·40)/4 = 70
    weights = dict.fromkeys(Axis, 0) | {Axis.CORRECTNESS: 3, Axis.COST: 1}
    assert radar.profile(AXES, weights) == 70
    # Only weight on missing axes: no profile.
    assert radar.profile(AXES, dict.fromkeys(Axis, 0) | {Axis.LATENCY: 1}) is None


def test_viewer_weights_never_change_the_composite(run_record, as_jsonl) -> None:
    runs = [
        run_record(success=i % 3 != 0, latency_ms=700 + 100 * i, cost_usd=0.02, finished_at=at(i))
        for i in range(7)
    ]
    lines = as_jsonl(runs).splitlines()
    plain = build_report(lines)
    weights = dict.fromkeys(Axis, 0) | {Axis.CORRECTNESS: 1}
    viewer = build_report(lines, weights)
    assert viewer.agents[0].composite == plain.agents[0].composite
    assert viewer.agents[0].radar.axes == plain.agents[0].radar.axes
    # Correctness alone: 100 × 4/7 (runs 1, 2, 4, 5 pass)
    assert viewer.agents[0].radar.profile == Fraction(400, 7)
    assert plain.agents[0].radar.profile != viewer.agents[0].radar.profile
