"""Measuring the CLI in a fresh subprocess, and the generated logs it is measured on.

Shared by ``benchmarks/bench_report.py`` and ``benchmarks/bench_outcome.py``: both write a
large and a small deterministic log, then time each command and read its peak memory. Only
the standard library: the benchmarks run without pytest.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from contracts.source import REPO_ROOT as REPO


def log_sizes_parser(
    doc: str | None, *, large_flag: str, noun: str, large: int, small: int, repeats: int
) -> argparse.ArgumentParser:
    """The options every log benchmark takes: the sizes of its two logs, how many times to
    measure, and the seed of the logs (set its default with ``set_defaults(seed=...)``)."""
    parser = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    parser.add_argument(f"--{large_flag}", type=int, default=large, help=f"{noun}, large log")
    parser.add_argument("--small", type=int, default=small, help=f"{noun}, small log")
    parser.add_argument("--repeats", type=int, default=repeats, help="measurements of each")
    parser.add_argument("--seed", type=int)
    return parser


def write_logs(
    write: Callable[[Path, int, int], None], sizes: Mapping[Path, int], seed: int, noun: str
) -> None:
    """Write each log of ``sizes`` (path: how many lines) with ``write``, saying how big it
    came out and how long it took."""
    for path, count in sizes.items():
        started = time.perf_counter()
        write(path, count, seed)
        size_mib = path.stat().st_size / 2**20
        print(
            f"wrote {count:,} {noun} to {path.name} ({size_mib:.0f} MiB) "
            f"in {time.perf_counter() - started:.1f} s"
        )


@dataclass(frozen=True)
class Measure:
    """One subprocess: wall time and CPU time (user + system) in seconds, peak RSS in MiB."""

    seconds: float
    cpu_seconds: float
    max_rss_mib: float


def measure(argv: list[str]) -> Measure:
    """Run ``argv`` with its output discarded; its wall time and max RSS (``os.wait4``)."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(REPO), os.environ.get("PYTHONPATH", "")]),
    }
    started = time.perf_counter()
    child = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    assert child.stderr is not None
    errors = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        sys.exit(
            f"{' '.join(argv)} failed ({child.returncode}):\n{errors.decode(errors='replace')}"
        )
    cpu = usage.ru_utime + usage.ru_stime
    return Measure(seconds, cpu, usage.ru_maxrss / 1024)  # ru_maxrss is in KiB on Linux
