"""One scorer: moving any registered formula's result moves the report.

Each registered formula the report reads is replaced, in its own module, by one whose
result is moved (a point on the 0–100 scale, a thousandth of a fraction, a halved
interval, a rank one lower); the report of a log of one-run, 50-run and 3,000-run agents
(read in chunks of a few lines, as a large file is) must then change, for every agent the
formula feeds, in the field it feeds. A second implementation anywhere on the report's way
(a fast twin, a remembered result, a float path for small agents) would leave some agent's
field where it was.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Callable, Iterator
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from scoring import FORMULAS, build_report, report_to_json
from scoring.constants import COST_ANCHORS_USD, LATENCY_ANCHORS_MS, PASS_K_LEVELS, SCORE_SCALE
from scoring.intervals.surd import Interval
from scoring.report import read as reading_module

# --- the log: agents of every size ------------------------------------------------------------

#: (agent, runs, tasks, pass rate per task or None for a spread of rates).
AGENTS = (
    ("one-run", 1, 1, None),
    ("fifty-runs", 50, 12, None),
    ("large", 3000, 20, None),
    ("never-succeeds", 40, 10, 0.0),
    ("always-succeeds", 40, 10, 1.0),
)


#: Latencies and costs drawn across the composite's curves, from below their first anchors to
#: well inside their last slopes (with 1.0.0's anchors 300–9,000 ms and $0.001–$0.09), so
#: that every agent's means read them where they slope.
LATENCY_RANGE_MS = (float(LATENCY_ANCHORS_MS[0].x) * 0.6, float(LATENCY_ANCHORS_MS[-1].x) * 0.9)
COST_RANGE_USD = (float(COST_ANCHORS_USD[0].x), float(COST_ANCHORS_USD[-1].x) * 0.45)


def _runs() -> Iterator[dict[str, Any]]:
    rng = random.Random(26)
    number = 0
    for agent, runs, tasks, rate in AGENTS:
        task_rates = [rng.uniform(0.1, 0.9) if rate is None else rate for _ in range(tasks)]
        for i in range(runs):
            task = i % tasks
            number += 1
            status = "completed" if agent == "one-run" or rng.random() < 0.9 else "failed"
            success = rng.random() < task_rates[task] if status == "completed" else False
            if agent == "one-run":
                success = True
            yield {
                "run_id": f"run-{number}",
                "agent_id": agent,
                "task_id": f"task-{task:02d}",
                "status": status,
                "success": success,
                "latency_ms": round(rng.uniform(*LATENCY_RANGE_MS), 1),
                "cost_usd": round(rng.uniform(*COST_RANGE_USD), 5),
                "steps": rng.randrange(1, 12),
                "finished_at": f"2026-03-{1 + number // 80000:02d}T00:00:00.{number:06d}Z",
            }


LINES = [json.dumps(run).encode() for run in _runs()]


def report(chunk_lines: int = 7) -> dict[str, dict[str, Any]]:
    """The JSON report of the log by agent, read in chunks of ``chunk_lines`` lines."""
    previous = reading_module.CHUNK_LINES
    reading_module.CHUNK_LINES = chunk_lines
    try:
        document = report_to_json(build_report(LINES))
    finally:
        reading_module.CHUNK_LINES = previous
    return {agent["agent_id"]: agent for agent in document["agents"]}


# --- moved results --------------------------------------------------------------------------


def _score(value: Any) -> Any:
    """A point towards the middle of the 0–100 scale (never onto the same value)."""
    if value is None:
        return None
    return value + 1 if value <= SCORE_SCALE / 2 else value - 1


def _share(value: Any) -> Any:
    """A thousandth towards the middle of [0, 1]."""
    if value is None:
        return None
    step = Fraction(1, 1000)
    return value + step if value <= Fraction(1, 2) else value - step


def _interval(value: Interval | None) -> Interval | None:
    """Both bounds halved (a floor's low bound of 0 stays, its high bound moves)."""
    if value is None:
        return None
    return Interval(value.low / 2, value.high / 2)


def _ranks(values: list[int | None]) -> list[int | None]:
    return [None if rank is None else rank + 1 for rank in values]


def _variance(value: Fraction) -> Fraction:
    return 4 * value


def _matrix(value: tuple[tuple[Fraction, ...], ...]) -> tuple[tuple[Fraction, ...], ...]:
    return tuple(tuple(4 * entry for entry in row) for row in value)


def _gradient(value: tuple[Fraction, ...]) -> tuple[Fraction, ...]:
    # 1.2.0 reads the gradient for the signs of the moves' correlations and for the floor
    # of the success move: the latency entry flipped, the success entry a thousand times.
    return (1000 * value[0], -value[1], *value[2:])


def _outcomes(value: int) -> int:
    # Far more outcomes asked of a task than any has: no task qualifies at any level.
    return value + 10**6


def _size(value: Fraction) -> Fraction:
    # A quarter of the effective size: every interval read at it widens.
    return value / 4


def _factor(value: float) -> float:
    # A t factor (or quantile) half again as large: every interval read at it widens.
    return 1.5 * value


def _quantile(value: float) -> float:
    # A Beta quantile pulled halfway towards the middle of [0, 1].
    return (value + 0.5) / 2


def _moves(value: tuple[float, float]) -> tuple[float, float]:
    # Both moves doubled, plus a point: the interval widens on both sides.
    return (2 * value[0] + 1, 2 * value[1] + 1)


def _slope(value: Fraction) -> Fraction:
    # The slopes reach the 1.2.0 interval through the signs of the gradient (the moves'
    # correlations): the slope flipped, and never 0.
    return -100 * value - 1


# A field of an agent's JSON object, by its keys.
Path = tuple[str, ...]
_COMPOSITE_SCORE: Path = ("composite", "score")
_INTERVAL: Path = ("composite", "interval")
_RATE_INTERVAL: Path = ("composite", "success_rate_interval")
_CORRECTNESS_INTERVAL: Path = ("radar", "intervals", "correctness")
_PASS = tuple(("repeatability", f"pass^{k}") for k in PASS_K_LEVELS)
_PASS_INTERVALS = tuple(("repeatability", "intervals", f"pass^{k}") for k in PASS_K_LEVELS)


def _axis(name: str) -> Path:
    return ("radar", "axes", name)


#: Per registered formula the report reads: how its result is moved, and the fields it
#: feeds (each must move for every agent where it is not null).
MOVES: dict[str, tuple[Callable[[Any], Any], tuple[Path, ...]]] = {
    "curve.piecewise_linear": (
        _score,
        (("composite", "latency_score"), ("composite", "cost_score")),
    ),
    "composite.latency_score": (_score, (("composite", "latency_score"),)),
    "composite.cost_score": (_score, (("composite", "cost_score"),)),
    "composite.success_rate": (_share, (("composite", "success_rate"),)),
    "composite.outcome_consistency": (_share, (("composite", "consistency"),)),
    "composite.score": (_score, (_COMPOSITE_SCORE,)),
    "radar.correctness": (_score, (_axis("correctness"),)),
    "radar.latency": (_score, (_axis("latency"),)),
    "radar.cost": (_score, (_axis("cost"),)),
    "radar.tool_efficiency": (_score, (_axis("tool_efficiency"),)),
    "radar.determinism": (_share, (_axis("robustness"),)),
    "radar.robustness": (_score, (_axis("robustness"),)),
    "radar.profile": (_score, (("radar", "profile"),)),
    "repeatability.pass_hat_k": (_share, _PASS),
    "repeatability.aggregate": (_share, _PASS),
    "repeatability.min_outcomes": (_outcomes, (*_PASS, *_PASS_INTERVALS)),
    "uncertainty.clustered_variance": (_variance, (_RATE_INTERVAL, _CORRECTNESS_INTERVAL)),
    "uncertainty.clustered_covariance": (_matrix, (_INTERVAL,)),
    "uncertainty.wilson": (_interval, _PASS_INTERVALS[1:]),
    "uncertainty.clopper_pearson": (
        _interval,
        (_RATE_INTERVAL, _CORRECTNESS_INTERVAL, _PASS_INTERVALS[0]),
    ),
    "uncertainty.capped_effective_size": (
        _size,
        (_RATE_INTERVAL, _CORRECTNESS_INTERVAL, *_PASS_INTERVALS, _INTERVAL),
    ),
    "uncertainty.t_factor": (
        _factor,
        (_RATE_INTERVAL, _CORRECTNESS_INTERVAL, _PASS_INTERVALS[0], _INTERVAL),
    ),
    "quantiles.t_quantile": (
        _factor,
        (_RATE_INTERVAL, _CORRECTNESS_INTERVAL, _PASS_INTERVALS[0], _INTERVAL),
    ),
    "quantiles.beta_quantile": (
        _quantile,
        (_RATE_INTERVAL, _CORRECTNESS_INTERVAL, _PASS_INTERVALS[0], _INTERVAL),
    ),
    "uncertainty.success_rate_interval": (_interval, (_RATE_INTERVAL,)),
    "uncertainty.curve_slope": (_slope, (_INTERVAL,)),
    "uncertainty.composite_gradient": (_gradient, (_INTERVAL,)),
    "uncertainty.success_moves": (_moves, (_INTERVAL,)),
    "uncertainty.mean_moves": (_moves, (_INTERVAL,)),
    "uncertainty.composite_interval": (_interval, (_INTERVAL,)),
    "uncertainty.pass_hat_k_interval": (_interval, _PASS_INTERVALS),
    "uncertainty.correctness_interval": (_interval, (_CORRECTNESS_INTERVAL,)),
    "uncertainty.rank": (_ranks, (("rank",),)),
    "uncertainty.rank_upper_bound": (_ranks, (("rank_upper_bound",),)),
}

#: Registered formulas the report does not read, and why.
NOT_IN_THE_REPORT = {
    "uncertainty.success_interval": "the interval of independent runs: the site's comparison",
    "uncertainty.runs_needed": "run planning: the site's calculator",
    "uncertainty.paired_composite": "two agents compared: scoring compare and the impact",
    "uncertainty.paired_success_rate": "two agents compared: scoring compare and the impact",
}

# The composite interval of an agent with no success is the floor [0, S(p⁺)]: no gradient,
# no covariance (the formula's own rule).
_FLOORED_ONLY = {
    "uncertainty.clustered_covariance",
    "uncertainty.curve_slope",
    "uncertainty.composite_gradient",
}


# A variance of 0 (every run of the agent passed, or none did) stays 0: any other value is
# outside the domain of the interval formulas that read it (no spread, no variance).
_NO_SPREAD = {"never-succeeds", "always-succeeds"}


def _value(agent: dict[str, Any], path: Path) -> Any:
    for key in path:
        agent = agent[key]
    return agent


def test_every_registered_formula_is_accounted_for() -> None:
    report_formulas = {name for name in FORMULAS if not name.startswith("outcome.")}
    assert set(MOVES) | set(NOT_IN_THE_REPORT) == report_formulas
    assert not set(MOVES) & set(NOT_IN_THE_REPORT)


Report = dict[str, dict[str, Any]]


@pytest.fixture(scope="module")
def before() -> Report:
    """The report before any formula is moved (a fixture, not computed at import: every
    worker collects this file, one runs it; set up before a test moves a formula)."""
    return report()


def test_the_log_feeds_every_field_for_agents_of_every_size(before: Report) -> None:
    # Not vacuous: each field the moves check is set for the agents that should have it.
    for agent in ("fifty-runs", "large"):
        for _, paths in MOVES.values():
            for path in paths:
                if agent == "fifty-runs" and path == _PASS_INTERVALS[-1]:
                    # About four outcomes a task: too few tasks reach the top level for
                    # its interval (1.3.0); the large agent's is checked.
                    continue
                assert _value(before[agent], path) is not None, (agent, path)
    assert before["one-run"]["composite"]["score"] is not None
    assert before["never-succeeds"]["composite"]["zero_success_floor"] is True
    assert before["never-succeeds"]["composite"]["interval"] is not None


def assert_moved(name: str, before: Report, after: Report) -> None:
    """Every field ``name`` feeds has moved from ``before``, for every agent where it is set."""
    checked = 0
    for agent_id, agent in before.items():
        if name in _FLOORED_ONLY and agent["composite"]["zero_success_floor"]:
            continue
        if name == "uncertainty.clustered_variance" and agent_id in _NO_SPREAD:
            continue
        for path in MOVES[name][1]:
            value = _value(agent, path)
            if value is None:
                continue
            assert _value(after[agent_id], path) != value, (agent_id, path)
            checked += 1
    assert checked >= 2


@pytest.mark.parametrize("name", sorted(MOVES))
def test_moving_a_formula_moves_every_agent_it_feeds(
    monkeypatch: pytest.MonkeyPatch, before: Report, name: str
) -> None:
    move = MOVES[name][0]
    original = FORMULAS[name].function
    module = sys.modules[original.__module__]
    assert getattr(module, original.__name__) is original

    def moved(*args: Any, **kwargs: Any) -> Any:
        return move(original(*args, **kwargs))

    monkeypatch.setattr(module, original.__name__, moved)
    assert_moved(name, before, report())


def test_the_check_fails_where_one_agent_keeps_its_value(before: Report) -> None:
    """A second implementation for some agents (say the one-run agent) would leave its
    field where it was: the check names it."""
    with pytest.raises(AssertionError, match="one-run"):
        assert_moved("composite.score", before, before)
    after = json.loads(json.dumps(before))
    for agent in after.values():
        agent["composite"]["score"] = -1.0
    after["one-run"]["composite"]["score"] = before["one-run"]["composite"]["score"]
    with pytest.raises(AssertionError, match="one-run"):
        assert_moved("composite.score", before, after)
    after["one-run"]["composite"]["score"] = -1.0
    assert_moved("composite.score", before, after)


def test_interval_halving_moves_a_bound() -> None:
    # The interval move changes the printed bounds (guards the move itself).
    moved = _interval(Interval(Decimal("10.00"), Decimal("20.00")))
    assert moved == Interval(Decimal("5.00"), Decimal("10.00"))
