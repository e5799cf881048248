"""Coverage of the 95% intervals (methodology 1.1.0), measured on simulated agents.

A seeded simulation: agents whose true success rate, composite, radar correctness and
pass^k are known are run on tasks drawn from a known population, scored by the real report
(:func:`scoring.build_report`, the very code ``python -m scoring report`` runs), and each
interval is checked against the truth. The share of intervals that contain it is the
coverage; at a 95% level it should be near 95%.

Usage::

    python contracts/coverage/simulate.py            # print the table (writes nothing)
    python contracts/coverage/simulate.py --update   # rewrite coverage.json and inputs.json
    python contracts/coverage/simulate.py --check    # exit 1 if the committed file is stale

The whole simulation takes about 30 to 60 seconds on one core, so ``--check`` runs it only
when its inputs changed: ``inputs.json`` records the :func:`fingerprint` of the inputs the
committed figures came from (this script and every module of ``scoring``) and the counts of
a seeded prefix of the simulation (the first :data:`PREFIX_AGENTS` agents of each scenario),
which every check re-runs. A changed input re-runs the whole; if the figures are the same
(a comment, a refactor) the check passes and ``--update`` records the new fingerprint.
``tests/contracts/test_coverage.py`` runs the prefix in the fast lane and ``--check`` in the
slow one.

The model, one scenario (``T`` tasks, mean success rate ``μ``, within-task correlation ``ρ``):

- each task has its own success rate ``p_t ~ Beta(a, b)`` with ``a = μ(1 − ρ)/ρ`` and
  ``b = (1 − μ)(1 − ρ)/ρ``: mean ``μ``, and ``ρ = 1/(a + b + 1)`` is the correlation of two
  outcomes of the same task (``ρ = 0``: every ``p_t = μ``, runs independent);
- each task gets ``K_t`` runs, uniform on ``RUNS_PER_TASK`` and independent of ``p_t``; each
  run succeeds with probability ``p_t``; every run is completed, with a known outcome;
- latency has a task effect: ``exp(N(log LATENCY_MEDIAN_MS, σ_task²))`` per task times
  ``exp(N(0, σ_run²))`` per run, rounded to whole ms; cost likewise (rounded to 10^-6 USD);
- the runs of an agent are written in a random order, so the radar's window (the latest 100)
  is a random subset of them.

The truth is the population value each score estimates, computed exactly, not simulated:

- success rate: ``μ`` (given ``K``, ``E[Σ_t c_t / Σ_t K_t] = Σ_t K_t μ / Σ_t K_t = μ``);
  radar correctness: ``100·μ`` (the window's runs are a random subset);
- pass^k: ``E[p_t^k] = Π_{j<k} (a + j)/(a + b + j)``, the Beta moment (``μ^k`` when
  ``ρ = 0``); ``C(c, k)/C(n, k)`` is unbiased for ``p_t^k`` when ``n ≥ k``, hence
  ``K_t ≥ 5`` here;
- composite: the weighted formula (no floor, consistency ``1 − 4μ(1 − μ)``, the live curves)
  at ``μ``, the population mean latency ``exp(log LATENCY_MEDIAN_MS + (σ_task² + σ_run²)/2)``
  and the population mean cost (the means of the log-normals), since the composite is that
  formula at the observed means. Rounding a latency to a whole ms moves its mean by less
  than 10^-3 ms, which changes the composite by less than 10^-5 points.

The committed ``coverage.json`` (its first key says it is generated, and by what) is what the
site shows. Its shape, for the page that renders it::

    {"generated": "…",  "seed": str, "replications": int, "level": float,
     "target": {"min_tasks": 30, "low": 0.92, "high": 0.975},
     "scores": ["success_rate", "composite", "correctness", "pass^1", "pass^3", "pass^5"],
     "scenarios": [{"tasks": 10, "mean_success": 0.5, "within_task_correlation": 0.3,
                    "runs_per_task": [5, 8],
                    "truth": {score: float, …},          # the population values
                    "coverage": {score: float, …},       # share of intervals with the truth
                    "mean_width": {score: float, …},     # mean high − low, on its scale
                    "null_intervals": {score: int, …},   # intervals that were null
                    "within_target": {score: bool | null, …}}, …]}

``within_target`` is ``null`` below ``target.min_tasks`` tasks, where coverage is reported
but not promised (few tasks, and rates near 0 or 1, cover less).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
if str(HERE.parents[1]) not in sys.path:  # run as a script from anywhere: the project
    sys.path.insert(0, str(HERE.parents[1]))

from contracts.filesystem import write_atomic  # noqa: E402
from contracts.source import REPO_ROOT, display_path  # noqa: E402
from scoring import build_report, report_to_json  # noqa: E402
from scoring.composite import composite_score, outcome_consistency  # noqa: E402
from scoring.constants import INTERVAL_LEVEL, PASS_K_LEVELS  # noqa: E402
from scoring.curves import cost_score, latency_score  # noqa: E402
from scoring.serialize import pass_key  # noqa: E402

OUTPUT = HERE / "coverage.json"
#: Beside it: the fingerprint of the inputs the figures come from, and the seeded prefix.
INPUTS = HERE / "inputs.json"
COMMAND = "python contracts/coverage/simulate.py --update"
GENERATED = f"generated by {COMMAND} (do not edit; --check tells whether it is stale)"

#: Every random draw comes from ``random.Random(f"{SEED}:<scenario>")``: one stream each.
SEED = "coverage-2026-12"
#: Simulated agents per scenario.
REPLICATIONS = 300
#: Agents per scenario of the prefix every test session re-runs (a thirtieth of the whole).
PREFIX_AGENTS = 10
TASK_COUNTS = (10, 30, 100)
MEAN_SUCCESS = (0.2, 0.5, 0.8, 0.95)
WITHIN_TASK_CORRELATION = (0.0, 0.3)
#: Runs per task, inclusive: at least the highest pass^k level, so pass^k is unbiased.
RUNS_PER_TASK = (max(PASS_K_LEVELS), 8)
LATENCY_MEDIAN_MS = 1500.0
COST_MEDIAN_USD = 0.02
LATENCY_TASK_SIGMA, LATENCY_RUN_SIGMA = 0.5, 0.3
COST_TASK_SIGMA, COST_RUN_SIGMA = 0.6, 0.3
#: What the issue asks of a 95% interval from this many tasks on (issue 17, "Done when").
TARGET_MIN_TASKS = 30
TARGET_LOW, TARGET_HIGH = 0.92, 0.975
COST_DECIMALS = 6

SCORES = ("success_rate", "composite", "correctness", *(pass_key(k) for k in PASS_K_LEVELS))


@dataclass(frozen=True, slots=True)
class Scenario:
    """One cell of the grid."""

    tasks: int
    mean_success: float
    correlation: float

    @property
    def label(self) -> str:
        return f"T={self.tasks} μ={self.mean_success} ρ={self.correlation}"

    def beta(self) -> tuple[float, float] | None:
        """The Beta parameters of the task success rates; ``None`` when ``ρ = 0``."""
        if self.correlation == 0:
            return None
        spread = (1 - self.correlation) / self.correlation
        return self.mean_success * spread, (1 - self.mean_success) * spread

    def truth(self) -> dict[str, float]:
        """The population value of every score (see the module docstring)."""
        mu = self.mean_success
        latency = math.exp(
            math.log(LATENCY_MEDIAN_MS) + (LATENCY_TASK_SIGMA**2 + LATENCY_RUN_SIGMA**2) / 2
        )
        cost = math.exp(math.log(COST_MEDIAN_USD) + (COST_TASK_SIGMA**2 + COST_RUN_SIGMA**2) / 2)
        p = Fraction(mu)
        many = self.tasks * RUNS_PER_TASK[0]  # past the consistency gate
        composite = composite_score(
            p, outcome_consistency(p, many), latency_score(latency), cost_score(cost)
        )
        truth = {
            "success_rate": mu,
            "composite": float(composite),
            "correctness": 100 * mu,
        }
        beta = self.beta()
        for k in PASS_K_LEVELS:
            if beta is None:
                moment = mu**k
            else:
                a, b = beta
                moment = math.prod((a + j) / (a + b + j) for j in range(k))
            truth[pass_key(k)] = moment
        return truth


def scenarios() -> list[Scenario]:
    return [
        Scenario(t, mu, rho)
        for t in TASK_COUNTS
        for mu in MEAN_SUCCESS
        for rho in WITHIN_TASK_CORRELATION
    ]


def agent_lines(scenario: Scenario, agent: int, rng: random.Random) -> list[str]:
    """One simulated agent's run log (JSON Lines), its runs in a random order."""
    beta = scenario.beta()
    runs: list[tuple[str, bool, int, float]] = []
    for task in range(scenario.tasks):
        rate = scenario.mean_success if beta is None else rng.betavariate(*beta)
        latency_level = math.log(LATENCY_MEDIAN_MS) + rng.gauss(0, LATENCY_TASK_SIGMA)
        cost_level = math.log(COST_MEDIAN_USD) + rng.gauss(0, COST_TASK_SIGMA)
        for _ in range(rng.randint(*RUNS_PER_TASK)):
            runs.append(
                (
                    f"t{task}",
                    rng.random() < rate,
                    round(math.exp(latency_level + rng.gauss(0, LATENCY_RUN_SIGMA))),
                    round(math.exp(cost_level + rng.gauss(0, COST_RUN_SIGMA)), COST_DECIMALS),
                )
            )
    rng.shuffle(runs)
    return [
        f'{{"run_id": "a{agent}-{i}", "agent_id": "a{agent}", "task_id": "{task}", '
        f'"status": "completed", "success": {"true" if success else "false"}, '
        f'"latency_ms": {latency}, "cost_usd": {cost!r}, "steps": null, '
        f'"finished_at": "2026-01-01T00:00:00Z"}}\n'
        for i, (task, success, latency, cost) in enumerate(runs)
    ]


def intervals_of(agent: dict[str, Any]) -> dict[str, dict[str, float] | None]:
    """Each score's interval, read off one agent of the report's JSON."""
    composite, radar, repeatability = agent["composite"], agent["radar"], agent["repeatability"]
    return {
        "success_rate": composite["success_rate_interval"],
        "composite": composite["interval"],
        "correctness": radar["intervals"]["correctness"],
        **{pass_key(k): repeatability["intervals"][pass_key(k)] for k in PASS_K_LEVELS},
    }


def _counts(scenario: Scenario, agents: int) -> dict[str, dict[str, Any]]:
    """Score the first ``agents`` agents of one scenario with the real report: per score,
    how many intervals hold the truth, their summed width and how many are null. The
    agents are drawn one after another from the scenario's stream, so the first ``n`` are
    the same whatever the total."""
    rng = random.Random(f"{SEED}:{scenario.label}")
    lines: list[bytes] = []
    for agent in range(agents):
        lines += (line.encode() for line in agent_lines(scenario, agent, rng))
    # Same finished_at for all: the window is the latest 100 in input order (random order).
    document = report_to_json(build_report(lines))
    truth = scenario.truth()
    covered = dict.fromkeys(SCORES, 0)
    widths = dict.fromkeys(SCORES, 0.0)
    nulls = dict.fromkeys(SCORES, 0)
    for agent_report in document["agents"]:
        for score, interval in intervals_of(agent_report).items():
            if interval is None:
                nulls[score] += 1
                continue
            covered[score] += interval["low"] <= truth[score] <= interval["high"]
            widths[score] += interval["high"] - interval["low"]
    return {"covered": covered, "widths": widths, "nulls": nulls}


def simulate(scenario: Scenario) -> dict[str, Any]:
    """Score ``REPLICATIONS`` agents of one scenario with the real report; count coverage."""
    counts = _counts(scenario, REPLICATIONS)
    covered, widths, nulls = counts["covered"], counts["widths"], counts["nulls"]
    truth = scenario.truth()
    coverage = {s: round(covered[s] / REPLICATIONS, 4) for s in SCORES}
    promised = scenario.tasks >= TARGET_MIN_TASKS
    return {
        "tasks": scenario.tasks,
        "mean_success": scenario.mean_success,
        "within_task_correlation": scenario.correlation,
        "runs_per_task": list(RUNS_PER_TASK),
        "truth": {s: round(truth[s], 6) for s in SCORES},
        "coverage": coverage,
        "mean_width": {s: round(widths[s] / max(1, REPLICATIONS - nulls[s]), 4) for s in SCORES},
        "null_intervals": nulls,
        "within_target": {
            s: (TARGET_LOW <= coverage[s] <= TARGET_HIGH) if promised else None for s in SCORES
        },
    }


def fingerprint() -> str:
    """A hash of everything the figures depend on: this script (the scenarios, the seed,
    the model) and every module of ``scoring`` (the report, the interval code, the
    constants). The same fingerprint gives the same figures, so ``--check`` re-runs the
    whole simulation only when it changed."""
    digest = hashlib.sha256(Path(__file__).read_bytes())
    scoring_dir = REPO_ROOT / "scoring"
    for path in sorted(scoring_dir.rglob("*.py")):
        digest.update(path.relative_to(scoring_dir).as_posix().encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()


def prefix() -> dict[str, Any]:
    """The counts of the first :data:`PREFIX_AGENTS` agents of every scenario (a few
    seconds): re-run by every test session to show the code still gives them."""
    return {
        "agents": PREFIX_AGENTS,
        "scenarios": {
            scenario.label: {
                part: {k: round(v, 6) if isinstance(v, float) else v for k, v in values.items()}
                for part, values in _counts(scenario, PREFIX_AGENTS).items()
            }
            for scenario in scenarios()
        },
    }


def inputs_document() -> dict[str, Any]:
    """``inputs.json``: the fingerprint the committed figures were simulated from, and the
    seeded prefix of the simulation."""
    return {"generated": GENERATED, "fingerprint": fingerprint(), "prefix": prefix()}


def build() -> dict[str, Any]:
    """The whole ``coverage.json`` document."""
    return {
        "generated": GENERATED,
        "seed": SEED,
        "replications": REPLICATIONS,
        "level": float(INTERVAL_LEVEL),
        "target": {"min_tasks": TARGET_MIN_TASKS, "low": TARGET_LOW, "high": TARGET_HIGH},
        "scores": list(SCORES),
        "scenarios": [simulate(s) for s in scenarios()],
    }


def document_text(document: dict[str, Any]) -> str:
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def table(document: dict[str, Any]) -> str:
    """Coverage per score and scenario, for people; ``*`` marks a figure outside the target
    where the target applies.

    >>> print(table({"scores": ["composite"], "scenarios": [{"tasks": 30, "mean_success": 0.5,
    ...     "within_task_correlation": 0.0, "coverage": {"composite": 0.9},
    ...     "within_target": {"composite": False}}]}))
    tasks  mean  rho  composite
       30   0.5  0.0     90.0%*
    """
    scores: Sequence[str] = document["scores"]
    widths = [max(len(s), 7) for s in scores]
    head = "tasks  mean  rho  " + "  ".join(s.rjust(w) for s, w in zip(scores, widths, strict=True))
    rows = [head]
    for row in document["scenarios"]:
        cells = []
        for score, width in zip(scores, widths, strict=True):
            mark = "*" if row["within_target"][score] is False else ""
            cells.append(f"{100 * row['coverage'][score]:.1f}%{mark}".rjust(width))
        rows.append(
            f"{row['tasks']:>5}  {row['mean_success']:>4}  {row['within_task_correlation']:>3}  "
            + "  ".join(cells)
        )
    return "\n".join(rows)


def stale_lines(committed: str, live: dict[str, Any]) -> list[str]:
    """What differs between the committed file and a fresh run, one line per figure."""
    try:
        old = json.loads(committed)
    except json.JSONDecodeError as error:
        return [f"{OUTPUT.name}: not valid JSON ({error})"]
    if old == live:
        return []
    found = []
    old_rows = {
        (r["tasks"], r["mean_success"], r["within_task_correlation"]): r
        for r in old.get("scenarios", [])
    }
    for row in live["scenarios"]:
        key = (row["tasks"], row["mean_success"], row["within_task_correlation"])
        before = old_rows.get(key)
        if before != row:
            found.append(f"scenario T={key[0]} μ={key[1]} ρ={key[2]}: differs")
    for name in ("generated", "seed", "replications", "level", "target", "scores"):
        if old.get(name) != live[name]:
            found.append(f"{name}: committed {old.get(name)!r}, live {live[name]!r}")
    return found or ["the file differs from a fresh run"]


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        print(f"{display_path(path)}: cannot read it ({error.strerror}); run {COMMAND}")
        return None


def _check() -> int:
    """0 when the committed figures are what the code gives, 1 when stale, 2 unreadable.
    With an unchanged fingerprint only the prefix is re-run; otherwise the whole."""
    committed, inputs_text = _read(OUTPUT), _read(INPUTS)
    if committed is None or inputs_text is None:
        return 2
    inputs = json.loads(inputs_text)
    if inputs.get("prefix") != prefix():
        print(f"{display_path(INPUTS)}: the seeded prefix differs; run {COMMAND}")
        return 1
    if inputs.get("fingerprint") == fingerprint():
        print(f"{display_path(OUTPUT)}: up to date (inputs unchanged, prefix re-run)")
        return 0
    document = build()
    print(table(document))
    problems = stale_lines(committed, document)
    if problems:
        print(f"{display_path(OUTPUT)} is stale; run {COMMAND}")
        print("\n".join(f"  {p}" for p in problems))
        return 1
    # A comment or a refactor: the same figures. Not a failure; --update records it.
    print(
        f"{display_path(OUTPUT)}: up to date (re-run in full: the inputs changed, "
        f"the figures did not; {COMMAND} records the new fingerprint)"
    )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--update", action="store_true", help=f"rewrite {OUTPUT.name}")
    mode.add_argument("--check", action="store_true", help=f"exit 1 if {OUTPUT.name} is stale")
    args = parser.parse_args(argv)
    if args.check:
        return _check()
    document = build()
    print(table(document))
    if args.update:
        write_atomic(OUTPUT, document_text(document))
        write_atomic(INPUTS, document_text(inputs_document()))
        print(f"wrote {display_path(OUTPUT)} and {display_path(INPUTS)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
