"""Where the scoring tests' runs read the composite's curves, and what the composite is
there, derived from the live constants: no test pins a number the anchors or the weights
determine, so a writer's change of them leaves the tests passing.

The runs of a test sit at an anchor (its score is the anchor's), halfway along a sloped
segment, or beyond the curve's ends; the expected composite is the weighted formula of the
constants, published at two decimals, halves up.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from decimal import Decimal
from fractions import Fraction

from scoring.constants import COST_ANCHORS_USD, LATENCY_ANCHORS_MS, SCORE_DECIMALS, Anchor
from scoring.formulas.composite import SCALE, W_COST, W_RELIABILITY, W_SUCCESS
from scoring.formulas.curves import cost_score, sloped_segments
from scoring.numeric import decimal_half_up

#: The anchor most tests put their runs at: each curve's second (with 1.0.0's anchors,
#: 2,000 ms → 80 and $0.010 → 80).
LATENCY_AT: Anchor = LATENCY_ANCHORS_MS[1]
COST_AT: Anchor = COST_ANCHORS_USD[1]
#: Their abscissae as JSON numbers of a run (a float writes the decimal back as it is).
LATENCY_MS, COST_USD = float(LATENCY_AT.x), float(COST_AT.x)
#: Their scores.
LATENCY_SCORE, COST_SCORE = Fraction(LATENCY_AT.score), Fraction(COST_AT.score)
#: Below the first anchor of each curve: the curve's first (best) score, flat.
FASTEST_MS, CHEAPEST_USD = float(LATENCY_ANCHORS_MS[0].x / 5), float(COST_ANCHORS_USD[0].x / 5)
#: Beyond the last anchor of each curve: its last score, flat.
SLOWEST_MS, DEAREST_USD = float(LATENCY_ANCHORS_MS[-1].x * 3), float(COST_ANCHORS_USD[-1].x * 3)


def composite(
    p: Fraction | Decimal | int,
    consistency: Fraction | Decimal | int,
    latency: Fraction | Decimal | float = LATENCY_SCORE,
    cost: Fraction | Decimal | float = COST_SCORE,
) -> Fraction:
    """``scale·(w_s·p + w_r·consistency·latency/scale + w_c·cost/scale)`` on the live weights,
    exactly, before any floor."""
    rate, steady, fast, cheap = (Fraction(v) for v in (p, consistency, latency, cost))
    return SCALE * (
        W_SUCCESS * rate + W_RELIABILITY * steady * fast / SCALE + W_COST * cheap / SCALE
    )


def published(exact: Fraction) -> float:
    """A composite as the report prints it: two decimals, halves up."""
    return float(decimal_half_up(exact, SCORE_DECIMALS))


def last_cost_slope() -> tuple[Anchor, Anchor]:
    """The cost curve's last sloped segment."""
    return sloped_segments(COST_ANCHORS_USD)[-1]


def costs_on_the_last_slope() -> Iterator[Decimal]:
    """Decimal costs on the cost curve's last slope, from its right end leftwards, on ever
    finer steps (a tenth of the segment, then a hundredth, …)."""
    left, right = last_cost_slope()
    for places in range(1, 8):
        step = (right.x - left.x) / 10**places
        for j in range(1, 10 ** min(places, 3)):
            yield right.x - j * step


def _exact_p1(latency_score: Fraction, costs: Sequence[Decimal]) -> Fraction:
    """The composite of runs that all succeed, below the consistency gate, at ``costs``."""
    mean = sum((Fraction(c) for c in costs), Fraction(0)) / len(costs)
    return composite(1, 1, latency_score, cost_score(mean))


def half_up_case() -> tuple[list[Decimal], Fraction]:
    """Three costs (two at the right end of the cost curve's last slope, one left of it)
    whose runs, all successful and beyond the last latency anchor, have an exact composite
    ending in a half at the third decimal; and that composite."""
    last = Fraction(LATENCY_ANCHORS_MS[-1].score)
    _, right = last_cost_slope()
    for cost in costs_on_the_last_slope():
        costs = [right.x, right.x, cost]
        exact = _exact_p1(last, costs)
        if (exact * 1000).denominator == 1 and exact * 1000 % 10 == 5:
            return costs, exact
    raise AssertionError("no cost on the last slope puts the composite on a half")


def tie_case() -> tuple[Decimal, Decimal, Decimal]:
    """Three costs of one successful run each, beyond the last latency anchor: the first two
    give different exact composites (the first the lower) that publish as the same value,
    the third one published higher."""
    last = Fraction(LATENCY_ANCHORS_MS[-1].score)
    by_value: dict[float, list[tuple[Fraction, Decimal]]] = {}
    for cost in itertools.islice(costs_on_the_last_slope(), 5000):
        exact = _exact_p1(last, [cost])
        by_value.setdefault(published(exact), []).append((exact, cost))
    for value, found in sorted(by_value.items()):
        exacts = sorted(set(found))
        higher = [v for v in by_value if v > value]
        if len({e for e, _ in exacts}) > 1 and higher:
            top = by_value[max(higher)][0][1]
            return exacts[0][1], exacts[-1][1], top
    raise AssertionError("no two costs publish alike")
