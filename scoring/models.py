"""Validated input records, as ``decisions.md`` specifies them.

Every model is strict (no type coercion), refuses unknown fields, NaN and Infinity, and
refuses negative numbers where the rule says ``≥ 0``.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated

from pydantic import AwareDatetime, BaseModel, ConfigDict, Field, model_validator
from pydantic_core import PydanticCustomError

_STRICT = ConfigDict(extra="forbid", frozen=True, strict=True, allow_inf_nan=False)

NonNegativeFloat = Annotated[float, Field(ge=0)]
NonNegativeInt = Annotated[int, Field(ge=0)]
UnitInterval = Annotated[float, Field(ge=0, le=1)]
Identifier = Annotated[str, Field(min_length=1)]


class RunStatus(StrEnum):
    """Status of a run; the last three are terminal."""

    QUEUED = "queued"
    RUNNING = "running"
    COMPLETED = "completed"
    FAILED = "failed"
    TIMEOUT = "timeout"

    @property
    def terminal(self) -> bool:
        """Whether the run has finished (completed, failed or timed out)."""
        return self in TERMINAL_STATUSES


TERMINAL_STATUSES = frozenset({RunStatus.COMPLETED, RunStatus.FAILED, RunStatus.TIMEOUT})


def _required(field: str, status: str) -> PydanticCustomError:
    return PydanticCustomError(
        "required_for_status",
        "required (not null) on a {status} run",
        {"field": field, "status": status},
    )


class RunRecord(BaseModel):
    """One run of an agent on a task: a line of the ``report`` input."""

    model_config = _STRICT

    run_id: Identifier
    agent_id: Identifier
    task_id: Identifier
    status: RunStatus
    success: bool | None = None
    latency_ms: NonNegativeFloat | None = None
    cost_usd: NonNegativeFloat | None = None
    steps: NonNegativeInt | None = None
    finished_at: AwareDatetime | None = None

    @model_validator(mode="after")
    def _required_by_status(self) -> RunRecord:
        if self.status is RunStatus.COMPLETED:
            for field in ("latency_ms", "cost_usd"):
                if getattr(self, field) is None:
                    raise _required(field, self.status.value)
        if self.status in TERMINAL_STATUSES and self.finished_at is None:
            raise _required("finished_at", self.status.value)
        return self


class Role(StrEnum):
    """What a verification entry checks."""

    OBJECTIVE = "objective"
    SAFEGUARD = "safeguard"


class Severity(StrEnum):
    """How bad it is when a safeguard does not hold."""

    RECOVERABLE = "recoverable"
    CATASTROPHIC = "catastrophic"


class CheckStatus(StrEnum):
    """Result of one verification entry; ``error`` means it could not be evaluated."""

    PASSED = "passed"
    FAILED = "failed"
    ERROR = "error"


class VerificationEntry(BaseModel):
    """One deterministic check of a run: an objective or a safeguard."""

    model_config = _STRICT

    name: Identifier
    role: Role
    severity: Severity | None = None
    status: CheckStatus
    weight: float = Field(default=1.0, gt=0)

    @model_validator(mode="after")
    def _severity_matches_role(self) -> VerificationEntry:
        if self.role is Role.SAFEGUARD and self.severity is None:
            raise PydanticCustomError(
                "severity_required",
                "required on a safeguard (recoverable or catastrophic)",
                {"field": "severity"},
            )
        if self.role is Role.OBJECTIVE and self.severity is not None:
            raise PydanticCustomError(
                "severity_forbidden",
                "must be absent on an objective",
                {"field": "severity"},
            )
        return self


class Judged(BaseModel):
    """Readings from a judge, each in [0, 1]; used only where no deterministic check applies."""

    model_config = _STRICT

    checklist: UnitInterval | None = None
    outcome_validity: UnitInterval | None = None
    recoverable: UnitInterval | None = None


class Efficiency(BaseModel):
    """Efficiency of a run, reported beside the outcome score and never part of it."""

    model_config = _STRICT

    latency_sec: NonNegativeFloat | None = None
    input_tokens: NonNegativeInt | None = None
    output_tokens: NonNegativeInt | None = None
    cached_tokens: NonNegativeInt | None = None
    reasoning_tokens: NonNegativeInt | None = None
    total_tokens: NonNegativeInt | None = None


class OutcomeRecord(BaseModel):
    """One run's verification results: a line of the ``outcome`` input."""

    model_config = _STRICT

    run_id: Identifier
    verification: list[VerificationEntry] = Field(default_factory=list)
    judged: Judged | None = None
    efficiency: Efficiency | None = None
