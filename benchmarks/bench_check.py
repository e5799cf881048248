"""Time ``python -m contracts check`` as a pre-commit hook runs it: a fresh process each time.

Usage: ``python benchmarks/bench_check.py [-n RUNS] [--budget SECONDS]``. Prints every
run's wall time, then the median and the max; exits 1 if the median is over the budget
(default 1 s) or a run does not exit 0.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time

from contracts.source import REPO_ROOT as ROOT


def time_check() -> tuple[float, int]:
    """Wall time (s) and exit status of one ``python -m contracts check``."""
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "contracts", "check"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    return time.perf_counter() - start, done.returncode


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; return the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", "--runs", type=int, default=15, help="number of runs (15)")
    parser.add_argument("--budget", type=float, default=1.0, help="median budget in s (1.0)")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    time_check()  # warm-up: bytecode caches and the page cache
    times: list[float] = []
    for index in range(args.runs):
        seconds, status = time_check()
        times.append(seconds)
        print(f"run {index + 1:>2}: {seconds:.3f} s (exit {status})")
        if status != 0:
            print(f"python -m contracts check exited {status}; run it to see why")
            return 1
    median = statistics.median(times)
    slowest = max(times)
    print(
        f"python -m contracts check, {args.runs} runs: median {median:.3f} s, max {slowest:.3f} s"
    )
    if median > args.budget:
        print(f"median over the budget of {args.budget:.3f} s")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
