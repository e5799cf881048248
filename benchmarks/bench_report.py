"""Benchmark of ``python -m scoring report``: against the stdlib parse floor, in memory, and
per agent.

A script, not a test::

    python benchmarks/bench_report.py            # 1,000,000 and 100,000 runs, 5 repeats
    python benchmarks/bench_report.py --runs 200000 --small 20000 --agents 2000 --repeats 1

It writes deterministic run logs to a temporary folder (mixed statuses and values): a large
and a small one of 50 agents × 40 tasks, one of ``--agents`` agents with one run each and
one of as many runs of a single agent. Then it measures, each command in a fresh
subprocess and interleaved, so that a busy machine slows both sides of a ratio alike:

(a) the wall time of the stdlib ``json.loads`` over every line of the large log (the parse
    floor) and of ``python -m scoring report LOG --format json`` on it;
(b) the peak memory (max RSS, from ``os.wait4``) of that report on the small and the large
    log;
(c) the report on the one-run agents, on agents of ``FEW_RUNS`` runs each, and on the one
    agent with as many runs;
(d) the report on the large log with the intervals (methodology 1.1.0) left out (their
    accumulation and computation replaced by nothing), for the intervals' share.

It prints the medians, and each ratio as the median of the ratios of adjacent pairs (the
speed of a shared CPU changes within a minute), with its target: report ÷ parse floor
(≤ 1.0, goal 0.5), memory large ÷ small (≤ 1.5), one-run agents ÷ one agent and few-run
agents ÷ one agent (≤ 2.0).
Exit status 1 if a target is missed.
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
TIME_RATIO_TARGET = 1.0
TIME_RATIO_GOAL = 0.5
MEMORY_RATIO_TARGET = 1.5
AGENTS_RATIO_TARGET = 2.0
ONE_RUN_AGENTS = 20_000
# The runs of each agent of the mixed case, (c): as many runs in all, in agents this large.
FEW_RUNS = 4

_JSON_LOADS = """
import json, sys
with open(sys.argv[1], "rb") as lines:
    for line in lines:
        json.loads(line)
"""

_OFFSETS = ("Z", "+00:00", "+02:00", "-05:30", "+09:00")


# (d): the report with the intervals left out, in that subprocess only: their per-task
# sums and their computation replaced by nothing (a timing, not a report: the intervals
# are all null and the composite reads sums of zero).
_WITHOUT_INTERVALS = """
import sys
from scoring import report, report_cohort
from scoring.cli import main
from scoring.uncertainty import NO_INTERVALS
report_cohort.CohortSums.add = lambda self, *columns: None
report._intervals = lambda *inputs: NO_INTERVALS
sys.argv = ["scoring", *sys.argv[1:]]
main()
"""


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


def paired(tops: list[Measure], bottoms: list[Measure]) -> float:
    """The median of the ratios of adjacent measurements (wall time)."""
    return statistics.median(t.seconds / b.seconds for t, b in zip(tops, bottoms, strict=True))


def main(argv: list[str] | None = None) -> int:
    """Generate the logs, measure, print the figures; exit status 1 if a target is missed."""
    parser = log_sizes_parser(
        __doc__, large_flag="runs", noun="runs", large=1_000_000, small=100_000, repeats=5
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
        many = folder / f"one-run-agents-{args.agents}.jsonl"
        one = folder / f"one-agent-{args.agents}.jsonl"
        few = folder / f"{FEW_RUNS}-run-agents-{args.agents}.jsonl"
        write_logs(write_runs, {large: args.runs, small: args.small}, args.seed, "runs")
        write_logs(
            lambda path, count, seed: write_runs(path, count, seed, count, runs_per_agent=1),
            {many: args.agents},
            args.seed,
            "runs of one-run agents",
        )
        write_logs(
            lambda path, count, seed: write_runs(
                path, count, seed, count // FEW_RUNS, runs_per_agent=FEW_RUNS
            ),
            {few: args.agents},
            args.seed,
            f"runs of {FEW_RUNS}-run agents",
        )
        write_logs(
            lambda path, count, seed: write_runs(path, count, seed, 1),
            {one: args.agents},
            args.seed,
            "runs of one agent",
        )
        check_output(small, AGENTS)
        check_output(many, args.agents)
        check_output(few, args.agents // FEW_RUNS)

        python = sys.executable
        report = [python, "-m", "scoring", "report"]
        plain = [python, "-c", _WITHOUT_INTERVALS, "report"]
        loads, big, little, bare, agents, single, several = [], [], [], [], [], [], []
        for repeat in range(1, args.repeats + 1):
            loads.append(measure([python, "-c", _JSON_LOADS, str(large)]))
            big.append(measure([*report, str(large), "--format", "json"]))
            bare.append(measure([*plain, str(large), "--format", "json"]))
            little.append(measure([*report, str(small), "--format", "json"]))
            agents.append(measure([*report, str(many), "--format", "json"]))
            single.append(measure([*report, str(one), "--format", "json"]))
            several.append(measure([*report, str(few), "--format", "json"]))
            print(
                f"repeat {repeat}: json.loads {loads[-1].seconds:.2f} s, "
                f"report {big[-1].seconds:.2f} s ({big[-1].max_rss_mib:.1f} MiB; "
                f"{bare[-1].seconds:.2f} s without intervals), "
                f"report small {little[-1].seconds:.2f} s ({little[-1].max_rss_mib:.1f} MiB), "
                f"{args.agents:,} one-run agents {agents[-1].seconds:.2f} s, "
                f"one agent {single[-1].seconds:.2f} s, "
                f"{FEW_RUNS}-run agents {several[-1].seconds:.2f} s; "
                f"this pair {big[-1].seconds / loads[-1].seconds:.2f}",
                flush=True,
            )

    def median(values: list[Measure], attribute: str) -> float:
        return statistics.median(getattr(m, attribute) for m in values)

    loads_s, report_s = median(loads, "seconds"), median(big, "seconds")
    loads_cpu, report_cpu = median(loads, "cpu_seconds"), median(big, "cpu_seconds")
    big_mib, little_mib = median(big, "max_rss_mib"), median(little, "max_rss_mib")
    time_ratio = paired(big, loads)
    memory_ratio = big_mib / little_mib
    agents_ratio = paired(agents, single)
    several_ratio = paired(several, single)
    share = 1 - paired(bare, big)
    spread = [round(r.seconds / j.seconds, 2) for r, j in zip(big, loads, strict=True)]
    time_ok, memory_ok = time_ratio <= TIME_RATIO_TARGET, memory_ratio <= MEMORY_RATIO_TARGET
    agents_ok = max(agents_ratio, several_ratio) <= AGENTS_RATIO_TARGET
    print()
    print(f"medians of {args.repeats} (wall time; CPU time in brackets):")
    print(f"  (a) json.loads over {args.runs:,} lines      {loads_s:8.2f} s  [{loads_cpu:.2f} s]")
    print(f"      scoring report on {args.runs:,} runs     {report_s:8.2f} s  [{report_cpu:.2f} s]")
    print(f"  (b) report peak memory, {args.small:,} runs  {little_mib:8.1f} MiB")
    print(f"      report peak memory, {args.runs:,} runs {big_mib:8.1f} MiB")
    print(f"  (c) {args.agents:,} one-run agents          {median(agents, 'seconds'):8.2f} s")
    print(f"      {args.agents:,} runs of one agent       {median(single, 'seconds'):8.2f} s")
    several_s = median(several, "seconds")
    print(f"      {args.agents // FEW_RUNS:,} agents of {FEW_RUNS} runs        {several_s:8.2f} s")
    print(f"  (d) report without intervals           {median(bare, 'seconds'):8.2f} s")
    verdict = {True: "PASS", False: "FAIL"}
    goal = "goal met" if time_ratio <= TIME_RATIO_GOAL else f"goal {TIME_RATIO_GOAL} not met"
    print(
        f"time ratio report / json.loads = {time_ratio:.2f} "
        f"(target <= {TIME_RATIO_TARGET}; {goal}) {verdict[time_ok]}"
        f"   [pairs {spread}; CPU-time ratio {report_cpu / loads_cpu:.2f}]"
    )
    print(
        f"memory ratio {args.runs:,} / {args.small:,} = {memory_ratio:.2f} "
        f"(target <= {MEMORY_RATIO_TARGET}) {verdict[memory_ok]}"
    )
    print(
        f"agents ratio {args.agents:,} one-run agents / {args.agents:,} runs of one agent = "
        f"{agents_ratio:.2f} (target <= {AGENTS_RATIO_TARGET}) {verdict[agents_ok]}"
    )
    print(
        f"  and {args.agents // FEW_RUNS:,} agents of {FEW_RUNS} runs / the one agent = "
        f"{several_ratio:.2f} (the same target) {verdict[several_ratio <= AGENTS_RATIO_TARGET]}"
    )
    print(f"intervals' share of the report's time = {share:.0%}")
    return 0 if time_ok and memory_ok and agents_ok else 1


if __name__ == "__main__":
    sys.exit(main())
