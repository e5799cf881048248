"""A second, naive implementation of the intervals (decisions.md, "Uncertainty"), for tests.

It reads the runs as a list (never per-task sums), follows the decisions' formulas line by
line in 60-digit ``decimal`` arithmetic (square roots included) and rounds the bounds with
``ROUND_FLOOR`` / ``ROUND_CEILING``. The report computes the same from per-task sums with
exact rationals and integer square roots; the two agree unless a bound lies within 10^-50
of a rounding step, which random inputs never reach. It shares nothing with
``scoring.uncertainty`` but the constants.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal, localcontext
from statistics import NormalDist
from typing import Any

import scoring.constants as C  # noqa: N812 - the module of constants
from scoring.constants import Anchor

PRECISION = 60
#: The upper quantile of N(0, 1) at the level, derived here from the level itself (not read
#: from ``INTERVAL_Z``): 1 − (1 − level)/2, the point with (1 − level)/2 of the mass above
#: it. The float's exact binary value, as the report takes it.
Z = Decimal(NormalDist().inv_cdf(float(1 - (1 - C.INTERVAL_LEVEL) / 2)))
SCALE = Decimal(C.SCORE_SCALE)  # every score's top (the decisions write it as 100)
W_S, W_R, W_C = C.COMPOSITE_WEIGHT_SUCCESS, C.COMPOSITE_WEIGHT_RELIABILITY, C.COMPOSITE_WEIGHT_COST

Run = dict[str, Any]
Bound = dict[str, float] | None


def reason(tasks: int, kind: str = "distinct tasks") -> str | None:
    """The report's reason text, written out again."""
    return (
        None
        if tasks >= C.INTERVAL_MIN_TASKS
        else f"fewer than {C.INTERVAL_MIN_TASKS} {kind} ({tasks})"
    )


def written(value: float | int) -> Decimal:
    """A JSON number as written (``json.dumps`` writes ``repr``)."""
    return Decimal(repr(value))


def clustered_variance(values: Sequence[Decimal], tasks: Sequence[str]) -> Decimal:
    """V(v̄) = T/(T−1) · Σ_t (Σ_{i∈t} (v_i − v̄))² / n², run by run."""
    n = len(values)
    mean = sum(values, Decimal(0)) / n
    residual: dict[str, Decimal] = {}
    for value, task in zip(values, tasks, strict=True):
        residual[task] = residual.get(task, Decimal(0)) + (value - mean)
    t = len(residual)
    return Decimal(t) / (t - 1) * sum((r * r for r in residual.values()), Decimal(0)) / (n * n)


def wilson(m: Decimal, variance: Decimal, t: int, observations: int) -> tuple[Decimal, Decimal]:
    """The cluster-adjusted Wilson interval, unrounded, clipped to [0, 1]."""
    n_eff = Decimal(t) if variance == 0 else min(m * (1 - m) / variance, Decimal(observations))
    z2 = Z * Z
    centre = (m + z2 / (2 * n_eff)) / (1 + z2 / n_eff)
    half = Z / (1 + z2 / n_eff) * (m * (1 - m) / n_eff + z2 / (4 * n_eff * n_eff)).sqrt()
    return max(Decimal(0), centre - half), min(Decimal(1), centre + half)


def outwards(low: Decimal, high: Decimal, places: int, top: int) -> dict[str, float]:
    step = Decimal(1).scaleb(-places)
    low_r = max(Decimal(0), low.quantize(step, rounding=ROUND_FLOOR))
    high_r = min(Decimal(top), high.quantize(step, rounding=ROUND_CEILING))
    return {"low": float(low_r), "high": float(high_r)}


def curve(x: Decimal, anchors: Sequence[Anchor]) -> Decimal:
    if x <= anchors[0].x:
        return anchors[0].score
    for a, b in itertools.pairwise(anchors):
        if x <= b.x:
            return a.score + (b.score - a.score) * (x - a.x) / (b.x - a.x)
    return anchors[-1].score


def slope(x: Decimal, anchors: Sequence[Anchor]) -> Decimal:
    """The segment's slope; 0 beyond the ends; at an anchor, the steeper side."""
    segments = [
        ((b.score - a.score) / (b.x - a.x), a.x, b.x) for a, b in itertools.pairwise(anchors)
    ]
    touching = [s for s, left, right in segments if left <= x <= right]
    if not touching:
        return Decimal(0)
    return max(touching, key=abs)  # the first of equals: the left side


def weighted(p: Decimal, n: int, latency: Decimal, cost: Decimal) -> Decimal:
    """S(p, ℓ, u) = 100·(w_s·p + w_r·cons(p)·L/100 + w_c·C/100), no floor."""
    consistency = 1 - 4 * p * (1 - p) if n >= C.CONSISTENCY_MIN_RUNS else Decimal(1)
    return SCALE * (W_S * p + W_R * consistency * latency / SCALE + W_C * cost / SCALE)


def composite_part(completed: Sequence[Run]) -> dict[str, Any]:
    """``interval``, ``success_rate_interval``, ``interval_reason`` of a composite cohort."""
    tasks = [r["task_id"] for r in completed]
    t = len(set(tasks))
    if t < C.INTERVAL_MIN_TASKS:
        return {"interval": None, "success_rate_interval": None, "interval_reason": reason(t)}
    with localcontext() as context:
        context.prec = PRECISION
        n = len(completed)
        s = [Decimal(1 if r["success"] is True else 0) for r in completed]
        lat = [written(r["latency_ms"]) for r in completed]
        cost = [written(r["cost_usd"]) for r in completed]
        p = sum(s, Decimal(0)) / n
        low_p, high_p = wilson(p, clustered_variance(s, tasks), t, n)
        rate = outwards(low_p, high_p, C.FRACTION_DECIMALS, 1)
        mean_l, mean_c = sum(lat, Decimal(0)) / n, sum(cost, Decimal(0)) / n
        score_l, score_c = curve(mean_l, C.LATENCY_ANCHORS_MS), curve(mean_c, C.COST_ANCHORS_USD)
        if p == 0:
            return {
                "interval": outwards(
                    Decimal(0), weighted(high_p, n, score_l, score_c), C.SCORE_DECIMALS, SCALE
                ),
                "success_rate_interval": rate,
                "interval_reason": None,
            }
        score = weighted(p, n, score_l, score_c)
        consistency = 1 - 4 * p * (1 - p)
        g = [
            SCALE * W_S + W_R * score_l * (8 * p - 4),
            W_R * consistency * slope(mean_l, C.LATENCY_ANCHORS_MS),
            W_C * slope(mean_c, C.COST_ANCHORS_USD),
        ]
        columns = [s, lat, cost]
        means = [p, mean_l, mean_c]
        residual: dict[str, list[Decimal]] = {}
        for i, task in enumerate(tasks):
            sums = residual.setdefault(task, [Decimal(0)] * 3)
            for j in range(3):
                sums[j] += columns[j][i] - means[j]
        factor = Decimal(t) / (t - 1) / (n * n)
        sigma = [
            [factor * sum((r[j] * r[k] for r in residual.values()), Decimal(0)) for k in range(3)]
            for j in range(3)
        ]
        variance = sum((g[j] * sigma[j][k] * g[k] for j in range(3) for k in range(3)), Decimal(0))
        se = max(variance, Decimal(0)).sqrt()
        low, high = score - Z * se, score + Z * se
        if p == 1:
            low = min(low, weighted(low_p, n, score_l, score_c))
        return {
            "interval": outwards(low, high, C.SCORE_DECIMALS, SCALE),
            "success_rate_interval": rate,
            "interval_reason": None,
        }


def correctness_part(window: Sequence[Run]) -> tuple[Bound, str | None]:
    """The radar correctness interval (×100) and its reason."""
    known = [r for r in window if r["success"] is not None]
    tasks = [r["task_id"] for r in known]
    t = len(set(tasks))
    if t < C.INTERVAL_MIN_TASKS:
        return None, reason(t)
    with localcontext() as context:
        context.prec = PRECISION
        values = [Decimal(1 if r["success"] else 0) for r in known]
        q = sum(values, Decimal(0)) / len(values)
        low, high = wilson(q, clustered_variance(values, tasks), t, len(values))
        return outwards(SCALE * low, SCALE * high, C.SCORE_DECIMALS, SCALE), None


def pass_part(outcomes: Sequence[tuple[int, int]]) -> tuple[dict[str, Bound], str | None]:
    """The pass^k intervals over ``(n, c)`` per task, and their reason."""
    qualifying = [(n, c) for n, c in outcomes if n >= C.REPEATABILITY_MIN_OUTCOMES]
    t = len(qualifying)
    if t < C.INTERVAL_MIN_TASKS:
        return dict.fromkeys(f"pass^{k}" for k in C.PASS_K_LEVELS), reason(t, "qualifying tasks")
    found: dict[str, Bound] = {}
    with localcontext() as context:
        context.prec = PRECISION
        for k in C.PASS_K_LEVELS:
            u = [
                Decimal(math.comb(c, k)) / Decimal(math.comb(n, k)) if c >= k else Decimal(0)
                for n, c in qualifying
            ]
            m = sum(u, Decimal(0)) / t
            variance = sum(((x - m) ** 2 for x in u), Decimal(0)) / (t * (t - 1))
            low, high = wilson(m, variance, t, sum(n for n, _ in qualifying))
            found[f"pass^{k}"] = outwards(low, high, C.FRACTION_DECIMALS, 1)
    return found, None


def with_intervals(
    agent: dict[str, Any],
    completed: Sequence[Run],
    window: Sequence[Run],
    outcomes: Sequence[tuple[int, int]],
) -> dict[str, Any]:
    """A reference agent (the scores of the report, in order) with its intervals added."""
    correctness, correctness_reason = correctness_part(window)
    passes, pass_reason = pass_part(outcomes)
    return {
        **agent,
        "composite": {**agent["composite"], **composite_part(completed)},
        "radar": {
            **agent["radar"],
            "intervals": {"correctness": correctness},
            "interval_reasons": {"correctness": correctness_reason},
        },
        "repeatability": {
            **agent["repeatability"],
            "intervals": passes,
            "interval_reasons": dict.fromkeys(passes, pass_reason),
        },
    }


def with_ranks(agents: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The agents (already in report order) with ``rank`` and ``rank_upper_bound`` after
    ``agent_id``: competition rank by composite; 1 + the intervals entirely above."""
    scores = [a["composite"]["score"] for a in agents]
    ranked = []
    for agent, score in zip(agents, scores, strict=True):
        mine = agent["composite"]["interval"]
        rank = None if score is None else 1 + sum(1 for s in scores if s is not None and s > score)
        upper = (
            None
            if mine is None
            else 1
            + sum(
                1
                for other in agents
                if other["composite"]["interval"] is not None
                and other["composite"]["interval"]["low"] > mine["high"]
            )
        )
        rest = {k: v for k, v in agent.items() if k != "agent_id"}
        ranked.append(
            {"agent_id": agent["agent_id"], "rank": rank, "rank_upper_bound": upper, **rest}
        )
    return ranked
