"""Write the reference corpus of ``contracts/corpus/``: the same bytes on every run.

Two run logs (JSON Lines, one run record per line, the input of ``python -m scoring report``):

- ``synthetic-runs.jsonl``: fourteen made-up agents on twenty-four tasks, drawn from
  ``random.Random(SEED)``. Each agent is built to exercise one rule of the methodology (see
  ``AGENTS`` and ``contracts/corpus/README.md``).
- ``tau-bench-gpt-4o-airline-runs.jsonl``: the real τ-bench outcomes of gpt-4o on the airline
  domain (``docs/data/tau-bench-gpt-4o-airline.jsonl``, read in place) as run records.

The corpus is data, fixed once: it does not read ``scoring.constants``, so that a change of
methodology never changes the corpus itself. The numbers below that sit near a rule
(``GATE_*``, ``WINDOW_*``) are placed around the values of methodology 1.0.0;
``tests/contracts/test_reference_corpus.py`` checks that the corpus still exercises every
rule under the live constants.

Usage::

    python contracts/corpus/make_corpus.py             # rewrite the committed files
    python contracts/corpus/make_corpus.py --out DIR   # write them to DIR instead
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from contracts.source import REPO_ROOT
from scoring.harnesses import tau_bench
from scoring.harnesses.base import Options
from scoring.harnesses.tau_bench import Placeholder

HERE = Path(__file__).resolve().parent
SYNTHETIC_FILE = "synthetic-runs.jsonl"
TAU_BENCH_FILE = "tau-bench-gpt-4o-airline-runs.jsonl"
TAU_BENCH_SOURCE = REPO_ROOT / "docs" / "data" / "tau-bench-gpt-4o-airline.jsonl"

#: Seed of the one random generator the synthetic log is drawn from.
SEED = 20261201
#: When the synthetic log starts; runs follow each other a few minutes apart.
START = datetime(2026, 6, 1, tzinfo=UTC)
TASKS = tuple(f"task-{n:02d}" for n in range(1, 25))
#: Minutes between two runs of one agent, before jitter.
RUN_SPACING_MIN = 7
#: Largest delay, in seconds, between a run finishing and its line being written: the log
#: is in roughly, not strictly, chronological order, as a log from parallel workers is.
LOG_DELAY_MAX_S = 900

#: Completed runs of the two agents at the evidence gate (1.0.0: consistency from 5 runs on).
GATE_BELOW_RUNS = 4
GATE_AT_RUNS = 5
#: The window agent's latest runs differ from its older ones (1.0.0's window: 100 runs).
WINDOW_RECENT_RUNS = 100
WINDOW_OLDER_RUNS = 68

#: The agent the τ-bench trajectories are runs of.
TAU_BENCH_AGENT = "gpt-4o-airline"
#: Minutes between two τ-bench trajectories in the derived log.
TAU_SPACING_MIN = 3


@dataclass(frozen=True, slots=True)
class Agent:
    """How one synthetic agent behaves; every probability is per run."""

    agent_id: str
    purpose: str
    tasks: int
    runs_per_task: int
    success: float
    latency_ms: float
    cost_usd: float
    steps: int
    #: Spread of latency and cost: the sigma of a log-normal around the medians above.
    spread: float = 0.35
    failed: float = 0.04
    timeout: float = 0.02
    unknown: float = 0.03
    no_steps: float = 0.05
    #: Runs still queued or running at the end of the log (not terminal: the report skips them).
    pending: int = 1
    #: Success probability of the runs before the latest ``WINDOW_RECENT_RUNS`` (None: same).
    older_success: float | None = None
    #: Draw from this agent's stream instead of its own (a twin: the same runs, new ids).
    twin_of: str | None = None
    #: Completed runs only, exactly this many (the evidence-gate agents).
    exact_completed: int | None = None
    #: False: every terminal run fails or times out (the agent without a completed run).
    completes: bool = True
    #: The first this many runs succeed and the others fail (the evidence-gate agents).
    exact_successes: int | None = None
    #: Hours east of UTC in which ``finished_at`` is written (the report orders instants).
    utc_offset_h: int = 0


AGENTS: tuple[Agent, ...] = (
    Agent("atlas", "strong, slow and expensive", 24, 4, 0.85, 2600, 0.060, 7),
    Agent("birch", "solid, fast and cheap", 24, 4, 0.72, 900, 0.008, 5),
    Agent(
        "cedar",
        "weak but almost free; writes local times",
        24,
        3,
        0.45,
        700,
        0.0015,
        4,
        utc_offset_h=2,
    ),
    Agent("dune", "the most successful, and the slowest and dearest", 24, 4, 0.93, 4300, 0.12, 9),
    Agent("ember", "a coin flip: outcome consistency near 0", 24, 3, 0.5, 1800, 0.02, 6),
    Agent("fjord", "zero-success floor: never succeeds, fast and cheap", 20, 3, 0.0, 400, 0.001, 3),
    Agent(
        "gale",
        "evidence gate: one completed run short of it (neutral consistency)",
        GATE_BELOW_RUNS,
        1,
        0.75,
        1200,
        0.015,
        6,
        pending=0,
        exact_completed=GATE_BELOW_RUNS,
        exact_successes=GATE_BELOW_RUNS - 1,
    ),
    Agent(
        "heron",
        "evidence gate: exactly at it (consistency counts)",
        GATE_AT_RUNS,
        1,
        0.8,
        1200,
        0.015,
        6,
        pending=0,
        exact_completed=GATE_AT_RUNS,
        exact_successes=GATE_AT_RUNS - 1,
    ),
    Agent(
        "iris",
        "radar window: its latest runs succeed far more often than its older ones",
        24,
        7,
        0.85,
        1500,
        0.03,
        8,
        older_success=0.2,
    ),
    Agent(
        "juno",
        "unknown outcomes: many runs without a recorded success",
        24,
        3,
        0.7,
        2000,
        0.025,
        6,
        unknown=0.4,
    ),
    Agent(
        "kite", "missing steps: no run records its steps", 24, 3, 0.65, 1100, 0.012, 5, no_steps=1.0
    ),
    Agent(
        "lumen",
        "no completed run: failed and timed-out runs only",
        8,
        2,
        0.0,
        3000,
        0.05,
        10,
        pending=3,
        completes=False,
    ),
    Agent("moss", "tied with nova: identical runs", 24, 3, 0.6, 1600, 0.018, 6),
    Agent("nova", "tied with moss: identical runs", 24, 3, 0.6, 1600, 0.018, 6, twin_of="moss"),
)


def _stamp(moment: datetime, offset_h: int = 0) -> str:
    if offset_h == 0:
        return moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    local = moment.astimezone(timezone(timedelta(hours=offset_h)))
    return local.isoformat()


def _line(record: dict[str, Any]) -> str:
    return json.dumps(record, ensure_ascii=False, separators=(", ", ": "))


def _agent_runs(agent: Agent, rng: random.Random, offset_min: int) -> Iterator[dict[str, Any]]:
    """Every run of one agent, oldest first (``finished_at`` of pending runs is null)."""
    plan = [task for _ in range(agent.runs_per_task) for task in TASKS[: agent.tasks]]
    recent_from = len(plan) - WINDOW_RECENT_RUNS if agent.older_success is not None else 0
    moment = START + timedelta(minutes=offset_min)
    for index, task in enumerate(plan):
        moment += timedelta(minutes=RUN_SPACING_MIN, seconds=rng.randrange(0, 120))
        # Every run draws the same numbers whatever its status, so that the twin stays a twin.
        roll_status, roll_success, roll_unknown, roll_steps = (rng.random() for _ in range(4))
        latency = agent.latency_ms * math.exp(rng.gauss(0, agent.spread))
        cost = agent.cost_usd * math.exp(rng.gauss(0, agent.spread))
        steps = max(1, round(agent.steps * math.exp(rng.gauss(0, agent.spread))))
        p = agent.success if index >= recent_from else agent.older_success
        if not agent.completes:
            status = (
                "failed"
                if roll_status < agent.failed / (agent.failed + agent.timeout)
                else "timeout"
            )
        elif agent.exact_completed is None and roll_status < agent.failed + agent.timeout:
            status = "failed" if roll_status < agent.failed else "timeout"
        else:
            status = "completed"
        success: bool | None = roll_success < (p or 0.0)
        if agent.exact_successes is not None:
            success = index < agent.exact_successes
        if roll_unknown < agent.unknown or status == "timeout":
            success = None
        record: dict[str, Any] = {
            "run_id": "",
            "agent_id": agent.agent_id,
            "task_id": task,
            "status": status,
            "success": success,
            "latency_ms": round(latency) if status == "completed" else None,
            "cost_usd": round(cost, 5) if status == "completed" else None,
            "steps": None if roll_steps < agent.no_steps else steps,
            "finished_at": _stamp(moment, agent.utc_offset_h),
        }
        yield record
    for n in range(agent.pending):
        moment += timedelta(minutes=RUN_SPACING_MIN)
        yield {
            "run_id": "",
            "agent_id": agent.agent_id,
            "task_id": TASKS[n % len(TASKS)],
            "status": "queued" if n % 2 else "running",
            "success": None,
            "latency_ms": None,
            "cost_usd": None,
            "steps": None,
            "finished_at": None,
            "_written": moment,
        }


def synthetic_lines() -> list[str]:
    """The synthetic run log, one JSON text per line, in the order it is written."""
    rng = random.Random(SEED)
    streams: dict[str, int] = {}
    runs: list[tuple[datetime, int, dict[str, Any]]] = []
    for number, agent in enumerate(AGENTS):
        # Each agent draws from its own seeded stream (a twin from its twin's), so that
        # adding an agent leaves the others' runs alone.
        stream = streams.setdefault(agent.twin_of or agent.agent_id, rng.randrange(2**32))
        own = random.Random(stream)
        for index, record in enumerate(_agent_runs(agent, own, offset_min=number)):
            record["run_id"] = f"{agent.agent_id}-{index + 1:04d}"
            written = record.pop("_written", None)
            finished = record["finished_at"]
            moment = written if written is not None else datetime.fromisoformat(finished)
            delay = timedelta(seconds=rng.randrange(0, LOG_DELAY_MAX_S))
            runs.append((moment + delay, len(runs), record))
    runs.sort(key=lambda item: (item[0], item[1]))
    return [_line(record) for _, _, record in runs]


def tau_bench_lines(source: Path = TAU_BENCH_SOURCE) -> list[str]:
    """The τ-bench trajectories as run records, in the order of the source file: mapped by
    the reader of ``scoring report --from tau-bench`` (one mapping: success when the reward
    is 1, latency and cost unrecorded), with the corpus's own finish times (a trajectory
    every few minutes) and names (``airline-07``, so that tasks sort as their numbers)."""
    clock = Placeholder(START, timedelta(minutes=TAU_SPACING_MIN))
    converted = tau_bench.convert([source], Options(agent=TAU_BENCH_AGENT), clock)
    lines = []
    for run in converted.runs:
        task = int(str(run["task_id"]))
        trial = str(run["run_id"]).rpartition(tau_bench.TRIAL_SEPARATOR)[2]
        named = {
            "run_id": f"tau-airline-{task:02d}-trial-{trial}",
            "task_id": f"airline-{task:02d}",
        }
        lines.append(_line(run | named))
    return lines


FILES: dict[str, Callable[[], Sequence[str]]] = {
    SYNTHETIC_FILE: synthetic_lines,
    TAU_BENCH_FILE: tau_bench_lines,
}


def write(out: Path) -> list[Path]:
    """Write every corpus file to ``out``; returns the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, make in FILES.items():
        path = out / name
        path.write_bytes(("\n".join(make()) + "\n").encode("utf-8"))
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: write the corpus (to ``--out`` or next to this script)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE, help="folder to write (default: here)")
    args = parser.parse_args(argv)
    for path in write(args.out):
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
