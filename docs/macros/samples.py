"""Sample inputs, generated at build time and published for download.

The run log is made up but shaped like a real one: agents with different habits, runs that
failed or timed out, unknown outcomes, runs without a step count, two runs that finish at
the same instant. Two agents ran enough tasks, often enough, that every score of theirs has
an interval; each of the others shows one reason an interval is null: too few distinct
tasks (a zero-success agent on three tasks), too few tasks with enough outcomes for pass^k
(one run of each of many tasks), and no completed run at all. The outcome records are the
worked examples of ``scoring.examples``, so the downloads and the pages show the same runs.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

RUNS_FILE = "sample-runs.jsonl"
OUTCOMES_FILE = "sample-outcomes.jsonl"
BAD_RUNS_FILE = "sample-runs-bad.jsonl"

_START = datetime(2026, 7, 1, 9, 0, tzinfo=UTC)


@dataclass(frozen=True, slots=True)
class _Habits:
    agent_id: str
    runs: int
    success: float
    latency_ms: tuple[int, int]
    cost_usd: tuple[float, float]
    steps: tuple[int, int]
    tasks: int


_AGENTS = (
    _Habits("atlas", 72, 0.8, (600, 2600), (0.004, 0.03), (3, 6), 12),
    _Habits("birch", 72, 0.5, (1800, 7000), (0.02, 0.12), (4, 12), 12),
    _Habits("cedar", 6, 0.0, (300, 700), (0.0005, 0.002), (2, 3), 3),
    _Habits("elm", 12, 0.6, (900, 3000), (0.006, 0.04), (3, 8), 12),
)


def _run(habits: _Habits, index: int, rng: random.Random) -> dict[str, Any]:
    roll = rng.random()
    status = "completed"
    if roll > 0.93:
        status = "timeout"
    elif roll > 0.87:
        status = "failed"
    record: dict[str, Any] = {
        "run_id": f"{habits.agent_id}-{index:03d}",
        "agent_id": habits.agent_id,
        "task_id": f"task-{index % habits.tasks + 1:02d}",
        "status": status,
        "success": rng.random() < habits.success if status == "completed" else False,
        "latency_ms": None,
        "cost_usd": None,
        "steps": None,
        "finished_at": (_START + timedelta(minutes=7 * index + len(habits.agent_id))).isoformat(),
    }
    if status == "completed":
        record["latency_ms"] = round(rng.uniform(*habits.latency_ms), 1)
        record["cost_usd"] = round(rng.uniform(*habits.cost_usd), 5)
        if rng.random() < 0.08:
            record["success"] = None
    if rng.random() < 0.85:
        record["steps"] = rng.randint(*habits.steps)
    return record


def sample_runs() -> list[dict[str, Any]]:
    """The sample run log, in input order."""
    rng = random.Random(20260701)
    runs = [_run(h, i, rng) for h in _AGENTS for i in range(1, h.runs + 1)]
    # Two runs that finish at the same instant: the later line counts as the newer run.
    runs[1]["finished_at"] = runs[0]["finished_at"]
    runs.append(
        {
            "run_id": "dune-001",
            "agent_id": "dune",
            "task_id": "task-01",
            "status": "running",
            "success": None,
            "latency_ms": None,
            "cost_usd": None,
            "steps": None,
            "finished_at": None,
        }
    )
    return runs


def sample_outcomes() -> list[dict[str, Any]]:
    """Outcome records: every outcome worked example, two of them with efficiency data."""
    from scoring.examples import EXAMPLES

    records = [dict(e.inputs["record"]) for e in EXAMPLES if e.name.startswith("outcome.")]
    efficiency = (
        {"latency_sec": 41.7, "input_tokens": 18234, "output_tokens": 2210, "total_tokens": 20444},
        {"latency_sec": 12.2, "input_tokens": 6120, "output_tokens": 514, "cached_tokens": 4096},
    )
    for record, numbers in zip(records, efficiency, strict=False):
        record["efficiency"] = numbers
    return records


def jsonl(records: list[dict[str, Any]]) -> str:
    """JSON Lines text: one compact object per line."""
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def bad_runs() -> str:
    """A run log with two problems, for the command-line example of bad input."""
    good = sample_runs()[:3]
    good[1] = {**good[1], "latency_ms": -12.5}
    good[2] = {**good[2], "run_id": good[0]["run_id"]}
    return jsonl(good)


def sample_files() -> dict[str, str]:
    """The sample inputs by file name: run by the pages' commands and published."""
    return {
        RUNS_FILE: jsonl(sample_runs()),
        OUTCOMES_FILE: jsonl(sample_outcomes()),
        BAD_RUNS_FILE: bad_runs(),
    }
