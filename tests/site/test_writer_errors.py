"""What a writer sees when a page cannot be rendered (``docs/macros/errors.py``): an
unknown name is an error in place with the closest names suggested, the rest of the page
renders and ``--strict`` still fails; any other error is a page of literal text with the
failing file and line first."""

from __future__ import annotations

import html
import logging
import re
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from serving import copy_project
from support import MACRO_ERRORS, ROOT, macro_error_builds, mkdocs_build

sys.path.insert(0, str(ROOT / "docs"))
from macros.errors import error_page, in_place, unknown_name

_PRE = re.compile(r'<div class="macro-error" role="alert">.*?<pre><code>(.*?)</code></pre>', re.S)


# --- in place (fast) ----------------------------------------------------------------------------


def _lookup(table: dict[str, str]) -> Any:
    def macro(name: str) -> str:
        return table[name]

    return macro


def test_an_unknown_name_is_shown_in_place_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    table = {"composite.weight.cost": "0.30", "radar.window": "100"}
    env = SimpleNamespace(page=SimpleNamespace(file=SimpleNamespace(src_path="radar.md")))
    macro = in_place(_lookup(table), "c", lambda: table, env)
    assert macro("radar.window") == "100"
    with caplog.at_level(logging.WARNING):
        shown = macro("composite.wieght.cost")
    assert "Macro Rendering Error" in shown
    assert "did you mean 'composite.weight.cost'?" in shown
    assert any(
        r.levelno == logging.WARNING and r.getMessage().startswith("radar.md: c(")
        for r in caplog.records
    )


def test_a_key_error_that_is_not_the_page_s_name_still_fails() -> None:
    def broken(name: str) -> str:
        return {}["something internal"]

    with pytest.raises(KeyError):
        in_place(broken, "c", list, None)("composite.weight.cost")


def test_no_suggestion_when_nothing_is_close() -> None:
    assert unknown_name("zzz", ["composite.weight.cost"]) == "unknown name 'zzz'"


def test_the_error_page_is_literal_and_starts_with_the_place() -> None:
    try:
        compile("x = (", str(ROOT / "scoring" / "constants.py"), "exec")
    except SyntaxError as cause:
        try:
            raise RuntimeError(
                "the live code cannot be loaded (docs/macros/__init__.py)"
            ) from cause
        except RuntimeError as error:
            page = error_page(error, "composite.md")
    match = _PRE.search(page)
    assert match is not None
    text = html.unescape(match.group(1))
    assert text.splitlines()[0] == "scoring/constants.py:1: SyntaxError: '(' was never closed"
    assert "__init__" in text  # literal: Markdown would make it bold
    assert "<strong>init</strong>" not in page
    assert "_File_" not in page


# --- on built pages (slow) ----------------------------------------------------------------------


@pytest.mark.slow
def test_a_misspelt_name_renders_the_rest_of_the_page(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """Misspelt names on radar.md, in a copy cut to it (it carries test_checks_fail.py's
    macro errors as well: ``support.MACRO_ERRORS``)."""
    builds = macro_error_builds(tmp_path_factory)
    assert any("composite.wieght.cost" in call for call in MACRO_ERRORS["radar.md"])
    status, output = builds.result("plain")
    assert status == 0, output
    built = (builds.site / "radar.html").read_text(encoding="utf-8")
    assert "did you mean 'composite.weight.cost'" in built
    assert "unknown name 'radar.profil'; did you mean 'radar.profile'" in built
    # The rest of the page is there: its formulas and its tables, rendered by the live code.
    assert built.count('class="formula"') >= 2
    assert "Macro Rendering Error</strong></p>" not in built  # not the whole-page error
    status, output = builds.result("strict")
    assert status != 0, f"the strict build of the macro errors passed:\n{output}"
    assert "did you mean 'composite.weight.cost'" in output, f"the misspelt name:\n{output}"


@pytest.mark.slow
def test_broken_live_code_is_shown_as_literal_text_line_first(tmp_path: Path) -> None:
    project = copy_project(tmp_path / "project")
    constants = project / "scoring" / "constants.py"
    lines = constants.read_text(encoding="utf-8").splitlines(keepends=True)
    broken = next(i for i, line in enumerate(lines) if line.startswith("SCORE_DECIMALS"))
    lines[broken] = lines[broken].replace("Annotated[", "Annotated[[", 1)
    constants.write_text("".join(lines), encoding="utf-8")
    plain = mkdocs_build(project, project / "site", strict=False)
    assert plain.returncode == 0, plain.stderr
    built = (project / "site" / "composite.html").read_text(encoding="utf-8")
    match = _PRE.search(built)
    assert match is not None, built[:2000]
    first = html.unescape(match.group(1)).splitlines()[0]
    assert first.startswith(f"scoring/constants.py:{broken + 1}: SyntaxError"), first
    assert "<strong>init</strong>" not in built
    assert "<em>File</em>" not in built
