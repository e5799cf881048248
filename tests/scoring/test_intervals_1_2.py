"""The 1.2.0 intervals and the paired comparison (scoring.intervals.rates): every check value
of the uncertainty page (docs/uncertainty.md), the
reduction to 1.1.0, properties, and the domain errors."""

from __future__ import annotations

import math
import random
from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st
from published_curves import INTERVALS, use_anchors

from contracts.source import REPO_ROOT
from scoring.comparisons import paired
from scoring.constants import INTERVAL_Z
from scoring.formulas.composite import composite_score, outcome_consistency
from scoring.formulas.curves import cost_score, latency_score
from scoring.formulas.repeatability import pass_hat_k
from scoring.intervals import moves, rate_bounds, rates as v12
from scoring.intervals.variance import (
    Interval,
    clustered_covariance,
    composite_gradient,
)
from scoring.registry import ScoringError

# docs/uncertainty.md, pass^5 over 100 tasks, 18 with a non-zero value: (runs, successes).
PASS5_TASKS = (
    [(8, 5)] * 6
    + [(7, 5)] * 7
    + [(8, 6)] * 2
    + [(6, 5), (7, 6), (8, 7)]
    + [(5, 2)] * 21
    + [(6, 3)] * 20
    + [(7, 3)] * 20
    + [(8, 4)] * 21
)

# docs/uncertainty.md, success rate over 30 tasks: 24 tasks 6/6, 3 tasks 5/6, then 1/7, 0/5, 3/8.
SUCCESS_TASKS = [(6, 6)] * 24 + [(6, 5)] * 3 + [(7, 1), (5, 0), (8, 3)]

# The per-task sums of tests/data/composite-check-agent.jsonl (193 completed runs over
# 30 tasks, 190 successes): (runs, successes, Σ latency_ms, Σ cost_usd), as the registry's
# golden point holds them; the file itself is read in test_the_check_agent_is_the_data_file.
COMPOSITE_CHECK_TASKS = list(moves.COMPOSITE_CHECK)


def _interval(low: str, high: str) -> Interval:
    return Interval(Decimal(low), Decimal(high))


# --- The published check values ----------------------------------------------------------


def test_pass5_check_values() -> None:
    m, variance, tasks, runs = v12.pass_hat_k_moments(PASS5_TASKS, 5)
    assert (tasks, runs) == (100, 667)
    assert round(float(m), 5) == 0.01482
    assert round(float(m * (1 - m) / variance), 1) == 537.8
    bounds = v12.rate_bounds(m, variance, tasks, runs, 5)
    assert bounds.n_eff == Fraction(667, 5)  # the cap, 133.4
    assert v12.pass_hat_k_interval(PASS5_TASKS, 5) == _interval("0.0040", "0.0528")


def test_success_rate_check_values() -> None:
    n = sum(runs for runs, _ in SUCCESS_TASKS)
    p = Fraction(sum(c for _, c in SUCCESS_TASKS), n)
    assert round(float(p), 5) == 0.89560
    bounds = v12.rate_bounds(p, rate_bounds.pooled(SUCCESS_TASKS)[1], len(SUCCESS_TASKS), n)
    assert round(float(bounds.n_eff), 2) == 39.92
    assert bounds.q is not None
    assert round(bounds.q, 5) == 2.04523
    assert bounds.n_star is not None
    assert round(bounds.n_star, 2) == 36.66
    assert v12.success_rate_interval(SUCCESS_TASKS) == _interval("0.7496", "0.9720")


def test_composite_check_values(monkeypatch: pytest.MonkeyPatch) -> None:
    # The decisions' check values, computed on the anchors they were published with.
    use_anchors(monkeypatch, INTERVALS)
    runs = sum(t[0] for t in COMPOSITE_CHECK_TASKS)
    assert (len(COMPOSITE_CHECK_TASKS), runs, sum(t[1] for t in COMPOSITE_CHECK_TASKS)) == (
        30,
        193,
        190,
    )
    assert round(sum(t[2] for t in COMPOSITE_CHECK_TASKS) / runs, 3) == 1689.244
    assert round(sum(t[3] for t in COMPOSITE_CHECK_TASKS) / runs, 7) == Decimal("0.0247370")
    result = moves.composite_moves(COMPOSITE_CHECK_TASKS)
    assert result is not None
    assert round(float(result.score_unfloored), 4) == 83.7603
    assert (round(result.success_low, 5), round(result.success_high, 5)) == (0.94000, 0.99855)
    (p_low, p_high), (l_low, l_high), (c_low, c_high) = result.moves
    assert (round(p_low, 4), round(p_high, 4)) == (5.9281, 1.9626)
    assert (round(l_low, 4), round(l_high, 4)) == (1.1078, 0.9431)
    assert (round(c_low, 4), round(c_high, 4)) == (1.4234, 1.1335)
    assert result.interval == _interval("77.75", "86.17")
    assert moves.composite_interval(COMPOSITE_CHECK_TASKS) == result.interval
    # 1.1.0's delta method gave [80.44, 87.08] on the same agent, missing the truth 78.77.
    assert _delta_method(COMPOSITE_CHECK_TASKS) == _interval("80.44", "87.08")


def _delta_method(tasks: list) -> Interval:
    """1.1.0's ``S ± z·√(gᵀΣg)`` (no edge applies here: 0 < p̂ < 1), rounded outwards."""
    n = sum(t[0] for t in tasks)
    p = Fraction(sum(t[1] for t in tasks), n)
    latency = sum(Fraction(t[2]) for t in tasks) / n
    cost = sum(Fraction(t[3]) for t in tasks) / n
    sigma = clustered_covariance([(t[0], t[1:]) for t in tasks])
    gradient = composite_gradient(p, latency, cost, n)
    quadratic = sum(gradient[j] * sigma[j][k] * gradient[k] for j in range(3) for k in range(3))
    score = float(
        composite_score(p, outcome_consistency(p, n), latency_score(latency), cost_score(cost))
    )
    half = INTERVAL_Z * math.sqrt(quadratic)
    return v12.outwards_with_margin(max(score - half, 0), min(score + half, 100), 2, 0, 100)


# --- The reduction to 1.1.0 ---------------------------------------------------------------

MIXED_COHORTS = [
    [(2, 2, 2000, Fraction(2, 100)), (2, 0, 4000, Fraction(6, 100))] * 5,
    [(4, 3, 8000, Fraction(12, 100)), (3, 1, 2000, Fraction(3, 100)), (5, 4, 30000, 1)] * 4,
    COMPOSITE_CHECK_TASKS,
]


@pytest.mark.parametrize("tasks", MIXED_COHORTS)
def test_symmetric_moves_reduce_to_the_delta_method(tasks: list) -> None:
    n = sum(t[0] for t in tasks)
    p = Fraction(sum(t[1] for t in tasks), n)
    latency = sum(Fraction(t[2]) for t in tasks) / n
    cost = sum(Fraction(t[3]) for t in tasks) / n
    sigma = clustered_covariance([(t[0], t[1:]) for t in tasks])
    gradient = composite_gradient(p, latency, cost, n)
    symmetric = [
        INTERVAL_Z * abs(float(g)) * math.sqrt(sigma[j][j]) for j, g in enumerate(gradient)
    ]
    half = moves.combined_move(symmetric, moves.move_correlations(gradient, sigma))
    quadratic = sum(gradient[j] * sigma[j][k] * gradient[k] for j in range(3) for k in range(3))
    assert half == pytest.approx(INTERVAL_Z * math.sqrt(quadratic), rel=1e-12)
    score = float(
        composite_score(p, outcome_consistency(p, n), latency_score(latency), cost_score(cost))
    )
    reduced = v12.outwards_with_margin(max(score - half, 0), min(score + half, 100), 2, 0, 100)
    assert reduced == _delta_method(tasks)


# --- Properties ---------------------------------------------------------------------------


@st.composite
def rate_tasks(draw: st.DrawFn, min_tasks: int = 10) -> list[tuple[int, int]]:
    """(runs, successes) for ``min_tasks`` to 40 tasks of 1 to 8 runs."""
    found = []
    for _ in range(draw(st.integers(min_tasks, 40))):
        runs = draw(st.integers(1, 8))
        found.append((runs, draw(st.integers(0, runs))))
    return found


@settings(deadline=None)  # the first call imports scipy (about a second)
@given(rate_tasks())
def test_success_rate_interval_holds_its_estimate(tasks: list[tuple[int, int]]) -> None:
    interval = v12.success_rate_interval(tasks)
    assert interval is not None
    p = Fraction(sum(c for _, c in tasks), sum(n for n, _ in tasks))
    assert 0 <= interval.low <= p <= interval.high <= 1


@settings(deadline=None)  # the first call imports scipy (about a second)
@given(rate_tasks(), st.sampled_from([3, 5]))
def test_pass_hat_k_interval_holds_its_estimate(tasks: list[tuple[int, int]], k: int) -> None:
    tasks = [(n + 5, c) for n, c in tasks]  # every task qualifies (at least 5 outcomes)
    interval = v12.pass_hat_k_interval(tasks, k)
    assert interval is not None
    m = sum((pass_hat_k(n, c, k) for n, c in tasks), Fraction(0)) / len(tasks)
    assert 0 <= interval.low <= m <= interval.high <= 1


@settings(deadline=None)  # the first call imports scipy (about a second)
@given(rate_tasks())
def test_correctness_interval_is_on_the_axis_scale(tasks: list[tuple[int, int]]) -> None:
    window = [(c, n) for n, c in tasks]
    interval = v12.correctness_interval(window)
    assert interval is not None
    rate = 100 * Fraction(sum(c for _, c in tasks), sum(n for n, _ in tasks))
    assert 0 <= interval.low <= rate <= interval.high <= 100


@settings(deadline=None)  # the first call imports scipy (about a second)
@given(rate_tasks())
def test_rate_bounds_widen_with_the_level(tasks: list[tuple[int, int]]) -> None:
    p, variance, n = rate_bounds.pooled(tasks)
    nested = [
        v12.rate_bounds(p, variance, len(tasks), n, 1, level) for level in ("0.8", "0.95", "0.99")
    ]
    lows = [float(b.low) for b in nested]
    highs = [float(b.high) for b in nested]
    assert lows == sorted(lows, reverse=True)
    assert highs == sorted(highs)


@settings(deadline=None)  # the first call imports scipy (about a second)
@given(st.fractions(0, 1, max_denominator=50), st.floats(5, 500), st.floats(1.01, 4))
def test_clopper_pearson_narrows_as_the_size_grows(m: Fraction, size: float, factor: float) -> None:
    small = v12.clopper_pearson_bounds(m, size)
    large = v12.clopper_pearson_bounds(m, size * factor)
    assert small[0] <= large[0] + 1e-12
    assert large[1] <= small[1] + 1e-12
    assert small[0] <= m <= small[1]


@st.composite
def cohorts(draw: st.DrawFn) -> list[tuple[int, int, int, Fraction]]:
    """Composite cohorts of 10 to 30 tasks: runs, successes, Σ latency_ms, Σ cost_usd."""
    rate = draw(st.sampled_from([0.0, 0.05, 0.3, 0.6, 0.95, 1.0]))
    found = []
    for _ in range(draw(st.integers(10, 30))):
        runs = draw(st.integers(1, 6))
        successes = draw(st.integers(0, runs)) if 0 < rate < 1 else int(rate * runs)
        latency = sum(draw(st.integers(100, 12000)) for _ in range(runs))
        cost = sum(Fraction(draw(st.integers(0, 300)), 1000) for _ in range(runs))
        found.append((runs, successes, latency, cost))
    return found


@settings(max_examples=60, deadline=None)
@given(cohorts())
def test_composite_interval_holds_the_score(tasks: list[tuple[int, int, int, Fraction]]) -> None:
    result = moves.composite_moves(tasks)
    assert result is not None
    n = sum(t[0] for t in tasks)
    p = Fraction(sum(t[1] for t in tasks), n)
    latency = sum(Fraction(t[2]) for t in tasks) / n
    cost = sum(t[3] for t in tasks) / n
    score = composite_score(p, outcome_consistency(p, n), latency_score(latency), cost_score(cost))
    assert 0 <= result.interval.low <= score <= result.interval.high <= 100
    assert all(d >= 0 for pair in result.moves[1:] for d in pair)
    if p == 0:
        assert result.interval.low == 0


def test_zero_success_below_the_vertex_moves_down_as_well_as_up() -> None:
    # p̂ = 0 lies below the consistency term's vertex (about 0.30): S⁰ falls as p rises from
    # 0, so D_p⁻ > 0 (1.1.0's [0, S(p⁺)] assumed S rises); under the floor low is still 0.
    tasks = [(5, 0, 5 * 800, Fraction(5, 1000))] * 12
    result = moves.composite_moves(tasks)
    assert result is not None
    assert result.success_low == 0
    assert result.moves[0][0] > 0
    assert result.interval.low == 0
    assert result.interval.high > result.score_unfloored


# --- Paired comparisons -------------------------------------------------------------------


def _agent(successes: list[int], runs: int = 6, start: Fraction = Fraction(1, 3)) -> dict:
    # Task i's runs read the latency curve's second slope ``start`` (a third) plus i/75 of
    # the way along it, the cost curve's second i/40 of the way: on slopes of both, rising
    # with the task alike for both agents (with 1.0.0's anchors 3000 + 40·i ms and
    # $(10 + i)/1000).
    return {
        f"t{i}": moves.placed_task(
            runs, c, (Fraction(1, 3) + Fraction(i, 75), 1), (Fraction(i, 40), 1)
        )
        for i, c in enumerate(successes)
    }


# Thirty tasks of graded difficulty; B solves each a little less often than A, so the two
# agents' per-task results are strongly correlated through the tasks.
DIFFICULTY = [
    6,
    6,
    6,
    6,
    6,
    5,
    5,
    5,
    5,
    4,
    4,
    4,
    4,
    3,
    3,
    3,
    3,
    2,
    2,
    2,
    2,
    1,
    1,
    1,
    1,
    0,
    0,
    0,
    0,
    6,
]


def test_paired_interval_is_narrower_than_unpaired_on_correlated_shared_tasks() -> None:
    a = _agent(DIFFICULTY)
    b = _agent([max(c - 1, 0) if i % 3 else c for i, c in enumerate(DIFFICULTY)])
    for comparison in (paired.compare_composites(a, b), paired.compare_success_rates(a, b)):
        assert comparison.shared_tasks == 30
        assert comparison.standard_error is not None
        assert comparison.unpaired_standard_error is not None
        assert comparison.standard_error < comparison.unpaired_standard_error / 3
        assert comparison.interval is not None
        unpaired_half = v12.t_factor(30) * comparison.unpaired_standard_error
        assert comparison.interval.high - comparison.interval.low < 2 * unpaired_half
        # Clear on the paired test, although the unpaired interval would contain 0.
        assert comparison.verdict == paired.Verdict.A_AHEAD
        assert comparison.difference is not None
        assert float(comparison.difference) < unpaired_half
    assert paired.compare_success_rates(b, a).verdict == paired.Verdict.B_AHEAD


def test_two_agents_with_the_same_composite_are_within_the_noise() -> None:
    a = _agent(DIFFICULTY)
    assert paired.compare_composites(a, dict(a)).verdict == paired.Verdict.WITHIN_NOISE
    # The same successes spread over other tasks: the same composite, different tasks.
    swapped = dict(zip(sorted(a), [a[t] for t in sorted(a, reverse=True)], strict=True))
    swapped = {t: (r, s, a[t][2], a[t][3]) for t, (r, s, _, _) in swapped.items()}
    comparison = paired.compare_composites(a, swapped)
    assert comparison.difference == 0
    assert comparison.standard_error is not None
    assert comparison.standard_error > 0
    assert comparison.verdict == paired.Verdict.WITHIN_NOISE


def test_comparison_needs_ten_shared_tasks() -> None:
    a = _agent(DIFFICULTY)
    b = {t: a[t] for t in list(a)[:9]} | {"other": (3, 1, 9000, Fraction(3, 100))}
    for comparison in (paired.compare_composites(a, b), paired.compare_success_rates(a, b)):
        assert comparison.interval is None
        assert comparison.verdict is None
        assert comparison.reason == "fewer than 10 shared tasks (9)"


def test_paired_covariance_blocks_are_each_agents_own() -> None:
    a = list(_agent(DIFFICULTY).values())
    b = list(_agent([c // 2 for c in DIFFICULTY], runs=7, start=Fraction(1)).values())
    sigma = paired.paired_covariance(a, b)
    own_a = clustered_covariance([(t[0], t[1:]) for t in a])
    own_b = clustered_covariance([(t[0], t[1:]) for t in b])
    assert all(tuple(row[:3]) == own_a[j] for j, row in enumerate(sigma[:3]))
    assert all(tuple(row[3:]) == own_b[j] for j, row in enumerate(sigma[3:]))


def test_success_rate_difference_variance_by_hand() -> None:
    # Var(d) = T/(T − 1)·Σ_t (r^A_t/n_A − r^B_t/n_B)², written out independently.
    a = _agent(DIFFICULTY)
    b = _agent([c // 2 for c in DIFFICULTY], runs=7)
    tasks = sorted(a)
    n_a, n_b = sum(a[t][0] for t in tasks), sum(b[t][0] for t in tasks)
    p_a = Fraction(sum(a[t][1] for t in tasks), n_a)
    p_b = Fraction(sum(b[t][1] for t in tasks), n_b)
    spread = sum(
        ((a[t][1] - a[t][0] * p_a) / n_a - (b[t][1] - b[t][0] * p_b) / n_b) ** 2 for t in tasks
    )
    variance = Fraction(len(tasks), len(tasks) - 1) * spread
    comparison = paired.compare_success_rates(a, b)
    assert comparison.difference == p_a - p_b
    assert comparison.standard_error == pytest.approx(math.sqrt(variance), rel=1e-12)
    q = v12.t_factor(len(tasks))
    expected = v12.outwards_with_margin(
        float(p_a - p_b) - q * math.sqrt(variance),
        float(p_a - p_b) + q * math.sqrt(variance),
        4,
        -1,
        1,
    )
    assert comparison.interval == expected


# --- Rounding and domain errors -----------------------------------------------------------


def test_a_bound_within_the_margin_of_a_boundary_is_rounded_past_it() -> None:
    near = v12.outwards_with_margin(0.25 + 1e-11, 0.75 - 1e-11, 2, 0, 1)
    assert near == _interval("0.24", "0.76")
    clear = v12.outwards_with_margin(0.25 + 1e-9, 0.75 - 1e-9, 2, 0, 1)
    assert clear == _interval("0.25", "0.75")
    assert v12.outwards_with_margin(0.0, 1.0, 4, 0, 1) == _interval("0.0000", "1.0000")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda: v12.capped_effective_size(Fraction(1, 2), Fraction(1, 40), 10, 40, 0),
            "k must be at least 1",
        ),
        (
            lambda: v12.capped_effective_size(Fraction(1, 2), Fraction(1, 40), 10, 0, 1),
            "runs must be at least 1",
        ),
        (lambda: v12.t_factor(1), "tasks must be at least 2"),
        (lambda: v12.clopper_pearson_bounds(Fraction(3, 2), 10.0), r"m must lie in \[0, 1\]"),
        (
            lambda: v12.clopper_pearson_bounds(Fraction(1, 2), -1.0),
            "n_star must be a positive size",
        ),
        (
            lambda: v12.clopper_pearson_bounds(Fraction(1, 2), 10.0, 1),
            r"level must lie in \(0, 1\)",
        ),
        (lambda: v12.outwards_with_margin(0.6, 0.4, 2, 0, 1), "low must not exceed high"),
        (lambda: v12.outwards_with_margin(math.nan, 0.4, 2, 0, 1), "low must be a finite bound"),
        (lambda: v12.success_rate_interval([(3, 4)] * 10), "successes between 0 and its runs"),
        (
            lambda: moves.mean_moves(Fraction(1), Fraction(1), 2.0, Fraction(1), "steps"),
            "curve_of must be",
        ),
        (lambda: paired.compare_composites({"t": (2, 3, 0, 0)}, {}), "a: each task needs runs > 0"),
        (
            lambda: paired.compare_success_rates({}, {"t": (0, 0, 0, 0)}),
            "b: each task needs runs > 0",
        ),
        (
            lambda: v12.rate_bounds(Fraction(1, 2), Fraction(1, 40), 10, 40, 3, "0.9"),
            "level must be INTERVAL_LEVEL",
        ),
    ],
)
def test_bad_input_names_the_argument_and_the_rule(call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ScoringError, match=message):
        call()


def test_below_the_minimum_there_is_no_interval() -> None:
    assert v12.success_rate_interval([(3, 2)] * 9) is None
    assert v12.correctness_interval([(2, 3)] * 9) is None
    assert v12.pass_hat_k_interval([(5, 4)] * 9 + [(2, 2)] * 5, 3) is None
    assert moves.composite_moves([(3, 2, 3000, Fraction(3, 100))] * 9) is None


@settings(max_examples=40, deadline=None)
@given(cohorts(), st.randoms(use_true_random=False))
def test_a_comparison_is_antisymmetric_and_holds_its_difference(
    tasks: list[tuple[int, int, int, Fraction]], rng: random.Random
) -> None:
    a = {f"t{i}": task for i, task in enumerate(tasks)}
    b = {}
    for name, (runs, _, latency, cost) in a.items():
        other = rng.randint(0, runs)  # another agent on the same task
        b[name] = (runs, other, latency + rng.randint(0, 5000), cost)
    for compare, places in ((paired.compare_composites, 2), (paired.compare_success_rates, 4)):
        ab, ba = compare(a, b), compare(b, a)
        assert ab.interval is not None
        assert ba.interval is not None
        assert ab.difference is not None
        assert ab.difference == -(ba.difference or 0)
        assert (ab.interval.low, ab.interval.high) == (-ba.interval.high, -ba.interval.low)
        assert ab.interval.low <= ab.difference <= ab.interval.high
        flipped = {
            paired.Verdict.A_AHEAD: paired.Verdict.B_AHEAD,
            paired.Verdict.B_AHEAD: paired.Verdict.A_AHEAD,
        }
        assert ba.verdict == flipped.get(ab.verdict or "", ab.verdict)
        assert ab.interval.high.as_tuple().exponent == -places


def test_the_check_agent_is_the_data_file() -> None:
    """The golden point's per-task sums are those of the check agent's run log."""
    import json
    from collections import defaultdict

    spec = REPO_ROOT / "tests" / "data" / "composite-check-agent.jsonl"
    sums: dict[str, list] = defaultdict(lambda: [0, 0, Decimal(0), Decimal(0)])
    for line in spec.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        run = json.loads(line, parse_float=Decimal)
        if run.get("status", "completed") != "completed":
            continue
        task = sums[run["task_id"]]
        task[0] += 1
        task[1] += int(bool(run["success"]))
        task[2] += Decimal(run["latency_ms"])
        task[3] += Decimal(run["cost_usd"])
    found = sorted((n, c, int(ms), usd) for n, c, ms, usd in sums.values())
    assert found == sorted(COMPOSITE_CHECK_TASKS)
