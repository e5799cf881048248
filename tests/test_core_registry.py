"""Documentation checks in the scikit-learn style: every registered formula documents itself,
every constant is named, has a unit and a description."""

from __future__ import annotations

import doctest
import inspect
import types
import typing
from fractions import Fraction

import pytest

from scoring.constants import constants
from scoring.registry import FORMULAS, Formula

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
