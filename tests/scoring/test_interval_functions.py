"""The pure interval functions (``scoring.intervals.rates``, ``scoring.intervals.moves``,
``scoring.intervals.variance``, ``scoring.comparisons.ranks``, ``scoring.comparisons.planning``;
intervals of methodology 1.2.0) against their properties: low ≤ estimate ≤ high, bounds on the
scale, rounded outwards exactly, narrower with more tasks, ``null`` below the task minimum, the
zero-success and all-success edges, the clustered variance and covariance, the curves' slopes, the
ranks and their upper bounds, the runs needed and the quantiles derived from the levels. The
report's intervals are checked against a naive reference in ``test_intervals.py``.
"""

from __future__ import annotations

import json
import math
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal, localcontext
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from scoring.comparisons.planning import runs_needed
from scoring.comparisons.ranks import competition_ranks, rank_upper_bounds
from scoring.constants import (
    COST_ANCHORS_USD,
    FRACTION_DECIMALS,
    INTERVAL_LEVEL,
    INTERVAL_MIN_TASKS,
    INTERVAL_POWER,
    INTERVAL_Z,
    INTERVAL_Z_POWER,
    LATENCY_ANCHORS_MS,
    PASS_K_LEVELS,
    SCORE_DECIMALS,
)
from scoring.formulas.composite import score_composite
from scoring.formulas.repeatability import aggregate_pass_hat_k
from scoring.intervals import rates
from scoring.intervals.clustered import Columns
from scoring.intervals.moves import composite_interval
from scoring.intervals.rates import (
    correctness_interval,
    pass_hat_k_interval,
    success_interval,
    success_rate_interval,
)
from scoring.intervals.variance import (
    Interval,
    Surd,
    clustered_covariance,
    clustered_variance,
    curve_slope,
    interval_reason,
)
from scoring.numeric import round_half_up
from scoring.registry import ScoringError

MANY = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# --- the pure functions -----------------------------------------------------------------------


@st.composite
def cohorts(draw: st.DrawFn, min_tasks: int = INTERVAL_MIN_TASKS) -> list[tuple[int, int]]:
    """(runs, successes) per task, at least ``min_tasks`` tasks."""
    found = []
    for _ in range(draw(st.integers(min_tasks, 30))):
        runs = draw(st.integers(1, 8))
        found.append((runs, draw(st.integers(0, runs))))
    return found


def composite_cohorts() -> st.SearchStrategy[list[tuple[int, int, Fraction, Fraction]]]:
    anchors_ms = [a.x for a in LATENCY_ANCHORS_MS]
    anchors_usd = [a.x for a in COST_ANCHORS_USD]
    latency = st.one_of(
        st.sampled_from(anchors_ms).map(Fraction),
        st.fractions(0, Fraction(anchors_ms[-1]) * Fraction(6, 5), max_denominator=100),
    )
    cost = st.one_of(
        st.sampled_from(anchors_usd).map(Fraction),
        st.fractions(0, Fraction(anchors_usd[-1]) * Fraction(3, 2), max_denominator=10**4),
    )
    return cohorts().flatmap(
        lambda tasks: st.tuples(*(st.tuples(latency, cost) for _ in tasks)).map(
            lambda means: [
                (n, c, n * ms, n * usd) for (n, c), (ms, usd) in zip(tasks, means, strict=True)
            ]
        )
    )


def _estimate(tasks: list[tuple[int, int, Fraction, Fraction]]) -> float:
    n = sum(t[0] for t in tasks)
    result = score_composite(
        n, sum(t[1] for t in tasks), sum(t[2] for t in tasks) / n, sum(t[3] for t in tasks) / n
    )
    assert result.score is not None
    return round_half_up(result.score, SCORE_DECIMALS)


def _within(interval: Interval | None, estimate: float, top: int) -> None:
    assert interval is not None
    assert 0 <= interval.low <= Decimal(repr(estimate)) <= interval.high <= top


@MANY
@given(tasks=cohorts())
def test_success_rate_interval_contains_the_rate_and_stays_on_the_scale(tasks) -> None:
    n, c = sum(t[0] for t in tasks), sum(t[1] for t in tasks)
    _within(success_rate_interval(tasks), round_half_up(Fraction(c, n), FRACTION_DECIMALS), 1)


@MANY
@given(tasks=composite_cohorts())
def test_composite_interval_contains_the_score_and_stays_on_the_scale(tasks) -> None:
    _within(composite_interval(tasks), _estimate(tasks), 100)


@MANY
@given(tasks=cohorts(), k=st.sampled_from(PASS_K_LEVELS))
def test_pass_hat_k_interval_contains_the_mean(tasks, k) -> None:
    outcomes = [(n + 5, c) for n, c in tasks]  # five outcomes or more: qualifies at each level
    mean = aggregate_pass_hat_k(outcomes, k)
    assert mean is not None
    _within(pass_hat_k_interval(outcomes, k), round_half_up(mean, FRACTION_DECIMALS), 1)


@MANY
@given(tasks=cohorts())
def test_correctness_interval_contains_the_axis(tasks) -> None:
    window = [(c, n) for n, c in tasks]
    passes, known = sum(c for c, _ in window), sum(n for _, n in window)
    axis = round_half_up(Fraction(100 * passes, known), SCORE_DECIMALS)
    _within(correctness_interval(window), axis, 100)


@MANY
@given(tasks=cohorts(min_tasks=0).filter(lambda t: len(t) < INTERVAL_MIN_TASKS))
def test_below_the_task_minimum_every_interval_is_null(tasks) -> None:
    assert success_rate_interval(tasks) is None
    assert composite_interval([(n, c, n * 1000, Fraction(n, 100)) for n, c in tasks]) is None
    assert correctness_interval([(c, n) for n, c in tasks]) is None
    assert all(
        pass_hat_k_interval([(n + 2, c) for n, c in tasks], k) is None for k in PASS_K_LEVELS
    )
    assert (
        interval_reason(len(tasks))
        == f"fewer than {INTERVAL_MIN_TASKS} distinct tasks ({len(tasks)})"
    )


def _width(interval: Interval | None) -> Decimal:
    assert interval is not None
    return interval.high - interval.low


@MANY
@given(tasks=cohorts(), times=st.integers(2, 4))
def test_width_shrinks_as_tasks_grow(tasks, times) -> None:
    # The same tasks seen `times` times over: the same estimates, T grows, so V shrinks
    # (by (T − 1)/(times·T − 1)) and the interval cannot widen.
    more = tasks * times
    assert _width(success_rate_interval(more)) <= _width(success_rate_interval(tasks))
    window = [(c, n) for n, c in tasks]
    assert _width(correctness_interval(window * times)) <= _width(correctness_interval(window))
    outcomes = [(n + 5, c) for n, c in tasks]  # every task qualifies at every level
    for k in PASS_K_LEVELS:
        assert _width(pass_hat_k_interval(outcomes * times, k)) <= _width(
            pass_hat_k_interval(outcomes, k)
        )


@MANY
@given(tasks=composite_cohorts(), times=st.integers(2, 4))
def test_composite_width_shrinks_as_tasks_grow_when_a_run_succeeded(tasks, times) -> None:
    # Under the zero-success floor the high bound is S at the success rate's high bound,
    # and S falls with p near 0 when latency scores well: that edge may widen (reported).
    if sum(t[1] for t in tasks) == 0:
        return
    assert _width(composite_interval(tasks * times)) <= _width(composite_interval(tasks))


def test_a_cohort_on_more_tasks_is_narrower() -> None:
    # 40 tasks against 10, each with two runs, one success: p = 1/2 in both.
    assert _width(success_rate_interval([(2, 1)] * 40)) < _width(
        success_rate_interval([(2, 1)] * 10)
    )


# --- rounding outwards, exactly -------------------------------------------------------------


@MANY
@given(
    a=st.fractions(-3, 3, max_denominator=10**6),
    b=st.fractions(-3, 3, max_denominator=10**6),
    q=st.fractions(0, 10, max_denominator=10**6),
    places=st.integers(0, 6),
)
def test_surd_floor_and_ceil_are_exact(a, b, q, places) -> None:
    with localcontext() as context:
        context.prec = 80
        value = (
            Decimal(a.numerator) / a.denominator
            + Decimal(b.numerator) / b.denominator * (Decimal(q.numerator) / q.denominator).sqrt()
        )
        step = Decimal(1).scaleb(-places)
        surd = Surd(a, b, q)
        assert surd.floor(places) == value.quantize(step, rounding=ROUND_FLOOR)
        assert surd.ceil(places) == value.quantize(step, rounding=ROUND_CEILING)
        assert surd.sign() == (value > 0) - (value < 0)


def test_bounds_on_the_grid_stay_and_others_move_outwards() -> None:
    # √(1/4) = 1/2 exactly: 1/2 ± 1/2 is 0 and 1, which must not move.
    low, high = Surd(Fraction(1, 2), -1, Fraction(1, 4)), Surd(Fraction(1, 2), 1, Fraction(1, 4))
    assert (low.floor(4), high.ceil(4)) == (Decimal("0.0000"), Decimal("1.0000"))
    # 1/3 lies between grid points: down to 0.3333 and up to 0.3334.
    third = Surd(Fraction(1, 3))
    assert (third.floor(4), third.ceil(4)) == (Decimal("0.3333"), Decimal("0.3334"))
    # Within 10^-30 of a grid point the float cannot tell the side: the exact path does.
    near = Surd(Fraction("0.1234") + Fraction(1, 10**30), Fraction(-1, 10**15), Fraction(1, 10**40))
    assert (near.floor(4), near.ceil(4)) == (Decimal("0.1234"), Decimal("0.1235"))
    assert Surd(Fraction("0.1234") - Fraction(1, 10**30)).floor(4) == Decimal("0.1233")
    assert Surd(Fraction(1, 10**30), -1, Fraction(1, 10**61)).sign() == 1


@MANY
@given(tasks=cohorts())
def test_published_bounds_are_the_exact_ones_rounded_outwards(tasks) -> None:
    n, c = sum(t[0] for t in tasks), sum(t[1] for t in tasks)
    p = Fraction(c, n)
    bounds = rates.rate_bounds(p, clustered_variance(tasks), len(tasks), n)
    low, high = bounds.low, bounds.high
    interval = success_rate_interval(tasks)
    assert interval is not None
    step = Decimal("1e-4")
    assert interval.low <= Decimal(float(low)) + Decimal("1e-12")
    assert Decimal(float(low)) - interval.low < step + Decimal("1e-12")
    assert interval.high >= Decimal(float(high)) - Decimal("1e-12")
    assert interval.high - Decimal(float(high)) < step + Decimal("1e-12")
    assert interval.low.as_tuple().exponent == -FRACTION_DECIMALS
    assert 0 <= Fraction(c, n) <= 1


# --- the two edges ----------------------------------------------------------------------------


def _n_star(tasks: int, runs: int) -> float:
    """``n*`` of a rate with no spread (``V = 0``: ``n_eff = T``, capped at the runs)."""
    q = rates.t_factor(tasks)
    return float(Fraction(min(tasks, runs)) * Fraction(INTERVAL_Z) ** 2 / Fraction(q) ** 2)


def test_zero_success_edge_by_hand() -> None:
    # 10 tasks × 2 failed runs: p̂ = 0, V = 0, n_eff = T = 10; Clopper–Pearson's high bound
    # at x = 0 is B⁻¹(1 − α/2; 1, n*) = 1 − (α/2)^(1/n*), and the composite's low bound is 0.
    tasks = [(2, 0, 2000, Fraction(2, 100))] * 10
    high_p = 1 - 0.025 ** (1 / _n_star(10, 20))
    assert success_rate_interval([(2, 0)] * 10) == Interval(
        Decimal("0.0000"), Decimal(math.ceil(high_p * 10**4)) / 10**4
    )
    interval = composite_interval(tasks)
    assert interval is not None
    assert interval.low == 0
    assert interval.high > 0


def test_all_success_needs_no_edge_rule() -> None:
    # Every run succeeds: V = 0 gives p⁺ = 1 and p⁻ = (α/2)^(1/n*) (decisions 1.2.0, rule 5).
    tasks = [(2, 2, 2 * ms, Fraction(2, 100)) for ms in (1000, 3000) * 5]
    low_p = 0.025 ** (1 / _n_star(10, 20))
    assert success_rate_interval([(2, 2)] * 10) == Interval(
        Decimal(math.floor(low_p * 10**4)) / 10**4, Decimal("1.0000")
    )
    interval = composite_interval(tasks)
    assert interval is not None
    assert interval.low <= Decimal(str(_estimate(tasks))) <= interval.high


# --- clustered variance, slopes, ranks, runs needed ---------------------------------------


@MANY
@given(
    values=st.lists(
        st.tuples(st.integers(0, 5), st.fractions(0, 1, max_denominator=1000)),
        min_size=2,
        max_size=40,
    ).filter(lambda v: len({t for t, _ in v}) >= 2)
)
def test_clustered_variance_equals_the_definition_over_runs(values) -> None:
    n = len(values)
    mean = sum(v for _, v in values) / n
    residual: dict[int, Fraction] = {}
    for task, v in values:
        residual[task] = residual.get(task, Fraction(0)) + v - mean
    t = len(residual)
    expected = Fraction(t, t - 1) * sum(r * r for r in residual.values()) / n**2
    sums: dict[int, list[Any]] = {}
    for task, v in values:
        entry = sums.setdefault(task, [0, Fraction(0)])
        entry[0] += 1
        entry[1] += v
    assert clustered_variance([(c, s) for c, s in sums.values()]) == expected
    assert expected <= Fraction(1, 4)


def test_clustered_covariance_is_symmetric_and_its_diagonal_is_the_variance() -> None:
    tasks = [(3, (2, 4500, Fraction(3, 100))), (2, (0, 9000, Fraction(1, 10))), (1, (1, 700, 0))]
    sigma = clustered_covariance(tasks)
    assert all(sigma[j][k] == sigma[k][j] for j in range(3) for k in range(3))
    for j in range(3):
        assert sigma[j][j] == clustered_variance([(n, sums[j]) for n, sums in tasks])


def test_the_columns_are_remembered_only_for_the_very_immutable_tasks() -> None:
    """The composite's interval reads one cohort's columns twice (its means, and Σ through the
    registered covariance): remembered for the same tuple of tuples, never for a list that
    may have changed in between, nor for an equal tuple that is another object."""
    tasks = ((3, (2, 4500, Fraction(3, 100))), (2, (0, 9000, Fraction(1, 10))))
    first = Columns.of(tasks)
    assert Columns.of(tasks) is first
    assert Columns.of(((3, (2, 4500, Fraction(3, 100))), (2, (0, 9000, Fraction(1, 10))))) == first
    changing = [(3, (2, 4500, Fraction(3, 100))), (2, (0, 9000, Fraction(1, 10)))]
    before = clustered_covariance(changing)
    changing[1] = (2, (2, 9000, Fraction(1, 10)))
    assert clustered_covariance(changing) != before
    inner = [2, 4500]
    nested = ((3, inner), (2, (0, 9000)))
    before_nested = clustered_covariance(nested)
    inner[0] = 0
    assert clustered_covariance(nested) != before_nested
    assert clustered_covariance(nested) == clustered_covariance([(3, (0, 4500)), (2, (0, 9000))])


def test_curve_slope_at_and_between_the_anchors() -> None:
    first, second, third = LATENCY_ANCHORS_MS[:3]
    left = Fraction(second.score - first.score) / Fraction(second.x - first.x)
    right = Fraction(third.score - second.score) / Fraction(third.x - second.x)
    assert curve_slope(first.x - 1, LATENCY_ANCHORS_MS) == 0
    assert curve_slope(first.x, LATENCY_ANCHORS_MS) == left  # steeper than the flat side
    assert curve_slope((first.x + second.x) / 2, LATENCY_ANCHORS_MS) == left
    steeper = left if abs(left) >= abs(right) else right
    assert curve_slope(second.x, LATENCY_ANCHORS_MS) == steeper
    assert curve_slope(LATENCY_ANCHORS_MS[-1].x + 1, LATENCY_ANCHORS_MS) == 0


def test_ranks_share_ties_and_the_upper_bound_counts_intervals_entirely_above() -> None:
    assert competition_ranks([80.0, 70.0, 70.0, 60.0, None]) == [1, 2, 2, 4, None]
    assert competition_ranks([None, 60.0, 80.0]) == [None, 2, 1]  # any order
    a = Interval(Decimal("75"), Decimal("85"))
    b = Interval(Decimal("65"), Decimal("75"))  # touches a: not entirely below it
    c = Interval(Decimal("50"), Decimal("64.99"))
    assert rank_upper_bounds([a, b, c, None]) == [1, 1, 3, None]
    assert rank_upper_bounds([c, None, a, b]) == [3, None, 1, 1]


def test_runs_needed_matches_the_decisions_example_and_grows_with_clustering() -> None:
    assert runs_needed(0.7, 0.1, 5, 0) == 354  # docs/uncertainty.md
    z = INTERVAL_Z + INTERVAL_Z_POWER
    by_hand = math.ceil(z**2 * (0.7 * 0.3 + 0.6 * 0.4) / 0.1**2 * (1 + 4 * 0.3))
    assert runs_needed(0.7, 0.1, 5, 0.3) == by_hand
    assert runs_needed(0.7, 0.05, 5, 0) > runs_needed(0.7, 0.1, 5, 0)
    assert runs_needed(0.7, 0.1, 1, 0.9) == runs_needed(0.7, 0.1, 1, 0)  # K = 1: no clustering


@pytest.mark.parametrize(
    "arguments",
    [(0, 0.1, 5, 0), (0.7, 0, 5, 0), (0.5, 0.6, 5, 0), (0.7, 0.1, 0, 0), (0.7, 0.1, 5, 1.5)],
)
def test_runs_needed_refuses_inputs_outside_its_domain(arguments) -> None:
    with pytest.raises(ScoringError):
        runs_needed(*arguments)


def test_the_quantiles_are_derived_from_the_levels() -> None:
    from statistics import NormalDist

    assert NormalDist().inv_cdf((1 + float(INTERVAL_LEVEL)) / 2) == INTERVAL_Z
    assert NormalDist().inv_cdf(float(INTERVAL_POWER)) == INTERVAL_Z_POWER
    assert abs(INTERVAL_Z - 1.959963984540054) < 1e-14  # the published value


@MANY
@given(runs=st.integers(0, 400), data=st.data())
def test_success_interval_of_independent_runs(runs, data) -> None:
    successes = data.draw(st.integers(0, runs))
    interval = success_interval(runs, successes)
    if runs < INTERVAL_MIN_TASKS:
        assert interval is None
        return
    # The definition: each run its own task of the composite's cohort.
    each_its_own_task = [(1, 1)] * successes + [(1, 0)] * (runs - successes)
    assert interval == success_rate_interval(each_its_own_task)


def test_success_interval_json_shape_for_the_calculator() -> None:
    interval = success_interval(20, 10)
    assert interval is not None
    assert json.loads(json.dumps({"low": float(interval.low), "high": float(interval.high)})) == {
        "low": 0.2512,
        "high": 0.7488,
    }
