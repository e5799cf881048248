"""Benchmark of ``scoring report --engine duckdb|spark``: against the ``json.loads`` floor,
and in memory on 10M runs from Parquet.

A script, not a test::

    python benchmarks/bench_engines.py                 # 1M runs of JSONL, 10M of Parquet
    python benchmarks/bench_engines.py --runs 200000 --parquet-runs 1000000 --repeats 1

It writes the deterministic log of ``bench_report.py`` (``--runs`` runs of 50 agents) and a
Parquet file of ``--parquet-runs`` runs made by DuckDB itself (the same mix of statuses,
values and offsets, drawn from a hash of the row number), then measures, each command in
a fresh subprocess and interleaved so that a busy machine slows both sides of a ratio alike:

(a) the ``json.loads`` floor over every line of the JSON Lines log, and ``scoring report
    LOG --format json --engine duckdb`` on it (validation included: DuckDB's own reading
    and checks, ``json_runs.sql`` and ``checks.sql``, and the count of the bytes), with
    ``--engine python`` beside it;
(b) ``--engine duckdb`` on the Parquet file: its time and peak memory (max RSS);
(c) ``--engine spark`` (local mode) on the JSON Lines log, once: its time beside them
    (``--no-spark`` leaves it out).

It prints the medians and each ratio as the median of the ratios of adjacent pairs, with
its target: duckdb ÷ floor ≤ 1.0; Parquet peak memory < 2 GiB. Exit status 1 if a target
is missed. For the figure on one core: ``taskset -c 0 python benchmarks/bench_engines.py``.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_report import write_runs
from measuring import Measure, log_sizes_parser, measure, write_logs

TIME_RATIO_TARGET = 1.0
MEMORY_TARGET_MIB = 2048
PARQUET_AGENTS = 2000
PARQUET_TASKS = 40

_JSON_LOADS = """
import json, sys
with open(sys.argv[1], "rb") as lines:
    for line in lines:
        json.loads(line)
"""

# A Parquet log of the contract's columns, drawn from hashes of the row number (the same
# file for the same size): ~85% completed, success by a per-agent rate, latencies and costs
# of a few decimals, 5 UTC offsets, some instants shared.
_PARQUET = """
COPY (
  SELECT
    'run-' || i AS run_id,
    'agent-' || (hash(i, 1) % {agents}) AS agent_id,
    'task-' || (hash(i, 2) % {tasks}) AS task_id,
    CASE WHEN hash(i, 3) % 100 < 85 THEN 'completed' WHEN hash(i, 3) % 100 < 91 THEN 'failed'
      WHEN hash(i, 3) % 100 < 95 THEN 'timeout' WHEN hash(i, 3) % 100 < 98 THEN 'queued'
      ELSE 'running' END AS status,
    CASE WHEN hash(i, 4) % 100 < 3 THEN NULL ELSE hash(i, 5) % 100 < 40 + hash(i, 1) % 50 END
      AS success,
    round(200 + (hash(i, 6) % 2000000) / 100.0, (hash(i, 7) % 4)::INTEGER)::DOUBLE AS latency_ms,
    ((hash(i, 8) % 200000) / 1000000.0)::DOUBLE AS cost_usd,
    CASE WHEN hash(i, 9) % 5 = 0 THEN NULL ELSE (hash(i, 9) % 16)::BIGINT END AS steps,
    strftime(TIMESTAMPTZ '2026-01-01 00:00:00+00' + to_seconds((i // 2)::BIGINT),
      '%Y-%m-%dT%H:%M:%S') || ['Z', '+00:00', 'Z', 'Z', 'Z'][(1 + hash(i, 10) % 5)::BIGINT]
      AS finished_at
  FROM range({runs}) AS r(i)
) TO '{path}' (FORMAT parquet)
"""


def write_parquet(path: Path, runs: int, _seed: int) -> None:
    """The Parquet log of ``runs`` runs (made by DuckDB: 10M rows in seconds)."""
    import duckdb

    with duckdb.connect() as con:
        con.execute(
            _PARQUET.format(agents=PARQUET_AGENTS, tasks=PARQUET_TASKS, runs=runs, path=path)
        )


def paired(tops: list[Measure], bottoms: list[Measure]) -> float:
    """The median of the ratios of adjacent measurements (wall time)."""
    return statistics.median(t.seconds / b.seconds for t, b in zip(tops, bottoms, strict=True))


def same_output(python: list[str], engine: list[str]) -> None:
    """Exit if the engine's report is not the Python reader's, byte for byte."""
    outputs = [subprocess.run(argv, capture_output=True, check=False) for argv in (python, engine)]
    if outputs[0].stdout != outputs[1].stdout or outputs[0].returncode:
        sys.exit(f"{' '.join(engine)} does not print what {' '.join(python)} prints")


def main(argv: list[str] | None = None) -> int:
    """Write the logs, measure, print the figures; exit status 1 if a target is missed."""
    parser = log_sizes_parser(
        __doc__, large_flag="runs", noun="runs", large=1_000_000, small=0, repeats=3
    )
    parser.set_defaults(seed=20260701)
    parser.add_argument("--parquet-runs", type=int, default=10_000_000)
    parser.add_argument("--no-spark", action="store_true", help="leave Spark out")
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="bench-engines-") as scratch:
        folder = Path(scratch)
        log, parquet = folder / f"runs-{args.runs}.jsonl", folder / "runs.parquet"
        write_logs(write_runs, {log: args.runs}, args.seed, "runs")
        write_logs(write_parquet, {parquet: args.parquet_runs}, args.seed, "runs (Parquet)")
        report = [sys.executable, "-m", "scoring", "report"]
        json_report = [*report, str(log), "--format", "json"]
        same_output(json_report, [*json_report, "--engine", "duckdb"])
        loads, duck, python, table = [], [], [], []
        for repeat in range(1, args.repeats + 1):
            loads.append(measure([sys.executable, "-c", _JSON_LOADS, str(log)]))
            duck.append(measure([*json_report, "--engine", "duckdb"]))
            python.append(measure(json_report))
            table.append(measure([*report, str(parquet), "--format", "json", "--engine", "duckdb"]))
            print(
                f"repeat {repeat}: json.loads {loads[-1].seconds:.2f} s, duckdb "
                f"{duck[-1].seconds:.2f} s, python {python[-1].seconds:.2f} s; Parquet "
                f"{args.parquet_runs:,} runs {table[-1].seconds:.2f} s "
                f"({table[-1].max_rss_mib:.0f} MiB)",
                flush=True,
            )
        spark = None if args.no_spark else measure([*json_report, "--engine", "spark"])

    def median(values: list[Measure], attribute: str = "seconds") -> float:
        return statistics.median(getattr(m, attribute) for m in values)

    print(f"\nmedians of {args.repeats} (wall time; CPU time in brackets):")
    rows = [
        (f"(a) json.loads over {args.runs:,} lines", loads),
        ("    --engine duckdb, validation included", duck),
        ("    --engine python", python),
        (f"(b) --engine duckdb on {args.parquet_runs:,} runs of Parquet", table),
    ]
    for label, values in rows:
        print(f"  {label:<58} {median(values):7.2f} s  [{median(values, 'cpu_seconds'):.2f} s]")
    if spark is not None:
        print(f"  {'(c) --engine spark, local mode, once':<58} {spark.seconds:7.2f} s")
    time_ratio = paired(duck, loads)
    peak_mib = max(m.max_rss_mib for m in table)
    verdict = {True: "PASS", False: "FAIL"}
    print(
        f"duckdb / json.loads, {args.runs:,} runs = {time_ratio:.2f} "
        f"(target <= {TIME_RATIO_TARGET}) {verdict[time_ratio <= TIME_RATIO_TARGET]}"
        f"   [python / json.loads {paired(python, loads):.2f}]"
    )
    print(
        f"peak memory, {args.parquet_runs:,} runs of Parquet = {peak_mib:.0f} MiB "
        f"(target < {MEMORY_TARGET_MIB}) {verdict[peak_mib < MEMORY_TARGET_MIB]}"
    )
    return 0 if time_ratio <= TIME_RATIO_TARGET and peak_mib < MEMORY_TARGET_MIB else 1


if __name__ == "__main__":
    sys.exit(main())
