"""The coverage simulation (``contracts/coverage/simulate.py``) and its committed figures.

The committed figures are never re-run in full here (tens of minutes). What proves them:
the fingerprint of the simulation's code and of the constants it reads (fast), and the
seeded prefix of every cell re-run exactly (one cell in the fast lane, every cell in the
slow one). Each check is shown to fail on a spoiled input, and a comment in ``scoring/`` is
shown not to fail it. The fast tests also check the truth the simulation measures against
(each population value by another route), the grid and targets of the page, and the
shape the site renders.
"""

from __future__ import annotations

import copy
import json
import math
import os
import random
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from forked_python import run_python
from published_curves import use_anchors
from serving import copy_project

import scoring.constants
from contracts.build import REPO_ROOT, build_snapshot
from contracts.coverage import figures, model, simulate, targets
from contracts.coverage_record import coverage_state
from contracts.store import read_lock
from scoring.formulas.composite import composite_score, outcome_consistency
from scoring.formulas.curves import cost_score, latency_score
from scoring.intervals.surd import Interval

SCRIPT = REPO_ROOT / "contracts" / "coverage" / "simulate.py"
COMMITTED = REPO_ROOT / "contracts" / "coverage" / "coverage.json"
INPUTS = REPO_ROOT / "contracts" / "coverage" / "inputs.json"


def committed() -> dict:
    return json.loads(COMMITTED.read_text(encoding="utf-8"))


def committed_inputs() -> dict:
    return json.loads(INPUTS.read_text(encoding="utf-8"))


def _index(label: str) -> int:
    return next(i for i, c in enumerate(simulate.cells()) if c.label == label)


# --- the grid, the targets, the shape ----------------------------------------------------


def test_the_files_say_they_are_generated_and_by_what() -> None:
    for document in (committed(), committed_inputs()):
        assert next(iter(document)) == "generated"
        assert simulate.COMMAND in document["generated"]
    assert committed()["methodology"] == "1.2.0"


def test_the_grid_is_the_decisions_one() -> None:
    """docs/uncertainty.md: T ∈ {30, 100} × mean ∈ {0.2, 0.5, 0.8, 0.95} × {ρ = 0, 0.3,
    bimodal} published; T ∈ {30, 100} × mean ∈ {0.05, 0.1, 0.9, 0.99} × ρ ∈ {0.1, 0.5}
    stress; at least 4,000 replications a cell."""
    rows = committed()["cells"]
    found = {(r["tasks"], r["mean_success"], r["population"], r["stress"]) for r in rows}
    published = {
        (t, m, p, False)
        for t in (30, 100)
        for m in (0.2, 0.5, 0.8, 0.95)
        for p in (0.0, 0.3, "bimodal")
    }
    stress = {
        (t, m, p, True) for t in (30, 100) for m in (0.05, 0.1, 0.9, 0.99) for p in (0.1, 0.5)
    }
    assert found == published | stress
    assert len(rows) == len(found) == 40
    assert committed()["replications"] == simulate.REPLICATIONS >= 4000
    assert committed()["scores"] == [
        "success_rate",
        "composite",
        "correctness",
        "pass^1",
        "pass^3",
        "pass^5",
    ]


def _figures(document: dict):
    for row in document["cells"]:
        for name in document["scores"]:
            yield row, name, row["scores"][name]
        for name, figure in row["pairs"].items():
            yield row, f"d {name}", figure


def test_every_figure_carries_its_monte_carlo_error_and_no_interval_is_null() -> None:
    document = committed()
    replications = document["replications"]
    for row, name, figure in _figures(document):
        assert figure["null_intervals"] == 0, (row, name)  # T ≥ 30: never null
        c = figure["coverage"]
        assert 0 <= c <= 1
        assert figure["mc_error"] == pytest.approx(
            math.sqrt(c * (1 - c) / replications), abs=1e-4
        ), (row, name)


def test_each_figure_is_held_to_the_decisions_target() -> None:
    """≥ 0.93 published, ≥ 0.91 stress; at most 0.99 exactly where both θ·n* and
    (1 − θ)·n* are at least 5 (the composite where its success rate is), no ceiling
    elsewhere; the pairs to the lower one; ``meets`` says whether."""
    document = committed()
    assert document["targets"] == {
        "published_low": 0.93,
        "stress_low": 0.91,
        "high": 0.99,
        "upper_rule_min": 5,
    }
    for row, name, figure in _figures(document):
        assert figure["low"] == (0.91 if row["stress"] else 0.93)
        if name.startswith("d "):
            assert figure["high"] is None
        else:
            rate = row["scores"]["success_rate" if name == "composite" else name]
            n_star, rarer = rate["n_star"], rate["rarer_count"]
            theta = rate["truth"] / (100 if name == "correctness" else 1)
            # The truth is kept to 6 decimals: the count it gives is as close as that allows.
            assert rarer == pytest.approx(min(theta, 1 - theta) * n_star, abs=n_star * 1e-6)
            assert figure["high"] == (0.99 if rarer >= 5 else None), (row, name)
        c = figure["coverage"]
        meets = c >= figure["low"] and (figure["high"] is None or c <= figure["high"])
        assert figure["meets"] is meets, (row, name)
    # The ceiling applies where both θ·n* and (1 − θ)·n* are large: the success rate at
    # μ = 0.5 over 100 tasks is held to it; pass^5 at μ = 0.2 (θ = 0.00032) is not.
    rows = {(r["tasks"], r["mean_success"], r["population"]): r for r in document["cells"]}
    assert rows[(100, 0.5, 0.3)]["scores"]["success_rate"]["high"] == 0.99
    assert rows[(100, 0.2, 0.0)]["scores"]["pass^5"]["high"] is None


def test_the_upper_rule_reads_theta_and_n_star() -> None:
    # θ = 0.5 with Var(m̂) = 0.02: n* = 12.5, θ·n* = (1 − θ)·n* = 6.25 ≥ 5.
    assert figures.effective_sizes(0.5, [0.4, 0.6]) == (12.5, 6.25)
    assert targets.upper_rule_applies(6.25)
    # θ = 0.1, Var(m̂) = 0.001: n* = 90, and the smaller count θ·n* = 9 ≥ 5; at
    # Var(m̂) = 0.0025, n* = 36 and θ·n* = 3.6 < 5: no ceiling.
    assert figures.effective_sizes(0.1, [0.1 - math.sqrt(0.0005), 0.1 + math.sqrt(0.0005)])[
        1
    ] == pytest.approx(9)
    rarer = figures.effective_sizes(0.1, [0.1 - math.sqrt(0.00125), 0.1 + math.sqrt(0.00125)])[1]
    assert rarer == pytest.approx(3.6)
    assert not targets.upper_rule_applies(rarer)
    assert figures.effective_sizes(0.5, [0.5, 0.5]) == (None, None)
    assert not targets.upper_rule_applies(None)


def _row(tasks: int, mean: float, population: float | str) -> dict:
    return next(
        r
        for r in committed()["cells"]
        if (r["tasks"], r["mean_success"], r["population"]) == (tasks, mean, population)
    )


def test_the_composite_is_held_where_its_success_rate_is() -> None:
    row = copy.deepcopy(_row(100, 0.5, 0.3))
    row["scores"]["success_rate"]["rarer_count"] = 4.0
    assert targets.judged_row(row)["scores"]["composite"]["high"] is None
    row["scores"]["success_rate"]["rarer_count"] = 5.0
    assert targets.judged_row(row)["scores"]["composite"]["high"] == targets.TARGET_HIGH


def test_the_committed_verdicts_are_the_targets_module_s() -> None:
    """The figures are judged by contracts/coverage/targets.py: what the file says of each
    figure is what that module says of the measured figures."""
    assert committed() == targets.judged(committed())


def test_a_changed_target_is_a_stale_verdict_and_not_a_stale_simulation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The rule is not in the fingerprint: changing it leaves the fingerprint alone, and
    ``--check`` names ``--judge`` (a re-judgement of the committed figures, no simulation)."""
    fingerprint = simulate.fingerprint()
    monkeypatch.setattr(targets, "TARGET_HIGH", 0.985)
    assert simulate.fingerprint() == fingerprint
    assert committed() != targets.judged(committed())
    monkeypatch.setattr(simulate, "stale_lines", lambda inputs: [])  # the prefix: tested apart
    lines: list[str] = []
    monkeypatch.setattr("builtins.print", lambda *args, **kw: lines.append(" ".join(args)))
    assert simulate.main(["--check"]) == 1
    assert simulate.JUDGE_COMMAND in lines[0]


def test_the_estimates_alone_are_the_replications_estimates() -> None:
    """``--sizes`` reads agent A's draws only: the same estimates as the full replications
    (the prefix of two cells, one of 100 tasks)."""
    every = simulate.cells()
    for index in (1, 14):
        for replication in range(simulate.PREFIX_REPLICATIONS):
            assert model.replicate_estimates(every[index], replication) == (
                model.replicate(every[index], replication).estimates
            )


@pytest.mark.slow
def test_the_committed_sizes_of_a_cell_are_what_its_estimates_give() -> None:
    """One cell's n* and rarer counts, replayed over every replication (seconds)."""
    label = simulate.cells()[1].label
    found = simulate.replay_sizes(committed()["replications"], chosen=[1])[label]
    row = _row(30, 0.2, 0.3)
    for score, sizes in found.items():
        figure = row["scores"][score]
        assert (figure["n_star"], figure["rarer_count"]) == (
            sizes["n_star"],
            sizes["rarer_count"],
        ), score


def test_the_paired_widths_are_reported_beside_the_unpaired() -> None:
    """Shared task difficulty makes the paired interval narrower where tasks differ
    (ρ > 0, bimodal); with homogeneous tasks there is nothing to share."""
    for row in committed()["cells"]:
        pair = row["pairs"]["composite"]
        ratio = pair["mean_width_paired"] / pair["mean_width_unpaired"]
        if row["population"] == 0:
            assert ratio == pytest.approx(1, abs=0.05), row
        else:
            assert ratio < 0.97, row


# --- the truth ---------------------------------------------------------------------------


def test_the_beta_moment_is_the_mean_of_p_to_the_k() -> None:
    # E[p^k] for p ~ Beta(a, b) is B(a + k, b)/B(a, b) (the gamma-function form), and a
    # sample of 200,000 draws agrees with it.
    cell = simulate.Cell(30, 0.8, 0.3, False)
    a, b = (float(v) for v in cell.beta())
    rng = random.Random(2)
    draws = [rng.betavariate(a, b) for _ in range(200_000)]
    for k in (1, 3, 5):
        by_gamma = math.exp(
            math.lgamma(a + k) + math.lgamma(a + b) - math.lgamma(a) - math.lgamma(a + b + k)
        )
        assert float(cell.truth()[f"pass^{k}"]) == pytest.approx(by_gamma, rel=1e-12)
        assert sum(p**k for p in draws) / len(draws) == pytest.approx(by_gamma, abs=5e-3)
    assert simulate.Cell(30, 0.8, 0.0, False).truth()["pass^3"] == Fraction(64, 125)


def test_the_bimodal_population_has_mean_mu_and_the_lead_s_rates() -> None:
    """Half easy, half hard, rates μ ± 0.8·min(μ, 1 − μ): 0.1 and 0.9 at μ = 0.5, 0.91 and
    0.99 at μ = 0.95; the mean of the drawn rates is μ."""
    assert simulate.Cell(30, 0.5, "bimodal", False).bimodal_rates() == (
        Fraction(1, 10),
        Fraction(9, 10),
    )
    assert simulate.Cell(30, 0.95, "bimodal", False).bimodal_rates() == (
        Fraction(91, 100),
        Fraction(99, 100),
    )
    cell = simulate.Cell(100, 0.2, "bimodal", False)
    rng = random.Random(3)
    drawn = [r for _ in range(400) for r in cell.rates(rng)]
    assert set(drawn) == {0.04, 0.36}
    assert sum(drawn) / len(drawn) == pytest.approx(0.2, abs=0.005)
    hard, easy = cell.bimodal_rates()
    assert cell.truth()["pass^3"] == (hard**3 + easy**3) / 2


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
        model.LATENCY_MEDIAN_MS,
        model.LATENCY_TASK_SIGMA,
        model.LATENCY_RUN_SIGMA,
        draws,
    )
    cost = _simulated_mean(
        rng, model.COST_MEDIAN_USD, model.COST_TASK_SIGMA, model.COST_RUN_SIGMA, draws
    )
    cell = simulate.Cell(30, 0.5, 0.3, False)
    p = Fraction(1, 2)
    expected = float(
        composite_score(p, outcome_consistency(p, 100), latency_score(latency), cost_score(cost))
    )
    assert cell.truth()["composite"] == pytest.approx(expected, abs=0.3)
    shrunk = p * simulate.PAIR_SHRINK
    other = float(
        composite_score(
            shrunk, outcome_consistency(shrunk, 100), latency_score(latency), cost_score(cost)
        )
    )
    assert cell.pair_truth()["composite"] == pytest.approx(expected - other, abs=0.3)
    assert cell.pair_truth()["success_rate"] == Fraction(1, 20)


def test_an_agent_s_sums_are_its_runs() -> None:
    """The drawn sums: runs in RUNS_PER_TASK, successes within them, whole ms and whole
    10^-6 USD, and a radar window of RADAR_WINDOW_RUNS runs in all."""
    rng = random.Random(5)
    tasks, window = model.draw_agent([0.5] * 40, rng)
    assert len(tasks) == 40
    for runs, successes, latency, cost in tasks.values():
        assert simulate.RUNS_PER_TASK[0] <= runs <= simulate.RUNS_PER_TASK[1]
        assert 0 <= successes <= runs
        assert isinstance(latency, int)
        assert latency > 0
        assert (cost * 10**model.COST_DECIMALS).denominator == 1
    assert sum(known for _, known in window) == scoring.constants.RADAR_WINDOW_RUNS
    assert all(0 <= passes <= known for passes, known in window)


# --- the proof of the committed figures --------------------------------------------------


def test_the_files_are_the_text_the_script_writes() -> None:
    # Formatting only: a hand edit of the layout shows.
    assert COMMITTED.read_text(encoding="utf-8") == simulate.document_text(committed())
    assert INPUTS.read_text(encoding="utf-8") == simulate.document_text(committed_inputs())


def test_the_committed_fingerprint_is_the_code_s() -> None:
    """Fails when the simulation's code or a constant it reads changed since the figures
    were written: run ``python contracts/coverage/simulate.py --update``."""
    live = simulate.fingerprint()
    assert committed_inputs()["fingerprint"] == live, f"stale: run {simulate.COMMAND}"
    assert committed()["fingerprint"] == live, f"stale: run {simulate.COMMAND}"
    assert committed_inputs()["prefix_replications"] == simulate.PREFIX_REPLICATIONS
    assert set(committed_inputs()["prefix"]) == {c.label for c in simulate.cells()}


@pytest.mark.parametrize("module", range(len(simulate.CODE)))
def test_the_fingerprint_follows_the_code_and_not_its_comments(tmp_path: Path, module: int) -> None:
    """Each module of the simulation's code: a docstring and a comment leave the
    fingerprint as it is, a change to the code changes it."""
    path = simulate.CODE[module]
    source = path.read_text(encoding="utf-8")
    copy = tmp_path / path.name
    sources = list(simulate.CODE)
    sources[module] = copy
    copy.write_text(source, encoding="utf-8")
    same = simulate.fingerprint(sources)
    assert same == simulate.fingerprint()
    copy.write_text(source.replace('"""', '"""Measured. ', 1) + "\n# a comment\n", encoding="utf-8")
    assert simulate.fingerprint(sources) == same  # a docstring and a comment: the same code
    # Where a name is imported from is not what the code computes (a module of scoring
    # moved): the prefix proves the values, so the figures stay current.
    moved = source.replace("\nimport ", "\nimport json as _unused\nimport ", 1)
    copy.write_text(moved + "\nfrom scoring import constants as _moved\n", encoding="utf-8")
    assert simulate.fingerprint(sources) == same
    copy.write_text(source + "\nCHANGED = 1\n", encoding="utf-8")
    assert simulate.fingerprint(sources) != same
    if path.name == "model.py":  # a value of the model
        spoiled = source.replace("PAIR_SHRINK = Fraction(9, 10)", "PAIR_SHRINK = Fraction(4, 5)")
        assert spoiled != source
        copy.write_text(spoiled, encoding="utf-8")
        assert simulate.fingerprint(sources) != same


def test_the_split_modules_are_the_fingerprinted_ones() -> None:
    """Every module of contracts/coverage/ with code is in the fingerprint, but the rule
    the figures are judged by: a model moved into a new module cannot escape it."""
    folder = SCRIPT.parent
    modules = {p.name for p in folder.glob("*.py") if p.name != "__init__.py"}
    assert modules == {p.name for p in (*simulate.CODE, *simulate.JUDGING)}
    assert {p.name for p in simulate.JUDGING} == {"targets.py"}
    # The judging module reads only the measured figures: no model, no scoring code.
    source = (folder / "targets.py").read_text(encoding="utf-8")
    assert "import" not in source.replace("from __future__ import annotations", "").replace(
        "from typing import Any", ""
    )


def test_the_fingerprint_follows_the_constants_it_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    same = simulate.fingerprint()
    for name in simulate.SCORING_CONSTANTS:
        assert hasattr(scoring.constants, name)
    monkeypatch.setattr(scoring.constants, "RADAR_WINDOW_RUNS", 50)
    assert simulate.fingerprint() != same
    assert simulate.stale_lines(committed_inputs())[0].startswith("the fingerprint differs")


def test_the_prefix_of_one_cell_is_what_the_code_gives_now(monkeypatch: pytest.MonkeyPatch) -> None:
    """The fast lane's share of the prefix: one cell re-run exactly (the slow lane re-runs
    every cell). After a release that changed a constant the figures depend on, they are
    the earlier version's figures until they are measured again, and the page says so
    (``contracts/coverage_record.py``): then the prefix is that version's, re-run on its
    anchors where the anchors are what changed."""
    state = coverage_state(build_snapshot())
    if state.changed:
        assert state.version in read_lock()
        if not set(state.changed) <= {"composite.latency_anchors_ms", "composite.cost_anchors_usd"}:
            return  # other constants are read once, at import: the prefix cannot be re-run
        use_anchors(monkeypatch, state.version)
    label = simulate.cells()[1].label  # T = 30, μ = 0.2, ρ = 0.3
    assert simulate.prefix(chosen=[_index(label)]) == {
        label: committed_inputs()["prefix"][label]
    }, f"cell {label}: the prefix differs; run {simulate.COMMAND}"


def test_a_changed_interval_value_changes_the_prefix(monkeypatch: pytest.MonkeyPatch) -> None:
    """The interval code returning one bound a unit wider changes the cell's digest."""
    label = simulate.cells()[1].label
    original = model.rates.success_rate_interval

    def wider(tasks):
        found = original(tasks)
        return Interval(found.low - Decimal("0.0001"), found.high)

    monkeypatch.setattr(model.rates, "success_rate_interval", wider)
    assert simulate.prefix(chosen=[_index(label)])[label] != committed_inputs()["prefix"][label]


def test_the_check_names_a_cell_whose_prefix_differs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    inputs = committed_inputs()
    monkeypatch.setattr(simulate, "prefix", lambda: dict(inputs["prefix"]))  # the code as committed
    assert simulate.stale_lines(inputs) == []
    spoiled = json.loads(json.dumps(inputs))
    label = simulate.cells()[5].label
    spoiled["prefix"][label] = "0" * 64
    assert simulate.stale_lines(spoiled) == [f"cell {label}: the prefix's interval bounds differ"]
    path = tmp_path / "inputs.json"
    path.write_text(json.dumps(spoiled), encoding="utf-8")
    monkeypatch.setattr(simulate, "INPUTS", path)
    assert simulate.main(["--check"]) == 1
    monkeypatch.setattr(simulate, "INPUTS", INPUTS)
    assert simulate.main(["--check"]) == 0


@pytest.mark.slow
def test_the_committed_coverage_is_what_the_simulation_gives_now(tmp_path: Path) -> None:
    """``--check``: the fingerprint, and every cell's prefix re-run exactly. Run in a scratch
    copy of the project with a comment added to the interval code, which leaves the figures
    as they are (the copy's own ``scoring`` is the one imported): one re-run of every
    prefix proves both."""
    root = copy_project(tmp_path / "project", ("scoring", "contracts"))
    rates = root / "scoring" / "intervals" / "rates.py"
    rates.write_text(rates.read_text("utf-8") + "\n# a comment, nothing else\n", "utf-8")
    script = root / "contracts" / "coverage" / "simulate.py"
    done = run_python([str(script), "--check"], cwd=root, env=os.environ, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "up to date" in done.stdout


@pytest.mark.slow
def test_a_changed_value_in_scoring_makes_the_figures_stale(tmp_path: Path) -> None:
    """The same scratch copy with the t quantile 1% larger: the check fails, naming cells
    and the command to run."""
    root = copy_project(tmp_path / "project", ("scoring", "contracts"))
    rates = root / "scoring" / "intervals" / "rates.py"
    # Appended, so every caller that looks t_factor up after the import gets the larger one.
    rates.write_text(
        rates.read_text("utf-8")
        + "\n_t_factor = t_factor\n\n\n"
        + "def t_factor(tasks, level=INTERVAL_LEVEL):\n"
        + "    return _t_factor(tasks, level) * 1.01\n",
        "utf-8",
    )
    script = root / "contracts" / "coverage" / "simulate.py"
    done = run_python([str(script), "--check"], cwd=root, env=os.environ, timeout=600)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "the prefix's interval bounds differ" in done.stdout
    assert simulate.COMMAND in done.stdout


def test_a_cached_chunk_is_reused_only_while_the_code_gives_its_prefix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--cache``: a saved chunk is read back as it was computed; once the interval code
    gives another value, the cell's key changes and the chunk is computed again."""
    index = 1
    calls: list[int] = []
    replicate = simulate.replicate

    def counted(cell, replication):
        calls.append(replication)
        return replicate(cell, replication)

    monkeypatch.setattr(simulate, "replicate", counted)
    first = simulate.run(3, chosen=[index], cache=tmp_path)
    assert len(list(tmp_path.iterdir())) == 1
    assert len(calls) == simulate.PREFIX_REPLICATIONS + 3  # the key (the prefix), the chunk
    calls.clear()
    assert simulate.run(3, chosen=[index], cache=tmp_path) == first
    assert len(calls) == simulate.PREFIX_REPLICATIONS  # the key only: the chunk is read back
    success = model.rates.success_rate_interval

    def wider(tasks):
        found = success(tasks)
        return Interval(found.low - Decimal("0.0001"), found.high)

    monkeypatch.setattr(model.rates, "success_rate_interval", wider)
    again = simulate.run(3, chosen=[index], cache=tmp_path)
    assert len(list(tmp_path.iterdir())) == 2
    assert again[index][0].bounds["success_rate"] != first[index][0].bounds["success_rate"]
