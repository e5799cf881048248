"""Every built page in headless Chromium: no console errors, nothing fetched from another
host, formulas laid out, plots visible, no sideways scrolling on a phone, and screenshots
(desktop and phone) saved to ``artifacts/screenshots/`` for a person to look at.

Needs Debian's ``chromium`` and ``chromium-driver`` (or the browser and driver named by
``CHROME_BIN`` and ``CHROMEDRIVER``); the driver path is given to selenium, so
selenium-manager downloads nothing. Without them the test is skipped, except where the
environment variable ``CI`` is set: there it fails.
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import shutil
import threading
import time
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from support import ROOT, built_site

# Debian's paths; CHROME_BIN and CHROMEDRIVER name others (the GitHub workflow sets them).
CHROMIUM = os.environ.get("CHROME_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
    "--hide-scrollbars",
)

# Headless Chromium over the built site: the slowest tests of the suite.
pytestmark = pytest.mark.slow
# Requests that never leave the machine: inline data and the browser's own pages.
LOCAL_PREFIXES = ("data:", "blob:", "about:", "chrome:", "chrome-untrusted:")
DESKTOP = (1280, 900)
PHONE = (390, 844)
MAX_SHOT_HEIGHT = 9000
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
PAGES = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))


def _missing() -> str | None:
    for path in (CHROMIUM, CHROMEDRIVER):
        if not (Path(path).exists() or shutil.which(Path(path).name)):
            return f"{path} not found: apt-get install -y chromium chromium-driver"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "the selenium package is not installed"
    return None


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    site = built_site(tmp_path_factory)
    handler = partial(_QuietHandler, directory=str(site))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def driver(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    reason = _missing()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"browser test cannot run in CI: {reason}")
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}")
    options.add_argument(f"--window-size={DESKTOP[0]},{DESKTOP[1]}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    browser = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    browser.set_page_load_timeout(30)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    yield browser
    browser.quit()


def _load(driver: Any, url: str) -> None:
    driver.get(url)
    deadline = time.monotonic() + 10
    while driver.execute_script("return document.readyState") != "complete":
        if time.monotonic() > deadline:
            raise AssertionError(f"{url} did not finish loading")
        time.sleep(0.05)
    # Let the theme's script run (tables wrapped, search index loaded).
    time.sleep(0.3)


def _screenshot(driver: Any, path: Path, width: int) -> None:
    height = driver.execute_script("return document.documentElement.scrollHeight")
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot",
        {
            "format": "png",
            "captureBeyondViewport": True,
            "clip": {
                "x": 0,
                "y": 0,
                "width": width,
                "height": min(height, MAX_SHOT_HEIGHT),
                "scale": 1,
            },
        },
    )
    path.write_bytes(base64.b64decode(shot["data"]))


def _requests(driver: Any) -> list[str]:
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def _sizes(driver: Any, selector: str) -> list[list[float]]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0])).map(e => {"
        "const r = e.getBoundingClientRect(); return [r.width, r.height]; });",
        selector,
    )


@pytest.mark.parametrize("name", PAGES)
def test_page_in_browser(driver: Any, base_url: str, name: str) -> None:
    url = f"{base_url}{name}.html"
    driver.get_log("browser")
    driver.get_log("performance")
    _load(driver, url)

    errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, f"{name}: console errors:\n" + "\n".join(errors)

    foreign = [u for u in _requests(driver) if not u.startswith((*LOCAL_PREFIXES, base_url))]
    assert not foreign, f"{name}: requests to another host: {foreign}"

    maths = _sizes(driver, "math")
    assert all(w > 0 and h > 0 for w, h in maths), f"{name}: a formula is not laid out: {maths}"
    expected_math = driver.execute_script("return document.querySelectorAll('.formula').length")
    assert len(maths) >= expected_math
    plots = _sizes(driver, "figure.plot svg")
    assert all(w > 100 and h > 50 for w, h in plots), f"{name}: a plot is not visible: {plots}"

    _screenshot(driver, SCREENSHOTS / f"{name}-desktop.png", DESKTOP[0])

    driver.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 1, "mobile": True},
    )
    try:
        _load(driver, url)
        overflow = driver.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 1, f"{name}: the page scrolls sideways on a phone by {overflow}px"
        phone_plots = _sizes(driver, "figure.plot svg")
        assert all(w > 100 for w, _ in phone_plots), f"{name}: a plot collapses on a phone"
        _screenshot(driver, SCREENSHOTS / f"{name}-phone.png", PHONE[0])
    finally:
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, f"{name} (phone): console errors:\n" + "\n".join(errors)


def test_dark_theme_toggle(driver: Any, base_url: str) -> None:
    _load(driver, f"{base_url}composite.html")
    scheme = "return document.body.getAttribute('data-md-color-scheme')"
    before = driver.execute_script(scheme)
    toggle = driver.find_element(
        "css selector", "form[data-md-component=palette] label:not([hidden])"
    )
    toggle.click()
    time.sleep(0.3)
    after = driver.execute_script(scheme)
    assert {before, after} == {"default", "slate"}
    if after == "slate":
        _screenshot(driver, SCREENSHOTS / "composite-dark.png", DESKTOP[0])
    with contextlib.suppress(Exception):
        driver.find_element(
            "css selector", "form[data-md-component=palette] label:not([hidden])"
        ).click()


def _search(driver: Any, words: str, limit_s: float = 10) -> list[Any]:
    """Type ``words`` into the search box; the result items once some show (or none)."""
    box = driver.find_element("css selector", "input.md-search__input")
    box.click()
    box.send_keys(words)
    deadline = time.monotonic() + limit_s
    results: list[Any] = []
    while time.monotonic() < deadline and not results:
        results = driver.find_elements("css selector", ".md-search-result__item")
        time.sleep(0.1)
    return results


def test_search_works_offline(driver: Any, base_url: str) -> None:
    driver.get_log("performance")
    _load(driver, f"{base_url}index.html")
    results = _search(driver, "consistency")
    assert results, "search found nothing for 'consistency'"
    foreign = [u for u in _requests(driver) if not u.startswith((*LOCAL_PREFIXES, base_url))]
    assert not foreign, f"search: requests to another host: {foreign}"


def test_a_file_copy_works(driver: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Opened from the file system (file://): no errors, nothing remote, search still works."""
    site = built_site(tmp_path_factory)
    driver.get_log("browser")
    driver.get_log("performance")
    _load(driver, (site / "composite.html").as_uri())
    results = _search(driver, "consistency")
    assert results, "search found nothing from a file:// copy"
    errors = [e["message"] for e in driver.get_log("browser") if e["level"] == "SEVERE"]
    assert not errors, "file://: console errors:\n" + "\n".join(errors)
    foreign = [u for u in _requests(driver) if not u.startswith((*LOCAL_PREFIXES, "file:"))]
    assert not foreign, f"file://: requests to another host: {foreign}"
    assert all(w > 0 and h > 0 for w, h in _sizes(driver, "math"))
