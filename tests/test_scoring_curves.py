"""The latency and cost curves of the headline composite, at and around every anchor.

Anchors from the methodology page: latency 500 ms → 100, 2,000 → 80, 5,000 → 50,
10,000 → 0; cost $0.001 → 100, $0.010 → 80, $0.050 → 50, $0.100 → 20, $0.200 → 0; linear
between adjacent anchors, 100 at or below the first, 0 at or above the last. Every expected
value below is worked out by hand from those numbers.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from scoring import cost_score, latency_score, piecewise_linear
from scoring.constants import COST_ANCHORS_USD, LATENCY_ANCHORS_MS, Anchor
from scoring.registry import ScoringError

TINY = Fraction(1, 10**9)

# (mean latency in ms, expected score, the arithmetic)
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

# (mean cost in USD, expected score, the arithmetic)
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
    assert latency_score(mean_ms) == expected, why


@pytest.mark.parametrize(("mean_usd", "expected", "why"), COST_CASES)
def test_cost_curve(mean_usd: Decimal, expected: Fraction, why: str) -> None:
    assert cost_score(mean_usd) == expected, why


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
