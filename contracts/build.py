"""Build the methodology snapshot live from ``scoring``: the one function the site,
the committed snapshots and the drift check all start from."""

from __future__ import annotations

import ast
import dataclasses
import functools
import inspect
from collections.abc import Callable, Mapping
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from pathlib import Path
from typing import Any

from pydantic import BaseModel

import scoring
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
from scoring import FORMULAS, Anchor
from scoring.examples import EXAMPLES

REPO_ROOT = Path(scoring.__file__).resolve().parent.parent


def exact_value(value: Fraction) -> ExactValue:
    """An exact rational as a terminating decimal when it is one, else ``p/q``.

    >>> exact_value(Fraction(1, 8)).exact, exact_value(Fraction(2, 3)).exact
    ('0.125', '2/3')
    """
    denominator = value.denominator
    twos = fives = 0
    while denominator % 2 == 0:
        denominator //= 2
        twos += 1
    while denominator % 5 == 0:
        denominator //= 5
        fives += 1
    if denominator == 1:
        places = max(twos, fives)
        text = str(
            (Decimal(value.numerator) / Decimal(value.denominator)).quantize(
                Decimal(1).scaleb(-places)
            )
        )
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        return ExactValue(exact=text, approx=float(value))
    return ExactValue(exact=f"{value.numerator}/{value.denominator}", approx=float(value))


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


def _relative(path: str | None) -> str:
    if path is None:
        raise ValueError("source file unknown")
    return Path(path).resolve().relative_to(REPO_ROOT).as_posix()


def constant_location(python_name: str) -> Location:
    """Where a constant of ``scoring.constants`` is defined."""
    return Location(file=_relative(C.__file__), symbol=python_name)


def formula_location(function: Callable[..., object]) -> Location:
    """Where a formula's function is defined."""
    return Location(file=_relative(inspect.getsourcefile(function)), symbol=function.__qualname__)


@functools.lru_cache(maxsize=64)
def _assignment_lines(path: Path, mtime_ns: int) -> dict[str, int]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    lines: dict[str, int] = {}
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            lines[node.target.id] = node.lineno
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    lines[target.id] = node.lineno
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
            lines[node.name] = first
    return lines


def locate(location: Location) -> int:
    """The line where ``location``'s symbol is defined now (1-based); 0 if not found.

    Only a regular file inside the repository is read (a symbolic link out of it is not);
    a file that cannot be read or parsed has no line.
    """
    path = (REPO_ROOT / location.file).resolve()
    if not path.is_relative_to(REPO_ROOT):
        return 0
    try:
        if not path.is_file():
            return 0
        lines = _assignment_lines(path, path.stat().st_mtime_ns)
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError, RecursionError):
        return 0
    return lines.get(location.symbol.split(".")[0], 0)


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
    from contracts.scoreboard import build_scoreboard  # local: it imports contracts.store

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
