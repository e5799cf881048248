"""Beta and Student t quantiles: ``scipy.special`` against a pure-Python candidate, by
time per call (median) and accuracy against a 40-digit ``mpmath`` oracle.

The candidate is the algorithm of the browser's copy (``docs/javascripts/quantiles.js``):
the regularized incomplete beta by its continued fraction (modified Lentz), inverted by
Halley's method inside a bisection bracket, from the starting point of Abramowitz and
Stegun 26.5.22, the prefactor with Stirling's series where a shape is large. It lives here
only, to be measured: scoring uses the chosen one (``scoring.intervals.quantiles``), so there is one
implementation in Python.

    python benchmarks/bench_quantiles.py [--calls N] [--cases N] [--seed S]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from collections.abc import Callable
from functools import lru_cache

from scoring.intervals.quantiles import beta_quantile, t_quantile_by_inversion

# The candidate's tolerances: the continued fraction's relative step, and Halley's.
_CF_EPS = 1e-16
_CF_TINY = 1e-300
_CF_MAX_TERMS = 100_000
_STEP_EPS = 1e-15
_MAX_STEPS = 200


def _continued_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of ``I_x(a, b)`` (Numerical Recipes' betacf, modified Lentz)."""
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > _CF_TINY else _CF_TINY)
    h = d
    for m in range(1, _CF_MAX_TERMS):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > _CF_TINY else _CF_TINY)
        c = 1.0 + aa / c
        c = c if abs(c) > _CF_TINY else _CF_TINY
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > _CF_TINY else _CF_TINY)
        c = 1.0 + aa / c
        c = c if abs(c) > _CF_TINY else _CF_TINY
        step = d * c
        h *= step
        if abs(step - 1.0) < _CF_EPS:
            return h
    raise ArithmeticError("the continued fraction did not converge")


# Stirling's series is used from this argument on (its error there is below 1e-16).
_STIRLING_MIN = 10.0


def _stirling_remainder(z: float) -> float:
    """``log Γ(z) − (z − ½) log z + z − ½ log 2π`` (Stirling's series), ``z ≥ 10``."""
    w = 1.0 / (z * z)
    series = 1 / 1260 + w * (-1 / 1680 + w * (1 / 1188 + w * (-691 / 360360 + w / 156)))
    return (1 / 12 + w * (-1 / 360 + w * series)) / z


def _log_prefactor(x: float, a: float, b: float) -> float:
    """``log(x^a (1 − x)^b / B(a, b))``; where a shape is large, ``log Γ(L) − log Γ(L + s)``
    by Stirling's series, so that two large logarithms never cancel."""
    powers = a * math.log(x) + b * math.log1p(-x)
    large, small = max(a, b), min(a, b)
    if large < _STIRLING_MIN:
        return powers - math.lgamma(a) - math.lgamma(b) + math.lgamma(a + b)
    total = large + small
    ratio = (
        -(large - 0.5) * math.log1p(small / large)
        - small * math.log(total)
        + small
        + _stirling_remainder(large)
        - _stirling_remainder(total)
    )
    return powers - math.lgamma(small) - ratio


def incomplete_beta(x: float, a: float, b: float) -> float:
    """``I_x(a, b)``, the regularized incomplete beta function."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(_log_prefactor(x, a, b))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _continued_fraction(a, b, x) / a
    return 1.0 - front * _continued_fraction(b, a, 1.0 - x) / b


def _start(p: float, a: float, b: float) -> float:
    """A starting point (Abramowitz and Stegun 26.5.22; a power law for small shapes)."""
    if a >= 1.0 and b >= 1.0:
        pp = p if p < 0.5 else 1.0 - p
        t = math.sqrt(-2.0 * math.log(pp))
        x = (2.30753 + t * 0.27061) / (1.0 + t * (0.99229 + t * 0.04481)) - t
        if p < 0.5:
            x = -x
        al = (x * x - 3.0) / 6.0
        h = 2.0 / (1.0 / (2.0 * a - 1.0) + 1.0 / (2.0 * b - 1.0))
        w = x * math.sqrt(al + h) / h - (1.0 / (2.0 * b - 1.0) - 1.0 / (2.0 * a - 1.0)) * (
            al + 5.0 / 6.0 - 2.0 / (3.0 * h)
        )
        return a / (a + b * math.exp(2.0 * w))
    lna, lnb = math.log(a / (a + b)), math.log(b / (a + b))
    t, u = math.exp(a * lna) / a, math.exp(b * lnb) / b
    w = t + u
    if p < t / w:
        return (a * w * p) ** (1.0 / a)
    return 1.0 - (b * w * (1.0 - p)) ** (1.0 / b)


def candidate_beta_quantile(p: float, a: float, b: float) -> float:
    """The ``x`` with ``I_x(a, b) = p``: Halley's method, kept inside a bisection bracket."""
    if p <= 0.0:
        return 0.0
    if p >= 1.0:
        return 1.0
    low, high = 0.0, 1.0
    x = min(max(_start(p, a, b), 1e-300), 1.0 - 1e-16)
    for _ in range(_MAX_STEPS):
        error = incomplete_beta(x, a, b) - p
        if error < 0:
            low = x
        else:
            high = x
        density = math.exp(_log_prefactor(x, a, b)) / (x * (1.0 - x))
        new = 0.5 * (low + high)  # bisection, where Halley's step leaves the bracket
        if density > 0.0:
            step = error / density
            # Halley's correction (f''/f' of the Beta density), limited to a factor in
            # [1/1.5, 1/0.5] so that a far start never stalls on a vanishing step.
            curvature = step * ((a - 1.0) / x - (b - 1.0) / (1.0 - x))
            halley = x - step / (1.0 - 0.5 * max(-1.0, min(1.0, curvature)))
            if low < halley < high:
                new = halley
        if abs(new - x) <= _STEP_EPS * new or high - low <= _STEP_EPS * low:
            return new
        x = new
    return x


@lru_cache(maxsize=4096)
def candidate_t_quantile(p: float, df: float) -> float:
    """Student's t quantile from the Beta quantile: ``P(|T| > t) = I_{ν/(ν+t²)}(ν/2, ½)``."""
    if p == 0.5:
        return 0.0
    tail = 2.0 * min(p, 1.0 - p)
    x = candidate_beta_quantile(tail, df / 2.0, 0.5)
    if x < 0.5:
        t = math.sqrt(df * (1.0 - x) / x)
    else:  # 1 − x is small: solve for it directly, for its relative precision
        y = candidate_beta_quantile(1.0 - tail, 0.5, df / 2.0)
        t = math.sqrt(df * y / (1.0 - y))
    return t if p > 0.5 else -t


def oracle_beta(p: float, a: float, b: float, start: float) -> float:
    import mpmath

    mpmath.mp.dps = 40
    pa, pb, pp = mpmath.mpf(a), mpmath.mpf(b), mpmath.mpf(p)
    log_b = mpmath.log(mpmath.beta(pa, pb))
    x = mpmath.mpf(start)
    for _ in range(3):  # Newton from a start within 1e-10: 40 digits after three steps
        error = mpmath.betainc(pa, pb, 0, x, regularized=True) - pp
        x -= error / mpmath.exp((pa - 1) * mpmath.log(x) + (pb - 1) * mpmath.log1p(-x) - log_b)
    return float(x)


def oracle_t(p: float, df: float, start: float) -> float:
    import mpmath

    mpmath.mp.dps = 40
    nu, pp, t = mpmath.mpf(df), mpmath.mpf(p), mpmath.mpf(start)
    scale = mpmath.gamma((nu + 1) / 2) / (mpmath.sqrt(nu * mpmath.pi) * mpmath.gamma(nu / 2))
    for _ in range(3):
        cdf = (
            1
            - mpmath.betainc(nu / 2, mpmath.mpf(1) / 2, 0, nu / (nu + t * t), regularized=True) / 2
        )
        t -= (cdf - pp) / (scale * (1 + t * t / nu) ** (-(nu + 1) / 2))
    return float(t)


def _cases(
    count: int, seed: int
) -> tuple[list[tuple[float, float, float]], list[tuple[float, float]]]:
    """Arguments as the intervals ask for them: Clopper–Pearson shapes ``(x, n* − x + 1)``
    and ``(x + 1, n* − x)`` at ``n*`` from 10 to 5,000, the levels' tails and random
    probabilities; t at ``T − 1`` degrees of freedom from 1 to 5,000 (beyond, the oracle,
    mpmath, takes seconds a call)."""
    rng = random.Random(seed)
    betas, ts = [], []
    for _ in range(count):
        n = 10 ** rng.uniform(1, math.log10(5_000))
        x = n * rng.uniform(0.001, 0.999)
        p = rng.choice((0.025, 0.975, rng.uniform(0.001, 0.999)))
        betas.append((p, x, n - x + 1) if rng.random() < 0.5 else (p, x + 1, n - x))
        df = rng.choice((1, 2, 9, 29, 99, round(10 ** rng.uniform(0, math.log10(5_000)))))
        ts.append((rng.choice((0.975, rng.uniform(0.5001, 0.9999))), float(df)))
    return betas, ts


def _median_call_us(
    function: Callable[..., float], cases: list[tuple[float, ...]], calls: int
) -> float:
    """The median over repeats of the time per call in microseconds (each repeat: every case
    once, until ``calls`` calls)."""
    times = []
    for _ in range(7):
        started = time.perf_counter()
        done = 0
        while done < calls:
            for case in cases:
                function(*case)
            done += len(cases)
        times.append((time.perf_counter() - started) / done * 1e6)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument(
        "--calls", type=int, default=200, help="calls per timing repeat (at least every case once)"
    )
    parser.add_argument("--cases", type=int, default=200, help="random argument sets")
    parser.add_argument("--seed", type=int, default=30)
    options = parser.parse_args(argv)
    betas, ts = _cases(options.cases, options.seed)
    beta_quantile(0.5, 1, 1)  # scipy's import, outside the timing
    # The t candidate's memo would time only dictionary look-ups: time the uncached call.
    uncached_t = candidate_t_quantile.__wrapped__
    scipy_t = t_quantile_by_inversion.__wrapped__
    rows = (
        ("Beta quantile", "scipy.special.betaincinv", beta_quantile, betas),
        (
            "Beta quantile",
            "pure Python (continued fraction + Halley)",
            candidate_beta_quantile,
            betas,
        ),
        ("t quantile", "scipy.special.stdtrit (memo off)", scipy_t, ts),
        ("t quantile", "pure Python (via the Beta quantile, memo off)", uncached_t, ts),
    )
    # The oracle polishes scipy's value (a start within 1e-10) to 40 digits.
    truths = {
        "Beta quantile": [oracle_beta(*case, beta_quantile(*case)) for case in betas],
        "t quantile": [oracle_t(*case, scipy_t(*case)) for case in ts],
    }
    print(f"{len(betas)} Beta and {len(ts)} t argument sets (seed {options.seed})")
    print(f"{'quantile':<14} {'implementation':<48} {'median µs/call':>15} {'max rel. error':>15}")
    for label, name, function, cases in rows:
        per_call = _median_call_us(function, cases, options.calls)
        worst = max(
            abs(function(*case) - truth) / abs(truth)
            for case, truth in zip(cases, truths[label], strict=True)
        )
        print(f"{label:<14} {name:<48} {per_call:>15.2f} {worst:>15.2e}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
