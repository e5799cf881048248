"""Random run logs for the report's tests: statuses, values at and beyond the fixed point,
offsets and late arrivals (``random_log``)."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from hypothesis import strategies as st
from report_reference import TERMINAL

from scoring.constants import COST_ANCHORS_USD, LATENCY_ANCHORS_MS

STATUSES = ["completed", "failed", "timeout", "queued", "running"]
_T0 = datetime(2024, 3, 1, tzinfo=UTC)
OFFSETS = [timedelta(0), timedelta(hours=1), timedelta(hours=-5), timedelta(hours=5, minutes=30)]


# --- random run logs ------------------------------------------------------------------------

#: random_log's arguments as hypothesis draws them (``seed`` for its random.Random): short
#: and long logs, few agents and many.
RANDOM_LOGS: dict[str, st.SearchStrategy[int]] = {
    "seed": st.integers(0, 2**32),
    "size": st.one_of(st.integers(0, 60), st.integers(200, 600)),
    "agents": st.one_of(st.integers(1, 6), st.integers(20, 400)),
    "tasks": st.integers(1, 14),
    "minutes": st.sampled_from([1, 60, 10_000]),
}


def timestamp_at(minute: int, micro: int, offset: timedelta) -> str:
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
    # From 1.3.0 a completed run may leave its latency or cost unrecorded: in a few logs,
    # some agents' completed runs do (the composite is then null, the rest still scored).
    unrecorded = {f"agent-{a}" for a in range(agents) if rng.random() < 0.15}
    for i in range(size):
        status = rng.choices(STATUSES, status_weights)[0]
        terminal = status in TERMINAL
        completed = status == "completed"
        agent = f"agent-{rng.randrange(agents)}"
        recorded = 0.5 if agent in unrecorded else 1.0
        latency = (
            _number(rng, float(LATENCY_ANCHORS_MS[-1].x) * 1.2)
            if (completed and rng.random() < recorded) or (not completed and rng.random() < 0.5)
            else None
        )
        cost = (
            _number(rng, float(COST_ANCHORS_USD[-1].x) * 1.25)
            if (completed and rng.random() < recorded) or (not completed and rng.random() < 0.5)
            else None
        )
        at = None
        if terminal or rng.random() < 0.3:
            micro = rng.choice([0, 0, 0, rng.randrange(10**6)])
            at = timestamp_at(rng.randrange(minutes), micro, rng.choice(OFFSETS))
        records.append(
            {
                "run_id": f"run-{i}",
                "agent_id": agent,
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
