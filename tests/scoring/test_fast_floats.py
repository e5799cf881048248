"""The small agents' float attempt (``scoring.fast_scores`` floats, ``numeric.float_half_up``):
each float within its stated bound of the exact value, and a value rounded from a float
only where every number that close rounds alike.

The bounds are checked against exact arithmetic on random inputs and on the anchors, where
the segments change; a float rounding that ignores its guard is shown to publish a tie
wrongly.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction
from typing import Any

import pytest
from builders import good_run
from hypothesis import given, settings
from hypothesis import strategies as st
from report_reference import to_lines

from scoring import Axis, build_report, report_to_json
from scoring import fast_scores as fs
from scoring import published as published_module
from scoring.constants import (
    COST_ANCHORS_USD,
    FRACTION_DECIMALS,
    LATENCY_ANCHORS_MS,
    SCORE_DECIMALS,
)
from scoring.numeric import UNIT_ROUNDOFF, as_written, float_half_up, round_half_up
from scoring.published import publish
from scoring.report import read_runs

_ANCHOR_XS = sorted(float(a.x) for a in (*LATENCY_ANCHORS_MS, *COST_ANCHORS_USD))


def _near_anchors() -> st.SearchStrategy[float]:
    """Anchors and their neighbouring floats, where a float input may land on the other
    segment than its exact value."""
    return st.sampled_from(_ANCHOR_XS).flatmap(
        lambda x: st.sampled_from([x, math.nextafter(x, 0), math.nextafter(x, math.inf)])
    )


_INPUTS = st.one_of(
    st.floats(0, 2.0**22, allow_nan=False),
    st.integers(0, 2**22 * 10**9).map(lambda units: units / 10**9),
    _near_anchors(),
)


@settings(max_examples=400)
@given(x=_INPUTS)
def test_a_curve_in_floats_is_within_its_bound(x: float) -> None:
    for anchors in (LATENCY_ANCHORS_MS, COST_ANCHORS_USD):
        curve = fs.Curve(anchors)
        written = as_written(x)  # what the exact path reads: the shortest decimal
        exact = Fraction(*curve.at(written.as_integer_ratio()))
        assert abs(Fraction(curve.at_float(x)) - exact) <= Fraction(curve.float_error)


@settings(max_examples=400)
@given(
    completed=st.integers(1, 32),
    data=st.data(),
    latency=_INPUTS,
    cost=st.one_of(_INPUTS.map(lambda v: v / 1000), _near_anchors()),
)
def test_the_composite_in_floats_is_within_its_bound(
    completed: int, data: st.DataObject, latency: float, cost: float
) -> None:
    successes = data.draw(st.integers(0, completed))
    # The drawn values are the means, as written; composite_ratios takes the sums.
    latency_w, cost_w = as_written(latency) * completed, as_written(cost) * completed
    exact = fs.composite_ratios(
        completed, successes, latency_w.as_integer_ratio(), cost_w.as_integer_ratio()
    )
    floats = fs.composite_floats(completed, successes, latency, cost)
    for found, ratio in zip(floats, (exact[0], exact[3], exact[4]), strict=True):
        assert abs(Fraction(found) - Fraction(*ratio)) <= Fraction(fs.COMPOSITE_FLOAT_ERROR)


@settings(max_examples=400)
@given(cost=st.one_of(st.floats(0, 10.0, allow_nan=False), _near_anchors()))
def test_the_cost_axis_in_floats_is_within_its_bound(cost: float) -> None:
    exact = Fraction(*fs.cost_axis_ratio(as_written(cost).as_integer_ratio()))
    assert abs(Fraction(fs.cost_axis_float(cost)) - exact) <= Fraction(fs.COST_AXIS_FLOAT_ERROR)


@settings(max_examples=300)
@given(
    axes=st.lists(
        st.one_of(st.none(), st.fractions(0, 100, max_denominator=10**6)), min_size=5, max_size=5
    ),
    weights=st.lists(
        st.one_of(st.none(), st.fractions(Fraction(1, 10**6), 10**6, max_denominator=10**6)),
        min_size=5,
        max_size=5,
    ),
)
def test_the_profile_in_floats_is_within_its_bound(
    axes: list[Fraction | None], weights: list[Fraction | None]
) -> None:
    ratios = [None if w is None else w.as_integer_ratio() for w in weights]
    exact = fs.profile_ratio(
        zip([None if a is None else a.as_integer_ratio() for a in axes], ratios, strict=True)
    )
    floats = fs.float_weights(ratios)
    assert floats is not None
    found = fs.profile_float([None if a is None else float(a) for a in axes], floats)
    if exact is None:
        assert found is None
        return
    assert found is not None
    # Each axis float is within u·scale of its value (one correctly rounded conversion).
    bound = Fraction(UNIT_ROUNDOFF * 100) + Fraction(fs.PROFILE_FLOAT_ROUNDING)
    assert abs(Fraction(found) - Fraction(*exact)) <= bound


@settings(max_examples=600)
@given(
    value=st.one_of(
        st.fractions(0, 100, max_denominator=10**12),
        # ties and their neighbours
        st.integers(0, 10**6).map(lambda k: Fraction(2 * k + 1, 2 * 10**SCORE_DECIMALS)),
        st.integers(0, 10**6).map(lambda k: Fraction(2 * k + 1, 2 * 10**FRACTION_DECIMALS)),
    ),
    places=st.sampled_from([SCORE_DECIMALS, FRACTION_DECIMALS]),
    error_exponent=st.integers(-15, -6),
    offset=st.floats(-1, 1),
)
def test_float_half_up_never_rounds_a_value_as_the_exact_one_would_not(
    value: Fraction, places: int, error_exponent: int, offset: float
) -> None:
    """Any exact value within ``error`` of the float rounds as the float says (or the float
    says nothing)."""
    error = 10.0**error_exponent
    approximation = float(value) + offset * error / 2  # within error of value
    found = float_half_up(approximation, places, error)
    if found is not None:
        assert found == round_half_up(value, places)


def test_float_half_up_gives_an_answer_away_from_ties() -> None:
    rng = random.Random(5)
    answered = sum(
        float_half_up(rng.uniform(0, 100), SCORE_DECIMALS, 1e-10) is not None for _ in range(10_000)
    )
    assert answered > 9_990


def test_weights_a_float_cannot_hold_go_the_exact_way() -> None:
    assert fs.float_weights([(1, 10**400), None, None, None, None]) is None
    assert fs.float_weights([(10**400, 1), None, None, None, None]) is None
    runs = [good_run(i, f"a{i % 7}") for i in range(40)]
    lines = to_lines(runs)
    for tiny in (Fraction(1, 10**200), Fraction(10**200)):
        weights: dict[Axis, Any] = {Axis.CORRECTNESS: tiny, Axis.COST: 1}
        assert publish(read_runs(lines), weights) == report_to_json(build_report(lines, weights))


def test_a_decimal_tie_on_the_cost_axis_is_published_half_up() -> None:
    """Costs written with a few decimals often put the cost axis exactly on a tie (0.040765
    USD gives 69.235): the float is just below, the exact value is the tie."""
    records = [good_run(0, "warm"), good_run(1, "tie", cost_usd=0.040765, steps=None)]
    exact = report_to_json(build_report(to_lines(records)))
    published = publish(read_runs(to_lines(records)))
    assert published == exact
    (tie,) = [a for a in published["agents"] if a["agent_id"] == "tie"]
    assert tie["radar"]["axes"]["cost"] == 69.24


def test_the_check_catches_a_float_rounding_without_its_guard(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    records = [good_run(0, "warm"), good_run(1, "tie", cost_usd=0.040765, steps=None)]
    publish(read_runs(to_lines(records)))  # the null intervals are known: "tie" is small

    def unguarded(value: float, places: int, error: float) -> float:
        return math.floor(value * 10**places + 0.5) / 10**places

    monkeypatch.setattr(published_module, "float_half_up", unguarded)
    published = publish(read_runs(to_lines(records)))
    assert published != report_to_json(build_report(to_lines(records)))
