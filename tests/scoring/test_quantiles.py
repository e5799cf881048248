"""The Beta and Student t quantiles (scoring.intervals.quantiles): published tables, a 40-digit
oracle, the distributions' identities, and the domain errors."""

from __future__ import annotations

import math
import random
from statistics import NormalDist

import pytest
from bench_quantiles import oracle_beta, oracle_t
from hypothesis import given, settings, strategies as st

from scoring.intervals.quantiles import beta_quantile, t_quantile
from scoring.registry import ScoringError

# Student t quantiles, as printed in the usual tables (five significant decimals):
# (probability, degrees of freedom, t).
T_TABLE = [
    (0.975, 1, 12.7062),
    (0.975, 2, 4.30265),
    (0.975, 4, 2.77645),
    (0.975, 9, 2.26216),
    (0.975, 29, 2.04523),
    (0.975, 120, 1.97993),
    (0.95, 10, 1.81246),
    (0.995, 5, 4.03214),
]

# Exact (Clopper–Pearson) 95% binomial intervals of published tables: (x, n, low, high);
# low = B⁻¹(0.025; x, n − x + 1), high = B⁻¹(0.975; x + 1, n − x).
CLOPPER_PEARSON_TABLE = [
    (0, 10, 0.0, 0.3085),
    (1, 10, 0.0025, 0.4450),
    (5, 10, 0.1871, 0.8129),
    (10, 10, 0.6915, 1.0),
    (3, 20, 0.0321, 0.3789),
]


@pytest.mark.parametrize(("probability", "df", "expected"), T_TABLE)
def test_t_quantile_matches_the_published_table(
    probability: float, df: int, expected: float
) -> None:
    assert round(t_quantile(probability, df), 5) == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize(("x", "n", "low", "high"), CLOPPER_PEARSON_TABLE)
def test_beta_quantile_gives_the_published_exact_binomial_intervals(
    x: int, n: int, low: float, high: float
) -> None:
    computed_low = 0.0 if x == 0 else beta_quantile(0.025, x, n - x + 1)
    computed_high = 1.0 if x == n else beta_quantile(0.975, x + 1, n - x)
    assert (round(computed_low, 4), round(computed_high, 4)) == (low, high)


def test_t_quantile_of_one_and_two_degrees_is_the_closed_form() -> None:
    # ν = 1 is Cauchy: t = tan(π(p − ½)); ν = 2: t = (2p − 1)/√(2p(1 − p)).
    for p in (0.6, 0.9, 0.975, 0.999):
        assert t_quantile(p, 1) == pytest.approx(math.tan(math.pi * (p - 0.5)), rel=1e-12)
        closed = (2 * p - 1) / math.sqrt(2 * p * (1 - p))
        assert t_quantile(p, 2) == pytest.approx(closed, rel=1e-12)


def test_t_quantile_tends_to_the_normal_quantile() -> None:
    z = NormalDist().inv_cdf(0.975)
    values = [t_quantile(0.975, df) for df in (10, 100, 1000, 10**6)]
    assert values == sorted(values, reverse=True)
    assert all(v > z for v in values)
    assert values[-1] == pytest.approx(z, rel=1e-5)


def test_beta_quantile_of_uniform_and_power_laws_is_closed_form() -> None:
    # Beta(1, 1) is uniform; Beta(a, 1) has CDF x^a, Beta(1, b) has 1 − (1 − x)^b.
    for p in (0.025, 0.3, 0.975):
        assert beta_quantile(p, 1, 1) == pytest.approx(p, rel=1e-14)
        assert beta_quantile(p, 2.5, 1) == pytest.approx(p ** (1 / 2.5), rel=1e-13)
        assert beta_quantile(p, 1, 7.25) == pytest.approx(1 - (1 - p) ** (1 / 7.25), rel=1e-12)


def test_quantiles_agree_with_a_40_digit_oracle_to_1e12() -> None:
    # The arguments the intervals ask for: shapes (x, n* − x + 1) and (x + 1, n* − x) at n*
    # up to 2,000, the tails of the level and random probabilities; t at T − 1 up to 2,000.
    rng = random.Random(1202)
    for _ in range(60):
        n = 10 ** rng.uniform(1, math.log10(2000))
        x = n * rng.uniform(0.001, 0.999)
        p = rng.choice((0.025, 0.975, rng.uniform(0.001, 0.999)))
        a, b = (x, n - x + 1) if rng.random() < 0.5 else (x + 1, n - x)
        value = beta_quantile(p, a, b)
        assert value == pytest.approx(oracle_beta(p, a, b, value), rel=1e-12)
        df = rng.choice((1, 2, 9, 29, rng.randint(3, 2000)))
        tp = rng.choice((0.975, rng.uniform(0.5001, 0.9999)))
        t = t_quantile(tp, df)
        assert t == pytest.approx(oracle_t(tp, df, t), rel=1e-12)


@pytest.mark.parametrize(
    ("p", "a", "b"),
    [(6.365894823840051e-217, 2.0, 4.0), (1e-300, 2.0, 4.0), (1e-250, 3.5, 1.25), (1e-200, 1, 10)],
)
def test_beta_quantile_deep_in_the_lower_tail(p: float, a: float, b: float) -> None:
    """Where scipy's inverse gives NaN (found by the registry's range check at p = 6.4e-217),
    the quantile still is the x with I_x(a, b) = p, to a 40-digit oracle."""
    value = beta_quantile(p, a, b)
    assert 0 < value < 1
    assert value == pytest.approx(oracle_beta(p, a, b, value), rel=1e-12)


@settings(deadline=None)  # the first call imports scipy (about a second)
@given(
    st.floats(0.001, 0.999),
    st.floats(0.1, 500),
    st.floats(0.1, 500),
)
def test_beta_quantile_reflects_and_stays_in_range(p: float, a: float, b: float) -> None:
    x = beta_quantile(p, a, b)
    assert 0 <= x <= 1
    # X ~ Beta(a, b) ⇔ 1 − X ~ Beta(b, a).
    assert x == pytest.approx(1 - beta_quantile(1 - p, b, a), abs=1e-12)


@settings(deadline=None)  # the first call imports scipy (about a second)
@given(st.floats(0.01, 0.98), st.floats(0.005, 0.01), st.floats(0.5, 300), st.floats(0.5, 300))
def test_beta_quantile_rises_with_the_probability(
    p: float, step: float, a: float, b: float
) -> None:
    assert beta_quantile(p, a, b) <= beta_quantile(p + step, a, b)


@settings(deadline=None)  # the first call imports scipy (about a second)
@given(st.floats(0.5001, 0.9999), st.floats(0.5, 5000))
def test_t_quantile_is_odd_and_positive_above_a_half(p: float, df: float) -> None:
    t = t_quantile(p, df)
    assert t > 0
    assert t_quantile(1 - p, df) == pytest.approx(-t, rel=1e-9)


def test_beta_quantile_ends() -> None:
    assert beta_quantile(0, 3, 4) == 0.0
    assert beta_quantile(1, 3, 4) == 1.0


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((1.5, 2, 3), "probability must lie in [0, 1]"),
        ((-0.1, 2, 3), "probability must lie in [0, 1]"),
        ((0.5, 0, 3), "a must be positive"),
        ((0.5, 2, -1), "b must be positive"),
        ((math.nan, 2, 3), "probability must be a finite number"),
        ((0.5, math.inf, 3), "a must be a finite number"),
    ],
)
def test_beta_quantile_refuses_bad_arguments_by_name(
    arguments: tuple[float, float, float], message: str
) -> None:
    with pytest.raises(ScoringError, match=message.replace("[", r"\[").replace("]", r"\]")):
        beta_quantile(*arguments)


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((0, 5), r"probability must lie in \(0, 1\)"),
        ((1, 5), r"probability must lie in \(0, 1\)"),
        ((0.9, 0), "degrees_of_freedom must be positive"),
        ((0.9, -3), "degrees_of_freedom must be positive"),
        ((0.9, math.nan), "degrees_of_freedom must be a finite number"),
    ],
)
def test_t_quantile_refuses_bad_arguments_by_name(
    arguments: tuple[float, float], message: str
) -> None:
    with pytest.raises(ScoringError, match=message):
        t_quantile(*arguments)


def test_the_special_functions_load_before_the_first_quantile(monkeypatch) -> None:
    """An engine's caller imports scipy.special while it waits for the engine."""
    from scoring.intervals import quantiles

    monkeypatch.setattr(quantiles, "SPECIAL_FUNCTIONS", None)
    quantiles.load_special_functions()
    loaded = quantiles.SPECIAL_FUNCTIONS
    assert loaded is not None
    assert hasattr(loaded, "betaincinv")
    quantiles.beta_quantile(0.5, 2, 3)
    assert quantiles.SPECIAL_FUNCTIONS is loaded
