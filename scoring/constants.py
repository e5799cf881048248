"""Every constant of the methodology, written once.

Each constant is a module-level name whose annotation carries a :class:`Meta`: the stable
dotted name the site and the snapshot use, the unit, and a one-line description. The value
is immutable (``Decimal``, ``int``, ``str``, tuples, read-only mappings). Hand-written
numbers are ``Decimal`` so that ``0.40`` means exactly 0.40; formulas turn them into
``Fraction`` for exact arithmetic.

Each constant is specified on the site's page of the score that reads it (docs/composite.md,
docs/radar.md, docs/repeatability.md, docs/outcome.md, docs/uncertainty.md).
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from decimal import Decimal
from enum import StrEnum
from statistics import NormalDist
from types import MappingProxyType
from typing import Annotated, Any, get_type_hints


@dataclass(frozen=True, slots=True)
class Meta:
    """Documentation attached to a constant through its type annotation."""

    name: str
    unit: str
    description: str


@dataclass(frozen=True, slots=True)
class Anchor:
    """One point of a piecewise-linear curve: input ``x`` scores ``score`` (0–100)."""

    x: Decimal
    score: Decimal


class Axis(StrEnum):
    """The five axes of the fitness radar, in display order."""

    CORRECTNESS = "correctness"
    LATENCY = "latency"
    COST = "cost"
    TOOL_EFFICIENCY = "tool_efficiency"
    ROBUSTNESS = "robustness"


def _curve(*points: tuple[str, str]) -> tuple[Anchor, ...]:
    return tuple(Anchor(Decimal(x), Decimal(score)) for x, score in points)


# --- Versions -------------------------------------------------------------------------

METHODOLOGY_VERSION: Annotated[
    str,
    Meta(
        "methodology.version",
        "version",
        "Version of the whole methodology; bump it for any change of constant or formula.",
    ),
] = "1.3.0"

# --- Scales and rounding ---------------------------------------------------------------

SCORE_SCALE: Annotated[
    Decimal,
    Meta(
        "scale.score_max",
        "points",
        "Top of the 0–100 scale used by the composite, the latency and cost scores, "
        "every radar axis and the profile.",
    ),
] = Decimal("100")

SCORE_DECIMALS: Annotated[
    int,
    Meta(
        "rounding.score_decimals",
        "decimal places",
        "Scores on the 0–100 scale are rounded to this many decimals, halves rounded up.",
    ),
] = 2

FRACTION_DECIMALS: Annotated[
    int,
    Meta(
        "rounding.fraction_decimals",
        "decimal places",
        "Fractions in [0, 1] (success rate, consistency, pass^k) are reported to this many "
        "decimals, halves rounded up.",
    ),
] = 4

# --- Headline composite ----------------------------------------------------------------

COMPOSITE_WEIGHT_SUCCESS: Annotated[
    Decimal,
    Meta(
        "composite.weight.success",
        "fraction",
        "Weight of the success rate in the headline composite.",
    ),
] = Decimal("0.40")

COMPOSITE_WEIGHT_RELIABILITY: Annotated[
    Decimal,
    Meta(
        "composite.weight.reliability",
        "fraction",
        "Weight of outcome consistency × latency score in the headline composite.",
    ),
] = Decimal("0.30")

COMPOSITE_WEIGHT_COST: Annotated[
    Decimal,
    Meta(
        "composite.weight.cost",
        "fraction",
        "Weight of the cost score in the headline composite.",
    ),
] = Decimal("0.30")

LATENCY_ANCHORS_MS: Annotated[
    tuple[Anchor, ...],
    Meta(
        "composite.latency_anchors_ms",
        "ms → points",
        "Anchors of the latency curve over the mean latency of completed runs; linear "
        "between anchors, flat beyond the first and the last.",
    ),
] = _curve(("500", "100"), ("2000", "80"), ("5000", "50"), ("10000", "0"))

COST_ANCHORS_USD: Annotated[
    tuple[Anchor, ...],
    Meta(
        "composite.cost_anchors_usd",
        "USD → points",
        "Anchors of the cost curve over the mean cost per completed run; linear between "
        "anchors, flat beyond the first and the last.",
    ),
] = _curve(("0.001", "100"), ("0.010", "80"), ("0.050", "50"), ("0.100", "20"), ("0.200", "0"))

CONSISTENCY_MIN_RUNS: Annotated[
    int,
    Meta(
        "composite.consistency_min_runs",
        "completed runs",
        "Evidence gate: below this many completed runs, outcome consistency is neutral.",
    ),
] = 5

NEUTRAL_CONSISTENCY: Annotated[
    Decimal,
    Meta(
        "composite.neutral_consistency",
        "fraction",
        "Outcome consistency used below the evidence gate.",
    ),
] = Decimal("1")

ZERO_SUCCESS_POLICY_ID: Annotated[
    str,
    Meta(
        "composite.zero_success_policy",
        "policy id",
        "Policy that scores a completed-run cohort with no success at 0, whatever its "
        "latency and cost.",
    ),
] = "2026-07-zero-success-v1"

# --- Fitness radar ---------------------------------------------------------------------

RADAR_WINDOW_RUNS: Annotated[
    int,
    Meta(
        "radar.window_runs",
        "terminal runs",
        "The radar reads only this many of an agent's latest terminal runs.",
    ),
] = 100

RADAR_LATENCY_FULL_MS: Annotated[
    Decimal,
    Meta(
        "radar.latency.full_score_ms",
        "ms",
        "Median latency at or below which the latency axis scores 100.",
    ),
] = Decimal("500")

RADAR_LATENCY_POINTS_PER_STEP: Annotated[
    Decimal,
    Meta(
        "radar.latency.points_per_step",
        "points",
        "Points the latency axis loses per latency step above the full-score median.",
    ),
] = Decimal("2")

RADAR_LATENCY_STEP_MS: Annotated[
    Decimal,
    Meta(
        "radar.latency.step_ms",
        "ms",
        "Size of one latency step on the latency axis.",
    ),
] = Decimal("100")

RADAR_LATENCY_MIN_RUNS: Annotated[
    int,
    Meta(
        "radar.latency.min_runs",
        "window runs with a latency",
        "The latency axis is hidden (null) until this many window runs have a latency.",
    ),
] = 5

RADAR_COST_FULL_USD: Annotated[
    Decimal,
    Meta(
        "radar.cost.full_score_usd",
        "USD",
        "Median cost per run at or below which the cost axis scores 100.",
    ),
] = Decimal("0.01")

RADAR_COST_ZERO_USD: Annotated[
    Decimal,
    Meta(
        "radar.cost.zero_score_usd",
        "USD",
        "Median cost per run at or above which the cost axis scores 0.",
    ),
] = Decimal("0.11")

RADAR_STEPS_FREE: Annotated[
    int,
    Meta(
        "radar.tool_efficiency.free_steps",
        "steps",
        "Median step count at or below which the tool-efficiency axis scores 100.",
    ),
] = 3

RADAR_POINTS_PER_EXTRA_STEP: Annotated[
    Decimal,
    Meta(
        "radar.tool_efficiency.points_per_extra_step",
        "points",
        "Points the tool-efficiency axis loses per median step above the free steps.",
    ),
] = Decimal("10")

ROBUSTNESS_MIN_OUTCOMES: Annotated[
    int,
    Meta(
        "radar.robustness.min_outcomes",
        "known outcomes per task",
        "A task enters the robustness axis with at least this many known outcomes in the window.",
    ),
] = 2

RADAR_DEFAULT_WEIGHTS: Annotated[
    MappingProxyType[Axis, Decimal],
    Meta(
        "radar.default_weights",
        "fraction",
        "Default viewer weight of each radar axis; re-normalised over available axes.",
    ),
] = MappingProxyType(
    {
        Axis.CORRECTNESS: Decimal("0.20"),
        Axis.LATENCY: Decimal("0.20"),
        Axis.COST: Decimal("0.20"),
        Axis.TOOL_EFFICIENCY: Decimal("0.20"),
        Axis.ROBUSTNESS: Decimal("0.20"),
    }
)

# --- Repeatability ---------------------------------------------------------------------

REPEATABILITY_MIN_OUTCOMES: Annotated[
    int,
    Meta(
        "repeatability.min_outcomes",
        "recorded outcomes per task",
        "A task enters pass^k with at least this many recorded outcomes.",
    ),
] = 3

PASS_K_LEVELS: Annotated[
    tuple[int, ...],
    Meta(
        "repeatability.k_levels",
        "k",
        "The published pass^k levels.",
    ),
] = (1, 3, 5)

# --- Run-level outcome score -----------------------------------------------------------

OUTCOME_SCORE_VERSION: Annotated[
    str,
    Meta(
        "outcome.version",
        "version",
        "Scoring version stamped on every run-level outcome score.",
    ),
] = "v1"

RECOVERABLE_FLOOR: Annotated[
    Decimal,
    Meta(
        "outcome.recoverable_floor",
        "fraction",
        "Floor of recoverable safety: rec_v = floor + (1 − floor) × raw.",
    ),
] = Decimal("0.1")

DEFAULT_CHECK_WEIGHT: Annotated[
    Decimal,
    Meta(
        "outcome.default_check_weight",
        "weight",
        "Weight of a verification entry that gives none.",
    ),
] = Decimal("1")

CORRECTNESS_SOURCES: Annotated[
    tuple[str, ...],
    Meta(
        "outcome.correctness_sources",
        "source order",
        "Sources of correctness, first that applies wins: deterministic over judged.",
    ),
] = ("objectives", "judged.checklist", "judged.outcome_validity")

RECOVERABLE_SOURCES: Annotated[
    tuple[str, ...],
    Meta(
        "outcome.recoverable_sources",
        "source order",
        "Sources of recoverable safety, first that applies wins.",
    ),
] = ("safeguards", "judged.recoverable")

REASON_DECIMALS: Annotated[
    int,
    Meta(
        "outcome.reason_decimals",
        "decimal places",
        "Decimals of c and rec_v in an outcome score's reason text.",
    ),
] = 3


@dataclass(frozen=True, slots=True)
class ConstantInfo:
    """One documented constant: its Python name, metadata and live value."""

    python_name: str
    meta: Meta
    value: Any


def constants() -> tuple[ConstantInfo, ...]:
    """Every documented constant of this module, in definition order."""
    module = sys.modules[__name__]
    hints = get_type_hints(module, include_extras=True)
    found: list[ConstantInfo] = []
    for python_name, hint in hints.items():
        metas = [m for m in getattr(hint, "__metadata__", ()) if isinstance(m, Meta)]
        if metas:
            found.append(ConstantInfo(python_name, metas[0], getattr(module, python_name)))
    return tuple(found)


# --- Uncertainty (from methodology 1.1.0) ----------------------------------------------
# docs/uncertainty.md: 95% intervals clustered by task (after Miller,
# "Adding Error Bars to Evals", 2024). The quantiles are derived from the levels with the
# standard library, never typed: N(0, 1) is the standard normal distribution.

INTERVAL_LEVEL: Annotated[
    Decimal,
    Meta(
        "interval.level",
        "fraction",
        "Confidence level of every per-agent interval (composite, success rate, radar "
        "correctness, pass^k).",
    ),
] = Decimal("0.95")

INTERVAL_MIN_TASKS: Annotated[
    int,
    Meta(
        "interval.min_tasks",
        "distinct tasks",
        "An interval needs at least this many distinct tasks in its cohort; with fewer it "
        "is null, with the reason.",
    ),
] = 10

INTERVAL_POWER: Annotated[
    Decimal,
    Meta(
        "interval.power",
        "fraction",
        "Power of the runs-needed plan: the chance of detecting a true difference of the "
        "planned size.",
    ),
] = Decimal("0.80")

INTERVAL_Z: Annotated[
    float,
    Meta(
        "interval.z",
        "standard deviations",
        "Standard normal quantile at (1 + level) / 2: the half-width of a two-sided interval "
        "at the level, in standard errors (derived from interval.level).",
    ),
] = NormalDist(0, 1).inv_cdf(float((1 + INTERVAL_LEVEL) / 2))

INTERVAL_BOUND_MARGIN: Annotated[
    Decimal,
    Meta(
        "interval.bound_margin",
        "fraction",
        "A bound computed from a numerical quantile (Beta, Student t) that lies within this "
        "distance of a rounding boundary is rounded outwards past it, so a printed interval "
        "never claims more than the exact one.",
    ),
] = Decimal("1E-10")

INTERVAL_Z_POWER: Annotated[
    float,
    Meta(
        "interval.z_power",
        "standard deviations",
        "Standard normal quantile at the power (derived from interval.power), used by the "
        "runs-needed formula.",
    ),
] = NormalDist(0, 1).inv_cdf(float(INTERVAL_POWER))
