"""Scoring: the single source of truth for every constant and formula of the methodology.

The public API::

    from scoring import build_report, score_outcome_lines, pass_hat_k

- :func:`build_report` reads run records (JSON Lines bytes) once and returns a
  :class:`Report`: per agent the headline composite, the fitness radar and repeatability.
  Its way: :func:`scoring.report.read.read_stats` gives one :class:`AgentStats` per agent
  (everything the methodology reads about it), :func:`score` scores one with the
  registered formulas, :func:`report_of` ranks them (see :mod:`scoring.report`).
- :func:`score_outcome_lines` scores outcome records with outcome score v1.
- :func:`report_to_json` and :func:`outcome_to_json` give the CLI's JSON shapes.
- :mod:`scoring.intervals.variance` (methodology 1.1.0): the 95% intervals, clustered by task,
  the ranks and :func:`runs_needed`.
- Every formula is a pure function, registered with its LaTeX in :data:`FORMULAS`;
  every constant is listed by :func:`scoring.constants.constants`.

Bad input raises :class:`InputError`; a formula called outside its domain raises
:class:`ScoringError`; constants that break the methodology's own invariants
(:func:`check_methodology`) raise :class:`MethodologyError`. Nothing in this package
prints, except the CLI.
"""

from scoring.comparisons.paired import (
    Comparison,
    Verdict,
    compare_composites,
    compare_success_rates,
)
from scoring.comparisons.planning import runs_needed
from scoring.comparisons.ranks import competition_ranks, rank_upper_bounds
from scoring.constants import METHODOLOGY_VERSION, Anchor, Axis, ConstantInfo, Meta
from scoring.errors import InputError, MethodologyError, Problem
from scoring.formulas.composite import (
    CompositeResult,
    composite_score,
    outcome_consistency,
    score_composite,
    success_rate,
)
from scoring.formulas.curves import cost_score, latency_score, piecewise_linear
from scoring.formulas.outcome import (
    OutcomeScore,
    catastrophic_gate,
    combine,
    correctness,
    recoverable_safety_raw,
    recoverable_with_floor,
    score_outcome,
    score_outcome_lines,
)
from scoring.formulas.radar import (
    RadarResult,
    correctness_axis,
    cost_axis,
    determinism,
    latency_axis,
    profile,
    robustness_axis,
    tool_efficiency_axis,
)
from scoring.formulas.repeatability import (
    RepeatabilityResult,
    aggregate_pass_hat_k,
    pass_hat_k,
    score_repeatability,
)
from scoring.intervals.moves import composite_interval
from scoring.intervals.quantiles import beta_quantile, t_quantile
from scoring.intervals.rates import (
    clopper_pearson_interval,
    correctness_interval,
    pass_hat_k_interval,
    success_interval,
    success_rate_interval,
    wilson_interval,
)
from scoring.intervals.variance import Interval, clustered_covariance, clustered_variance
from scoring.invariants import check_methodology
from scoring.models import OutcomeRecord, RunRecord, RunStatus, VerificationEntry
from scoring.registry import FORMULAS, Formula, ScoringError
from scoring.report import AgentReport, Report, build_report, report_of
from scoring.report.score import score
from scoring.report.stats import AgentStats
from scoring.report.write import outcome_to_json, report_to_json

__all__ = [
    "FORMULAS",
    "METHODOLOGY_VERSION",
    "AgentReport",
    "AgentStats",
    "Anchor",
    "Axis",
    "Comparison",
    "CompositeResult",
    "ConstantInfo",
    "Formula",
    "InputError",
    "Interval",
    "Meta",
    "MethodologyError",
    "OutcomeRecord",
    "OutcomeScore",
    "Problem",
    "RadarResult",
    "RepeatabilityResult",
    "Report",
    "RunRecord",
    "RunStatus",
    "ScoringError",
    "Verdict",
    "VerificationEntry",
    "aggregate_pass_hat_k",
    "beta_quantile",
    "build_report",
    "catastrophic_gate",
    "check_methodology",
    "clopper_pearson_interval",
    "clustered_covariance",
    "clustered_variance",
    "combine",
    "compare_composites",
    "compare_success_rates",
    "competition_ranks",
    "composite_interval",
    "composite_score",
    "correctness",
    "correctness_axis",
    "correctness_interval",
    "cost_axis",
    "cost_score",
    "determinism",
    "latency_axis",
    "latency_score",
    "outcome_consistency",
    "outcome_to_json",
    "pass_hat_k",
    "pass_hat_k_interval",
    "piecewise_linear",
    "profile",
    "rank_upper_bounds",
    "recoverable_safety_raw",
    "recoverable_with_floor",
    "report_of",
    "report_to_json",
    "robustness_axis",
    "runs_needed",
    "score",
    "score_composite",
    "score_outcome",
    "score_outcome_lines",
    "score_repeatability",
    "success_interval",
    "success_rate",
    "success_rate_interval",
    "t_quantile",
    "tool_efficiency_axis",
    "wilson_interval",
]
