"""Page loads shared by the browser tests that only read a page: each page is loaded once per
size for all of them, and every measurement registered for that size is taken on that load.

A test module registers what it reads from a page at import, with :func:`script` (JavaScript
run in the page, a JSON-able value back) or :func:`action` (Python given the driver, e.g. a
screenshot); a test then asks :func:`measured` for its measurement of a page at a size.
The first to ask loads the page at that size (:data:`PHONE` or :data:`DESKTOP`, emulated),
waits for the theme's script (:data:`THEME_READY`), and takes every registered measurement
of that size on it: all the scripts in one ``execute_script`` round trip, then the actions;
the others are answered from what was kept. Each test still asserts its own thing on its
own measurement; a cache miss (a test run alone, or in any order) loads the page.

Each load also records, as measurements of its own:

- ``page``: the URL the scripts ran on and the window they saw (width, height, device
  pixels per CSS px); the load fails unless they are the ones asked for, so that what is
  kept is the page's, at its size;
- ``console_errors`` and ``requested_urls``: the console's errors and the requests from the
  start of the load to the end of the read-only measurements (both logs are emptied first).

A script or action that changes the page (clicks, types, restyles) is registered with
``mutates=True``: at most one a size, taken after the read-only ones (and after the logs are
read); a test that changes the page otherwise loads a page of its own. A measurement that
fails (a script's exception) fails the tests that ask for it, not the others.

The URL is the key with the size: the served site does not change during a session (a test
that spoils a page spoils a copy, served at another URL).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import chromium_driver
from chromium_driver import console_errors, emulating, load, requested_urls, wait_for


@dataclass(frozen=True)
class Size:
    """A device the page is laid out for, in CSS px (one device pixel per CSS px)."""

    width: int
    height: int
    mobile: bool

    def __str__(self) -> str:
        return f"{self.width}×{self.height}"


#: The one phone of the shared loads: 360 px, the narrowest phone the site is laid out for
#: (the stricter of the widths the browser tests used, 360 and 390).
PHONE = Size(360, 800, mobile=True)
#: The desktop window, emulated like the phone (the headless window itself shows 1280×757:
#: its height less the browser's own bars).
DESKTOP = Size(*chromium_driver.DESKTOP, mobile=False)

#: True once the theme's script has run on the page: its observables exist and it has wrapped
#: every plain table of the article (Material wraps ``table:not([class])`` to scroll it).
THEME_READY = (
    "return typeof window.component$ !== 'undefined' && Array.from("
    "document.querySelectorAll('article table:not([class])'))"
    ".every(t => t.closest('.md-typeset__scrollwrap'))"
)

#: What every load reports of itself (the ``page`` measurement): its URL, and the window it
#: was laid out for, its root's box (a phone's visual viewport may widen where a page
#: overflows, its layout viewport does not), and the device pixels a CSS px.
_PAGE_JS = (
    "return [location.href, document.documentElement.clientWidth,"
    " document.documentElement.clientHeight, devicePixelRatio]"
)

Action = Callable[[Any, str, "Size", dict[str, Any]], Any]


@dataclass(frozen=True)
class _Measurement:
    sizes: frozenset[Size]
    body: str | None  # a script's body (``arguments`` are ``args``) or None for an action
    args: tuple[Any, ...]
    action: Action | None
    mutates: bool


@dataclass(frozen=True)
class Failed:
    """A measurement that raised: its error, raised again for each test that asks for it."""

    error: str


REGISTERED: dict[str, _Measurement] = {}
#: Per (URL, size) loaded: each measurement's value (or :class:`Failed`).
KEPT: dict[tuple[str, Size], dict[str, Any]] = {}


#: The measurements of every load (see the module's docstring).
_OWN = ("page", "console_errors", "requested_urls")


def _register(name: str, measurement: _Measurement) -> None:
    if name in _OWN:
        raise ValueError(f"{name!r} is a measurement of every load")
    if REGISTERED.get(name, measurement) != measurement:
        raise ValueError(f"two page measurements are named {name!r}")
    if measurement.mutates and any(
        m.mutates and m.sizes & measurement.sizes and n != name for n, m in REGISTERED.items()
    ):
        raise ValueError(f"{name!r}: a second measurement that changes the page at a size")
    REGISTERED[name] = measurement


def script(name: str, body: str, *args: Any, sizes: set[Size], mutates: bool = False) -> None:
    """Run the JavaScript ``body`` (``return`` a JSON-able value; ``arguments`` are ``args``)
    on every page loaded at one of ``sizes``, as the measurement ``name``."""
    _register(name, _Measurement(frozenset(sizes), body, args, None, mutates))


def action(name: str, take: Action, *, sizes: set[Size], mutates: bool = False) -> None:
    """Call ``take(driver, url, size, scripts)`` on every page loaded at one of ``sizes``, as
    the measurement ``name``; ``scripts`` holds the values of the scripts taken on that load."""
    _register(name, _Measurement(frozenset(sizes), None, (), take, mutates))


def _composite(names: list[str]) -> str:
    """One script that runs the scripts ``names`` and returns each one's value or error."""
    run = (
        "const out = {}; const run = (f, a) => { try { return {value: f.apply(null, a)}; }"
        " catch (e) { return {error: String((e && e.stack) || e)}; } };\n"
    )
    parts = [
        f"out[{json.dumps(n)}] = run(function () {{\n{REGISTERED[n].body}\n}}, "
        f"{json.dumps(list(REGISTERED[n].args))});\n"
        for n in names
    ]
    page = f"out.page = (function () {{ {_PAGE_JS} }})();\n"
    return run + "".join(parts) + page + "return out;"


def _take(driver: Any, take: Action, url: str, size: Size, scripts: dict[str, Any]) -> Any:
    try:
        return take(driver, url, size, scripts)
    except Exception as error:  # kept for the test that asks for it, raised there
        return Failed(f"{type(error).__name__}: {error}")


def _load_and_measure(driver: Any, url: str, size: Size) -> dict[str, Any]:
    here = {n: m for n, m in REGISTERED.items() if size in m.sizes}
    read = [n for n, m in here.items() if not m.mutates]
    changes = [n for n, m in here.items() if m.mutates]
    scripts = [n for n in read if here[n].body is not None]
    driver.get_log("browser")
    driver.get_log("performance")
    kept: dict[str, Any] = {}
    with emulating(driver, size.width, size.height, mobile=size.mobile):
        load(driver, url)
        wait_for(driver, THEME_READY)
        values = driver.execute_script(_composite(scripts))
        kept["page"] = values.pop("page")
        href, width, height, ratio = kept["page"]
        if (href, width, height, ratio) != (url, size.width, size.height, 1):
            raise AssertionError(
                f"the page measured is not the one asked for: {href} laid out for "
                f"{width}×{height} CSS px, {ratio} device px a CSS px; not {url} at {size}"
            )
        for n in scripts:
            outcome = values[n]
            kept[n] = Failed(outcome["error"]) if "error" in outcome else outcome.get("value")
        done = {n: v for n, v in kept.items() if not isinstance(v, Failed)}
        for n in read:
            if here[n].action is not None:
                kept[n] = _take(driver, here[n].action, url, size, done)
        kept["console_errors"] = console_errors(driver)
        kept["requested_urls"] = requested_urls(driver)
        for n in changes:  # at most one (see _register)
            if here[n].body is not None:
                outcome = driver.execute_script(_composite([n]))[n]
                kept[n] = Failed(outcome["error"]) if "error" in outcome else outcome.get("value")
            else:
                kept[n] = _take(driver, here[n].action, url, size, done)  # type: ignore[arg-type]
    return kept


def measured(driver: Any, url: str, size: Size, name: str) -> Any:
    """The measurement ``name`` of the page at ``url`` loaded at ``size``: kept from the
    session's load of that page at that size, or taken on a new one (with all the others)."""
    if name not in REGISTERED and name not in _OWN:
        raise KeyError(f"no page measurement is named {name!r}")
    kept = KEPT.get((url, size))
    if kept is None or name not in kept:
        kept = KEPT[(url, size)] = _load_and_measure(driver, url, size)
    value = kept[name]
    if isinstance(value, Failed):
        raise AssertionError(f"{name} of {url} at {size} failed: {value.error}")
    return value
