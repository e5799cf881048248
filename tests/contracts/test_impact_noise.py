"""Rank changes "within the noise" (``contracts.noise``) by the paired comparison of the two
agents that swapped (methodology 1.2.0): in ``python -m contracts impact`` (table and JSON,
fields ``within_noise`` and ``swaps``), in the drift check's summary and on the versions
page; and the composite's interval recorded in the scoreboard.

A made-up corpus file is written and scored by the live code, so that the swaps are known:
a and b swap and their paired interval contains 0 (within the noise); c and d swap, their
composite intervals overlap, yet the paired interval lies clear of 0 (beyond the noise: the
overlapping-intervals rule of 1.1.0 would have said within); e and f swap with fewer shared
tasks than the interval minimum (unknown); g keeps its rank. Scratch copies whose rule is
spoiled show that the expectations can fail.
"""

from __future__ import annotations

import io
import json
import textwrap
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from contract_builders import python_in
from serving import copy_project

import scoring.constants as C  # noqa: N812 - the module of constants
from contracts.build import REPO_ROOT
from contracts.comparison import AgentImpact, Impact, Standing, compare, corpus_cohorts
from contracts.impact import (
    PAIRS_TITLE,
    corpus_summary,
    impact_table,
    impact_to_json,
    pair_text,
    swapped_pairs,
)
from contracts.model import CorpusScoreboard, ScoreboardAgent
from contracts.noise import NO_CORPUS, all_of, partners, swaps, within_noise
from contracts.scoreboard import score_corpus
from contracts.store import read_snapshot, snapshot_path, snapshot_text
from scoring.cli import run as scoring_run
from scoring.formulas.curves import along

#: Successes of 4 runs on each of 20 tasks: easy tasks first, then harder ones.
BASE = [4, 4, 4, 4, 3, 3, 3, 2, 2, 2, 1, 1, 1, 0, 0, 0, 4, 3, 2, 1]
#: agent -> (successes per task, latency, cost): b differs from a on a few tasks, up and
#: down; d succeeds once more than c on every task c does not always pass; a and b run
#: cheaper than c and d, so that each pair holds two adjacent ranks. Latency and cost are
#: placed relative to the anchors, in widths of each curve's first slope from its start
#: (with 1.0.0's anchors a's 1000 ms and $0.002, c's 2000 ms and $0.02, e's 4000 ms and
#: $0.05, g's 9000 ms); each task adds a fifteenth of the latency slope (100 ms).
_THIRD, _NINTH = Fraction(1, 3), Fraction(1, 9)
AGENTS: dict[str, tuple[list[int], Fraction, Fraction]] = {
    "a": ([min(4, s + 2) for s in BASE], _THIRD, _NINTH),
    "b": (
        [min(4, s + 2 + (i % 4 == 0) - (i % 4 == 2)) for i, s in enumerate(BASE)],
        _THIRD,
        _NINTH,
    ),
    "c": (BASE, 3 * _THIRD, 19 * _NINTH),
    "d": ([min(4, s + 1) for s in BASE], 3 * _THIRD, 19 * _NINTH),
    "e": ([1] * 20, 7 * _THIRD, 49 * _NINTH),
    "f": ([1] * 5, 7 * _THIRD, 49 * _NINTH),  # five tasks: fewer shared with e than the minimum
    "g": ([0, 1] * 10, 17 * _THIRD, 49 * _NINTH),
}


def _on_first_slope(anchors: tuple[C.Anchor, ...], widths: Fraction) -> float:
    return float(along(anchors, widths))


#: The pairs swapped between the committed scoreboard and the live one.
SWAPPED = (("a", "b"), ("c", "d"), ("e", "f"))
EXPECTED = {"a": True, "b": True, "c": False, "d": False, "e": None, "f": None, "g": None}


def corpus_lines() -> bytes:
    lines = []
    for agent, (successes, latency, cost) in AGENTS.items():
        for task, count in enumerate(successes):
            for run in range(4):
                lines.append(
                    json.dumps(
                        {
                            "run_id": f"{agent}-{task}-{run}",
                            "agent_id": agent,
                            "task_id": f"t{task:02d}",
                            "status": "completed",
                            "success": run < count,
                            "latency_ms": _on_first_slope(
                                C.LATENCY_ANCHORS_MS, latency + Fraction(task, 15)
                            ),
                            "cost_usd": _on_first_slope(C.COST_ANCHORS_USD, cost),
                            "steps": 3,
                            "finished_at": "2026-01-01T00:00:00Z",
                        }
                    )
                )
    return "".join(line + "\n" for line in lines).encode()


def committed_of(live: CorpusScoreboard) -> CorpusScoreboard:
    """The live scoreboard with each pair of :data:`SWAPPED` in the other order."""
    ranks = {a.agent_id: a.rank for a in live.agents}
    for one, other in SWAPPED:
        ranks[one], ranks[other] = ranks[other], ranks[one]
    agents = [
        a.model_copy(update={"rank": ranks[a.agent_id], "interval": None}) for a in live.agents
    ]
    return CorpusScoreboard(path=live.path, sha256=live.sha256, agents=agents)


def made_up_impact(directory: Path) -> Impact:
    path = directory / "made-up-runs.jsonl"
    path.write_bytes(corpus_lines())
    live = score_corpus(path)
    return compare([committed_of(live)], [live], committed_version="1.1.0", live_version="1.2.0")


@pytest.fixture(scope="module")
def impact(tmp_path_factory: pytest.TempPathFactory) -> Impact:
    return made_up_impact(tmp_path_factory.mktemp("corpus"))


def by_id(impact: Impact) -> dict[str, AgentImpact]:
    return {a.agent_id: a for a in impact.agents}


# --- the rule -------------------------------------------------------------------------------


def test_the_made_up_swaps_are_adjacent_ranks(impact: Impact) -> None:
    """The premise: each pair of SWAPPED changed order with each other only."""
    agents = by_id(impact)
    for one, other in SWAPPED:
        assert [p.agent_id for p in partners(agents[one], impact.agents)] == [other]
    assert partners(agents["g"], impact.agents) == []


def test_each_rank_change_is_marked_by_the_paired_verdicts(impact: Impact) -> None:
    assert {a.agent_id: a.within_noise for a in impact.agents} == EXPECTED


def test_overlapping_intervals_with_a_clear_paired_difference_are_beyond_the_noise(
    impact: Impact,
) -> None:
    """c and d: their live composite intervals overlap (1.1.0's rule: within the noise),
    but pairing on their 20 shared, equally hard tasks leaves d clearly ahead."""
    agents = by_id(impact)
    c, d = agents["c"].live, agents["d"].live
    assert c is not None
    assert d is not None
    assert c.interval
    assert d.interval
    assert c.interval[0] <= d.interval[1]
    assert d.interval[0] <= c.interval[1]
    (swap,) = agents["c"].swaps
    assert swap.partner == "d"
    comparison = swap.comparison
    assert comparison is not None
    assert comparison.interval is not None
    assert comparison.interval.high < 0  # d − c > 0 without doubt
    assert str(comparison.verdict) == "B ahead"
    assert comparison.standard_error < comparison.unpaired_standard_error / 2
    assert agents["c"].within_noise is False
    assert agents["d"].within_noise is False


def test_too_few_shared_tasks_leave_the_change_unjudged(impact: Impact) -> None:
    (swap,) = by_id(impact)["e"].swaps
    assert swap.within_noise is None
    assert swap.reason == f"fewer than {C.INTERVAL_MIN_TASKS} shared tasks (5)"


def test_without_the_corpus_file_every_swap_is_unknown(impact: Impact) -> None:
    agents = impact.agents
    found = swaps(by_id(impact)["a"], agents, lambda: None)
    assert [(s.partner, s.comparison, s.reason) for s in found] == [("b", None, NO_CORPUS)]
    assert within_noise(by_id(impact)["a"], found) is None


def test_a_changed_corpus_file_is_not_read_as_the_one_scored(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_bytes(corpus_lines())
    live = score_corpus(path)
    assert corpus_cohorts(live.path, live.sha256) is not None
    path.write_bytes(corpus_lines() + b"\n")
    assert corpus_cohorts(live.path, live.sha256) is None
    assert corpus_cohorts(str(tmp_path / "gone.jsonl"), live.sha256) is None


def test_the_corpus_is_read_only_when_a_swap_needs_it(impact: Impact) -> None:
    def never(path: str, sha256: str) -> None:
        raise AssertionError("read without a swap")

    boards = [CorpusScoreboard(path="x", sha256="0" * 64, agents=[])]
    compare(boards, boards, committed_version="1", live_version="2", cohorts=never)


def test_the_three_valued_and() -> None:
    assert all_of([True, False, None]) is False
    assert all_of([True, None]) is None
    assert all_of([True, True]) is True
    assert all_of([]) is None


def test_a_rank_moved_by_a_newcomer_has_no_partner() -> None:
    new = AgentImpact("x", "new", None, Standing(90.0, 1, (85.0, 95.0)))
    old = AgentImpact("x", "old", Standing(50.0, 1), Standing(50.0, 2, (45.0, 55.0)))
    assert old.moved
    assert swaps(old, [new, old], lambda: None) == ()
    assert within_noise(old, ()) is None


def test_intervals_do_not_change_what_counts_as_unchanged() -> None:
    """A release that only adds intervals moves no agent: the standings compare equal."""
    assert Standing(70.0, 1) == Standing(70.0, 1, (66.0, 74.0))


# --- where it is shown ----------------------------------------------------------------------


def test_the_impact_json_has_the_swaps_and_within_noise(impact: Impact) -> None:
    data = impact_to_json(impact)
    got = {a["agent_id"]: a["within_noise"] for a in data["agents"]}
    assert got == EXPECTED
    agents = {a["agent_id"]: a for a in data["agents"]}
    (swap,) = agents["c"]["swaps"]
    comparison = by_id(impact)["c"].swaps[0].comparison
    assert swap == {
        "partner": "d",
        "verdict": "B ahead",
        "ahead": "d",
        "difference": round(float(comparison.difference), C.SCORE_DECIMALS),
        "interval": {
            "low": float(comparison.interval.low),
            "high": float(comparison.interval.high),
        },
        "shared_tasks": 20,
        "reason": None,
    }
    assert swap["difference"] < 0
    (within,) = agents["b"]["swaps"]
    assert (within["partner"], within["verdict"], within["ahead"]) == (
        "a",
        "within the noise",
        None,
    )
    (unknown,) = agents["f"]["swaps"]
    assert unknown["verdict"] is unknown["difference"] is unknown["interval"] is None
    assert unknown["shared_tasks"] == 5
    assert agents["g"]["swaps"] == []
    assert json.loads(json.dumps(data)) == data  # JSON through and through


def test_the_impact_table_marks_each_rank_change_and_lists_the_pairs(impact: Impact) -> None:
    lines = impact_table(impact).splitlines()
    start = lines.index(f"{PAIRS_TITLE}:")
    table = lines[:start]
    row = {line.split()[0]: line for line in table if line.split() and line.split()[0] in AGENTS}
    assert row["a"].rstrip().endswith("within the noise")
    assert row["d"].rstrip().endswith("beyond the noise")
    assert row["g"].rstrip().endswith("—")
    listed = lines[start + 1 : start + 4]
    pairs = swapped_pairs(impact.of(impact.corpus[0]))
    assert listed == [f"  {pair_text(*pair)}" for pair in pairs]
    assert [(agent, swap.partner) for agent, swap in pairs] == [("a", "b"), ("d", "c"), ("f", "e")]
    d_and_c = listed[1]
    comparison = by_id(impact)["d"].swaps[0].comparison
    low, high = comparison.interval.low, comparison.interval.high
    difference = f"{float(comparison.difference):.2f}"
    assert d_and_c == f"  d − c = +{difference} [{low}, {high}] on 20 shared tasks: d ahead"
    assert listed[0].startswith("  a − b = ")
    assert listed[0].endswith("shared tasks: within the noise")
    assert listed[2] == (
        f"  f − e: no paired comparison (fewer than {C.INTERVAL_MIN_TASKS} shared tasks (5))"
    )


def test_the_summary_line_marks_the_rank_changes(impact: Impact) -> None:
    text = corpus_summary(impact, impact.corpus[0])
    ranks = {a.agent_id: a.ranks for a in impact.agents}
    before, after = ranks["c"]
    assert f"c {before} → {after} (beyond the noise)" in text
    before, after = ranks["a"]
    assert f"a {before} → {after} (within the noise)" in text


def _macros_impact() -> Any:
    import importlib
    import sys

    docs = str(REPO_ROOT / "docs")
    sys.path.insert(0, docs)
    try:
        return importlib.import_module("macros.impact")
    finally:
        sys.path.remove(docs)


def test_the_versions_page_marks_the_rank_changes_and_lists_the_pairs(impact: Impact) -> None:
    macros_impact = _macros_impact()
    agents = impact.of(impact.corpus[0])
    html = macros_impact.rank_table("t", agents, "1.1.0", "1.2.0", C.SCORE_DECIMALS)
    ranks = {a.agent_id: a.ranks for a in impact.agents}
    assert f"{ranks['c'][0]} → {ranks['c'][1]} (beyond the noise)" in html
    assert f"{ranks['a'][0]} → {ranks['a'][1]} (within the noise)" in html
    g = ranks["g"][0]
    assert f"{g} → {g} (" not in html
    pairs = macros_impact.pair_list("t", agents)
    assert pairs.count("<li>") == 3
    assert "d − c = +" in pairs
    assert "d ahead" in pairs
    assert macros_impact.pair_list("t", [a for a in agents if a.agent_id == "g"]) == ""


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

    intervals = 0
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
        intervals += sum(a.interval is not None for a in corpus.agents)
    # Not vacuous: some agents have an interval (the τ-bench log has no composite: it
    # records neither latency nor cost).
    assert intervals


# --- the rule can fail ------------------------------------------------------------------------

PRINT_NOISE = textwrap.dedent(
    """
    import json, sys, tempfile
    from pathlib import Path
    sys.path[:0] = ["tests/contracts", "tests", "benchmarks"]
    from test_impact_noise import made_up_impact
    with tempfile.TemporaryDirectory() as folder:
        impact = made_up_impact(Path(folder))
    print(json.dumps({a.agent_id: a.within_noise for a in impact.agents}))
    """
)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("what", "old", "new"),
    [
        (
            "every verdict read as within the noise (as overlapping intervals were)",
            "else verdict is Verdict.WITHIN_NOISE",
            "else True",
        ),
        (
            "an unknown verdict read as within the noise",
            "return None if verdict is None else",
            "return True if verdict is None else",
        ),
        (
            "the verdicts not read at all",
            "return all_of(swap.within_noise for swap in found)",
            "return None",
        ),
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
