"""The readers' calculators: ``window.Methodology`` equals the Python package, input for input.

In headless Chromium, from a ``file://`` copy of the built site, the four functions of
``docs/javascripts/methodology.js`` are called on the snapshot's golden evaluations, on the
worked examples and on more than a thousand seeded random inputs with their edges
(``calculator_cases.py``); each result must equal what ``scoring`` publishes for the same
input (the serializer the CLI prints with, so the same rounding). A mismatch names the
function and the input.

The parity check is shown to fail on copies of the site spoiled on purpose: one constant
changed in the inlined data, one branch changed in the script. The inlined data and the
numerals of the script are tested in ``test_calculator_data.py``, the widgets in
``test_calculator_widgets.py``.

The browser is the ``chromium`` fixture (see ``chromium_driver.py`` for when it skips).
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from calculator_cases import (
    PYTHON,
    RANDOM_CASES_PER_FUNCTION,
    all_cases,
    expected_results,
    golden_cases,
    py_outcome,
)
from calculator_support import (
    NUMBERS_SCRIPT,
    OUTCOME_SCRIPT,
    SCRIPT,
    Case,
    Mutation,
    Spoil,
    assert_noticed,
    assert_same_as_python,
    browser_results,
    each_mutation,
    report,
    same,
    shown_value,
    site as site,  # the module's file:// copy of the site
    snapshot as snapshot,  # its methodology.json
    spoil as spoil,
)

from scoring.cli import run as scoring_cli

pytestmark = pytest.mark.slow

PARITY_PAGE = "composite.html"
#: Copies of the site spoiled on purpose: the parity must fail on each, naming the function.
MUTATIONS = [
    Mutation(
        "a changed constant in the inlined data",
        Path(PARITY_PAGE),
        '{"name":"composite.weight.success","value":0.4}',
        '{"name":"composite.weight.success","value":0.45}',
        "composite(",
    ),
    Mutation(
        "the evidence gate compared with <= instead of <",
        SCRIPT,
        "runs < GATE_RUNS",
        "runs <= GATE_RUNS",
        "composite(",
    ),
    Mutation(
        "a catastrophic safeguard in error no longer closes the gate",
        OUTCOME_SCRIPT,
        'e.severity === "catastrophic" && e.status !== "passed"',
        'e.severity === "catastrophic" && e.status === "failed"',
        "outcomeScore(",
    ),
    Mutation(
        "halves rounded to even instead of up",
        NUMBERS_SCRIPT,
        "return floorDiv(2n * this.num * scale + this.den, 2n * this.den);",
        "var t = 2n * this.num * scale + this.den, b = 2n * this.den, q = floorDiv(t, b);"
        " return t % b === 0n && q % 2n === 1n ? q - 1n : q;",
        "passK(",
    ),
]


# --- fixtures ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def cases(snapshot: dict[str, Any]) -> list[Case]:
    return all_cases(snapshot)


@pytest.fixture(scope="module")
def expected(cases: list[Case]) -> list[Any]:
    return expected_results(cases)


# --- the contract ------------------------------------------------------------------------------


def test_enough_cases_across_the_four_functions(cases: list[Case]) -> None:
    by_function = {fn: sum(1 for c in cases if c["fn"] == fn) for fn in PYTHON}
    assert sum(by_function.values()) >= 1000, by_function
    assert all(count >= RANDOM_CASES_PER_FUNCTION for count in by_function.values()), by_function


def test_every_outcome_rule_is_exercised(cases: list[Case], expected: list[Any]) -> None:
    reasons = {
        re.sub(r"'.*'|c=[\d.]+|rec_v=[\d.]+", "", r["reason"])
        for c, r in zip(cases, expected, strict=True)
        if c["fn"] == "outcomeScore" and "reason" in r
    }
    sources = {r.get("correctness_source") for r in expected if isinstance(r, dict)}
    assert len(reasons) >= 6, reasons  # gate, 3 withheld, bypass, full
    assert {"objectives", "judged.checklist", "judged.outcome_validity"} <= sources
    refused = [c for c, r in zip(cases, expected, strict=True) if "bad" in c]
    assert all("error" in expected[cases.index(c)] for c in refused)


def test_calculator_equals_python(
    chromium: Any, site: Path, cases: list[Case], expected: list[Any]
) -> None:
    assert_same_as_python(chromium, site / PARITY_PAGE, cases, expected)


def test_calculator_equals_the_published_golden_values(
    chromium: Any, site: Path, snapshot: dict[str, Any]
) -> None:
    golden = golden_cases(snapshot)
    formulas = {c["fn"] for c, _, _ in golden}
    assert formulas == set(PYTHON), f"golden evaluations cover only {formulas}"
    got = browser_results(chromium, site / PARITY_PAGE, [c for c, _, _ in golden])
    problems = []
    for (case, pick, want), answer in zip(golden, got, strict=True):
        if "error" in answer:
            problems.append(f"{shown_value(case)}: JS threw {answer['message']}")
        elif not same(pick(answer["ok"]), want):
            problems.append(f"{shown_value(case)}: JS {pick(answer['ok'])!r} != published {want!r}")
    assert len(golden) >= 30, f"only {len(golden)} golden evaluations map onto the calculator"
    assert not problems, report(problems)


def test_the_cli_prints_what_the_per_record_reference_says(
    cases: list[Case], expected: list[Any]
) -> None:
    """The Python side of the parity is the CLI itself: one run over every valid record."""
    lines = [
        c["args"][0]
        for c, r in zip(cases, expected, strict=True)
        if c["fn"] == "outcomeScore" and isinstance(c["args"][0], str) and "error" not in r
    ]
    unique = {json.loads(line)["run_id"]: line for line in lines}
    stdout, stderr = io.StringIO(), io.StringIO()
    status = scoring_cli(
        ["outcome", "-", "--format", "json"],
        stdin=io.BytesIO("\n".join(unique.values()).encode("utf-8")),
        stdout=stdout,
        stderr=stderr,
    )
    assert status == 0, stderr.getvalue()
    printed = json.loads(stdout.getvalue())
    assert printed == [py_outcome(line) for line in unique.values()]


# --- the parity test can fail ------------------------------------------------------------------


@each_mutation(MUTATIONS)
def test_parity_fails_on_a_spoiled_copy(
    chromium: Any, spoil: Spoil, cases: list[Case], expected: list[Any], mutation: Mutation
) -> None:
    assert_noticed(chromium, spoil(mutation) / PARITY_PAGE, cases, expected, mutation)
