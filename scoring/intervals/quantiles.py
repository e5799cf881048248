"""The Beta and Student t quantiles of the 1.2.0 intervals (the uncertainty page,
docs/uncertainty.md, "Rates: Clopper–Pearson at an effective size").

The standard library has neither quantile; the method allows a well-kept library, with
golden values from published tables. They come from ``scipy.special`` (``betaincinv``,
``stdtrit``: Boost's and Cephes' inverses of the regularized incomplete beta), chosen by
measurement (``benchmarks/bench_quantiles.py``): about 1e-14 relative error against a
40-digit ``mpmath`` oracle, and a few microseconds a call, against about a hundred for a
continued fraction inverted by Newton in pure Python, on the report's hot path (every
agent's intervals). The browser's copy, ``docs/javascripts/quantiles.js``, is that
continued fraction, held to these functions by ``tests/site/test_quantiles_js.py``.

Floats at the edge: the quantiles are irrational, so a bound built on them is a float,
computed to at least 1e-12 and then rounded outwards with a margin
(:mod:`scoring.intervals.rates`).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

from scoring.numeric import Number
from scoring.registry import ScoringError, formula, point, words

# scipy.special is imported on first use: it takes about a quarter of a second, which a
# command that computes no interval (or fails on its input) need not pay.
SPECIAL_FUNCTIONS: Any = None


def _special() -> Any:
    global SPECIAL_FUNCTIONS
    if SPECIAL_FUNCTIONS is None:
        from scipy import special  # type: ignore[import-untyped]

        SPECIAL_FUNCTIONS = special
    return SPECIAL_FUNCTIONS


def load_special_functions() -> None:
    """Import ``scipy.special`` now rather than at the first quantile: a caller that waits
    for an engine's thread (which runs outside the GIL) pays for the import meanwhile."""
    _special()


def _finite(name: str, value: Number) -> float:
    number = float(value)
    if not math.isfinite(number):
        raise ScoringError(f"{name} must be a finite number, not {value!r}")
    return number


@formula(
    "quantiles.beta_quantile",
    title="Beta quantile",
    latex=r"B^{-1}(P,\ a,\ b) = x \ \text{such that}\ I_x(a, b) = P",
    symbols={
        "P": words("the probability whose quantile is sought"),
        "a": words("the first shape parameter of the Beta distribution (any positive number)"),
        "b": words("the second shape parameter (any positive number)"),
        "I_x": words(
            "the regularized incomplete beta function: the Beta distribution's share below x"
        ),
    },
    descriptive=(
        "a numerical inverse of the regularized incomplete beta function (scipy.special."
        "betaincinv); its golden points are values of published tables (BETA.INV)"
    ),
    golden=(
        point("0.975; 1, 10", probability=0.975, a=1, b=10),
        point("0.025; 5, 6", probability=0.025, a=5, b=6),
        point("0.975; 6, 5", probability=0.975, a=6, b=5),
        point("0.025; 32.8, 4.8", probability=0.025, a=32.8, b=4.8),
        point("0.5; 0.5, 0.5", probability=0.5, a=0.5, b=0.5),
    ),
)
def beta_quantile(probability: Number, a: Number, b: Number) -> float:
    """The ``probability`` quantile of the Beta(``a``, ``b``) distribution: the ``x`` in
    [0, 1] with ``I_x(a, b) = probability``, a spreadsheet's ``BETA.INV(probability, a, b)``.

    ``I_x(a, b) = ∫_0^x t^(a−1)(1 − t)^(b−1) dt / B(a, b)`` is the regularized incomplete
    beta function; ``a`` and ``b`` need not be whole numbers (the Clopper–Pearson bounds at a
    non-integer ``n*`` use ``x`` and ``n* − x + 1``). Relative error below 1e-12.

    Returns a value in [0, 1]: 0 at ``probability`` 0, 1 at 1.

    >>> round(beta_quantile(0.975, 1, 10), 4)        # x = 0, n = 10: upper bound 0.3085
    0.3085
    >>> round(beta_quantile(0.025, 5, 6), 4), round(beta_quantile(0.975, 6, 5), 4)
    (0.1871, 0.8129)
    >>> beta_quantile(0.5, 2, 0)
    Traceback (most recent call last):
    ...
    scoring.registry.ScoringError: b must be positive (a Beta shape parameter), not 0
    """
    p = _finite("probability", probability)
    if not 0 <= p <= 1:
        raise ScoringError(f"probability must lie in [0, 1], not {probability!r}")
    for name, value in (("a", a), ("b", b)):
        if not _finite(name, value) > 0:
            raise ScoringError(f"{name} must be positive (a Beta shape parameter), not {value!r}")
    if p == 0:
        return 0.0
    if p == 1:
        return 1.0
    return _beta_quantile(p, float(a), float(b))


#: Newton's steps from the series' start in the far lower tail (each roughly doubles the
#: correct digits; four take the start's ~1e-2 relative error below 1e-15).
_TAIL_STEPS = 4


# Pure in its three floats, and asked twice per agent with the same ones (the composite's
# interval reads the bounds of its success rate's interval): a memo per argument triple.
@lru_cache(maxsize=4096)
def _beta_quantile(p: float, shape_a: float, shape_b: float) -> float:
    special = _special()
    x = float(special.betaincinv(shape_a, shape_b, p))
    steps = 1
    if not math.isfinite(x):
        # scipy's inverse gives NaN deep in the lower tail (p = 6.4e-217 at a = 2, b = 4);
        # there I_x(a, b) ≈ x^a / (a·B(a, b)), the first term of its series, whose inverse
        # starts Newton's steps (a few: the start is good to about a·x).
        log_start = (math.log(p) + math.log(shape_a) + special.betaln(shape_a, shape_b)) / shape_a
        x, steps = math.exp(log_start), _TAIL_STEPS
    for _ in range(steps):
        if not 0 < x < 1:
            break
        # A Newton step on I_x(a, b) = p: scipy's inverse is good to about 1e-12, and a step
        # from there leaves the error far below it (rule 4 asks for 1e-12 at least).
        density = math.exp(
            (shape_a - 1) * math.log(x)
            + (shape_b - 1) * math.log1p(-x)
            - special.betaln(shape_a, shape_b)
        )
        if not (density > 0 and math.isfinite(density)):
            break
        stepped = x - (float(special.betainc(shape_a, shape_b, x)) - p) / density
        if not 0 < stepped < 1:
            break
        x = stepped
    return x


@lru_cache(maxsize=4096)
def t_quantile_by_inversion(p: float, df: float) -> float:
    return float(_special().stdtrit(df, p))


@formula(
    "quantiles.t_quantile",
    title="Student t quantile",
    latex=r"t^{-1}(P,\ \nu) = x \ \text{such that}\ \Pr(T_{\nu} \le x) = P",
    symbols={
        "P": words("the probability whose quantile is sought"),
        r"\nu": words("the degrees of freedom (any positive number)"),
        r"T_{\nu}": words("a variable of Student's t distribution with those degrees of freedom"),
    },
    descriptive=(
        "a numerical inverse of Student's t distribution function (scipy.special.stdtrit); "
        "its golden points are values of published t tables"
    ),
    golden=(
        point("0.975, 1", probability=0.975, degrees_of_freedom=1),
        point("0.975, 9", probability=0.975, degrees_of_freedom=9),
        point("0.975, 29", probability=0.975, degrees_of_freedom=29),
        point("0.975, 99", probability=0.975, degrees_of_freedom=99),
        point("0.995, 5", probability=0.995, degrees_of_freedom=5),
    ),
)
def t_quantile(probability: Number, degrees_of_freedom: Number) -> float:
    """The ``probability`` quantile of Student's t distribution with ``ν`` =
    ``degrees_of_freedom``: the ``t`` with ``P(T_ν ≤ t) = probability``, where
    ``P(T_ν ≤ t) = 1 − ½·I_{ν/(ν + t²)}(ν/2, ½)`` for ``t ≥ 0`` (symmetric about 0).

    ``ν`` need not be whole. Relative error below 1e-12; a memo per argument pair (a report
    asks for the same ``T − 1`` for many agents).

    Returns a value between the lowest and the highest real number: positive above
    ``probability`` ½, and it tends to the normal quantile as ``ν`` grows.

    >>> round(t_quantile(0.975, 29), 5), round(t_quantile(0.975, 1), 4)
    (2.04523, 12.7062)
    >>> t_quantile(1, 5)
    Traceback (most recent call last):
    ...
    scoring.registry.ScoringError: probability must lie in (0, 1) for a t quantile, not 1
    """
    p = _finite("probability", probability)
    if not 0 < p < 1:
        raise ScoringError(f"probability must lie in (0, 1) for a t quantile, not {probability!r}")
    df = _finite("degrees_of_freedom", degrees_of_freedom)
    if not df > 0:
        raise ScoringError(f"degrees_of_freedom must be positive, not {degrees_of_freedom!r}")
    return t_quantile_by_inversion(p, df)
