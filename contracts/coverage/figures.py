"""The coverage simulation's figures, as measured: each cell's coverage per score and per
paired difference, with its Monte Carlo error ``√(c(1 − c)/R)``, and for each rate the
effective size ``n* = θ(1 − θ)/Var(m̂)`` (``θ`` the truth, ``Var(m̂)`` the variance of the
estimate over the replications) with the smaller of ``θ·n*`` and ``(1 − θ)·n*``, which the
upper target reads. What the figures are held to is :mod:`contracts.coverage.targets`'s.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from contracts.coverage.model import PAIRS, SCORES, Cell, Replication
from scoring.intervals import rates


def _inside(bounds: tuple[str, str], truth: Fraction | float) -> bool:
    low, high = Fraction(bounds[0]), Fraction(bounds[1])
    return low <= Fraction(truth) <= high


def _coverage(hits: int, counted: int) -> tuple[float, float]:
    share = hits / counted if counted else math.nan
    return share, math.sqrt(share * (1 - share) / counted) if counted else math.nan


#: The scale of a score's truth, where it is not that of a rate.
SCALES = {"correctness": 100}
#: Decimals the effective size and the rarer count are kept to.
SIZE_DECIMALS = 6


def effective_sizes(truth: float, estimates: Sequence[float]) -> tuple[float | None, float | None]:
    """A rate's effective size ``n* = θ(1 − θ)/Var(m̂)`` over the replications' estimates,
    and its rarer count ``min(θ, 1 − θ)·n*`` (the smaller of ``θ·n*`` and ``(1 − θ)·n*``);
    ``None`` for both when the estimates do not vary.

    >>> effective_sizes(0.5, [0.4, 0.6])
    (12.5, 6.25)
    """
    variance = statistics.variance(estimates)
    if variance == 0:
        return None, None
    n_star = truth * (1 - truth) / variance
    return round(n_star, SIZE_DECIMALS), round(min(truth, 1 - truth) * n_star, SIZE_DECIMALS)


def sizes(cell: Cell, estimates: Sequence[dict[str, float]]) -> dict[str, dict[str, Any]]:
    """Each score's ``n_star`` and ``rarer_count`` in ``cell`` from the replications'
    estimates; the composite, not a rate, has neither (its upper target is its success
    rate's)."""
    truth = cell.truth()
    found: dict[str, dict[str, Any]] = {"composite": {"n_star": None, "rarer_count": None}}
    for score in SCORES:
        if score == "composite":
            continue
        # Every estimate is a rate in [0, 1] (correctness's too: the window's pass rate);
        # a truth on another scale is brought to it.
        theta = float(truth[score]) / SCALES.get(score, 1)
        n_star, rarer = effective_sizes(theta, [e[score] for e in estimates])
        found[score] = {"n_star": n_star, "rarer_count": rarer}
    return found


def summarize(cell: Cell, found: Sequence[Replication]) -> dict[str, Any]:
    """One cell's row of ``coverage.json`` from its replications, as measured (the row's
    targets and verdicts are :func:`contracts.coverage.targets.judged`'s)."""
    truth, pair_truth = cell.truth(), cell.pair_truth()
    measured = sizes(cell, [r.estimates for r in found])
    scores: dict[str, Any] = {}
    for score in SCORES:
        shown = [r.bounds[score] for r in found if r.bounds[score] is not None]
        hits = sum(_inside(b, truth[score]) for b in shown if b is not None)
        coverage, error = _coverage(hits, len(shown))
        widths = [float(Fraction(b[1]) - Fraction(b[0])) for b in shown if b is not None]
        scores[score] = {
            "truth": round(float(truth[score]), 6),
            "coverage": round(coverage, 4),
            "mc_error": round(error, 4),
            "null_intervals": len(found) - len(shown),
            "mean_width": round(math.fsum(widths) / len(widths), 4) if widths else None,
            **measured[score],
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
