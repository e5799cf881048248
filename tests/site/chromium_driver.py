"""Headless Chromium for the browser tests of the site, and the helpers they share.

A new browser test asks for the ``chromium`` fixture (``tests/site/conftest.py``) and marks
itself ``@pytest.mark.slow``; it does not start a driver of its own. The fixture gives one
selenium driver for the whole session: Debian's ``chromium`` driven by ``chromedriver`` (or
the browser and driver named by ``CHROME_BIN`` and ``CHROMEDRIVER``; the GitHub workflow
sets them), headless, with a fresh profile, a ``DESKTOP`` window and the console
(``browser``) and network (``performance``) logs on. Each test gets it with both logs
emptied and the window back at ``DESKTOP``, so what a test reads from the logs is its own.

The driver's path is handed to selenium, so selenium-manager downloads nothing. Without the
browser, the driver or the selenium package a test that asks for ``chromium`` is skipped with
the reason, except where the environment variable ``CI`` is set: there it fails, so that CI
never passes by running no browser test.
"""

from __future__ import annotations

import base64
import contextlib
import importlib
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

# Debian's paths; CHROME_BIN and CHROMEDRIVER name others.
CHROMIUM = os.environ.get("CHROME_BIN", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
# Headless, no sandbox (containers run as root), and nothing the browser would fetch on its
# own (updates, sync, QUIC probes): the tests check that the site fetches nothing remote.
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
    # Screenshots measured pixel by pixel read the same colours on every machine.
    "--force-color-profile=srgb",
)
DESKTOP = (1280, 900)
#: Options of every ``Page.captureScreenshot``: the PNG encoded for speed, not size. PNG is
#: lossless at any compression level, so the pixels are the same (a larger file); a 9000 px
#: page is shot in 0.5-0.7 s instead of 1.1 s on a 2-core machine.
SHOT_OPTIONS = {"optimizeForSpeed": True}
PAGE_LOAD_TIMEOUT_S = 30
# Requests that never leave the machine: inline data and the browser's own pages.
LOCAL_PREFIXES = ("data:", "blob:", "about:", "chrome:", "chrome-untrusted:")


def missing(*modules: str) -> str | None:
    """Why no browser test can run here (what to install), or ``None`` when all is present:
    the browser, its driver, selenium and the other Python ``modules`` a test names."""
    for path in (CHROMIUM, CHROMEDRIVER):
        if not (Path(path).exists() or shutil.which(Path(path).name)):
            return f"{path} not found: apt-get install -y chromium chromium-driver"
    for module in ("selenium", *modules):
        try:
            importlib.import_module(module)
        except ImportError:
            return f"the {module} package is not installed (pip install -e '.[dev]')"
    return None


def require(*modules: str) -> None:
    """Return when a browser test can run (see :func:`missing`); otherwise skip it with the
    reason, or fail it where ``CI`` is set (a CI job without a browser must not pass by
    skipping)."""
    reason = missing(*modules)
    if reason is None:
        return
    if os.environ.get("CI"):
        pytest.fail(f"browser test cannot run in CI: {reason}")
    pytest.skip(reason)


def start(profile: Path) -> Any:
    """A headless Chromium with ``FLAGS``, its profile in ``profile``, both logs on."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.add_argument(f"--window-size={DESKTOP[0]},{DESKTOP[1]}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})

    class Driver(webdriver.Chrome):  # type: ignore[misc]
        def get(self, url: str) -> None:
            """Open ``url`` and return once its document has loaded (see :data:`_LEAVING_JS`).

            The console's entries so far are dropped, and :func:`console_errors` reads only
            those logged from now on: a page's late requests (its preload scanner's, say) may
            still log after its own test has read the console, and they are not the next
            page's errors."""
            self.execute_script(_LEAVING_JS)
            self.get_log("browser")
            self.console_since_ms = time.time() * 1000
            super().get(url)
            wait_for(self, _LOADED_JS, PAGE_LOAD_TIMEOUT_S)

    driver = Driver(service=Service(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(PAGE_LOAD_TIMEOUT_S)
    return driver


#: ``get`` returns, now and then, while the new document is still loading (chromedriver 150
#: on a busy machine: 9 of 60 loads of a file URL saw ``readyState`` "loading" and no script
#: run yet), or before the old one has gone. So the page being left is marked first, and
#: ``get`` waits for an unmarked document that has loaded: a new one, even when the URL is the
#: same as before.
_LEAVING_JS = "window.__leftByTheDriver = true;"
_LOADED_JS = "return !window.__leftByTheDriver && document.readyState === 'complete';"


def fresh(driver: Any) -> Any:
    """``driver`` with both logs emptied and the window at ``DESKTOP`` (between tests)."""
    driver.get_log("browser")
    driver.get_log("performance")
    size = driver.get_window_size()
    if (size["width"], size["height"]) != DESKTOP:
        driver.set_window_size(*DESKTOP)
    return driver


@contextlib.contextmanager
def emulating(driver: Any, width: int, height: int, *, mobile: bool) -> Iterator[None]:
    """For the block, the page laid out as on a device ``width`` × ``height`` CSS px (a
    phone where ``mobile``), at one device pixel per CSS px; the pages opened in the block
    are loaded at that size. A blank page is opened before the size changes each way: a
    loaded page would be laid out again for the change, up to a second for the reference
    page on a busy machine (the next page's load would unload it anyway)."""
    metrics = {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}
    if driver.current_url != "about:blank":  # blank already (after another such block)
        driver.get("about:blank")
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", metrics)
    try:
        yield
    finally:
        driver.get("about:blank")
        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


#: True once the page's displayed formulas are set on their lines for the window's width
#: (docs/javascripts/formulas.js marks the root when it is done), or the page has none.
FORMULAS_SET = (
    "return !document.querySelector('figure.formula')"
    " || document.documentElement.dataset.formulas === 'set'"
)


def load(driver: Any, url: str, timeout_s: float = 10) -> None:
    """Open ``url`` and wait until the page and its web fonts have loaded and its formulas
    are set on their lines (:data:`FORMULAS_SET`)."""
    driver.get(url)
    try:
        wait_for(driver, "return document.readyState === 'complete'", timeout_s)
    except AssertionError:
        raise AssertionError(f"{url} did not finish loading") from None
    driver.execute_async_script("document.fonts.ready.then(() => arguments[0]())")
    try:
        wait_for(driver, FORMULAS_SET, timeout_s)
    except AssertionError:
        raise AssertionError(f"{url}: its formulas were never set on their lines") from None


#: How often a wait asks its condition, in ms: by a timer of the page, with no round trip to
#: the driver between two asks (one ``execute_async_script`` a wait), so it can ask often.
POLL_MS = 10
#: The longest one in-page wait runs, in ms: under selenium's script timeout (30 s); a longer
#: wait asks again.
_POLL_LIMIT_MS = 20_000
# The condition's first truthy value, or its last falsy one at the limit; its error, if it
# throws (asked again by ``execute_script``, which raises it as selenium does).
_POLL_JS = f"""
const [body, limit, done] = arguments;
const until = Date.now() + limit;
let check;
try {{ check = new Function(body); }} catch (e) {{ done({{error: String(e)}}); return; }}
const poll = () => {{
  let value;
  try {{ value = check(); }} catch (e) {{ done({{error: String(e)}}); return; }}
  if (value || Date.now() >= until) done({{value: value === undefined ? null : value}});
  else setTimeout(poll, {POLL_MS});
}};
poll();
"""


def wait_for(driver: Any, script: str, timeout_s: float = 5) -> Any:
    """The first truthy value ``script`` returns; an AssertionError after ``timeout_s``.

    The page asks ``script`` every :data:`POLL_MS` ms itself and answers once; where that
    fails (the page navigates meanwhile, or the script throws), it is asked from here."""
    from selenium.common.exceptions import WebDriverException

    deadline = time.monotonic() + timeout_s
    while True:
        limit_ms = min(max(deadline - time.monotonic(), 0) * 1000, _POLL_LIMIT_MS)
        try:
            answer = driver.execute_async_script(_POLL_JS, script, limit_ms)
        except WebDriverException:  # the document went away while it waited
            answer = None
        if isinstance(answer, dict) and "value" in answer:
            value = answer["value"]
        else:
            value = driver.execute_script(script)  # raises what the script throws
            if not value:
                time.sleep(POLL_MS / 1000)  # asked from here: not in a tight loop
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for: {script}")


def console_errors(driver: Any) -> list[str]:
    """The console's errors since the log was last read (reading empties it), of the page
    opened last and after (``Driver.get``)."""
    since = getattr(driver, "console_since_ms", 0)
    return [
        e["message"]
        for e in driver.get_log("browser")
        if e["level"] == "SEVERE" and e["timestamp"] >= since
    ]


def requested_urls(driver: Any) -> list[str]:
    """Every URL requested since the network log was last read (reading empties it)."""
    urls = []
    for entry in driver.get_log("performance"):
        message = json.loads(entry["message"])["message"]
        if message.get("method") == "Network.requestWillBeSent":
            urls.append(message["params"]["request"]["url"])
    return urls


def save_screenshot(
    driver: Any, path: Path, box: tuple[float, float, float, float], *, beyond: bool = True
) -> None:
    """A PNG of the page's ``(x, y, width, height)`` box at ``path``: also below the fold
    where ``beyond`` (the page laid out and painted at its full height for it), else of
    what the window shows (one paint: the box must be in the window)."""
    x, y, width, height = box
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot",
        {
            "format": "png",
            "captureBeyondViewport": beyond,
            "clip": {"x": x, "y": y, "width": width, "height": height, "scale": 1},
            **SHOT_OPTIONS,
        },
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(base64.b64decode(shot["data"]))


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def serve(site: Path, handler: type[SimpleHTTPRequestHandler] = _QuietHandler) -> Iterator[str]:
    """The built ``site`` over HTTP on a free local port (the URL ends with ``/``), for as
    long as the block runs; ``handler`` answers the requests (plain static files)."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(handler, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
