"""Every built page in headless Chromium: no console errors, nothing fetched from another
host, formulas laid out, plots visible, no sideways scrolling on a phone, and screenshots
(desktop and phone) saved to ``artifacts/screenshots/`` for a person to look at: each page's
first screen, or the whole page with ``SITE_SCREENSHOTS=full`` (see :data:`FULL_SHOTS`).

Driven through the ``chromium`` fixture of ``tests/site/conftest.py``. Each page is read from
the session's shared loads (``page_loads.py``) at the desktop size (1280×900) and on the
phone of those loads (360×800, the reading widths' phone), so that no other read-only test
loads it again at either size; a test that clicks or types loads its own page.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import page_loads
import pytest
from chromium_driver import (
    DESKTOP,
    LOCAL_PREFIXES,
    console_errors,
    load,
    requested_urls,
    save_screenshot,
    serve,
    wait_for,
)
from page_loads import THEME_READY
from support import ROOT, built_site

# Headless Chromium over the built site: the slowest tests of the suite.
pytestmark = pytest.mark.slow
#: The phone of the shared page loads (``page_loads.PHONE``, 360×800): the reading widths
#: are measured on the same load.
PHONE = page_loads.PHONE
MAX_SHOT_HEIGHT = 9000
#: Whether a page's screenshot is the whole page (up to MAX_SHOT_HEIGHT), where
#: ``SITE_SCREENSHOTS=full``, or by default its first screen at the size: a shot beyond the
#: window has Chromium lay the page out again at its full height and paint all of it, about
#: 17 s of the 34 shots (41.7 s → 24.6 s for this file alone, ``-n0``), for pictures that
#: no test reads.
FULL_SHOTS = os.environ.get("SITE_SCREENSHOTS") == "full"
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
PAGES = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))

#: What the checks of a page read from its layout: each formula's and each shown plot's
#: size (a plot folded in a closed <details>, an older release's chart, is not laid out),
#: the formulas the markup holds, how far the page scrolls sideways, and its height.
LAYOUT_JS = """
const sizes = selector => Array.from(document.querySelectorAll(selector)).map(e => {
  const r = e.getBoundingClientRect(); return [r.width, r.height]; });
const root = document.documentElement;
return {maths: sizes('math'), formulas: document.querySelectorAll('.formula').length,
  plots: sizes('figure.plot svg:not(details:not([open]) svg)'),
  overflow: root.scrollWidth - root.clientWidth, height: root.scrollHeight};
"""
page_loads.script("browser.layout", LAYOUT_JS, sizes={page_loads.DESKTOP, PHONE})


def _shot_of_the_load(
    chromium: Any, url: str, size: page_loads.Size, scripts: dict[str, Any]
) -> Path | None:
    """The page (see :data:`FULL_SHOTS`) of a shared load, named by page and device; none
    of a page the site has no source for (a test's spoiled page)."""
    name = url.rsplit("/", 1)[-1].removesuffix(".html")
    if name not in PAGES:
        return None
    path = SCREENSHOTS / f"{name}-{'phone' if size.mobile else 'desktop'}.png"
    height = min(
        scripts["browser.layout"]["height"], MAX_SHOT_HEIGHT if FULL_SHOTS else size.height
    )
    save_screenshot(chromium, path, (0, 0, size.width, height), beyond=FULL_SHOTS)
    return path


page_loads.action("browser.screenshot", _shot_of_the_load, sizes={page_loads.DESKTOP, PHONE})


def _load(chromium: Any, url: str) -> None:
    load(chromium, url)
    # Waited for, not slept on: the theme's script has wrapped the tables.
    wait_for(chromium, THEME_READY)


def _screenshot(chromium: Any, path: Path, width: int) -> None:
    """The whole page (up to MAX_SHOT_HEIGHT) at ``width``."""
    height = chromium.execute_script("return document.documentElement.scrollHeight")
    save_screenshot(chromium, path, (0, 0, width, min(height, MAX_SHOT_HEIGHT)))


def _sizes(chromium: Any, selector: str) -> list[list[float]]:
    return chromium.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0])).map(e => {"
        "const r = e.getBoundingClientRect(); return [r.width, r.height]; });",
        selector,
    )


def _foreign(urls: list[str], site_prefix: str) -> list[str]:
    """Of ``urls`` requested, those that are neither the site's nor local."""
    return [u for u in urls if not u.startswith((*LOCAL_PREFIXES, site_prefix))]


@pytest.mark.parametrize("name", PAGES)
def test_page_in_browser(chromium: Any, base_url: str, name: str) -> None:
    """The page at the desktop size and on a phone, each from the session's shared load of
    the page at that size (``page_loads``)."""
    url = f"{base_url}{name}.html"

    def measured(size: page_loads.Size, what: str) -> Any:
        return page_loads.measured(chromium, url, size, what)

    desktop = page_loads.DESKTOP
    errors = measured(desktop, "console_errors")
    assert not errors, f"{name}: console errors:\n" + "\n".join(errors)

    foreign = _foreign(measured(desktop, "requested_urls"), base_url)
    assert not foreign, f"{name}: requests to another host: {foreign}"

    layout = measured(desktop, "browser.layout")
    maths = layout["maths"]
    assert all(w > 0 and h > 0 for w, h in maths), f"{name}: a formula is not laid out: {maths}"
    assert len(maths) >= layout["formulas"]
    plots = layout["plots"]
    assert all(w > 100 and h > 50 for w, h in plots), f"{name}: a plot is not visible: {plots}"
    assert measured(desktop, "browser.screenshot") == SCREENSHOTS / f"{name}-desktop.png"

    phone = measured(PHONE, "browser.layout")
    overflow = phone["overflow"]
    assert overflow <= 1, f"{name}: the page scrolls sideways on a phone by {overflow}px"
    assert all(w > 100 for w, _ in phone["plots"]), f"{name}: a plot collapses on a phone"
    assert measured(PHONE, "browser.screenshot") == SCREENSHOTS / f"{name}-phone.png"
    errors = measured(PHONE, "console_errors")
    assert not errors, f"{name} (phone): console errors:\n" + "\n".join(errors)
    foreign = _foreign(measured(PHONE, "requested_urls"), base_url)
    assert not foreign, f"{name} (phone): requests to another host: {foreign}"


def test_dark_theme_toggle(chromium: Any, base_url: str) -> None:
    _load(chromium, f"{base_url}composite.html")
    scheme = "return document.body.getAttribute('data-md-color-scheme')"
    before = chromium.execute_script(scheme)
    toggle = chromium.find_element(
        "css selector", "form[data-md-component=palette] label:not([hidden])"
    )
    toggle.click()
    # The toggle's script has run once the scheme differs (waited for, not slept on).
    wait_for(chromium, f"{scheme} !== {json.dumps(before)}")
    after = chromium.execute_script(scheme)
    assert {before, after} == {"default", "slate"}
    if after == "slate":
        _screenshot(chromium, SCREENSHOTS / "composite-dark.png", DESKTOP[0])
    with contextlib.suppress(Exception):
        chromium.find_element(
            "css selector", "form[data-md-component=palette] label:not([hidden])"
        ).click()


def _search(chromium: Any, words: str, limit_s: float = 10) -> list[Any]:
    """Type ``words`` into the search box; the result items once some show (or none)."""
    box = chromium.find_element("css selector", "input.md-search__input")
    box.click()
    box.send_keys(words)
    script = "return document.querySelectorAll('.md-search-result__item').length"
    with contextlib.suppress(AssertionError):  # none within the limit: the caller says so
        wait_for(chromium, script, limit_s)
    return list(chromium.find_elements("css selector", ".md-search-result__item"))


def test_search_works_offline(chromium: Any, base_url: str) -> None:
    _load(chromium, f"{base_url}index.html")
    results = _search(chromium, "consistency")
    assert results, "search found nothing for 'consistency'"
    foreign = _foreign(requested_urls(chromium), base_url)
    assert not foreign, f"search: requests to another host: {foreign}"


def test_a_tap_on_the_coverage_map_shows_the_figure_in_full(chromium: Any, base_url: str) -> None:
    """A figure of the coverage map, tapped: a row under its row says it in full (its title:
    the cell, the target, whether it is met); tapped again, the row goes."""
    _load(chromium, f"{base_url}uncertainty.html")
    cell = chromium.find_element("css selector", "table.coverage-map tbody td[title]")
    chromium.execute_script("arguments[0].scrollIntoView({block: 'center'})", cell)
    title = cell.get_attribute("title")
    cell.click()
    shown = chromium.find_elements("css selector", "table.coverage-map tr.cov-shown")
    assert [row.text for row in shown] == [title]
    assert "✓" in title or "✗" in title
    cell.click()
    assert not chromium.find_elements("css selector", "table.coverage-map tr.cov-shown")


#: How long the theme's script is given to ask for the repository's facts (s).
WIDGET_WAIT_S = 10


def test_the_themes_repository_widget_would_be_reported(
    chromium: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A copy of a page whose repository link is the theme's widget again (marked
    ``data-md-component="source"``, as the theme's own partial marks it): the theme's script
    asks GitHub's API for the repository's stars, and the check of the pages' requests to
    another host reports it. The site's link (docs/overrides/partials/source.html) is
    plain."""
    dest = tmp_path_factory.mktemp("repository-widget") / "site"
    shutil.copytree(built_site(tmp_path_factory), dest)
    page = dest / "index.html"
    html = page.read_text(encoding="utf-8")
    assert 'class="md-source"' in html
    assert 'data-md-component="source"' not in html
    page.write_text(
        html.replace('class="md-source"', 'class="md-source" data-md-component="source"'),
        encoding="utf-8",
    )
    with serve(dest) as url:
        _load(chromium, f"{url}index.html")
        foreign: list[str] = []
        deadline = time.monotonic() + WIDGET_WAIT_S
        while not foreign and time.monotonic() < deadline:
            foreign += _foreign(requested_urls(chromium), url)
            time.sleep(0.1)
    assert any("api.github.com" in u for u in foreign), foreign


def test_a_file_copy_works(chromium: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Opened from the file system (file://): no errors, nothing remote, search still works."""
    site = built_site(tmp_path_factory)
    _load(chromium, (site / "composite.html").as_uri())
    results = _search(chromium, "consistency")
    assert results, "search found nothing from a file:// copy"
    errors = console_errors(chromium)
    assert not errors, "file://: console errors:\n" + "\n".join(errors)
    foreign = _foreign(requested_urls(chromium), "file:")
    assert not foreign, f"file://: requests to another host: {foreign}"
    assert all(w > 0 and h > 0 for w, h in _sizes(chromium, "math"))
