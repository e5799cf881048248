"""Coverage of the 95% intervals (methodology 1.2.0), measured on simulated agents.

A seeded simulation: agents whose true success rate, composite, radar correctness and
pass^k are known are run on tasks drawn from a known population, scored by the very
functions the report uses (:func:`scoring.intervals.rates.success_rate_interval`,
:func:`~scoring.intervals.rates.correctness_interval`,
:func:`~scoring.intervals.rates.pass_hat_k_interval`, the composite interval
:func:`scoring.intervals.moves.composite_interval`, and for pairs of agents
:func:`scoring.comparisons.paired.compare_composites` and
:func:`~scoring.comparisons.paired.compare_success_rates`),
and each interval is checked against the truth. The share of intervals that contain it is
the coverage. The grid and the target are the uncertainty page's (docs/uncertainty.md,
"Coverage, measured").

Usage::

    python contracts/coverage/simulate.py            # print the table (writes nothing)
    python contracts/coverage/simulate.py --update   # rewrite coverage.json and inputs.json
    python contracts/coverage/simulate.py --check    # exit 1 if the committed file is stale
    python contracts/coverage/simulate.py --update --cache DIR   # resumable: chunks saved in DIR
    python contracts/coverage/simulate.py --judge    # re-judge the committed figures (seconds)
    python contracts/coverage/simulate.py --sizes    # their n* again, from the estimates only

The whole run (:data:`REPLICATIONS` a cell, 40 cells: 160,000 agents and as many pairs)
costs about 3,500 CPU-seconds (about 32 ms a replication with 100 tasks, 12 ms with 30,
half of it the paired comparisons' covariance): half an hour on :data:`PROCESSES` free
cores, hours on busy shared ones. ``--check`` never re-runs it, and ``--cache DIR`` makes
a run resumable. The check proves the committed figures are what the code gives from two
records in ``inputs.json``:

- the :func:`fingerprint`: a hash of the simulation's code (its three modules' syntax trees
  without docstrings: the grid, the seed, the model, the targets) and of the value of every
  constant of :mod:`scoring.constants` it reads (:data:`SCORING_CONSTANTS`). A comment in
  ``scoring/`` or here changes neither, nor does moving a module of ``scoring`` (import
  statements are left out);
- the prefix: the exact published bounds of every interval of the first
  :data:`PREFIX_REPLICATIONS` replications of each cell (the same seeds as the full run:
  replication ``r`` of a cell draws from ``random.Random(f"{SEED}:{label}:{r}")``) and the
  cell's truth, as one digest per cell. ``--check`` re-runs them: if the interval code (or
  a curve behind the truth) changes a single bound, that cell's digest changes and the
  check names it.

The model is :mod:`contracts.coverage.model`'s, the figures
:mod:`contracts.coverage.figures`'s, the targets :mod:`contracts.coverage.targets`'s. The
targets are not in the fingerprint: a verdict is a function of the committed figures, so a
change of the rule alone is applied by ``--judge`` (no simulation), and ``--check`` fails
while a committed verdict is not the rule's. ``--sizes`` recomputes the effective sizes the
ceiling reads from a replay of agent A's draws alone (the same seeded draws: a few
CPU-minutes, not the simulation's hour) and re-judges; the fast tests check the replay
against the full replications on a prefix, a slow one a whole cell against the file.

The committed ``coverage.json`` (its first key says it is generated, and by what) is what the
site shows. Its shape::

    {"generated": "…", "methodology": "1.2.0", "seed": str, "replications": int,
     "level": float, "fingerprint": str, "runs_per_task": [5, 8],
     "bimodal_spread": 0.8, "pair_shrink": 0.9,
     "targets": {"published_low": 0.93, "stress_low": 0.91, "high": 0.99,
                 "upper_rule_min": 5},
     "scores": ["success_rate", "composite", "correctness", "pass^1", "pass^3", "pass^5"],
     "cells": [{"tasks": 30, "mean_success": 0.5, "population": 0.3 | "bimodal",
                "stress": false,
                "scores": {score: {"truth": float, "coverage": float, "mc_error": float,
                                   "low": float, "high": float | null, "meets": bool,
                                   "null_intervals": int, "mean_width": float,
                                   "n_star": float | null, "rarer_count": float | null}},
                "pairs": {"composite" | "success_rate":
                          {"truth": float, "coverage": float, "mc_error": float,
                           "low": float, "high": null, "meets": bool,
                           "null_intervals": int, "mean_width_paired": float,
                           "mean_width_unpaired": float}}}, …]}
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import multiprocessing
import os
import sys
import time
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE.parents[1]) not in sys.path:  # run as a script from anywhere: the project
    sys.path.insert(0, str(HERE.parents[1]))

import scoring.constants as constants  # noqa: E402
from contracts.coverage.figures import misses, sizes, summarize, table  # noqa: E402
from contracts.coverage.model import (  # noqa: E402
    BIMODAL_SPREAD,
    PAIR_SHRINK,
    PREFIX_REPLICATIONS,
    REPLICATIONS,
    RUNS_PER_TASK,
    SCORES,
    SCORING_CONSTANTS,
    SEED,
    Cell,
    Replication,
    cells,
    replicate,
    replicate_estimates,
)
from contracts.coverage.targets import judged, targets  # noqa: E402
from contracts.filesystem import write_atomic  # noqa: E402
from contracts.source import display_path  # noqa: E402

OUTPUT = HERE / "coverage.json"
#: Beside it: the fingerprint of the inputs and the digests of the seeded prefix.
INPUTS = HERE / "inputs.json"
COMMAND = "python contracts/coverage/simulate.py --update"
JUDGE_COMMAND = "python contracts/coverage/simulate.py --judge"
GENERATED = f"generated by {COMMAND} (do not edit; --check tells whether it is stale)"
METHODOLOGY = "1.2.0"

#: At most two processes: the machine is shared (and CI has two cores).
PROCESSES = 2
#: Replications a worker runs at a time (small enough to balance the two processes).
CHUNK = 200


def _run_chunk(job: tuple[int, int, int]) -> tuple[int, int, list[Replication]]:
    index, start, stop = job
    cell = cells()[index]
    return index, start, [replicate(cell, r) for r in range(start, stop)]


def _estimates_chunk(job: tuple[int, int, int]) -> tuple[int, int, list[dict[str, float]]]:
    index, start, stop = job
    cell = cells()[index]
    return index, start, [replicate_estimates(cell, r) for r in range(start, stop)]


#: The workers' niceness: the machine is shared, so the simulation yields to other work.
NICENESS = 10


def _lower_priority() -> None:
    # Up to NICENESS, not past it: a run already started under `nice -n 10` stays at 10.
    os.nice(max(0, NICENESS - os.nice(0)))


def _to_json(found: Sequence[Replication]) -> str:
    return json.dumps(
        [[r.bounds, r.estimates, r.pair_bounds, r.pair_errors] for r in found], ensure_ascii=False
    )


def _from_json(text: str) -> list[Replication]:
    def pair(value: list[Any] | None) -> Any:
        return None if value is None else (value[0], value[1])

    return [
        Replication(
            {k: pair(v) for k, v in bounds.items()},
            estimates,
            {k: pair(v) for k, v in pair_bounds.items()},
            {k: pair(v) for k, v in pair_errors.items()},
        )
        for bounds, estimates, pair_bounds, pair_errors in json.loads(text)
    ]


def run(
    replications: int,
    *,
    processes: int = PROCESSES,
    chosen: Sequence[int] | None = None,
    progress: bool = False,
    cache: Path | None = None,
) -> dict[int, list[Replication]]:
    """The first ``replications`` replications of each cell (all, or the indices
    ``chosen``), in chunks of :data:`CHUNK` over ``processes`` processes; in replication
    order per cell.

    With ``cache`` (a folder), each chunk is saved there as it finishes and a saved chunk
    is reused, so an interrupted run resumes. A chunk is keyed by its cell's prefix digest
    as the code gives it now: the same proof as ``--check``, so a change to the model or to
    the interval code never reuses a chunk computed before it."""
    every = cells()
    indices = list(range(len(every)) if chosen is None else chosen)
    # Round by round (every cell advances together), the long cells (100 tasks) first.
    jobs = sorted(
        (
            (i, start, min(start + CHUNK, replications))
            for i in indices
            for start in range(0, replications, CHUNK)
        ),
        key=lambda job: (job[1], -every[job[0]].tasks, job[0]),
    )
    parts: dict[int, dict[int, list[Replication]]] = {i: {} for i in indices}
    paths: dict[tuple[int, int], Path] = {}
    if cache is not None:
        cache.mkdir(parents=True, exist_ok=True)
        keys = prefix(chosen=indices)
        for index, start, stop in jobs:
            paths[(index, start)] = cache / f"{keys[every[index].label]}-{start}-{stop}.json"
        for index, start, _ in jobs:
            path = paths[(index, start)]
            if path.exists():
                parts[index][start] = _from_json(path.read_text(encoding="utf-8"))
        jobs = [job for job in jobs if job[1] not in parts[job[0]]]
    started = time.perf_counter()

    def record(done_jobs: int, index: int, start: int, found: list[Replication]) -> None:
        parts[index][start] = found
        if cache is not None:
            write_atomic(paths[(index, start)], _to_json(found))
        if progress:
            elapsed = time.perf_counter() - started
            print(f"{done_jobs}/{len(jobs)} chunks, {elapsed:.0f} s", file=sys.stderr, flush=True)

    if processes <= 1 or len(jobs) <= 1:
        for done_jobs, job in enumerate(jobs, 1):
            record(done_jobs, *_run_chunk(job))
    else:
        context = multiprocessing.get_context("fork")
        with context.Pool(processes, initializer=_lower_priority) as pool:
            for done_jobs, found in enumerate(pool.imap_unordered(_run_chunk, jobs), 1):
                record(done_jobs, *found)
    return {i: [r for start in sorted(parts[i]) for r in parts[i][start]] for i in indices}


def _code_of(source: str) -> str:
    """The syntax tree of a module without its docstrings and its import statements: what
    the code does, not how it is commented (comments never reach the tree) nor which module
    of ``scoring`` a name is imported from (what the imported code gives is proved by the
    prefix, value by value)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and block:
                kept = [s for s in block if not isinstance(s, ast.Import | ast.ImportFrom)]
                setattr(node, name, kept or [ast.Pass()])
        body = getattr(node, "body", None)
        if (
            isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            node.body = body[1:] or [ast.Pass()]
    return ast.dump(tree)


#: The code the figures depend on: the model, the figures, and this module (the run).
CODE = (HERE / "model.py", HERE / "figures.py", Path(__file__).resolve())
#: The rule the figures are judged by: not in the fingerprint (see the module docstring).
JUDGING = (HERE / "targets.py",)


def fingerprint(sources: Sequence[Path] = CODE) -> str:
    """A hash of the simulation's code (:data:`CODE`: each module's syntax tree without
    docstrings: the grid, the seed, the model, the targets) and of the value of every
    constant of :mod:`scoring.constants` it reads (:data:`SCORING_CONSTANTS`). Not of
    ``scoring/``'s source: what the interval code gives is proved by the prefix, value by
    value, so a comment or a refactor there does not make the figures stale (nor does a
    comment here)."""
    digest = hashlib.sha256()
    for source in sources:
        digest.update(_code_of(source.read_text(encoding="utf-8")).encode() + b"\0")
    for name in SCORING_CONSTANTS:
        digest.update(f"\0{name}={getattr(constants, name)!r}".encode())
    return digest.hexdigest()


def _exact_text(value: Fraction | float) -> str:
    return f"{value.numerator}/{value.denominator}" if isinstance(value, Fraction) else repr(value)


def prefix_digest(cell: Cell, found: Sequence[Replication]) -> str:
    """The digest of a cell's truth and of every published bound of ``found`` (the first
    :data:`PREFIX_REPLICATIONS` replications)."""
    record = {
        "truth": {k: _exact_text(v) for k, v in cell.truth().items()},
        "pair_truth": {k: _exact_text(v) for k, v in cell.pair_truth().items()},
        "replications": [[r.bounds, r.pair_bounds] for r in found],
    }
    text = json.dumps(record, sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(text.encode()).hexdigest()


def prefix(
    found: dict[int, list[Replication]] | None = None, *, chosen: Sequence[int] | None = None
) -> dict[str, str]:
    """The prefix digest of each cell (all, or the indices ``chosen``), by label: from the
    first :data:`PREFIX_REPLICATIONS` of ``found``, or re-run now."""
    if found is None:
        found = run(PREFIX_REPLICATIONS, chosen=chosen)
    every = cells()
    return {
        every[i].label: prefix_digest(every[i], reps[:PREFIX_REPLICATIONS])
        for i, reps in found.items()
    }


def build(found: dict[int, list[Replication]]) -> dict[str, Any]:
    """The whole ``coverage.json`` document from every cell's replications."""
    every = cells()
    replications = {len(reps) for reps in found.values()}
    if len(replications) != 1:
        raise ValueError(f"every cell needs the same replications, not {sorted(replications)}")
    return judged(
        {
            "generated": GENERATED,
            "methodology": METHODOLOGY,
            "seed": SEED,
            "replications": replications.pop(),
            "level": float(constants.INTERVAL_LEVEL),
            "fingerprint": fingerprint(),
            "runs_per_task": list(RUNS_PER_TASK),
            "bimodal_spread": float(BIMODAL_SPREAD),
            "pair_shrink": float(PAIR_SHRINK),
            "targets": targets(),
            "scores": list(SCORES),
            "cells": [summarize(every[i], found[i]) for i in sorted(found)],
        }
    )


def replay_sizes(
    replications: int, *, processes: int = PROCESSES, chosen: Sequence[int] | None = None
) -> dict[str, dict[str, dict[str, Any]]]:
    """Each cell's (all, or the indices ``chosen``) ``n_star`` and ``rarer_count`` per score
    (:func:`contracts.coverage.figures.sizes`) over its first ``replications``
    replications, from agent A's estimates alone (:func:`model.replicate_estimates`), by
    label."""
    every = cells()
    indices = list(range(len(every)) if chosen is None else chosen)
    jobs = [
        (i, start, min(start + CHUNK, replications))
        for i in indices
        for start in range(0, replications, CHUNK)
    ]
    parts: dict[int, dict[int, list[dict[str, float]]]] = {i: {} for i in indices}
    if processes <= 1 or len(jobs) <= 1:
        done = map(_estimates_chunk, jobs)
        for index, start, found in done:
            parts[index][start] = found
    else:
        context = multiprocessing.get_context("fork")
        with context.Pool(processes, initializer=_lower_priority) as pool:
            for index, start, found in pool.imap_unordered(_estimates_chunk, jobs):
                parts[index][start] = found
    return {
        every[i].label: sizes(every[i], [e for s in sorted(parts[i]) for e in parts[i][s]])
        for i in indices
    }


def with_sizes(
    document: dict[str, Any], found: dict[str, dict[str, dict[str, Any]]]
) -> dict[str, Any]:
    """``document`` with each score's ``n_star`` and ``rarer_count`` from ``found`` (by
    cell label), after its other figures, and judged again."""
    rows = []
    for row in document["cells"]:
        cell = Cell(row["tasks"], row["mean_success"], row["population"], row["stress"])
        scores = {
            name: {
                **{k: v for k, v in figure.items() if k not in ("n_star", "rarer_count")},
                **found[cell.label][name],
            }
            for name, figure in row["scores"].items()
        }
        rows.append({**row, "scores": scores})
    return judged({**document, "cells": rows})


def inputs_document(found: dict[int, list[Replication]]) -> dict[str, Any]:
    """``inputs.json``: the fingerprint and the prefix digests of the committed figures."""
    return {
        "generated": GENERATED,
        "fingerprint": fingerprint(),
        "prefix_replications": PREFIX_REPLICATIONS,
        "prefix": prefix(found),
    }


def document_text(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def stale_lines(committed: dict[str, Any]) -> list[str]:
    """Why the committed ``inputs.json`` is not what the code gives now (empty when it is):
    the fingerprint first (cheap), then the prefix of every cell, re-run exactly."""
    if committed.get("fingerprint") != fingerprint():
        return [
            "the fingerprint differs: the simulation's code "
            f"({', '.join(display_path(path) for path in CODE)}) or a constant it reads "
            f"({', '.join(SCORING_CONSTANTS)}) changed"
        ]
    if committed.get("prefix_replications") != PREFIX_REPLICATIONS:
        return [f"prefix_replications: committed {committed.get('prefix_replications')!r}"]
    live, old = prefix(), committed.get("prefix", {})
    found = [
        f"cell {label}: the prefix's interval bounds differ"
        for label in live
        if old.get(label) != live[label]
    ]
    found += [f"cell {label}: not in the grid any more" for label in old if label not in live]
    return found


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        print(f"{display_path(path)}: cannot read it ({error.strerror}); run {COMMAND}")
        return None


def _check() -> int:
    """0 when the committed figures are what the code gives, 1 when stale, 2 unreadable."""
    committed, inputs_text = _read(OUTPUT), _read(INPUTS)
    if committed is None or inputs_text is None:
        return 2
    try:
        document, inputs = json.loads(committed), json.loads(inputs_text)
    except json.JSONDecodeError as error:
        print(f"{display_path(OUTPUT)} or {display_path(INPUTS)}: not valid JSON ({error})")
        return 2
    problems = []
    if document.get("fingerprint") != inputs.get("fingerprint"):
        problems.append(f"{OUTPUT.name} and {INPUTS.name} come from different runs")
    problems += stale_lines(inputs)
    if problems:
        print(f"{display_path(OUTPUT)} is stale; run {COMMAND}")
        print("\n".join(f"  {p}" for p in problems))
        return 1
    if document != judged(document):
        print(
            f"{display_path(OUTPUT)}: its targets and verdicts are not those of "
            f"{display_path(JUDGING[0])}; run {JUDGE_COMMAND} (no simulation)"
        )
        return 1
    print(
        f"{display_path(OUTPUT)}: up to date (fingerprint unchanged, prefix re-run exactly, "
        "verdicts the targets')"
    )
    return 0


def _rewrite(document: dict[str, Any]) -> int:
    """Write ``document`` as the committed figures; print what misses its target."""
    missed = misses(document)
    print("\n".join(["misses:", *missed]) if missed else "every figure meets its target")
    write_atomic(OUTPUT, document_text(document))
    print(f"wrote {display_path(OUTPUT)}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--update", action="store_true", help=f"rewrite {OUTPUT.name}")
    mode.add_argument("--check", action="store_true", help=f"exit 1 if {OUTPUT.name} is stale")
    mode.add_argument(
        "--judge",
        action="store_true",
        help=f"re-judge the committed {OUTPUT.name} by today's targets (no simulation)",
    )
    mode.add_argument(
        "--sizes",
        action="store_true",
        help=f"recompute the n* of {OUTPUT.name} from agent A's estimates, then re-judge",
    )
    parser.add_argument(
        "--cache",
        type=Path,
        help="a folder to save each chunk in and resume from (an interrupted run resumes)",
    )
    parser.add_argument(
        "--replications",
        type=int,
        default=REPLICATIONS,
        help=(
            "replications a cell (default REPLICATIONS); with --update, a file short of "
            "REPLICATIONS is written as such and the tests say it is short"
        ),
    )
    args = parser.parse_args(argv)
    if args.check:
        return _check()
    if args.judge or args.sizes:
        text = _read(OUTPUT)
        if text is None:
            return 2
        document = json.loads(text)
        if args.sizes:
            return _rewrite(with_sizes(document, replay_sizes(document["replications"])))
        return _rewrite(judged(document))
    replications = args.replications
    if replications < 2:
        parser.error(f"--replications must be at least 2, not {replications}")
    started = time.perf_counter()
    found = run(replications, progress=True, cache=args.cache)
    document = build(found)
    print(table(document))
    missed = misses(document)
    print("\n".join(["misses:", *missed]) if missed else "every figure meets its target")
    print(f"wall time: {time.perf_counter() - started:.0f} s on {PROCESSES} processes")
    if args.update:
        if replications < REPLICATIONS:
            print(f"short: {replications} replications a cell, the decisions ask {REPLICATIONS}")
        write_atomic(OUTPUT, document_text(document))
        write_atomic(INPUTS, document_text(inputs_document(found)))
        print(f"wrote {display_path(OUTPUT)} and {display_path(INPUTS)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
