"""The registry, in the scikit-learn style: every formula documents itself (a doctest and the
range of what it returns) and every constant carries a unit, a description and a unique
dotted name, because the site and the contracts snapshot are rendered from them."""

from __future__ import annotations

import doctest
import importlib
import re
import types
import typing
from fractions import Fraction

import pytest

from scoring import FORMULAS
from scoring.constants import constants
from scoring.registry import Formula

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
