"""The report's faster readings and writings are the exact ones.

Each fast evaluation (integer rounding, the prepared curves, JSON indented by msgspec,
msgspec's decoding of a run, integer sums, scores shared by agents with the same tallies)
is compared with the formula or the
reading it stands for, on random inputs and on the edges: curve anchors and midpoints,
clamps, rounding ties (a value exactly halfway between two published decimals). Each
comparison is also shown to catch a plausible mistake (a wrong variant fails it).
"""

from __future__ import annotations

import itertools
import json
import math
import random
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import example, given, settings, strategies as st
from pydantic import ValidationError
from report_logs import random_log

from scoring.comparisons.ranks import competition_ranks, rank_upper_bounds
from scoring.constants import (
    COST_ANCHORS_USD,
    LATENCY_ANCHORS_MS,
    PASS_K_LEVELS,
    Axis,
)
from scoring.errors import json_visible
from scoring.formulas.composite import score_composite
from scoring.formulas.curves import piecewise_linear
from scoring.formulas.radar import RadarResult
from scoring.formulas.repeatability import RepeatabilityResult
from scoring.intervals.variance import Interval
from scoring.models import RunRecord
from scoring.numeric import (
    as_written,
    decimal_half_up,
    exact_sum,
    half_up_units,
    round_half_up,
)
from scoring.report import report_of
from scoring.report.read import chunk_rows, read_stats, row_of
from scoring.report.score import AgentReport, Shared, score
from scoring.report.write import (
    agent_to_json,
    pass_key,
    repeatability_to_json,
    report_json_text,
    report_to_json,
    to_json_text,
)

# --- rounding -------------------------------------------------------------------------------


def fraction_half_up(value: Fraction, places: int) -> int:
    """The rounding as the methodology writes it: floor(value · 10^places + 1/2)."""
    return math.floor(value * 10**places + Fraction(1, 2))


fractions = st.fractions(max_denominator=10**12).filter(lambda f: abs(f) < 10**9)
places = st.sampled_from([0, 2, 4])


@st.composite
def ties(draw: st.DrawFn) -> tuple[Fraction, int]:
    """A value exactly halfway between two numbers of ``places`` decimals."""
    p = draw(places)
    k = draw(st.integers(-(10**8), 10**8))
    return Fraction(2 * k + 1, 2 * 10**p), p


@settings(max_examples=400, deadline=None)
@given(st.one_of(st.tuples(fractions, places), ties()))
@example((Fraction(1, 8), 2))
@example((Fraction(-1, 8), 2))
@example((Fraction(5, 1000), 2))
def test_integer_rounding_is_the_fraction_rounding(case: tuple[Fraction, int]) -> None:
    value, p = case
    units = fraction_half_up(value, p)
    assert half_up_units(value, p) == units
    assert decimal_half_up(value, p) == Decimal(units).scaleb(-p)
    assert round_half_up(value, p) == float(Decimal(units).scaleb(-p))


def test_the_rounding_check_catches_half_down() -> None:
    def half_down(value: Fraction, p: int) -> int:
        return math.ceil(value * 10**p - Fraction(1, 2))

    value = Fraction(125, 1000)  # 0.125: a tie at two decimals
    assert half_up_units(value, 2) == fraction_half_up(value, 2) != half_down(value, 2)


# --- curves and the composite ---------------------------------------------------------------


def anchor_points(anchors: Any) -> list[Fraction]:
    """Every anchor, every midpoint, a point beyond each end."""
    xs = [Fraction(a.x) for a in anchors]
    mids = [(a + b) / 2 for a, b in itertools.pairwise(xs)]
    return [xs[0] / 2, *xs, *mids, xs[-1] * 2]


CURVES = [LATENCY_ANCHORS_MS, COST_ANCHORS_USD]


@pytest.mark.parametrize("anchors", CURVES)
def test_prepared_curves_agree_at_anchors_and_midpoints(anchors: Any) -> None:
    for x in anchor_points(anchors):
        assert piecewise_linear(x, anchors) == reference_curve(x, anchors)


def reference_curve(x: Fraction, anchors: Any) -> Fraction:
    """The curve's definition, written out again: flat outside, linear between."""
    points = [(Fraction(a.x), Fraction(a.score)) for a in anchors]
    if x <= points[0][0]:
        return points[0][1]
    for (x0, s0), (x1, s1) in itertools.pairwise(points):
        if x <= x1:
            return s0 + (s1 - s0) * (x - x0) / (x1 - x0)
    return points[-1][1]


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(CURVES), st.fractions(min_value=0, max_value=20_000))
def test_prepared_curves_agree_anywhere(anchors: Any, x: Fraction) -> None:
    assert piecewise_linear(x, anchors) == reference_curve(x, anchors)


def test_a_curve_passed_as_a_new_list_is_prepared_afresh() -> None:
    anchors = list(LATENCY_ANCHORS_MS)
    left, right = anchors[1], anchors[2]
    before = piecewise_linear((left.x + right.x) / 2, anchors)
    anchors.reverse()  # no longer increasing: refused, not read from a stale preparation
    with pytest.raises(Exception, match="strictly increasing"):
        piecewise_linear((left.x + right.x) / 2, anchors)
    assert before == Fraction(left.score + right.score) / 2


# --- radar ----------------------------------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(st.floats(min_value=0, allow_nan=False, allow_infinity=False))
def test_as_written_reads_the_shortest_decimal(value: float) -> None:
    assert as_written(value) == Fraction(repr(value))


# --- output ---------------------------------------------------------------------------------

json_data = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(),
        st.floats(allow_nan=False, allow_infinity=False),
        st.text(),
    ),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=5), inner, max_size=4)
    ),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(json_data)
def test_json_text_is_json_dumps_indented(data: Any) -> None:
    expected = json_visible(json.dumps(data, indent=2, ensure_ascii=False))
    assert to_json_text(data) == expected


# --- decoding -------------------------------------------------------------------------------

LINE = (
    '{{"run_id": "r", "agent_id": "a", "task_id": "t", "status": "completed", '
    '"success": true, "latency_ms": {latency}, "cost_usd": {cost}, "steps": {steps}, '
    '"finished_at": "2026-01-01T00:00:00Z"}}'
)
number_texts = st.one_of(
    st.decimals(min_value=0, max_value=10**12, allow_nan=False).map(str),
    st.builds(
        "{}.{}e{}".format,
        st.integers(0, 10**20),
        st.integers(0, 10**25),
        st.integers(-330, 310),
    ),
    st.floats(min_value=0, allow_nan=False, allow_infinity=False).map(repr),
    st.integers(0, 2**70).map(str),
)


def pydantic_row(line: bytes) -> object:
    try:
        return row_of(RunRecord.model_validate_json(line))
    except ValidationError:
        return None


@settings(max_examples=400, deadline=None)
@given(number_texts, number_texts, st.one_of(st.integers(0, 2**66).map(str), number_texts))
def test_msgspec_reads_numbers_as_the_model_does(latency: str, cost: str, steps: str) -> None:
    line = LINE.format(latency=latency, cost=cost, steps=steps).encode()
    rows = chunk_rows([line])
    assert (rows[0] if rows else None) == pydantic_row(line)


HOSTILE_STRINGS: list[Callable[[str], str]] = [
    lambda s: s,
    lambda s: s.replace('"a"', '"\\ud800"'),  # a lone surrogate
    lambda s: s.replace('"a"', '"\\ud83d\\ude00"'),  # a pair
    lambda s: s.replace('"a"', '"a\x7f"'),  # DEL is allowed raw
    lambda s: s.replace('"a"', '"a\x1f"'),  # a control character is not
    lambda s: s.replace('"a"', '"\\u0061"'),
    lambda s: s.replace("Z", "Z\\n"),  # a newline after the offset: not a timestamp
    lambda s: s.replace('"completed"', '"COMPLETED"'),
    lambda s: s.replace(", ", ",\x0c"),  # a form feed is not JSON whitespace
    lambda s: s.replace(", ", ",\u00a0"),
    lambda s: s + " \t\r",
    lambda s: s.replace("true", "1"),
]


@pytest.mark.parametrize("edit", range(len(HOSTILE_STRINGS)))
def test_msgspec_accepts_and_refuses_what_the_model_does(edit: int) -> None:
    line = HOSTILE_STRINGS[edit](LINE.format(latency=1, cost=0.5, steps=3)).encode()
    rows = chunk_rows([line])
    assert (rows[0] if rows else None) == pydantic_row(line)


@pytest.mark.parametrize(
    "raw", [b"\xff", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x82"]
)
def test_msgspec_refuses_the_bytes_the_model_refuses(raw: bytes) -> None:
    line = LINE.format(latency=1, cost=0.5, steps=3).encode().replace(b'"a"', b'"' + raw + b'"')
    assert chunk_rows([line]) is None
    assert pydantic_row(line) is None


# --- ranks ----------------------------------------------------------------------------------

published = st.one_of(st.none(), st.sampled_from([0.0, 50.0, 50.01, 71.23, 100.0]))


@st.composite
def published_intervals(draw: st.DrawFn) -> Interval | None:
    if draw(st.booleans()):
        return None
    low, high = sorted(draw(st.lists(st.sampled_from(BOUNDS), min_size=2, max_size=2)))
    return Interval(low, high)


BOUNDS = [Decimal(v) for v in ("0", "49.99", "50", "50.01", "66.9", "75.51", "100")]


def counted_rank(score: float | None, scores: list[float | None]) -> int | None:
    """The competition rank as its LaTeX writes it: 1 + |{b : S_b > S_a}|."""
    return None if score is None else 1 + sum(1 for o in scores if o is not None and o > score)


def counted_bound(interval: Interval | None, intervals: list[Interval | None]) -> int | None:
    """The rank upper bound as its LaTeX writes it: 1 + |{b : low_b > high_a}|."""
    if interval is None:
        return None
    return 1 + sum(1 for o in intervals if o is not None and o.low > interval.high)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(published, published_intervals()), max_size=30))
def test_ranks_by_sorting_are_the_counts(agents: list[tuple[float | None, Any]]) -> None:
    # The report ranks 20,000 agents by sorting once (n log n); the formulas count (n²).
    scores = [s for s, _ in agents]
    intervals = [i for _, i in agents]
    ranks = competition_ranks(scores)  # floats: compared as they are
    assert ranks == [counted_rank(s, scores) for s in scores]
    assert competition_ranks([None if s is None else Fraction(s) for s in scores]) == ranks
    assert rank_upper_bounds(intervals) == [counted_bound(i, intervals) for i in intervals]
    # Highest first already (the report's order; one pass), a null among them.
    ordered: list[float | None] = sorted((s for s in scores if s is not None), reverse=True)
    ordered[1:1] = [None]
    assert competition_ranks(ordered) == [counted_rank(s, ordered) for s in ordered]


def test_the_rank_check_catches_counting_ties_as_above() -> None:
    scores: list[float | None] = [70.0, 70.0, 80.0]
    ties_above = [1 + sum(1 for o in scores if o >= s) - 1 for s in scores]  # a wrong count
    assert competition_ranks(scores) == [counted_rank(s, scores) for s in scores] != ties_above


# --- scores shared by agents with the same tallies --------------------------------------------


def _stats_of_many_small_agents(seed: int) -> list[Any]:
    """Stats of a log where many agents share their tallies (one to three runs on one or two
    tasks each), beside a few agents of many runs."""
    rng = random.Random(seed)
    records = random_log(rng, 400, 150, 2, 60) + [
        {**record, "agent_id": f"big-{record['agent_id']}"}
        for record in random_log(rng, 600, 3, 14, 60)
    ]
    for i, record in enumerate(records):
        record["run_id"] = f"run-{i}"
    return read_stats(iter([json.dumps(record).encode() for record in records]))


class _SharedByTaskCount(Shared):
    """A wrong variant: shares what the outcomes give by their number of tasks alone."""

    def outcomes(self, outcomes: tuple[tuple[int, int], ...]) -> Any:
        return super().outcomes(((len(outcomes), 0),) * len(outcomes))


@pytest.mark.parametrize("seed", range(3))
def test_shared_scores_are_each_agents_own(seed: int) -> None:
    """The report's scores shared by tallies (``Shared``) are those each agent scored alone
    gets; and sharing happened (the same objects for agents with the same tallies)."""
    stats = _stats_of_many_small_agents(seed)
    shared = Shared(PASS_K_LEVELS)
    together = [score(agent, None, PASS_K_LEVELS, shared) for agent in stats]
    alone = [score(agent, None, PASS_K_LEVELS) for agent in stats]
    assert together == alone
    distinct = {id(report.repeatability) for report in together}
    assert len(distinct) < len(together)
    assert len({id(report.repeatability) for report in alone}) == len(alone)


def test_the_sharing_check_catches_a_wrong_key() -> None:
    stats = _stats_of_many_small_agents(0)
    wrong = _SharedByTaskCount(PASS_K_LEVELS)
    together = [score(agent, None, PASS_K_LEVELS, wrong) for agent in stats]
    assert together != [score(agent, None, PASS_K_LEVELS) for agent in stats]


def test_shared_json_objects_write_the_same_document() -> None:
    """The JSON writer's shared ``repeatability`` objects give the same document and text as
    one built afresh for every agent, and are shared only when asked."""
    report = report_of(_stats_of_many_small_agents(1))
    fresh, shared = report_to_json(report), report_to_json(report, shared=True)
    assert fresh == shared
    assert report_json_text(report) == to_json_text(fresh)

    def blocks(document: dict[str, Any]) -> int:
        return len({id(agent["repeatability"]) for agent in document["agents"]})

    assert blocks(fresh) == len(report.agents) > blocks(shared)


def _fraction_sum(values: list[Fraction]) -> Fraction:
    return sum(values, Fraction(0))


exact_fractions = st.fractions(max_denominator=10**6, min_value=-(10**4), max_value=10**4)


@given(st.lists(exact_fractions, max_size=6))
def test_integer_sums_are_the_fraction_sums(values: list[Fraction]) -> None:
    assert exact_sum(values) == _fraction_sum(values)


def test_the_sum_check_catches_numerators_added_alone() -> None:
    def numerators_only(values: list[Fraction]) -> Fraction:
        return Fraction(sum(value.numerator for value in values))

    values = [Fraction(3, 8), Fraction(5)]
    assert exact_sum(values) == _fraction_sum(values) != numerators_only(values)


def test_an_agent_built_by_hand_is_written_at_every_level_it_carries() -> None:
    """An agent built from its parts (no pass^k at all, the default intervals at the
    published levels) is written level by level, as each part lists its levels."""
    agent = AgentReport(
        "hand",
        score_composite(0, 0, 0, 0),
        RadarResult(dict.fromkeys(Axis), None, 0, None),
        RepeatabilityResult({}, 0),
    )
    written = agent_to_json(agent)["repeatability"]
    assert written["intervals"] == {pass_key(k): None for k in PASS_K_LEVELS}
    assert written == repeatability_to_json(agent)
