"""The suite's memo of the formula check (``tests/formula_check_memo.py``): the same state
of the code is evaluated once, and any swap a test makes is a state evaluated anew."""

from __future__ import annotations

from typing import Any

import formula_check_memo
import pytest

import contracts.check.formulas
import scoring.formulas.composite
import scoring.registry
from scoring import FORMULAS


def _counting() -> formula_check_memo.Memo:
    """A memo over a stand-in for the formula check that costs nothing: what is memoised,
    and when it is computed again, is the memo's own keying."""
    return formula_check_memo.Memo(lambda formulas=None: ["a problem"])


def test_the_suite_checks_formulas_through_the_memo() -> None:
    memo = contracts.check.formulas.formula_problems
    assert isinstance(memo, formula_check_memo.Memo), "tests/conftest.py did not install it"


def test_the_same_code_is_evaluated_once() -> None:
    memo = _counting()
    assert memo() == memo() == ["a problem"]
    assert memo.computed == 1
    assert memo({}) == ["a problem"]  # a registry of its own: computed, not memoised
    assert memo.computed == 1


def test_a_swapped_name_of_a_module_is_evaluated_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    memo = _counting()
    memo()
    monkeypatch.setattr(scoring.formulas.composite, "Fraction", scoring.formulas.composite.Fraction)
    memo()
    assert memo.computed == 1, "rebinding a name to the same object is the same code"

    def other(*args: Any) -> Any:
        return scoring.formulas.composite.Fraction(*args)

    monkeypatch.setattr(scoring.formulas.composite, "Fraction", other)
    memo()
    assert memo.computed == 2
    monkeypatch.undo()
    memo()
    assert memo.computed == 2, "undone: the state checked first"


def test_a_swapped_method_of_a_class_is_evaluated_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    memo = _counting()
    memo()
    monkeypatch.setattr(scoring.registry.Formula, "__repr__", lambda self: "spoiled")
    memo()
    assert memo.computed == 2


def test_a_swapped_formula_is_evaluated_anew_and_its_problem_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    memo = contracts.check.formulas.formula_problems
    assert memo() == []
    formula = FORMULAS["radar.determinism"]
    monkeypatch.setitem(FORMULAS, "radar.determinism", _shifted(formula))
    found = memo()
    assert found, "the moved code went unnoticed"
    assert {p.formula for p in found} == {"radar.determinism"}


def _shifted(formula: Any) -> Any:
    """The formula with its code moved off its LaTeX by one."""
    import dataclasses

    function = formula.function

    def moved(**inputs: Any) -> Any:
        return function(**inputs) + 1

    return dataclasses.replace(formula, function=moved)
