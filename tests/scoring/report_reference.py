"""The report's reference: one plain in-memory implementation, exact, written here.

It groups, windows, sums and takes medians itself, exactly, on the numbers as written, with
every number of the methodology read from ``scoring.constants``; it calls the library's pure
per-axis functions only for the last formula of a value (the latency/cost curves, the radar
latency/cost/tool axes, the composite formula). ``test_report.py`` and
``test_report_streaming.py`` check the published JSON and the library's exact values
against it.
"""

from __future__ import annotations

import math
import re
import statistics
from collections.abc import Mapping, Sequence
from datetime import datetime
from decimal import Decimal
from fractions import Fraction
from typing import Any

from builders import NULL_COMPOSITE, jsonl
from interval_reference import with_intervals, with_ranks

from scoring import (
    Axis,
    cost_axis,
    cost_score,
    latency_axis,
    latency_score,
    tool_efficiency_axis,
)
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
from scoring.formulas.composite import CompositeResult, composite_score


def to_lines(records: list[dict[str, Any]]) -> list[bytes]:
    return jsonl(records).splitlines(keepends=True)


TERMINAL = {"completed", "failed", "timeout"}


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
    agent_id: str,
    runs: list[tuple[int, dict[str, Any]]],
    weights: Mapping[Axis, Any] | None,
    levels: Sequence[int] = PASS_K_LEVELS,
) -> dict[str, Any]:
    """One agent's scores, exact."""
    scale = Fraction(SCORE_SCALE)
    # composite: every completed run
    completed = [r for _, r in runs if r["status"] == "completed"]
    n = len(completed)
    if n == 0:
        composite = CompositeResult(
            None, None, None, None, None, 0, False, reason="no completed run"
        )
    else:
        successes = sum(1 for r in completed if r.get("success") is True)
        p = Fraction(successes, n)
        consistency = (
            1 - 4 * p * (1 - p) if n >= CONSISTENCY_MIN_RUNS else Fraction(NEUTRAL_CONSISTENCY)
        )
        # 1.3.0: a mean needs the value on every completed run; else no score, no composite.
        means: dict[str, Fraction | None] = {}
        reasons = []
        for field, what in (("latency_ms", "latency"), ("cost_usd", "cost")):
            missing = sum(1 for r in completed if r.get(field) is None)
            if missing:
                means[field] = None
                reasons.append(f"{what} not recorded on {missing} of {n} completed runs")
            else:
                means[field] = sum((written(r[field]) for r in completed), Fraction(0)) / n
        mean_latency, mean_cost = means["latency_ms"], means["cost_usd"]
        lat = None if mean_latency is None else latency_score(mean_latency)
        cost = None if mean_cost is None else cost_score(mean_cost)
        if lat is None or cost is None:
            score = None
        else:
            score = Fraction(0) if successes == 0 else composite_score(p, consistency, lat, cost)
        composite = CompositeResult(
            score,
            p,
            consistency,
            lat,
            cost,
            n,
            score is not None and successes == 0,
            mean_latency,
            mean_cost,
            "; ".join(reasons) or None,
        )

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
    by_level: dict[int, int] = {}
    for k in levels:
        # 1.3.0: at level k a task needs max(n_min, k) outcomes.
        kept = [(n_, c) for n_, c in qualifying if n_ >= k]
        values = [
            Fraction(math.comb(c, k), math.comb(n_, k)) if c >= k else Fraction(0) for n_, c in kept
        ]
        pass_hat[k] = sum(values, Fraction(0)) / len(values) if values else None
        by_level[k] = len(kept)
    return {
        "agent_id": agent_id,
        "composite": composite,
        "axes": axes,
        "profile": weighted / total if total else None,
        "window_runs": len(window),
        "median_latency_ms": median_latency,
        "pass_hat": pass_hat,
        "tasks": len(qualifying),
        "by_level": by_level,
        # what the interval reference needs (tests/scoring/interval_reference.py)
        "runs": (completed, window, list(outcomes.values())),
    }


def reference_agents(
    records: list[dict[str, Any]],
    weights: Mapping[Axis, Any] | None = None,
    levels: Sequence[int] = PASS_K_LEVELS,
) -> list[dict[str, Any]]:
    """Every agent's exact scores, in the report's order: by published composite, highest
    first, null last, then by agent id."""
    by_agent: dict[str, list[tuple[int, dict[str, Any]]]] = {}
    for index, record in enumerate(records):
        by_agent.setdefault(record["agent_id"], []).append((index, record))
    agents = [exact_agent(a, runs, weights, levels) for a, runs in by_agent.items()]
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
        "mean_latency_ms": None
        if composite.mean_latency_ms is None
        else float(composite.mean_latency_ms),
        "mean_cost_usd": None
        if composite.mean_cost_usd is None
        else float(composite.mean_cost_usd),
        "reason": composite.reason,
    }


def reference_report(
    records: list[dict[str, Any]],
    weights: Mapping[Axis, Any] | None = None,
    extra_levels: Sequence[int] = (),
) -> dict[str, Any]:
    """The reference as ``report --format json`` publishes it."""
    levels = sorted({*PASS_K_LEVELS, *extra_levels})
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
            "by_level": a["by_level"],
        }
        for a in reference_agents(records, weights, levels)
    ]
    published = []
    for a in agents:
        agent = with_intervals(
            {k: v for k, v in a.items() if k not in ("runs", "by_level")},
            *a["runs"],
            levels=levels,
            scored=a["composite"]["score"] is not None,
        )
        agent["repeatability"]["tasks_by_level"] = {f"pass^{k}": a["by_level"][k] for k in levels}
        agent["repeatability"]["reasons"] = {
            f"pass^{k}": None
            if a["by_level"][k]
            else f"no task has {max(REPEATABILITY_MIN_OUTCOMES, k)} recorded outcomes"
            for k in levels
        }
        published.append(agent)
    chosen = RADAR_DEFAULT_WEIGHTS if weights is None else weights
    total = sum(Fraction(str(chosen.get(axis, 0))) for axis in Axis)
    return {
        "methodology_version": METHODOLOGY_VERSION,
        "pass_k_levels": levels,
        "profile_weights": {
            "source": "default" if weights is None else "viewer",
            "weights": {
                axis.value: float(Fraction(str(chosen.get(axis, 0))) / total) for axis in Axis
            },
        },
        "notes": reference_notes([a["composite"] for a in published]),
        "agents": with_ranks(published),
    }


def reference_notes(composites: list[dict[str, Any]]) -> list[str]:
    """1.3.0's notes, from the published scores: a term every agent with a score on it
    scores at the curve's lowest (or every one at its highest)."""
    notes = []
    for term, key, anchors, unit in (
        ("latency", "latency_score", LATENCY_ANCHORS_MS, "ms"),
        ("cost", "cost_score", COST_ANCHORS_USD, "USD"),
    ):
        scores = [c[key] for c in composites if c[key] is not None]
        first, last = anchors[0].x, anchors[-1].x
        span = f"${first} to ${last}" if unit == "USD" else f"{first:,} ms to {last:,} ms"
        for bound in (min(float(a.score) for a in anchors), max(float(a.score) for a in anchors)):
            if scores and all(v == bound for v in scores):
                who = "the one agent scores" if len(scores) == 1 else f"all {len(scores)} score"
                notes.append(
                    f"the {term} anchors ({span}) do not separate these agents: "
                    f"{who} {int(bound) if bound == int(bound) else bound}"
                )
    return notes


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
