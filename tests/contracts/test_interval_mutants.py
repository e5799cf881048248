"""Interval formulas held to their LaTeX, in process: two code changes the LaTeX does not
show are refused at a golden point, and a refactor computing the same values passes."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from contracts.formulas import check_formula
from scoring import FORMULAS
from scoring.numeric import exact
from scoring.registry import Formula
from scoring.uncertainty import (
    FRACTION_DECIMALS,
    Z_POWER,
    Surd,
    Z,
    effective_sample_size,
    outwards,
)


def _with(name: str, function: Callable[..., Any]) -> Formula:
    return dataclasses.replace(FORMULAS[name], function=function)


def _wilson(m: Any, variance: Any, tasks: int, observations: int, *, centre_term: bool) -> Any:
    share = exact(m)
    n_eff = effective_sample_size(share, exact(variance), tasks, observations)
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
    def mutant(m: Any, variance: Any, tasks: int, observations: int) -> Any:
        return _wilson(m, variance, tasks, observations, centre_term=False)

    messages = [p.message for p in check_formula(_with("uncertainty.cluster_wilson", mutant))]
    assert any(
        "disagrees with its LaTeX at golden point uncertainty.cluster_wilson@" in m
        for m in messages
    ), messages


def test_runs_needed_without_the_design_effect_is_refused() -> None:
    def mutant(p_a: Any, delta: Any, runs_per_task: int, rho: Any) -> int:
        return _runs(p_a, delta, runs_per_task, rho, design=False)

    messages = [p.message for p in check_formula(_with("uncertainty.runs_needed", mutant))]
    assert any("golden point uncertainty.runs_needed@rho=0.3" in m for m in messages), messages


def test_same_value_refactors_pass() -> None:
    def wilson(m: Any, variance: Any, tasks: int, observations: int) -> Any:
        return _wilson(m, variance, tasks, observations, centre_term=True)

    def runs(p_a: Any, delta: Any, runs_per_task: int, rho: Any) -> int:
        return _runs(p_a, delta, runs_per_task, rho, design=True)

    assert check_formula(_with("uncertainty.cluster_wilson", wilson)) == []
    assert check_formula(_with("uncertainty.runs_needed", runs)) == []
