"""The formula check keeps the value of a formula another one ``uses`` for one pass
(``contracts.check.formulas.NESTED``): evaluated once per distinct inputs, never across passes,
never across a change of its LaTeX, and never for two inputs that differ only in type."""

from __future__ import annotations

import dataclasses
from fractions import Fraction
from typing import Any

import pytest

import contracts.check.formulas as formulas
from scoring.registry import FORMULAS

CURVE = "curve.piecewise_linear"
USERS = [f for f in FORMULAS.values() if any(CURVE in repr(b) for b in f.symbols.values())]


@pytest.fixture
def counted(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the formulas whose LaTeX is evaluated, in order."""
    calls: list[str] = []
    real = formulas.latex_value

    def spy(formula: Any, inputs: Any) -> Any:
        calls.append(formula.name)
        return real(formula, inputs)

    monkeypatch.setattr(formulas, "latex_value", spy)
    return calls


def test_a_used_formula_is_evaluated_once_per_inputs_in_a_pass(counted: list[str]) -> None:
    assert USERS, "the latency and cost curves use the piecewise-linear curve"
    chosen = {f.name: f for f in USERS}
    assert formulas.formula_problems(chosen) == []
    first = counted.count(CURVE)
    assert first > 0
    counted.clear()
    # The same formulas twice in one pass: the second finds every curve value kept.
    with formulas.one_pass():
        formulas.formula_problems(chosen)
        once = counted.count(CURVE)
        formulas.formula_problems(chosen)
    assert counted.count(CURVE) == once == first


def test_nothing_is_kept_from_one_pass_to_the_next(counted: list[str]) -> None:
    chosen = {f.name: f for f in USERS}
    formulas.formula_problems(chosen)
    first = counted.count(CURVE)
    formulas.formula_problems(chosen)
    assert counted.count(CURVE) == 2 * first
    assert formulas.NESTED.get() is None


def test_a_spoiled_used_formula_is_found_within_the_same_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A curve whose LaTeX changes between two checks in one pass is evaluated anew (the
    key holds the LaTeX): the drift is found, not hidden by the kept value."""
    chosen = {f.name: f for f in USERS}
    with formulas.one_pass():
        assert formulas.formula_problems(chosen) == []
        curve = FORMULAS[CURVE]
        spoiled = dataclasses.replace(curve, latex=curve.latex.replace("x_i", "x_{i+1}", 1))
        assert spoiled.latex != curve.latex
        monkeypatch.setitem(FORMULAS, CURVE, spoiled)
        assert formulas.formula_problems(chosen) != []


def test_inputs_that_differ_only_in_type_are_apart() -> None:
    curve = FORMULAS[CURVE]
    keys = {formulas.memo_key(curve, {"x": value}) for value in (1, 1.0, Fraction(1), [1], (1,))}
    assert len(keys) == 5
    assert formulas.memo_key(curve, {"x": {1}}) is None  # a set: not a key, not kept
