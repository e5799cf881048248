"""Every number a formula shows on the built site comes from the code.

A formula's LaTeX is assembled from the constants it shows (``scoring.registry.tex_number``),
so a changed constant changes the formula; on the built pages each ``<mn>`` must be the value
of a constant or a worked example, or one of the few literals ``FORMULA_LITERALS`` lists.
The proofs that it can fail spoil a copy of the built HTML, and change ``SCORE_SCALE`` in a
scratch copy of the repository.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from serving import copy_project
from support import (
    FORMULA_LITERALS,
    Page,
    explained_numerals,
    formula_numerals,
    parse,
    render_pages,
)

SCALE_LINE = re.compile(r'(SCORE_SCALE: Annotated\[.*?\] = Decimal\(")(\d+)("\))', re.DOTALL)


def test_every_formula_numeral_is_explained(site: Path, all_pages: list[Page]) -> None:
    explained = explained_numerals(site)
    problems = [p for page in all_pages for p in formula_numerals(page, explained)]
    assert not problems, "\n".join(problems)
    shown = [
        n for page in all_pages for m in page.article.find_all("math") for n in m.find_all("mn")
    ]
    assert shown, "no <mn> on any page: the check checked nothing"


def test_the_literals_are_few_and_each_has_a_reason() -> None:
    assert len(FORMULA_LITERALS) <= 5
    assert all(reason.strip() for reason in FORMULA_LITERALS.values())


def test_a_typed_number_in_a_formula_fails(site: Path, tmp_path: Path) -> None:
    """A formula that says 97 (no constant's value) is reported, naming the page."""
    original = (site / "composite.html").read_text(encoding="utf-8")
    assert "<mn>100</mn>" in original
    spoiled = tmp_path / "composite.html"
    spoiled.write_text(original.replace("<mn>100</mn>", "<mn>97</mn>", 1), encoding="utf-8")
    problems = formula_numerals(parse(spoiled, tmp_path), explained_numerals(site))
    assert len(problems) == 1
    assert problems[0].startswith("composite.html: <mn>97</mn> is no constant's")


def _scratch_with_scale(tmp_path: Path, scale: str) -> Path:
    project = copy_project(tmp_path / "project")
    constants = project / "scoring" / "constants.py"
    text, count = SCALE_LINE.subn(rf"\g<1>{scale}\g<3>", constants.read_text(encoding="utf-8"))
    assert count == 1, "SCORE_SCALE not found in scoring/constants.py"
    constants.write_text(text, encoding="utf-8")
    return project


def test_formula_latex_follows_score_scale(tmp_path: Path) -> None:
    """In a scratch copy with SCORE_SCALE = 1000, the scale's formulas say 1000, not 100."""
    project = _scratch_with_scale(tmp_path, "1000")
    script = (
        "import scoring, json\n"
        "from scoring.registry import FORMULAS\n"
        "print(json.dumps({n: f.latex for n, f in FORMULAS.items()}))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], cwd=project, capture_output=True, text=True, check=True
    )
    latex = json.loads(result.stdout)
    for name in ("composite.score", "radar.correctness", "radar.latency", "radar.robustness"):
        assert "1000" in latex[name], name
        assert not re.search(r"(?<!\d)100(?!\d)", latex[name]), f"{name} still says 100"


@pytest.mark.slow
def test_built_pages_follow_score_scale(tmp_path: Path) -> None:
    """The whole way: SCORE_SCALE = 1000 in a scratch copy, its pages rendered, and the
    composite's and the radar's formulas show 1000 where they showed 100."""
    project = _scratch_with_scale(tmp_path, "1000")
    dest = tmp_path / "site"
    # The two pages it reads, rendered through the macros (no theme, nothing published).
    result = render_pages(project, dest, ("composite.md", "radar.md"))
    assert result.returncode == 0, result.stderr
    for page_name, formula in (
        ("composite.html", "composite.score"),
        ("radar.html", "radar.latency"),
        ("radar.html", "radar.robustness"),
    ):
        page = parse(dest / page_name, dest)
        figure = next(
            f
            for f in page.root.find_all(cls="formula")
            if f.attrs["data-mv"] == f"formula:{formula}"
        )
        numbers = [n.text() for n in figure.find_all("mn")]
        assert "1000" in numbers, (formula, numbers)
        assert "100" not in numbers, (formula, numbers)
