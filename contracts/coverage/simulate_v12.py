"""Coverage of the 1.2.0 intervals (scoring.rates), a prototype on the decisions'
grid: does the target (≥ 0.93; stress cells ≥ 0.91; ≤ 0.98 where the decisions say) look
reachable?

The population model is 1.1.0's (contracts/coverage/simulate.py: its constants, its
``Scenario`` with the Beta task rates and the truth of every score), with two additions of
decisions.md 1.2.0: the bimodal population (each task easy or hard: ``p_t`` = ``BIMODAL_HIGH``
with probability ``w``, else ``BIMODAL_LOW``, ``w`` chosen so that the mean is ``μ``), and
pairs of agents on shared tasks with correlated task difficulty (B's rate on a task is
``PAIR_SHRINK`` times A's, so the true success difference is ``(1 − PAIR_SHRINK)·μ``).
The intervals are computed by the functions of ``scoring.rates`` themselves, from
per-task sums (not through the report, which does not run 1.2.0 yet).

    python contracts/coverage/simulate_v12.py [--replications N] [--cells published|stress|all]

Prints one row per cell: coverage of each score, and for the pairs the coverage of the
paired difference with the mean width of the paired and the unpaired interval. Writes
nothing. A prototype: 4,000 replications a cell and the published table are the issue's.
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parents[1]) not in sys.path:  # run as a script from anywhere: the project
    sys.path.insert(0, str(HERE.parents[1]))
from contracts.coverage.simulate import (  # noqa: E402
    COST_DECIMALS,
    COST_MEDIAN_USD,
    COST_RUN_SIGMA,
    COST_TASK_SIGMA,
    LATENCY_MEDIAN_MS,
    LATENCY_RUN_SIGMA,
    LATENCY_TASK_SIGMA,
    RUNS_PER_TASK,
    Scenario,
)
from scoring import moves, paired  # noqa: E402
from scoring import rates as v12  # noqa: E402
from scoring.composite import composite_score, outcome_consistency  # noqa: E402
from scoring.constants import PASS_K_LEVELS, RADAR_WINDOW_RUNS  # noqa: E402
from scoring.curves import cost_score, latency_score  # noqa: E402
from scoring.uncertainty import CohortTask  # noqa: E402

SEED = "coverage-v12-prototype"
TASK_COUNTS = (30, 100)
MEAN_SUCCESS = (0.2, 0.5, 0.8, 0.95)
CORRELATIONS = (0.0, 0.3)
STRESS_MEANS = (0.05, 0.1, 0.9, 0.99)
STRESS_CORRELATIONS = (0.1, 0.5)
BIMODAL = "bimodal"
BIMODAL_LOW, BIMODAL_HIGH = 0.02, 0.98
PAIR_SHRINK = 0.9
TARGET_LOW, STRESS_TARGET_LOW, TARGET_HIGH = 0.93, 0.91, 0.98
#: The ≤ 0.98 rule holds where θ·n* and (1 − θ)·n* are both at least this; pass^k (k ≥ 2)
#: on homogeneous tasks is held to ≤ HOMOGENEOUS_HIGH instead (decisions.md 1.2.0).
UPPER_RULE_MIN = 0.25
HOMOGENEOUS_HIGH = 0.995
SCORES = ("success_rate", "composite", "correctness", *(f"pass^{k}" for k in PASS_K_LEVELS))


@dataclass(frozen=True, slots=True)
class Cell:
    tasks: int
    mean: float
    correlation: float | str  # a number, or "bimodal"
    stress: bool

    @property
    def label(self) -> str:
        kind = " stress" if self.stress else ""
        return f"T={self.tasks} μ={self.mean} ρ={self.correlation}{kind}"

    def scenario(self) -> Scenario:
        return Scenario(
            self.tasks, self.mean, 0.0 if self.correlation == BIMODAL else float(self.correlation)
        )

    def rates(self, rng: random.Random) -> list[float]:
        """Each task's true success rate."""
        if self.correlation == BIMODAL:
            share = (self.mean - BIMODAL_LOW) / (BIMODAL_HIGH - BIMODAL_LOW)
            return [
                BIMODAL_HIGH if rng.random() < share else BIMODAL_LOW for _ in range(self.tasks)
            ]
        beta = self.scenario().beta()
        return [self.mean if beta is None else rng.betavariate(*beta) for _ in range(self.tasks)]

    def truth(self) -> dict[str, float]:
        truth = self.scenario().truth()  # 1.1.0's: success, composite, correctness, pass^k
        if self.correlation == BIMODAL:
            share = (self.mean - BIMODAL_LOW) / (BIMODAL_HIGH - BIMODAL_LOW)
            for k in PASS_K_LEVELS:
                truth[f"pass^{k}"] = share * BIMODAL_HIGH**k + (1 - share) * BIMODAL_LOW**k
        return truth


def cells(which: str) -> list[Cell]:
    published = [
        Cell(t, mu, rho, False)
        for t in TASK_COUNTS
        for mu in MEAN_SUCCESS
        for rho in (*CORRELATIONS, BIMODAL)
    ]
    stress = [
        Cell(t, mu, rho, True)
        for t in TASK_COUNTS
        for mu in STRESS_MEANS
        for rho in STRESS_CORRELATIONS
    ]
    return {"published": published, "stress": stress, "all": published + stress}[which]


Run = tuple[int, bool, int, float]  # task, success, latency_ms, cost_usd


def runs_of(rates: Sequence[float], rng: random.Random) -> list[Run]:
    """An agent's runs on tasks of the given rates, in a random order: 1.1.0's model
    (``K_t`` uniform on ``RUNS_PER_TASK``, log-normal latency and cost with a task effect)."""
    runs: list[Run] = []
    for task, rate in enumerate(rates):
        latency_level = math.log(LATENCY_MEDIAN_MS) + rng.gauss(0, LATENCY_TASK_SIGMA)
        cost_level = math.log(COST_MEDIAN_USD) + rng.gauss(0, COST_TASK_SIGMA)
        for _ in range(rng.randint(*RUNS_PER_TASK)):
            runs.append(
                (
                    task,
                    rng.random() < rate,
                    round(math.exp(latency_level + rng.gauss(0, LATENCY_RUN_SIGMA))),
                    round(math.exp(cost_level + rng.gauss(0, COST_RUN_SIGMA)), COST_DECIMALS),
                )
            )
    rng.shuffle(runs)
    return runs


def cohort(runs: Sequence[Run]) -> dict[str, CohortTask]:
    sums: dict[str, list[int | Fraction]] = {}
    for task, success, latency, cost in runs:
        entry = sums.setdefault(f"t{task}", [0, 0, 0, Fraction(0)])
        entry[0] += 1
        entry[1] += int(success)
        entry[2] += latency
        entry[3] += Fraction(repr(cost))
    return {t: (int(s[0]), int(s[1]), s[2], s[3]) for t, s in sums.items()}


def intervals(
    runs: Sequence[Run],
) -> tuple[dict[str, tuple[float, float] | None], dict[str, float]]:
    """Each score's interval (as floats), and each rate's estimate (on [0, 1])."""
    tasks = cohort(runs)
    counts = [(n, c) for n, c, _, _ in tasks.values()]
    window: dict[int, list[int]] = {}
    # The radar's window: the latest runs (the last in the input, as they share finished_at).
    for task, success, _, _ in runs[-RADAR_WINDOW_RUNS:]:
        entry = window.setdefault(task, [0, 0])
        entry[0] += int(success)
        entry[1] += 1
    found = {
        "success_rate": v12.success_rate_interval(counts),
        "correctness": v12.correctness_interval([(p, k) for p, k in window.values()]),
        **{f"pass^{k}": v12.pass_hat_k_interval(counts, k) for k in PASS_K_LEVELS},
    }
    found_moves = moves.composite_moves(list(tasks.values()))
    found["composite"] = None if found_moves is None else found_moves.interval
    estimates = {
        "success_rate": sum(c for _, c in counts) / sum(n for n, _ in counts),
        "correctness": sum(p for p, _ in window.values()) / sum(k for _, k in window.values()),
        **{f"pass^{k}": float(v12.pass_hat_k_moments(counts, k)[0]) for k in PASS_K_LEVELS},
    }
    bounds = {s: None if i is None else (float(i.low), float(i.high)) for s, i in found.items()}
    return bounds, estimates


def upper_target_applies(truth: float, estimates: Sequence[float]) -> bool:
    """Whether coverage is held to ``≤ TARGET_HIGH`` (decisions.md 1.2.0): both ``θ·n*`` and
    ``(1 − θ)·n*`` at least ``UPPER_RULE_MIN``, ``n* = θ(1 − θ)/Var(m̂)`` with the variance of
    the estimate over the replications."""
    variance = statistics.variance(estimates)
    if variance == 0:
        return False
    n_star = truth * (1 - truth) / variance
    return min(truth, 1 - truth) * n_star >= UPPER_RULE_MIN


def pair_truth(cell: Cell) -> tuple[float, float]:
    """True composite and success differences of A and its shrunk twin B."""
    truth = cell.truth()
    latency = math.exp(
        math.log(LATENCY_MEDIAN_MS) + (LATENCY_TASK_SIGMA**2 + LATENCY_RUN_SIGMA**2) / 2
    )
    cost = math.exp(math.log(COST_MEDIAN_USD) + (COST_TASK_SIGMA**2 + COST_RUN_SIGMA**2) / 2)
    p = Fraction(cell.mean * PAIR_SHRINK)
    many = cell.tasks * RUNS_PER_TASK[0]
    other = composite_score(
        p, outcome_consistency(p, many), latency_score(latency), cost_score(cost)
    )
    return truth["composite"] - float(other), cell.mean * (1 - PAIR_SHRINK)


def simulate(cell: Cell, replications: int) -> dict[str, object]:
    rng = random.Random(f"{SEED}:{cell.label}")
    truth = cell.truth()
    covered = dict.fromkeys(SCORES, 0)
    counted = dict.fromkeys(SCORES, 0)
    pair_hits = {"composite": 0, "success": 0}
    pair_counted = {"composite": 0, "success": 0}
    widths: dict[str, list[float]] = {"paired": [], "unpaired": []}
    d_composite, d_success = pair_truth(cell)
    estimates: dict[str, list[float]] = {}
    for _ in range(replications):
        rates = cell.rates(rng)
        runs_a = runs_of(rates, rng)
        found, estimated = intervals(runs_a)
        for score, value in estimated.items():
            estimates.setdefault(score, []).append(value)
        for score, bounds in found.items():
            if bounds is not None:
                counted[score] += 1
                covered[score] += bounds[0] <= truth[score] <= bounds[1]
        runs_b = runs_of([r * PAIR_SHRINK for r in rates], rng)
        a, b = cohort(runs_a), cohort(runs_b)
        for key, compare, true_d in (
            ("composite", paired.compare_composites, d_composite),
            ("success", paired.compare_success_rates, d_success),
        ):
            result = compare(a, b)
            if result.interval is None:
                continue
            pair_counted[key] += 1
            pair_hits[key] += float(result.interval.low) <= true_d <= float(result.interval.high)
            if key == "composite" and result.standard_error is not None:
                assert result.unpaired_standard_error is not None
                q = v12.t_factor(result.shared_tasks)
                widths["paired"].append(2 * q * result.standard_error)
                widths["unpaired"].append(2 * q * result.unpaired_standard_error)
    coverage = {s: covered[s] / counted[s] if counted[s] else math.nan for s in SCORES}
    low_target = STRESS_TARGET_LOW if cell.stress else TARGET_LOW
    misses = [s for s in SCORES if not coverage[s] >= low_target]
    for score, values in estimates.items():
        homogeneous = cell.correlation == 0 and score not in ("success_rate", "correctness")
        high = HOMOGENEOUS_HIGH if homogeneous and score != "pass^1" else TARGET_HIGH
        scale = 100 if score == "correctness" else 1
        if upper_target_applies(truth[score] / scale, values) and coverage[score] > high:
            misses.append(f"{score}>{high}")
    pairs = {k: pair_hits[k] / pair_counted[k] for k in pair_hits if pair_counted[k]}
    misses += [f"d {key}" for key, value in pairs.items() if not value >= low_target]
    return {
        "cell": cell.label,
        "coverage": coverage,
        "misses": " ".join(misses) or "-",
        "pairs": pairs,
        "paired_width": statistics.fmean(widths["paired"]) if widths["paired"] else math.nan,
        "unpaired_width": statistics.fmean(widths["unpaired"]) if widths["unpaired"] else math.nan,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--replications", type=int, default=300)
    parser.add_argument("--cells", choices=("published", "stress", "all"), default="all")
    options = parser.parse_args(argv)
    header = " ".join(f"{s:>12}" for s in SCORES)
    print(f"{'cell':<28} {header} {'d composite':>12} {'d success':>10} {'width p/u':>10}  misses")
    low_published, low_stress = 1.0, 1.0
    for cell in cells(options.cells):
        row = simulate(cell, options.replications)
        coverage = row["coverage"]
        pairs = row["pairs"]
        assert isinstance(coverage, dict)
        assert isinstance(pairs, dict)
        values = " ".join(f"{coverage[s]:>12.3f}" for s in SCORES)
        ratio = float(row["paired_width"]) / float(row["unpaired_width"])  # type: ignore[arg-type]
        print(
            f"{cell.label:<28} {values} {pairs.get('composite', math.nan):>12.3f} "
            f"{pairs.get('success', math.nan):>10.3f} {ratio:>10.2f}  "
            f"{row['misses']}",
            flush=True,
        )
        lowest = min(min(coverage.values()), *pairs.values())
        if cell.stress:
            low_stress = min(low_stress, lowest)
        else:
            low_published = min(low_published, lowest)
    print(
        f"lowest coverage: published {low_published:.3f} (target ≥ {TARGET_LOW}), "
        f"stress {low_stress:.3f} (target ≥ {STRESS_TARGET_LOW})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
