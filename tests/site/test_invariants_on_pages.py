"""A broken invariant shows on the pages in place of the numbers, and publishes nothing.

A copy of the project gets a composite weight of -0.40; its site, built without
``--strict`` (as ``mkdocs serve`` renders it), shows an error admonition naming the constant
and its line where each macro's output would be, and no number written by a macro; the
strict build fails; the published files are not written. The same copy with the weight
restored builds as usual. Both copies are cut to the page the tests read (``composite.md``;
the others are stubs, ``serving.cut_to_pages``): the strict build of the restored copy shows
that the cut builds clean.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from serving import copy_project
from support import mkdocs_build

pytestmark = pytest.mark.slow

CONSTANTS = "scoring/constants.py"
#: The page the tests read; the copies' other pages are stubs.
PAGES = ("composite.md",)
GOOD = '] = Decimal("0.40")'
BAD = '] = Decimal("-0.40")'


def _line_of(text: str, needle: str) -> int:
    """The line of the annotated assignment whose value line holds ``needle``."""
    lines = text.splitlines()
    end = next(i for i, line in enumerate(lines) if needle in line)
    start = max(i for i in range(end + 1) if lines[i].startswith("COMPOSITE_WEIGHT_SUCCESS"))
    return start + 1


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = copy_project(tmp_path_factory.mktemp("broken-invariant") / "project", pages=PAGES)
    path = project / CONSTANTS
    text = path.read_text(encoding="utf-8")
    assert text.count(GOOD) == 1
    path.write_text(text.replace(GOOD, BAD), encoding="utf-8")
    return project


def test_the_pages_show_the_breach_in_place_of_the_numbers(broken: Path, tmp_path: Path) -> None:
    result = mkdocs_build(broken, tmp_path / "site", strict=False)
    assert result.returncode == 0, result.stderr
    line = _line_of((broken / CONSTANTS).read_text(encoding="utf-8"), BAD)
    page = (tmp_path / "site" / "composite.html").read_text(encoding="utf-8")
    assert page.count('class="admonition failure methodology-broken"') == 1
    assert f"{CONSTANTS}:{line}: COMPOSITE_WEIGHT_SUCCESS: is -0.40, outside [0, 1]" in page
    assert "(see the error above)" in page
    # No macro wrote a value: no number can be wrong.
    assert 'data-mv="' not in page
    assert "the live constants break the methodology's invariants" in result.stderr
    assert not (tmp_path / "site" / "methodology.json").exists()


def test_the_strict_build_fails(broken: Path, tmp_path: Path) -> None:
    result = mkdocs_build(broken, tmp_path / "site")
    assert result.returncode != 0
    assert "COMPOSITE_WEIGHT_SUCCESS" in result.stderr


def test_the_restored_weight_builds_again(broken: Path, tmp_path: Path) -> None:
    path = broken / CONSTANTS
    fixed = copy_project(tmp_path / "fixed", pages=PAGES)
    (fixed / CONSTANTS).write_text(
        path.read_text(encoding="utf-8").replace(BAD, GOOD), encoding="utf-8"
    )
    result = mkdocs_build(fixed, tmp_path / "site")
    assert result.returncode == 0, result.stderr
    page = (tmp_path / "site" / "composite.html").read_text(encoding="utf-8")
    assert "methodology-broken" not in page
    assert (tmp_path / "site" / "methodology.json").exists()
