"""Golden points and worked examples of a formula that reads a curve sit where it slopes
(:mod:`scoring.slopes`): the drift check fails on one that sits where its curve is flat,
naming it, and every formula and example whose result moves with the anchors says which
curve it reads.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

import scoring.constants as C  # noqa: N812 - the module of constants
from contracts.check.formulas import check_formula, example_problems, formula_problems
from scoring import examples
from scoring.constants import Anchor
from scoring.examples import EXAMPLES_BY_NAME
from scoring.formulas.curves import along, is_flat_at
from scoring.registry import FORMULAS, point
from scoring.slopes import CURVES, CURVES_THEMSELVES, READINGS


def test_every_golden_point_and_example_reads_its_curves_on_a_slope() -> None:
    assert formula_problems() == []


def test_a_golden_point_beyond_the_last_anchor_fails_the_check_naming_it() -> None:
    gradient = FORMULAS["uncertainty.composite_gradient"]
    beyond = C.LATENCY_ANCHORS_MS[-1].x * 2
    flat = point(
        "beyond",
        p=Fraction(1, 2),
        mean_latency_ms=beyond,
        mean_cost_usd=Fraction(0),
        completed_runs=9,
    )
    found = check_formula(dataclasses.replace(gradient, golden=(*gradient.golden, flat)))
    messages = [p.message for p in found if p.point == "uncertainty.composite_gradient@beyond"]
    assert len(messages) == 2, found  # the latency and the cost curve, each flat there
    assert messages[0].startswith(
        "golden point uncertainty.composite_gradient@beyond reads mean latency "
        f"{beyond} on the latency curve, where it is flat"
    )
    assert "place it on a sloped segment" in messages[0]


def test_a_worked_example_on_a_flat_fails_the_check_naming_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    typical = EXAMPLES_BY_NAME["composite.typical"]
    below = str(C.COST_ANCHORS_USD[0].x / 2)
    flat = dataclasses.replace(typical, inputs={**typical.inputs, "mean_cost_usd": below})
    monkeypatch.setitem(EXAMPLES_BY_NAME, "composite.typical", flat)
    (problem,) = example_problems()
    assert problem.formula == "composite.typical"
    assert problem.message.startswith(
        f"worked example composite.typical reads mean cost {below} on the cost curve, where it "
        "is flat"
    )
    assert problem.file == "scoring/examples.py"


def test_a_reading_of_nothing_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(READINGS, "composite.no_such_thing", lambda inputs: [])
    (problem,) = example_problems()
    assert "READINGS names composite.no_such_thing" in problem.message


@pytest.mark.parametrize("curve", sorted(CURVES))
def test_flat_means_outside_every_slope(curve: str) -> None:
    anchors = CURVES[curve]()
    first, last = anchors[0].x, anchors[-1].x
    assert [is_flat_at(x, anchors) for x in (first / 2, first, last, last * 2)] == [
        True,
        False,
        False,
        True,
    ]
    assert not is_flat_at(along(anchors, "0.5"), anchors)
    # A segment whose two anchors score alike is flat inside, not at its ends.
    plateau = (*anchors[:1], Anchor(first * 2, anchors[0].score), *anchors[1:])
    assert is_flat_at(first * Decimal("1.5"), plateau)


def test_every_reading_names_an_owner_and_reads_something() -> None:
    for name, reads in READINGS.items():
        owner: Any = FORMULAS.get(name) or EXAMPLES_BY_NAME[name]
        inputs = [g.inputs for g in owner.golden] if name in FORMULAS else [owner.inputs]
        assert any(reads(i) for i in inputs), name


# --- Every formula and example that moves with the anchors says which curve it reads ----------


def _results() -> dict[str, list[str]]:
    """What every formula gives at each golden point, and every worked example."""

    def outcome(compute: Callable[[], object]) -> str:
        try:
            return repr(compute())
        except Exception as error:  # a point may be outside a domain: that is an outcome too
            return repr(error)

    found: dict[str, list[str]] = {}
    for name, formula in FORMULAS.items():
        function = formula.function
        found[name] = [outcome(lambda g=g, f=function: f(**g.inputs)) for g in formula.golden]
    for name, example in examples.EXAMPLES_BY_NAME.items():
        found[name] = [outcome(example.result)]
    return found


def _moved(anchors: tuple[Anchor, ...]) -> tuple[Anchor, ...]:
    """The same curve three times further out: same scores, same shape."""
    return tuple(Anchor(a.x * 3, a.score) for a in anchors)


def test_what_moves_with_the_anchors_is_declared(monkeypatch: pytest.MonkeyPatch) -> None:
    before = _results()
    monkeypatch.setattr(C, "LATENCY_ANCHORS_MS", _moved(C.LATENCY_ANCHORS_MS))
    monkeypatch.setattr(C, "COST_ANCHORS_USD", _moved(C.COST_ANCHORS_USD))
    after = _results()
    moved = {name for name in before if before[name] != after[name]}
    declared: Mapping[str, object] = {**READINGS, **CURVES_THEMSELVES}
    assert moved, "moving the anchors moves nothing: the formulas do not read them live"
    assert moved <= set(declared), sorted(moved - set(declared))
    # Each declaration of a composite curve is one that moves with it.
    composite_curves = {
        name
        for name, reads in READINGS.items()
        if name in FORMULAS
        and any(
            r.curve in ("latency", "cost") for g in FORMULAS[name].golden for r in reads(g.inputs)
        )
    }
    assert composite_curves <= moved
