"""The browser's Beta and Student t quantiles (docs/javascripts/quantiles.js) equal Python's
(scoring.intervals.quantiles) to 1e-12 relative, in headless Chromium, on a few hundred random
arguments of the kinds the 1.2.0 intervals ask for; and refuse bad input by name."""

from __future__ import annotations

import math
import random
from typing import Any

import pytest

from contracts.source import REPO_ROOT
from scoring.intervals.quantiles import beta_quantile, t_quantile

SCRIPT = REPO_ROOT / "docs" / "javascripts" / "quantiles.js"
RELATIVE = 1e-12


def quantile_cases_of(seed: int) -> tuple[list[list[float]], list[list[float]]]:
    """Clopper–Pearson shapes at n* from 10 to 20,000 and free shapes from 0.1 to 1,000,
    at the level's tails and random probabilities; t from 0.3 to 20,000 degrees of freedom
    at both tails."""
    rng = random.Random(seed)
    betas, ts = [], []
    for _ in range(150):
        n = 10 ** rng.uniform(1, math.log10(20_000))
        x = n * rng.uniform(0.0005, 0.9995)
        p = rng.choice((0.025, 0.975, rng.uniform(0.001, 0.999)))
        betas.append([p, x, n - x + 1] if rng.random() < 0.5 else [p, x + 1, n - x])
        betas.append(
            [rng.uniform(0.001, 0.999), 10 ** rng.uniform(-1, 3), 10 ** rng.uniform(-1, 3)]
        )
        df = rng.choice((1, 2, 9, 29, rng.randint(1, 20_000), 10 ** rng.uniform(-0.5, 4.3)))
        probability = rng.choice((0.975, 0.025, rng.uniform(0.0001, 0.9999)))
        ts.append([probability, float(df)])
    return betas, ts


def _load(chromium: Any) -> None:
    chromium.get("about:blank")
    chromium.execute_script(SCRIPT.read_text(encoding="utf-8"))


@pytest.mark.slow
def test_browser_quantiles_equal_pythons(chromium: Any) -> None:
    _load(chromium)
    betas, ts = quantile_cases_of(30)
    found = chromium.execute_script(
        "var Q = window.Quantiles;"
        "return [arguments[0].map(function (c) { return Q.betaQuantile(c[0], c[1], c[2]); }),"
        "        arguments[1].map(function (c) { return Q.tQuantile(c[0], c[1]); })];",
        betas,
        ts,
    )
    misses = [
        (case, got, want)
        for case, got in zip(betas, found[0], strict=True)
        if abs(got - (want := beta_quantile(*case))) > RELATIVE * abs(want)
    ] + [
        (case, got, want)
        for case, got in zip(ts, found[1], strict=True)
        if abs(got - (want := t_quantile(*case))) > RELATIVE * abs(want)
    ]
    assert not misses, misses[:5]
    assert len(found[0]) == 300
    assert len(found[1]) == 150


@pytest.mark.slow
def test_browser_quantiles_match_the_published_tables(chromium: Any) -> None:
    _load(chromium)
    values = chromium.execute_script(
        "var Q = window.Quantiles;"
        "return [Q.tQuantile(0.975, 29), Q.tQuantile(0.975, 1), Q.tQuantile(0.975, 9),"
        "        Q.betaQuantile(0.975, 1, 10), Q.betaQuantile(0.025, 5, 6),"
        "        Q.betaQuantile(0.975, 6, 5), Q.betaQuantile(0, 2, 3), Q.betaQuantile(1, 2, 3)];"
    )
    rounded = [round(v, 5) for v in values[:3]] + [round(v, 4) for v in values[3:]]
    assert rounded == [2.04523, 12.7062, 2.26216, 0.3085, 0.1871, 0.8129, 0, 1]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("call", "message"),
    [
        ("Quantiles.betaQuantile(1.5, 2, 3)", "probability must lie in [0, 1]"),
        ("Quantiles.betaQuantile(0.5, 0, 3)", "a must be positive"),
        ("Quantiles.betaQuantile(0.5, 2, NaN)", "b must be a finite number"),
        ("Quantiles.tQuantile(1, 5)", "probability must lie in (0, 1) for a t quantile"),
        ("Quantiles.tQuantile(0.9, -2)", "degrees_of_freedom must be positive"),
    ],
)
def test_browser_quantiles_refuse_bad_input_by_name(chromium: Any, call: str, message: str) -> None:
    _load(chromium)
    error = chromium.execute_script(
        f"try {{ {call}; return null; }} catch (e) {{ return [e.name, e.message]; }}"
    )
    assert error is not None
    assert error[0] == "ScoringError"
    assert message in error[1]
