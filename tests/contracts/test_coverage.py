"""The coverage simulation (``contracts/coverage/simulate.py``) and its committed figures.

The slow test runs ``--check`` (the whole simulation again when its inputs changed) and
fails when ``coverage.json`` is stale; a fast one re-runs the seeded prefix. The fast ones
also check the truth it measures against (each population value by another route), the
shape the site renders, and that the staleness check can fail.
"""

from __future__ import annotations

import json
import math
import random
import shutil
import sys
from pathlib import Path

import pytest
from processes import run_captured

from contracts.build import REPO_ROOT
from contracts.coverage import simulate
from scoring.composite import composite_score, outcome_consistency
from scoring.curves import cost_score, latency_score

SCRIPT = REPO_ROOT / "contracts" / "coverage" / "simulate.py"
COMMITTED = REPO_ROOT / "contracts" / "coverage" / "coverage.json"
_CACHES = shutil.ignore_patterns("__pycache__", "*.pyc")


def committed() -> dict:
    return json.loads(COMMITTED.read_text(encoding="utf-8"))


def test_the_file_says_it_is_generated_and_by_what() -> None:
    document = committed()
    assert next(iter(document)) == "generated"
    assert simulate.COMMAND in document["generated"]


def test_the_grid_is_the_one_the_issue_asks_for() -> None:
    rows = committed()["scenarios"]
    assert {r["tasks"] for r in rows} >= {10, 30, 100}
    assert len({r["mean_success"] for r in rows}) >= 3
    assert len({r["within_task_correlation"] for r in rows}) >= 2
    assert any(r["within_task_correlation"] > 0 for r in rows)
    for row in rows:
        assert set(row["coverage"]) == set(committed()["scores"])
        assert all(0 <= v <= 1 for v in row["coverage"].values())
        assert all(v == 0 for v in row["null_intervals"].values())  # T ≥ 10: never null
        promised = row["tasks"] >= committed()["target"]["min_tasks"]
        assert all((v is None) != promised for v in row["within_target"].values())


def test_the_beta_moment_is_the_mean_of_p_to_the_k() -> None:
    # E[p^k] for p ~ Beta(a, b) is B(a + k, b)/B(a, b) (the gamma-function form), and a
    # sample of 200,000 draws agrees with it.
    scenario = simulate.Scenario(30, 0.8, 0.3)
    a, b = scenario.beta()
    rng = random.Random(2)
    draws = [rng.betavariate(a, b) for _ in range(200_000)]
    for k in (1, 3, 5):
        by_gamma = math.exp(
            math.lgamma(a + k) + math.lgamma(a + b) - math.lgamma(a) - math.lgamma(a + b + k)
        )
        assert scenario.truth()[f"pass^{k}"] == pytest.approx(by_gamma, rel=1e-12)
        assert sum(p**k for p in draws) / len(draws) == pytest.approx(by_gamma, abs=5e-3)
    assert simulate.Scenario(30, 0.8, 0.0).truth()["pass^3"] == pytest.approx(0.8**3)


def _simulated_mean(
    rng: random.Random, median: float, task_sigma: float, run_sigma: float, draws: int
) -> float:
    """The mean of ``draws`` log-normal values around ``median``, a task's and a run's
    spread added on the log scale, as the simulation draws latency and cost."""
    return (
        sum(
            math.exp(math.log(median) + rng.gauss(0, task_sigma) + rng.gauss(0, run_sigma))
            for _ in range(draws)
        )
        / draws
    )


def test_the_composite_truth_is_the_formula_at_the_population_means() -> None:
    # The population mean latency and cost by simulation: within 1% of the closed form.
    rng = random.Random(1)
    draws = 100_000
    latency = _simulated_mean(
        rng,
        simulate.LATENCY_MEDIAN_MS,
        simulate.LATENCY_TASK_SIGMA,
        simulate.LATENCY_RUN_SIGMA,
        draws,
    )
    cost = _simulated_mean(
        rng, simulate.COST_MEDIAN_USD, simulate.COST_TASK_SIGMA, simulate.COST_RUN_SIGMA, draws
    )
    scenario = simulate.Scenario(30, 0.5, 0.3)
    from fractions import Fraction

    p = Fraction(1, 2)
    expected = float(
        composite_score(p, outcome_consistency(p, 100), latency_score(latency), cost_score(cost))
    )
    assert scenario.truth()["composite"] == pytest.approx(expected, abs=0.3)


def test_the_staleness_check_names_a_changed_figure_and_passes_on_the_same() -> None:
    document = committed()
    text = COMMITTED.read_text(encoding="utf-8")
    assert simulate.stale_lines(text, document) == []
    changed = json.loads(text)
    changed["scenarios"][0]["coverage"]["composite"] += 0.01
    row = changed["scenarios"][0]
    label = f"scenario T={row['tasks']} μ={row['mean_success']} ρ={row['within_task_correlation']}"
    assert simulate.stale_lines(json.dumps(changed), document) == [f"{label}: differs"]
    assert simulate.stale_lines("{", document)[0].startswith("coverage.json: not valid JSON")


def test_the_file_is_the_text_the_script_writes() -> None:
    # Formatting only (the figures are the slow test's): a hand edit of the layout shows.
    assert COMMITTED.read_text(encoding="utf-8") == simulate.document_text(committed())


INPUTS = REPO_ROOT / "contracts" / "coverage" / "inputs.json"


def test_the_seeded_prefix_is_what_the_code_gives_now() -> None:
    """Every session re-runs the first agents of each scenario: the committed counts are
    what the code gives (the whole simulation runs only when the fingerprint changed)."""
    inputs = json.loads(INPUTS.read_text(encoding="utf-8"))
    assert inputs["prefix"] == simulate.prefix()
    agents = inputs["prefix"]["agents"]
    for row in committed()["scenarios"]:
        label = simulate.Scenario(
            row["tasks"], row["mean_success"], row["within_task_correlation"]
        ).label
        counts = inputs["prefix"]["scenarios"][label]
        # A prefix covers at most what the whole does, give or take its own agents.
        for score, covered in counts["covered"].items():
            assert 0 <= covered <= agents
            assert covered <= row["coverage"][score] * simulate.REPLICATIONS


def test_the_fingerprint_follows_the_scoring_code(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The same code gives the same fingerprint; a changed scoring module another one."""
    assert simulate.fingerprint() == simulate.fingerprint()
    copy = tmp_path / "repo"
    shutil.copytree(REPO_ROOT / "scoring", copy / "scoring", ignore=_CACHES)
    monkeypatch.setattr(simulate, "REPO_ROOT", copy)
    same = simulate.fingerprint()
    constants = copy / "scoring" / "constants.py"
    constants.write_text(constants.read_text(encoding="utf-8") + "\n# a comment\n", "utf-8")
    assert simulate.fingerprint() != same


def test_a_changed_prefix_fails_the_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    inputs = json.loads(INPUTS.read_text(encoding="utf-8"))
    first = next(iter(inputs["prefix"]["scenarios"].values()))
    first["covered"]["composite"] += 1
    spoiled = tmp_path / "inputs.json"
    spoiled.write_text(json.dumps(inputs), encoding="utf-8")
    monkeypatch.setattr(simulate, "INPUTS", spoiled)
    monkeypatch.setattr(simulate, "prefix", lambda: json.loads(INPUTS.read_text("utf-8"))["prefix"])
    assert simulate.main(["--check"]) == 1


@pytest.mark.slow
def test_the_committed_coverage_is_what_the_simulation_gives_now() -> None:
    done = run_captured([sys.executable, str(SCRIPT), "--check"], cwd=Path(REPO_ROOT), timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "up to date" in done.stdout
