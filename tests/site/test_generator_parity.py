"""One site, two generators: ``zensical build --strict`` of a copy of the project builds the
site ``mkdocs build --strict`` builds, page for page and published file for published file
(``benchmarks/parity.py`` says what is compared); a repeated Zensical build (nothing changed, so its
cache answers) is still complete; a macro error or broken live code fails the strict build
of both; ``serve`` of each picks up an edited constant, on the pages and in the published
``methodology.json``, and survives a macro error (``mkdocs serve`` in test_serve.py). The
comparison is shown to fail on a spoiled copy of the Zensical site, and on a real build with
the configuration's cache buster removed.

The tests that spoil a copy to see a build fail or a server recover use copies cut to the
pages they spoil or read (``serving.cut_to_pages``: the other pages are stubs);
``test_a_copy_cut_to_the_spoiled_pages_builds_clean`` shows such a copy builds clean."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import parity
import pytest
import support
from serving import copy_project, serve
from support import MACRO_ERROR_TEXT, generator_build as build, success_weight

# Builds and serves copies of the site with both generators.
pytestmark = pytest.mark.slow


def compare(mkdocs: Path, zensical: Path) -> list[str]:
    """Every difference between the two sites, the macro error markers included."""
    return parity.compare(mkdocs, zensical, MACRO_ERROR_TEXT)


#: The line of mkdocs.yml that makes every Zensical build render its pages.
NONCE = "  build_nonce: !!python/object/apply:time.time_ns []\n"

SUCCESS_WEIGHT = r'data-mv="constant:composite\.weight\.success"'


@pytest.fixture(scope="module")
def zensical_project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the project built twice by ``zensical build --strict``: the second time
    with nothing changed, the case its cache answers."""
    project = copy_project(tmp_path_factory.mktemp("zensical") / "project")
    for _ in range(2):
        result = build(project, "zensical")
        assert result.returncode == 0, result.stdout + result.stderr
    return project


@pytest.fixture(scope="module")
def zensical_site(zensical_project: Path) -> Path:
    return zensical_project / "site"


def test_both_generators_build_the_same_site(site: Path, zensical_site: Path) -> None:
    assert compare(site, zensical_site) == []
    # Not vacuously: the comparison saw the pages, formulas, plots, data and files.
    pages = parity.pages(site)
    assert {"index.html", "composite.html", "radar.html", "reference.html"} <= pages
    bodies = [parity.article((site / p).read_text(encoding="utf-8")) for p in pages]
    assert sum(len(parity.formulas(b)) for b in bodies) >= 30
    assert sum(len(parity.plots(b)) for b in bodies) >= 10
    assert sum(len(parity.calculator_data(b)) for b in bodies) >= 6
    files = parity.published(zensical_site)
    assert {"methodology.json", "methodology.schema.json", "versions/released.json"} <= set(files)
    assert any(name.startswith("source/scoring/") for name in files)
    assert any(name.startswith("downloads/") for name in files)


THEME_CONFIG = re.compile(
    r'<script id="__config" type="application/json">(?P<json>.*?)</script>', re.DOTALL
)


def test_the_zensical_site_works_offline_and_its_links_resolve(zensical_site: Path) -> None:
    """What the site tests check of the MkDocs build that is not in the article: no asset
    from another host (Zensical's own theme included), every link and asset resolves, and
    no page turns on mike's version selector (it would fetch ../versions.json: Zensical runs
    no hooks, so the selector must not be in mkdocs.yml)."""
    all_pages = support.pages(zensical_site)
    assert len(all_pages) > len(parity.pages(zensical_site))  # the sources' pages too
    assert support.external_assets(zensical_site, all_pages) == []
    assert support.broken_links(zensical_site, all_pages) == []
    assert [page.name for page in all_pages if theme_config(page.path).get("version")] == []


def theme_config(page: Path) -> dict[str, Any]:
    """The theme's settings a page hands its scripts (``<script id="__config">``)."""
    found = THEME_CONFIG.search(page.read_text(encoding="utf-8"))
    return {} if found is None else json.loads(found["json"])


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _first_formula_number(site: Path) -> None:
    _edit(site / "composite.html", "<mn>100</mn>", "<mn>1000</mn>")


def _calculator_data(site: Path) -> None:
    _edit(site / "radar.html", '"agent_id":"atlas"', '"agent_id":"atlaz"')


def _plot(site: Path) -> None:
    page = site / "composite.html"
    text = page.read_text(encoding="utf-8")
    svg = text.index("<svg", text.index('data-mv="plot:'))
    page.write_text(text[:svg] + "<svg><g/></svg>" + text[svg:], encoding="utf-8")


def _published_byte(site: Path) -> None:
    path = site / "methodology.json"
    text = path.read_bytes()
    assert b'"value": 0.4\n' in text
    path.write_bytes(text.replace(b'"value": 0.4\n', b'"value": 0.41\n', 1))


def _missing_download(site: Path) -> None:
    # The zip of the site is left out of the comparison (GENERATOR_OUTPUT); spoil another.
    compared = sorted(
        path
        for path in (site / "downloads").iterdir()
        if not path.name.startswith("methodology-site-")
    )
    compared[0].unlink()


def _missing_page(site: Path) -> None:
    (site / "efficiency.html").unlink()


def _error_marker(site: Path) -> None:
    _edit(site / "radar.html", "</article>", "<p>Macro Rendering Error</p></article>")


@pytest.mark.parametrize(
    ("spoil", "expected"),
    [
        (_first_formula_number, "composite.html: formulas #"),
        (_calculator_data, "radar.html: calculator data #"),
        (_plot, "composite.html: plots #"),
        (_published_byte, "methodology.json: differs"),
        (_missing_download, "only published by mkdocs"),
        (_missing_page, "efficiency.html: only built by mkdocs"),
        (_error_marker, "zensical radar.html: shows 'Macro Rendering Error'"),
    ],
)
def test_a_spoiled_side_is_reported(
    site: Path,
    zensical_site: Path,
    tmp_path: Path,
    spoil: Callable[[Path], None],
    expected: str,
) -> None:
    spoiled = tmp_path / "site"
    shutil.copytree(zensical_site, spoiled)
    spoil(spoiled)
    problems = compare(site, spoiled)
    assert any(expected in problem for problem in problems), problems


def test_harmless_differences_pass(site: Path, zensical_site: Path, tmp_path: Path) -> None:
    """Whitespace between tags, the theme's markup outside the article, its own assets."""
    copy = tmp_path / "site"
    shutil.copytree(zensical_site, copy)
    page = copy / "composite.html"
    text = page.read_text(encoding="utf-8")
    text = text.replace("</p>", "</p>\n\n   ").replace("<head>", "<head><!-- theme -->")
    page.write_text(text, encoding="utf-8")
    (copy / "assets" / "extra.css").write_text("/* the theme's own */\n", encoding="utf-8")
    assert compare(site, copy) == []


def test_a_cached_build_without_the_cache_buster_loses_the_published_files(
    site: Path, tmp_path: Path
) -> None:
    """Why mkdocs.yml carries ``build_nonce``: without it, the second of two Zensical builds
    comes from its cache, which empties site/ and never runs the macros. (With it, the
    second build is complete: ``zensical_project``, and the copy cut as this one is in
    ``test_a_copy_cut_to_the_spoiled_pages_builds_clean``.) The copy is cut to
    ``support.ERROR_PAGES``, the others stubs: the loss is the published files', whatever
    the pages hold."""
    project = copy_project(tmp_path / "project", pages=support.ERROR_PAGES)
    _edit(project / "mkdocs.yml", NONCE, "")
    for _ in range(2):
        result = build(project, "zensical")
        assert result.returncode == 0, result.stdout + result.stderr
    problems = compare(site, project / "site")
    assert "methodology.json: only published by mkdocs" in problems
    assert not [p for p in problems if p.endswith("only built by mkdocs")]  # pages are there


# --- A macro error, broken live code ----------------------------------------------------------


@pytest.mark.parametrize("generator", parity.GENERATORS)
def test_a_copy_cut_to_the_spoiled_pages_builds_clean(generator: str, tmp_path: Path) -> None:
    """The copy the macro errors' tests cut to ``support.ERROR_PAGES`` (the other pages
    stubs) builds with ``--strict`` under either generator, its pages rendered: what fails
    its strict build in those tests is the spoil, not the cut. Under Zensical it is built
    twice, as ``zensical_project``: with the cache buster, the second build still publishes
    the files the cache-buster test's copy (cut the same way, the buster removed) loses."""
    project = copy_project(tmp_path / "project", pages=support.ERROR_PAGES)
    for _ in range(2 if generator == "zensical" else 1):
        result = build(project, generator, project / "site")
        assert result.returncode == 0, result.stdout + result.stderr
        assert (project / "site" / "methodology.json").is_file()
    for name in support.ERROR_PAGES:
        page = support.parse(project / "site" / name.replace(".md", ".html"), project / "site")
        assert support.template_leftovers(page) == [], name
        assert support.marked_keys(page), f"{name}: no macro output on the page"
    stub = (project / "site" / "composite.html").read_text(encoding="utf-8")
    assert "Left out of this copy of the site." in stub


def test_a_macro_error_fails_the_strict_zensical_build_but_not_a_plain_one(
    tmp_path: Path,
) -> None:
    """As ``mkdocs build`` does (tests/site/test_checks_fail.py, the same two errors), on a
    copy cut to the two pages they spoil."""
    project = copy_project(tmp_path / "project", pages=support.ERROR_PAGES)
    page = project / "docs" / "radar.md"
    page.write_text(
        page.read_text(encoding="utf-8") + '\n{{ c("composite.no_such_constant") }}\n',
        encoding="utf-8",
    )
    strict = build(project, "zensical")
    assert strict.returncode != 0
    assert "zensical build --strict: Macro rendering failed in radar.md" in strict.stderr
    assert "composite.no_such_constant" in strict.stderr
    # on_undefined: strict makes an unknown name an error too, not an empty string.
    other = project / "docs" / "efficiency.md"
    other.write_text(
        other.read_text(encoding="utf-8") + "\n{{ no_such_variable }}\n", encoding="utf-8"
    )
    page.write_text(page.read_text(encoding="utf-8").replace("no_such_constant", "weight.success"))
    strict = build(project, "zensical")
    assert strict.returncode != 0
    assert "in efficiency.md: 'no_such_variable' is undefined" in strict.stderr
    # Without --strict the build goes through, with the warning, and the page shows it.
    lenient = build(project, "zensical", strict=False)
    assert lenient.returncode == 0, lenient.stderr
    assert "WARNING -  Macro rendering failed in efficiency.md" in lenient.stderr
    built = (project / "site" / "efficiency.html").read_text(encoding="utf-8")
    assert "Macro Rendering Error" in built


@pytest.mark.parametrize("generator", parity.GENERATORS)
def test_broken_live_code_fails_the_strict_build_and_publishes_nothing(
    generator: str, tmp_path: Path
) -> None:
    project = copy_project(tmp_path / "project")
    _edit(project / "scoring" / "constants.py", "SCORE_DECIMALS: Annotated[", "SCORE_DECIMALS: ((")
    result = build(project, generator, tmp_path / "site")
    assert result.returncode != 0
    failure = result.stderr[result.stderr.index("the live code cannot be loaded: ") :]
    assert "SyntaxError" in failure
    assert "scoring/constants.py" in failure
    built = tmp_path / "site" if generator == "mkdocs" else project / "site"
    assert not (built / "methodology.json").exists()
    if generator == "zensical":
        assert "zensical build --strict: methodology macros: the live code" in result.stderr
    else:
        assert "nothing published: " in result.stderr


# --- serve ------------------------------------------------------------------------------------


#: The pages the serve test reads: the others are stubs in its copy (serving.cut_to_pages).
SERVED_PAGES = ("composite.md", "radar.md")


def test_serve_picks_up_an_edited_constant_and_survives_errors(tmp_path: Path) -> None:
    """``zensical serve``; ``mkdocs serve`` goes through the same edits, each awaited the same
    way, in tests/site/test_serve.py (one server for all its tests)."""
    project = copy_project(tmp_path / "project", pages=SERVED_PAGES)
    constants = project / "scoring" / "constants.py"
    with serve(project, "composite.html", SUCCESS_WEIGHT, 90, "zensical") as served:
        assert success_weight(served.get("methodology.json")) == "0.4"
        # Two weights in one save: they still sum to 1, as the invariants ask.
        text = constants.read_text(encoding="utf-8")
        served.save(
            constants,
            text.replace('Decimal("0.40")', 'Decimal("0.45")', 1).replace(
                'Decimal("0.30")', 'Decimal("0.25")', 1
            ),
        )
        served.wait_for("composite.html", SUCCESS_WEIGHT + r"[^>]*>0\.45<", limit_s=60)
        # The published snapshot moved with it.
        assert success_weight(served.get("methodology.json")) == "0.45"

        page = project / "docs" / "radar.md"
        original = page.read_text(encoding="utf-8")
        served.save(page, original + '\n{{ c("composite.no_such_constant") }}\n')
        served.wait_for("radar.html", "Macro Rendering Error", limit_s=60)
        served.save(page, original)
        served.wait_for(
            "radar.html", r"^(?![\s\S]*Macro Rendering Error)[\s\S]*Fitness radar", limit_s=60
        )
        assert served.process.poll() is None
