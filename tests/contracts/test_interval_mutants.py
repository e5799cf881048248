"""Interval formulas held to their LaTeX, in process: code changes the LaTeX does not show
are refused at a golden point, and a refactor computing the same values passes."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from contracts.check.formulas import check_formula
from scoring import FORMULAS
from scoring.constants import INTERVAL_LEVEL
from scoring.intervals.quantiles import beta_quantile
from scoring.intervals.rates import outwards_with_margin
from scoring.intervals.variance import (
    FRACTION_DECIMALS,
    Z_POWER,
    Surd,
    Z,
    outwards,
)
from scoring.numeric import exact
from scoring.registry import Formula


def _with(name: str, function: Callable[..., Any]) -> Formula:
    return dataclasses.replace(FORMULAS[name], function=function)


def _wilson(m: Any, size: Any, *, centre_term: bool) -> Any:
    share, n_eff = exact(m), exact(size)
    z2 = Z * Z
    shrink = 1 + z2 / n_eff
    centre = (share + (z2 / (2 * n_eff) if centre_term else 0)) / shrink
    radicand = z2 / (shrink * shrink) * (share * (1 - share) / n_eff + z2 / (4 * n_eff * n_eff))
    low = Surd(centre, Fraction(-1), radicand).clipped(Fraction(0), Fraction(1))
    high = Surd(centre, Fraction(1), radicand).clipped(Fraction(0), Fraction(1))
    return outwards(low, high, FRACTION_DECIMALS, Fraction(1))


def _runs(p_a: Any, delta: Any, runs_per_task: int, rho: Any, *, design: bool) -> int:
    share, gap, correlation = exact(p_a), exact(delta), exact(rho)
    other = share - gap
    spread = share * (1 - share) + other * (1 - other)
    factor = 1 + (runs_per_task - 1) * correlation if design else 1
    return max(1, math.ceil((Z + Z_POWER) ** 2 * spread / gap**2 * factor))


def test_the_wilson_centre_without_its_z_squared_term_is_refused() -> None:
    def mutant(m: Any, n_eff: Any) -> Any:
        return _wilson(m, n_eff, centre_term=False)

    messages = [p.message for p in check_formula(_with("uncertainty.wilson", mutant))]
    assert any(
        "disagrees with its LaTeX at golden point uncertainty.wilson@" in m for m in messages
    ), messages


def _clopper_pearson(m: Any, n_star: float, *, swap_tails: bool, **scaled: Any) -> Any:
    """Clopper–Pearson from the Beta quantile, optionally with the two tails swapped."""
    share, size = exact(m), Fraction(float(n_star))
    alpha = 1 - exact(INTERVAL_LEVEL)
    x = share * size
    low_tail, high_tail = (1 - alpha / 2, alpha / 2) if swap_tails else (alpha / 2, 1 - alpha / 2)
    low = 0.0 if share == 0 else beta_quantile(low_tail, x, size - x + 1)
    high = 1.0 if share == 1 else beta_quantile(high_tail, x + 1, size - x)
    low, high = min(low, high), max(low, high)
    return outwards_with_margin(low, high, FRACTION_DECIMALS, 0, 1)


def test_clopper_pearson_with_its_tails_swapped_is_refused() -> None:
    def mutant(m: Any, n_star: float, **scaled: Any) -> Any:
        return _clopper_pearson(m, n_star, swap_tails=True)

    messages = [p.message for p in check_formula(_with("uncertainty.clopper_pearson", mutant))]
    assert any("golden point uncertainty.clopper_pearson@" in m for m in messages), messages


def test_the_t_factor_read_as_z_is_refused() -> None:
    def mutant(tasks: int, level: Any = INTERVAL_LEVEL) -> float:
        return Z

    messages = [p.message for p in check_formula(_with("uncertainty.t_factor", mutant))]
    assert any("golden point uncertainty.t_factor@" in m for m in messages), messages


def test_runs_needed_without_the_design_effect_is_refused() -> None:
    def mutant(p_a: Any, delta: Any, runs_per_task: int, rho: Any) -> int:
        return _runs(p_a, delta, runs_per_task, rho, design=False)

    messages = [p.message for p in check_formula(_with("uncertainty.runs_needed", mutant))]
    assert any("golden point uncertainty.runs_needed@rho=0.3" in m for m in messages), messages


def test_same_value_refactors_pass() -> None:
    def wilson(m: Any, n_eff: Any) -> Any:
        return _wilson(m, n_eff, centre_term=True)

    def clopper_pearson(m: Any, n_star: float, **scaled: Any) -> Any:
        return _clopper_pearson(m, n_star, swap_tails=False)

    def runs(p_a: Any, delta: Any, runs_per_task: int, rho: Any) -> int:
        return _runs(p_a, delta, runs_per_task, rho, design=True)

    assert check_formula(_with("uncertainty.wilson", wilson)) == []
    assert check_formula(_with("uncertainty.clopper_pearson", clopper_pearson)) == []
    assert check_formula(_with("uncertainty.runs_needed", runs)) == []
