"""The suite's memo of the formula check (``tests/formula_check_memo.py``): the same state
of the code is evaluated once, and any swap a test makes is a state evaluated anew."""

from __future__ import annotations

from typing import Any

import formula_check_memo
import pytest

import contracts.formulas
import scoring.composite
from scoring import FORMULAS


def _memo() -> formula_check_memo.Memo:
    memo = contracts.formulas.formula_problems
    assert isinstance(memo, formula_check_memo.Memo), "tests/conftest.py did not install it"
    return memo


def test_the_same_code_is_evaluated_once() -> None:
    memo = _memo()
    first = memo()
    computed = memo.computed
    assert memo() == first == []
    assert memo.computed == computed


def test_a_swapped_name_of_a_module_is_evaluated_anew(monkeypatch: pytest.MonkeyPatch) -> None:
    memo = _memo()
    memo()
    computed = memo.computed
    monkeypatch.setattr(scoring.composite, "Fraction", scoring.composite.Fraction)
    memo()
    assert memo.computed == computed, "rebinding a name to the same object is the same code"

    def other(*args: Any) -> Any:
        return scoring.composite.Fraction(*args)

    monkeypatch.setattr(scoring.composite, "Fraction", other)
    memo()
    assert memo.computed == computed + 1
    monkeypatch.undo()
    memo()
    assert memo.computed == computed + 1, "undone: the state checked first"


def test_a_swapped_formula_is_evaluated_anew_and_its_problem_found(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    memo = _memo()
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
