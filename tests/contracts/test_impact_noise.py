"""Rank changes "within the noise" (``contracts.noise``): in ``python -m contracts impact``
(table and JSON, field ``within_noise``), in the drift check's summary and on the versions
page, and the composite's interval recorded in the scoreboard.

Scoreboards are made up here so that the swaps are known: two agents whose newer intervals
overlap swap ranks (within the noise), two whose intervals are disjoint swap (beyond it),
one agent has no interval (unknown). A scratch copy whose overlap rule is spoiled shows that
the expectations can fail.
"""

from __future__ import annotations

import io
import json
import textwrap
from pathlib import Path
from typing import Any

import pytest
from contract_builders import python_in
from serving import copy_project

import scoring.constants as C  # noqa: N812 - the module of constants
from contracts.build import REPO_ROOT
from contracts.comparison import AgentImpact, Standing, compare
from contracts.impact import corpus_summary, impact_table, impact_to_json
from contracts.model import CorpusScoreboard, ScoreboardAgent
from contracts.noise import all_of, overlaps, partners, within_noise
from contracts.store import read_snapshot, snapshot_path, snapshot_text
from scoring.cli import run as scoring_run

CORPUS = "contracts/corpus/made-up.jsonl"

#: agent -> (committed composite, rank), (live composite, rank, interval or None)
BOARD: dict[str, tuple[tuple[float, int], tuple[float, int, tuple[float, float] | None]]] = {
    # a and b swap; their live intervals overlap: within the noise.
    "a": ((80.0, 1), (78.0, 2, (74.0, 82.0))),
    "b": ((79.0, 2), (79.5, 1, (75.5, 83.5))),
    # c and d swap; their live intervals are disjoint: beyond the noise.
    "c": ((60.0, 3), (50.0, 4, (46.0, 54.0))),
    "d": ((55.0, 4), (65.0, 3, (61.0, 69.0))),
    # e and f swap; f has no interval: unknown.
    "e": ((40.0, 5), (30.0, 6, (25.0, 35.0))),
    "f": ((35.0, 6), (36.0, 5, None)),
    # g keeps its rank.
    "g": ((10.0, 7), (11.0, 7, (8.0, 14.0))),
}


def board(side: int) -> list[CorpusScoreboard]:
    agents = []
    for agent_id, sides in BOARD.items():
        composite, rank, *rest = sides[side]
        interval = rest[0] if rest else None
        agents.append(
            ScoreboardAgent(
                agent_id=agent_id,
                rank=rank,
                composite=composite,
                profile=None,
                pass_hat_k={},
                interval=None if interval is None else {"low": interval[0], "high": interval[1]},
            )
        )
    agents.sort(key=lambda a: a.rank or 0)
    return [CorpusScoreboard(path=CORPUS, sha256="0" * 64, agents=agents)]


def made_up_impact() -> Any:
    return compare(board(0), board(1), committed_version="1.0.1", live_version="1.1.0")


EXPECTED = {"a": True, "b": True, "c": False, "d": False, "e": None, "f": None, "g": None}


# --- the rule -------------------------------------------------------------------------------


def test_overlap_and_the_three_valued_and() -> None:
    assert overlaps((1.0, 2.0), (2.0, 3.0)) is True  # a shared bound is an overlap
    assert overlaps((1.0, 2.0), (2.01, 3.0)) is False
    assert overlaps((2.01, 3.0), (1.0, 2.0)) is False
    assert overlaps((1.0, 5.0), (2.0, 3.0)) is True  # one inside the other
    assert overlaps((1.0, 2.0), None) is None
    assert all_of([True, False, None]) is False
    assert all_of([True, None]) is None
    assert all_of([True, True]) is True
    assert all_of([]) is None


def test_each_rank_change_is_marked_by_its_partners_intervals() -> None:
    impact = made_up_impact()
    got = {a.agent_id: a.within_noise for a in impact.agents}
    assert got == EXPECTED


def test_partners_are_the_agents_whose_order_changed() -> None:
    impact = made_up_impact()
    by_id = {a.agent_id: a for a in impact.agents}
    assert [p.agent_id for p in partners(by_id["a"], impact.agents)] == ["b"]
    assert [p.agent_id for p in partners(by_id["d"], impact.agents)] == ["c"]
    assert partners(by_id["g"], impact.agents) == []


def test_one_swap_beyond_the_noise_outweighs_an_unknown_one() -> None:
    """x overtakes y (no interval) and z (disjoint): not within the noise."""
    x = AgentImpact(CORPUS, "x", Standing(50.0, 3), Standing(70.0, 1, (66.0, 74.0)))
    y = AgentImpact(CORPUS, "y", Standing(60.0, 1), Standing(65.0, 2, None))
    z = AgentImpact(CORPUS, "z", Standing(55.0, 2), Standing(60.0, 3, (55.0, 62.0)))
    assert within_noise(x, [x, y, z]) is False
    assert within_noise(y, [x, y, z]) is None


def test_a_tie_that_splits_is_a_change_of_order() -> None:
    x = AgentImpact(CORPUS, "x", Standing(50.0, 1), Standing(51.0, 1, (47.0, 55.0)))
    y = AgentImpact(CORPUS, "y", Standing(50.0, 1), Standing(49.0, 2, (45.0, 53.0)))
    assert within_noise(y, [x, y]) is True
    assert within_noise(x, [x, y]) is None  # x kept its rank


def test_a_rank_moved_by_a_newcomer_has_no_partner() -> None:
    new = AgentImpact(CORPUS, "new", None, Standing(90.0, 1, (85.0, 95.0)))
    old = AgentImpact(CORPUS, "old", Standing(50.0, 1), Standing(50.0, 2, (45.0, 55.0)))
    assert old.moved
    assert within_noise(old, [new, old]) is None


def test_intervals_do_not_change_what_counts_as_unchanged() -> None:
    """A release that only adds intervals moves no agent: the standings compare equal."""
    assert Standing(70.0, 1) == Standing(70.0, 1, (66.0, 74.0))


# --- where it is shown ----------------------------------------------------------------------


def test_the_impact_json_has_within_noise_per_agent() -> None:
    data = impact_to_json(made_up_impact())
    got = {a["agent_id"]: a["within_noise"] for a in data["agents"]}
    assert got == EXPECTED
    a = next(a for a in data["agents"] if a["agent_id"] == "a")
    assert a["live"]["interval"] == {"low": 74.0, "high": 82.0}
    assert a["committed"]["interval"] is None


def test_the_impact_table_marks_each_rank_change() -> None:
    lines = impact_table(made_up_impact()).splitlines()
    row = {line.split()[0]: line for line in lines if line.split() and line.split()[0] in BOARD}
    assert row["a"].rstrip().endswith("within the noise")
    assert row["d"].rstrip().endswith("beyond the noise")
    assert row["g"].rstrip().endswith("—")
    assert "noise" in next(line for line in lines if line.startswith("agent"))


def test_the_summary_line_marks_the_rank_changes() -> None:
    text = corpus_summary(made_up_impact(), CORPUS)
    assert "a 1 → 2 (within the noise)" in text
    assert "c 3 → 4 (beyond the noise)" in text
    assert "f 6 → 5," in text or "f 6 → 5;" in text or "f 6 → 5)" in text


def test_the_versions_page_marks_the_rank_changes() -> None:
    import importlib
    import sys

    docs = str(REPO_ROOT / "docs")
    sys.path.insert(0, docs)
    try:
        macros_impact = importlib.import_module("macros.impact")
    finally:
        sys.path.remove(docs)
    impact = made_up_impact()
    html = macros_impact.rank_table("t", impact.of(CORPUS), "1.0.1", "1.1.0", C.SCORE_DECIMALS)
    assert "1 → 2 (within the noise)" in html
    assert "3 → 4 (beyond the noise)" in html
    assert "7 → 7 (" not in html


# --- the scoreboard records the interval ------------------------------------------------------


def test_a_scoreboard_agent_without_an_interval_has_no_interval_key() -> None:
    agent = ScoreboardAgent(agent_id="x", rank=None, composite=None, profile=None, pass_hat_k={})
    assert "interval" not in agent.model_dump(mode="json")
    data = {**agent.model_dump(mode="json"), "interval": {"low": 1.0, "high": 2.0}}
    with_one = ScoreboardAgent.model_validate(data)
    assert with_one.model_dump(mode="json")["interval"] == {"low": 1.0, "high": 2.0}


def test_released_1_0_1_keeps_its_text_with_the_new_field() -> None:
    path = snapshot_path("1.0.1")
    assert snapshot_text(read_snapshot(path).methodology) == path.read_text(encoding="utf-8")


def test_the_live_scoreboard_records_each_published_interval() -> None:
    from contracts.scoreboard import build_scoreboard

    for corpus in build_scoreboard():
        out, err = io.StringIO(), io.StringIO()
        path = str(REPO_ROOT / corpus.path)
        assert scoring_run(["report", path, "--format", "json"], stdout=out, stderr=err) == 0
        report = json.loads(out.getvalue())
        published = {a["agent_id"]: a["composite"].get("interval") for a in report["agents"]}
        upper = {a["agent_id"]: a["rank_upper_bound"] for a in report["agents"]}
        for agent in corpus.agents:
            got = None if agent.interval is None else agent.interval.model_dump()
            assert got == published[agent.agent_id], agent.agent_id
            assert agent.rank_upper_bound == upper[agent.agent_id], agent.agent_id
        assert any(a.interval is not None for a in corpus.agents), corpus.path


# --- the rule can fail ------------------------------------------------------------------------

PRINT_NOISE = textwrap.dedent(
    """
    import json, sys
    sys.path[:0] = ["tests/contracts", "benchmarks"]
    from test_impact_noise import made_up_impact
    print(json.dumps({a.agent_id: a.within_noise for a in made_up_impact().agents}))
    """
)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("what", "old", "new"),
    [
        (
            "touching intervals no longer overlap",
            "return a[0] <= b[1] and b[0] <= a[1]",
            "return a[0] < b[1] and b[0] < a[1] and False",
        ),
        ("an unknown interval read as an overlap", "if a is None or b is None:", "if False:"),
    ],
)
def test_a_spoiled_rule_gives_other_marks(tmp_path: Path, what: str, old: str, new: str) -> None:
    root = copy_project(tmp_path / "project", ("scoring", "contracts", "tests", "benchmarks"))
    noise = root / "contracts" / "noise.py"
    text = noise.read_text(encoding="utf-8")
    assert old in text
    noise.write_text(text.replace(old, new, 1), encoding="utf-8")
    done = python_in(root, "-c", PRINT_NOISE)
    if done.returncode == 0:
        assert json.loads(done.stdout) != EXPECTED, what
    else:  # the spoiled rule breaks outright: it cannot pass either
        assert done.stderr, what
    # A harmless edit (a comment) keeps every mark.
    harmless = copy_project(tmp_path / "harmless", ("scoring", "contracts", "tests", "benchmarks"))
    path = harmless / "contracts" / "noise.py"
    path.write_text("# a comment\n" + text, encoding="utf-8")
    done = python_in(harmless, "-c", PRINT_NOISE)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == EXPECTED
