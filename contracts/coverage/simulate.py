"""Coverage of the 95% intervals (methodology 1.2.0), measured on simulated agents.

A seeded simulation: agents whose true success rate, composite, radar correctness and
pass^k are known are run on tasks drawn from a known population, scored by the very
functions the report uses (:func:`scoring.rates.success_rate_interval`,
:func:`~scoring.rates.correctness_interval`, :func:`~scoring.rates.pass_hat_k_interval`,
the composite interval :func:`scoring.moves.composite_interval`, and for pairs of agents
:func:`scoring.paired.compare_composites` and :func:`~scoring.paired.compare_success_rates`),
and each interval is checked against the truth. The share of intervals that contain it is
the coverage. The grid and the target are decisions.md's, section "Uncertainty, revised
(from methodology version 1.2.0)", paragraph "Coverage target, from 1.2.0".

Usage::

    python contracts/coverage/simulate.py            # print the table (writes nothing)
    python contracts/coverage/simulate.py --update   # rewrite coverage.json and inputs.json
    python contracts/coverage/simulate.py --check    # exit 1 if the committed file is stale
    python contracts/coverage/simulate.py --update --cache DIR   # resumable: chunks saved in DIR

The whole run (:data:`REPLICATIONS` a cell, 40 cells: 160,000 agents and as many pairs)
costs about 3,500 CPU-seconds (about 32 ms a replication with 100 tasks, 12 ms with 30,
half of it the paired comparisons' covariance): half an hour on :data:`PROCESSES` free
cores, hours on busy shared ones. ``--check`` never re-runs it, and ``--cache DIR`` makes
a run resumable. The check proves the committed figures are what the code gives from two
records in ``inputs.json``:

- the :func:`fingerprint`: a hash of this module's code (its syntax tree without
  docstrings: the grid, the seed, the model, the targets) and of the value of every
  constant of :mod:`scoring.constants` it reads (:data:`SCORING_CONSTANTS`). A comment in
  ``scoring/`` or here changes neither;
- the prefix: the exact published bounds of every interval of the first
  :data:`PREFIX_REPLICATIONS` replications of each cell (the same seeds as the full run:
  replication ``r`` of a cell draws from ``random.Random(f"{SEED}:{label}:{r}")``) and the
  cell's truth, as one digest per cell. ``--check`` re-runs them: if the interval code (or
  a curve behind the truth) changes a single bound, that cell's digest changes and the
  check names it.

The model, one cell (``T`` tasks, mean success rate ``μ``, a population of task rates):

- ``ρ`` a number: each task has its own success rate ``p_t ~ Beta(a, b)``,
  ``a = μ(1 − ρ)/ρ``, ``b = (1 − μ)(1 − ρ)/ρ``: mean ``μ``, and ``ρ = 1/(a + b + 1)`` is the
  correlation of two outcomes of the same task (``ρ = 0``: every ``p_t = μ``);
- bimodal (the lead's reading; the decisions name the population, not its shape): each
  task is easy or hard with probability 1/2, its rate ``μ + δ`` or ``μ − δ`` with
  ``δ = BIMODAL_SPREAD · min(μ, 1 − μ)``, so the mean is exactly ``μ`` and both rates lie in
  (0, 1) (at ``μ = 0.5``: 0.1 and 0.9; at ``μ = 0.95``: 0.91 and 0.99). A mixture of fixed
  rates such as 0.02/0.98 is not used: at ``μ = 0.95`` and 30 tasks no hard task appears in
  39% of the draws, and no interval from those draws can reach the truth;
- each task gets ``K_t`` runs, uniform on ``RUNS_PER_TASK`` (at least the highest pass^k
  level, so pass^k is unbiased); each run succeeds with probability ``p_t``;
- latency has a task effect: ``exp(N(log LATENCY_MEDIAN_MS, σ_task²))`` per task times
  ``exp(N(0, σ_run²))`` per run, rounded to whole ms; cost likewise, in whole 10^-6 USD;
- the radar's window (the latest ``RADAR_WINDOW_RUNS`` runs) is a random subset of the
  runs, as the runs of an agent come in a random order;
- a pair: agent B runs the same tasks with rate ``PAIR_SHRINK · p_t`` on task ``t`` (task
  difficulty shared, so the two agents' outcomes are correlated across tasks), its own
  latency and cost draws.

The truth is the population value each score estimates, computed exactly where it can be:
success rate ``μ``; correctness ``100·μ``; pass^k ``E[p_t^k]`` (the Beta moment
``Π_{j<k} (a + j)/(a + b + j)``, ``μ^k`` at ``ρ = 0``, ``((μ + δ)^k + (μ − δ)^k)/2``
bimodal); composite: the weighted formula (no floor, consistency past its gate) at ``μ``,
the population mean latency ``exp(log LATENCY_MEDIAN_MS + (σ_task² + σ_run²)/2)`` and the
population mean cost; the pair's differences: ``μ − PAIR_SHRINK·μ`` and the composite at
``μ`` minus that at ``PAIR_SHRINK·μ``.

The targets (decisions.md): coverage ≥ :data:`TARGET_LOW` in every published cell,
≥ :data:`STRESS_TARGET_LOW` in the stress cells; ≤ :data:`TARGET_HIGH` where both ``θ·n*``
and ``(1 − θ)·n*`` are at least :data:`UPPER_RULE_MIN` (``θ`` the truth,
``n* = θ(1 − θ)/Var(m̂)`` with ``Var(m̂)`` the variance of the estimate over the
replications; the composite is held to it where its success rate is), and ≤
:data:`HOMOGENEOUS_HIGH` instead for pass^k with ``k ≥ 2`` on homogeneous tasks
(``ρ = 0``). The paired differences are held to the lower target. Each coverage carries its
Monte Carlo error ``√(c(1 − c)/R)``.

The committed ``coverage.json`` (its first key says it is generated, and by what) is what the
site shows. Its shape::

    {"generated": "…", "methodology": "1.2.0", "seed": str, "replications": int,
     "level": float, "fingerprint": str, "runs_per_task": [5, 8],
     "bimodal_spread": 0.8, "pair_shrink": 0.9,
     "targets": {"published_low": 0.93, "stress_low": 0.91, "high": 0.98,
                 "homogeneous_pass_k_high": 0.995, "upper_rule_min": 0.25},
     "scores": ["success_rate", "composite", "correctness", "pass^1", "pass^3", "pass^5"],
     "cells": [{"tasks": 30, "mean_success": 0.5, "population": 0.3 | "bimodal",
                "stress": false,
                "scores": {score: {"truth": float, "coverage": float, "mc_error": float,
                                   "low": float, "high": float | null, "meets": bool,
                                   "null_intervals": int, "mean_width": float}},
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
import math
import multiprocessing
import os
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE.parents[1]) not in sys.path:  # run as a script from anywhere: the project
    sys.path.insert(0, str(HERE.parents[1]))

import scoring.constants as constants  # noqa: E402
from contracts.filesystem import write_atomic  # noqa: E402
from contracts.source import display_path  # noqa: E402
from scoring import moves, paired, rates  # noqa: E402
from scoring.composite import composite_score, outcome_consistency  # noqa: E402
from scoring.curves import cost_score, latency_score  # noqa: E402
from scoring.surd import Interval  # noqa: E402
from scoring.uncertainty import CohortTask  # noqa: E402

OUTPUT = HERE / "coverage.json"
#: Beside it: the fingerprint of the inputs and the digests of the seeded prefix.
INPUTS = HERE / "inputs.json"
COMMAND = "python contracts/coverage/simulate.py --update"
GENERATED = f"generated by {COMMAND} (do not edit; --check tells whether it is stale)"
METHODOLOGY = "1.2.0"

#: Replication ``r`` of a cell draws from ``random.Random(f"{SEED}:{label}:{r}")``.
SEED = "coverage-1.2.0"
#: Simulated agents (and pairs) per cell: a Monte Carlo error of at most ±0.008 at 95%.
REPLICATIONS = 4000
#: Replications per cell of the prefix ``--check`` and the tests re-run exactly.
PREFIX_REPLICATIONS = 10
#: At most two processes: the machine is shared (and CI has two cores).
PROCESSES = 2
#: Replications a worker runs at a time (small enough to balance the two processes).
CHUNK = 200

TASK_COUNTS = (30, 100)
MEAN_SUCCESS = (0.2, 0.5, 0.8, 0.95)
WITHIN_TASK_CORRELATION = (0.0, 0.3)
BIMODAL = "bimodal"
#: Bimodal tasks: rates ``μ ± BIMODAL_SPREAD·min(μ, 1 − μ)``, half of each.
BIMODAL_SPREAD = Fraction(4, 5)
STRESS_MEANS = (0.05, 0.1, 0.9, 0.99)
STRESS_CORRELATIONS = (0.1, 0.5)
#: Runs per task, inclusive: from the highest pass^k level, so pass^k is unbiased.
RUNS_PER_TASK = (max(constants.PASS_K_LEVELS), 8)
LATENCY_MEDIAN_MS = 1500.0
COST_MEDIAN_USD = 0.02
LATENCY_TASK_SIGMA, LATENCY_RUN_SIGMA = 0.5, 0.3
COST_TASK_SIGMA, COST_RUN_SIGMA = 0.6, 0.3
COST_DECIMALS = 6
#: Agent B's rate on a task is this share of A's.
PAIR_SHRINK = Fraction(9, 10)

#: decisions.md 1.2.0, "Coverage target".
TARGET_LOW, STRESS_TARGET_LOW, TARGET_HIGH = 0.93, 0.91, 0.98
UPPER_RULE_MIN = 0.25
HOMOGENEOUS_HIGH = 0.995

#: The constants of scoring.constants this module reads: their values enter the fingerprint.
SCORING_CONSTANTS = ("INTERVAL_LEVEL", "PASS_K_LEVELS", "RADAR_WINDOW_RUNS")

SCORES = (
    "success_rate",
    "composite",
    "correctness",
    *(f"pass^{k}" for k in constants.PASS_K_LEVELS),
)
PAIRS = ("composite", "success_rate")

_LOG_LATENCY, _LOG_COST = math.log(LATENCY_MEDIAN_MS), math.log(COST_MEDIAN_USD)
_COST_UNIT = 10**COST_DECIMALS


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell of the grid: ``population`` a within-task correlation ``ρ``, or ``BIMODAL``."""

    tasks: int
    mean_success: float
    population: float | str
    stress: bool

    @property
    def label(self) -> str:
        kind = " stress" if self.stress else ""
        return f"T={self.tasks} μ={self.mean_success} ρ={self.population}{kind}"

    @property
    def homogeneous(self) -> bool:
        return self.population == 0

    def beta(self) -> tuple[Fraction, Fraction] | None:
        """The Beta parameters of the task rates; ``None`` when every task has rate ``μ``
        (``ρ = 0``) or the population is bimodal."""
        if self.population == BIMODAL or self.population == 0:
            return None
        rho = Fraction(repr(self.population))
        spread = (1 - rho) / rho
        mu = Fraction(repr(self.mean_success))
        return mu * spread, (1 - mu) * spread

    def bimodal_rates(self) -> tuple[Fraction, Fraction]:
        """The hard and the easy rate of a bimodal population."""
        mu = Fraction(repr(self.mean_success))
        delta = BIMODAL_SPREAD * min(mu, 1 - mu)
        return mu - delta, mu + delta

    def rates(self, rng: random.Random) -> list[float]:
        """Each task's true success rate, drawn."""
        if self.population == BIMODAL:
            hard, easy = (float(r) for r in self.bimodal_rates())
            return [easy if rng.random() < 0.5 else hard for _ in range(self.tasks)]
        beta = self.beta()
        if beta is None:
            return [self.mean_success] * self.tasks
        a, b = float(beta[0]), float(beta[1])
        return [rng.betavariate(a, b) for _ in range(self.tasks)]

    def truth(self) -> dict[str, Fraction | float]:
        """The population value of every score (see the module docstring); exact
        fractions where they are rational."""
        mu = Fraction(repr(self.mean_success))
        truth: dict[str, Fraction | float] = {
            "success_rate": mu,
            "composite": composite_truth(mu, self.tasks),
            "correctness": 100 * mu,
        }
        beta = self.beta()
        for k in constants.PASS_K_LEVELS:
            if self.population == BIMODAL:
                hard, easy = self.bimodal_rates()
                moment = (hard**k + easy**k) / 2
            elif beta is None:
                moment = mu**k
            else:
                a, b = beta
                moment = math.prod((a + j) / (a + b + j) for j in range(k))  # type: ignore[assignment]
            truth[f"pass^{k}"] = moment
        return truth

    def pair_truth(self) -> dict[str, Fraction | float]:
        """The true differences A − B of the pair."""
        mu = Fraction(repr(self.mean_success))
        return {
            "composite": composite_truth(mu, self.tasks)
            - composite_truth(mu * PAIR_SHRINK, self.tasks),
            "success_rate": mu - mu * PAIR_SHRINK,
        }


def composite_truth(mu: Fraction, tasks: int) -> float:
    """The weighted formula at rate ``mu`` and the population means of latency and cost
    (the means of the log-normals), past the consistency gate."""
    latency = math.exp(_LOG_LATENCY + (LATENCY_TASK_SIGMA**2 + LATENCY_RUN_SIGMA**2) / 2)
    cost = math.exp(_LOG_COST + (COST_TASK_SIGMA**2 + COST_RUN_SIGMA**2) / 2)
    many = tasks * RUNS_PER_TASK[0]
    score = composite_score(
        mu, outcome_consistency(mu, many), latency_score(latency), cost_score(cost)
    )
    return float(score)


def cells() -> list[Cell]:
    """The published cells, then the stress cells (decisions.md 1.2.0)."""
    published = [
        Cell(t, mu, rho, False)
        for t in TASK_COUNTS
        for mu in MEAN_SUCCESS
        for rho in (*WITHIN_TASK_CORRELATION, BIMODAL)
    ]
    stress = [
        Cell(t, mu, rho, True)
        for t in TASK_COUNTS
        for mu in STRESS_MEANS
        for rho in STRESS_CORRELATIONS
    ]
    return published + stress


# --- one replication ---------------------------------------------------------------------

Bounds = tuple[str, str] | None  # an interval's published bounds, as the report prints them


@dataclass(frozen=True, slots=True)
class Replication:
    """What one replication gives: each score's interval and estimate, each pair's
    interval and its paired and unpaired standard errors."""

    bounds: dict[str, Bounds]
    estimates: dict[str, float]
    pair_bounds: dict[str, Bounds]
    pair_errors: dict[str, tuple[float, float] | None]


def draw_agent(
    task_rates: Sequence[float], rng: random.Random
) -> tuple[dict[str, CohortTask], list[tuple[int, int]]]:
    """One agent's per-task sums (runs, successes, latency ms, cost USD) and the radar's
    window as ``(passes, known)`` per task. Integer sums (cost in whole 10^-6 USD), one
    exact ``Fraction`` per task: the simulation's own arithmetic is kept out of the way of
    the scoring functions'."""
    gauss, uniform, randint = rng.gauss, rng.random, rng.randint
    exp = math.exp
    low, high = RUNS_PER_TASK
    tasks: dict[str, CohortTask] = {}
    outcomes: list[tuple[int, bool]] = []
    for task, rate in enumerate(task_rates):
        latency_level = _LOG_LATENCY + gauss(0, LATENCY_TASK_SIGMA)
        cost_level = _LOG_COST + gauss(0, COST_TASK_SIGMA)
        runs = randint(low, high)
        successes = latency = cost = 0
        for _ in range(runs):
            success = uniform() < rate
            successes += success
            outcomes.append((task, success))
            latency += round(exp(latency_level + gauss(0, LATENCY_RUN_SIGMA)))
            cost += round(exp(cost_level + gauss(0, COST_RUN_SIGMA)) * _COST_UNIT)
        tasks[f"t{task}"] = (runs, successes, latency, Fraction(cost, _COST_UNIT))
    # The latest RADAR_WINDOW_RUNS of runs in a random order: a random subset of them.
    window: dict[int, list[int]] = {}
    for task, success in rng.sample(outcomes, min(constants.RADAR_WINDOW_RUNS, len(outcomes))):
        entry = window.setdefault(task, [0, 0])
        entry[0] += success
        entry[1] += 1
    return tasks, [(passes, known) for passes, known in window.values()]


def _bounds(interval: Interval | None) -> Bounds:
    return None if interval is None else (str(interval.low), str(interval.high))


def replicate(cell: Cell, replication: int) -> Replication:
    """Replication ``replication`` of ``cell``: an agent A and its pair B, from the
    replication's own seed (so any range of replications can run anywhere)."""
    rng = random.Random(f"{SEED}:{cell.label}:{replication}")
    task_rates = cell.rates(rng)
    a, window = draw_agent(task_rates, rng)
    shrink = float(PAIR_SHRINK)
    b, _ = draw_agent([rate * shrink for rate in task_rates], rng)
    counts = [(n, c) for n, c, _, _ in a.values()]
    intervals: dict[str, Interval | None] = {
        "success_rate": rates.success_rate_interval(counts),
        "composite": moves.composite_interval(list(a.values())),
        "correctness": rates.correctness_interval(window),
    }
    estimates = {
        "success_rate": sum(c for _, c in counts) / sum(n for n, _ in counts),
        "correctness": sum(p for p, _ in window) / sum(k for _, k in window),
    }
    for k in constants.PASS_K_LEVELS:
        intervals[f"pass^{k}"] = rates.pass_hat_k_interval(counts, k)
        estimates[f"pass^{k}"] = float(rates.pass_hat_k_moments(counts, k)[0])
    pair_bounds: dict[str, Bounds] = {}
    pair_errors: dict[str, tuple[float, float] | None] = {}
    for name, compare in (
        ("composite", paired.compare_composites),
        ("success_rate", paired.compare_success_rates),
    ):
        result = compare(a, b)
        pair_bounds[name] = _bounds(result.interval)
        se, unpaired = result.standard_error, result.unpaired_standard_error
        pair_errors[name] = None if se is None or unpaired is None else (se, unpaired)
    return Replication(
        {s: _bounds(intervals[s]) for s in SCORES}, estimates, pair_bounds, pair_errors
    )


def _run_chunk(job: tuple[int, int, int]) -> tuple[int, int, list[Replication]]:
    index, start, stop = job
    cell = cells()[index]
    return index, start, [replicate(cell, r) for r in range(start, stop)]


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


# --- the figures -------------------------------------------------------------------------


def _inside(bounds: tuple[str, str], truth: Fraction | float) -> bool:
    low, high = Fraction(bounds[0]), Fraction(bounds[1])
    return low <= Fraction(truth) <= high


def _coverage(hits: int, counted: int) -> tuple[float, float]:
    share = hits / counted if counted else math.nan
    return share, math.sqrt(share * (1 - share) / counted) if counted else math.nan


def upper_rule_applies(truth: float, estimates: Sequence[float]) -> bool:
    """Whether a rate is held to an upper target: ``θ·n*`` and ``(1 − θ)·n*`` both at least
    :data:`UPPER_RULE_MIN`, ``n* = θ(1 − θ)/Var(m̂)`` over the replications' estimates.

    >>> upper_rule_applies(0.5, [0.4, 0.6]), upper_rule_applies(0.001, [0.0, 0.02])
    (True, False)
    """
    variance = statistics.variance(estimates)
    if variance == 0:
        return False
    n_star = truth * (1 - truth) / variance
    return min(truth, 1 - truth) * n_star >= UPPER_RULE_MIN


def score_high(cell: Cell, score: str, applies: bool) -> float | None:
    """The upper target of a score in a cell, or ``None`` where none applies."""
    if not applies:
        return None
    order = int(score.split("^")[1]) if score.startswith("pass^") else 1
    return HOMOGENEOUS_HIGH if cell.homogeneous and order >= 2 else TARGET_HIGH


def summarize(cell: Cell, found: Sequence[Replication]) -> dict[str, Any]:
    """One cell's row of ``coverage.json`` from its replications."""
    truth, pair_truth = cell.truth(), cell.pair_truth()
    low = STRESS_TARGET_LOW if cell.stress else TARGET_LOW
    scale = {"correctness": 100}
    applies = {
        s: upper_rule_applies(
            float(truth[s]) / scale.get(s, 1), [r.estimates[s] / scale.get(s, 1) for r in found]
        )
        for s in SCORES
        if s != "composite"
    }
    # The composite's one-sided edge is its success rate's: held where that one is.
    applies["composite"] = applies["success_rate"]
    scores: dict[str, Any] = {}
    for score in SCORES:
        shown = [r.bounds[score] for r in found if r.bounds[score] is not None]
        hits = sum(_inside(b, truth[score]) for b in shown if b is not None)
        coverage, error = _coverage(hits, len(shown))
        high = score_high(cell, score, applies[score])
        widths = [float(Fraction(b[1]) - Fraction(b[0])) for b in shown if b is not None]
        scores[score] = {
            "truth": round(float(truth[score]), 6),
            "coverage": round(coverage, 4),
            "mc_error": round(error, 4),
            "low": low,
            "high": high,
            "meets": coverage >= low and (high is None or coverage <= high),
            "null_intervals": len(found) - len(shown),
            "mean_width": round(math.fsum(widths) / len(widths), 4) if widths else None,
        }
    pairs: dict[str, Any] = {}
    for name in PAIRS:
        shown = [r.pair_bounds[name] for r in found if r.pair_bounds[name] is not None]
        hits = sum(_inside(b, pair_truth[name]) for b in shown if b is not None)
        coverage, error = _coverage(hits, len(shown))
        errors = [r.pair_errors[name] for r in found if r.pair_errors[name] is not None]
        q = rates.t_factor(cell.tasks)  # every task is shared
        paired_width = [2 * q * e[0] for e in errors if e is not None]
        unpaired_width = [2 * q * e[1] for e in errors if e is not None]
        pairs[name] = {
            "truth": round(float(pair_truth[name]), 6),
            "coverage": round(coverage, 4),
            "mc_error": round(error, 4),
            "low": low,
            "high": None,
            "meets": coverage >= low,
            "null_intervals": len(found) - len(shown),
            "mean_width_paired": round(math.fsum(paired_width) / len(paired_width), 4),
            "mean_width_unpaired": round(math.fsum(unpaired_width) / len(unpaired_width), 4),
        }
    return {
        "tasks": cell.tasks,
        "mean_success": cell.mean_success,
        "population": cell.population,
        "stress": cell.stress,
        "scores": scores,
        "pairs": pairs,
    }


def _code_of(source: str) -> str:
    """The syntax tree of a module without its docstrings: what the code does, not how it
    is commented (comments never reach the tree)."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
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


def fingerprint(source: Path | None = None) -> str:
    """A hash of this module's code (its syntax tree without docstrings: the grid, the
    seed, the model, the targets) and of the value of every constant of
    :mod:`scoring.constants` it reads (:data:`SCORING_CONSTANTS`). Not of ``scoring/``'s
    source: what the interval code gives is proved by the prefix, value by value, so a
    comment or a refactor there does not make the figures stale (nor does a comment here)."""
    code = _code_of((source or Path(__file__)).read_text(encoding="utf-8"))
    digest = hashlib.sha256(code.encode())
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


def targets() -> dict[str, float]:
    return {
        "published_low": TARGET_LOW,
        "stress_low": STRESS_TARGET_LOW,
        "high": TARGET_HIGH,
        "homogeneous_pass_k_high": HOMOGENEOUS_HIGH,
        "upper_rule_min": UPPER_RULE_MIN,
    }


def build(found: dict[int, list[Replication]]) -> dict[str, Any]:
    """The whole ``coverage.json`` document from every cell's replications."""
    every = cells()
    replications = {len(reps) for reps in found.values()}
    if len(replications) != 1:
        raise ValueError(f"every cell needs the same replications, not {sorted(replications)}")
    return {
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


def table(document: dict[str, Any]) -> str:
    """Coverage per cell and score, for people; ``*`` marks a figure that misses its
    target.

    >>> print(table({"scores": ["composite"], "cells": [{"tasks": 30, "mean_success": 0.5,
    ...     "population": 0.0, "stress": False,
    ...     "scores": {"composite": {"coverage": 0.9, "meets": False}},
    ...     "pairs": {"composite": {"coverage": 0.95, "meets": True, "mean_width_paired": 1.0,
    ...               "mean_width_unpaired": 2.0}}}]}))
    tasks  mean  population  composite  d composite  width p/u
       30   0.5         0.0     90.0%*        95.0%       0.50
    """
    scores: Sequence[str] = document["scores"]
    names = [*scores, *(f"d {p}" for p in PAIRS if p in document["cells"][0]["pairs"])]
    widths = [max(len(s), 7) for s in names]
    head = "tasks  mean  population  " + "  ".join(
        s.rjust(w) for s, w in zip(names, widths, strict=True)
    )
    rows = [head + "  width p/u"]
    for row in document["cells"]:
        figures = [row["scores"][s] for s in scores] + [
            row["pairs"][p] for p in PAIRS if p in row["pairs"]
        ]
        cells_text = [
            f"{100 * f['coverage']:.1f}%{'' if f['meets'] else '*'}".rjust(w)
            for f, w in zip(figures, widths, strict=True)
        ]
        pair = row["pairs"]["composite"]
        ratio = pair["mean_width_paired"] / pair["mean_width_unpaired"]
        population = f"{row['population']}{' stress' if row['stress'] else ''}"
        rows.append(
            f"{row['tasks']:>5}  {row['mean_success']:>4}  {population:>10}  "
            + "  ".join(cells_text)
            + f"  {ratio:>9.2f}"
        )
    return "\n".join(rows)


def misses(document: dict[str, Any]) -> list[str]:
    """Every figure that misses its target, with the figure and the target."""
    found = []
    for row in document["cells"]:
        where = f"T={row['tasks']} μ={row['mean_success']} {row['population']}"
        named = [(s, row["scores"][s]) for s in document["scores"]]
        named += [(f"d {p}", row["pairs"][p]) for p in PAIRS]
        for name, figure in named:
            if not figure["meets"]:
                band = f"≥ {figure['low']}" + (
                    "" if figure["high"] is None else f", ≤ {figure['high']}"
                )
                found.append(
                    f"{where}{' (stress)' if row['stress'] else ''}: {name} "
                    f"{figure['coverage']:.4f} ± {figure['mc_error']:.4f} (target {band})"
                )
    return found


def stale_lines(committed: dict[str, Any]) -> list[str]:
    """Why the committed ``inputs.json`` is not what the code gives now (empty when it is):
    the fingerprint first (cheap), then the prefix of every cell, re-run exactly."""
    if committed.get("fingerprint") != fingerprint():
        return [
            "the fingerprint differs: contracts/coverage/simulate.py or a constant it reads "
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
    print(f"{display_path(OUTPUT)}: up to date (fingerprint unchanged, prefix re-run exactly)")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--update", action="store_true", help=f"rewrite {OUTPUT.name}")
    mode.add_argument("--check", action="store_true", help=f"exit 1 if {OUTPUT.name} is stale")
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
