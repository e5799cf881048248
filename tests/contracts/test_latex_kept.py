"""The evaluator keeps a parameterless definition's value for the inputs it read
(``contracts.latex.evaluator.Evaluator``, ``contracts.latex.environment``): the values are the same
as evaluating it at every read, on every registered formula's golden points; a row the
definition reads, through its LaTeX or only through the scope, is an input of it; and the
kept value is what makes ``m`` inside the sum of ``V`` one evaluation, not one a row."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from contracts.check import formulas
from contracts.latex import environment
from contracts.latex.environment import same_input
from contracts.latex.evaluator import Element, Evaluator, Scope, Undefined, evaluate
from scoring import FORMULAS

ROWS = [Element({"n": n}) for n in (3, 1, 4, 1, 5)]
#: ``V`` reads ``m``, which reads no row of ``V``'s sum (it sums its own).
V_LATEX = (
    r"V = \sum_{t \in T} (U_t - m)^2,\quad U_t = n_t,\quad "
    r"m = \dfrac{1}{|T|} \sum_{t \in T} U_t"
)


def _row_scope(reads: list[str]) -> Scope:
    """``T`` the rows; ``n_t`` the current row's ``n``; ``w`` the current row's ``n`` too,
    read from the environment though its LaTeX names no row (as a binding of the scope may);
    every resolution noted in ``reads``."""

    def resolve(key: str, env: Any) -> Any:
        reads.append(key)
        if key == "T":
            return ROWS
        return Fraction(env["t"].values["n"])

    return Scope(resolve, {"T", "n_{t}", "w"}.__contains__)


def _always_evaluated(monkeypatch: pytest.MonkeyPatch) -> None:
    """The evaluator without kept values: every read of a definition evaluates it."""
    monkeypatch.setattr(Evaluator, "_kept_value", lambda self, key, body, env: self.eval(body, env))


def _outcome(formula: Any, inputs: Any) -> Any:
    """A golden point's value, or its reason to have none (a list's items too: an
    :class:`Undefined` compares by identity, its reason by value)."""
    try:
        found = formulas.latex_value(formula, inputs)
    except Undefined as undefined:
        return ("undefined", str(undefined))
    if isinstance(found, list):
        return [("undefined", str(v)) if isinstance(v, Undefined) else v for v in found]
    return ("value", found)


def test_every_golden_point_has_the_value_it_has_when_evaluated_at_every_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    points = [
        (formula, point.inputs)
        for formula in FORMULAS.values()
        if formula.latex and formula.descriptive is None
        for point in formula.golden
    ]
    assert len(points) > 100
    kept = [_outcome(formula, inputs) for formula, inputs in points]
    _always_evaluated(monkeypatch)
    assert [_outcome(formula, inputs) for formula, inputs in points] == kept


def test_a_row_read_through_the_latex_is_an_input() -> None:
    latex = r"y = \sum_{t \in T} U_t,\quad U_t = 2 n_t"
    assert evaluate(latex, _row_scope([])) == 2 * sum(e.values["n"] for e in ROWS)


def test_a_row_read_only_through_the_scope_is_an_input() -> None:
    latex = r"y = \sum_{t \in T} k,\quad k = w \cdot w"
    assert evaluate(latex, _row_scope([])) == sum(e.values["n"] ** 2 for e in ROWS)


def test_a_definition_that_reads_no_outer_row_is_evaluated_once() -> None:
    reads: list[str] = []
    mean = Fraction(sum(e.values["n"] for e in ROWS), len(ROWS))
    assert evaluate(V_LATEX, _row_scope(reads)) == sum((e.values["n"] - mean) ** 2 for e in ROWS)
    # U_t once for each distinct row of V's sum (two rows are equal), and m once: its own
    # sum reads those rows again, kept. Evaluated at every read, 5 + 5 · 5.
    assert reads.count("n_{t}") == len({e.values["n"] for e in ROWS})


def test_evaluated_at_every_read_m_reads_every_row_for_each_row(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _always_evaluated(monkeypatch)
    reads: list[str] = []
    evaluate(V_LATEX, _row_scope(reads))
    assert reads.count("n_{t}") == len(ROWS) + len(ROWS) ** 2


def test_the_rows_are_inputs_only_while_reads_are_noted(monkeypatch: pytest.MonkeyPatch) -> None:
    """Spoiled so that the environment's reads go unnoted, the kept value of the first row
    is given to every row: the tests above would fail."""
    monkeypatch.setattr(environment.Reads, "__getitem__", lambda self, key: self._base[key])
    monkeypatch.setattr(environment.Reads, "__contains__", lambda self, key: key in self._base)
    latex = r"y = \sum_{t \in T} k,\quad k = w \cdot w"
    assert evaluate(latex, _row_scope([])) == len(ROWS) * ROWS[0].values["n"] ** 2


def test_inputs_are_the_same_only_by_type_and_value() -> None:
    assert same_input(Fraction(1, 2), Fraction(2, 4))
    assert not same_input(Fraction(1), 1)
    assert not same_input(1, 1.0)
    assert not same_input(Decimal("1.0"), Decimal("1"))
    assert same_input(Element({"n": 1, "c": Fraction(1)}), Element({"n": 1, "c": Fraction(1)}))
    assert not same_input(Element({"n": 1}), Element({"n": 1.0}))
    assert not same_input(Element({"n": 1}), Element({"n": 1, "c": 0}))
    assert not same_input(float("nan"), float("nan"))
    assert not same_input(object(), object())
