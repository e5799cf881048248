"""Whether one agent is really ahead of another (methodology 1.2.0, docs/uncertainty.md,
"Comparing two agents"): the difference of their composites, and of their success rates, on
the tasks both have, with the clustered covariance of both agents' means."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

from scoring.constants import (
    FRACTION_DECIMALS,
    INTERVAL_MIN_TASKS,
    SCORE_DECIMALS,
)
from scoring.formulas.composite import SCALE, composite_score, outcome_consistency
from scoring.formulas.curves import cost_score, latency_score
from scoring.intervals import rates, variance
from scoring.intervals.moves import (
    check_cohort,
    cohort_means,
    placed_task,
)
from scoring.intervals.rate_bounds import outwards_with_margin
from scoring.intervals.surd import Interval
from scoring.intervals.variance import (
    CohortTask,
    interval_reason,
)
from scoring.numeric import exact
from scoring.registry import ScoringError, const, formula, point, tex_number, uses, words

# --- Comparing two agents -----------------------------------------------------------------


class Verdict(StrEnum):
    """The verdicts of a paired comparison (docs/uncertainty.md, "Is one agent really ahead
    of another?")."""

    A_AHEAD = "A ahead"
    B_AHEAD = "B ahead"
    WITHIN_NOISE = "within the noise"


@dataclass(frozen=True, slots=True)
class Comparison:
    """A paired comparison of agents A and B on the tasks both have.

    ``difference`` is ``A − B`` (exact), ``interval`` its published interval, ``verdict``
    one of the three verdicts; all three ``None`` with a ``reason`` when there is none.
    ``standard_error`` is ``√Var(d)`` from the paired covariance, ``unpaired_standard_error``
    ``√(Var_A + Var_B)`` (the two agents' own variances on the shared tasks, as if
    independent), reported beside it.
    """

    shared_tasks: int
    difference: Fraction | None
    interval: Interval | None
    verdict: Verdict | None
    reason: str | None
    standard_error: float | None
    unpaired_standard_error: float | None


def verdict(interval: Interval) -> Verdict:
    """ "A ahead" when the interval of ``d = A − B`` lies above 0, "B ahead" when below,
    "within the noise" when it contains 0 (read off the published, rounded interval).

    >>> from decimal import Decimal
    >>> above, touching = Interval(Decimal("0.01"), Decimal(2)), Interval(Decimal(-1), Decimal(0))
    >>> str(verdict(above)), str(verdict(touching))
    ('A ahead', 'within the noise')
    """
    if interval.low > 0:
        return Verdict.A_AHEAD
    if interval.high < 0:
        return Verdict.B_AHEAD
    return Verdict.WITHIN_NOISE


def paired_covariance(
    a: Sequence[CohortTask], b: Sequence[CohortTask]
) -> tuple[tuple[Fraction, ...], ...]:
    """The clustered covariance of the six means (A's success, latency, cost; B's) over
    shared tasks (``a[t]`` and ``b[t]`` the same task): ``Σ_AB = T/(T − 1)·Σ_t e_t e_tᵀ``
    with ``e_t = (r^A_t/n_A, r^B_t/n_B)``, each agent's residual vector over its own runs.

    1.1.0's Σ with both agents' residuals: each agent's block is its own
    :func:`~scoring.intervals.variance.clustered_covariance`. Computed by that function on the
    vectors ``e_t`` as one-run tasks (their mean is 0, so it returns ``Σ_AB/T²``).

    >>> s = paired_covariance([(1, 1, 1, 0), (1, 0, 3, 0)], [(1, 1, 2, 0), (1, 0, 2, 0)])
    >>> s[0][0], s[0][3], s[1][4]
    (Fraction(1, 4), Fraction(1, 4), Fraction(0, 1))
    """
    if len(a) != len(b):
        raise ScoringError("a and b must hold the same shared tasks")
    if len(a) < 2:
        raise ScoringError("a paired covariance needs at least two shared tasks")
    scaled: list[list[Fraction]] = [[] for _ in a]
    for agent in (a, b):
        n, *means = cohort_means(agent)
        for row, task in zip(scaled, agent, strict=True):
            row.extend(
                (exact(value) - task[0] * mean) / n
                for value, mean in zip(task[1:], means, strict=True)
            )
    tasks = len(a)
    one_run = variance.clustered_covariance([(1, row) for row in scaled])
    return tuple(tuple(entry * tasks * tasks for entry in line) for line in one_run)


def _quadratic(gradient: Sequence[Fraction], sigma: Sequence[Sequence[Fraction]]) -> Fraction:
    size = range(len(gradient))
    return sum((gradient[j] * sigma[j][k] * gradient[k] for j in size for k in size), Fraction(0))


def _shared(
    a: Mapping[str, CohortTask], b: Mapping[str, CohortTask]
) -> tuple[list[CohortTask], list[CohortTask]]:
    check_cohort(list(a.values()), "a")
    check_cohort(list(b.values()), "b")
    names = sorted(a.keys() & b.keys())
    return [a[t] for t in names], [b[t] for t in names]


def _compared(
    shared: int,
    d: Fraction,
    gradient: Sequence[Fraction],
    sigma: Sequence[Sequence[Fraction]],
    places: int,
    top: Fraction,
) -> Comparison:
    half = len(gradient) // 2
    paired = _quadratic(gradient, sigma)
    unpaired = _quadratic(gradient[:half], [row[:half] for row in sigma[:half]]) + _quadratic(
        gradient[half:], [row[half:] for row in sigma[half:]]
    )
    q = rates.t_factor(shared)
    se = math.sqrt(paired)
    interval = outwards_with_margin(float(d) - q * se, float(d) + q * se, places, -top, top)
    return Comparison(shared, d, interval, verdict(interval), None, se, math.sqrt(unpaired))


def _no_comparison(shared: int) -> Comparison | None:
    reason = interval_reason(shared, "shared tasks")
    if reason is None:
        return None
    return Comparison(shared, None, None, None, reason, None, None)


def _gradient(tasks: Sequence[CohortTask]) -> tuple[Fraction, Fraction, Fraction]:
    """The composite's gradient at an agent's shared-task means, 1.1.0's ``g`` as the
    decisions write ``g_AB = (g_A, −g_B)``: no rule of its own under the zero-success floor
    (the floor sets the score, not the spread the difference is read with)."""
    n, p, latency, cost = cohort_means(tasks)
    return variance.composite_gradient(p, latency, cost, n)


def _composite_on(tasks: Sequence[CohortTask]) -> Fraction:
    n, p, latency, cost = cohort_means(tasks)
    return composite_score(p, outcome_consistency(p, n), latency_score(latency), cost_score(cost))


def _agent(*tasks: CohortTask) -> dict[str, CohortTask]:
    """Golden inputs: ``tasks`` under the ids ``t0``, ``t1``, …"""
    return {f"t{i}": task for i, task in enumerate(tasks)}


# Two agents on ten shared tasks whose difficulty moves both: B a run behind A on each, and
# slower. Every run reads the curves on a slope (placed relative to the anchors): on an easy
# task a third (B: two fifths) of the way along the latency curve's first slope and a
# quarter of the way along the cost curve's second, on a hard one further along both.
_EASY = placed_task(4, 4, (Fraction(1, 3), 0), ("0.25", 1))
_HARD = placed_task(4, 1, (Fraction(2, 3), 0), ("0.5", 1))
_GOLDEN_A = _agent(*(_EASY, _HARD) * 5)
_GOLDEN_B = _agent(
    *(
        placed_task(4, 3, ("0.4", 0), ("0.25", 1)),
        placed_task(4, 0, (Fraction(11, 15), 0), ("0.5", 1)),
    )
    * 5
)
_MIN = tex_number(INTERVAL_MIN_TASKS)
_PAIRED_TEX = (
    r"\quad \mathrm{Var}(d) = g_{AB}^{\mathrm{T}} \Sigma_{AB} g_{AB},"
    r"\quad g_{AB} = (g_A, -g_B),"
    r"\quad q = t^{-1}\!\left(\dfrac{1 + \gamma}{2},\ T_{AB} - 1\right),"
    r"\quad T_{AB} \ge " + _MIN
)
# Both comparisons are evaluated on the same pairs: one lagging, one equal, one too small.
_PAIRED_GOLDEN = (
    point("B behind on every task", a=_GOLDEN_A, b=_GOLDEN_B),
    point("the same agent", a=_GOLDEN_A, b=dict(_GOLDEN_A)),
    point("too few shared", a=_GOLDEN_A, b=_agent(*(_EASY,) * 9)),
)
_PAIRED_WHY = (
    "a quadratic form over the 6×6 clustered covariance of both agents' means on their shared "
    "tasks (uncertainty.clustered_covariance with each task's residuals of both agents)"
)


@formula(
    "uncertainty.paired_composite",
    title="Paired difference of two composites",
    latex=r"S_A - S_B \in d \pm q \sqrt{\mathrm{Var}(d)},\quad d = \hat S_A - \hat S_B,"
    + _PAIRED_TEX,
    symbols={
        r"\hat S_A": words("agent A's composite on the shared tasks (its floor included)"),
        r"\hat S_B": words("agent B's composite on the shared tasks"),
        "g_A": words("the composite's gradient at A's means (uncertainty.composite_gradient)"),
        "g_B": words("the same at B's means"),
        r"\Sigma_{AB}": words(
            "the clustered covariance of both agents' three means over the shared tasks"
        ),
        "T_{AB}": words("the tasks both agents have in their cohorts"),
        r"t^{-1}": uses("quantiles.t_quantile"),
        r"\gamma": const("INTERVAL_LEVEL"),
    },
    descriptive=_PAIRED_WHY,
    golden=_PAIRED_GOLDEN,
)
def compare_composites(a: Mapping[str, CohortTask], b: Mapping[str, CohortTask]) -> Comparison:
    """The paired comparison of two agents' composites on their shared tasks.

    ``a``, ``b``: :data:`CohortTask` per task id of each agent's composite cohort. On the
    ``T_AB`` shared tasks: ``d = S_A − S_B`` (each composite computed on those tasks, with
    its floor), ``Var(d) = g_ABᵀ Σ_AB g_AB`` with ``g_AB = (g_A, −g_B)`` and ``Σ_AB`` the
    :func:`paired_covariance`; interval ``d ± q·√Var(d)``, ``q`` with ``T_AB − 1`` degrees
    of freedom, two decimals outwards on [−100, 100]; the :func:`verdict`. Below
    ``INTERVAL_MIN_TASKS`` shared tasks: no interval, the reason.

    >>> same = {f"t{i}": (4, 3, 4000, Fraction(8, 100)) for i in range(10)}
    >>> str(compare_composites(same, dict(same)).verdict)
    'within the noise'
    """
    shared_a, shared_b = _shared(a, b)
    missing = _no_comparison(len(shared_a))
    if missing is not None:
        return missing
    d = _composite_on(shared_a) - _composite_on(shared_b)
    gradient = (*_gradient(shared_a), *(-g for g in _gradient(shared_b)))
    sigma = paired_covariance(shared_a, shared_b)
    return _compared(len(shared_a), d, gradient, sigma, SCORE_DECIMALS, SCALE)


@formula(
    "uncertainty.paired_success_rate",
    title="Paired difference of two success rates",
    latex=r"p_A - p_B \in d \pm q"
    r" \sqrt{\Sigma_{p_A p_A} + \Sigma_{p_B p_B} - 2 \Sigma_{p_A p_B}},"
    r"\quad d = \hat p_A - \hat p_B,"
    r"\quad q = t^{-1}\!\left(\dfrac{1 + \gamma}{2},\ T_{AB} - 1\right),\quad T_{AB} \ge " + _MIN,
    symbols={
        r"\hat p_A": words("agent A's success rate on the shared tasks"),
        r"\hat p_B": words("agent B's success rate on the shared tasks"),
        r"\Sigma_{p_A p_B}": words(
            "the clustered covariance of the two success rates over the shared tasks"
        ),
        "T_{AB}": words("the tasks both agents have in their cohorts"),
        r"t^{-1}": uses("quantiles.t_quantile"),
        r"\gamma": const("INTERVAL_LEVEL"),
    },
    descriptive=_PAIRED_WHY,
    golden=_PAIRED_GOLDEN,
)
def compare_success_rates(a: Mapping[str, CohortTask], b: Mapping[str, CohortTask]) -> Comparison:
    """The paired comparison of two agents' success rates on their shared tasks: ``d =
    p_A − p_B``, ``Var(d) = Σ_{p_A p_A} + Σ_{p_B p_B} − 2·Σ_{p_A p_B}`` (the gradient
    ``(1, 0, 0, −1, 0, 0)`` on :func:`paired_covariance`), ``d ± q·√Var(d)``, four decimals
    outwards on [−1, 1]; the :func:`verdict`, or the reason below ``INTERVAL_MIN_TASKS``.

    >>> a = {f"t{i}": (4, 4 if i < 8 else 0, 4000, 0) for i in range(10)}
    >>> b = {f"t{i}": (4, 2 if i < 8 else 0, 4000, 0) for i in range(10)}
    >>> c = compare_success_rates(a, b)
    >>> c.difference, c.interval, str(c.verdict)
    (Fraction(2, 5), Interval(low=Decimal('0.2491'), high=Decimal('0.5509')), 'A ahead')
    """
    shared_a, shared_b = _shared(a, b)
    missing = _no_comparison(len(shared_a))
    if missing is not None:
        return missing
    d = cohort_means(shared_a)[1] - cohort_means(shared_b)[1]
    zero, one = Fraction(0), Fraction(1)
    gradient = (one, zero, zero, -one, zero, zero)
    sigma = paired_covariance(shared_a, shared_b)
    return _compared(len(shared_a), d, gradient, sigma, FRACTION_DECIMALS, Fraction(1))
