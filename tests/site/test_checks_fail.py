"""The checks of the built site can fail: each is run on a copy of the site spoiled on purpose.

One spoiled copy carries every fault that still builds with ``--strict``: a hand-written
numeral, a hand-written code block with a number, a page whose macros were not rendered, a
script and a stylesheet from another host, raw LaTeX where a formula should be, and a new
constant that no page shows. A second copy, cut to the pages it spoils, calls a macro
that fails: ``--strict`` must refuse to build it, and without ``--strict`` the error must
show on the page.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from serving import copy_project
from support import (
    Page,
    broken_links,
    external_assets,
    formula_problems,
    macro_error_builds,
    missing_constants,
    mkdocs_build,
    pages,
    prose_numerals,
    snapshot_constant_names,
    template_leftovers,
    written_by_hand,
)

# Each test builds a spoiled copy of the project with mkdocs.
pytestmark = pytest.mark.slow

SPOILED_SENTENCE = "Latency at or above 12,000 ms scores 0."

UNRENDERED_PAGE = """\
---
render_macros: false
---

# Unrendered

The weight of success is {{ c("composite.weight.success") }}.

<script src="https://cdn.example.com/tracker.js"></script>
<link rel="stylesheet" href="stylesheets/remote.css">
<img src="//images.example.com/logo.png" alt="">

<figure class="formula">p = \\frac{successes}{runs}</figure>

<a href="downloads/missing.jsonl">A download that is not there</a>
"""

REMOTE_CSS = '@font-face { font-family: X; src: url("https://fonts.example.com/x.woff2"); }\n'

NEW_CONSTANT = """

NEW_KNOB: Annotated[
    int,
    Meta("composite.new_knob", "runs", "A constant that no page mentions."),
] = 7
"""


@pytest.fixture(scope="module")
def spoiled(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = copy_project(tmp_path_factory.mktemp("spoiled") / "project")
    docs = project / "docs"
    composite = docs / "composite.md"
    composite.write_text(
        composite.read_text(encoding="utf-8") + f"\n{SPOILED_SENTENCE}\n\n```sh\nsleep 30\n```\n",
        encoding="utf-8",
    )
    (docs / "unrendered.md").write_text(UNRENDERED_PAGE, encoding="utf-8")
    (docs / "stylesheets" / "remote.css").write_text(REMOTE_CSS, encoding="utf-8")
    constants = project / "scoring" / "constants.py"
    text = constants.read_text(encoding="utf-8")
    marker = "\n\n@dataclass(frozen=True, slots=True)\nclass ConstantInfo:"
    assert marker in text
    constants.write_text(text.replace(marker, NEW_CONSTANT + marker), encoding="utf-8")
    site = project / "site"
    result = mkdocs_build(project, site)
    assert result.returncode == 0, result.stdout + result.stderr
    return site


@pytest.fixture(scope="module")
def spoiled_pages(spoiled: Path) -> list[Page]:
    """Every page of the spoiled site, parsed once for the tests (the checks only read them)."""
    return pages(spoiled)


def _page(all_pages: list[Page], name: str) -> Page:
    return next(p for p in all_pages if p.name == name)


def test_prose_check_names_a_hand_written_numeral(spoiled_pages: list[Page]) -> None:
    page = _page(spoiled_pages, "composite.html")
    problems = prose_numerals(page)
    assert any("'12,000'" in p for p in problems), problems
    assert any("'0'" in p and SPOILED_SENTENCE in p for p in problems), problems


def test_prose_check_reads_hand_written_code_blocks(spoiled_pages: list[Page]) -> None:
    page = _page(spoiled_pages, "composite.html")
    assert any("'30'" in p for p in prose_numerals(page))


def test_leftover_check_finds_unrendered_macros(spoiled_pages: list[Page]) -> None:
    page = _page(spoiled_pages, "unrendered.html")
    problems = template_leftovers(page)
    assert any("leftover '{{'" in p for p in problems), problems


def test_asset_check_finds_other_hosts(spoiled: Path, spoiled_pages: list[Page]) -> None:
    problems = external_assets(spoiled, spoiled_pages)
    joined = "\n".join(problems)
    assert "https://cdn.example.com/tracker.js" in joined
    assert "//images.example.com/logo.png" in joined
    assert "https://fonts.example.com/x.woff2" in joined


def test_formula_check_finds_raw_latex(spoiled_pages: list[Page]) -> None:
    page = _page(spoiled_pages, "unrendered.html")
    problems = formula_problems(page)
    assert any("without <math>" in p for p in problems), problems
    assert any("\\\\frac" in p or "\\frac" in p for p in problems), problems


def test_constant_check_finds_a_constant_no_page_shows(
    spoiled: Path, spoiled_pages: list[Page]
) -> None:
    names = snapshot_constant_names(spoiled)
    assert "composite.new_knob" in names
    topic = [p for p in written_by_hand(spoiled_pages) if p.name != "reference.html"]
    assert missing_constants(topic, names) == ["constant 'composite.new_knob' appears on no page"]


def test_link_check_finds_a_missing_target(spoiled: Path, spoiled_pages: list[Page]) -> None:
    problems = broken_links(spoiled, spoiled_pages)
    assert any("downloads/missing.jsonl" in p for p in problems), problems


def test_a_macro_error_fails_the_strict_build_but_not_a_plain_one(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """An unknown constant on radar.md; ``on_undefined: strict`` makes an unknown name an
    error too, not an empty string (efficiency.md). The copy is cut to those pages and
    carries test_writer_errors.py's misspelt names as well (``support.MACRO_ERRORS``)."""
    builds = macro_error_builds(tmp_path_factory)
    status, output = builds.result("strict")
    assert status != 0, f"the strict build of the macro errors passed:\n{output}"
    assert "composite.no_such_constant" in output, f"the unknown constant:\n{output}"
    assert "'no_such_variable' is undefined" in output, f"the undefined variable:\n{output}"
    assert "Aborted" in output

    status, output = builds.result("plain")
    assert status == 0, output
    for name in ("radar.html", "efficiency.html"):
        page = next(p for p in pages(builds.site) if p.name == name)
        assert any("macro error" in p for p in template_leftovers(page)), name
