"""Benchmark of a gzipped run log against the same log as plain text (a script, not a test)::

    python benchmarks/bench_gzip.py                 # 200,000 runs, 3 repeats
    python benchmarks/bench_gzip.py --runs 50000 --repeats 1

It writes one deterministic run log (the generator of ``bench_report.py``) and its gzip
copy, then runs ``python -m scoring report LOG --format json`` on each, in fresh
subprocesses, interleaved so that a busy machine slows both alike. It prints the medians of
the wall time and the peak memory (max RSS) of each, and two ratios, gzip ÷ plain. The gzip
log is decompressed as it is read: its peak memory stays near the plain log's, far below
the size of the decompressed text (printed beside it).
"""

from __future__ import annotations

import argparse
import gzip
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

from bench_report import write_runs
from measuring import measure

DEFAULT_RUNS = 200_000
DEFAULT_REPEATS = 3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=DEFAULT_RUNS)
    parser.add_argument("--repeats", type=int, default=DEFAULT_REPEATS)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        plain = Path(folder) / "runs.jsonl"
        packed = Path(folder) / "runs.jsonl.gz"
        write_runs(plain, args.runs, 1)
        with plain.open("rb") as source, gzip.open(packed, "wb") as target:
            shutil.copyfileobj(source, target)
        text_mib = plain.stat().st_size / 2**20
        packed_mib = packed.stat().st_size / 2**20
        print(f"{args.runs:,} runs: {text_mib:.0f} MiB of text, {packed_mib:.1f} MiB gzipped")
        command = [sys.executable, "-m", "scoring", "report", "--format", "json"]
        results: dict[str, list] = {"plain": [], "gzip": []}
        for _ in range(args.repeats):
            results["plain"].append(measure([*command[:4], str(plain), *command[4:]]))
            results["gzip"].append(measure([*command[:4], str(packed), *command[4:]]))
    medians = {}
    for name, runs in results.items():
        seconds = statistics.median(r.seconds for r in runs)
        rss = statistics.median(r.max_rss_mib for r in runs)
        medians[name] = (seconds, rss)
        print(f"{name:5}: median {seconds:.2f} s, peak memory {rss:.0f} MiB")
    time_ratio = medians["gzip"][0] / medians["plain"][0]
    memory_ratio = medians["gzip"][1] / medians["plain"][1]
    print(f"gzip ÷ plain: time {time_ratio:.2f}, peak memory {memory_ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
