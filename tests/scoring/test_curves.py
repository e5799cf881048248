"""The piecewise-linear latency and cost curves of the headline composite.

Every anchor is checked at, just below, just above and halfway to the next anchor, plus
below the first and above the last, driven by ``scoring.constants`` (so the tests follow
the constants); and the curve itself against values computed by hand from the tables the
methodology page published with 1.0.0, on those anchors (read from the 1.0.0 snapshot and
passed explicitly): latency 500 ms → 100, 2,000 → 80, 5,000 → 50, 10,000 → 0; cost $0.001
→ 100, $0.010 → 80, $0.050 → 50, $0.100 → 20, $0.200 → 0; linear between adjacent anchors,
flat beyond the first and the last.
"""

from __future__ import annotations

import itertools
import json
from decimal import Decimal
from fractions import Fraction

import pytest
from builders import FAST
from hypothesis import given, settings, strategies as st
from published_curves import FIRST, cost_anchors, latency_anchors

from scoring import build_report, cost_score, latency_score, piecewise_linear, report_to_json
from scoring.constants import COST_ANCHORS_USD, LATENCY_ANCHORS_MS, Anchor
from scoring.formulas.composite import SCALE, W_COST, W_RELIABILITY, W_SUCCESS
from scoring.formulas.curves import along, sloped_segments
from scoring.numeric import decimal_half_up
from scoring.registry import ScoringError

CURVES = {
    "latency": (LATENCY_ANCHORS_MS, latency_score),
    "cost": (COST_ANCHORS_USD, cost_score),
}


def _points(anchors: tuple[Anchor, ...]) -> list[tuple[Fraction, Fraction]]:
    return [(Fraction(a.x), Fraction(a.score)) for a in anchors]


def _cases() -> list[tuple[str, int]]:
    return [(name, i) for name, (anchors, _) in CURVES.items() for i in range(len(anchors))]


# --- constants-driven: at, just below, just above, halfway --------------------------------


@pytest.mark.parametrize(("curve", "i"), _cases())
def test_at_anchor(curve: str, i: int) -> None:
    anchors, function = CURVES[curve]
    x, s = _points(anchors)[i]
    assert function(x) == s
    assert function(anchors[i].x) == s  # the Decimal constant itself


@pytest.mark.parametrize(("curve", "i"), _cases())
def test_just_below_anchor(curve: str, i: int) -> None:
    anchors, function = CURVES[curve]
    points = _points(anchors)
    x, s = points[i]
    if i == 0:
        eps = x / 1000
        expected = s  # flat below the first anchor
    else:
        x0, s0 = points[i - 1]
        eps = (x - x0) / 1000
        expected = s + (s0 - s) / 1000  # a thousandth of the segment back towards s0
    assert function(x - eps) == expected


@pytest.mark.parametrize(("curve", "i"), _cases())
def test_just_above_anchor(curve: str, i: int) -> None:
    anchors, function = CURVES[curve]
    points = _points(anchors)
    x, s = points[i]
    if i == len(points) - 1:
        eps = x / 1000
        expected = s  # flat above the last anchor
    else:
        x1, s1 = points[i + 1]
        eps = (x1 - x) / 1000
        expected = s + (s1 - s) / 1000
    assert function(x + eps) == expected


@pytest.mark.parametrize(("curve", "i"), [c for c in _cases() if c[1] < len(CURVES[c[0]][0]) - 1])
def test_halfway_to_next_anchor(curve: str, i: int) -> None:
    anchors, function = CURVES[curve]
    (x0, s0), (x1, s1) = _points(anchors)[i : i + 2]
    assert function((x0 + x1) / 2) == (s0 + s1) / 2


@pytest.mark.parametrize("curve", CURVES)
def test_below_first_and_above_last(curve: str) -> None:
    anchors, function = CURVES[curve]
    points = _points(anchors)
    (first_x, first_s), (last_x, last_s) = points[0], points[-1]
    assert function(0) == first_s
    assert function(first_x / 2) == first_s
    assert function(last_x * 2) == last_s
    assert function(10**12) == last_s


def test_scores_are_exact_fractions() -> None:
    # One unit before the end of the latency curve's first slope: its end's score plus one
    # unit of its slope, exactly (with 1.0.0's anchors, 1999 ms: 80 + 1/75 = 6001/75).
    (left, right), *_ = sloped_segments(LATENCY_ANCHORS_MS)
    slope = Fraction(right.score - left.score) / Fraction(right.x - left.x)
    assert latency_score(right.x - 1) == Fraction(right.score) - slope
    assert isinstance(latency_score(right.x - 1), Fraction)
    (left, right), *_ = sloped_segments(COST_ANCHORS_USD)
    tenth = Fraction(left.x) / 10  # $0.0011 on 1.0.0's anchors: 100 − 2/9
    slope = Fraction(right.score - left.score) / Fraction(right.x - left.x)
    assert cost_score(Fraction(left.x) + tenth) == Fraction(left.score) + slope * tenth


# --- piecewise_linear on its own ----------------------------------------------------------


def test_piecewise_linear_rising_curve_and_single_anchor() -> None:
    rising = (Anchor(Decimal(0), Decimal(0)), Anchor(Decimal(10), Decimal(50)))
    assert piecewise_linear(Fraction(3), rising) == 15  # 50 × 3/10
    assert piecewise_linear(-1, rising) == 0
    assert piecewise_linear(11, rising) == 50
    single = (Anchor(Decimal(5), Decimal(42)),)
    assert piecewise_linear(0, single) == 42
    assert piecewise_linear(9, single) == 42


def test_piecewise_linear_refuses_bad_anchors() -> None:
    with pytest.raises(ScoringError, match="at least one anchor"):
        piecewise_linear(1, ())
    same_x = (Anchor(Decimal(1), Decimal(100)), Anchor(Decimal(1), Decimal(0)))
    with pytest.raises(ScoringError, match="strictly increasing"):
        piecewise_linear(1, same_x)
    falling_x = (Anchor(Decimal(2), Decimal(100)), Anchor(Decimal(1), Decimal(0)))
    with pytest.raises(ScoringError, match="strictly increasing"):
        piecewise_linear(1, falling_x)


# --- the curves read the mean over the completed runs, through build_report ---------------


def _completed(run_id: str, latency: Decimal, cost: Decimal) -> bytes:
    """A completed, successful run; latency and cost written as the exact decimals given
    (the report reads JSON numbers as written)."""
    record = {
        "run_id": run_id,
        "agent_id": "a",
        "task_id": "t",
        "status": "completed",
        "success": True,
        "latency_ms": 0,
        "cost_usd": 0,
        "steps": None,
        "finished_at": f"2024-01-01T00:00:0{run_id[-1]}Z",
    }
    text = json.dumps(record)
    text = text.replace('"latency_ms": 0', f'"latency_ms": {latency:f}')
    return text.replace('"cost_usd": 0', f'"cost_usd": {cost:f}').encode() + b"\n"


def _composite_at(latency: Fraction, cost: Fraction) -> Fraction:
    """The composite of a cohort with p = 1 below the consistency gate (consistency 1)."""
    return SCALE * W_SUCCESS + W_RELIABILITY * latency + W_COST * cost


def test_report_reads_curves_on_the_mean_at_anchors() -> None:
    # Two runs on either side of an anchor, their mean the anchor: each curve scores it.
    latency, cost = LATENCY_ANCHORS_MS[1], COST_ANCHORS_USD[2]
    lines = [
        _completed("r1", latency.x / 2, cost.x * Decimal("0.8")),
        _completed("r2", latency.x * Decimal("1.5"), cost.x * Decimal("1.2")),
    ]
    composite = report_to_json(build_report(lines))["agents"][0]["composite"]
    assert composite["latency_score"] == float(latency.score)
    assert composite["cost_score"] == float(cost.score)
    expected = _composite_at(Fraction(latency.score), Fraction(cost.score))
    assert composite["score"] == float(decimal_half_up(expected, 2))


def _half_at_the_third_decimal() -> tuple[Decimal, Fraction]:
    """A cost ``c`` on the cost curve's last slope such that three runs at the latency
    curve's last anchor costing ``x_r``, ``x_r`` and ``c`` (``x_r`` the slope's right end)
    have an exact composite ending in a half at the third decimal; and that composite.
    Searched on steps of the slope that are decimals, from its right end leftwards."""
    last = LATENCY_ANCHORS_MS[-1]
    left, right = sloped_segments(COST_ANCHORS_USD)[-1]
    for places in range(3, 9):
        step = (right.x - left.x) / 10**places
        for j in range(1, 10**3):
            cost = right.x - j * step
            mean = (2 * Fraction(right.x) + Fraction(cost)) / 3
            exact = _composite_at(Fraction(last.score), cost_score(mean))
            if (exact * 1000).denominator == 1 and exact * 1000 % 10 == 5:
                return cost, exact
    raise AssertionError("no cost on the last slope puts the composite on a half")


def test_report_mean_is_exact_and_rounds_half_up() -> None:
    # The mean of the costs as written (not of their binary floats) puts the composite
    # exactly on a half, which rounds up.
    cost, exact = _half_at_the_third_decimal()
    last, (_, right) = LATENCY_ANCHORS_MS[-1], sloped_segments(COST_ANCHORS_USD)[-1]
    costs = (right.x, right.x, cost)
    lines = [_completed(f"r{i + 1}", last.x, c) for i, c in enumerate(costs)]
    composite = report_to_json(build_report(lines))["agents"][0]["composite"]
    assert composite["latency_score"] == float(last.score)
    assert composite["score"] == float(decimal_half_up(exact, 2))
    assert composite["score"] > exact  # the half went up, not to even


TINY = Fraction(1, 10**9)

# --- hard-coded, computed by hand from the tables published with 1.0.0, on its anchors -----

#: The anchors the tables below were worked out on, from the 1.0.0 snapshot: the curve is
#: checked on them, passed explicitly, whatever the live anchors are.
LATENCY_1_0, COST_1_0 = latency_anchors(FIRST), cost_anchors(FIRST)

# (mean latency in ms, expected score, the arithmetic). Slopes: 500→2000: −20/1500 = −1/75
# per ms; 2000→5000: −30/3000 = −1/100; 5000→10000: −50/5000 = −1/100.
LATENCY_CASES = [
    (Fraction(0), Fraction(100), "below the first anchor: flat 100"),
    (Fraction(-5), Fraction(100), "below the first anchor: flat 100"),
    (Fraction(499), Fraction(100), "just below 500: flat 100"),
    (Fraction(500), Fraction(100), "anchor 500 → 100"),
    (Fraction(500) + TINY, 100 - 20 * TINY / 1500, "just above 500: 100 − 20·ε/1500"),
    (Fraction(501), Fraction(7499, 75), "100 − 20·1/1500 = 100 − 1/75"),
    (Fraction(1250), Fraction(90), "midpoint 500–2000: (100 + 80)/2"),
    (Fraction(1999), Fraction(80) + Fraction(20, 1500), "80 + 20·1/1500"),
    (Fraction(2000), Fraction(80), "anchor 2000 → 80"),
    (Fraction(2001), Fraction(80) - Fraction(30, 3000), "80 − 30·1/3000 = 79.99"),
    (Fraction(3500), Fraction(65), "midpoint 2000–5000: (80 + 50)/2"),
    (Fraction(4999), Fraction(50) + Fraction(30, 3000), "50 + 30·1/3000 = 50.01"),
    (Fraction(5000), Fraction(50), "anchor 5000 → 50"),
    (Fraction(5001), Fraction(50) - Fraction(50, 5000), "50 − 50·1/5000 = 49.99"),
    (Fraction(7500), Fraction(25), "midpoint 5000–10000: (50 + 0)/2"),
    (Fraction(9999), Fraction(1, 100), "50·1/5000 = 0.01"),
    (Fraction(10000) - TINY, 50 * TINY / 5000, "just below 10000: 50·ε/5000"),
    (Fraction(10000), Fraction(0), "anchor 10000 → 0"),
    (Fraction(10001), Fraction(0), "above the last anchor: flat 0"),
    (Fraction(10**12), Fraction(0), "far above the last anchor: flat 0"),
]

# (mean cost in USD, expected score, the arithmetic). Slopes per USD: 0.001→0.010:
# −20/0.009 = −20000/9; 0.010→0.050: −750; 0.050→0.100: −600; 0.100→0.200: −200.
COST_CASES = [
    (Decimal("0"), Fraction(100), "below the first anchor: flat 100"),
    (Decimal("0.0009"), Fraction(100), "just below $0.001: flat 100"),
    (Decimal("0.001"), Fraction(100), "anchor $0.001 → 100"),
    (Decimal("0.0011"), Fraction(898, 9), "100 − 20·0.0001/0.009 = 100 − 2/9"),
    (Decimal("0.0055"), Fraction(90), "midpoint $0.001–$0.010: (100 + 80)/2"),
    (Decimal("0.0099"), Fraction(722, 9), "100 − 20·0.0089/0.009 = 100 − 178/9"),
    (Decimal("0.010"), Fraction(80), "anchor $0.010 → 80"),
    (Decimal("0.0101"), Fraction(3197, 40), "80 − 30·0.0001/0.04 = 80 − 3/40"),
    (Decimal("0.030"), Fraction(65), "midpoint $0.010–$0.050: (80 + 50)/2"),
    (Decimal("0.0499"), Fraction(50075, 1000), "80 − 30·0.0399/0.04 = 50.075"),
    (Decimal("0.050"), Fraction(50), "anchor $0.050 → 50"),
    (Decimal("0.0501"), Fraction(4994, 100), "50 − 30·0.0001/0.05 = 49.94"),
    (Decimal("0.075"), Fraction(35), "midpoint $0.050–$0.100: (50 + 20)/2"),
    (Decimal("0.0999"), Fraction(2006, 100), "50 − 30·0.0499/0.05 = 20.06"),
    (Decimal("0.100"), Fraction(20), "anchor $0.100 → 20"),
    (Decimal("0.1001"), Fraction(1998, 100), "20 − 20·0.0001/0.1 = 19.98"),
    (Decimal("0.150"), Fraction(10), "midpoint $0.100–$0.200: (20 + 0)/2"),
    (Decimal("0.1999"), Fraction(2, 100), "20·0.0001/0.1 = 0.02"),
    (Decimal("0.200"), Fraction(0), "anchor $0.200 → 0"),
    (Decimal("0.2001"), Fraction(0), "above the last anchor: flat 0"),
    (Decimal("5"), Fraction(0), "far above the last anchor: flat 0"),
]


@pytest.mark.parametrize(("mean_ms", "expected", "why"), LATENCY_CASES)
def test_latency_curve(mean_ms: Fraction, expected: Fraction, why: str) -> None:
    score = piecewise_linear(mean_ms, LATENCY_1_0)
    assert score == expected, why
    assert isinstance(score, Fraction), why  # exact, never a rounded float


@pytest.mark.parametrize(("mean_usd", "expected", "why"), COST_CASES)
def test_cost_curve(mean_usd: Decimal, expected: Fraction, why: str) -> None:
    assert piecewise_linear(mean_usd, COST_1_0) == expected, why
    # the same from an exact Fraction
    assert piecewise_linear(Fraction(mean_usd), COST_1_0) == expected, why
    assert isinstance(piecewise_linear(mean_usd, COST_1_0), Fraction), why


def test_the_scores_are_the_curve_on_the_live_anchors() -> None:
    for mean_ms, _, why in LATENCY_CASES:
        assert latency_score(mean_ms) == piecewise_linear(mean_ms, LATENCY_ANCHORS_MS), why
    for mean_usd, _, why in COST_CASES:
        assert cost_score(mean_usd) == piecewise_linear(mean_usd, COST_ANCHORS_USD), why


def test_the_tables_were_worked_on_the_anchors_published_with_1_0_0() -> None:
    # The 1.0.0 snapshot is released (immutable): these are the page's tables.
    latency = [(a.x, a.score) for a in LATENCY_1_0]
    cost = [(a.x, a.score) for a in COST_1_0]
    assert latency == [(500, 100), (2000, 80), (5000, 50), (10000, 0)]
    assert cost == [
        (Decimal("0.001"), 100),
        (Decimal("0.010"), 80),
        (Decimal("0.050"), 50),
        (Decimal("0.100"), 20),
        (Decimal("0.200"), 0),
    ]


@pytest.mark.parametrize("anchors", [LATENCY_ANCHORS_MS, COST_ANCHORS_USD])
def test_every_anchor_scores_its_own_value(anchors: tuple[Anchor, ...]) -> None:
    for anchor in anchors:
        assert piecewise_linear(anchor.x, anchors) == Fraction(anchor.score)


def test_curves_compute_exactly_not_in_binary_floats() -> None:
    # A decimal on the cost curve's second slope whose float is not exact (with 1.0.0's
    # anchors $0.022: 80 − 30·(0.012/0.04) = 71 exactly).
    left, right = sloped_segments(COST_ANCHORS_USD)[1]
    share = next(
        s
        for s in ("0.3", "0.7", "0.1", "0.9")
        if float(along(COST_ANCHORS_USD, s, 1)) != along(COST_ANCHORS_USD, s, 1)
    )
    cost = (
        Decimal(str(along(COST_ANCHORS_USD, share, 1).numerator))
        / along(COST_ANCHORS_USD, share, 1).denominator
    )
    expected = Fraction(left.score) + Fraction(share) * Fraction(right.score - left.score)
    assert cost_score(cost) == expected
    # Its float is a little off the decimal, and so is its exact score: the functions take
    # numbers as given; the report reads JSON numbers as written.
    assert (Fraction(float(cost)) < Fraction(cost)) == (cost_score(float(cost)) > expected)
    assert cost_score(float(cost)) != expected


def test_a_curve_needs_increasing_anchors() -> None:
    with pytest.raises(ScoringError, match="increasing"):
        piecewise_linear(1, [Anchor(Decimal(2), Decimal(0)), Anchor(Decimal(1), Decimal(100))])
    with pytest.raises(ScoringError, match="at least one"):
        piecewise_linear(1, [])


# --- curves ---------------------------------------------------------------------------------

_CURVES = [(LATENCY_ANCHORS_MS, latency_score), (COST_ANCHORS_USD, cost_score)]


def _steepest(anchors: tuple[Anchor, ...]) -> Fraction:
    """The steepest segment's slope, in points per unit of x."""
    return max(
        abs(Fraction(b.score - a.score) / Fraction(b.x - a.x))
        for a, b in itertools.pairwise(anchors)
    )


_MAX_SLOPE = [_steepest(anchors) for anchors, _ in _CURVES]


@settings(max_examples=200, deadline=None)
@given(
    curve=st.integers(0, 1),
    x=st.fractions(min_value=-1, max_value=3, max_denominator=10**6),
    y=st.fractions(min_value=-1, max_value=3, max_denominator=10**6),
)
def test_curves_monotone_non_increasing_and_bounded(curve: int, x: Fraction, y: Fraction):
    anchors, function = _CURVES[curve]
    # x and y in units of the last anchor: from below 0 to three times beyond the curve
    x, y = x * Fraction(anchors[-1].x), y * Fraction(anchors[-1].x)
    low, high = min(x, y), max(x, y)
    lowest, highest = min(a.score for a in anchors), max(a.score for a in anchors)
    assert function(low) >= function(high)
    assert lowest <= function(low) <= highest
    assert lowest <= function(high) <= highest


@settings(max_examples=200, deadline=None)
@given(
    curve=st.integers(0, 1),
    index=st.integers(0, 4),
    eps=st.fractions(min_value=Fraction(1, 10**9), max_value=Fraction(1, 10**4)),
)
def test_curves_continuous_at_anchors(curve: int, index: int, eps: Fraction) -> None:
    anchors, function = _CURVES[curve]
    anchor = anchors[index % len(anchors)]
    x, s = Fraction(anchor.x), Fraction(anchor.score)
    bound = _MAX_SLOPE[curve] * eps
    assert function(x) == s
    assert abs(function(x - eps) - s) <= bound
    assert abs(function(x + eps) - s) <= bound


# --- curves -----------------------------------------------------------------------------------


CURVE_ANCHORS = [(latency_score, LATENCY_ANCHORS_MS), (cost_score, COST_ANCHORS_USD)]


@pytest.mark.parametrize(("curve", "anchors"), CURVE_ANCHORS, ids=["latency", "cost"])
def test_curves_are_continuous_at_every_anchor(curve, anchors) -> None:
    # Within ε of an anchor the score moves by at most the steepest slope × ε.
    slopes = [
        abs(Fraction(b.score - a.score) / Fraction(b.x - a.x))
        for a, b in itertools.pairwise(anchors)
    ]
    steepest = max(slopes)

    @FAST
    @given(
        st.sampled_from(anchors),
        st.fractions(min_value=Fraction(1, 10**12), max_value=Fraction(1, 10**3)),
    )
    def check(anchor, epsilon: Fraction) -> None:
        at = curve(anchor.x)
        assert at == Fraction(anchor.score)
        for near in (Fraction(anchor.x) - epsilon, Fraction(anchor.x) + epsilon):
            assert abs(curve(near) - at) <= steepest * epsilon

    check()


@pytest.mark.parametrize(("curve", "anchors"), CURVE_ANCHORS, ids=["latency", "cost"])
def test_curves_are_monotone_non_increasing(curve, anchors) -> None:
    top = Fraction(anchors[-1].x) * 2

    @FAST
    @given(
        st.fractions(min_value=-1, max_value=top, max_denominator=10**6),
        st.fractions(min_value=-1, max_value=top, max_denominator=10**6),
    )
    def check(x: Fraction, y: Fraction) -> None:
        low, high = sorted((x, y))
        assert curve(low) >= curve(high)

    check()
