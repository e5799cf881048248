"""Benchmark of ``python -m scoring report``: against the stdlib parse floor, in memory, and
per agent (the speed and memory targets in CONTRIBUTING.md, "Measured figures").

A script, not a test; run it on one core, as the targets are stated::

    taskset -c 0 python benchmarks/bench_report.py      # 1,000,000 and 100,000 runs, best of 3
    taskset -c 0 python benchmarks/bench_report.py --runs 200000 --small 20000 --agents 2000

It writes deterministic run logs to a temporary folder (mixed statuses and values): a large
and a small one of 50 agents × 40 tasks; one of as many runs as the large one in agents of
``MANY_RUNS`` runs on ``MANY_TASKS`` tasks (20,000 agents for 1,000,000 runs); one of
``--agents`` agents with one run each and one of as many runs of a single agent. Then it
measures, each command in a fresh subprocess and interleaved, so that a busy machine slows
both sides of a ratio alike:

(a) the wall time of the stdlib ``json.loads`` over every line of a log (the parse floor of
    that very file) and of ``python -m scoring report LOG --format json`` on it, for the
    large log and for the log of many agents;
(b) the peak memory (max RSS, from ``os.wait4``) of the report on the small and the large
    log;
(c) the report on the one-run agents and on the one agent with as many runs.

It prints each figure's best and median of the repeats, and each ratio of the bests with
its target: large report ÷ its floor (≤ 1.5), many agents' report ÷ its floor (≤ 8),
one-run agents ÷ one agent (≤ 5.5), memory large ÷ small (≤ 1.5). Exit status 1 if a target
is missed.
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from measuring import REPO, Measure, log_sizes_parser, measure, write_logs

AGENTS = 50
TASKS = 40
TIME_RATIO_TARGET = 1.5
MANY_RATIO_TARGET = 8.0
MEMORY_RATIO_TARGET = 1.5
AGENTS_RATIO_TARGET = 5.5
ONE_RUN_AGENTS = 20_000
# The log of many agents: as many runs as the large log, in agents of this many runs on
# this many tasks (1,000,000 runs: 20,000 agents).
MANY_RUNS = 50
MANY_TASKS = 20

_JSON_LOADS = """
import json, sys
with open(sys.argv[1], "rb") as lines:
    for line in lines:
        json.loads(line)
"""

_OFFSETS = ("Z", "+00:00", "+02:00", "-05:30", "+09:00")


def write_runs(
    path: Path,
    runs: int,
    seed: int,
    agents: int = AGENTS,
    runs_per_agent: int | None = None,
    tasks: int = TASKS,
) -> None:
    """Write ``runs`` run records (JSON Lines) to ``path``; the same seed, the same bytes.

        Statuses: about 85% completed, 6% failed, 4% timeout, 3% queued, 2% running. Each agent
        has its own success rate, latency and cost profile; a few timestamps arrive out of
        order, and UTC offsets vary. ``runs_per_agent`` r: runs i·r to i·r + r − 1 are the only
    runs of agent i.
    """
    rng = random.Random(seed)
    profiles = [
        (rng.uniform(0.2, 0.95), rng.uniform(6.0, 8.5), rng.uniform(-6.0, -2.5))
        for _ in range(agents)
    ]
    task_ease = [rng.uniform(-0.3, 0.3) for _ in range(tasks)]
    start = 1_767_225_600  # 2026-01-01T00:00:00Z
    with path.open("w", encoding="utf-8") as out:
        for i in range(runs):
            agent = rng.randrange(agents) if runs_per_agent is None else i // runs_per_agent
            task = rng.randrange(tasks)
            pass_rate, log_latency, log_cost = profiles[agent]
            draw = rng.random()
            if draw < 0.85:
                status = "completed"
            elif draw < 0.91:
                status = "failed"
            elif draw < 0.95:
                status = "timeout"
            elif draw < 0.98:
                status = "queued"
            else:
                status = "running"
            terminal = status in ("completed", "failed", "timeout")
            if status == "completed":
                success = (
                    "null"
                    if rng.random() < 0.03
                    else ("true" if rng.random() < pass_rate + task_ease[task] else "false")
                )
            elif terminal:
                success = "false" if rng.random() < 0.5 else "null"
            else:
                success = "null"
            measured = status == "completed" or (terminal and rng.random() < 0.5)
            if measured:
                latency = rng.lognormvariate(log_latency, 0.5)
                latency_ms = repr(round(latency)) if rng.random() < 0.3 else repr(round(latency, 3))
                cost_usd = repr(round(rng.lognormvariate(log_cost, 0.7), 6))
            else:
                latency_ms = cost_usd = "null"
            steps = str(rng.randrange(1, 16)) if rng.random() < 0.8 else "null"
            if terminal:
                seconds = start + i // 2 + (rng.randrange(-30, 1) if rng.random() < 0.05 else 0)
                finished_at = '"' + _timestamp(seconds, rng.choice(_OFFSETS)) + '"'
            else:
                finished_at = "null"
            out.write(
                f'{{"run_id": "run-{i:08d}", "agent_id": "agent-{agent:05d}", '
                f'"task_id": "task-{task:02d}", "status": "{status}", "success": {success}, '
                f'"latency_ms": {latency_ms}, "cost_usd": {cost_usd}, "steps": {steps}, '
                f'"finished_at": {finished_at}}}\n'
            )


def _timestamp(seconds: int, offset: str) -> str:
    """RFC 3339 text of a Unix time, written in the given UTC offset."""
    shift = 0
    if offset not in ("Z", "+00:00"):
        sign = 1 if offset[0] == "+" else -1
        shift = sign * (int(offset[1:3]) * 3600 + int(offset[4:6]) * 60)
    local = time.gmtime(seconds + shift)
    return time.strftime("%Y-%m-%dT%H:%M:%S", local) + offset


# Counts the agents of a JSON report read from stdin, in a process of its own.
_COUNT_AGENTS = "import json, sys; print(len(json.load(sys.stdin)['agents']))"


def check_output(path: Path, agents: int) -> None:
    """Run the report once and check it is a complete JSON report of every agent.

    The report is parsed in a child process, never in this one: on Linux a child starts
    with its parent's resident set as its peak (``ru_maxrss`` survives fork and exec), so
    a report of 20,000 agents held here would be every later measurement's peak memory.
    """
    report = subprocess.Popen(
        [sys.executable, "-m", "scoring", "report", str(path), "--format", "json"],
        stdout=subprocess.PIPE,
        cwd=REPO,
    )
    counted = subprocess.run(
        [sys.executable, "-c", _COUNT_AGENTS],
        stdin=report.stdout,
        capture_output=True,
        check=True,
        text=True,
    )
    assert report.stdout is not None
    report.stdout.close()
    if report.wait() != 0:
        sys.exit(f"the report of {path.name} failed ({report.returncode})")
    if int(counted.stdout) != agents:
        sys.exit(f"expected {agents} agents in the report, got {counted.stdout.strip()}")


def best(values: list[Measure]) -> float:
    """The shortest wall time of the repeats."""
    return min(m.seconds for m in values)


def best_cpu(values: list[Measure]) -> float:
    """The shortest CPU time (user + system) of the repeats."""
    return min(m.cpu_seconds for m in values)


def main(argv: list[str] | None = None) -> int:
    """Generate the logs, measure, print the figures; exit status 1 if a target is missed."""
    parser = log_sizes_parser(
        __doc__, large_flag="runs", noun="runs", large=1_000_000, small=100_000, repeats=3
    )
    parser.set_defaults(seed=20260701)
    parser.add_argument(
        "--agents", type=int, default=ONE_RUN_AGENTS, help="one-run agents (and runs of one)"
    )
    parser.add_argument("--keep", type=Path, help="write the logs here and keep them")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="bench-report-") as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        large, small = folder / f"runs-{args.runs}.jsonl", folder / f"runs-{args.small}.jsonl"
        crowd = folder / f"{MANY_RUNS}-run-agents-{args.runs}.jsonl"
        many = folder / f"one-run-agents-{args.agents}.jsonl"
        one = folder / f"one-agent-{args.agents}.jsonl"
        write_logs(write_runs, {large: args.runs, small: args.small}, args.seed, "runs")
        write_logs(
            lambda path, count, seed: write_runs(
                path, count, seed, count // MANY_RUNS, MANY_RUNS, MANY_TASKS
            ),
            {crowd: args.runs},
            args.seed,
            f"runs of {MANY_RUNS}-run agents",
        )
        write_logs(
            lambda path, count, seed: write_runs(path, count, seed, count, runs_per_agent=1),
            {many: args.agents},
            args.seed,
            "runs of one-run agents",
        )
        write_logs(
            lambda path, count, seed: write_runs(path, count, seed, 1),
            {one: args.agents},
            args.seed,
            "runs of one agent",
        )
        check_output(small, AGENTS)
        check_output(many, args.agents)

        python = sys.executable
        report = [python, "-m", "scoring", "report"]
        loads, big, crowd_loads, crowded, little, agents, single = [], [], [], [], [], [], []
        for repeat in range(1, args.repeats + 1):
            loads.append(measure([python, "-c", _JSON_LOADS, str(large)]))
            big.append(measure([*report, str(large), "--format", "json"]))
            crowd_loads.append(measure([python, "-c", _JSON_LOADS, str(crowd)]))
            crowded.append(measure([*report, str(crowd), "--format", "json"]))
            little.append(measure([*report, str(small), "--format", "json"]))
            agents.append(measure([*report, str(many), "--format", "json"]))
            single.append(measure([*report, str(one), "--format", "json"]))
            print(
                f"repeat {repeat}: json.loads {loads[-1].seconds:.2f} s, "
                f"report {big[-1].seconds:.2f} s ({big[-1].max_rss_mib:.1f} MiB); "
                f"many agents: json.loads {crowd_loads[-1].seconds:.2f} s, "
                f"report {crowded[-1].seconds:.2f} s; "
                f"report small {little[-1].seconds:.2f} s ({little[-1].max_rss_mib:.1f} MiB), "
                f"{args.agents:,} one-run agents {agents[-1].seconds:.2f} s, "
                f"one agent {single[-1].seconds:.2f} s",
                flush=True,
            )

    def median(values: list[Measure], attribute: str = "seconds") -> float:
        return statistics.median(getattr(m, attribute) for m in values)

    big_mib, little_mib = median(big, "max_rss_mib"), median(little, "max_rss_mib")
    ratios = {
        "time": (best(big) / best(loads), TIME_RATIO_TARGET),
        "many agents": (best(crowded) / best(crowd_loads), MANY_RATIO_TARGET),
        "agents": (best(agents) / best(single), AGENTS_RATIO_TARGET),
        "memory": (big_mib / little_mib, MEMORY_RATIO_TARGET),
    }
    crowd_agents = args.runs // MANY_RUNS
    print()
    print(f"best and median of {args.repeats} (wall time; CPU time of the median in brackets):")
    rows = [
        (f"(a) json.loads over {args.runs:,} lines", loads),
        (f"    scoring report on {args.runs:,} runs of {AGENTS} agents", big),
        (f"    json.loads over the {crowd_agents:,} agents' lines", crowd_loads),
        (f"    scoring report on {crowd_agents:,} agents of {MANY_RUNS} runs", crowded),
        (f"(c) {args.agents:,} one-run agents", agents),
        (f"    {args.agents:,} runs of one agent", single),
    ]
    for label, values in rows:
        print(
            f"  {label:<58} {best(values):7.2f} s  {median(values):7.2f} s"
            f"  [{median(values, 'cpu_seconds'):.2f} s]"
        )
    print(f"  (b) report peak memory, {args.small:,} runs {little_mib:27.1f} MiB")
    print(f"      report peak memory, {args.runs:,} runs {big_mib:26.1f} MiB")
    verdict = {True: "PASS", False: "FAIL"}
    names = {
        "time": f"report / json.loads, {args.runs:,} runs of {AGENTS} agents",
        "many agents": f"report / json.loads, {crowd_agents:,} agents of {MANY_RUNS} runs",
        "agents": f"{args.agents:,} one-run agents / {args.agents:,} runs of one agent",
        "memory": f"peak memory {args.runs:,} / {args.small:,} runs",
    }
    # CPU time (user + system) too: on a machine others share, wall time waits for them.
    cpu = {
        "time": (big, loads),
        "many agents": (crowded, crowd_loads),
        "agents": (agents, single),
    }
    for key, (ratio, target) in ratios.items():
        line = f"{names[key]} = {ratio:.2f} (target <= {target}) {verdict[ratio <= target]}"
        if key in cpu:
            top, bottom = cpu[key]
            line += f"   [best CPU-time ratio {best_cpu(top) / best_cpu(bottom):.2f}]"
        print(line)
    return 0 if all(ratio <= target for ratio, target in ratios.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
