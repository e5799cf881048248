"""Helpers of the calculator tests (``test_calculator_parity.py``, ``test_calculator_data.py``,
``test_calculator_widgets.py``, ``test_uncertainty_calculator.py``): cases run on a page of
the built site in headless Chromium and compared with what Python gives, copies of the site
spoiled on purpose, and the numerals a script may spell out.

A case is ``{"fn": name, "args": [...]}``, as the browser receives it: ``window.Methodology``
calls ``name`` on the arguments. Each test module imports the ``site`` fixture (its own
``file://`` copy of the built site) and ``spoil`` from here.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from support import built_site

from scoring.numeric import as_written

#: The library, in the order the pages load it: its arithmetic, three formula families, and
#: the file that reads the data and holds the composite, radar and repeatability (after
#: quantiles.js, whose numerals are its series' and its tolerances', not the methodology's).
NUMBERS_SCRIPT = Path("javascripts") / "methodology-numbers.js"
OUTCOME_SCRIPT = Path("javascripts") / "methodology-outcome.js"
UNCERTAINTY_SCRIPT = Path("javascripts") / "methodology-uncertainty.js"
INTERVALS_SCRIPT = Path("javascripts") / "methodology-intervals.js"
PAIRED_SCRIPT = Path("javascripts") / "methodology-paired.js"
SCRIPT = Path("javascripts") / "methodology.js"
SCRIPTS = (
    NUMBERS_SCRIPT,
    OUTCOME_SCRIPT,
    UNCERTAINTY_SCRIPT,
    INTERVALS_SCRIPT,
    PAIRED_SCRIPT,
    SCRIPT,
)
DATA_ID = "methodology-data"
CALCULATOR_PAGES = ("composite", "radar", "outcome", "repeatability")

Case = dict[str, Any]  # {"fn": name, "args": [...]} as the browser receives it


def python_number(value: Any) -> Fraction:
    """An input as Python reads it: a JSON number as written, or an exact string."""
    if isinstance(value, str):
        return Fraction(value)
    return as_written(value)


# --- comparing ---------------------------------------------------------------------------------


def same(a: Any, b: Any) -> bool:
    """Equal as JSON values: numbers by value (100 == 100.0), never a boolean for a number."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


RUN_CASES = """
const cases = JSON.parse(arguments[0]);
const M = window.Methodology;
if (!M || !M.composite) return JSON.stringify({missing: true});
return JSON.stringify(cases.map(c => {
  try {
    return {ok: M[c.fn](...c.args)};
  } catch (e) {
    return {error: e && e.field !== undefined ? e.field : null, message: String(e && e.message)};
  }
}));
"""


def browser_results(chromium: Any, page: Path, cases: list[Case]) -> list[dict[str, Any]]:
    chromium.get(page.as_uri())
    answer = json.loads(chromium.execute_script(RUN_CASES, json.dumps(cases, ensure_ascii=False)))
    if isinstance(answer, dict):
        state = chromium.execute_script(
            "return [document.readyState, location.href, typeof window.MethodologyParts,"
            " !!document.getElementById('methodology-data'), document.scripts.length]"
        )
        raise AssertionError(
            f"{page.name}: window.Methodology has no data: {state} {chromium.get_log('browser')}"
        )
    return answer


def shown_value(case: Case) -> str:
    text = ", ".join(json.dumps(a, ensure_ascii=False) for a in case["args"])
    return f"{case['fn']}({text})"


def mismatches(cases: list[Case], expected: list[Any], got: list[dict[str, Any]]) -> list[str]:
    """Every case where the browser and Python disagree, naming the function and input."""
    problems = []
    for case, want, answer in zip(cases, expected, got, strict=True):
        if isinstance(want, dict) and "error" in want and set(want) == {"error"}:
            if "error" not in answer:
                problems.append(
                    f"{shown_value(case)}: Python refuses it ({want['error']}), JS gave "
                    f"{answer.get('ok')!r}"
                )
            elif (answer["error"] or "") not in want["error"]:
                problems.append(
                    f"{shown_value(case)}: JS names field {answer['error']!r} "
                    f"({answer['message']}), Python names {want['error']}"
                )
            continue
        if "error" in answer:
            problems.append(
                f"{shown_value(case)}: JS threw {answer['message']!r}, Python gave {want!r}"
            )
        elif not same(answer["ok"], want):
            problems.append(f"{shown_value(case)}: JS {answer['ok']!r} != Python {want!r}")
    return problems


def report(problems: list[str], limit: int = 15) -> str:
    more = f"\n... and {len(problems) - limit} more" if len(problems) > limit else ""
    return "\n".join(problems[:limit]) + more


def assert_same_as_python(
    chromium: Any, page: Path, cases: list[Case], expected: list[Any]
) -> None:
    """Each case gives on ``page`` what Python gives (``expected``); else the inputs that differ."""
    got = browser_results(chromium, page, cases)
    problems = mismatches(cases, expected, got)
    assert not problems, f"{len(problems)} of {len(cases)} inputs differ:\n{report(problems)}"


# --- numerals typed in a script ------------------------------------------------------------------

NUMERAL = re.compile(r"(?<![\w.$])(0x[0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)n?(?![\w.])")


def numerals_in_code(source: str, allowed: Mapping[str, str]) -> list[str]:
    """Numerals in a script's code (comments, strings and regex literals left out) that are
    not in ``allowed``."""
    code = re.sub(r"/\*.*?\*/|//[^\n]*", " ", source, flags=re.S)
    code = re.sub(r'"(?:\\.|[^"\\])*"', '""', code)
    code = re.sub(r"/(?:\\.|[^/\\\n])+/[gimsuy]*", "/x/", code)  # regex literals
    return sorted({m for m in NUMERAL.findall(code) if m not in allowed})


# --- fixtures and spoiled copies -----------------------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A file:// copy of the built site, its own so that nothing else touches it."""
    copy = tmp_path_factory.mktemp("calculator-site") / "site"
    shutil.copytree(built_site(tmp_path_factory), copy)
    return copy


@pytest.fixture(scope="module")
def snapshot(site: Path) -> dict[str, Any]:
    return json.loads((site / "methodology.json").read_text(encoding="utf-8"))


def spoiled_copy(site: Path, dest: Path, path: Path, old: str, new: str) -> Path:
    """A copy of the site with ``old`` replaced by ``new`` once in ``path`` (relative)."""
    shutil.copytree(site, dest)
    target = dest / path
    text = target.read_text(encoding="utf-8")
    assert text.count(old) >= 1, f"{old!r} not in {path}"
    target.write_text(text.replace(old, new, 1), encoding="utf-8")
    return dest


class Mutation(NamedTuple):
    """One change to a copy of the site, made on purpose, that the parity must notice."""

    what: str  # the change in words: the test's id
    path: Path  # the file changed, relative to the site
    old: str  # replaced once
    new: str  # by this
    named: str  # a problem reported starts with this: the call of the function it breaks


Spoil = Callable[[Mutation], Path]


def each_mutation(mutations: Sequence[Mutation]) -> pytest.MarkDecorator:
    """Runs a test once for each of ``mutations`` (its argument ``mutation``), by its ``what``."""
    return pytest.mark.parametrize("mutation", mutations, ids=[m.what for m in mutations])


@pytest.fixture
def spoil(site: Path, tmp_path: Path) -> Spoil:
    """``spoil(mutation)``: a copy of the module's ``site`` changed by ``mutation``."""

    def spoiled(mutation: Mutation) -> Path:
        return spoiled_copy(site, tmp_path / "spoiled", mutation.path, mutation.old, mutation.new)

    return spoiled


def assert_noticed(
    chromium: Any, page: Path, cases: list[Case], expected: list[Any], mutation: Mutation
) -> None:
    """Some case gives on ``page`` (of a spoiled copy) what Python does not, and one of the
    problems names the function that ``mutation`` breaks."""
    problems = mismatches(cases, expected, browser_results(chromium, page, cases))
    assert problems, f"parity did not notice {mutation.what}"
    assert any(p.startswith(mutation.named) for p in problems), report(problems)
