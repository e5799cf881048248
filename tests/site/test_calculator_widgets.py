"""The readers' calculators as widgets, in headless Chromium from a ``file://`` copy of the
built site: the radar's sliders reproduce ``report --weights``, the composite and outcome
editors work by keyboard alone, and every calculator fits a phone with each control labelled
(screenshots in ``artifacts/screenshots/``).

The browser is the ``chromium`` fixture (see ``chromium_driver.py`` for when it skips).
"""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest
from calculator_cases import py_composite, py_outcome
from calculator_support import (
    CALCULATOR_PAGES,
    site as site,  # the module's file:// copy of the site
)
from chromium_driver import DESKTOP, console_errors, save_screenshot, wait_for
from support import ROOT

from scoring.cli import run as scoring_cli
from scoring.constants import Axis

pytestmark = pytest.mark.slow

PHONE_WIDTH = 375
SCREENSHOTS = ROOT / "artifacts" / "screenshots"


def _parse_weights(text: str) -> dict[str, int]:
    return {name: int(w) for name, w in (part.split("=") for part in text.split(","))}


VIEWER_WEIGHTS = "correctness=2,cost=1"


def _by_profile(agents: list[tuple[str, float | None]]) -> list[tuple[str, float | None]]:
    """The report's agents in the calculator's order: by profile, highest first, agents
    without one last, ties by id (the report itself lists them by composite)."""
    return sorted(agents, key=lambda a: (a[1] is None, -(a[1] or 0), a[0]))


def test_sliders_reproduce_the_report_with_viewer_weights(chromium: Any, site: Path) -> None:
    """Keyboard only: each slider focused, Home, then → as many times as its weight."""
    from selenium.webdriver.common.keys import Keys

    stdout, stderr = io.StringIO(), io.StringIO()
    runs = site / "downloads" / "sample-runs.jsonl"
    status = scoring_cli(
        ["report", str(runs), "--weights", VIEWER_WEIGHTS, "--format", "json"],
        stdout=stdout,
        stderr=stderr,
    )
    assert status == 0, stderr.getvalue()
    agents = json.loads(stdout.getvalue())["agents"]
    want = _by_profile([(a["agent_id"], a["radar"]["profile"]) for a in agents])

    chromium.get((site / "radar.html").as_uri())
    wait_for(
        chromium, "return !document.querySelector('section.calc[data-calculator=radar]').hidden"
    )
    weights = _parse_weights(VIEWER_WEIGHTS)
    for axis in Axis:
        slider = chromium.find_element("id", f"calc-radar-w-{axis.value}")
        # The same keystrokes, sent in one command (one round trip to the browser).
        slider.send_keys(Keys.HOME, *[Keys.ARROW_RIGHT] * weights.get(axis.value, 0))
    rows = chromium.execute_script(
        "return Array.from(document.querySelectorAll('.calc-ranking tbody tr')).map(tr =>"
        " [tr.dataset.agent, tr.querySelector('[data-profile]').dataset.profile]);"
    )
    got = [(agent, None if p == "null" else float(p)) for agent, p in rows]
    assert got == want, f"sliders {got} != report --weights {VIEWER_WEIGHTS} {want}"
    command = chromium.find_element("css selector", '[data-out="command"]').text
    assert command.endswith(f"--weights {VIEWER_WEIGHTS}"), command
    screenshot(chromium, "section.calc", SCREENSHOTS / "calculator-radar-viewer-weights.png")

    # And the default positions give the report without --weights.
    chromium.find_element("css selector", ".calc-reset").send_keys(Keys.ENTER)
    stdout = io.StringIO()
    assert scoring_cli(["report", str(runs), "--format", "json"], stdout=stdout) == 0
    default = _by_profile(
        [(a["agent_id"], a["radar"]["profile"]) for a in json.loads(stdout.getvalue())["agents"]]
    )
    rows = chromium.execute_script(
        "return Array.from(document.querySelectorAll('.calc-ranking tbody tr')).map(tr =>"
        " [tr.dataset.agent, tr.querySelector('[data-profile]').dataset.profile]);"
    )
    got = sorted((agent, None if p == "null" else float(p)) for agent, p in rows)
    assert got == sorted(default)


def test_composite_widget_by_keyboard(chromium: Any, site: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    chromium.get((site / "composite.html").as_uri())
    wait_for(chromium, "return !document.querySelector('section.calc').hidden")
    fields = {
        "completed_runs": "5",
        "successes": "4",
        "mean_latency_ms": "2000",
        "mean_cost_usd": "0.010",
    }
    for name, text in fields.items():
        box = chromium.find_element("id", f"calc-composite-{name.replace('_', '-')}")
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys(text)
    shown = chromium.find_element("css selector", '[data-out="score"]').text
    want = py_composite({k: json.loads(v) for k, v in fields.items()})["score"]
    assert float(shown) == want
    error = chromium.find_element("id", "calc-composite-error")
    assert not error.is_displayed()
    box = chromium.find_element("id", "calc-composite-successes")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys("6")  # more successes than completed runs
    assert error.is_displayed()
    # The field by the label the reader sees, not by its name in the code.
    assert error.text.startswith("Successful runs: "), error.text


def screenshot(chromium: Any, selector: str, path: Path) -> None:
    """The whole element, however tall, at the window's width (for a person to look at)."""
    box = chromium.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return [r.left + scrollX, r.top + scrollY, r.width, r.height];",
        selector,
    )
    save_screenshot(chromium, path, tuple(box))


def test_outcome_editor_by_keyboard(chromium: Any, site: Path) -> None:
    """Typing into the status and severity lists changes the rule that applies."""
    from selenium.webdriver.common.keys import Keys

    chromium.get((site / "outcome.html").as_uri())
    wait_for(chromium, "return !document.querySelector('section.calc').hidden")

    def out(key: str) -> str:
        node = chromium.find_element("css selector", f'[data-out="{key}"]')
        return str(node.get_attribute("textContent"))

    record = json.loads(out("record"))
    assert out("reason") == py_outcome(json.dumps(record))["reason"]
    first = chromium.find_element("id", "calc-outcome-entry-1-status")
    first.send_keys("e")  # "error": the first objective is in error
    first.send_keys(Keys.TAB)
    record = json.loads(out("record"))
    assert record["verification"][0]["status"] == "error"
    assert out("reason") == py_outcome(json.dumps(record))["reason"]
    assert out("reason").startswith("withheld: objective")
    severity = chromium.find_element("id", "calc-outcome-entry-1-severity")
    severity.send_keys("c")  # a severity on an objective is refused, naming the field
    error = chromium.find_element("id", "calc-outcome-error")
    assert error.text.startswith("entry 1 severity: "), error.text


@pytest.mark.parametrize("page", CALCULATOR_PAGES)
def test_calculator_fits_a_phone_and_every_control_is_labelled(
    chromium: Any, site: Path, page: str
) -> None:
    # Resized on a blank page, each way: a loaded page would be laid out again for it.
    chromium.get("about:blank")
    chromium.set_window_size(PHONE_WIDTH, 800)
    try:
        chromium.get((site / f"{page}.html").as_uri())
        wait_for(chromium, "return !document.querySelector('section.calc').hidden")
        unlabelled = chromium.execute_script(
            "return Array.from(document.querySelectorAll("
            "'section.calc input, section.calc select')).filter(e => !e.id"
            " || !document.querySelector(`label[for='${e.id}']`)).map(e => e.name);"
        )
        assert unlabelled == [], f"{page}: controls without a <label for>: {unlabelled}"
        # Nothing wider than the phone, except inside a box that scrolls on its own.
        wide = chromium.execute_script(
            "const w = document.documentElement.clientWidth;"
            "const inBox = e => { for (let p = e.parentElement; p; p = p.parentElement) {"
            " if (getComputedStyle(p).overflowX === 'auto') return true; } return false; };"
            "return Array.from(document.querySelectorAll('section.calc, section.calc *'))"
            ".filter(e => e.getBoundingClientRect().right > w + 1 && !inBox(e))"
            ".map(e => e.tagName + '.' + e.className);"
        )
        assert wide == [], f"{page}: wider than a {PHONE_WIDTH} px phone: {wide[:5]}"
        sideways = chromium.execute_script(
            "const d = document.documentElement; return d.scrollWidth > d.clientWidth;"
        )
        assert not sideways, f"{page}: the page scrolls sideways at {PHONE_WIDTH} px"
        for scheme in ("default", "slate"):  # the light and the dark palette
            chromium.execute_script(
                "document.body.setAttribute('data-md-color-scheme', arguments[0])", scheme
            )
            screenshot(chromium, "section.calc", SCREENSHOTS / f"calculator-{page}-{scheme}.png")
        errors = console_errors(chromium)
        assert not errors, errors
    finally:
        chromium.get("about:blank")
        chromium.set_window_size(*DESKTOP)
