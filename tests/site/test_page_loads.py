"""The shared page loads of the browser tests (``page_loads.py``): a page is loaded once a
size for all the measurements of that size, asked again only after it is forgotten; a
measurement that throws fails the test that asks for it, and the others of that load stand.

The measurements here are registered for a size of their own (no other test loads a page
at it), so that they add nothing to the other tests' loads; each test removes its own."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import page_loads
import pytest

pytestmark = pytest.mark.slow

#: A size no other test measures at.
OWN = page_loads.Size(1000, 700, mobile=False)


@pytest.fixture
def registered() -> Iterator[list[str]]:
    """The names this test registers, removed afterwards with what was kept at :data:`OWN`."""
    names: list[str] = []
    yield names
    for name in names:
        page_loads.REGISTERED.pop(name, None)
    for key in [k for k in page_loads.KEPT if k[1] == OWN]:
        del page_loads.KEPT[key]


def _counting_loads(chromium: Any, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The URLs the driver opens from now on (blank pages left out)."""
    opened: list[str] = []
    get = chromium.get

    def counted(url: str) -> None:
        if url != "about:blank":
            opened.append(url)
        get(url)

    monkeypatch.setattr(chromium, "get", counted)
    return opened


def test_a_page_is_loaded_once_for_every_measurement_of_its_size(
    chromium: Any, base_url: str, registered: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    registered += ["test.title", "test.links"]
    page_loads.script("test.title", "return document.title", sizes={OWN})
    page_loads.script(
        "test.links", "return document.querySelectorAll(arguments[0]).length", "a", sizes={OWN}
    )
    opened = _counting_loads(chromium, monkeypatch)
    url = f"{base_url}composite.html"
    title = page_loads.measured(chromium, url, OWN, "test.title")
    links = page_loads.measured(chromium, url, OWN, "test.links")
    assert page_loads.measured(chromium, url, OWN, "page")[:3] == [url, OWN.width, OWN.height]
    assert opened == [url], opened
    assert title
    assert links > 0
    del page_loads.KEPT[(url, OWN)]  # forgotten: asked again, loaded again
    assert page_loads.measured(chromium, url, OWN, "test.title") == title
    assert opened == [url, url], opened


def test_a_measurement_that_throws_fails_its_asker_alone(
    chromium: Any, base_url: str, registered: list[str]
) -> None:
    registered += ["test.throws", "test.fine"]
    page_loads.script("test.throws", "throw new Error('spoiled on purpose')", sizes={OWN})
    page_loads.script("test.fine", "return location.pathname", sizes={OWN})
    url = f"{base_url}index.html"
    with pytest.raises(AssertionError, match=r"test\.throws .*spoiled on purpose"):
        page_loads.measured(chromium, url, OWN, "test.throws")
    assert page_loads.measured(chromium, url, OWN, "test.fine") == "/index.html"


def test_an_unknown_measurement_is_refused() -> None:
    with pytest.raises(KeyError, match="no page measurement is named"):
        page_loads.measured(None, "http://127.0.0.1/", OWN, "test.never-registered")
