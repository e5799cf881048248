"""The 95% intervals of methodology 1.2.0 in the report: checked against a second, naive
implementation (``interval_reference``: runs listed, exact fractions, the Beta and Student t
quantiles from mpmath at 50 digits) on random run logs; the reference itself checked against
the published check values and published quantiles; and for their properties: low ≤
estimate ≤ high, bounds on the scale, ``null`` exactly with a reason, ``rank_upper_bound ≤
rank``. The last tests break the implementation on purpose (monkeypatched) and see each
check fail. The pure functions are tested in ``test_interval_functions.py`` and
``test_intervals_1_2.py``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import mpmath
import pytest
from builders import jsonl
from hypothesis import HealthCheck, given, settings, strategies as st
from interval_reference import (
    beta_quantile,
    composite_bounds,
    composite_part,
    correctness_part,
    pass_part,
    t_quantile,
    with_ranks,
)
from published_curves import INTERVALS, use_anchors
from test_intervals_1_2 import PASS5_TASKS, SUCCESS_TASKS

from contracts.source import REPO_ROOT
from scoring import build_report, report_to_json
from scoring.constants import COST_ANCHORS_USD, LATENCY_ANCHORS_MS, PASS_K_LEVELS, RADAR_WINDOW_RUNS
from scoring.formulas.curves import along
from scoring.intervals import moves, quantiles, rate_bounds, rates

# Out of the fast lane: the report against the naive 1.2.0 reference at 50 digits (mpmath);
# the intervals' golden points and check values stay there (test_intervals_1_2.py).
pytestmark = pytest.mark.slow

SOME = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- random run logs with enough tasks ------------------------------------------------------


_LATENCY_CHOICES = [float(a.x) for a in LATENCY_ANCHORS_MS]
_COST_CHOICES = [float(a.x) for a in COST_ANCHORS_USD]
#: Beyond the last anchor of each curve (with 1.0.0's anchors 12,000 ms and $0.30).
_BEYOND_MS, _BEYOND_USD = _LATENCY_CHOICES[-1] * 1.2, _COST_CHOICES[-1] * 1.5


def random_agent_runs(rng: random.Random, agent: str, first: int) -> list[dict[str, Any]]:
    """One agent's runs: 8 to 30 tasks, each with its own success rate and latency and cost
    levels; some agents never succeed, some always do; unknown outcomes and non-completed
    terminal runs mixed in; latencies and costs sometimes exactly at an anchor."""
    mode = rng.choice(["mixed", "mixed", "mixed", "never", "always"])
    records = []
    for t in range(rng.randint(8, 30)):
        rate = {"never": 0.0, "always": 1.0}.get(mode, rng.random())
        level_ms = rng.choice([*_LATENCY_CHOICES, rng.uniform(0, _BEYOND_MS)])
        level_usd = rng.choice([*_COST_CHOICES, rng.uniform(0, _BEYOND_USD)])
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
        "passes": (rep["intervals"], rep["interval_reasons"]),
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


def edge_agent(
    name: str,
    latencies: tuple[float, float],
    costs: tuple[float, float],
    success: Callable[[int, int], bool],
    tasks: int = 12,
    runs: int = 4,
) -> list[dict[str, Any]]:
    """Completed runs whose even tasks take the first latency and cost, odd tasks the second
    (so the means sit exactly midway, with spread), successes as ``success(task, run)``."""
    return [
        {
            "run_id": f"{name}-{t}-{j}",
            "agent_id": name,
            "task_id": f"task-{t}",
            "status": "completed",
            "success": success(t, j),
            "latency_ms": latencies[t % 2],
            "cost_usd": costs[t % 2],
            "steps": None,
            "finished_at": "2026-01-01T00:00:00Z",
        }
        for t in range(tasks)
        for j in range(runs)
    ]


def _mixed(t: int, j: int) -> bool:
    return j < (3 if t % 2 else 1)


EDGE_AGENTS = {
    # mean latency or cost exactly on an anchor: the gradient's side, the moves across it
    "latency at the last anchor": edge_agent("a", (9000.0, 11000.0), (0.05, 0.07), _mixed),
    "latency at a middle anchor": edge_agent("b", (1500.0, 2500.0), (0.09, 0.11), _mixed),
    "latency and cost at the first": edge_agent("c", (400.0, 600.0), (0.0005, 0.0015), _mixed),
    "cost at the last anchor": edge_agent("d", (3000.0, 4000.0), (0.15, 0.25), _mixed),
    "every run succeeds": edge_agent("e", (3000.0, 4000.0), (0.02, 0.03), lambda t, j: True),
    "no run succeeds": edge_agent("f", (3000.0, 4000.0), (0.02, 0.03), lambda t, j: False),
    # every task alike: V = 0, n_eff = T, and for pass^k the cap Σn/k
    "homogeneous tasks": edge_agent("g", (3000.0, 3000.0), (0.02, 0.02), lambda t, j: j < 2, 40),
    # one success in 60 runs: below the vertex, a Beta quantile far in the tail
    "one success": edge_agent("h", (1000.0, 1200.0), (0.002, 0.004), lambda t, j: t + j == 0, 15),
}


@pytest.mark.parametrize("records", EDGE_AGENTS.values(), ids=EDGE_AGENTS.keys())
def test_report_intervals_equal_the_reference_at_the_edges(records: list[dict[str, Any]]) -> None:
    document = check_report_against_reference(records)
    assert document["agents"][0]["composite"]["interval"] is not None
    check_agent_properties(document["agents"][0])


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
    # The composite's interval is null with a reason of its own, or with the composite
    # (1.3.0: latency or cost unrecorded); the success rate's needs neither.
    assert (c["interval"] is None) == (c["interval_reason"] is not None or c["score"] is None)
    assert (c["success_rate_interval"] is None) == (c["interval_reason"] is not None)
    if agent["rank_upper_bound"] is not None:
        assert 1 <= agent["rank_upper_bound"] <= agent["rank"]


def test_the_corpus_report_keeps_the_properties() -> None:
    from contracts.scoreboard import corpus_paths

    for path in corpus_paths():
        document = report_to_json(build_report(path.read_bytes().splitlines(keepends=True)))
        with_interval = [
            a for a in document["agents"] if a["composite"]["success_rate_interval"] is not None
        ]
        assert with_interval, f"{path.name}: no agent has an interval, the check checks nothing"
        for agent in document["agents"]:
            check_agent_properties(agent)


# --- the reference against the published check values and published quantiles -----------


def _runs_of(tasks: list[tuple[int, int]]) -> list[dict[str, Any]]:
    """Completed runs with those (runs, successes) per task; latency and cost immaterial."""
    return [
        {"task_id": f"t{i}", "success": j < c, "latency_ms": 1000, "cost_usd": 0.01}
        for i, (n, c) in enumerate(tasks)
        for j in range(n)
    ]


#: The composite's check agent of the uncertainty page (docs/uncertainty.md): 193 completed
#: runs of one agent over 30 tasks, whose composite interval is a published check value.
CHECK_AGENT = REPO_ROOT / "tests" / "data" / "composite-check-agent.jsonl"


def test_the_reference_gives_the_pass5_check_interval() -> None:
    intervals, why = pass_part(PASS5_TASKS)
    assert why["pass^5"] is None
    assert intervals["pass^5"] == {"low": 0.004, "high": 0.0528}


def test_the_reference_gives_the_success_rate_check_interval() -> None:
    assert composite_part(_runs_of(SUCCESS_TASKS))["success_rate_interval"] == {
        "low": 0.7496,
        "high": 0.972,
    }


def _check_agent_runs() -> list[dict[str, Any]]:
    lines = CHECK_AGENT.read_text().splitlines()
    return [r for r in map(json.loads, lines) if r["status"] == "completed"]


def test_the_reference_gives_the_composite_check_interval(monkeypatch: pytest.MonkeyPatch) -> None:
    # The decisions' check value, on the anchors it was published with.
    use_anchors(monkeypatch, INTERVALS)
    runs = _check_agent_runs()
    assert (len(runs), sum(r["success"] is True for r in runs)) == (193, 190)
    assert composite_part(runs)["interval"] == {"low": 77.75, "high": 86.17}
    with mpmath.workdps(50):
        low, high = composite_bounds(runs)
    # the published S = 83.7603 and the moves give 77.75 / 86.17 only after rounding; the
    # unrounded bounds pin the reference tighter than the two-decimal check
    assert 77.754 < low < 77.755
    assert 86.160 < high < 86.161


# Student t quantiles at 0.975 from the published tables (e.g. NIST/SEMATECH e-Handbook,
# 1.3.6.7.2): df 1, 9, 29 and 120.
T_TABLE = [(1, "12.706"), (9, "2.262"), (29, "2.045"), (120, "1.980")]


@pytest.mark.parametrize(("df", "table"), T_TABLE)
def test_the_reference_t_quantile_matches_the_table(df: int, table: str) -> None:
    with mpmath.workdps(50):
        assert f"{float(t_quantile(mpmath.mpf('0.975'), df)):.3f}" == table


def test_the_reference_t_quantile_with_one_degree_of_freedom_is_the_cauchy() -> None:
    """df = 1 is the Cauchy distribution: the quantile is tan(π(p − ½)) in closed form."""
    with mpmath.workdps(50):
        exact = mpmath.tan(mpmath.pi * (mpmath.mpf("0.975") - mpmath.mpf(1) / 2))
        assert abs(t_quantile(mpmath.mpf("0.975"), 1) - exact) < mpmath.mpf(10) ** -35


@pytest.mark.parametrize("p", ["0.025", "0.5", "0.975"])
@pytest.mark.parametrize("a", ["0.5", "3", "41.7"])
def test_the_reference_beta_quantile_in_closed_form(p: str, a: str) -> None:
    """Beta(a, 1) has the quantile p^(1/a) and Beta(1, a) has 1 − (1 − p)^(1/a)."""
    with mpmath.workdps(50):
        pp, aa, one = mpmath.mpf(p), mpmath.mpf(a), mpmath.mpf(1)
        tight = mpmath.mpf(10) ** -35
        assert abs(beta_quantile(pp, aa, one) - pp ** (1 / aa)) < tight
        assert abs(beta_quantile(pp, one, aa) - (1 - (1 - pp) ** (1 / aa))) < tight


# --- each check can fail ----------------------------------------------------------------------


#: On a slope of each curve (with 1.0.0's anchors 3,000 ms and $0.02).
_ON_SLOPE_MS = float(along(LATENCY_ANCHORS_MS, Fraction(1, 3), 1))
_ON_SLOPE_USD = float(along(COST_ANCHORS_USD, "0.25", 1))


def _edge_log() -> list[dict[str, Any]]:
    """Two agents where the 1.2.0 rules bite: the published pass^5 agent (its n_eff capped
    at Σn/5) and an agent that always succeeds beyond the last latency and cost anchors, so
    its composite's high bound is exactly 40 (a rounding boundary the margin rounds past)."""
    records: list[dict[str, Any]] = []
    for agent, tasks in (
        ("pass5", [(n, c, _ON_SLOPE_MS, _ON_SLOPE_USD) for n, c in PASS5_TASKS]),
        ("beyond", [(3, 3, _BEYOND_MS, _BEYOND_USD)] * 10),
    ):
        for t, (n, c, ms, usd) in enumerate(tasks):
            for j in range(n):
                records.append(
                    {
                        "run_id": f"{agent}-{len(records)}",
                        "agent_id": agent,
                        "task_id": f"task-{t}",
                        "status": "completed",
                        "success": j < c,
                        "latency_ms": ms + j,
                        "cost_usd": usd,
                        "steps": None,
                        # after every random run, all at once: input order is time order
                        "finished_at": "2026-01-02T00:00:00Z",
                    }
                )
    return records


_FIXED_SEED_LOG = random_log(7, 3) + _edge_log()


def _uncapped(m, variance, tasks, runs, k):  # type: ignore[no-untyped-def]
    """n_eff capped at the runs, as in 1.1.0, for every k (wrong for k ≥ 2)."""
    return ORIGINAL_CAPPED(m, variance, tasks, runs, 1)


def _normal_quantile(probability, degrees_of_freedom):  # type: ignore[no-untyped-def]
    """z in place of Student's t (wrong: ignores T − 1)."""
    return ORIGINAL_T(probability, 10**9)


def _symmetric_moves(mean, variance, q, weight, curve_of):  # type: ignore[no-untyped-def]
    """Both moves the larger of the two (wrong: the moves are asymmetric)."""
    down, up = ORIGINAL_MEAN_MOVES(mean, variance, q, weight, curve_of)
    return max(down, up), max(down, up)


ORIGINAL_CAPPED = rates.capped_effective_size
ORIGINAL_T = quantiles.t_quantile
ORIGINAL_MEAN_MOVES = moves.mean_moves


@pytest.mark.parametrize(
    ("module", "name", "replacement"),
    [
        (rates, "capped_effective_size", _uncapped),
        (quantiles, "t_quantile", _normal_quantile),
        (moves, "mean_moves", _symmetric_moves),
        (rate_bounds, "INTERVAL_BOUND_MARGIN", 0),  # plain outward rounding, no margin
    ],
    ids=["cap", "t", "moves", "margin"],
)
def test_the_reference_check_fails_on_a_broken_implementation(
    monkeypatch: pytest.MonkeyPatch,
    module: object,
    name: str,
    replacement: Callable[..., Any] | int,
) -> None:
    check_report_against_reference(_FIXED_SEED_LOG)  # the real code passes
    monkeypatch.setattr(module, name, replacement)
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
