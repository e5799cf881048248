"""The coverage simulation's model: the grid of cells (docs/uncertainty.md, paragraph
"Coverage target"), the population each cell draws its tasks from, one agent's runs, the
truth each score estimates, and one replication, scored by the very functions the report
uses. :mod:`contracts.coverage.simulate` runs it and publishes the figures;
:mod:`contracts.coverage.figures` judges each cell against its target.

The model, one cell (``T`` tasks, mean success rate ``μ``, a population of task rates):

- ``ρ`` a number: each task has its own success rate ``p_t ~ Beta(a, b)``,
  ``a = μ(1 − ρ)/ρ``, ``b = (1 − μ)(1 − ρ)/ρ``: mean ``μ``, and ``ρ = 1/(a + b + 1)`` is the
  correlation of two outcomes of the same task (``ρ = 0``: every ``p_t = μ``);
- bimodal (one reading of the population, whose shape the page leaves open): each
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
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import scoring.constants as constants
from scoring.comparisons import paired
from scoring.formulas.composite import composite_score, outcome_consistency
from scoring.formulas.curves import cost_score, latency_score
from scoring.intervals import moves, rates
from scoring.intervals.surd import Interval
from scoring.intervals.variance import CohortTask

#: Replication ``r`` of a cell draws from ``random.Random(f"{SEED}:{label}:{r}")``.
SEED = "coverage-1.2.0"
#: Simulated agents (and pairs) per cell: a Monte Carlo error of at most ±0.008 at 95%.
REPLICATIONS = 4000
#: Replications per cell of the prefix ``--check`` and the tests re-run exactly.
PREFIX_REPLICATIONS = 10

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
    """The published cells, then the stress cells (docs/uncertainty.md)."""
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


Drawn = tuple[random.Random, list[float], dict[str, CohortTask], list[tuple[int, int]]]


def draw_first_agent(cell: Cell, replication: int) -> Drawn:
    """The first draws of a replication, from its own seed (so any range of replications
    can run anywhere): the task rates, then agent A's sums and window; and the generator,
    which agent B draws from next."""
    rng = random.Random(f"{SEED}:{cell.label}:{replication}")
    task_rates = cell.rates(rng)
    a, window = draw_agent(task_rates, rng)
    return rng, task_rates, a, window


def agent_estimates(
    a: dict[str, CohortTask], window: Sequence[tuple[int, int]]
) -> dict[str, float]:
    """Each rate's estimate m̂ from agent A's sums and window (the composite has none)."""
    counts = [(n, c) for n, c, _, _ in a.values()]
    estimates = {
        "success_rate": sum(c for _, c in counts) / sum(n for n, _ in counts),
        "correctness": sum(p for p, _ in window) / sum(k for _, k in window),
    }
    for k in constants.PASS_K_LEVELS:
        estimates[f"pass^{k}"] = float(rates.pass_hat_k_moments(counts, k)[0])
    return estimates


def replicate_estimates(cell: Cell, replication: int) -> dict[str, float]:
    """The estimates of :func:`replicate` without its intervals and its pair: agent A's
    draws come first from the replication's seed, so they are the very same draws (a few
    milliseconds a replication instead of tens)."""
    _, _, a, window = draw_first_agent(cell, replication)
    return agent_estimates(a, window)


def replicate(cell: Cell, replication: int) -> Replication:
    """Replication ``replication`` of ``cell``: an agent A and its pair B."""
    rng, task_rates, a, window = draw_first_agent(cell, replication)
    shrink = float(PAIR_SHRINK)
    b, _ = draw_agent([rate * shrink for rate in task_rates], rng)
    counts = [(n, c) for n, c, _, _ in a.values()]
    intervals: dict[str, Interval | None] = {
        "success_rate": rates.success_rate_interval(counts),
        "composite": moves.composite_interval(list(a.values())),
        "correctness": rates.correctness_interval(window),
    }
    estimates = agent_estimates(a, window)
    for k in constants.PASS_K_LEVELS:
        intervals[f"pass^{k}"] = rates.pass_hat_k_interval(counts, k)
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
