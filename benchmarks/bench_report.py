"""Benchmark of ``python -m scoring report`` against the stdlib ``json.loads``.

A script, not a test::

    python benchmarks/bench_report.py            # 1,000,000 and 100,000 runs, 3 repeats
    python benchmarks/bench_report.py --runs 200000 --small 20000 --repeats 1

It writes two deterministic run logs (50 agents × 40 tasks, mixed statuses and values) to
a temporary folder, then measures, each in a fresh subprocess and interleaved so that a
busy machine slows both alike:

(a) the wall time of the stdlib ``json.loads`` over every line of the large log;
(b) the wall time of ``python -m scoring report LOG --format json`` on the large log;
(c) the peak memory (max RSS, from ``os.wait4``) of that report on the small and the large log;
(d) what the intervals of methodology 1.1.0 cost: the same report on the large log with the
    interval work switched off in that subprocess only (the per-task sums and the interval
    formulas replaced by no-ops), so (b) − (d) is their share of the time.

It prints the medians and two ratios with their targets: report time ÷ json.loads time
(≤ 2.0, on the medians of the wall times) and report peak memory at the large log ÷ at the
small log (≤ 1.5). Exit status 1 if a target is missed. On a shared machine the speed of
the CPU can change by a factor of two within a minute; the CPU-time ratio and the median of
the ratios of adjacent pairs are printed beside the verdict to show how steady it was.
"""

from __future__ import annotations

import json
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
TIME_RATIO_TARGET = 2.0
MEMORY_RATIO_TARGET = 1.5

_JSON_LOADS = """
import json, sys
with open(sys.argv[1], "rb") as lines:
    for line in lines:
        json.loads(line)
"""

# (d): the report with the interval work replaced by no-ops (this subprocess only).
_WITHOUT_INTERVALS = """
import sys
import scoring.report as report
from scoring.cli import main
from scoring.uncertainty import NO_INTERVALS
report.score_intervals = lambda *args, **kwargs: NO_INTERVALS
report.CohortSums.add = lambda self, *args: None
sys.argv = ["scoring", "report", sys.argv[1], "--format", "json"]
main()
"""

_OFFSETS = ("Z", "+00:00", "+02:00", "-05:30", "+09:00")


def write_runs(path: Path, runs: int, seed: int) -> None:
    """Write ``runs`` run records (JSON Lines) to ``path``; the same seed, the same bytes.

    Statuses: about 85% completed, 6% failed, 4% timeout, 3% queued, 2% running. Each agent
    has its own success rate, latency and cost profile; a few timestamps arrive out of
    order, and UTC offsets vary.
    """
    rng = random.Random(seed)
    profiles = [
        (rng.uniform(0.2, 0.95), rng.uniform(6.0, 8.5), rng.uniform(-6.0, -2.5))
        for _ in range(AGENTS)
    ]
    task_ease = [rng.uniform(-0.3, 0.3) for _ in range(TASKS)]
    start = 1_767_225_600  # 2026-01-01T00:00:00Z
    with path.open("w", encoding="utf-8") as out:
        for i in range(runs):
            agent = rng.randrange(AGENTS)
            task = rng.randrange(TASKS)
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
                f'{{"run_id": "run-{i:08d}", "agent_id": "agent-{agent:02d}", '
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


def check_output(path: Path) -> None:
    """Run the report once and check it is a complete JSON report of every agent."""
    out = subprocess.run(
        [sys.executable, "-m", "scoring", "report", str(path), "--format", "json"],
        capture_output=True,
        check=True,
        cwd=REPO,
    )
    report = json.loads(out.stdout)
    if len(report["agents"]) != AGENTS:
        sys.exit(f"expected {AGENTS} agents in the report, got {len(report['agents'])}")


def main(argv: list[str] | None = None) -> int:
    """Generate the logs, measure, print the figures; exit status 1 if a target is missed."""
    parser = log_sizes_parser(
        __doc__, large_flag="runs", noun="runs", large=1_000_000, small=100_000, repeats=5
    )
    parser.set_defaults(seed=20260701)
    parser.add_argument("--keep", type=Path, help="write the logs here and keep them")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="bench-report-") as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        large, small = folder / f"runs-{args.runs}.jsonl", folder / f"runs-{args.small}.jsonl"
        write_logs(write_runs, {large: args.runs, small: args.small}, args.seed, "runs")
        check_output(small)

        python = sys.executable
        report = [python, "-m", "scoring", "report"]
        loads, big, little, plain = [], [], [], []
        for repeat in range(1, args.repeats + 1):
            loads.append(measure([python, "-c", _JSON_LOADS, str(large)]))
            big.append(measure([*report, str(large), "--format", "json"]))
            little.append(measure([*report, str(small), "--format", "json"]))
            plain.append(measure([python, "-c", _WITHOUT_INTERVALS, str(large)]))
            print(
                f"repeat {repeat}: json.loads {loads[-1].seconds:.2f} s, "
                f"report {big[-1].seconds:.2f} s ({big[-1].max_rss_mib:.1f} MiB), "
                f"report small {little[-1].seconds:.2f} s ({little[-1].max_rss_mib:.1f} MiB), "
                f"without intervals {plain[-1].seconds:.2f} s; "
                f"this pair {big[-1].seconds / loads[-1].seconds:.2f}"
            )

    def median(values: list[Measure], attribute: str) -> float:
        return statistics.median(getattr(m, attribute) for m in values)

    loads_s, report_s = median(loads, "seconds"), median(big, "seconds")
    loads_cpu, report_cpu = median(loads, "cpu_seconds"), median(big, "cpu_seconds")
    big_mib, little_mib = median(big, "max_rss_mib"), median(little, "max_rss_mib")
    time_ratio, memory_ratio = report_s / loads_s, big_mib / little_mib
    paired = statistics.median(r.seconds / j.seconds for r, j in zip(big, loads, strict=True))
    time_ok, memory_ok = time_ratio <= TIME_RATIO_TARGET, memory_ratio <= MEMORY_RATIO_TARGET
    print()
    print(f"medians of {args.repeats} (wall time; CPU time in brackets):")
    print(f"  (a) json.loads over {args.runs:,} lines      {loads_s:8.2f} s  [{loads_cpu:.2f} s]")
    print(f"  (b) scoring report on {args.runs:,} runs     {report_s:8.2f} s  [{report_cpu:.2f} s]")
    print(f"  (c) report peak memory, {args.small:,} runs  {little_mib:8.1f} MiB")
    print(f"      report peak memory, {args.runs:,} runs {big_mib:8.1f} MiB")
    plain_s, plain_cpu = median(plain, "seconds"), median(plain, "cpu_seconds")
    cost = statistics.median(b.cpu_seconds - p.cpu_seconds for b, p in zip(big, plain, strict=True))
    print(f"  (d) the same, interval work off          {plain_s:8.2f} s  [{plain_cpu:.2f} s]")
    print(
        f"      the intervals cost {cost:.2f} s of CPU time "
        f"({100 * cost / report_cpu:.1f}% of (b); median of paired differences)"
    )
    verdict = {True: "PASS", False: "FAIL"}
    print(
        f"time ratio report / json.loads = {time_ratio:.2f} "
        f"(target <= {TIME_RATIO_TARGET}) {verdict[time_ok]}"
        f"   [CPU-time ratio {report_cpu / loads_cpu:.2f}; median of paired ratios {paired:.2f}]"
    )
    print(
        f"memory ratio {args.runs:,} / {args.small:,} = {memory_ratio:.2f} "
        f"(target <= {MEMORY_RATIO_TARGET}) {verdict[memory_ok]}"
    )
    return 0 if time_ok and memory_ok else 1


if __name__ == "__main__":
    sys.exit(main())
