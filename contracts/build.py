"""Build the methodology snapshot live from ``scoring``: the one function the site,
the committed snapshots and the drift check all start from."""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable, Mapping
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from typing import Any

from pydantic import BaseModel

import scoring.constants as C  # noqa: N812 - short alias for many constants
from contracts.model import (
    ConstantEntry,
    Evaluation,
    ExactValue,
    ExampleEntry,
    FormulaEntry,
    Location,
    Methodology,
)
from contracts.scoreboard import build_scoreboard
from contracts.source import REPO_ROOT, locate, repo_relative
from scoring import FORMULAS, Anchor
from scoring.examples import EXAMPLES
from scoring.intervals.variance import Interval
from scoring.numeric import number_text

__all__ = ["REPO_ROOT", "build_snapshot", "exact_value", "locate", "to_json_value"]


def exact_value(value: Fraction) -> ExactValue:
    """An exact rational as a terminating decimal when it is one, else ``p/q`` (the data
    form of :func:`scoring.numeric.number_text`: no grouping).

    >>> exact_value(Fraction(1, 8)).exact, exact_value(Fraction(2, 3)).exact
    ('0.125', '2/3')
    """
    return ExactValue(exact=number_text(value), approx=float(value))


def to_json_value(value: Any) -> Any:
    """A constant, input or result as JSON-ready data (exact where it matters).

    ``Decimal`` becomes an int when integral, else its float (constants are short
    decimals, so the float's repr is the decimal written); ``Fraction`` becomes an
    :class:`ExactValue` dict; enums their value; tuples and mappings recurse.
    """
    if isinstance(value, bool) or value is None or isinstance(value, str | int):
        return value.value if isinstance(value, Enum) else value
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, Fraction):
        return exact_value(value).model_dump()
    if isinstance(value, float):
        return value
    if isinstance(value, Interval):
        return {"low": to_json_value(value.low), "high": to_json_value(value.high)}
    if isinstance(value, Anchor):
        return {"x": to_json_value(value.x), "score": to_json_value(value.score)}
    if isinstance(value, BaseModel):  # an input record: as its JSON line reads
        return value.model_dump(mode="json", exclude_none=True)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):  # a reading
        return {f.name: to_json_value(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(to_json_value(k)): to_json_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_json_value(item) for item in value]
    raise TypeError(f"no JSON form for {type(value).__name__}")


def constant_location(python_name: str) -> Location:
    """Where a constant of ``scoring.constants`` is defined."""
    return Location(file=repo_relative(C.__file__), symbol=python_name)


def formula_location(function: Callable[..., object]) -> Location:
    """Where a formula's function is defined."""
    return Location(
        file=repo_relative(inspect.getsourcefile(function)), symbol=function.__qualname__
    )


def _constants() -> list[ConstantEntry]:
    return [
        ConstantEntry(
            name=info.meta.name,
            python_name=info.python_name,
            value=to_json_value(info.value),
            unit=info.meta.unit,
            description=info.meta.description,
            defined_in=constant_location(info.python_name),
        )
        for info in C.constants()
    ]


def _formulas() -> list[FormulaEntry]:
    return [
        FormulaEntry(
            name=f.name,
            title=f.title,
            latex=f.latex,
            function=f.qualname,
            defined_in=formula_location(f.function),
            symbols={symbol: binding.describe() for symbol, binding in f.symbols.items()},
            descriptive=f.descriptive,
        )
        for f in FORMULAS.values()
    ]


def _eval(name: str, formula: str, function: Callable[..., Any], **inputs: Any) -> Evaluation:
    return Evaluation(
        name=name,
        formula=formula,
        inputs={k: to_json_value(v) for k, v in inputs.items()},
        result=to_json_value(function(**inputs)),
    )


def golden_evaluations() -> list[Evaluation]:
    """Every formula computed by the live code at its golden points (its anchors, edges and
    halfway points), which its registration in ``scoring`` carries beside it."""
    return [
        _eval(f"{f.name}@{p.label}", f.name, f.function, **p.inputs)
        for f in FORMULAS.values()
        for p in f.golden
    ]


def _examples() -> list[ExampleEntry]:
    return [
        ExampleEntry(
            name=example.name,
            title=example.title,
            inputs=to_json_value(dict(example.inputs)),
            result=to_json_value(example.result()),
        )
        for example in EXAMPLES
    ]


def build_snapshot() -> Methodology:
    """The methodology as the live code defines it now, with the scoreboard of the
    reference corpus (``contracts/corpus/``) under it."""
    return Methodology(
        methodology_version=C.METHODOLOGY_VERSION,
        zero_success_policy=C.ZERO_SUCCESS_POLICY_ID,
        outcome_score_version=C.OUTCOME_SCORE_VERSION,
        constants=_constants(),
        formulas=_formulas(),
        golden=golden_evaluations(),
        examples=_examples(),
        scoreboard=build_scoreboard(),
    )
