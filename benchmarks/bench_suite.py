"""How long the test suite takes: the fast lane (``-m "not slow"``) and, with ``--full``, the
whole suite, each a fresh ``python -m pytest`` from the project root, as a writer runs it.

Prints the median wall time of ``--runs`` runs (and each run), with the load average before
each run and the CPU time of the run's processes (user + system, pytest and every process
it started): the machine may be shared, and a wall time means little without them; on a
busy machine the CPU time is the steadier figure. ``--top N`` also prints the N slowest
items (setup or call) of the last run of each lane, from pytest's ``--durations``.
``--update`` writes the figures into CONTRIBUTING.md (between its ``suite figures``
markers), so that the figure the documentation quotes is the one this script measured,
never typed by hand.

    .venv/bin/python benchmarks/bench_suite.py --runs 3 --top 15  # the fast lane
    .venv/bin/python benchmarks/bench_suite.py --full --update    # both, into CONTRIBUTING.md
    .venv/bin/python benchmarks/bench_suite.py --full --busy 2    # beside two busy processes

``--busy N`` runs each lane beside N processes that spin on the CPU (the load of other
tenants, made on purpose): a test that depends on timing fails there first.
"""

from __future__ import annotations

import argparse
import ctypes
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from measuring import REPO
from processes import busy_processes

CONTRIBUTING = REPO / "CONTRIBUTING.md"
REGION = re.compile(
    r"(<!-- suite figures: [^\n]*-->\n)(.*?)(<!-- end suite figures -->)", re.DOTALL
)
FAST_LANE = ("-m", "not slow")
LANES = {"fast lane": FAST_LANE, "full suite": ()}


#: A line of pytest's ``--durations`` report: "12.34s call     tests/x.py::test_y".
DURATION = re.compile(r"^\d+\.\d+s (?:setup|call|teardown) +\S")


@dataclass(frozen=True)
class Lane:
    name: str
    seconds: list[float]
    loads: list[float]
    passed: bool
    #: CPU seconds (user + system) of each run's processes; empty where not measured.
    cpu: list[float] = field(default_factory=list)
    #: The slowest items of the last run, as pytest's --durations prints them.
    top: list[str] = field(default_factory=list)
    #: Busy processes that ran beside each run.
    busy: int = 0
    #: The code measured: its commit, and whether it had uncommitted changes.
    commit: str = ""

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    def line(self) -> str:
        runs = ", ".join(f"{s:.0f} s" for s in self.seconds)
        loads = ", ".join(f"{load:.1f}" for load in self.loads)
        cpu = f"; CPU time median {statistics.median(self.cpu):.0f} s" if self.cpu else ""
        verdict = "" if self.passed else " (a run FAILED)"
        beside = f", beside {self.busy} busy processes" if self.busy else ""
        code = f"; the code of commit {self.commit}" if self.commit else ""
        return (
            f"- {self.name}: median {self.median:.0f} s of {len(self.seconds)} run(s) ({runs}); "
            f"load average before each run {loads} on {os.cpu_count()} cores{beside}{cpu}"
            f"{code}{verdict}"
        )


def measured_commit() -> str:
    """The commit of the code measured (abbreviated), said to carry uncommitted changes where
    the working tree has any; empty outside a git checkout."""
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short=7", "HEAD"], cwd=REPO, capture_output=True, text=True
        )
        status = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=REPO,
            capture_output=True,
            text=True,
        )
    except OSError:  # no git
        return ""
    if head.returncode != 0:
        return ""
    dirty = " with uncommitted changes" if status.stdout.strip() else ""
    return head.stdout.strip() + dirty


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


#: ``prctl``'s PR_SET_CHILD_SUBREAPER (Linux).
_PR_SET_CHILD_SUBREAPER = 36
#: How long the processes a run leaves behind are given to end once it has (s).
ORPHANS_WAIT_S = 60.0


def adopt_orphans() -> bool:
    """Make this process the reaper of its descendants' orphans (Linux; False elsewhere).

    A process's CPU time reaches its parent's count of its children only when the parent
    waits for it. The suite's browser, Spark's JVM and the zygotes of the forked commands
    are left by the processes that started them: without this, their CPU time (a third of
    the suite's) was counted nowhere. Adopted, they are waited for here."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _children() -> set[int]:
    """The process ids whose parent is this process (read from /proc; none elsewhere)."""
    found = set()
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            stat = entry.read_text()
        except OSError:
            continue
        if int(stat[stat.rindex(")") + 2 :].split()[1]) == os.getpid():
            found.add(int(entry.parent.name))
    return found


def reap_orphans(keep: Collection[int]) -> None:
    """Wait for every child of this process but ``keep`` (the orphans it adopted during a
    run), for at most :data:`ORPHANS_WAIT_S`."""
    deadline = time.monotonic() + ORPHANS_WAIT_S
    while True:
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                break
        if not _children() - set(keep) or time.monotonic() > deadline:
            return
        time.sleep(0.05)  # polled: an orphan ends in its own time


def slowest(output: str, count: int) -> list[str]:
    """The first ``count`` lines of pytest's ``--durations`` report in ``output``."""
    return [line for line in output.splitlines() if DURATION.match(line)][:count]


def time_lane(name: str, arguments: Sequence[str], runs: int, top: int = 0, busy: int = 0) -> Lane:
    """``runs`` fresh runs of ``python -m pytest <arguments>`` from the project root, each
    beside ``busy`` spinning processes."""
    command = [sys.executable, "-m", "pytest", *arguments, "-q", "-p", "no:cacheprovider"]
    if top:
        command.append(f"--durations={top}")
    seconds, loads, cpu, passed, shown = [], [], [], True, []
    for _ in range(runs):
        loads.append(os.getloadavg()[0])
        used = _children_cpu()  # of every finished, waited-for descendant: pytest's included
        with busy_processes(busy) as spinning:
            start = time.perf_counter()
            done = subprocess.run(command, cwd=REPO, capture_output=True, text=True, check=False)
            seconds.append(time.perf_counter() - start)
            reap_orphans(keep=spinning)
            # Before the spinning processes are waited for: their CPU is not the suite's.
            cpu.append(_children_cpu() - used)
        passed = passed and done.returncode == 0
        shown = slowest(done.stdout, top)
        if done.returncode != 0:
            print(done.stdout[-3000:], file=sys.stderr)
    return Lane(name, seconds, loads, passed, cpu, shown, busy)


def figures_text(lanes: Sequence[Lane]) -> str:
    """The paragraph CONTRIBUTING.md quotes."""
    return "".join(f"{lane.line()}\n" for lane in lanes)


#: What a figure line is of: its lane, and the busy processes beside it (none: quiet).
_LINE_NAME = re.compile(r"- (?P<name>[a-z ]+): median ")
_LINE_BUSY = re.compile(r", beside (?P<busy>\d+) busy processes;")


def _key(line: str) -> tuple[str, int] | None:
    name = _LINE_NAME.match(line)
    if name is None:
        return None
    busy = _LINE_BUSY.search(line)
    return name["name"], 0 if busy is None else int(busy["busy"])


def update(lanes: Sequence[Lane]) -> None:
    """Write the lanes' lines into CONTRIBUTING.md's region, keeping the lines there of
    another lane or another load (a quiet run and a busy one are both quoted)."""
    text = CONTRIBUTING.read_text(encoding="utf-8")
    new = {(lane.name, lane.busy) for lane in lanes}

    def merged(found: re.Match[str]) -> str:
        kept = [line for line in found[2].splitlines() if _key(line) not in new | {None}]
        return found[1] + "".join(f"{line}\n" for line in kept) + figures_text(lanes) + found[3]

    fresh, count = REGION.subn(merged, text)
    if count != 1:
        raise SystemExit(f"{CONTRIBUTING.name}: no 'suite figures' region to write into")
    CONTRIBUTING.write_text(fresh, encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="runs of each lane (median)")
    parser.add_argument("--full", action="store_true", help="also time the whole suite")
    parser.add_argument("--update", action="store_true", help="write into CONTRIBUTING.md")
    parser.add_argument("--top", type=int, default=0, help="print the N slowest items too")
    parser.add_argument("--busy", type=int, default=0, help="N spinning processes beside each run")
    args = parser.parse_args(argv)
    adopt_orphans()
    names = ["fast lane", "full suite"] if args.full else ["fast lane"]
    commit = measured_commit()
    lanes = [
        replace(time_lane(name, LANES[name], args.runs, args.top, args.busy), commit=commit)
        for name in names
    ]
    print(figures_text(lanes), end="")
    for lane in lanes:
        if lane.top:
            print(f"slowest items of the {lane.name} (last run):")
            print("".join(f"  {line}\n" for line in lane.top), end="")
    if args.update:
        update(lanes)
        print(f"wrote {CONTRIBUTING.relative_to(REPO)}")
    return 0 if all(lane.passed for lane in lanes) else 1


if __name__ == "__main__":
    sys.exit(main())
