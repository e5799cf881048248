"""The data the readers' calculators run on: each calculator page inlines exactly the
constants of the published ``methodology.json``, ``methodology.js`` spells out no number of
the methodology, and without the inlined data (or without JavaScript) no calculator shows
and the page reads as before. Each check is shown to fail on a copy spoiled on purpose.

The browser is the ``chromium`` fixture (see ``chromium_driver.py`` for when it skips).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from calculator_support import (
    CALCULATOR_PAGES,
    DATA_ID,
    SCRIPTS,
    numerals_in_code,
    site as site,  # the module's file:// copy of the site
    snapshot as snapshot,  # its methodology.json
    spoiled_copy,
)
from support import ROOT

pytestmark = pytest.mark.slow


def test_inlined_data_is_the_published_snapshot(site: Path, snapshot: dict[str, Any]) -> None:
    problems = inline_data_problems(site)
    assert not problems, "\n".join(problems)


def inline_data_problems(site: Path) -> list[str]:
    """Each calculator page inlines exactly the constants of the published methodology.json."""
    published = json.loads((site / "methodology.json").read_text(encoding="utf-8"))
    want = {e["name"]: e["value"] for e in published["constants"]}
    problems = []
    pattern = re.compile(rf'<script type="application/json" id="{DATA_ID}">(.*?)</script>', re.S)
    for page in CALCULATOR_PAGES:
        found = pattern.findall((site / f"{page}.html").read_text(encoding="utf-8"))
        if len(found) != 1:
            problems.append(f"{page}.html: {len(found)} inlined data blocks, expected 1")
            continue
        data = json.loads(found[0])
        got = {e["name"]: e["value"] for e in data["constants"]}
        if got != want:
            differ = sorted(k for k in want.keys() | got.keys() if got.get(k) != want.get(k))
            problems.append(
                f"{page}.html: inlined constants differ from methodology.json: {differ}"
            )
        if data["methodology_version"] != published["methodology_version"]:
            problems.append(f"{page}.html: inlined version differs from methodology.json")
    return problems


def test_inline_data_check_fails_when_the_page_and_the_snapshot_differ(
    site: Path, tmp_path: Path
) -> None:
    spoiled = spoiled_copy(
        site,
        tmp_path / "spoiled",
        Path("radar.html"),
        '{"name":"radar.window_runs","value":100}',
        '{"name":"radar.window_runs","value":99}',
    )
    problems = inline_data_problems(spoiled)
    assert problems == [
        "radar.html: inlined constants differ from methodology.json: ['radar.window_runs']"
    ]


#: Numbers the library (methodology*.js) may spell out, each with why it is not a number of
#: the methodology.
SCRIPT_NUMERALS = {
    "0": "zero",
    "1": "one",
    "2": "halves and squares (rounding, Newton's step, the formula's 2)",
    "4": "the 4 of 1 − 4p(1 − p), as scoring/formulas/composite.py writes it",
    "5": "half of ten, to find a decimal halfway point",
    "6": "Python prints a Decimal in plain notation down to an exponent of -6",
    "8": "\\U escapes have eight hex digits",
    "10": "the decimal base",
    "16": "hexadecimal",
    "52": "bits of a double's fraction",
    "53": "bits of a double's significand",
    "1000": "a safe step when scaling by a power of two",
    "1074": "a double's least exponent (subnormals)",
    "0x100": "\\x escapes cover code points below it",
    "0x10000": "\\u escapes cover code points below it",
}


def script_numerals(source: str) -> list[str]:
    """Numerals in the script's code (comments and strings left out) not on the list."""
    return numerals_in_code(source, SCRIPT_NUMERALS)


def _library() -> str:
    """The files of window.Methodology, one after the other."""
    return "\n".join((ROOT / "docs" / s).read_text(encoding="utf-8") for s in SCRIPTS)


def test_no_number_of_the_methodology_is_typed_in_the_script() -> None:
    source = _library()
    assert script_numerals(source) == []


def test_the_numeral_check_finds_a_typed_constant() -> None:
    source = _library()
    typed = source.replace("var FLOOR = exact(", "var FLOOR = 0.1 || exact(", 1)
    typed = typed.replace("var GATE_RUNS = constant(", "var GATE_RUNS = 5n || constant(", 1)
    assert typed != source
    # 5 is on the list for another reason, so only the decimal is caught: the parity
    # mutations below are what catch a typed gate.
    assert script_numerals(typed) == ["0.1"]


def test_every_calculator_starts_hidden_with_a_noscript_note(site: Path) -> None:
    """Without JavaScript the widget never shows; a note says what is missing."""
    for page in CALCULATOR_PAGES:
        html = (site / f"{page}.html").read_text(encoding="utf-8")
        sections = re.findall(r"<section class=\"calc\"[^>]*>", html)
        assert len(sections) == 1, page
        assert " hidden" in sections[0], f"{page}: the calculator is not hidden without script"
        after = html[html.index(sections[0]) :]
        assert re.search(r"</section></div>\s*<noscript><p class=\"calc-noscript\">", after), page


def test_without_the_data_no_calculator_shows(chromium: Any, site: Path, tmp_path: Path) -> None:
    """A page whose data is missing keeps its content; the calculator stays hidden."""
    spoiled = spoiled_copy(
        site, tmp_path / "spoiled", Path("composite.html"), f'id="{DATA_ID}"', 'id="gone"'
    )
    chromium.get((spoiled / "composite.html").as_uri())
    hidden = chromium.execute_script("return document.querySelector('section.calc').hidden")
    assert hidden is True
    assert chromium.find_elements("css selector", "figure.formula")
