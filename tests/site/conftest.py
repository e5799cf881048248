"""Fixtures of the site tests.

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
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import chromium_driver
import pytest


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
