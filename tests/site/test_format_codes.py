"""One formatting vocabulary for page authors (``docs/macros/formats.py``): the macros that
write a constant (``c``, ``code_value``) and those that write a result (``ex``, ``ex_in``,
``f``) take the same codes, a value prints the same through either, every code the pages
use is in it, and the contract page lists them all."""

from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction

import pytest
from support import ROOT, import_macros

formats = import_macros("macros.formats")
site_module = import_macros("macros.site")
Site = site_module.Site

CODES = list(formats.FORMATS)
# A macro call on a page with a format: the last quoted argument, or fmt="...".
_CALL = re.compile(r"\{\{\s*(c|code_value|ex|ex_in|f)\((?P<args>[^}]*)\)\s*\}\}")


def _page_codes() -> set[tuple[str, str]]:
    found = set()
    for page in (ROOT / "docs").glob("*.md"):
        for match in _CALL.finditer(page.read_text(encoding="utf-8")):
            args = [a.strip() for a in match["args"].split(",")]
            named = [a.split("=", 1)[1].strip("\"' ") for a in args if a.startswith("fmt=")]
            positional = {"c": 1, "code_value": 1, "ex": 2, "ex_in": 2}.get(match[1])
            if named:
                found.add((page.name, named[0]))
            elif positional is not None and len(args) > positional:
                found.add((page.name, args[positional].strip("\"' ")))
    return found


def test_every_code_a_page_uses_is_in_the_vocabulary() -> None:
    used = _page_codes()
    assert used, "no macro call with a format found: the pattern is stale"
    assert sorted(code for _, code in used if code not in formats.FORMATS) == []


@pytest.mark.parametrize("code", CODES)
def test_constants_and_results_share_every_code(code: str) -> None:
    example = formats.FORMATS[code].example
    assert Site.format(example, code) == Site.show(example, code, "")


@pytest.mark.parametrize(
    ("constant", "result", "code"),
    [
        (Decimal("0.40"), {"exact": "0.4", "approx": 0.4}, "pct"),
        (Decimal("0.40"), 0.4, "exact"),
        (Decimal("10000"), {"exact": "10000", "approx": 10000.0}, "ms"),
        (Decimal("0.01"), 0.01, "usd"),
        (Decimal("93.3333"), {"exact": "933333/10000", "approx": 93.3333}, "score"),
    ],
)
def test_a_value_prints_the_same_as_a_constant_and_as_a_result(
    constant: Decimal, result: object, code: str
) -> None:
    assert Site.format(constant, code) == Site.show(result, code, "x")


def test_an_unknown_code_names_the_vocabulary() -> None:
    with pytest.raises(formats.FormatError, match=r"unknown format 'percent'; the codes are plain"):
        Site.format(Decimal("0.4"), "percent")
    with pytest.raises(formats.FormatError, match=r"unknown format 'percent'"):
        Site.show(Fraction(2, 5), "percent", "x")


def test_a_code_that_cannot_write_the_value_says_so() -> None:
    with pytest.raises(formats.FormatError, match=r"format 'list' cannot write"):
        Site.format(Decimal("0.4"), "list")


def test_the_contract_page_lists_every_code() -> None:
    html = formats.format_codes(None)
    for code in CODES:
        if not code.isdigit():
            assert f"<code>{code}</code>" in html, code
    assert "<code>0 … 9</code>" in html
    assert "{{ format_codes() }}" in (ROOT / "docs" / "contract.md").read_text(encoding="utf-8")
