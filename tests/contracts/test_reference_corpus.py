"""The reference corpus (``contracts/corpus/``): it regenerates byte for byte, exercises
every rule under the live constants and ships as package data; its scoreboard in the
snapshots (none in the released 1.0.0, the report of each corpus file in the current one);
and ``check`` sees a change to the corpus. The impact computed from it is tested in
``test_impact.py``; the helpers both use are in ``impact_builders.py``.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
from impact_builders import SYNTHETIC, TAU_BENCH, make_copy, ranks_from_report, report_json, run_in

import scoring.constants as C  # noqa: N812 - the module of constants
from contracts.scoreboard import CORPUS_DIR, corpus_paths
from contracts.source import REPO_ROOT
from contracts.store import (
    content_hash,
    file_hash,
    read_lock,
    read_snapshot,
    snapshot_content,
    snapshot_path,
    snapshot_text,
)

# --- The corpus -------------------------------------------------------------------------------


def test_the_corpus_regenerates_byte_for_byte(tmp_path: Path) -> None:
    done = run_in(REPO_ROOT, "contracts/corpus/make_corpus.py", "--out", str(tmp_path))
    assert done.code == 0, done.err
    committed = {p.name: p.read_bytes() for p in corpus_paths()}
    regenerated = {p.name: p.read_bytes() for p in sorted(tmp_path.glob("*.jsonl"))}
    assert set(regenerated) == set(committed)
    for name, data in committed.items():
        assert regenerated[name] == data, f"{name} differs from what make_corpus.py writes"


def test_the_corpus_exercises_every_rule_under_the_live_constants() -> None:
    records = [
        json.loads(line)
        for line in (REPO_ROOT / SYNTHETIC).read_text(encoding="utf-8").splitlines()
    ]
    agents = {r["agent_id"] for r in records}
    tasks = {r["task_id"] for r in records}
    runs_per_task = Counter((r["agent_id"], r["task_id"]) for r in records)
    assert len(agents) >= 10
    assert len(tasks) >= 20
    assert sorted(runs_per_task.values())[len(runs_per_task) // 2] >= 3, "several runs per task"
    terminal = [r for r in records if r["status"] in ("completed", "failed", "timeout")]
    assert any(r["success"] is None for r in terminal), "an unknown outcome"
    assert any(r["steps"] is None for r in terminal), "missing steps"

    report = {a["agent_id"]: a for a in report_json(REPO_ROOT / SYNTHETIC)["agents"]}
    composites = [a["composite"] for a in report.values()]
    assert any(c["zero_success_floor"] for c in composites), "the zero-success floor"
    completed = {c["completed_runs"] for c in composites}
    gate = C.CONSISTENCY_MIN_RUNS
    assert {gate - 1, gate} <= completed, "agents on both sides of the evidence gate"
    assert any(c["score"] is None for c in composites), "an agent with no completed run"
    scores = Counter(c["score"] for c in composites if c["score"] is not None)
    assert max(scores.values()) >= 2, "a tie of composites"
    no_steps = [a for a in report.values() if a["radar"]["axes"]["tool_efficiency"] is None]
    assert any(a["radar"]["window_runs"] for a in no_steps), "an agent whose runs lack steps"
    window = C.RADAR_WINDOW_RUNS
    terminal_runs = Counter(r["agent_id"] for r in terminal)
    windowed = [
        a
        for agent_id, a in report.items()
        if terminal_runs[agent_id] > window and a["radar"]["window_runs"] == window
    ]
    # The window must matter: correctness over the window differs from the success rate
    # over every completed run by more than rounding.
    assert any(
        abs(a["radar"]["axes"]["correctness"] - 100 * a["composite"]["success_rate"]) > 5
        for a in windowed
    ), "an agent whose latest window differs from its history"


def test_the_corpus_is_package_data() -> None:
    import tomllib

    config = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["contracts"]
    assert "corpus/*.jsonl" in patterns
    assert all(p.match("corpus/*.jsonl") for p in (CORPUS_DIR / p.name for p in corpus_paths()))


def test_scoring_does_not_import_contracts() -> None:
    imports = re.compile(r"^\s*(from|import)\s+contracts\b", re.M)
    offenders = [
        p.relative_to(REPO_ROOT).as_posix()
        for p in (REPO_ROOT / "scoring").rglob("*.py")
        if imports.search(p.read_text(encoding="utf-8"))
    ]
    assert not offenders


# --- The scoreboard in the snapshots ----------------------------------------------------------


def test_released_1_0_0_stays_byte_identical_without_a_scoreboard() -> None:
    path = snapshot_path("1.0.0")
    read = read_snapshot(path)
    assert read.methodology.scoreboard is None
    assert "scoreboard" not in read.content
    assert snapshot_text(read.methodology) == path.read_text(encoding="utf-8")
    assert file_hash(path.read_bytes()) == read_lock()["1.0.0"]
    assert content_hash(snapshot_content(read.methodology)) == read.sha256


def test_the_current_snapshot_records_the_report_of_each_corpus_file() -> None:
    released = read_snapshot(snapshot_path(C.METHODOLOGY_VERSION)).methodology
    assert released.scoreboard is not None
    assert [b.path for b in released.scoreboard] == [SYNTHETIC, TAU_BENCH]
    for board in released.scoreboard:
        report = report_json(REPO_ROOT / board.path)
        by_id = {a["agent_id"]: a for a in report["agents"]}
        expected = ranks_from_report(report)
        assert [a.agent_id for a in board.agents] == [a["agent_id"] for a in report["agents"]]
        for agent in board.agents:
            published = by_id[agent.agent_id]
            assert (agent.composite, agent.rank) == expected[agent.agent_id]
            assert agent.profile == published["radar"]["profile"]
            assert agent.pass_hat_k == {
                k: v for k, v in published["repeatability"].items() if k.startswith("pass^")
            }


# --- The corpus is methodology-visible --------------------------------------------------------


@pytest.mark.slow
def test_check_fails_when_the_corpus_changes(tmp_path: Path) -> None:
    root = make_copy(tmp_path)
    path = root / SYNTHETIC
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if '"success": false' in line)
    lines[first] = lines[first].replace('"success": false', '"success": true')
    path.write_text("".join(lines), encoding="utf-8")
    done = run_in(root, "-m", "contracts", "check")
    assert done.code == 1
    output = done.out + done.err
    assert "scoreboard" in output
    assert f"{SYNTHETIC}: the corpus file itself changed" in output


@pytest.mark.slow
def test_check_exits_2_on_an_unreadable_corpus(tmp_path: Path) -> None:
    root = make_copy(tmp_path)
    (root / SYNTHETIC).write_bytes(b'{"run_id": "x"}\n')
    done = run_in(root, "-m", "contracts", "check")
    assert done.code == 2
    assert "Traceback" not in done.err
    assert f"{SYNTHETIC}: the reference corpus is not a valid run log: line 1" in done.err
