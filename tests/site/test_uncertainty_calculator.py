"""The uncertainty calculators: ``window.Methodology.runsNeeded`` and ``successInterval``
equal ``scoring.comparisons.planning.runs_needed`` and methodology 1.2.0's success interval of
independent runs (``scoring.intervals.rates.success_rate_interval`` of one-run tasks), input for
input.

In headless Chromium, from a ``file://`` copy of the built site, both functions are called
on the worked examples (the runs-needed grid, the independent runs), on their edges, on
inputs they must refuse and on seeded random inputs; each result must equal what Python
returns (the interval's bounds as the report publishes them, four decimals, outwards). The
helpers of ``calculator_support.py`` run and compare the cases.

The check is shown to fail on copies spoiled on purpose (a constant in the inlined data,
the ceiling, the effective sample size), and the two widgets are driven by keyboard on the
page "How sure is a score?": a result equals Python's, and a bad input clears every result
and names the field.
"""

from __future__ import annotations

import json
import random
import re
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from calculator_support import (
    DATA_ID,
    UNCERTAINTY_SCRIPT,
    Case,
    Mutation,
    Spoil,
    assert_noticed,
    assert_same_as_python,
    browser_results,
    each_mutation,
    mismatches,
    numerals_in_code,
    python_number,
    report,
    site as site,  # the module's file:// copy of the site
    spoil as spoil,
    spoiled_copy,
)
from chromium_driver import console_errors, wait_for
from support import ROOT

from scoring.comparisons.planning import runs_needed
from scoring.constants import INTERVAL_MIN_TASKS
from scoring.errors import InputError
from scoring.examples import EXAMPLES_BY_NAME
from scoring.intervals.rates import rate_interval, success_rate_interval
from scoring.registry import ScoringError

pytestmark = pytest.mark.slow

PAGE = "uncertainty.html"
WIDGETS = Path("docs") / "javascripts" / "planner.js"
SEED = 20261217
RANDOM_CASES = 400

# --- the Python side -------------------------------------------------------------------------


def _refused(error: Exception, also: tuple[str, ...] = ()) -> dict[str, Any]:
    """The fields a refusal names: the first word of the message (``p_a must lie in …``)."""
    return {"error": [str(error).split()[0], *also]}


def py_runs_needed(inputs: dict[str, Any]) -> Any:
    exact = {}
    for field in ("p_a", "delta", "rho"):
        try:
            exact[field] = python_number(inputs[field])
        except ValueError:  # not a number at all: refused, naming the field
            return {"error": [field]}
    try:
        return runs_needed(exact["p_a"], exact["delta"], inputs["runs_per_task"], exact["rho"])
    except (ScoringError, InputError) as error:
        return _refused(error)


#: Up to this many runs the success interval is Python's defining expression itself (one-run
#: tasks); beyond, its closed form (test_intervals_1_2_js.py holds the two equal), since
#: ten thousand one-run tasks cost Python a second.
EXPRESSION_MAX_RUNS = 3000


def py_success_interval(inputs: dict[str, Any]) -> Any:
    """Methodology 1.2.0's success interval of independent runs: the rate interval of
    ``runs`` one-run tasks, ``scoring.intervals.rates.success_rate_interval``; ``None`` below
    the task minimum."""
    runs, successes = inputs["runs"], inputs["successes"]
    if runs < 0 or not 0 <= successes <= runs:
        # "successes must lie between 0 and the runs" names both counts.
        return {"error": ["successes", "runs"]}
    if runs < INTERVAL_MIN_TASKS:
        return None
    if runs > EXPRESSION_MAX_RUNS:
        m = Fraction(successes, runs)
        interval = rate_interval(m, m * (1 - m) / (runs - 1), runs, runs)
    else:
        interval = success_rate_interval([(1, 1)] * successes + [(1, 0)] * (runs - successes))
    assert interval is not None
    return {"low": float(interval.low), "high": float(interval.high)}


PYTHON = {"runsNeeded": py_runs_needed, "successInterval": py_success_interval}

# --- inputs -----------------------------------------------------------------------------------


def _decimal(rng: random.Random, low: int, high: int, places: int) -> str:
    """A decimal string with ``places`` digits after the point, in [low, high] units."""
    units = rng.randint(low, high)
    return str(Decimal(units).scaleb(-places))


def runs_needed_cases(rng: random.Random) -> list[Case]:
    grid = EXAMPLES_BY_NAME["uncertainty.runs_needed"].inputs
    inputs: list[dict[str, Any]] = [
        {"p_a": p_a, "delta": delta, "runs_per_task": grid["runs_per_task"], "rho": rho}
        for p_a in grid["p_a"]
        for delta in grid["delta"]
        for rho in grid["rho"]
    ]
    # Edges: p_B = 0, δ = p_A, ρ at both ends, one run per task, numbers instead of strings.
    inputs += [
        {"p_a": "1", "delta": "1", "runs_per_task": 1, "rho": "0"},
        {"p_a": "0.5", "delta": "0.5", "runs_per_task": 3, "rho": "1"},
        {"p_a": "0.001", "delta": "0.001", "runs_per_task": 1, "rho": "0"},
        {"p_a": "1", "delta": "0.01", "runs_per_task": 10, "rho": "0.05"},
        {"p_a": 0.7, "delta": 0.1, "runs_per_task": 5, "rho": 0.3},
        {"p_a": 0.9, "delta": 0.05, "runs_per_task": 1, "rho": 0},
    ]
    for _ in range(RANDOM_CASES):
        places = rng.choice([1, 2, 3, 4])
        top = 10**places
        p_a = rng.randint(1, top)
        delta = rng.randint(1, p_a)
        inputs.append(
            {
                "p_a": str(Decimal(p_a).scaleb(-places)),
                "delta": str(Decimal(delta).scaleb(-places)),
                "runs_per_task": rng.choice([1, 2, 5, rng.randint(1, 50)]),
                "rho": rng.choice(["0", "1", _decimal(rng, 0, 100, 2), _decimal(rng, 0, 1000, 3)]),
            }
        )
    cases: list[Case] = [{"fn": "runsNeeded", "args": [i]} for i in inputs]
    good = {"p_a": "0.7", "delta": "0.1", "runs_per_task": 5, "rho": "0"}
    for field, bad in [
        ("p_a", "0"),
        ("p_a", "1.5"),
        ("p_a", "-0.2"),
        ("p_a", "x"),
        ("delta", "0"),
        ("delta", "0.8"),
        ("delta", "-0.1"),
        ("runs_per_task", 0),
        ("rho", "-0.1"),
        ("rho", "1.01"),
    ]:
        cases.append({"fn": "runsNeeded", "args": [{**good, field: bad}], "bad": field})
    return cases


def success_interval_cases(rng: random.Random) -> list[Case]:
    start = EXAMPLES_BY_NAME["uncertainty.success_interval"].inputs
    inputs: list[dict[str, Any]] = [dict(start)]
    # Every count up to a few times the task minimum, each side of it included.
    for runs in range(3 * INTERVAL_MIN_TASKS + 1):
        inputs += [{"runs": runs, "successes": s} for s in range(runs + 1)]
    for _ in range(RANDOM_CASES):
        runs = rng.choice([rng.randint(0, 200), rng.randint(0, 20000)])
        successes = rng.choice([0, runs, rng.randint(0, runs), min(runs, 1)])
        inputs.append({"runs": runs, "successes": successes})
    cases: list[Case] = [{"fn": "successInterval", "args": [i]} for i in inputs]
    for bad in ({"runs": 10, "successes": 11}, {"runs": -1, "successes": 0}):
        cases.append({"fn": "successInterval", "args": [bad], "bad": "counts"})
    return cases


def all_cases() -> list[Case]:
    rng = random.Random(SEED)
    return runs_needed_cases(rng) + success_interval_cases(rng)


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    return all_cases()


@pytest.fixture(scope="module")
def expected(cases: list[Case]) -> list[Any]:
    return [PYTHON[c["fn"]](*c["args"]) for c in cases]


# --- the parity ---------------------------------------------------------------------------------


def test_enough_cases_and_every_kind_of_result(cases: list[Case], expected: list[Any]) -> None:
    by_function = {fn: sum(1 for c in cases if c["fn"] == fn) for fn in PYTHON}
    assert all(count >= RANDOM_CASES for count in by_function.values()), by_function
    intervals = [r for c, r in zip(cases, expected, strict=True) if c["fn"] == "successInterval"]
    assert None in intervals  # below the task minimum
    assert any(isinstance(r, dict) and r.get("low") == 0 for r in intervals)  # clipped at 0
    assert any(isinstance(r, dict) and r.get("high") == 1 for r in intervals)  # clipped at 1
    refused = [r for c, r in zip(cases, expected, strict=True) if "bad" in c]
    assert refused
    assert all(isinstance(r, dict) and "error" in r for r in refused), refused


def test_the_calculator_equals_python(
    chromium: Any, site: Path, cases: list[Case], expected: list[Any]
) -> None:
    assert_same_as_python(chromium, site / PAGE, cases, expected)


def test_the_decisions_example_and_the_grid(chromium: Any, site: Path) -> None:
    """p_A = 0.7, δ = 0.1, ρ = 0 gives 354 (docs/uncertainty.md), and the grid is the example's."""
    grid = EXAMPLES_BY_NAME["uncertainty.runs_needed"]
    case = {"p_a": "0.7", "delta": "0.1", "runs_per_task": grid.inputs["runs_per_task"]}
    (answer,) = browser_results(
        chromium, site / PAGE, [{"fn": "runsNeeded", "args": [{**case, "rho": "0"}]}]
    )
    assert answer == {"ok": 354}


def test_a_plan_beyond_safe_integers_is_refused_naming_the_limit(chromium: Any, site: Path) -> None:
    tiny = {"p_a": "0.5", "delta": "1e-9", "runs_per_task": 1, "rho": "0"}
    assert py_runs_needed(tiny) > 2**53  # Python's whole number is exact
    (answer,) = browser_results(chromium, site / PAGE, [{"fn": "runsNeeded", "args": [tiny]}])
    assert answer.get("error") == "delta", answer
    assert "MAX_SAFE_INTEGER" in answer["message"], answer


MUTATIONS = [
    Mutation(
        "the task minimum changed in the inlined data",
        Path(PAGE),
        f'{{"name":"interval.min_tasks","value":{INTERVAL_MIN_TASKS}}}',
        f'{{"name":"interval.min_tasks","value":{INTERVAL_MIN_TASKS - 1}}}',
        "successInterval(",
    ),
    Mutation(
        "runs needed rounded down instead of up",
        UNCERTAINTY_SCRIPT,
        "var runs = -floorDiv(-n.num, n.den); // ⌈n⌉",
        "var runs = floorDiv(n.num, n.den);",
        "runsNeeded(",
    ),
    Mutation(
        "the variance of one-run tasks over n instead of n − 1",
        UNCERTAINTY_SCRIPT,
        "div(BigInt(runs - 1))",
        "div(BigInt(runs))",
        "successInterval(",
    ),
    Mutation(
        "the high bound rounded to nearest instead of up",
        UNCERTAINTY_SCRIPT,
        "var ceil = -inContext(Rational.ofDouble(high).add(MARGIN))",
        "var ceil = -inContext(Rational.ofDouble(high).sub(new Rational(1n, 2n * scale)))",
        "successInterval(",
    ),
]


@each_mutation(MUTATIONS)
def test_parity_fails_on_a_spoiled_copy(
    chromium: Any, spoil: Spoil, cases: list[Case], expected: list[Any], mutation: Mutation
) -> None:
    assert_noticed(chromium, spoil(mutation) / PAGE, cases, expected, mutation)


def test_a_harmless_edit_keeps_the_parity(
    chromium: Any, site: Path, cases: list[Case], expected: list[Any], tmp_path: Path
) -> None:
    """A comment and a refactor computing the same ceiling change nothing."""
    spoiled = spoiled_copy(
        site,
        tmp_path / "harmless",
        UNCERTAINTY_SCRIPT,
        "var runs = -floorDiv(-n.num, n.den); // ⌈n⌉",
        "// the ceiling, written another way\n"
        "      var runs = n.floor() + (n.den === 1n ? 0n : 1n);",
    )
    problems = mismatches(cases, expected, browser_results(chromium, spoiled / PAGE, cases))
    assert not problems, report(problems)


def test_the_page_inlines_the_published_constants_once(site: Path) -> None:
    html = (site / PAGE).read_text(encoding="utf-8")
    pattern = re.compile(rf'<script type="application/json" id="{DATA_ID}">(.*?)</script>', re.S)
    found = pattern.findall(html)
    assert len(found) == 1, f"{len(found)} inlined data blocks on {PAGE}, expected 1"
    published = json.loads((site / "methodology.json").read_text(encoding="utf-8"))
    want = {e["name"]: e["value"] for e in published["constants"]}
    assert {e["name"]: e["value"] for e in json.loads(found[0])["constants"]} == want


#: Numerals planner.js may spell out, each with why it is not a number of the methodology.
WIDGET_NUMERALS = {
    "0": "zero: no runs, so no success rate to show",
    "1": "one: the task's name is one cell of a line, and lines are counted from one",
    "10": "the decimal base, to scale a rate to its published decimals",
}


def widget_numerals(source: str) -> list[str]:
    return numerals_in_code(source, WIDGET_NUMERALS)


def test_no_number_of_the_methodology_is_typed_in_the_widgets() -> None:
    source = (ROOT / WIDGETS).read_text(encoding="utf-8")
    assert widget_numerals(source) == []
    typed = source.replace('M.constant("interval.min_tasks")', "10 || 9", 1)
    assert typed != source
    assert widget_numerals(typed) == ["9"]


# --- the widgets ----------------------------------------------------------------------------------


def _type(chromium: Any, ident: str, text: str) -> None:
    from selenium.webdriver.common.keys import Keys

    box = chromium.find_element("id", ident)
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys(text)


def _out(chromium: Any, kind: str, key: str) -> str:
    node = chromium.find_element(
        "css selector", f'section[data-calculator="{kind}"] [data-out="{key}"]'
    )
    return str(node.get_attribute("textContent"))


def test_the_planner_by_keyboard(chromium: Any, site: Path) -> None:
    chromium.get((site / PAGE).as_uri())
    wait_for(chromium, "return !document.querySelector('[data-calculator=planner]').hidden")
    fields = {"p_a": "0.9", "delta": "0.05", "runs_per_task": "4", "rho": "0.25"}
    for name, text in fields.items():
        _type(chromium, f"calc-planner-{name.replace('_', '-')}", text)
    want = py_runs_needed({**fields, "runs_per_task": 4})
    assert _out(chromium, "planner", "runs") == str(want)
    assert _out(chromium, "planner", "tasks") == str(-(-want // 4))
    error = chromium.find_element("id", "calc-planner-error")
    assert not error.is_displayed()
    _type(chromium, "calc-planner-delta", "0.95")  # p_B would be below zero
    assert error.is_displayed()
    assert error.text.startswith("Difference to detect, δ: "), error.text  # its label
    assert _out(chromium, "planner", "runs") == "—"  # cleared, not the last good result
    assert console_errors(chromium) == []


def test_the_success_interval_by_keyboard(chromium: Any, site: Path) -> None:
    chromium.get((site / PAGE).as_uri())
    wait_for(
        chromium, "return !document.querySelector('[data-calculator=success-interval]').hidden"
    )
    start = EXAMPLES_BY_NAME["uncertainty.success_interval"].inputs
    want = py_success_interval(dict(start))
    assert float(_out(chromium, "success-interval", "low")) == want["low"]
    assert float(_out(chromium, "success-interval", "high")) == want["high"]
    _type(chromium, "calc-success-interval-runs", str(INTERVAL_MIN_TASKS - 1))
    _type(chromium, "calc-success-interval-successes", "3")
    # Too few runs: no bound in the cells, a sentence under them says why.
    assert _out(chromium, "success-interval", "low") == "—"
    note = chromium.find_element("id", "calc-success-interval-note")
    assert str(INTERVAL_MIN_TASKS) in note.text
    _type(chromium, "calc-success-interval-successes", str(INTERVAL_MIN_TASKS))
    error = chromium.find_element("id", "calc-success-interval-error")
    assert error.text.startswith("Successful runs: "), error.text
    assert _out(chromium, "success-interval", "high") == "—"
