"""Differential check of ``python -m scoring report``: two trees, the same random logs, the
same bytes out (a refactor of the report's producer must not change its outputs).

::

    python benchmarks/differential_report.py --baseline ../base --candidate .
    python benchmarks/differential_report.py --baseline A --candidate B --quick
    python benchmarks/differential_report.py --baseline A --candidate /tmp/copy \\
        --candidate-python A/.venv/bin/python --logs 100 --seed 7 --max-runs 200000

Each tree runs with its own interpreter (``TREE/.venv/bin/python`` if it exists, else the
baseline's; ``--baseline-python`` and ``--candidate-python`` choose another), with
``cwd=TREE`` and ``PYTHONPATH=TREE`` so that the tree's own ``scoring`` is imported (checked
before the first log). For every log (made by ``random_logs.py`` from a seed drawn from
``--seed``) the report runs in both formats, on some logs also with viewer weights (valid
ones and refused ones) and from stdin; stdout bytes, stderr bytes and the exit status of the
two trees must be equal. The two trees run at the same time (two processes, on two cores).

One line per log: its seed, size, kind (good or hostile, with the faults planted), OK or
DIFF. On a difference the log and both outputs are kept (in ``--keep DIR``, else a new
temporary folder that is named), and a short unified diff of the first differing lines is
printed. A summary line counts the logs; exit status 1 if any differed, 2 on bad arguments.

stderr holds no progress line here: ``scoring/progress.py`` writes one only where stderr is
a terminal (and ``CI`` is unset), and both trees write stderr to a file. So stderr is
compared byte for byte, without masking anything timing-dependent.
"""

from __future__ import annotations

import argparse
import difflib
import math
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from random_logs import (
    MAX_AGENTS,
    MAX_RUNS,
    MAX_RUNS_PER_TASK,
    MAX_TASKS_PER_AGENT,
    Kind,
    LogSpec,
    Plan,
    write_log,
)

from scoring.constants import Axis

#: Logs in a full run and in ``--quick``.
DEFAULT_LOGS = 100
QUICK_LOGS = 20
#: Runs of the largest log in ``--quick``, and of its agents.
QUICK_MAX_RUNS = 2000
QUICK_MAX_AGENTS = 100
#: Share of hostile logs (a third) and of gzip-compressed ones.
HOSTILE_SHARE = 1 / 3
GZIP_SHARE = 0.12
#: At least this many gzip logs in a plan of DEFAULT_LOGS (fewer in a shorter plan).
MIN_GZIP_LOGS = 6
#: Size classes of a full run: (share of the logs, fewest runs, most runs), drawn
#: log-uniformly within a class. Mostly small and medium, a few large.
SIZE_CLASSES = (
    (0.50, 1, 1_000),
    (0.37, 1_000, 20_000),
    (0.12, 20_000, 150_000),
    (0.01, 150_000, MAX_RUNS),
)
#: A plain file at least this large is read in two parts by the starting code
#: (``PARALLEL_MIN_BYTES`` of ``scoring/report/__init__.py``): a full run holds one good log and one
#: hostile log beyond it. Runs that make it (a line is about 200 bytes, rarely under 100;
#: the summary counts the plain logs that were beyond it).
TWO_PART_BYTES = 1 << 24
TWO_PART_RUNS = 120_000
#: Logs up to this many runs also run with viewer weights and from stdin (where drawn).
WEIGHTED_MAX_RUNS = 50_000
STDIN_MAX_RUNS = 5_000
WEIGHTED_SHARE = 0.35
STDIN_SHARE = 0.2
BAD_WEIGHTS_SHARE = 0.15
#: Bits that set the random stream of a log's calls apart from that of its lines.
CALLS_SEED = 0x5EED
#: Weights as written on a command line: plain, decimal, an exponent, zero.
WEIGHT_TEXTS = ("1", "2", "0.5", "3.25", "1e-3", "0", "10", "0.1", "7E1")
BAD_WEIGHTS = (
    "correctness=-1",
    "speed=1",
    "cost=1,cost=2",
    "correctness=0",
    "latency=1e999",
    "latency=١",
    "",
)
#: Seconds one report may take before it counts as a difference (a hang is a difference).
CALL_TIMEOUT_SECONDS = 1800.0
#: Address space one report may take (two run at once on a shared machine; a report of 1M
#: runs needs about 1 GiB): past it the report fails with MemoryError, a difference,
#: instead of taking the machine to its OOM killer.
GIB = 1 << 30
MEMORY_LIMIT_GIB = 6.0
MEMORY_LIMIT_BYTES = int(MEMORY_LIMIT_GIB * GIB)
MEMORY_ERROR = b"MemoryError"
#: Lines of context around the first differing line, lines of diff shown, characters a line.
DIFF_CONTEXT = 3
DIFF_MAX_LINES = 16
DIFF_LINE_CHARS = 160
EXIT_DIFFERENT = 1
EXIT_USAGE = 2


@dataclass(frozen=True, slots=True)
class Tree:
    """A checkout of the project and the interpreter that runs it."""

    name: str
    root: Path
    python: Path

    def env(self) -> dict[str, str]:
        """This process's environment with the tree first on the import path; no bytecode
        written (the baseline is a read-only checkout)."""
        env = dict(os.environ)
        env["PYTHONPATH"] = str(self.root)
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        return env


@dataclass(frozen=True, slots=True)
class Call:
    """One ``scoring report`` command line: its arguments after ``report``, and whether the
    log is given on stdin (as ``-``) instead of by path."""

    options: tuple[str, ...]
    stdin: bool = False

    def argv(self, log: Path) -> list[str]:
        """The arguments after ``python``."""
        return ["-m", "scoring", "report", "-" if self.stdin else str(log), *self.options]

    def describe(self) -> str:
        """The call as a person would type it."""
        return " ".join(["report", "-" if self.stdin else "LOG", *self.options])


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one tree printed and how it ended (``None``: killed after the timeout)."""

    stdout: bytes
    stderr: bytes
    status: int | None
    seconds: float

    def inconclusive(self) -> str | None:
        """Why this outcome cannot be compared (``None``: it can): the report was killed (by
        the timeout, a signal, the memory limit) instead of ending."""
        if self.status is None:
            return "timed out"
        if self.status < 0:
            return f"was killed by signal {-self.status}"
        if MEMORY_ERROR in self.stderr:
            return "ran out of memory (--memory-limit)"
        return None


@dataclass(slots=True)
class Difference:
    """A call whose outcomes differ, and how."""

    call: Call
    lines: list[str] = field(default_factory=list)


# --- the plan ---------------------------------------------------------------------------------


def _log_uniform(rng: random.Random, low: int, high: int) -> int:
    return min(high, max(low, round(math.exp(rng.uniform(math.log(low), math.log(high))))))


def _agents_for(rng: random.Random, runs: int, most: int) -> int:
    """Agents of a log of ``runs`` runs: enough that no agent needs more than
    ``MAX_TASKS_PER_AGENT`` × ``MAX_RUNS_PER_TASK`` runs, at most ``most``; now and then one
    agent, or one run per agent."""
    low = max(1, -(-runs // (MAX_TASKS_PER_AGENT * MAX_RUNS_PER_TASK)))
    high = max(low, min(most, runs))
    roll = rng.random()
    if roll < 0.1 and low == 1:
        return 1
    if roll < 0.2 and runs <= most:
        return runs
    return _log_uniform(rng, low, high)


def plan_logs(seed: int, count: int, max_runs: int, quick: bool) -> list[LogSpec]:
    """The logs of a run, all decided by ``seed``: sizes, kinds, compression, each log's seed.

    A full plan (not ``quick``, ``max_runs`` allowing) holds a good and a hostile plain log
    beyond ``TWO_PART_BYTES``, and at least ``MIN_GZIP_LOGS`` gzip logs (scaled to
    ``count``).
    """
    rng = random.Random(seed)
    hostile = set(rng.sample(range(count), round(count * HOSTILE_SHARE)))
    gzipped = {i for i in range(count) if rng.random() < GZIP_SHARE}
    want_gzip = min(count, max(1, round(MIN_GZIP_LOGS * count / DEFAULT_LOGS)))
    spare = [i for i in range(count) if i not in gzipped]
    gzipped |= set(rng.sample(spare, max(0, want_gzip - len(gzipped))))
    most_agents = QUICK_MAX_AGENTS if quick else MAX_AGENTS
    specs = []
    for index in range(count):
        if quick:
            runs = _log_uniform(rng, 1, min(max_runs, QUICK_MAX_RUNS))
        else:
            shares = [share for share, _, _ in SIZE_CLASSES]
            _, low, high = rng.choices(SIZE_CLASSES, shares)[0]
            runs = _log_uniform(rng, min(low, max_runs), min(high, max_runs))
        kind = Kind.HOSTILE if index in hostile else Kind.GOOD
        agents = _agents_for(rng, runs, most_agents)
        specs.append(LogSpec(rng.getrandbits(32), runs, agents, kind, index in gzipped))
    if not quick and count >= 3:
        # The largest log the plan allows, once: the end of the range, whatever was drawn.
        index = max(range(count), key=lambda i: specs[i].runs)
        largest = specs[index]
        runs = max_runs
        specs[index] = LogSpec(
            largest.seed, runs, _agents_for(rng, runs, most_agents), largest.kind, largest.gzip
        )
    if not quick and max_runs >= TWO_PART_RUNS and count >= 3:
        # The two-part read of a large plain file, once on good input, once on bad.
        others = [i for i in range(count) if specs[i].runs < max_runs]
        for kind, index in zip((Kind.GOOD, Kind.HOSTILE), rng.sample(others, 2), strict=True):
            runs = rng.randint(TWO_PART_RUNS, min(max_runs, 2 * TWO_PART_RUNS))
            agents = _agents_for(rng, runs, most_agents)
            specs[index] = LogSpec(rng.getrandbits(32), runs, agents, kind, False)
    return specs


def _weights_option(rng: random.Random) -> str:
    if rng.random() < BAD_WEIGHTS_SHARE:
        return rng.choice(BAD_WEIGHTS)
    axes = rng.sample(list(Axis), rng.randint(1, len(Axis)))
    parts = [f"{axis.value}={rng.choice(WEIGHT_TEXTS)}" for axis in axes]
    if all(part.endswith("=0") for part in parts):
        parts[0] = f"{axes[0].value}=1"
    return ",".join(parts)


def calls_for(spec: LogSpec, quick: bool = False) -> list[Call]:
    """The command lines a log is checked with: both formats always; with weights and from
    stdin on some smaller logs (drawn from the log's seed). ``quick``: two calls a log."""
    rng = random.Random(spec.seed ^ CALLS_SEED)
    calls = [Call(()), Call(("--format", "json"))]
    if spec.runs <= WEIGHTED_MAX_RUNS and rng.random() < WEIGHTED_SHARE:
        weights = _weights_option(rng)
        weighted = [Call(("--weights", weights)), Call(("--format", "json", "--weights", weights))]
        # Quick: the table with weights instead of without (a process costs about a second).
        calls = [weighted[0], calls[1]] if quick else calls + weighted
    if not quick and spec.runs <= STDIN_MAX_RUNS and rng.random() < STDIN_SHARE:
        calls.append(Call(("--format", rng.choice(("json", "table"))), stdin=True))
    return calls


# --- running ---------------------------------------------------------------------------------


def _memory_limit(limit_bytes: int) -> Callable[[], None]:
    def limit() -> None:  # in the child, before it runs the report
        resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))

    return limit


def _start(
    tree: Tree, call: Call, log: Path, out: Path, limit_bytes: int
) -> subprocess.Popen[bytes]:
    stdin = log.open("rb") if call.stdin else subprocess.DEVNULL
    try:
        return subprocess.Popen(
            [str(tree.python), *call.argv(log)],
            cwd=tree.root,
            env=tree.env(),
            stdin=stdin,
            stdout=(out / f"{tree.name}.stdout").open("wb"),
            stderr=(out / f"{tree.name}.stderr").open("wb"),
            preexec_fn=_memory_limit(limit_bytes),
        )
    finally:
        if call.stdin:
            stdin.close()  # type: ignore[union-attr]


def _finish(
    tree: Tree, process: subprocess.Popen[bytes], out: Path, started: float, timeout: float
) -> Outcome:
    try:
        status: int | None = process.wait(timeout=max(1.0, timeout - (time.monotonic() - started)))
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        status = None
    for stream in (process.stdout, process.stderr):
        if stream is not None:
            stream.close()
    seconds = time.monotonic() - started
    return Outcome(
        (out / f"{tree.name}.stdout").read_bytes(),
        (out / f"{tree.name}.stderr").read_bytes(),
        status,
        seconds,
    )


def run_pair(
    trees: tuple[Tree, Tree],
    call: Call,
    log: Path,
    out: Path,
    timeout: float,
    limit_bytes: int = 0,
) -> tuple[Outcome, Outcome]:
    """The call run by both trees at once; their outcomes."""
    started = time.monotonic()
    processes: list[subprocess.Popen[bytes]] = []
    try:
        for tree in trees:
            processes.append(_start(tree, call, log, out, limit_bytes or MEMORY_LIMIT_BYTES))
        first, second = (
            _finish(tree, process, out, started, timeout)
            for tree, process in zip(trees, processes, strict=True)
        )
    except BaseException:
        # Ctrl-C (or a failure here): no report is left running after the harness.
        for process in processes:
            process.kill()
            process.wait()
        raise
    return first, second


def _shown(line: str) -> str:
    return line if len(line) <= DIFF_LINE_CHARS else line[:DIFF_LINE_CHARS] + "…"


def first_lines_diff(a: bytes, b: bytes, names: tuple[str, str]) -> list[str]:
    """A unified diff of the lines around the first line where ``a`` and ``b`` differ (the
    outputs can be megabytes: only a window of them is diffed)."""
    left = a.decode("utf-8", "backslashreplace").splitlines(keepends=True)
    right = b.decode("utf-8", "backslashreplace").splitlines(keepends=True)
    first = next(
        (i for i, (x, y) in enumerate(zip(left, right, strict=False)) if x != y),
        min(len(left), len(right)),
    )
    start = max(0, first - DIFF_CONTEXT)
    end = first + DIFF_CONTEXT + 1
    diff = difflib.unified_diff(
        [_shown(line.rstrip("\n")) for line in left[start:end]],
        [_shown(line.rstrip("\n")) for line in right[start:end]],
        f"{names[0]} (from line {start + 1})",
        f"{names[1]} (from line {start + 1})",
        n=DIFF_CONTEXT,
        lineterm="",
    )
    lines = list(diff)
    if not lines and a != b:
        # Same lines but for line endings or a final newline: say so in bytes.
        lines = [f"bytes differ at offset {_first_byte(a, b)} ({len(a)} vs {len(b)} bytes)"]
    return lines[:DIFF_MAX_LINES]


def _first_byte(a: bytes, b: bytes) -> int:
    return next(
        (i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b))
    )


def compare(
    call: Call, first: Outcome, second: Outcome, names: tuple[str, str]
) -> Difference | None:
    """How the two outcomes of ``call`` differ, or ``None`` if they are the same bytes."""
    difference = Difference(call)
    for name, outcome in zip(names, (first, second), strict=True):
        why = outcome.inconclusive()
        if why is not None:
            # Equal bytes from two killed processes prove nothing: a difference.
            difference.lines.append(f"{name} {why}: no comparison")
    if first.status != second.status:
        shown = ["timed out" if s is None else str(s) for s in (first.status, second.status)]
        difference.lines.append(f"exit status: {names[0]} {shown[0]}, {names[1]} {shown[1]}")
    for stream, a, b in (
        ("stdout", first.stdout, second.stdout),
        ("stderr", first.stderr, second.stderr),
    ):
        if a != b:
            difference.lines.append(f"{stream} differs ({len(a)} vs {len(b)} bytes):")
            difference.lines += [f"    {line}" for line in first_lines_diff(a, b, names)]
    return difference if difference.lines else None


# --- the command ------------------------------------------------------------------------------


def _interpreter(root: Path, given: Path | None, fallback: Path | None) -> Path | None:
    if given is not None:
        return given
    own = root / ".venv" / "bin" / "python"
    return own if own.exists() else fallback


def _check_tree(tree: Tree) -> str | None:
    """Why ``tree`` cannot be run as asked (``None`` if it can): its interpreter must import
    the tree's own ``scoring``."""
    if not (tree.root / "scoring" / "__init__.py").is_file():
        return f"--{tree.name}: {tree.root} has no scoring/__init__.py"
    if not tree.python.exists():
        return f"--{tree.name}-python: {tree.python} does not exist"
    probe = subprocess.run(
        [str(tree.python), "-c", "import scoring; print(scoring.__file__)"],
        cwd=tree.root,
        env=tree.env(),
        capture_output=True,
        text=True,
        check=False,
    )
    if probe.returncode != 0:
        return f"--{tree.name}: {tree.python} cannot import scoring: {probe.stderr.strip()[-300:]}"
    imported = Path(probe.stdout.strip()).resolve()
    if not imported.is_relative_to(tree.root.resolve()):
        return f"--{tree.name}: {tree.python} imports {imported}, not the tree's own scoring"
    return None


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        description="Run `scoring report` of two trees on the same random logs; compare "
        "stdout, stderr and exit status byte for byte."
    )
    parser.add_argument("--baseline", type=Path, required=True, help="the tree to match")
    parser.add_argument("--candidate", type=Path, required=True, help="the tree checked")
    parser.add_argument("--baseline-python", type=Path, help="default BASELINE/.venv/bin/python")
    parser.add_argument(
        "--candidate-python",
        type=Path,
        help="default CANDIDATE/.venv/bin/python, else the baseline's interpreter",
    )
    parser.add_argument("--logs", type=int, help=f"logs ({DEFAULT_LOGS}; {QUICK_LOGS} --quick)")
    parser.add_argument("--seed", type=int, default=0, help="decides every log (default 0)")
    parser.add_argument("--max-runs", type=int, default=MAX_RUNS, help="runs of the largest log")
    parser.add_argument("--keep", type=Path, help="where differing logs and outputs are kept")
    parser.add_argument(
        "--quick", action="store_true", help=f"{QUICK_LOGS} small logs (under a minute)"
    )
    parser.add_argument(
        "--memory-limit",
        type=float,
        default=MEMORY_LIMIT_GIB,
        metavar="GIB",
        help=f"address space of one report, GiB (default {MEMORY_LIMIT_GIB:g})",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=CALL_TIMEOUT_SECONDS,
        help="seconds a report may take; longer counts as a difference",
    )
    return parser


def _arguments(argv: Sequence[str] | None) -> tuple[argparse.Namespace, tuple[Tree, Tree]]:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.logs is None:
        args.logs = QUICK_LOGS if args.quick else DEFAULT_LOGS
    if args.logs < 1:
        parser.error(f"--logs: {args.logs}: must be at least 1")
    if not 1 <= args.max_runs <= MAX_RUNS:
        parser.error(f"--max-runs: {args.max_runs}: must be 1 to {MAX_RUNS:,}")
    if args.memory_limit <= 0:
        parser.error(f"--memory-limit: {args.memory_limit}: must be above 0")
    if args.timeout <= 0:
        parser.error(f"--timeout: {args.timeout}: must be above 0")
    baseline_python = _interpreter(args.baseline, args.baseline_python, None)
    if baseline_python is None:
        parser.error(f"--baseline-python: {args.baseline}/.venv/bin/python does not exist")
    # The baseline's interpreter is the fallback: a copy of a tree has no venv of its own.
    candidate_python = (
        _interpreter(args.candidate, args.candidate_python, baseline_python) or baseline_python
    )
    trees = (
        Tree("baseline", args.baseline.resolve(), baseline_python),
        Tree("candidate", args.candidate.resolve(), candidate_python),
    )
    for tree in trees:
        problem = _check_tree(tree)
        if problem is not None:
            parser.error(problem)
    return args, trees


def _kept_folder(args: argparse.Namespace) -> Path:
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
        return args.keep
    args.keep = Path(tempfile.mkdtemp(prefix=f"differential-{args.seed}-"))
    return args.keep


def _keep(args: argparse.Namespace, spec: LogSpec, log: Path, work: Path) -> Path:
    kept = _kept_folder(args) / spec.name.split(".")[0]
    kept.mkdir(parents=True, exist_ok=True)
    shutil.copy2(log, kept / spec.name)
    return kept


def _describe(spec: LogSpec, plan: Plan, size: int) -> str:
    kind = spec.kind.value if spec.kind is Kind.GOOD else f"hostile[{plan.describe()}]"
    extras = f" extras={','.join(plan.harmless)}" if plan.harmless else ""
    return (
        f"seed={spec.seed} runs={spec.runs} agents={spec.agents} "
        f"bytes={size} {'gzip' if spec.gzip else 'plain'} kind={kind}{extras}"
    )


@dataclass(slots=True)
class Tally:
    """Counts over the logs checked so far."""

    logs: int = 0
    differing: int = 0
    calls: int = 0
    hostile: int = 0
    gzip: int = 0
    two_part: int = 0
    exits: Counter[str] = field(default_factory=Counter)
    # Plain calls (no weights) the baseline answered against the log's kind: a good log it
    # refused is a fault of the generator; a hostile log it accepted tests less than meant.
    good_refused: int = 0
    hostile_accepted: int = 0

    def summary(self, seconds: float) -> str:
        """The last line of the check."""
        exits = ", ".join(f"{status}: {n}" for status, n in sorted(self.exits.items()))
        return (
            f"{self.logs} logs, {self.calls} calls per tree: {self.logs - self.differing} OK, "
            f"{self.differing} DIFF ({self.hostile} hostile, {self.gzip} gzip, "
            f"{self.two_part} plain >= 16 MiB; baseline exit statuses {exits}; "
            f"good logs refused {self.good_refused}, hostile logs accepted "
            f"{self.hostile_accepted}) in {seconds:.0f}s"
        )


def _repeat_command(spec: LogSpec) -> str:
    gzip = " --gzip" if spec.gzip else ""
    return (
        f"python benchmarks/random_logs.py --seed {spec.seed} --runs {spec.runs} "
        f"--agents {spec.agents} --kind {spec.kind.value}{gzip} {spec.name}"
    )


def check_log(
    args: argparse.Namespace,
    trees: tuple[Tree, Tree],
    spec: LogSpec,
    work: Path,
    tally: Tally,
) -> bool:
    """Write one log, run its calls in both trees, print its line; whether all were equal."""
    names = (trees[0].name, trees[1].name)
    log = work / spec.name
    started = time.monotonic()
    plan = write_log(spec, log)
    size = log.stat().st_size
    tally.logs += 1
    tally.hostile += spec.kind is Kind.HOSTILE
    tally.gzip += spec.gzip
    tally.two_part += not spec.gzip and size >= TWO_PART_BYTES
    differences: list[tuple[Difference, Path]] = []
    calls = calls_for(spec, args.quick)
    statuses = []
    for index, call in enumerate(calls):
        out = work / f"call-{index}"
        out.mkdir()
        limit = int(args.memory_limit * GIB)
        first, second = run_pair(trees, call, log, out, args.timeout, limit)
        status = "timeout" if first.status is None else str(first.status)
        statuses.append(status)
        tally.exits[status] += 1
        if "--weights" not in call.options:
            tally.good_refused += spec.kind is Kind.GOOD and status != "0"
            tally.hostile_accepted += spec.kind is Kind.HOSTILE and status == "0"
        difference = compare(call, first, second, names)
        if difference is None:
            shutil.rmtree(out)
        else:
            differences.append((difference, out))
    tally.calls += len(calls)
    verdict = "DIFF" if differences else "OK"
    print(
        f"[{tally.logs:>3}/{args.logs}] {_describe(spec, plan, size)} "
        f"exits={','.join(statuses)} {verdict} {time.monotonic() - started:.1f}s",
        flush=True,
    )
    if differences:
        tally.differing += 1
        kept = _keep(args, spec, log, work)
        for difference, out in differences:
            target = kept / difference.call.describe().replace(" ", "_").replace("/", "")
            shutil.copytree(out, target, dirs_exist_ok=True)
            shutil.rmtree(out)
            print(f"    {difference.call.describe()}:")
            for line in difference.lines:
                print(f"      {line}")
        print(f"    kept in {kept}; made again by: {_repeat_command(spec)}")
    log.unlink()
    return not differences


def main(argv: Sequence[str] | None = None) -> int:
    """Run the check; 0 if every log gave the same outputs, 1 if any differed."""
    args, trees = _arguments(argv)
    specs = plan_logs(args.seed, args.logs, args.max_runs, args.quick)
    for tree in trees:
        print(f"{tree.name}: {tree.root} ({tree.python})")
    print(f"{len(specs)} logs from seed {args.seed}, at most {args.max_runs:,} runs each")
    tally = Tally()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="differential-") as scratch:
        for spec in specs:
            check_log(args, trees, spec, Path(scratch), tally)
    print(tally.summary(time.monotonic() - started))
    return EXIT_DIFFERENT if tally.differing else 0


if __name__ == "__main__":
    sys.exit(main())
