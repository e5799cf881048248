"""The headline composite: 40% success, 30% consistency × latency, 30% cost."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

import scoring.constants as C  # noqa: N812 - the anchors are read when notes are written
from scoring.constants import (
    COMPOSITE_WEIGHT_COST,
    COMPOSITE_WEIGHT_RELIABILITY,
    COMPOSITE_WEIGHT_SUCCESS,
    CONSISTENCY_MIN_RUNS,
    NEUTRAL_CONSISTENCY,
    SCORE_SCALE,
)
from scoring.formulas import curves
from scoring.numeric import Number, exact
from scoring.registry import ScoringError, arg, const, formula, point, tex_number

# The numbers a formula shows are the constants', so a changed constant changes the formula.
_SCALE = tex_number(SCORE_SCALE)
_NEUTRAL = tex_number(NEUTRAL_CONSISTENCY)
#: The score's scale and the composite's weights as exact fractions, made once for every
#: formula that reads them (the composite, its gradient, its interval and the paired
#: comparison), not on every agent's score.
SCALE = exact(SCORE_SCALE)
W_SUCCESS = exact(COMPOSITE_WEIGHT_SUCCESS)
W_RELIABILITY = exact(COMPOSITE_WEIGHT_RELIABILITY)
W_COST = exact(COMPOSITE_WEIGHT_COST)
_NEUTRAL_EXACT = exact(NEUTRAL_CONSISTENCY)


@formula(
    "composite.success_rate",
    title="Success rate",
    latex=r"p = \dfrac{\text{successful completed runs}}{\text{all completed runs}}",
    symbols={
        r"\text{successful completed runs}": arg("successes"),
        r"\text{all completed runs}": arg("completed_runs"),
    },
    golden=[
        point(f"{successes}/{runs}", successes=successes, completed_runs=runs)
        for successes, runs in ((3, 4), (0, CONSISTENCY_MIN_RUNS), (CONSISTENCY_MIN_RUNS,) * 2)
    ],
)
def success_rate(successes: int, completed_runs: int) -> Fraction:
    """Share of completed runs whose outcome is a success; unknown counts as not.

    Returns a value in [0, 1]; 1 is best.

    >>> success_rate(3, 4)
    Fraction(3, 4)
    """
    if completed_runs <= 0:
        raise ScoringError("success rate needs at least one completed run")
    if not 0 <= successes <= completed_runs:
        raise ScoringError("successes must lie between 0 and the completed runs")
    return Fraction(successes, completed_runs)


@formula(
    "composite.outcome_consistency",
    title="Outcome consistency",
    latex=(
        r"\mathrm{consistency} = \begin{cases} 1 - 4p(1 - p) & n \ge n_{\min} \\"
        " " + _NEUTRAL + r" & n < n_{\min} \end{cases}"
    ),
    symbols={
        "p": arg("p"),
        "n": arg("completed_runs"),
        r"n_{\min}": const("CONSISTENCY_MIN_RUNS"),
    },
    golden=[
        point(f"p={p},n={runs}", p=p, completed_runs=runs)
        for runs in (CONSISTENCY_MIN_RUNS - 1, CONSISTENCY_MIN_RUNS)
        for p in (Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(1))
    ],
)
def outcome_consistency(p: Number, completed_runs: int) -> Fraction:
    """``1 − 4p(1 − p)`` with at least ``CONSISTENCY_MIN_RUNS`` completed runs, else neutral.

    Returns a value in [0, 1]: 1 for all-success or all-failure, 0 at p = 0.5.

    >>> outcome_consistency(Fraction(1, 2), 5), outcome_consistency(Fraction(1, 2), 4)
    (Fraction(0, 1), Fraction(1, 1))
    """
    rate = exact(p)
    if not 0 <= rate <= 1:
        raise ScoringError("the success rate p must lie in [0, 1]")
    if completed_runs < CONSISTENCY_MIN_RUNS:
        return _NEUTRAL_EXACT
    return 1 - 4 * rate * (1 - rate)


@formula(
    "composite.score",
    title="Headline composite",
    latex=(
        r"\mathrm{composite} = \begin{cases} 0 & p = 0 \\"
        " " + _SCALE + r"\left(w_s\,p + w_r\,\mathrm{consistency}\,"
        r"\dfrac{\mathrm{latency}}{" + _SCALE + "}"
        r" + w_c\,\dfrac{\mathrm{cost}}{" + _SCALE + r"}\right) & p > 0 \end{cases}"
    ),
    symbols={
        "p": arg("p"),
        r"\mathrm{consistency}": arg("consistency"),
        r"\mathrm{latency}": arg("latency"),
        r"\mathrm{cost}": arg("cost"),
        "w_s": const("COMPOSITE_WEIGHT_SUCCESS"),
        "w_r": const("COMPOSITE_WEIGHT_RELIABILITY"),
        "w_c": const("COMPOSITE_WEIGHT_COST"),
    },
    golden=[
        point(
            f"p={p},cons={consistency},lat={latency},cost={cost}",
            p=p,
            consistency=consistency,
            latency=latency,
            cost=cost,
        )
        for p, consistency, latency, cost in (
            (Fraction(3, 4), Fraction(1, 4), Fraction(88), Fraction(65)),
            (Fraction(1), Fraction(1), Fraction(100), Fraction(100)),
            (Fraction(0), Fraction(1), Fraction(100), Fraction(100)),
        )
    ],
)
def composite_score(p: Number, consistency: Number, latency: Number, cost: Number) -> Fraction:
    """The weighted composite on 0–100, with the zero-success floor.

    ``latency`` and ``cost`` are curve scores on 0–100, ``p`` and ``consistency`` in
    [0, 1]. A cohort with no success (``p = 0``) scores 0 whatever its latency and cost.

    Returns a value in [0, 100]; 100 is best.

    >>> composite_score(Fraction(1), Fraction(1), Fraction(100), Fraction(100))
    Fraction(100, 1)
    >>> composite_score(Fraction(0), Fraction(1), Fraction(100), Fraction(100))
    Fraction(0, 1)
    """
    rate = exact(p)
    if rate == 0:
        return Fraction(0)
    return weighted_formula(rate, exact(consistency), exact(latency), exact(cost))


def weighted_formula(
    p: Fraction, consistency: Fraction, latency: Fraction, cost: Fraction
) -> Fraction:
    """``scale·(w_s·p + w_r·consistency·latency/scale + w_c·cost/scale)``: the composite of
    :func:`composite_score` before its zero-success floor. The interval's moves
    (``scoring.intervals.moves``) read it at the bounds of the success rate.

    >>> weighted_formula(Fraction(1, 2), Fraction(0), Fraction(80), Fraction(80))
    Fraction(44, 1)
    """
    scale, w_s, w_r, w_c = SCALE, W_SUCCESS, W_RELIABILITY, W_COST
    return scale * (w_s * p + w_r * consistency * latency / scale + w_c * cost / scale)


@dataclass(frozen=True, slots=True)
class CompositeResult:
    """The composite of one agent and every input it was built from (exact values).

    ``mean_latency_ms`` and ``mean_cost_usd`` are the means the latency and cost scores
    read (``None`` where a completed run left the value unrecorded); ``reason`` says why
    ``score`` is ``None`` (``None`` when there is a score).
    """

    score: Fraction | None
    success_rate: Fraction | None
    consistency: Fraction | None
    latency_score: Fraction | None
    cost_score: Fraction | None
    completed_runs: int
    zero_success_floor: bool
    mean_latency_ms: Fraction | None = None
    mean_cost_usd: Fraction | None = None
    reason: str | None = None


#: Why an agent with no completed run has no composite.
NO_COMPLETED_RUN = "no completed run"


def unrecorded_reason(what: str, unrecorded: int, completed_runs: int) -> str:
    """Why the composite cannot be scored when ``unrecorded`` of the ``completed_runs``
    left ``what`` (``"latency"``, ``"cost"``) null: its mean is over every completed run.

    >>> unrecorded_reason("cost", 20, 20)
    'cost not recorded on 20 of 20 completed runs'
    """
    return f"{what} not recorded on {unrecorded} of {completed_runs} completed runs"


def score_composite(
    completed_runs: int,
    successes: int,
    mean_latency_ms: Number | None,
    mean_cost_usd: Number | None,
    *,
    latency_unrecorded: int = 0,
    cost_unrecorded: int = 0,
) -> CompositeResult:
    """Build the composite from the cohort's counts and means.

    With no completed run every field is ``None`` and the composite is ``null``. A mean
    that is ``None`` (some completed run left it unrecorded, ``*_unrecorded`` of them) has
    no score: the composite is then ``null`` with the reason, and the success rate and
    consistency are still given.

    >>> from decimal import Decimal
    >>> result = score_composite(4, 3, 2000, Decimal("0.010"))
    >>> result.success_rate, result.consistency
    (Fraction(3, 4), Fraction(1, 1))
    >>> parts = (result.success_rate, result.consistency, result.latency_score, result.cost_score)
    >>> result.score == composite_score(*parts)
    True
    >>> score_composite(4, 3, 2000, None, cost_unrecorded=4).reason
    'cost not recorded on 4 of 4 completed runs'
    """
    if completed_runs == 0:
        return CompositeResult(None, None, None, None, None, 0, False, reason=NO_COMPLETED_RUN)
    p = success_rate(successes, completed_runs)
    consistency = outcome_consistency(p, completed_runs)
    latency = None if mean_latency_ms is None else curves.latency_score(mean_latency_ms)
    cost = None if mean_cost_usd is None else curves.cost_score(mean_cost_usd)
    reasons = [
        unrecorded_reason(what, count, completed_runs)
        for what, mean, count in (
            ("latency", mean_latency_ms, latency_unrecorded),
            ("cost", mean_cost_usd, cost_unrecorded),
        )
        if mean is None
    ]
    scored = (
        None if latency is None or cost is None else composite_score(p, consistency, latency, cost)
    )
    return CompositeResult(
        score=scored,
        success_rate=p,
        consistency=consistency,
        latency_score=latency,
        cost_score=cost,
        completed_runs=completed_runs,
        zero_success_floor=scored is not None and successes == 0,
        mean_latency_ms=None if mean_latency_ms is None else exact(mean_latency_ms),
        mean_cost_usd=None if mean_cost_usd is None else exact(mean_cost_usd),
        reason="; ".join(reasons) or None,
    )


#: The composite's terms read on an anchored curve: (name, unit, the constant of its
#: anchors, score field).
_ANCHORED_TERMS = (
    ("latency", "ms", "LATENCY_ANCHORS_MS", "latency_score"),
    ("cost", "USD", "COST_ANCHORS_USD", "cost_score"),
)


def _anchor_text(x: Decimal, unit: str) -> str:
    return f"${x}" if unit == "USD" else f"{x:,} {unit}"


def anchor_notes(results: Sequence[CompositeResult]) -> tuple[str, ...]:
    """A note for each anchored term (latency, cost) on which the anchors do not separate
    the agents: every agent with a score on it scores the curve's lowest (or every one its
    highest). Empty when the term separates them, or no agent has a score on it.

    Two agents beyond the last latency anchor, apart on the cost curve's first slope:

    >>> last = C.LATENCY_ANCHORS_MS[-1]
    >>> near, far = (curves.along(C.COST_ANCHORS_USD, share) for share in ("0.25", "0.75"))
    >>> agents = [score_composite(4, 3, last.x * 2, near), score_composite(2, 1, last.x * 3, far)]
    >>> notes = anchor_notes(agents)
    >>> len(notes), notes[0].startswith("the latency anchors (")
    (1, True)
    >>> notes[0].endswith(f"do not separate these agents: all 2 score {last.score}")
    True
    """
    notes = []
    for term, unit, name, field in _ANCHORED_TERMS:
        anchors = getattr(C, name)
        values = [v for r in results if (v := getattr(r, field)) is not None]
        lowest = min(anchor.score for anchor in anchors)
        highest = max(anchor.score for anchor in anchors)
        for bound in (lowest, highest):
            if values and all(v == bound for v in values):
                who = "the one agent scores" if len(values) == 1 else f"all {len(values)} score"
                span = f"{_anchor_text(anchors[0].x, unit)} to {_anchor_text(anchors[-1].x, unit)}"
                notes.append(
                    f"the {term} anchors ({span}) do not separate these agents: {who} {bound}"
                )
    return tuple(notes)
