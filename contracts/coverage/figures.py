"""The coverage simulation's figures: each cell's coverage per score and per paired
difference, with its Monte Carlo error, and the target it is held to.

The targets (docs/uncertainty.md, "Coverage, measured"): coverage ≥ :data:`TARGET_LOW` in every
published cell, ≥ :data:`STRESS_TARGET_LOW` in the stress cells; ≤ :data:`TARGET_HIGH` where
both ``θ·n*`` and ``(1 − θ)·n*`` are at least :data:`UPPER_RULE_MIN` (``θ`` the truth, ``n* =
θ(1 − θ)/Var(m̂)`` with ``Var(m̂)`` the variance of the estimate over the replications; the
composite is held to it where its success rate is), and ≤
:data:`HOMOGENEOUS_HIGH` instead for pass^k with ``k ≥ 2`` on homogeneous tasks
(``ρ = 0``). The paired differences are held to the lower target. Each coverage carries its
Monte Carlo error ``√(c(1 − c)/R)``.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from contracts.coverage.model import (
    HOMOGENEOUS_HIGH,
    PAIRS,
    SCORES,
    STRESS_TARGET_LOW,
    TARGET_HIGH,
    TARGET_LOW,
    UPPER_RULE_MIN,
    Cell,
    Replication,
)
from scoring import rates


def _inside(bounds: tuple[str, str], truth: Fraction | float) -> bool:
    low, high = Fraction(bounds[0]), Fraction(bounds[1])
    return low <= Fraction(truth) <= high


def _coverage(hits: int, counted: int) -> tuple[float, float]:
    share = hits / counted if counted else math.nan
    return share, math.sqrt(share * (1 - share) / counted) if counted else math.nan


def upper_rule_applies(truth: float, estimates: Sequence[float]) -> bool:
    """Whether a rate is held to an upper target: ``θ·n*`` and ``(1 − θ)·n*`` both at least
    :data:`UPPER_RULE_MIN`, ``n* = θ(1 − θ)/Var(m̂)`` over the replications' estimates.

    >>> upper_rule_applies(0.5, [0.4, 0.6]), upper_rule_applies(0.001, [0.0, 0.02])
    (True, False)
    """
    variance = statistics.variance(estimates)
    if variance == 0:
        return False
    n_star = truth * (1 - truth) / variance
    return min(truth, 1 - truth) * n_star >= UPPER_RULE_MIN


def score_high(cell: Cell, score: str, applies: bool) -> float | None:
    """The upper target of a score in a cell, or ``None`` where none applies."""
    if not applies:
        return None
    order = int(score.split("^")[1]) if score.startswith("pass^") else 1
    return HOMOGENEOUS_HIGH if cell.homogeneous and order >= 2 else TARGET_HIGH


def summarize(cell: Cell, found: Sequence[Replication]) -> dict[str, Any]:
    """One cell's row of ``coverage.json`` from its replications."""
    truth, pair_truth = cell.truth(), cell.pair_truth()
    low = STRESS_TARGET_LOW if cell.stress else TARGET_LOW
    scale = {"correctness": 100}
    applies = {
        s: upper_rule_applies(
            float(truth[s]) / scale.get(s, 1), [r.estimates[s] / scale.get(s, 1) for r in found]
        )
        for s in SCORES
        if s != "composite"
    }
    # The composite's one-sided edge is its success rate's: held where that one is.
    applies["composite"] = applies["success_rate"]
    scores: dict[str, Any] = {}
    for score in SCORES:
        shown = [r.bounds[score] for r in found if r.bounds[score] is not None]
        hits = sum(_inside(b, truth[score]) for b in shown if b is not None)
        coverage, error = _coverage(hits, len(shown))
        high = score_high(cell, score, applies[score])
        widths = [float(Fraction(b[1]) - Fraction(b[0])) for b in shown if b is not None]
        scores[score] = {
            "truth": round(float(truth[score]), 6),
            "coverage": round(coverage, 4),
            "mc_error": round(error, 4),
            "low": low,
            "high": high,
            "meets": coverage >= low and (high is None or coverage <= high),
            "null_intervals": len(found) - len(shown),
            "mean_width": round(math.fsum(widths) / len(widths), 4) if widths else None,
        }
    pairs: dict[str, Any] = {}
    for name in PAIRS:
        shown = [r.pair_bounds[name] for r in found if r.pair_bounds[name] is not None]
        hits = sum(_inside(b, pair_truth[name]) for b in shown if b is not None)
        coverage, error = _coverage(hits, len(shown))
        errors = [r.pair_errors[name] for r in found if r.pair_errors[name] is not None]
        q = rates.t_factor(cell.tasks)  # every task is shared
        paired_width = [2 * q * e[0] for e in errors if e is not None]
        unpaired_width = [2 * q * e[1] for e in errors if e is not None]
        pairs[name] = {
            "truth": round(float(pair_truth[name]), 6),
            "coverage": round(coverage, 4),
            "mc_error": round(error, 4),
            "low": low,
            "high": None,
            "meets": coverage >= low,
            "null_intervals": len(found) - len(shown),
            "mean_width_paired": round(math.fsum(paired_width) / len(paired_width), 4),
            "mean_width_unpaired": round(math.fsum(unpaired_width) / len(unpaired_width), 4),
        }
    return {
        "tasks": cell.tasks,
        "mean_success": cell.mean_success,
        "population": cell.population,
        "stress": cell.stress,
        "scores": scores,
        "pairs": pairs,
    }


def targets() -> dict[str, float]:
    return {
        "published_low": TARGET_LOW,
        "stress_low": STRESS_TARGET_LOW,
        "high": TARGET_HIGH,
        "homogeneous_pass_k_high": HOMOGENEOUS_HIGH,
        "upper_rule_min": UPPER_RULE_MIN,
    }


def table(document: dict[str, Any]) -> str:
    """Coverage per cell and score, for people; ``*`` marks a figure that misses its
    target.

    >>> print(table({"scores": ["composite"], "cells": [{"tasks": 30, "mean_success": 0.5,
    ...     "population": 0.0, "stress": False,
    ...     "scores": {"composite": {"coverage": 0.9, "meets": False}},
    ...     "pairs": {"composite": {"coverage": 0.95, "meets": True, "mean_width_paired": 1.0,
    ...               "mean_width_unpaired": 2.0}}}]}))
    tasks  mean  population  composite  d composite  width p/u
       30   0.5         0.0     90.0%*        95.0%       0.50
    """
    scores: Sequence[str] = document["scores"]
    names = [*scores, *(f"d {p}" for p in PAIRS if p in document["cells"][0]["pairs"])]
    widths = [max(len(s), 7) for s in names]
    head = "tasks  mean  population  " + "  ".join(
        s.rjust(w) for s, w in zip(names, widths, strict=True)
    )
    rows = [head + "  width p/u"]
    for row in document["cells"]:
        figures = [row["scores"][s] for s in scores] + [
            row["pairs"][p] for p in PAIRS if p in row["pairs"]
        ]
        cells_text = [
            f"{100 * f['coverage']:.1f}%{'' if f['meets'] else '*'}".rjust(w)
            for f, w in zip(figures, widths, strict=True)
        ]
        pair = row["pairs"]["composite"]
        ratio = pair["mean_width_paired"] / pair["mean_width_unpaired"]
        population = f"{row['population']}{' stress' if row['stress'] else ''}"
        rows.append(
            f"{row['tasks']:>5}  {row['mean_success']:>4}  {population:>10}  "
            + "  ".join(cells_text)
            + f"  {ratio:>9.2f}"
        )
    return "\n".join(rows)


def misses(document: dict[str, Any]) -> list[str]:
    """Every figure that misses its target, with the figure and the target."""
    found = []
    for row in document["cells"]:
        where = f"T={row['tasks']} μ={row['mean_success']} {row['population']}"
        named = [(s, row["scores"][s]) for s in document["scores"]]
        named += [(f"d {p}", row["pairs"][p]) for p in PAIRS]
        for name, figure in named:
            if not figure["meets"]:
                band = f"≥ {figure['low']}" + (
                    "" if figure["high"] is None else f", ≤ {figure['high']}"
                )
                found.append(
                    f"{where}{' (stress)' if row['stress'] else ''}: {name} "
                    f"{figure['coverage']:.4f} ± {figure['mc_error']:.4f} (target {band})"
                )
    return found
