"""Fixtures of the site tests.

- ``site``: the site built from this repository with ``--strict``, once per session for
  every xdist worker (``tests/session_folders.py``); ``all_pages``: its methodology pages,
  parsed (``support.Page``). A test that uses either (or ``base_url``, or the browser) is
  marked ``slow`` by ``tests/conftest.py``, whatever its file says.

- ``base_url``: the built site served over HTTP on a local port for the session (the URL
  ends with ``/``); a ``file://`` test opens ``built_site(...)`` of ``support`` instead.

- ``chromium``: the session's headless Chromium (selenium driver), its logs emptied and its
  window at desktop size for each test; skipped with the reason where the browser, its
  driver or selenium is missing, failed instead where ``CI`` is set. Every browser test
  uses it (helpers in ``chromium_driver.py``); mark such a test ``@pytest.mark.slow``::

      pytestmark = pytest.mark.slow

      def test_a_page(chromium, tmp_path_factory):
          site = built_site(tmp_path_factory)  # from support
          chromium.get((site / "composite.html").as_uri())
          wait_for(chromium, "return document.readyState === 'complete'")
          assert console_errors(chromium) == []

  A test that only reads a page of ``base_url`` (no click, no typing, no restyling) reads it
  from the session's shared load of that page at a size (``page_loads.py``): it registers
  its script at import and asks ``page_loads.measured(chromium, url, size, name)``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import chromium_driver
import pytest
from support import Page, built_site, methodology_pages


@pytest.fixture(scope="session")
def _chromium_session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    chromium_driver.require()
    driver = chromium_driver.start(tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()


@pytest.fixture
def chromium(_chromium_session: Any) -> Any:
    """The session's headless Chromium, both logs empty, the window at desktop size."""
    return chromium_driver.fresh(_chromium_session)


@pytest.fixture(scope="session")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The built site over HTTP on a local port, for the whole session."""
    with chromium_driver.serve(built_site(tmp_path_factory)) as url:
        yield url


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built with ``--strict`` from this repository, once per session."""
    return built_site(tmp_path_factory)


@pytest.fixture(scope="session")
def all_pages(site: Path) -> list[Page]:
    """The built site's methodology pages, parsed."""
    return methodology_pages(site)
