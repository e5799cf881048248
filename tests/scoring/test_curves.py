"""The piecewise-linear latency and cost curves of the headline composite.

Every anchor is checked at, just below, just above and halfway to the next anchor, plus
below the first and above the last; once driven by ``scoring.constants`` (so the tests follow
the constants) and once with values computed by hand from the published tables.

Anchors from the methodology page: latency 500 ms → 100, 2,000 → 80, 5,000 → 50,
10,000 → 0; cost $0.001 → 100, $0.010 → 80, $0.050 → 50, $0.100 → 20, $0.200 → 0; linear
between adjacent anchors, 100 at or below the first, 0 at or above the last. Every expected
value below is worked out by hand from those numbers.
"""

from __future__ import annotations

import itertools
import json
from decimal import Decimal
from fractions import Fraction

import pytest
from builders import FAST
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring import build_report, cost_score, latency_score, piecewise_linear, report_to_json
from scoring.constants import COST_ANCHORS_USD, LATENCY_ANCHORS_MS, Anchor
from scoring.registry import ScoringError

CURVES = {
    "latency": (LATENCY_ANCHORS_MS, latency_score),
    "cost": (COST_ANCHORS_USD, cost_score),
}


def _points(anchors: tuple[Anchor, ...]) -> list[tuple[Fraction, Fraction]]:
    return [(Fraction(a.x), Fraction(a.score)) for a in anchors]


def _cases() -> list[tuple[str, int]]:
    return [(name, i) for name, (anchors, _) in CURVES.items() for i in range(len(anchors))]


# --- the published tables (docs/composite.md and docs/radar.md) -----------------------------


def test_latency_anchor_table_is_the_published_one() -> None:
    assert _points(LATENCY_ANCHORS_MS) == [
        (Fraction(500), Fraction(100)),
        (Fraction(2000), Fraction(80)),
        (Fraction(5000), Fraction(50)),
        (Fraction(10000), Fraction(0)),
    ]


def test_cost_anchor_table_is_the_published_one() -> None:
    assert _points(COST_ANCHORS_USD) == [
        (Fraction(1, 1000), Fraction(100)),
        (Fraction(10, 1000), Fraction(80)),
        (Fraction(50, 1000), Fraction(50)),
        (Fraction(100, 1000), Fraction(20)),
        (Fraction(200, 1000), Fraction(0)),
    ]


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
    # 1999 ms: 80 + 1/75 = 6001/75, not a rounded float.
    assert latency_score(1999) == Fraction(6001, 75)
    assert isinstance(latency_score(1999), Fraction)
    assert cost_score(Decimal("0.0011")) == Fraction(898, 9)


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


def _completed(run_id: str, latency: float, cost: float) -> bytes:
    record = {
        "run_id": run_id,
        "agent_id": "a",
        "task_id": "t",
        "status": "completed",
        "success": True,
        "latency_ms": latency,
        "cost_usd": cost,
        "steps": None,
        "finished_at": f"2024-01-01T00:00:0{run_id[-1]}Z",
    }
    return json.dumps(record).encode() + b"\n"


def test_report_reads_curves_on_the_mean_at_anchors() -> None:
    # Mean latency (1000 + 3000) / 2 = 2000 ms → 80; mean cost (0.04 + 0.06) / 2 = 0.05 → 50.
    lines = [_completed("r1", 1000, 0.04), _completed("r2", 3000, 0.06)]
    composite = report_to_json(build_report(lines))["agents"][0]["composite"]
    assert composite["latency_score"] == 80.0
    assert composite["cost_score"] == 50.0
    # p = 1, consistency 1 (2 < 5 runs): 100 × (0.40 + 0.30 × 0.80 + 0.30 × 0.50) = 79
    assert composite["score"] == 79.0


def test_report_mean_is_exact_and_rounds_half_up() -> None:
    # Costs 0.19975, 0.2, 0.2: mean 0.59975 / 3; on the last segment the cost score is
    # 200 × (0.2 − mean) = 200 × 0.00025 / 3 = 1/60. Latency 10000 → 0.
    # composite = 100 × (0.40 × 1 + 0 + 0.30 × (1/60) / 100) = 40 + 0.005 = 40.005 → 40.01.
    lines = [
        _completed("r1", 10000, 0.19975),
        _completed("r2", 10000, 0.2),
        _completed("r3", 10000, 0.2),
    ]
    composite = report_to_json(build_report(lines))["agents"][0]["composite"]
    assert composite["latency_score"] == 0.0
    assert composite["cost_score"] == 0.02  # 1/60 = 0.01666… → 0.02
    assert composite["score"] == 40.01


TINY = Fraction(1, 10**9)

# --- hard-coded, computed by hand from the published tables -------------------------------

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
    score = latency_score(mean_ms)
    assert score == expected, why
    assert isinstance(score, Fraction), why  # exact, never a rounded float


@pytest.mark.parametrize(("mean_usd", "expected", "why"), COST_CASES)
def test_cost_curve(mean_usd: Decimal, expected: Fraction, why: str) -> None:
    assert cost_score(mean_usd) == expected, why
    assert cost_score(Fraction(mean_usd)) == expected, why  # the same from an exact Fraction
    assert isinstance(cost_score(mean_usd), Fraction), why


def test_anchor_tables_are_the_published_ones() -> None:
    latency = [(a.x, a.score) for a in LATENCY_ANCHORS_MS]
    cost = [(a.x, a.score) for a in COST_ANCHORS_USD]
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
    # $0.03 as a Decimal is exactly 3/100: 80 − 30·(0.02/0.04) = 65 exactly.
    assert cost_score(Decimal("0.03")) == 65
    # The float 0.03 is a little below 3/100, so its exact value scores a little above 65:
    # the functions take numbers as given; the report reads JSON numbers as written.
    assert Fraction(0.03) < Fraction(3, 100)
    assert cost_score(0.03) > 65


def test_a_curve_needs_increasing_anchors() -> None:
    with pytest.raises(ScoringError, match="increasing"):
        piecewise_linear(1, [Anchor(Decimal(2), Decimal(0)), Anchor(Decimal(1), Decimal(100))])
    with pytest.raises(ScoringError, match="at least one"):
        piecewise_linear(1, [])


# --- curves ---------------------------------------------------------------------------------

_CURVES = [(LATENCY_ANCHORS_MS, latency_score), (COST_ANCHORS_USD, cost_score)]
_MAX_SLOPE = [Fraction(20, 1500), Fraction(20000, 9)]  # steepest segment of each curve


@settings(max_examples=200, deadline=None)
@given(
    curve=st.integers(0, 1),
    x=st.fractions(min_value=-1, max_value=30000, max_denominator=10**6),
    y=st.fractions(min_value=-1, max_value=30000, max_denominator=10**6),
)
def test_curves_monotone_non_increasing_and_bounded(curve: int, x: Fraction, y: Fraction):
    _, function = _CURVES[curve]
    if curve == 1:  # costs live on a scale 100 000 times smaller
        x, y = x / 100_000, y / 100_000
    low, high = min(x, y), max(x, y)
    assert function(low) >= function(high)
    assert 0 <= function(low) <= 100
    assert 0 <= function(high) <= 100


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
