"""``python -m contracts impact``, the impact in ``check`` and ``update``, Kendall's τ-b,
and the versions page's impact section. The reference corpus itself and its scoreboard in the
snapshots are tested in ``test_reference_corpus.py``; the helpers both use are in
``impact_builders.py``.

The slow tests work on scratch copies of the project (``scoring/``, ``contracts/``,
``docs/``, ``mkdocs.yml``, ``pyproject.toml``): one moves the composite weights (success
0.40 → 0.45, cost 0.30 → 0.25) and releases the change as 2.0.0 through the normal
workflow; others spoil the corpus or a snapshot and expect exit 2.
"""

from __future__ import annotations

import importlib
import itertools
import json
import math
import random
import re
import shutil
import sys
from collections.abc import Sequence
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import pytest
from impact_builders import (
    SYNTHETIC,
    TAU_BENCH,
    Done,
    make_copy,
    ranks_from_report,
    report_json,
    run_in,
)

import scoring.constants as C  # noqa: N812 - the module of constants
from contracts.build import build_snapshot
from contracts.cli import main as contracts_main
from contracts.comparison import TAU_DECIMALS, compare_snapshots, kendall_tau_b
from contracts.model import CorpusScoreboard
from contracts.scoreboard import build_scoreboard
from contracts.source import REPO_ROOT
from contracts.store import read_lock, read_snapshot, snapshot_path

NEW_WEIGHTS = {
    "COMPOSITE_WEIGHT_SUCCESS": ("0.40", "0.45"),
    "COMPOSITE_WEIGHT_COST": ("0.30", "0.25"),
}


# --- Helpers ----------------------------------------------------------------------------------


def move_weights(root: Path) -> None:
    """Composite weights: success 0.40 → 0.45, cost 0.30 → 0.25, in the copy's constants."""
    path = root / "scoring" / "constants.py"
    text = path.read_text(encoding="utf-8")
    for name, (old, new) in NEW_WEIGHTS.items():
        pattern = re.compile(rf'({name}:.*?\] = Decimal\(")' + re.escape(old) + r'("\))', re.S)
        text, count = pattern.subn(rf"\g<1>{new}\g<2>", text, count=1)
        assert count == 1, f"{name} = {old} not found"
    path.write_text(text, encoding="utf-8")


def set_version(root: Path, version: str) -> None:
    path = root / "scoring" / "constants.py"
    text = path.read_text(encoding="utf-8")
    new, count = re.subn(
        r'(METHODOLOGY_VERSION:.*?\] = ")[^"]+(")',
        rf"\g<1>{version}\g<2>",
        text,
        count=1,
        flags=re.S,
    )
    assert count == 1
    path.write_text(new, encoding="utf-8")


def tau_by_pair_classes(x: Sequence[int], y: Sequence[int]) -> float | None:
    """τ-b counted another way: every pair classified as concordant, discordant, tied in x
    only or tied in y only (tied in both counts in neither), then
    (C − D) / sqrt((C + D + Tx)(C + D + Ty))."""
    concordant = discordant = tied_x = tied_y = 0
    for i, j in itertools.combinations(range(len(x)), 2):
        dx, dy = x[i] - x[j], y[i] - y[j]
        if dx == 0 and dy == 0:
            continue
        if dx == 0:
            tied_x += 1
        elif dy == 0:
            tied_y += 1
        elif (dx > 0) == (dy > 0):
            concordant += 1
        else:
            discordant += 1
    denominator = (concordant + discordant + tied_x) * (concordant + discordant + tied_y)
    if denominator == 0:
        return None
    return (concordant - discordant) / math.sqrt(denominator)


def macros_impact() -> ModuleType:
    """``docs/macros/impact.py`` as the site imports it (``macros.impact``, docs/ on the path)."""
    docs = str(REPO_ROOT / "docs")
    sys.path.insert(0, docs)
    try:
        return importlib.import_module("macros.impact")
    finally:
        sys.path.remove(docs)


def impact_json_in_process(capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    code = contracts_main(["impact", "--format", "json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    return json.loads(captured.out)


# --- Kendall's τ-b ----------------------------------------------------------------------------


def test_tau_b_on_a_worked_example_with_ties() -> None:
    # Five agents a..e. Committed ranks tie b and c, live ranks tie c and d.
    committed = [1, 2, 2, 3, 4]
    live = [2, 1, 3, 3, 5]
    # By hand, over the 10 pairs: a-b is discordant; b-c is tied in the committed ranks
    # only and c-d in the live ranks only; the other 7 are concordant. So n_c = 7, n_d = 1,
    # n_0 = 10, n_1 = 1 (the b-c tie), n_2 = 1 (the c-d tie):
    # τ-b = (7 - 1) / sqrt((10 - 1)(10 - 1)) = 6 / 9 = 2/3.
    assert kendall_tau_b(committed, live) == round(2 / 3, TAU_DECIMALS)
    assert tau_by_pair_classes(committed, live) == pytest.approx(2 / 3, abs=1e-15)


def test_tau_b_agrees_with_an_independent_pair_count() -> None:
    rng = random.Random(7)
    for _ in range(300):
        n = rng.randrange(0, 12)
        x = [rng.randrange(1, 5) for _ in range(n)]
        y = [rng.randrange(1, 5) for _ in range(n)]
        ours, theirs = kendall_tau_b(x, y), tau_by_pair_classes(x, y)
        if theirs is None:
            assert ours is None, (x, y)
        else:
            assert ours == pytest.approx(theirs, abs=1e-12), (x, y)


def test_tau_b_is_one_for_the_same_order_and_minus_one_reversed() -> None:
    ranks = [1, 2, 2, 4, 5]
    assert kendall_tau_b(ranks, ranks) == 1.0
    assert kendall_tau_b(ranks, [-r for r in ranks]) == -1.0
    with pytest.raises(ValueError, match="same items"):
        kendall_tau_b([1, 2], [1])


# --- python -m contracts impact ---------------------------------------------------------------


def test_no_impact_on_unchanged_code(capsys: pytest.CaptureFixture[str]) -> None:
    data = impact_json_in_process(capsys)
    assert data["committed_version"] == data["live_version"] == C.METHODOLOGY_VERSION
    assert data["corpus"] == [SYNTHETIC, TAU_BENCH]
    assert data["corpus_changed"] == []
    assert data["unchanged"] is True
    for agent in data["agents"]:
        assert agent["committed"] == agent["live"], agent
        assert agent["delta"] in (0, None)
        assert agent["rank_change"] in (0, None)
    assert data["kendall_tau"][SYNTHETIC] == 1.0
    # One agent: no pair to compare, τ-b is undefined.
    assert data["kendall_tau"][TAU_BENCH] is None
    for corpus in data["corpus"]:
        expected = ranks_from_report(report_json(REPO_ROOT / corpus))
        shown = {a["agent_id"]: a["live"] for a in data["agents"] if a["corpus"] == corpus}
        assert {k: (v["composite"], v["rank"]) for k, v in shown.items()} == expected


def test_the_table_lists_every_agent(capsys: pytest.CaptureFixture[str]) -> None:
    assert contracts_main(["impact"]) == 0
    out = capsys.readouterr().out
    board = build_scoreboard()
    for corpus in board:
        assert corpus.path in out
        for agent in corpus.agents:
            assert re.search(rf"^{re.escape(agent.agent_id)}\s", out, re.M), agent.agent_id
    assert "Kendall τ-b 1.0000" in out


@pytest.fixture(scope="module")
def moved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A copy with the weights moved: the impact, the check, then a 2.0.0 release."""
    root = make_copy(tmp_path_factory.mktemp("moved"))
    move_weights(root)
    results: dict[str, Any] = {"root": root}
    results["impact"] = run_in(root, "-m", "contracts", "impact", "--format", "json")
    results["table"] = run_in(root, "-m", "contracts", "impact")
    results["check"] = run_in(root, "-m", "contracts", "check")
    results["after"] = {
        corpus: json.loads(run_in(root, "-m", "scoring", "report", corpus, "--format", "json").out)
        for corpus in (SYNTHETIC, TAU_BENCH)
    }
    set_version(root, "2.0.0")
    results["refused"] = run_in(root, "-m", "contracts", "update")
    return results


@pytest.mark.slow
def test_after_a_weight_change_the_impact_is_the_report_before_and_after(
    moved: dict[str, Any],
) -> None:
    done: Done = moved["impact"]
    assert done.code == 0, done.err
    data = json.loads(done.out)
    assert data["committed_version"] == C.METHODOLOGY_VERSION
    moved_ranks = 0
    for corpus in (SYNTHETIC, TAU_BENCH):
        before = ranks_from_report(report_json(REPO_ROOT / corpus))
        after = ranks_from_report(moved["after"][corpus])
        agents = [a for a in data["agents"] if a["corpus"] == corpus]
        assert {a["agent_id"] for a in agents} == set(before) == set(after)
        for agent in agents:
            committed, live = agent["committed"], agent["live"]
            assert (committed["composite"], committed["rank"]) == before[agent["agent_id"]]
            assert (live["composite"], live["rank"]) == after[agent["agent_id"]]
            moved_ranks += committed["rank"] != live["rank"]
        both = [a for a in before if before[a][1] is not None and after[a][1] is not None]
        expected_tau = tau_by_pair_classes(
            [before[a][1] for a in both], [after[a][1] for a in both]
        )
        if expected_tau is None:
            assert data["kendall_tau"][corpus] is None
        else:
            assert data["kendall_tau"][corpus] == pytest.approx(expected_tau, abs=1e-12)
    assert moved_ranks > 0, "the weight change was meant to move some ranks"
    assert data["unchanged"] is False
    assert data["kendall_tau"][SYNTHETIC] < 1


@pytest.mark.slow
def test_the_table_puts_the_biggest_mover_first(moved: dict[str, Any]) -> None:
    data = json.loads(moved["impact"].out)
    agents = [a for a in data["agents"] if a["corpus"] == SYNTHETIC and a["delta"] is not None]
    biggest = max(agents, key=lambda a: abs(a["delta"]))
    table: Done = moved["table"]
    assert table.code == 0
    section = table.out.split(SYNTHETIC, 1)[1]
    first_row = section.splitlines()[3]  # summary, header, rule, then the rows
    assert first_row.split()[0] == biggest["agent_id"]


@pytest.mark.slow
def test_check_prints_the_impact_summary(moved: dict[str, Any]) -> None:
    check: Done = moved["check"]
    assert check.code == 1
    output = check.out + check.err
    data = json.loads(moved["impact"].out)
    assert "scoreboard of the reference corpus" in output
    tau = data["kendall_tau"][SYNTHETIC]
    assert f"Kendall τ-b {tau:.4f}" in output
    for agent in data["agents"]:
        if agent["corpus"] == SYNTHETIC and agent["rank_change"]:
            was, now = agent["committed"]["rank"], agent["live"]["rank"]
            assert f"{agent['agent_id']} {was} → {now}" in output
    largest = max(abs(a["delta"]) for a in data["agents"] if a["delta"] is not None)
    assert f"largest |Δ| {largest:.2f}" in output


@pytest.mark.slow
def test_update_suggests_a_changelog_entry_from_the_impact(moved: dict[str, Any]) -> None:
    refused: Done = moved["refused"]
    assert refused.code == 1
    output = refused.out + refused.err
    assert "## 2.0.0 (" in output
    assert f"Impact on the reference corpus against {C.METHODOLOGY_VERSION}" in output
    assert "change rank" in output


def _release(root: Path) -> Done:
    """Add the suggested changelog entry (completed) and run the update in ``root``."""
    changelog = root / "contracts" / "CHANGELOG.md"
    refused = run_in(root, "-m", "contracts", "update")
    suggested = (refused.out + refused.err).split("\n\n", 1)[1].strip()
    entry = suggested.replace("<What changed, and why.>", "Weights moved (scratch test).")
    text = changelog.read_text(encoding="utf-8")
    first = text.index("\n## ")
    changelog.write_text(text[: first + 1] + entry + "\n\n" + text[first + 1 :], encoding="utf-8")
    return run_in(root, "-m", "contracts", "update")


@pytest.mark.slow
def test_a_new_release_shows_its_impact_on_the_versions_page(
    tmp_path: Path, moved: dict[str, Any]
) -> None:
    root = make_copy(tmp_path / "release")
    move_weights(root)
    set_version(root, "2.0.0")
    update = _release(root)
    assert update.code == 0, update.out + update.err
    assert "impact on the reference corpus" in update.out
    assert run_in(root, "-m", "contracts", "check").code == 0
    site = tmp_path / "site"
    build = run_in(root, "-m", "mkdocs", "build", "--strict", "-d", str(site))
    assert build.code == 0, build.err
    page = (site / "versions.html").read_text(encoding="utf-8")
    pair = f"{C.METHODOLOGY_VERSION}..2.0.0"
    data = json.loads(moved["impact"].out)
    rows = _table_rows(page, f"impact:{pair}:{SYNTHETIC}")
    expected = {a["agent_id"]: a for a in data["agents"] if a["corpus"] == SYNTHETIC}
    assert (
        next(r[0] for r in rows)
        == max(
            (a for a in expected.values() if a["delta"] is not None), key=lambda a: abs(a["delta"])
        )["agent_id"]
    )
    for agent_id, rank, _composite, _delta in rows:
        a = expected[agent_id]
        was = "—" if a["committed"]["rank"] is None else str(a["committed"]["rank"])
        now = "—" if a["live"]["rank"] is None else str(a["live"]["rank"])
        noise = {None: "", True: " (within the noise)", False: " (beyond the noise)"}
        assert rank == f"{was} → {now}{noise[a['within_noise']]}"
    slopes = _slopes(page, f"plot:impact:{pair}:{SYNTHETIC}")
    swapped = [
        (a, b)
        for a, b in itertools.combinations(slopes, 2)
        if (expected[a]["committed"]["rank"] - expected[b]["committed"]["rank"])
        * (expected[a]["live"]["rank"] - expected[b]["live"]["rank"])
        < 0
    ]
    assert swapped, "the weight change swaps some agents"
    for a, b in swapped:
        (a0, a1), (b0, b1) = slopes[a], slopes[b]
        assert (a0 - b0) * (a1 - b1) < 0, f"the lines of {a} and {b} must cross"
    # Released history: 1.0.0 records no scoreboard, so its step to 1.0.1 says so.
    assert 'data-mv="impact:1.0.0..1.0.1"' in page


class _Collector(HTMLParser):
    """Text of table rows and slope lines under the element marked ``data-mv=key``."""

    def __init__(self, key: str) -> None:
        super().__init__(convert_charrefs=True)
        self.key, self.depth = key, 0
        self.rows: list[list[str]] = []
        self.cell: list[str] | None = None
        self.lines: dict[str, tuple[float, float]] = {}
        self.group: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if self.depth:
            self.depth += 1
        elif found.get("data-mv") == self.key:
            self.depth = 1
            return
        if not self.depth:
            return
        if tag == "tr":
            self.rows.append([])
        elif tag == "td":
            self.cell = []
        elif tag == "g" and "slope" in (found.get("class") or ""):
            self.group = ""
        elif tag == "line" and self.group is not None:
            self.lines[self.group] = (float(found["y1"] or 0), float(found["y2"] or 0))

    def handle_endtag(self, tag: str) -> None:
        if not self.depth:
            return
        self.depth -= 1
        if tag == "td" and self.cell is not None:
            self.rows[-1].append("".join(self.cell).strip())
            self.cell = None
        if tag == "title" and self.group == "":
            self.group = None

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)
        if self.group == "" and ":" in data:
            self.group = data.split(":", 1)[0]


def _table_rows(page: str, key: str) -> list[list[str]]:
    collector = _Collector(key)
    collector.feed(page)
    rows = [r for r in collector.rows if r]
    assert rows, f"no table marked {key}"
    return rows


def _slopes(page: str, key: str) -> dict[str, tuple[float, float]]:
    collector = _Collector(key)
    collector.feed(page)
    assert collector.lines, f"no slope chart marked {key}"
    return collector.lines


# --- Exit 2 -----------------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize(
    ("spoil", "named"),
    [
        (lambda root: (root / SYNTHETIC).write_text("not json\n"), SYNTHETIC),
        (lambda root: shutil.rmtree(root / "contracts" / "corpus"), "contracts/corpus"),
        (
            lambda root: (
                root / "contracts/snapshots" / f"{C.METHODOLOGY_VERSION}.json"
            ).write_text("{"),
            f"contracts/snapshots/{C.METHODOLOGY_VERSION}.json",
        ),
        (lambda root: (root / "contracts/snapshots/released.json").write_text("[]"), "released"),
    ],
    ids=["corpus-not-json", "corpus-folder-removed", "snapshot", "lock"],
)
def test_impact_exits_2_when_the_corpus_or_the_snapshot_cannot_be_read(
    tmp_path: Path, spoil: Any, named: str
) -> None:
    root = make_copy(tmp_path)
    spoil(root)
    done = run_in(root, "-m", "contracts", "impact", "--format", "json")
    assert done.code == 2, done.out + done.err
    assert done.out == ""
    assert "Traceback" not in done.err
    lines = done.err.strip().splitlines()
    assert len(lines) == 1, done.err
    assert named in lines[0]


def test_impact_exits_2_on_a_version_without_a_scoreboard(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import contracts.impact as impact

    monkeypatch.setattr(impact, "current_version", lambda: "1.0.0")
    monkeypatch.setattr(impact, "read_lock", lambda: {"1.0.0": read_lock()["1.0.0"]})
    assert contracts_main(["impact"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "1.0.0.json" in captured.err
    assert "no scoreboard" in captured.err


# --- The versions page, from the macros alone -------------------------------------------------


def test_the_versions_page_macro_draws_crossing_lines_for_a_swap() -> None:
    versions_impact = macros_impact().versions_impact
    old = build_snapshot()
    assert old.scoreboard is not None
    board = old.scoreboard[0]
    top, second = board.agents[0], board.agents[1]
    # Swap the two leaders' composites in a made-up newer version.
    swapped = [
        top.model_copy(update={"composite": second.composite, "rank": 2}),
        second.model_copy(update={"composite": top.composite, "rank": 1}),
        *board.agents[2:],
    ]
    new_board = CorpusScoreboard(path=board.path, sha256=board.sha256, agents=swapped)
    new = old.model_copy(
        update={"methodology_version": "9.0.0", "scoreboard": [new_board, *old.scoreboard[1:]]}
    )
    impact = compare_snapshots(old, new)
    assert impact is not None
    assert impact.kendall_tau[board.path] < 1
    releases = [
        SimpleNamespace(version=old.methodology_version, snapshot=old),
        SimpleNamespace(version="9.0.0", snapshot=new),
    ]
    page = versions_impact(releases, C.SCORE_DECIMALS)
    key = f"{old.methodology_version}..9.0.0:{board.path}"
    rows = _table_rows(page, f"impact:{key}")
    assert {r[0] for r in rows[:2]} == {top.agent_id, second.agent_id}
    slopes = _slopes(page, f"plot:impact:{key}")
    (a0, a1), (b0, b1) = slopes[top.agent_id], slopes[second.agent_id]
    assert (a0 - b0) * (a1 - b1) < 0
    assert "<desc" in page
    assert 'role="img"' in page
    # Unchanged pairs draw parallel (non-crossing) lines.
    others = [a.agent_id for a in board.agents[2:] if a.composite is not None]
    for a, b in itertools.combinations(others, 2):
        (p0, p1), (q0, q1) = slopes[a], slopes[b]
        assert (p0 - q0) * (p1 - q1) >= 0


def test_the_versions_page_says_when_a_release_has_no_scoreboard() -> None:
    versions_impact = macros_impact().versions_impact
    old = read_snapshot(snapshot_path("1.0.0")).methodology
    new = build_snapshot()
    page = versions_impact(
        [
            SimpleNamespace(version="1.0.0", snapshot=old),
            SimpleNamespace(version=new.methodology_version, snapshot=new),
        ],
        C.SCORE_DECIMALS,
    )
    assert "records no scoreboard" in page
    assert "<svg" not in page


@pytest.mark.slow
def test_a_removed_corpus_file_is_an_impact_not_an_error(tmp_path: Path) -> None:
    root = make_copy(tmp_path)
    (root / TAU_BENCH).unlink()
    done = run_in(root, "-m", "contracts", "impact", "--format", "json")
    assert done.code == 0, done.err
    data = json.loads(done.out)
    assert data["corpus_changed"] == [TAU_BENCH]
    assert all(a["live"] is None for a in data["agents"] if a["corpus"] == TAU_BENCH)
