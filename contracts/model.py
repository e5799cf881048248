"""The typed methodology snapshot: everything a reader needs to reproduce the scores.

A snapshot is plain, stable data. Exact values (results of formulas) are written as
``{"exact": "170/3", "approx": 56.666...}``: the exact rational as a terminating decimal or
``numerator/denominator``, and its float for reading. Where a constant or formula is defined
is recorded as file and symbol; its line is resolved live (``contracts.source.locate``), so
that a harmless edit such as a new comment does not change a released snapshot.
"""

from __future__ import annotations

from pathlib import PurePosixPath
from typing import Annotated, Any

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    SerializationInfo,
    SerializerFunctionWrapHandler,
    model_serializer,
)

SCHEMA_VERSION = 1

#: The note written as the first key (``_generated``) of every committed contracts file.
GENERATED_NOTE = "by python -m contracts update; do not edit by hand"

_FROZEN = ConfigDict(extra="forbid", frozen=True)


def _inside_repository(file: str) -> str:
    """A ``defined_in.file`` names a Python file inside the repository: a relative POSIX
    path with no ``..``, so that reading it (to find a line) never leaves the repository.
    (``contracts.source.locate`` checks the resolved path as well, for symbolic links.)"""
    path = PurePosixPath(file)
    if (
        not file
        or path.is_absolute()
        or ".." in path.parts
        or "\\" in file
        or ":" in file
        or "\x00" in file
        or path.suffix != ".py"
    ):
        raise ValueError(
            "must be a .py file relative to the repository root, inside it (no leading /, "
            f"no '..'), got {file[:80]!r}"
        )
    return file


class Location(BaseModel):
    """Where something is defined: a file relative to the repository root and a symbol."""

    model_config = _FROZEN

    file: Annotated[str, AfterValidator(_inside_repository)] = Field(
        description="Path relative to the repository root."
    )
    symbol: str = Field(description="Name of the constant or function in that file.")


class ExactValue(BaseModel):
    """An exact rational result and its float approximation."""

    model_config = _FROZEN

    exact: str = Field(description="Terminating decimal, or numerator/denominator.")
    approx: float = Field(description="The nearest float, for reading only.")


class ConstantEntry(BaseModel):
    """One constant of the methodology."""

    model_config = _FROZEN

    name: str = Field(description="Stable dotted name, e.g. composite.weight.success.")
    python_name: str = Field(description="Name of the constant in scoring.constants.")
    value: Any = Field(description="The value as JSON data.")
    unit: str
    description: str
    defined_in: Location


class FormulaEntry(BaseModel):
    """One formula: its LaTeX, owned next to the function that computes it."""

    model_config = _FROZEN

    name: str = Field(description="Stable dotted name, e.g. composite.score.")
    title: str
    latex: str
    function: str = Field(description="Importable name of the function.")
    defined_in: Location
    # Recorded from 1.1.0 on; absent from older snapshots, so that their content is unchanged.
    symbols: dict[str, str] = Field(
        default_factory=dict,
        exclude_if=lambda symbols: not symbols,
        description="Each symbol of the LaTeX and what it is bound to: an argument of the "
        "function, a constant, another formula (from 1.1.0 on).",
    )
    descriptive: str | None = Field(
        default=None,
        exclude_if=lambda reason: reason is None,
        description="Why the formula is prose by nature and its LaTeX is not evaluated; "
        "absent for a formula whose LaTeX is evaluated against its code (from 1.1.0 on).",
    )


class Evaluation(BaseModel):
    """One golden evaluation: a formula computed by the live code on fixed inputs."""

    model_config = _FROZEN

    name: str = Field(description="Stable name, e.g. composite.latency_score@2000.")
    formula: str = Field(description="Name of the formula evaluated.")
    inputs: dict[str, Any]
    result: Any = Field(description="ExactValue, number, string, boolean or null.")


class ExampleEntry(BaseModel):
    """One worked example shown on the site: inputs and the computed result."""

    model_config = _FROZEN

    name: str
    title: str
    inputs: dict[str, Any]
    result: dict[str, Any]


#: Scoreboard fields added by methodology 1.1.0, left out of the JSON when null.
UNCERTAINTY_KEYS = ("interval", "rank_upper_bound")


class ScoreInterval(BaseModel):
    """A published interval: its low and high bound, rounded outwards."""

    model_config = _FROZEN

    low: float
    high: float


class ScoreboardAgent(BaseModel):
    """One agent of a reference corpus as ``python -m scoring report`` publishes it."""

    model_config = _FROZEN

    agent_id: str
    rank: int | None = Field(
        description="1-based, in the report's order; agents with equal published composites "
        "share the rank of the first of them (1, 2, 2, 4); null without a composite."
    )
    composite: float | None = Field(description="Headline composite as published (rounded).")
    profile: float | None = Field(description="Radar profile as published (rounded).")
    pass_hat_k: dict[str, float | None] = Field(
        description='pass^k as published, by report key ("pass^1", ...).'
    )
    interval: ScoreInterval | None = Field(
        default=None,
        description="The composite's 95% interval as published (from methodology 1.1.0); "
        "absent when the agent has none, or in a snapshot released before intervals.",
    )
    rank_upper_bound: int | None = Field(
        default=None,
        description="1 + the number of agents whose composite interval lies wholly above "
        "this agent's (rank (UB), from methodology 1.1.0); absent without an interval.",
    )

    @model_serializer(mode="wrap")
    def _omit_missing_interval(
        self, handler: SerializerFunctionWrapHandler, info: SerializationInfo
    ) -> dict[str, Any]:
        # A snapshot released before 1.1.0 has neither key: each is left out when it is
        # null, so that such a snapshot's text and content hash stay as released.
        data: dict[str, Any] = handler(self)
        for key in UNCERTAINTY_KEYS:
            if data.get(key, ...) is None:
                del data[key]
        return data


class CorpusScoreboard(BaseModel):
    """The scoreboard of one reference corpus file (``contracts/corpus/*.jsonl``)."""

    model_config = _FROZEN

    path: str = Field(description="The corpus file, relative to the repository root.")
    sha256: str = Field(description="SHA-256 of the file's bytes: a new corpus is a change.")
    agents: list[ScoreboardAgent] = Field(description="Every agent, in the report's order.")


class Methodology(BaseModel):
    """A complete methodology snapshot at one version."""

    model_config = _FROZEN

    schema_version: int = Field(default=SCHEMA_VERSION)
    methodology_version: str
    zero_success_policy: str
    outcome_score_version: str
    constants: list[ConstantEntry]
    formulas: list[FormulaEntry]
    golden: list[Evaluation]
    examples: list[ExampleEntry]
    scoreboard: list[CorpusScoreboard] | None = Field(
        default=None,
        description="The reference corpus scored under this version, one entry per file "
        "(recorded from 1.0.1 on; absent from older snapshots).",
    )

    def constant(self, name: str) -> ConstantEntry:
        """The constant with dotted ``name``."""
        for entry in self.constants:
            if entry.name == name:
                return entry
        raise KeyError(name)

    def formula(self, name: str) -> FormulaEntry:
        """The formula with dotted ``name``."""
        for entry in self.formulas:
            if entry.name == name:
                return entry
        raise KeyError(name)

    def example(self, name: str) -> ExampleEntry:
        """The worked example called ``name``."""
        for entry in self.examples:
            if entry.name == name:
                return entry
        raise KeyError(name)


class SnapshotFile(Methodology):
    """A committed snapshot file: a :class:`Methodology` and, first, a note that the file is
    generated. The note is not methodology content: it is stripped on load and not hashed.
    This model exists to generate the file's JSON Schema."""

    model_config = ConfigDict(extra="forbid", frozen=True, title="Methodology snapshot file")

    generated: str = Field(
        default=GENERATED_NOTE,
        alias="_generated",
        description="Written by python -m contracts update; not part of the methodology.",
    )
