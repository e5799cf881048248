"""The JSON the command line prints, as typed models, and their committed JSON Schemas.

``python -m scoring report --format json`` prints a :class:`ReportOutput`;
``python -m scoring outcome --format json`` prints an :class:`OutcomeOutput` (an array, one
object per record, in input order). The bounds come from ``scoring.constants``: scores lie
on 0..``SCORE_SCALE``, fractions on 0..1, the pass^k keys are the published levels and the
radar's axes are the five of ``Axis``.

The schemas are committed beside the methodology's (``contracts/snapshots/*.schema.json``),
written by ``python -m contracts update`` and checked for staleness by ``check``; the site
publishes them beside ``methodology.schema.json``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, RootModel, create_model
from pydantic.config import JsonDict

from contracts.filesystem import write_atomic
from contracts.source import display_path
from contracts.store import SNAPSHOT_DIR, json_schema_text
from scoring.constants import (
    CORRECTNESS_SOURCES,
    INTERVAL_LEVEL,
    OUTCOME_SCORE_VERSION,
    PASS_K_LEVELS,
    SCORE_SCALE,
    Axis,
)
from scoring.models import Efficiency
from scoring.registry import tex_number
from scoring.report.write import WeightsSource, pass_key

_CLOSED = ConfigDict(extra="forbid")
_TOP = float(SCORE_SCALE)

Score = Annotated[float, Field(ge=0, le=_TOP, description=f"On the 0–{SCORE_SCALE} scale.")]
Share = Annotated[float, Field(ge=0, le=1, description="A fraction in [0, 1].")]

_LEVEL = tex_number(INTERVAL_LEVEL * 100) + "%"
Reason = Annotated[
    str | None,
    Field(
        description="Why the interval beside it is null (too few distinct tasks); null when "
        "the interval is given."
    ),
]


class ScoreIntervalOutput(BaseModel):
    """An interval at the interval level on the score scale, bounds rounded outwards."""

    model_config = ConfigDict(extra="forbid", title=f"{_LEVEL} interval on the score scale")

    low: Score
    high: Score


class ShareIntervalOutput(BaseModel):
    """An interval at the interval level of a fraction, bounds rounded outwards."""

    model_config = ConfigDict(extra="forbid", title=f"{_LEVEL} interval of a fraction")

    low: Share
    high: Share


class CompositeOutput(BaseModel):
    """The headline composite of one agent; ``null`` scores when it has no completed run,
    and a ``null`` composite, with its reason, when a completed run left its latency or
    cost unrecorded."""

    model_config = _CLOSED

    score: Score | None
    success_rate: Share | None
    consistency: Share | None
    latency_score: Score | None
    cost_score: Score | None
    completed_runs: Annotated[int, Field(ge=0)]
    zero_success_floor: bool
    mean_latency_ms: Annotated[
        float | None,
        Field(ge=0, description="The mean latency_ms the latency score read (null: unrecorded)."),
    ]
    mean_cost_usd: Annotated[
        float | None,
        Field(ge=0, description="The mean cost_usd the cost score read (null: unrecorded)."),
    ]
    reason: Annotated[
        str | None,
        Field(description="Why the composite is null; null when there is one."),
    ]
    interval: ScoreIntervalOutput | None
    success_rate_interval: ShareIntervalOutput | None
    interval_reason: Reason


RadarAxesOutput: type[BaseModel] = create_model(
    "RadarAxesOutput",
    __config__=_CLOSED,
    __doc__="Every radar axis on the score scale, or null without the evidence it needs.",
    **{axis.value: (Score | None, ...) for axis in Axis},  # type: ignore[call-overload]
)


RadarIntervalsOutput: type[BaseModel] = create_model(
    "RadarIntervalsOutput",
    __config__=_CLOSED,
    __doc__="The interval of each radar axis that has one (correctness), or null.",
    correctness=(ScoreIntervalOutput | None, ...),
)

RadarIntervalReasonsOutput: type[BaseModel] = create_model(
    "RadarIntervalReasonsOutput",
    __config__=_CLOSED,
    __doc__="Why each radar interval is null (null when it is given).",
    correctness=(Reason, ...),
)


class RadarOutput(BaseModel):
    """The fitness radar of one agent (diagnostic only)."""

    model_config = _CLOSED

    axes: RadarAxesOutput
    profile: Score | None
    window_runs: Annotated[int, Field(ge=0)]
    median_latency_ms: Annotated[float, Field(ge=0)] | None
    intervals: RadarIntervalsOutput
    interval_reasons: RadarIntervalReasonsOutput


#: The key of pass^k at a level the report was asked for beyond the published ones.
_PASS_KEY = r"^pass\^[1-9][0-9]*$"
PassKey = Annotated[str, Field(pattern=_PASS_KEY)]


def _more_levels(schema: JsonDict) -> None:
    """A level asked for with ``--pass-k`` adds its own ``pass^k`` key, and only such a key:
    the schema of the extra values moves under that pattern."""
    extra = schema.pop("additionalProperties", None)
    if extra is not None:
        schema["patternProperties"] = {_PASS_KEY: extra}
    schema["additionalProperties"] = False
    schema["description"] = (
        f"{schema.get('description', '')} The published levels' keys are always present; "
        "a level asked for with --pass-k adds its own pass^k key."
    ).strip()


class _IntervalsByLevel(BaseModel):
    model_config = ConfigDict(extra="allow", json_schema_extra=_more_levels)
    __pydantic_extra__: dict[PassKey, ShareIntervalOutput | None] = Field(init=False)


class _ReasonsByLevel(BaseModel):
    model_config = ConfigDict(extra="allow", json_schema_extra=_more_levels)
    __pydantic_extra__: dict[PassKey, Reason] = Field(init=False)


class _CountsByLevel(BaseModel):
    model_config = ConfigDict(extra="allow", json_schema_extra=_more_levels)
    __pydantic_extra__: dict[PassKey, Annotated[int, Field(ge=0)]] = Field(init=False)


class _SharesByLevel(BaseModel):
    model_config = ConfigDict(extra="allow", json_schema_extra=_more_levels)
    __pydantic_extra__: dict[PassKey, Share | None] = Field(init=False)


def _by_level(name: str, doc: str, base: type[BaseModel], value: object) -> type[BaseModel]:
    """A model with a key per published pass^k level (and any asked for) of ``value``."""
    return create_model(  # type: ignore[call-overload, no-any-return]
        name,
        __base__=base,
        __doc__=doc,
        **{f"pass_{k}": (value, Field(..., alias=pass_key(k))) for k in PASS_K_LEVELS},
    )


PassIntervalsOutput = _by_level(
    "PassIntervalsOutput",
    "The interval of pass^k at each level, or null.",
    _IntervalsByLevel,
    ShareIntervalOutput | None,
)
PassIntervalReasonsOutput = _by_level(
    "PassIntervalReasonsOutput",
    "Why the interval of pass^k at each level is null (null when it is given).",
    _ReasonsByLevel,
    Reason,
)
PassTasksOutput = _by_level(
    "PassTasksOutput",
    "The qualifying tasks of each level: those with at least max(n_min, k) recorded outcomes.",
    _CountsByLevel,
    Annotated[int, Field(ge=0)],
)
PassReasonsOutput = _by_level(
    "PassReasonsOutput",
    "Why pass^k at each level is null (no task has the outcomes it needs); null when given.",
    _ReasonsByLevel,
    Reason,
)


RepeatabilityOutput: type[BaseModel] = create_model(
    "RepeatabilityOutput",
    __base__=_SharesByLevel,
    __doc__="pass^k at each level (null, with its reason, when no task qualifies), and the tasks.",
    tasks=(Annotated[int, Field(ge=0)], ...),
    intervals=(PassIntervalsOutput, ...),
    interval_reasons=(PassIntervalReasonsOutput, ...),
    tasks_by_level=(PassTasksOutput, ...),
    reasons=(PassReasonsOutput, ...),
    **{  # type: ignore[call-overload]
        f"pass_{k}": (Share | None, Field(..., alias=pass_key(k))) for k in PASS_K_LEVELS
    },
)


class AgentOutput(BaseModel):
    """One agent of the report."""

    model_config = _CLOSED

    agent_id: str
    rank: Annotated[int, Field(ge=1, description="Competition rank by composite.")] | None
    rank_upper_bound: (
        Annotated[
            int,
            Field(
                ge=1,
                description="1 + the agents whose composite interval lies entirely above "
                "this one's (rank (UB)); null without a composite interval.",
            ),
        ]
        | None
    )
    composite: CompositeOutput
    radar: RadarOutput
    repeatability: RepeatabilityOutput


ProfileWeightsByAxisOutput: type[BaseModel] = create_model(
    "ProfileWeightsByAxisOutput",
    __config__=_CLOSED,
    __doc__="The weight of every radar axis, normalised to sum 1 (unrounded; 0 for an axis "
    "the viewer left out).",
    **{axis.value: (Share, ...) for axis in Axis},  # type: ignore[call-overload]
)


class ProfileWeightsOutput(BaseModel):
    """The weights the radar profile applied: the default profile's, or the viewer's
    (``--weights``) normalised to sum 1. Each agent's profile re-normalises them over the
    axes it has a score on."""

    model_config = _CLOSED

    source: Annotated[
        Literal[tuple(s.value for s in WeightsSource)],  # type: ignore[valid-type]
        Field(description="default: the default profile weights; viewer: --weights."),
    ]
    weights: ProfileWeightsByAxisOutput


class ReportOutput(BaseModel):
    """What ``python -m scoring report --format json`` prints."""

    model_config = ConfigDict(extra="forbid", title="Agent report (report --format json)")

    methodology_version: str
    pass_k_levels: Annotated[
        list[Annotated[int, Field(ge=1)]],
        Field(description="The pass^k levels reported: the published ones and any asked for."),
    ]
    profile_weights: ProfileWeightsOutput
    notes: Annotated[
        list[str],
        Field(description="Where the anchors of a composite term do not separate the agents."),
    ]
    agents: list[AgentOutput]


class OutcomeScoreOutput(BaseModel):
    """One run's outcome score; readings unrounded."""

    model_config = _CLOSED

    run_id: str
    outcome_score: Share | None
    correctness: Share | None
    correctness_source: Literal[CORRECTNESS_SOURCES] | None  # type: ignore[valid-type]
    recoverable_safety_raw: Share | None
    recoverable_safety: Share | None
    catastrophic_gate: Literal[0, 1]
    scoring_version: Literal[OUTCOME_SCORE_VERSION]  # type: ignore[valid-type]
    reason: str
    efficiency: Efficiency | None


class OutcomeOutput(RootModel[list[OutcomeScoreOutput]]):
    """What ``python -m scoring outcome --format json`` prints: one object per record."""

    model_config = ConfigDict(title="Run outcome scores (outcome --format json)")


#: Committed schema file name → the model it describes.
OUTPUT_MODELS: dict[str, type[BaseModel]] = {
    "report.schema.json": ReportOutput,
    "outcome.schema.json": OutcomeOutput,
}


def output_schema_text(model: type[BaseModel]) -> str:
    """The exact text of the committed JSON Schema of one output model."""
    return json_schema_text(model)


def stale_output_schemas(directory: Path | None = None) -> list[str]:
    """A message for each committed output schema that is missing or not what the models
    generate now."""
    folder = SNAPSHOT_DIR if directory is None else directory
    problems = []
    for name, model in OUTPUT_MODELS.items():
        path = folder / name
        try:
            current = path.read_text(encoding="utf-8")
        except OSError:
            problems.append(f"{display_path(path)}: the JSON Schema of the CLI output is missing")
            continue
        if current != output_schema_text(model):
            problems.append(
                f"{display_path(path)}: the JSON Schema of the CLI output is stale (the output "
                "models in contracts/output.py changed)"
            )
    return problems


def write_output_schemas(directory: Path | None = None) -> list[Path]:
    """Write the output schemas that differ from the models; return the paths written."""
    folder = SNAPSHOT_DIR if directory is None else directory
    written = []
    for name, model in OUTPUT_MODELS.items():
        path, text = folder / name, output_schema_text(model)
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            write_atomic(path, text)
            written.append(path)
    return written
