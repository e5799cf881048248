"""The registry, in the scikit-learn style: every formula documents itself (a doctest and the
range of what it returns, which hypothesis checks) and every constant carries a unit, a
description and a unique dotted name, because the site and the contracts snapshot are
rendered from them.
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
from hypothesis import given
from hypothesis import strategies as st
from interval_strategies import INTERVAL_FORMULA_ARGUMENTS

from scoring import FORMULAS, Axis, VerificationEntry
from scoring.constants import constants
from scoring.registry import Formula

NAMES = sorted(FORMULAS)

# Return types that carry a score (a number on a published scale), possibly null.
_SCORE_TYPES = {Fraction, float}


def _returns_a_score(function: typing.Callable[..., object]) -> bool:
    returned = typing.get_type_hints(function).get("return")
    if isinstance(returned, types.UnionType) or typing.get_origin(returned) is typing.Union:
        parts = {p for p in typing.get_args(returned) if p is not type(None)}
    else:
        parts = {returned}
    return bool(parts) and parts <= _SCORE_TYPES


def test_registry_is_populated() -> None:
    # importing scoring registers every formula of every module
    expected = {
        "curve.piecewise_linear",
        "composite.latency_score",
        "composite.cost_score",
        "composite.success_rate",
        "composite.outcome_consistency",
        "composite.score",
        "radar.correctness",
        "radar.latency",
        "radar.cost",
        "radar.tool_efficiency",
        "radar.determinism",
        "radar.robustness",
        "radar.profile",
        "repeatability.pass_hat_k",
        "repeatability.aggregate",
        "outcome.catastrophic_gate",
        "outcome.correctness",
        "outcome.recoverable_raw",
        "outcome.recoverable_floor",
        "outcome.score",
    }
    assert expected <= set(FORMULAS)


@pytest.mark.parametrize("name", NAMES)
def test_formula_has_a_doctest_and_latex(name: str) -> None:
    entry: Formula = FORMULAS[name]
    assert entry.name == name
    doc = inspect.getdoc(entry.function)
    assert doc, f"{entry.qualname} has no docstring"
    examples = doctest.DocTestParser().get_examples(doc)
    assert examples, f"{entry.qualname} has no doctest (>>>)"
    assert entry.latex.strip(), f"{name} has an empty LaTeX formula"
    assert entry.title.strip()


@pytest.mark.parametrize("name", NAMES)
def test_formula_doctests_pass(name: str) -> None:
    entry = FORMULAS[name]
    module = inspect.getmodule(entry.function)
    finder = doctest.DocTestFinder()
    tests = [
        t for t in finder.find(entry.function, entry.function.__name__, module=module) if t.examples
    ]
    assert tests
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        test.globs = dict(vars(module))
        runner.run(test, out=lambda _: None)
    assert runner.summarize(verbose=False).failed == 0


@pytest.mark.parametrize("name", [n for n in NAMES if _returns_a_score(FORMULAS[n].function)])
def test_score_returning_formula_documents_returns(name: str) -> None:
    entry = FORMULAS[name]
    doc = inspect.getdoc(entry.function) or ""
    assert "Returns" in doc, f"{entry.qualname} returns a score but does not document Returns"


def test_constants_have_unique_names_units_descriptions() -> None:
    found = constants()
    assert len(found) >= 20
    names = [c.meta.name for c in found]
    assert len(names) == len(set(names)), "duplicate dotted names"
    python_names = [c.python_name for c in found]
    assert len(python_names) == len(set(python_names))
    for info in found:
        assert "." in info.meta.name, info.meta.name
        assert info.meta.name == info.meta.name.strip().lower(), info.meta.name
        assert " " not in info.meta.name
        assert info.meta.unit.strip(), f"{info.meta.name} has no unit"
        assert info.meta.description.strip(), f"{info.meta.name} has no description"


def test_constants_list_the_anchors_and_weights() -> None:
    names = {c.meta.name for c in constants()}
    for expected in (
        "composite.latency_anchors_ms",
        "composite.cost_anchors_usd",
        "composite.weight.success",
        "radar.window_runs",
        "repeatability.min_outcomes",
        "outcome.recoverable_floor",
    ):
        assert expected in names


RANGE = re.compile(r"Returns a value in \[(?P<low>[^,\]]+), (?P<high>[^\]]+)\]")
# A generic formula whose range depends on its arguments says so in words.
RANGE_IN_WORDS = re.compile(r"Returns a value between the lowest and the highest \w+")
DOTTED = re.compile(r"^[a-z][a-z0-9_^]*(\.[a-z][a-z0-9_^]*)+$")
NUMERIC = {Fraction, float, int}


def returns_a_number(formula: Formula) -> bool:
    """Whether the formula returns a number (optionally ``None``): a score, a rate, a gate."""
    returned = typing.get_type_hints(formula.function)["return"]
    parts = set(typing.get_args(returned)) if isinstance(returned, types.UnionType) else {returned}
    return bool(parts - {type(None)}) and parts - {type(None)} <= NUMERIC


def test_the_registry_is_populated() -> None:
    # The three methodology scores and the outcome score each register their formulas.
    prefixes = {name.split(".")[0] for name in FORMULAS}
    assert {"curve", "composite", "radar", "repeatability", "outcome"} <= prefixes
    assert len(FORMULAS) >= 20


@pytest.mark.parametrize("name", sorted(FORMULAS))
def test_every_formula_has_a_passing_doctest(name: str) -> None:
    function = FORMULAS[name].function
    tests = doctest.DocTestFinder(recurse=False).find(
        function, name, globs=vars(importlib.import_module(function.__module__)).copy()
    )
    examples = sum(len(test.examples) for test in tests)
    assert examples >= 1, f"{name}: the docstring has no doctest"
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in tests:
        runner.run(test)
    assert runner.failures == 0, f"{name}: a doctest fails"


@pytest.mark.parametrize("name", sorted(n for n, f in FORMULAS.items() if returns_a_number(f)))
def test_every_score_formula_states_its_range(name: str) -> None:
    doc = FORMULAS[name].function.__doc__ or ""
    match = RANGE.search(doc)
    if match is None:
        assert RANGE_IN_WORDS.search(doc), f"{name}: no 'Returns a value in [low, high]' line"
        return
    assert Fraction(match["low"]) < Fraction(match["high"])


@pytest.mark.parametrize("name", sorted(FORMULAS))
def test_every_formula_has_name_title_latex_and_an_importable_home(name: str) -> None:
    formula = FORMULAS[name]
    assert formula.name == name
    assert DOTTED.match(name), name
    assert formula.title.strip()
    assert formula.latex.strip()
    module_name, _, attribute = formula.qualname.rpartition(".")
    assert getattr(importlib.import_module(module_name), attribute) is formula.function


def test_every_constant_is_documented() -> None:
    infos = constants()
    assert len(infos) >= 25
    for info in infos:
        assert info.meta.unit.strip(), info.python_name
        assert info.meta.description.strip(), info.python_name
        assert DOTTED.match(info.meta.name), info.meta.name


def test_constant_names_are_unique() -> None:
    names = [info.meta.name for info in constants()]
    assert len(names) == len(set(names))
    python_names = [info.python_name for info in constants()]
    assert len(python_names) == len(set(python_names))


def test_constants_are_the_live_module_values() -> None:
    module = importlib.import_module("scoring.constants")
    for info in constants():
        assert getattr(module, info.python_name) is info.value


def test_published_constants() -> None:
    # Spot checks against the methodology page and decisions.md.
    by_name = {info.meta.name: info.value for info in constants()}
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
