"""Every built page in headless Chromium: no console errors, nothing fetched from another
host, formulas laid out, plots visible, no sideways scrolling on a phone, and screenshots
(desktop and phone) saved to ``artifacts/screenshots/`` for a person to look at.

Driven through the ``chromium`` fixture of ``tests/site/conftest.py``.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import pytest
from chromium_driver import (
    DESKTOP,
    LOCAL_PREFIXES,
    console_errors,
    emulating,
    load,
    requested_urls,
    save_screenshot,
    wait_for,
)
from support import ROOT, built_site

# Headless Chromium over the built site: the slowest tests of the suite.
pytestmark = pytest.mark.slow
PHONE = (390, 844)
MAX_SHOT_HEIGHT = 9000
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
PAGES = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))


#: True once the theme's script has run on the page: its observables exist and it has wrapped
#: every plain table of the article (Material wraps ``table:not([class])`` to scroll it).
THEME_READY = (
    "return typeof window.component$ !== 'undefined' && Array.from("
    "document.querySelectorAll('article table:not([class])'))"
    ".every(t => t.closest('.md-typeset__scrollwrap'))"
)


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


def _foreign(chromium: Any, site_prefix: str) -> list[str]:
    """The URLs requested since the log was read that are neither the site's nor local."""
    return [u for u in requested_urls(chromium) if not u.startswith((*LOCAL_PREFIXES, site_prefix))]


@pytest.mark.parametrize("name", PAGES)
def test_page_in_browser(chromium: Any, base_url: str, name: str) -> None:
    url = f"{base_url}{name}.html"
    _load(chromium, url)

    errors = console_errors(chromium)
    assert not errors, f"{name}: console errors:\n" + "\n".join(errors)

    foreign = _foreign(chromium, base_url)
    assert not foreign, f"{name}: requests to another host: {foreign}"

    maths = _sizes(chromium, "math")
    assert all(w > 0 and h > 0 for w, h in maths), f"{name}: a formula is not laid out: {maths}"
    expected_math = chromium.execute_script("return document.querySelectorAll('.formula').length")
    assert len(maths) >= expected_math
    # A plot folded in a closed <details> (an older release's chart) is not laid out.
    plots = _sizes(chromium, "figure.plot svg:not(details:not([open]) svg)")
    assert all(w > 100 and h > 50 for w, h in plots), f"{name}: a plot is not visible: {plots}"

    _screenshot(chromium, SCREENSHOTS / f"{name}-desktop.png", DESKTOP[0])

    with emulating(chromium, *PHONE, mobile=True):
        _load(chromium, url)
        overflow = chromium.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 1, f"{name}: the page scrolls sideways on a phone by {overflow}px"
        phone_plots = _sizes(chromium, "figure.plot svg:not(details:not([open]) svg)")
        assert all(w > 100 for w, _ in phone_plots), f"{name}: a plot collapses on a phone"
        _screenshot(chromium, SCREENSHOTS / f"{name}-phone.png", PHONE[0])
    errors = console_errors(chromium)
    assert not errors, f"{name} (phone): console errors:\n" + "\n".join(errors)


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
    foreign = _foreign(chromium, base_url)
    assert not foreign, f"search: requests to another host: {foreign}"


def test_a_file_copy_works(chromium: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Opened from the file system (file://): no errors, nothing remote, search still works."""
    site = built_site(tmp_path_factory)
    _load(chromium, (site / "composite.html").as_uri())
    results = _search(chromium, "consistency")
    assert results, "search found nothing from a file:// copy"
    errors = console_errors(chromium)
    assert not errors, "file://: console errors:\n" + "\n".join(errors)
    foreign = _foreign(chromium, "file:")
    assert not foreign, f"file://: requests to another host: {foreign}"
    assert all(w > 0 and h > 0 for w, h in _sizes(chromium, "math"))
