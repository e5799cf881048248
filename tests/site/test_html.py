"""Checks on the built site: every number in the prose comes from the code, every constant is
shown, formulas are MathML, nothing is left unrendered and nothing loads from another host.

The site is built once per session with ``mkdocs build --strict`` (see ``support``);
``test_checks_fail.py`` shows that each check fails on a site spoiled on purpose.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from support import (
    ALLOWED_NUMERALS,
    Page,
    broken_links,
    external_assets,
    formula_problems,
    import_macros,
    missing_constants,
    pages,
    prose_numerals,
    snapshot_constant_names,
    template_leftovers,
    used_allowlist,
)

# The site is built with mkdocs (once per session) before the first of these runs.
pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def every_page(site: Path) -> list[Page]:
    """Every page of the site, the published source's included, parsed once for the checks
    that read them all."""
    return pages(site)


def test_every_page_of_the_navigation_was_built(all_pages: list[Page]) -> None:
    names = {p.name for p in all_pages}
    expected = {
        "index.html",
        "composite.html",
        "radar.html",
        "repeatability.html",
        "outcome.html",
        "efficiency.html",
        "reproduce.html",
        "inputs.html",
        "contract.html",
        "versions.html",
        "reference.html",
    }
    assert expected <= names


def test_prose_numerals_are_macro_output_or_allowed(all_pages: list[Page]) -> None:
    problems = [problem for page in all_pages for problem in prose_numerals(page)]
    assert not problems, "\n".join(problems)


def test_allowlist_is_short_and_every_entry_is_used(all_pages: list[Page]) -> None:
    assert len(ALLOWED_NUMERALS) <= 5
    assert all(reason.strip() for reason in ALLOWED_NUMERALS.values())
    unused = set(ALLOWED_NUMERALS) - used_allowlist(all_pages)
    assert not unused, f"allowlist entries no page needs any more: {sorted(unused)}"


def test_every_constant_appears_on_a_methodology_page(site: Path, all_pages: list[Page]) -> None:
    # The reference page lists every constant by construction; the topic pages must too.
    topic_pages = [p for p in all_pages if p.name != "reference.html"]
    problems = missing_constants(topic_pages, snapshot_constant_names(site))
    assert not problems, "\n".join(problems)


def test_no_leftover_macro_syntax_or_macro_error(every_page: list[Page]) -> None:
    # The published Python source (source/) is code, not a rendered template.
    rendered = [p for p in every_page if not p.name.startswith("source/")]
    problems = [problem for page in rendered for problem in template_leftovers(page)]
    assert not problems, "\n".join(problems)


def test_every_formula_is_mathml(all_pages: list[Page]) -> None:
    problems = [problem for page in all_pages for problem in formula_problems(page)]
    assert not problems, "\n".join(problems)
    formulas = [f for page in all_pages for f in page.root.find_all(cls="formula")]
    assert formulas, "no formula found on any page"


def test_every_registered_formula_is_shown(site: Path, all_pages: list[Page]) -> None:
    data = json.loads((site / "methodology.json").read_text(encoding="utf-8"))
    shown = {
        f.attrs["data-mv"].removeprefix("formula:")
        for page in all_pages
        if page.name != "reference.html"
        for f in page.root.find_all(cls="formula")
    }
    missing = [f["name"] for f in data["formulas"] if f["name"] not in shown]
    assert not missing, f"formulas shown on no topic page: {missing}"


def test_no_asset_from_another_host(site: Path, every_page: list[Page]) -> None:
    problems = external_assets(site, every_page)
    assert not problems, "\n".join(problems)


def test_no_mathjax_katex_or_font_service(site: Path) -> None:
    for path in sorted(site.rglob("*.html")):  # the text is enough: none parsed
        html = path.read_text(encoding="utf-8").lower()
        for name in ("mathjax", "katex", "fonts.googleapis", "fonts.gstatic"):
            assert name not in html, f"{path.relative_to(site)} mentions {name}"


def test_links_and_assets_resolve(site: Path, all_pages: list[Page]) -> None:
    problems = broken_links(site, all_pages)
    assert not problems, "\n".join(problems)


def test_published_snapshot_and_schema(site: Path) -> None:
    from contracts.build import build_snapshot
    from contracts.model import Methodology
    from contracts.store import snapshot_text

    text = (site / "methodology.json").read_text(encoding="utf-8")
    live = build_snapshot()
    # In the committed file form: a site built from a release publishes that release's bytes.
    assert text == snapshot_text(live)
    published = json.loads(text)
    published.pop("_generated")
    assert published == live.model_dump(mode="json")
    schema = json.loads((site / "methodology.schema.json").read_text(encoding="utf-8"))
    assert Methodology.model_json_schema()["properties"].keys() <= schema["properties"].keys()
    Methodology.model_validate(published)


def test_every_published_snapshot_validates_against_the_published_schema(site: Path) -> None:
    """A reader who downloads the schema can validate what the site publishes with it: the
    live ``methodology.json`` and each released snapshot (with its ``_generated`` note)."""
    import jsonschema

    schema = json.loads((site / "methodology.schema.json").read_text(encoding="utf-8"))
    published = [site / "methodology.json", *sorted((site / "versions").glob("[0-9]*.json"))]
    assert len(published) >= 2
    for path in published:
        errors = list(
            jsonschema.Draft202012Validator(schema).iter_errors(json.loads(path.read_text()))
        )
        assert not errors, f"{path.name}: {errors[0].message}"


def test_downloads_are_published(site: Path) -> None:
    for name in ("sample-runs.jsonl", "sample-outcomes.jsonl", "sample-runs-bad.jsonl"):
        text = (site / "downloads" / name).read_text(encoding="utf-8")
        assert all(json.loads(line) for line in text.splitlines() if line.strip() and "{" in line)
    trials = (site / "data" / "tau-bench-gpt-4o-airline.jsonl").read_text(encoding="utf-8")
    assert len(trials.splitlines()) == 200
    assert "MIT License" in (site / "data" / "tau-bench-LICENSE.txt").read_text(encoding="utf-8")


def test_values_are_marked_and_linked_to_their_source(site: Path, all_pages: list[Page]) -> None:
    reference = next(p for p in all_pages if p.name == "reference.html")
    links = reference.root.find_all("a", cls="source")
    assert links
    for link in links:
        # href="source/scoring/constants.py.html#L-98", text "scoring/constants.py:98"
        path, _, anchor = link.attrs["href"].partition("#")
        file, _, line = link.text().rpartition(":")
        assert path == f"source/{file}.html"
        assert anchor == f"L-{line}"
        page = (site / path).read_text(encoding="utf-8")
        assert f'id="{anchor}"' in page, f"{path} has no line anchor {anchor}"
    constants = [
        n
        for p in all_pages
        for n in p.root.find_all(cls="mv")
        if n.attrs.get("data-mv", "").startswith("constant:")
    ]
    assert constants
    assert all(n.attrs.get("href", "").startswith("reference.html#constant-") for n in constants)


def test_terms_have_tooltips(all_pages: list[Page]) -> None:
    titles = {
        n.text(): n.attrs.get("title", "") for p in all_pages for n in p.root.find_all("abbr")
    }
    for term in ("pass^k", "p50"):
        assert titles.get(term), f"no tooltip for {term}"


def test_macro_names_are_declared_in_step() -> None:
    # The one list is macros.MACROS_BY_MODULE; each module registers its own (macros.<module>
    # .MACROS). tests/site/test_macro_names.py checks both against each other and the pages.
    package = import_macros("macros")
    registered = [n for m in package.MACROS_BY_MODULE for n in package.module_macros(m)]
    assert sorted(package.MACRO_NAMES) == sorted(registered)


def test_versions_page_lists_what_changed_between_two_releases() -> None:
    from contracts.build import build_snapshot

    history = import_macros("macros.history")
    old = build_snapshot()
    changed = [
        e.model_copy(update={"value": 7}) if e.name == "radar.window_runs" else e
        for e in old.constants
    ]
    new = old.model_copy(update={"methodology_version": "9.0.0", "constants": changed})
    releases = [
        SimpleNamespace(
            version=old.methodology_version, date="2026-01-01", changes="a", snapshot=old
        ),
        SimpleNamespace(version="9.0.0", date="2026-02-01", changes="b", snapshot=new),
    ]
    # A path may wrap at its dots and brackets (<wbr>); its text is the path.
    html = history.between_versions(releases).replace("<wbr>", "")
    assert "constants[radar.window_runs].value" in html
    assert "methodology_version" in html
    changelog = history.changelog(releases)
    assert changelog.index("9.0.0") < changelog.index(old.methodology_version)
