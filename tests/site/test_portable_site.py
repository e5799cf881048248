"""The site works wherever it is put: the theme's 404 page under a sub-path at any depth
and from ``file://``; the sitemap is never published empty (``docs/macros/portable.py``)."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest
from chromium_driver import console_errors, load, serve, wait_for

pytestmark = pytest.mark.slow

SUB_PATH = "project"
# A custom property of the theme's palette: set only when its stylesheets loaded.
_STYLED = "return getComputedStyle(document.body).getPropertyValue('--md-primary-fg-color').trim()"
_HOME = "return document.querySelector('a.md-header__button.md-logo, a.md-logo').href"


class _LikeAPagesHost(SimpleHTTPRequestHandler):
    """Serves the folder; a missing path gets the site's 404.html, as GitHub Pages does."""

    not_found: Path

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        if code != 404:
            super().send_error(code, message, explain)
            return
        body = self.not_found.read_bytes()
        self.send_response(404)
        self.send_header("Content-Type", "text/html")  # no charset, as plain hosts send
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def under_a_sub_path(site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    root = tmp_path_factory.mktemp("host")
    shutil.copytree(site, root / SUB_PATH)
    handler = type("Handler", (_LikeAPagesHost,), {"not_found": root / SUB_PATH / "404.html"})
    with serve(root, handler) as url:
        yield url + SUB_PATH + "/"


# (missing path, at the top level): a page mistyped at the top level is the common case; a
# missing path inside one of the site's folders is found from the folder's name. (A folder
# the site does not have, /project/a/b, cannot tell how deep it is: not covered.)
MISSING = {
    "no-such-page.html": True,
    "source/scoring/no-such.py.html": False,
    "versions/9.9.9.json": False,
}


@pytest.mark.parametrize("missing", sorted(MISSING))
def test_the_404_page_is_styled_at_any_depth(
    chromium: Any, under_a_sub_path: str, missing: str
) -> None:
    url = under_a_sub_path + missing
    load(chromium, url)
    assert wait_for(chromium, _STYLED), missing
    assert chromium.execute_script(_HOME) in (under_a_sub_path, under_a_sub_path + "index.html")
    # The page's own status is logged. Deeper down, the browser's preload scanner, which
    # does not run the script that sets <base>, may first request a resource beside the
    # missing URL: a 404 too, then the right one loads. Nothing else may fail.
    others = [e for e in console_errors(chromium) if not e.startswith(url + " ")]
    if MISSING[missing]:
        assert others == []
    else:
        assert all("status of 404" in e for e in others), others


def test_the_404_page_is_styled_from_file(chromium: Any, site: Path) -> None:
    load(chromium, (site / "404.html").as_uri())
    assert wait_for(chromium, _STYLED)
    assert chromium.execute_script(_HOME).startswith(site.as_uri())
    assert console_errors(chromium) == []


def test_an_earlier_pages_console_errors_are_not_the_next_ones(
    chromium: Any, tmp_path: Path
) -> None:
    """An error the last page logged after its test read the console (a late 404 of its
    preload scanner, once) is not an error of the page opened next."""
    noisy, quiet = tmp_path / "noisy.html", tmp_path / "quiet.html"
    noisy.write_text("<script>console.error('from the earlier page')</script>", "utf-8")
    quiet.write_text("<p>quiet</p>", "utf-8")
    chromium.get(noisy.as_uri())  # its error logged, not read
    load(chromium, quiet.as_uri())
    assert console_errors(chromium) == []
    load(chromium, noisy.as_uri())
    assert any("from the earlier page" in e for e in console_errors(chromium))


def test_the_404_page_has_no_root_absolute_url(site: Path) -> None:
    page = (site / "404.html").read_text(encoding="utf-8")
    assert re.findall(r'\b(?:href|src)="/(?!/)[^"]*"', page) == []
    assert re.search(r"<meta charset=[^>]*>", page[:1024])


def test_no_empty_sitemap_is_published(site: Path) -> None:
    sitemap = site / "sitemap.xml"
    if sitemap.exists():  # with a site_url: every page, as absolute URLs
        assert sitemap.read_text(encoding="utf-8").count("<url>") >= 10
    else:
        assert not (site / "sitemap.xml.gz").exists()


@pytest.mark.parametrize("page", ["index.html", "composite.html", "source/scoring/cli.py.html"])
def test_the_pages_work_under_a_sub_path(chromium: Any, under_a_sub_path: str, page: str) -> None:
    load(chromium, under_a_sub_path + page)
    if not page.startswith("source/"):
        assert wait_for(chromium, _STYLED)
    assert console_errors(chromium) == []
