"""The ranks of a report: the competition rank by composite and LMArena's rank upper bound
(methodology 1.1.0, docs/uncertainty.md), registered with their golden points."""

from __future__ import annotations

import bisect
import operator
from collections.abc import Sequence
from decimal import Decimal
from fractions import Fraction

from scoring.constants import (
    INTERVAL_MIN_TASKS,
    SCORE_SCALE,
)
from scoring.intervals.surd import Interval
from scoring.numeric import Number, exact
from scoring.registry import (
    attribute,
    column,
    formula,
    point,
    present,
    rows,
    tex_number,
)

# The numbers a formula shows are the constants', so a changed constant changes the formula.
_SCALE = tex_number(SCORE_SCALE)
_MIN_TASKS = tex_number(INTERVAL_MIN_TASKS)

_ZERO = Fraction(0)
_ONE = Fraction(1)


# --- Ranks --------------------------------------------------------------------------------


@formula(
    "uncertainty.rank",
    title="Competition rank",
    latex=r"\mathrm{rank}_a = 1 + \left|\{ b : S_b > S_a \}\right|",
    symbols={
        "a": rows("scores", "value"),
        "b": rows("scores", "value", keep=present()),
        "S_b": column("value"),
        "S_a": column("value"),
    },
    golden=(
        point("ties and a null", scores=(80, 70, 70, None, 60)),
        point("all equal", scores=(50, 50)),
        point("one", scores=(Fraction(713, 10),)),
    ),
)
def competition_ranks(scores: Sequence[Number | None]) -> list[int | None]:
    """The competition rank of each of ``scores`` (every agent's published composite): 1 +
    the number of higher scores, so equal scores share a rank; ``None`` for a ``null``
    composite. A sort and a binary search each, so a report of many agents stays fast.

    >>> competition_ranks([80, 70, 70, None, 60])
    [1, 2, 2, None, 4]
    """
    present = [s for s in scores if s is not None]
    if all(map(operator.ge, present, present[1:])):
        # Highest first already (as the report orders its agents): one pass, each score's
        # rank the place of the first score equal to it.
        ranks: list[int | None] = []
        place, rank, previous = 0, 0, None
        for s in scores:
            if s is None:
                ranks.append(None)
                continue
            place += 1
            if s != previous:
                rank, previous = place, s
            ranks.append(rank)
        return ranks
    # Floats (the published composites) are sorted and searched as they are: Python
    # compares floats by their exact values, and a Fraction per agent made a report of
    # 20,000 agents spend a fifth of its time here.
    if all(type(s) is float for s in present):
        known: list[Number] = sorted(present)
        key = _same
    else:
        known, key = sorted(map(exact, present)), exact
    return [
        None if s is None else 1 + len(known) - bisect.bisect_right(known, key(s)) for s in scores
    ]


def _same(value: Number) -> Number:
    return value


_GOLDEN_HIGH = Interval(Decimal("70"), Decimal("80"))
_GOLDEN_MID = Interval(Decimal("65"), Decimal("72.5"))
_GOLDEN_LOW = Interval(Decimal("60"), Decimal("69.99"))


@formula(
    "uncertainty.rank_upper_bound",
    title="Rank upper bound (rank (UB))",
    latex=(r"\mathrm{UB}_a = 1 + \left|\{ b : \mathrm{low}_b > \mathrm{high}_a \}\right|"),
    symbols={
        "a": rows("intervals", "value"),
        "b": rows("intervals", "value", keep=present()),
        r"\mathrm{low}_b": attribute(column("value"), "low"),
        r"\mathrm{high}_a": attribute(column("value"), "high"),
    },
    golden=(
        point("apart and a null", intervals=(_GOLDEN_HIGH, _GOLDEN_LOW, None)),
        point("overlapping", intervals=(_GOLDEN_HIGH, _GOLDEN_MID, _GOLDEN_LOW)),
    ),
)
def rank_upper_bounds(intervals: Sequence[Interval | None]) -> list[int | None]:
    """How high each agent could truly stand: 1 + the number of agents whose composite
    interval lies entirely above its own (their low bound above its high bound), as
    LMArena's "rank (UB)"; ``None`` for an agent without an interval, and agents without
    one are not counted. Read from the published (rounded) bounds, so a reader counts it
    off the table. Never above the competition rank: an interval entirely above belongs to a
    higher composite.

    >>> a, b = Interval(Decimal(70), Decimal(80)), Interval(Decimal(60), Decimal("69.99"))
    >>> rank_upper_bounds([a, b, None, Interval(Decimal(65), Decimal(75))])
    [1, 2, None, 1]
    """
    lows = sorted(i.low for i in intervals if i is not None)
    return [
        None if i is None else 1 + len(lows) - bisect.bisect_right(lows, i.high) for i in intervals
    ]
