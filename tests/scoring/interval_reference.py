"""A second, naive implementation of the 1.2.0 intervals (the uncertainty page,
docs/uncertainty.md): the rates, the headline composite's moves and
the paired comparison of two agents, for tests.

It reads the runs as a list (never per-task sums), keeps every mean, variance and covariance
an exact ``Fraction`` computed run by run, and does the irrational part (square roots, ``exp``,
the Beta and Student t quantiles) in ``mpmath`` at 50 digits. The quantiles are this file's
own: the regularized incomplete beta of ``mpmath.betainc`` inverted by a bracketed Newton
iteration, and Student's t from the incomplete beta, ``P(T ≤ t) = 1 − ½·I_{ν/(ν+t²)}(ν/2, ½)``
(never scipy, which the report uses). Bounds are rounded with the published margin: low =
⌊low − ε⌋, high = ⌈high + ε⌉ at the score's decimals, ``ε`` = 1e-10, then clipped. The report
computes in floats to about 1e-13; the two agree unless a bound lies within that of a
rounding step shifted by ``ε``, which random inputs do not reach. It shares nothing with
``scoring`` but the constants.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal, localcontext
from fractions import Fraction
from statistics import NormalDist
from typing import Any

import mpmath

import scoring.constants as C  # noqa: N812 - the module of constants
from scoring.constants import Anchor

DIGITS = 50
LEVEL = Fraction(str(C.INTERVAL_LEVEL))
ALPHA = 1 - LEVEL
#: The upper quantile of N(0, 1) at the level, derived here from the level itself (not read
#: from ``INTERVAL_Z``): the float's exact binary value, as the report takes it.
Z = Fraction(NormalDist().inv_cdf(float(1 - ALPHA / 2)))
SCALE = Fraction(str(C.SCORE_SCALE))
W_S, W_R, W_C = (
    Fraction(str(w))
    for w in (
        C.COMPOSITE_WEIGHT_SUCCESS,
        C.COMPOSITE_WEIGHT_RELIABILITY,
        C.COMPOSITE_WEIGHT_COST,
    )
)
MARGIN = Decimal("1e-10")  # the published number, typed again (not read from the constant)

Run = dict[str, Any]
Bound = dict[str, float] | None
Real = Any  # an mpmath mpf (mpmath has no type hints)


def reason(tasks: int, kind: str = "distinct tasks") -> str | None:
    """The report's reason text, written out again."""
    return (
        None
        if tasks >= C.INTERVAL_MIN_TASKS
        else f"fewer than {C.INTERVAL_MIN_TASKS} {kind} ({tasks})"
    )


def written(value: float | int) -> Fraction:
    """A JSON number as written (``json.dumps`` writes ``repr``), exactly."""
    return Fraction(repr(value))


def real(x: Fraction | int | Real) -> Real:
    """An mpf at the working precision (a Fraction divided out at that precision)."""
    if isinstance(x, Fraction):
        return mpmath.mpf(x.numerator) / x.denominator
    return mpmath.mpf(x)


# --- quantiles ------------------------------------------------------------------------------


def beta_quantile(p: Real, a: Real, b: Real) -> Real:
    """x with I_x(a, b) = p: Newton on the regularized incomplete beta, kept inside a
    bracket that bisection shrinks whenever a Newton step would leave it."""
    p, a, b = real(p), real(a), real(b)
    log_beta = mpmath.log(mpmath.beta(a, b))
    lo, hi = mpmath.mpf(0), mpmath.mpf(1)
    x = mpmath.mpf(1) / 2
    tolerance = mpmath.mpf(10) ** (-(DIGITS - 8))
    for _ in range(400):
        value = mpmath.betainc(a, b, 0, x, regularized=True) - p
        if value == 0:
            return x
        if value > 0:
            hi = x
        else:
            lo = x
        density = mpmath.exp((a - 1) * mpmath.log(x) + (b - 1) * mpmath.log1p(-x) - log_beta)
        step = value / density if density > 0 else mpmath.inf
        if abs(step) < tolerance * x or hi - lo < tolerance * hi:
            return x  # converged (checked before the bracket: a null step sits on its edge)
        new = x - step
        if not lo < new < hi:  # Newton would leave the bracket: bisect instead
            new = (lo + hi) / 2
        x = new
    raise AssertionError(f"beta quantile did not converge: p={p}, a={a}, b={b}")


def t_quantile(p: Real, df: int) -> Real:
    """Student's t quantile for p > ½: with x = ν/(ν + t²), P(T > t) = ½·I_x(ν/2, ½), so x is
    the Beta(ν/2, ½) quantile at 2(1 − p) and t = √(ν(1 − x)/x)."""
    nu = mpmath.mpf(df)
    x = beta_quantile(2 * (1 - real(p)), nu / 2, mpmath.mpf(1) / 2)
    return mpmath.sqrt(nu * (1 - x) / x)


def q_factor(tasks: int) -> Real:
    """q: the t quantile at (1 + level)/2 with T − 1 degrees of freedom."""
    return t_quantile(real(1 - ALPHA / 2), tasks - 1)


# --- rounding ---------------------------------------------------------------------------------


def decimal_of(x: Real | Fraction) -> Decimal:
    """x as a Decimal of DIGITS − 5 significant digits (beyond the working precision's noise)."""
    if isinstance(x, Fraction):
        with localcontext() as context:
            context.prec = DIGITS
            return Decimal(x.numerator) / Decimal(x.denominator)
    return Decimal(mpmath.nstr(x, DIGITS - 5, min_fixed=-math.inf, max_fixed=math.inf))


def outwards(low: Real, high: Real, places: int, bottom: int, top: int) -> dict[str, float]:
    """Rounded outwards past the margin, then clipped to [bottom, top]."""
    step = Decimal(1).scaleb(-places)
    low_r = (decimal_of(low) - MARGIN).quantize(step, rounding=ROUND_FLOOR)
    high_r = (decimal_of(high) + MARGIN).quantize(step, rounding=ROUND_CEILING)
    low_r = min(max(low_r, Decimal(bottom)), Decimal(top))
    high_r = max(min(high_r, Decimal(top)), Decimal(bottom))
    return {"low": float(low_r), "high": float(high_r)}


# --- rates ----------------------------------------------------------------------------------


def clustered_variance(values: Sequence[Fraction], tasks: Sequence[str]) -> Fraction:
    """V(v̄) = T/(T−1) · Σ_t (Σ_{i∈t} (v_i − v̄))² / n², run by run."""
    n = len(values)
    mean = sum(values, Fraction(0)) / n
    residual: dict[str, Fraction] = {}
    for value, task in zip(values, tasks, strict=True):
        residual[task] = residual.get(task, Fraction(0)) + (value - mean)
    t = len(residual)
    return Fraction(t, t - 1) * sum((r * r for r in residual.values()), Fraction(0)) / (n * n)


def wilson(m: Fraction, n_eff: Real) -> tuple[Real, Real]:
    """The 1.1.0 Wilson score interval at n_eff, clipped to [0, 1]."""
    m_, z = real(m), real(Z)
    z2 = z * z
    centre = (m_ + z2 / (2 * n_eff)) / (1 + z2 / n_eff)
    half = z / (1 + z2 / n_eff) * mpmath.sqrt(m_ * (1 - m_) / n_eff + z2 / (4 * n_eff * n_eff))
    return max(mpmath.mpf(0), centre - half), min(mpmath.mpf(1), centre + half)


def rate(
    m: Fraction, variance: Fraction, tasks: int, observations: int, k: int
) -> tuple[Real, Real]:
    """Rates rules 2–3, unrounded: the capped n_eff, then Clopper–Pearson at n* (k = 1) or
    Wilson (k ≥ 2)."""
    n_eff = m * (1 - m) / variance if variance > 0 else Fraction(tasks)
    n_eff = min(n_eff, Fraction(observations, k))
    if k >= 2:
        return wilson(m, real(n_eff))
    q = q_factor(tasks)
    n_star = real(n_eff) * (real(Z) / q) ** 2
    x = real(m) * n_star
    low = mpmath.mpf(0) if m == 0 else beta_quantile(real(ALPHA / 2), x, n_star - x + 1)
    high = mpmath.mpf(1) if m == 1 else beta_quantile(real(1 - ALPHA / 2), x + 1, n_star - x)
    return low, high


def _success(run: Run) -> Fraction:
    return Fraction(1 if run["success"] is True else 0)


def success_rate_part(completed: Sequence[Run]) -> tuple[Real, Real]:
    """[p⁻, p⁺] unrounded: the k = 1 rate of success over the completed runs."""
    s = [_success(r) for r in completed]
    tasks = [r["task_id"] for r in completed]
    p = sum(s, Fraction(0)) / len(s)
    return rate(p, clustered_variance(s, tasks), len(set(tasks)), len(s), 1)


def correctness_part(window: Sequence[Run]) -> tuple[Bound, str | None]:
    """The radar correctness interval (×100) and its reason."""
    known = [r for r in window if r["success"] is not None]
    tasks = [r["task_id"] for r in known]
    t = len(set(tasks))
    if t < C.INTERVAL_MIN_TASKS:
        return None, reason(t)
    with mpmath.workdps(DIGITS):
        values = [_success(r) for r in known]
        m = sum(values, Fraction(0)) / len(values)
        low, high = rate(m, clustered_variance(values, tasks), t, len(values), 1)
        scale = real(SCALE)
        return outwards(scale * low, scale * high, C.SCORE_DECIMALS, 0, int(SCALE)), None


def pass_part(
    outcomes: Sequence[tuple[int, int]], levels: Sequence[int] = C.PASS_K_LEVELS
) -> tuple[dict[str, Bound], dict[str, str | None]]:
    """The pass^k intervals over ``(n, c)`` per task, and their reasons: at level k over the
    tasks with at least max(n_min, k) outcomes (1.3.0)."""
    found: dict[str, Bound] = {}
    reasons: dict[str, str | None] = {}
    for k in levels:
        qualifying = [(n, c) for n, c in outcomes if n >= max(C.REPEATABILITY_MIN_OUTCOMES, k)]
        t = len(qualifying)
        reasons[f"pass^{k}"] = reason(t, "qualifying tasks")
        if t < C.INTERVAL_MIN_TASKS:
            found[f"pass^{k}"] = None
            continue
        with mpmath.workdps(DIGITS):
            u = [
                Fraction(math.comb(c, k), math.comb(n, k)) if c >= k else Fraction(0)
                for n, c in qualifying
            ]
            m = sum(u, Fraction(0)) / t
            variance = sum(((x - m) ** 2 for x in u), Fraction(0)) / (t * (t - 1))
            low, high = rate(m, variance, t, sum(n for n, _ in qualifying), k)
            found[f"pass^{k}"] = outwards(low, high, C.FRACTION_DECIMALS, 0, 1)
    return found, reasons


# --- the composite --------------------------------------------------------------------------


def _anchors(anchors: Sequence[Anchor]) -> list[tuple[Fraction, Fraction]]:
    return [(Fraction(str(a.x)), Fraction(str(a.score))) for a in anchors]


def curve(x: Any, anchors: Sequence[Anchor]) -> Any:
    """The piecewise-linear score at x (a Fraction or an mpf)."""
    points = _anchors(anchors)
    if x <= points[0][0]:
        return points[0][1]
    for (ax, ay), (bx, by) in itertools.pairwise(points):
        if x <= bx:
            return (
                ay + (by - ay) * (x - ax) / (bx - ax)
                if isinstance(x, Fraction)
                else (real(ay) + real(by - ay) * (x - real(ax)) / real(bx - ax))
            )
    return points[-1][1]


def slope(x: Fraction, anchors: Sequence[Anchor]) -> Fraction:
    """The segment's slope; 0 beyond the ends; at an anchor, the steeper side."""
    points = _anchors(anchors)
    segments = [
        ((by - ay) / (bx - ax), ax, bx) for (ax, ay), (bx, by) in itertools.pairwise(points)
    ]
    touching = [s for s, left, right in segments if left <= x <= right]
    return max(touching, key=abs) if touching else Fraction(0)


def consistency(p: Any, n: int) -> Any:
    return 1 - 4 * p * (1 - p) if n >= C.CONSISTENCY_MIN_RUNS else 1


def means_and_covariance(
    runs: Sequence[tuple[str, Fraction, Fraction, Fraction]],
) -> tuple[list[Fraction], list[list[Fraction]]]:
    """(p̂, ℓ̄, ū) and their clustered covariance, run by run."""
    n = len(runs)
    means = [sum((r[j] for r in runs), Fraction(0)) / n for j in (1, 2, 3)]
    residual: dict[str, list[Fraction]] = {}
    for task, *values in runs:
        sums = residual.setdefault(task, [Fraction(0)] * 3)
        for j in range(3):
            sums[j] += values[j] - means[j]
    t = len(residual)
    factor = Fraction(t, t - 1) / (n * n)
    sigma = [
        [factor * sum((r[j] * r[k] for r in residual.values()), Fraction(0)) for k in range(3)]
        for j in range(3)
    ]
    return means, sigma


def gradient(p: Fraction, latency: Fraction, cost: Fraction, n: int) -> list[Fraction]:
    """1.1.0's g = (∂S/∂p, ∂S/∂ℓ, ∂S/∂u) at the means."""
    return [
        SCALE * W_S + W_R * curve(latency, C.LATENCY_ANCHORS_MS) * (8 * p - 4),
        W_R * consistency(p, n) * slope(latency, C.LATENCY_ANCHORS_MS),
        W_C * slope(cost, C.COST_ANCHORS_USD),
    ]


def _rows(completed: Sequence[Run]) -> list[tuple[str, Fraction, Fraction, Fraction]]:
    return [
        (r["task_id"], _success(r), written(r["latency_ms"]), written(r["cost_usd"]))
        for r in completed
    ]


def composite_bounds(completed: Sequence[Run]) -> tuple[Real, Real]:
    """Headline composite rules 1–5, unrounded and unclipped (low = 0 under the floor)."""
    rows = _rows(completed)
    n, t = len(rows), len({r[0] for r in rows})
    (p, lat, cost), sigma = means_and_covariance(rows)
    l_hat, c_hat = curve(lat, C.LATENCY_ANCHORS_MS), curve(cost, C.COST_ANCHORS_USD)

    def f(x: Any) -> Any:  # rule 2's f, at the observed latency and cost scores
        return SCALE * W_S * x + W_R * l_hat * consistency(x, n) + W_C * c_hat

    s0 = f(p)  # S⁰, the weighted formula before the floor
    g = gradient(p, lat, cost, n)
    q = q_factor(t)
    p_low, p_high = success_rate_part(completed)  # rule 1
    # rule 2: the success moves
    ends = [f(p_low), f(p_high)]
    inside = list(ends)
    if l_hat != 0:
        vertex = Fraction(1, 2) - SCALE * W_S / (8 * W_R * l_hat)
        inside.append(f(min(max(real(vertex), p_low), p_high)))
    d_p = (
        max(real(s0) - min(inside), q * abs(real(g[0])) * mpmath.sqrt(real(sigma[0][0]))),
        max(ends) - real(s0),
    )

    # rule 3: latency and cost moves
    def mean_moves(
        mean: Fraction, var: Fraction, anchors: Sequence[Anchor], weight: Any
    ) -> tuple[Real, Real]:
        if mean == 0:
            return mpmath.mpf(0), mpmath.mpf(0)
        factor = mpmath.exp(q * mpmath.sqrt(real(var)) / real(mean))
        up, down = real(mean) * factor, real(mean) / factor
        observed = real(curve(mean, anchors))
        return (
            real(weight) * (observed - real(curve(up, anchors))),
            real(weight) * (real(curve(down, anchors)) - observed),
        )

    d_l = mean_moves(lat, sigma[1][1], C.LATENCY_ANCHORS_MS, W_R * consistency(p, n))
    d_c = mean_moves(cost, sigma[2][2], C.COST_ANCHORS_USD, W_C)
    down = [d_p[0], d_l[0], d_c[0]]
    up = [d_p[1], d_l[1], d_c[1]]

    # rule 4: correlations
    def r(j: int, k: int) -> Real:
        if g[j] == 0 or g[k] == 0 or sigma[j][j] == 0 or sigma[k][k] == 0:
            return mpmath.mpf(0)
        sign = 1 if g[j] * g[k] > 0 else -1
        return sign * real(sigma[j][k]) / mpmath.sqrt(real(sigma[j][j]) * real(sigma[k][k]))

    def combined(d: list[Real]) -> Real:
        total = sum(x * x for x in d)
        total += 2 * sum(r(j, k) * d[j] * d[k] for j, k in itertools.combinations(range(3), 2))
        return mpmath.sqrt(max(total, mpmath.mpf(0)))

    low = mpmath.mpf(0) if p == 0 else real(s0) - combined(down)  # rule 5
    return low, real(s0) + combined(up)


def composite_part(completed: Sequence[Run], scored: bool = True) -> dict[str, Any]:
    """``interval``, ``success_rate_interval``, ``interval_reason`` of a composite cohort
    (no composite interval when the composite is not ``scored``)."""
    t = len({r["task_id"] for r in completed})
    if t < C.INTERVAL_MIN_TASKS:
        return {"interval": None, "success_rate_interval": None, "interval_reason": reason(t)}
    with mpmath.workdps(DIGITS):
        low, high = composite_bounds(completed) if scored else (None, None)
        p_low, p_high = success_rate_part(completed)
        return {
            "interval": None
            if low is None
            else outwards(low, high, C.SCORE_DECIMALS, 0, int(SCALE)),
            "success_rate_interval": outwards(p_low, p_high, C.FRACTION_DECIMALS, 0, 1),
            "interval_reason": None,
        }


# --- comparing two agents -------------------------------------------------------------------


def _floored_score(p: Fraction, lat: Fraction, cost: Fraction, n: int) -> Fraction:
    if p == 0:
        return Fraction(0)
    return (
        SCALE * W_S * p
        + W_R * consistency(p, n) * curve(lat, C.LATENCY_ANCHORS_MS)
        + W_C * curve(cost, C.COST_ANCHORS_USD)
    )


def paired_parts(
    a: Sequence[Run], b: Sequence[Run]
) -> tuple[int, list[Fraction], list[Fraction], list[list[Fraction]], tuple[int, int]]:
    """On the shared tasks: T_AB, A's and B's (p̂, ℓ̄, ū), Σ_AB (6 × 6) and the run counts."""
    shared = {r["task_id"] for r in a} & {r["task_id"] for r in b}
    rows_a = [x for x in _rows(a) if x[0] in shared]
    rows_b = [x for x in _rows(b) if x[0] in shared]
    t = len(shared)
    means_a, means_b = (
        [sum((r[j] for r in rows), Fraction(0)) / max(len(rows), 1) for j in (1, 2, 3)]
        for rows in (rows_a, rows_b)
    )
    residual: dict[str, list[Fraction]] = {task: [Fraction(0)] * 6 for task in shared}
    for rows, means, offset in ((rows_a, means_a, 0), (rows_b, means_b, 3)):
        for task, *values in rows:
            for j in range(3):
                # each agent's residual divided by its own run count: the Σ formula's 1/n²
                residual[task][offset + j] += (values[j] - means[j]) / len(rows)
    factor = Fraction(t, t - 1) if t >= 2 else Fraction(0)
    sigma = [
        [factor * sum((v[j] * v[k] for v in residual.values()), Fraction(0)) for k in range(6)]
        for j in range(6)
    ]
    return t, means_a, means_b, sigma, (len(rows_a), len(rows_b))


def _quadratic(g: Sequence[Fraction], sigma: Sequence[Sequence[Fraction]]) -> Fraction:
    return sum(
        (g[j] * sigma[j][k] * g[k] for j in range(len(g)) for k in range(len(g))), Fraction(0)
    )


def _comparison(
    d: Fraction,
    g: list[Fraction],
    sigma: list[list[Fraction]],
    t: int,
    places: int,
    top: int,
) -> dict[str, Any]:
    with mpmath.workdps(DIGITS):
        var = _quadratic(g, sigma)
        unpaired = _quadratic(g[:3], [row[:3] for row in sigma[:3]]) + _quadratic(
            g[3:], [row[3:] for row in sigma[3:]]
        )
        half = q_factor(t) * mpmath.sqrt(real(var))
        interval = outwards(real(d) - half, real(d) + half, places, -top, top)
    verdict = (
        "A ahead"
        if interval["low"] > 0
        else "B ahead"
        if interval["high"] < 0
        else "within the noise"
    )
    return {
        "shared_tasks": t,
        "difference": d,
        "interval": interval,
        "verdict": verdict,
        "reason": None,
        "standard_error": math.sqrt(var),
        "unpaired_standard_error": math.sqrt(unpaired),
    }


def _none(t: int) -> dict[str, Any]:
    return {
        "shared_tasks": t,
        "difference": None,
        "interval": None,
        "verdict": None,
        "reason": reason(t, "shared tasks"),
    }


def compare_composites(
    a: Sequence[Run], b: Sequence[Run], *, floor_stops_gradient: bool = False
) -> dict[str, Any]:
    """ "Comparing two agents": d = S_A − S_B on the shared tasks, d ± q·√(g_ABᵀ Σ_AB g_AB).

    The decisions give ``g_AB = (g_A, −g_B)`` with 1.1.0's gradient and say nothing of the
    zero-success floor here, so by default an agent under the floor keeps its latency and
    cost entries. ``floor_stops_gradient``: those entries are 0 instead (the floored score
    is 0 whatever the latency and cost): scoring.comparisons.paired's reading, not written in the
    decisions.
    """
    t, ma, mb, sigma, counts = paired_parts(a, b)
    if t < C.INTERVAL_MIN_TASKS:
        return _none(t)
    na, nb = counts
    d = _floored_score(*ma, na) - _floored_score(*mb, nb)

    def g_of(means: list[Fraction], n: int) -> list[Fraction]:
        g = gradient(*means, n)
        return [g[0], Fraction(0), Fraction(0)] if floor_stops_gradient and means[0] == 0 else g

    g = g_of(ma, na) + [-x for x in g_of(mb, nb)]
    return _comparison(d, g, sigma, t, C.SCORE_DECIMALS, int(SCALE))


def floored_on_shared(a: Sequence[Run], b: Sequence[Run]) -> bool:
    """Whether A or B has no success on the tasks they share (the zero-success floor)."""
    shared = {r["task_id"] for r in a} & {r["task_id"] for r in b}
    return any(
        not any(r["success"] is True for r in runs if r["task_id"] in shared) for runs in (a, b)
    )


def compare_success_rates(a: Sequence[Run], b: Sequence[Run]) -> dict[str, Any]:
    """The same for d = p_A − p_B: the gradient (1, 0, 0, −1, 0, 0)."""
    t, ma, mb, sigma, _ = paired_parts(a, b)
    if t < C.INTERVAL_MIN_TASKS:
        return _none(t)
    g = [Fraction(1), Fraction(0), Fraction(0), Fraction(-1), Fraction(0), Fraction(0)]
    return _comparison(ma[0] - mb[0], g, sigma, t, C.FRACTION_DECIMALS, 1)


# --- ranks (unchanged from 1.1.0) -----------------------------------------------------------


def with_intervals(
    agent: dict[str, Any],
    completed: Sequence[Run],
    window: Sequence[Run],
    outcomes: Sequence[tuple[int, int]],
    *,
    levels: Sequence[int] = C.PASS_K_LEVELS,
    scored: bool = True,
) -> dict[str, Any]:
    """A reference agent (the scores of the report, in order) with its intervals added;
    without a composite (``scored`` false: a latency or cost unrecorded) no composite
    interval, the success rate's kept."""
    correctness, correctness_reason = correctness_part(window)
    passes, pass_reasons = pass_part(outcomes, levels)
    composite = composite_part(completed, scored)
    return {
        **agent,
        "composite": {**agent["composite"], **composite},
        "radar": {
            **agent["radar"],
            "intervals": {"correctness": correctness},
            "interval_reasons": {"correctness": correctness_reason},
        },
        "repeatability": {
            **agent["repeatability"],
            "intervals": passes,
            "interval_reasons": pass_reasons,
        },
    }


def with_ranks(agents: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """The agents (already in report order) with ``rank`` and ``rank_upper_bound`` after
    ``agent_id``: competition rank by composite; 1 + the intervals entirely above."""
    scores = [a["composite"]["score"] for a in agents]
    ranked = []
    for agent, score in zip(agents, scores, strict=True):
        mine = agent["composite"]["interval"]
        rank = None if score is None else 1 + sum(1 for s in scores if s is not None and s > score)
        upper = (
            None
            if mine is None
            else 1
            + sum(
                1
                for other in agents
                if other["composite"]["interval"] is not None
                and other["composite"]["interval"]["low"] > mine["high"]
            )
        )
        rest = {k: v for k, v in agent.items() if k != "agent_id"}
        ranked.append(
            {"agent_id": agent["agent_id"], "rank": rank, "rank_upper_bound": upper, **rest}
        )
    return ranked
