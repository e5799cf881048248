"""The registry, in the scikit-learn manner: one module of tests run on every registered
formula (``scoring.registry.FORMULAS``) and every constant. Each formula has a name, a
title, LaTeX and an importable home; a passing doctest; golden points its code computes;
every symbol of its LaTeX bound (or a reason why it is descriptive); a page that shows it;
and, when it returns a score, its documented range, which hypothesis checks, and its LaTeX
equal to its code on random inputs as well as at its golden points. Every
constant carries a unit, a description and a unique dotted name. A new formula or
constant is tested by all of these without a line added here.
"""

from __future__ import annotations

import doctest
import importlib
import inspect
import json
import re
import types
import typing
from fractions import Fraction
from typing import Any

import pytest
from builders import FAST, successes_of
from hypothesis import given, strategies as st
from interval_strategies import INTERVAL_FORMULA_ARGUMENTS

from contracts.check.formulas import agree, latex_value, registration_problems, show
from contracts.latex.evaluator import Undefined
from contracts.source import REPO_ROOT
from scoring import FORMULAS, Axis, VerificationEntry
from scoring.constants import constants
from scoring.registry import Const, Formula, Uses, Words

NAMES = sorted(FORMULAS)
DOCS = REPO_ROOT / "docs"
#: ``formula("name")`` on a page: the macro that shows a formula.
SHOWN = re.compile(r"""\bformula\(\s*["']([^"']+)["']\s*\)""")
RANGE = re.compile(r"Returns a value in \[(?P<low>[^,\]]+), (?P<high>[^\]]+)\]")
# A generic formula whose range depends on its arguments says so in words.
RANGE_IN_WORDS = re.compile(r"Returns a value between the lowest and the highest \w+")
DOTTED = re.compile(r"^[a-z][a-z0-9_^]*(\.[a-z][a-z0-9_^]*)+$")
NUMERIC = {Fraction, float, int}


def returns_a_number(formula: Formula) -> bool:
    """Whether the formula returns a number (optionally ``None``): a score, a rate, a gate."""
    returned = typing.get_type_hints(formula.function)["return"]
    if isinstance(returned, types.UnionType) or typing.get_origin(returned) is typing.Union:
        parts = set(typing.get_args(returned))
    else:
        parts = {returned}
    return bool(parts - {type(None)}) and parts - {type(None)} <= NUMERIC


def shown_on_pages() -> dict[str, list[str]]:
    """Each formula shown by ``formula("…")`` on a topic page (not the reference list)."""
    found: dict[str, list[str]] = {}
    for page in sorted(DOCS.glob("*.md")):
        if page.name == "reference.md":
            continue
        for name in SHOWN.findall(page.read_text(encoding="utf-8")):
            found.setdefault(name, []).append(page.name)
    return found


def test_the_registry_is_populated() -> None:
    # Importing scoring registers every formula of every module: the three methodology
    # scores, their curve and the outcome score.
    prefixes = {name.split(".")[0] for name in FORMULAS}
    assert {"curve", "composite", "radar", "repeatability", "outcome"} <= prefixes
    assert {
        "curve.piecewise_linear",
        "composite.score",
        "radar.profile",
        "repeatability.pass_hat_k",
        "outcome.score",
    } <= set(FORMULAS)
    assert len(FORMULAS) >= 20


# --- Every registered formula, in the scikit-learn manner --------------------------------------


@pytest.mark.parametrize("name", NAMES)
def test_every_formula_has_name_title_latex_and_an_importable_home(name: str) -> None:
    formula = FORMULAS[name]
    assert formula.name == name
    assert DOTTED.match(name), name
    assert formula.title.strip()
    assert formula.latex.strip(), f"{name} has an empty LaTeX formula"
    module_name, _, attribute = formula.qualname.rpartition(".")
    assert getattr(importlib.import_module(module_name), attribute) is formula.function


@pytest.mark.parametrize("name", NAMES)
def test_every_formula_has_a_passing_doctest(name: str) -> None:
    function = FORMULAS[name].function
    assert inspect.getdoc(function), f"{name} has no docstring"
    tests = doctest.DocTestFinder(recurse=False).find(
        function, name, globs=vars(importlib.import_module(function.__module__)).copy()
    )
    examples = sum(len(test.examples) for test in tests)
    assert examples >= 1, f"{name}: the docstring has no doctest (>>>)"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        runner.run(test, out=lambda _: None)
    assert runner.failures == 0, f"{name}: a doctest fails"


@pytest.mark.parametrize("name", NAMES)
def test_every_formula_has_golden_points_that_its_code_computes(name: str) -> None:
    formula = FORMULAS[name]
    assert formula.golden, f"{name}: no golden point; add golden=[point(...), ...]"
    labels = [golden.label for golden in formula.golden]
    assert len(labels) == len(set(labels)), f"{name}: two golden points share a label"
    parameters = inspect.signature(formula.function).parameters
    for golden in formula.golden:
        assert set(golden.inputs) <= set(parameters), golden.label
        formula.function(**golden.inputs)  # within the formula's domain: it does not raise


@pytest.mark.parametrize("name", NAMES)
def test_every_formula_binds_its_symbols_or_says_why_not(name: str) -> None:
    formula = FORMULAS[name]
    assert registration_problems(formula) == []
    if formula.descriptive is None:
        assert formula.symbols, f"{name}: no symbol bound"
    else:
        # Said for the reader only: nothing evaluates a descriptive formula's symbols.
        assert all(isinstance(b, Words | Const | Uses) for b in formula.symbols.values())


@pytest.mark.parametrize("name", NAMES)
def test_every_formula_is_shown_on_a_page(name: str) -> None:
    assert name in shown_on_pages(), f"{name}: no page of docs/ shows it with formula(...)"


@pytest.mark.parametrize("name", [n for n in NAMES if returns_a_number(FORMULAS[n])])
def test_every_score_formula_states_its_range(name: str) -> None:
    doc = FORMULAS[name].function.__doc__ or ""
    match = RANGE.search(doc)
    if match is None:
        assert RANGE_IN_WORDS.search(doc), f"{name}: no 'Returns a value in [low, high]' line"
        return
    assert Fraction(match["low"]) < Fraction(match["high"])


# --- Every constant ----------------------------------------------------------------------------


def test_every_constant_is_documented_under_a_unique_name() -> None:
    infos = constants()
    assert len(infos) >= 25
    for info in infos:
        assert DOTTED.match(info.meta.name), info.meta.name
        assert info.meta.unit.strip(), f"{info.meta.name} has no unit"
        assert info.meta.description.strip(), f"{info.meta.name} has no description"
    names = [info.meta.name for info in infos]
    assert len(names) == len(set(names)), "duplicate dotted names"
    python_names = [info.python_name for info in infos]
    assert len(python_names) == len(set(python_names))


def test_constants_are_the_live_module_values() -> None:
    module = importlib.import_module("scoring.constants")
    for info in constants():
        assert getattr(module, info.python_name) is info.value


def test_published_constants() -> None:
    # Spot checks against the pages (docs/composite.md, docs/radar.md).
    by_name = {info.meta.name: info.value for info in constants()}
    for expected in (
        "composite.latency_anchors_ms",
        "composite.cost_anchors_usd",
        "composite.weight.success",
        "radar.window_runs",
        "repeatability.min_outcomes",
        "outcome.recoverable_floor",
    ):
        assert expected in by_name
    assert by_name["composite.weight.success"] == Fraction(40, 100)
    assert by_name["composite.weight.reliability"] == Fraction(30, 100)
    assert by_name["composite.weight.cost"] == Fraction(30, 100)
    assert by_name["composite.consistency_min_runs"] == 5
    assert by_name["composite.zero_success_policy"] == "2026-07-zero-success-v1"
    assert by_name["radar.window_runs"] == 100
    assert by_name["radar.latency.min_runs"] == 5
    assert set(by_name["radar.default_weights"].values()) == {Fraction(20, 100)}
    assert by_name["repeatability.min_outcomes"] == 3
    assert by_name["repeatability.k_levels"] == (1, 3, 5)
    assert by_name["outcome.recoverable_floor"] == Fraction(1, 10)
    assert by_name["outcome.version"] == "v1"


fractions_01 = st.fractions(min_value=0, max_value=1, max_denominator=10**6)
fractions_100 = st.fractions(min_value=0, max_value=100, max_denominator=10**6)
non_negative = st.one_of(
    st.fractions(min_value=0, max_value=10**6, max_denominator=10**6),
    st.floats(min_value=0, max_value=1e12, allow_nan=False),
    st.integers(min_value=0, max_value=10**9),
)
axis_values = st.one_of(st.none(), fractions_100)


@st.composite
def entries(draw: st.DrawFn) -> list[VerificationEntry]:
    found = []
    for i in range(draw(st.integers(0, 6))):
        entry = {
            "name": f"e{i}",
            "role": draw(st.sampled_from(["objective", "safeguard"])),
            "status": draw(st.sampled_from(["passed", "failed", "error"])),
        }
        if entry["role"] == "safeguard":
            entry["severity"] = draw(st.sampled_from(["recoverable", "catastrophic"]))
        found.append(VerificationEntry.model_validate_json(json.dumps(entry)))
    return found


# Arguments of every registered formula that returns a number, within its documented domain.
FORMULA_ARGUMENTS: dict[str, st.SearchStrategy[tuple[Any, ...]]] = {
    "composite.latency_score": st.tuples(non_negative),
    "composite.cost_score": st.tuples(non_negative),
    "composite.success_rate": successes_of(low=1),
    "composite.outcome_consistency": st.tuples(fractions_01, st.integers(0, 50)),
    "composite.score": st.tuples(fractions_01, fractions_01, fractions_100, fractions_100),
    "outcome.catastrophic_gate": st.tuples(entries()),
    "outcome.recoverable_floor": st.tuples(fractions_01),
    "outcome.score": st.tuples(fractions_01, fractions_01),
    "radar.correctness": successes_of(),
    "radar.latency": st.tuples(st.one_of(st.none(), non_negative), st.integers(0, 200)),
    "radar.cost": st.tuples(st.one_of(st.none(), non_negative)),
    "radar.tool_efficiency": st.tuples(st.one_of(st.none(), non_negative)),
    "radar.determinism": st.tuples(fractions_01),
    "radar.robustness": st.tuples(st.lists(successes_of(), max_size=8)),
    "radar.profile": st.tuples(
        st.fixed_dictionaries(dict.fromkeys(Axis, axis_values)),
        st.one_of(
            st.none(),
            st.fixed_dictionaries({axis: st.integers(0, 5) for axis in Axis}),
        ),
    ),
    "repeatability.pass_hat_k": st.tuples(
        successes_of().map(lambda cn: (cn[1], cn[0])), st.integers(1, 8)
    ).map(lambda t: (*t[0], t[1])),
    "repeatability.aggregate": st.tuples(
        st.lists(successes_of().map(lambda cn: (cn[1], cn[0])), max_size=6), st.integers(1, 6)
    ),
    **INTERVAL_FORMULA_ARGUMENTS,
}


def documented_range(name: str) -> tuple[Fraction, Fraction]:
    match = RANGE.search(FORMULAS[name].function.__doc__ or "")
    assert match, name
    return Fraction(match["low"]), Fraction(match["high"])


def test_every_score_formula_has_an_argument_strategy() -> None:
    # A new formula that states a range must be added to FORMULA_ARGUMENTS.
    ranged = {name for name, f in FORMULAS.items() if RANGE.search(f.function.__doc__ or "")}
    assert ranged == set(FORMULA_ARGUMENTS)


@pytest.mark.parametrize("name", sorted(FORMULA_ARGUMENTS))
def test_every_score_lies_within_its_documented_range(name: str) -> None:
    low, high = documented_range(name)
    function = FORMULAS[name].function

    @FAST
    @given(FORMULA_ARGUMENTS[name])
    def check(arguments: tuple[Any, ...]) -> None:
        value = function(*arguments)
        if value is not None:
            assert low <= Fraction(value) <= high

    check()


@pytest.mark.parametrize(
    "name", sorted(n for n in FORMULA_ARGUMENTS if FORMULAS[n].descriptive is None)
)
def test_every_formula_equals_its_latex_on_random_inputs(name: str) -> None:
    # Beyond the golden points: the typeset formula and the code agree across the domain.
    formula = FORMULAS[name]
    signature = inspect.signature(formula.function)

    @FAST
    @given(FORMULA_ARGUMENTS[name])
    def check(arguments: tuple[Any, ...]) -> None:
        inputs = signature.bind(*arguments).arguments
        code = formula.function(*arguments)
        try:
            latex: Any = latex_value(formula, inputs)
        except Undefined as undefined:
            latex = undefined
        assert agree(code, latex), f"{name}{arguments}: LaTeX {show(latex)}, code {show(code)}"

    check()
