"""The note at the top of a page that shows a change not yet released (``macros.drift``).

In the fast lane: which entries a page shows, read from its values' keys, and whether that
touches a change; no page of this repository has the note (its code is the newest released
snapshot). Slow: a copy with one latency anchor moved, its pages rendered through the macros
(``rendered_pages.py``, no site built): the pages that show the anchor say what changed at
their top, a page that does not is left alone, and nothing is logged (a strict build of the
copy is not failed by the note).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from serving import copy_project
from support import ROOT, render_pages, rendered_pages

from contracts.source import REPO_ROOT, definitions

sys.path.insert(0, str(ROOT / "docs"))
from macros.drift import NOTE_KEY, shown_entries, touches

NOTE = f'data-mv="{NOTE_KEY}"'


def test_a_page_shows_what_its_keys_name() -> None:
    markup = (
        '<a class="mv" data-mv="constant:composite.weight.cost">0.30</a>'
        '<figure class="plot" data-mv="plot:constant:composite.latency_anchors_ms">'
        '<div class="mv-block" data-mv="example:composite.typical/table">'
        '<span class="mv" data-mv="formula-value:radar.profile(1, 2)">'
        '<div class="mv-block" data-mv="source:COST_ANCHORS_USD">'
        '<div class="mv-block" data-mv="cli:report sample-runs.jsonl/output">'
        '<div class="mv-block" data-mv="cli:exits">'
    )
    shown = shown_entries(markup, {"COST_ANCHORS_USD": "composite.cost_anchors_usd"})
    assert shown == {
        ("constant", "composite.weight.cost"),
        ("constant", "composite.latency_anchors_ms"),
        ("example", "composite.typical"),
        ("formula", "radar.profile"),
        ("constant", "composite.cost_anchors_usd"),
        ("scoreboard", ""),
    }


def test_a_page_is_touched_only_by_what_it_shows() -> None:
    anchor = frozenset({("constant", "composite.latency_anchors_ms")})
    assert touches({("constant", "composite.latency_anchors_ms")}, anchor)
    assert not touches({("constant", "composite.weight.cost")}, anchor)
    assert not touches({("constant", "composite.weight.cost")}, frozenset())
    # The reference table shows every constant; the versions page's drift block, everything.
    assert touches({("constant", "*")}, anchor)
    assert not touches({("constant", "*")}, frozenset({("example", "composite.typical")}))
    assert touches({("*", "*")}, frozenset({("example", "composite.typical")}))
    assert not touches({("*", "*")}, frozenset())


def test_no_page_of_a_released_tree_has_the_note(tmp_path_factory: pytest.TempPathFactory) -> None:
    rendered = rendered_pages(tmp_path_factory)
    pages = sorted(rendered.glob("*.html"))
    assert len(pages) == len(list((REPO_ROOT / "docs").glob("*.md")))
    assert [p.name for p in pages if NOTE in p.read_text(encoding="utf-8")] == []


@pytest.mark.slow
def test_pages_that_show_a_moved_anchor_say_so_at_their_top(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    constants = project / "scoring" / "constants.py"
    source = constants.read_text(encoding="utf-8")
    assert source.count('("2000", "80")') == 1
    constants.write_text(source.replace('("2000", "80")', '("2500", "80")'), encoding="utf-8")
    pages = ("composite.md", "radar.md", "versions.md")
    result = render_pages(project, tmp_path / "out", pages)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "out" / "warnings.txt").read_text(encoding="utf-8") == ""
    line = definitions(REPO_ROOT / "scoring" / "constants.py")["LATENCY_ANCHORS_MS"].first
    cause = (
        "constant composite.latency_anchors_ms[1].x 2000 → 2500 (LATENCY_ANCHORS_MS, defined "
        f"at scoring/constants.py:{line})"
    )
    for name in ("composite.html", "versions.html"):
        html = (tmp_path / "out" / name).read_text(encoding="utf-8")
        # Under the page's title, before anything else of the page.
        first = re.search(r"</h1>\s*(<div[^>]*>)", html)
        assert first is not None, html[:500]
        assert first[1] == f'<div class="mv-block" {NOTE}>', name
        assert html.count(NOTE) == 1
        assert f"<li>{cause}</li>" in html
        assert "Unreleased change</p>" in html
    radar = (tmp_path / "out" / "radar.html").read_text(encoding="utf-8")
    assert NOTE not in radar
