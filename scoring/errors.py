"""Input problems: each names the line, the field and the rule it broke."""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from scoring.registry import ScoringError

# How many problems an error message lists before it only counts the rest.
MAX_LISTED_PROBLEMS = 20

# Rules checked on a whole object (a model validator): the input they see is the object,
# not the field they name, so it is not shown.
_WHOLE_OBJECT_RULES = frozenset({"required_for_status", "severity_required", "severity_forbidden"})


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem in the input. ``line`` is 1-based; ``None`` for the input as a whole."""

    line: int | None
    field: str | None
    rule: str

    def __str__(self) -> str:
        where = "input" if self.line is None else f"line {self.line}"
        return f"{where}: {self.field}: {self.rule}" if self.field else f"{where}: {self.rule}"


class InputError(ScoringError):
    """The input cannot be scored. ``problems`` holds the first few, ``total`` counts all."""

    def __init__(self, problems: list[Problem], total: int | None = None) -> None:
        self.problems = problems
        self.total = len(problems) if total is None else total
        super().__init__(self.message())

    def message(self) -> str:
        """One line per listed problem, then a count of those not listed."""
        lines = [str(p) for p in self.problems]
        if self.total > len(self.problems):
            lines.append(f"... and {self.total - len(self.problems)} more problems")
        return "\n".join(lines)


def _field(loc: tuple[int | str, ...]) -> str | None:
    return ".".join(str(part) for part in loc) if loc else None


def problems_from(error: ValidationError, line: int) -> list[Problem]:
    """Turn a pydantic error into problems that name the line, the field and the rule."""
    problems = []
    for detail in error.errors(include_url=False):
        kind = detail["type"]
        loc = tuple(detail["loc"])
        ctx = detail.get("ctx") or {}
        if kind == "json_invalid":
            problems.append(Problem(line, None, _not_json(detail)))
            continue
        if kind == "model_type" and not loc:
            problems.append(Problem(line, None, "must be a JSON object"))
            continue
        if "field" in ctx:
            loc = (*loc, ctx["field"])
        rule = detail["msg"]
        if kind == "extra_forbidden":
            rule = "unknown field"
        elif kind == "missing":
            rule = "required field is missing"
        elif kind == "string_pattern_mismatch" and loc and loc[-1] == "finished_at":
            rule = (
                "must be an RFC 3339 timestamp with an offset, e.g. 2026-07-01T12:00:00Z "
                f"(got {_shown(detail.get('input'))})"
            )
        elif kind == "finite_number":
            rule = "must be a finite number (NaN and Infinity are refused)"
        elif "input" in detail and kind not in _WHOLE_OBJECT_RULES:
            rule = f"{rule} (got {_shown(detail['input'])})"
        problems.append(Problem(line, _field(loc), f"{rule} [{kind}]"))
    return problems


def _not_json(detail: ErrorDetails) -> str:
    raw = detail.get("input")
    if isinstance(raw, bytes):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as error:
            return f"not UTF-8 text (byte {error.start + 1} cannot be decoded) [utf8]"
    return f"not valid JSON ({detail['msg']}) [json]"


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


class ProblemLog:
    """Collects problems while a whole input is read; keeps the first few, counts all."""

    def __init__(self, limit: int = MAX_LISTED_PROBLEMS) -> None:
        self.limit = limit
        self.listed: list[Problem] = []
        self.total = 0

    def add(self, problem: Problem) -> None:
        """Record one problem."""
        self.total += 1
        if len(self.listed) < self.limit:
            self.listed.append(problem)

    def extend(self, problems: list[Problem]) -> None:
        """Record several problems."""
        for problem in problems:
            self.add(problem)

    def raise_if_any(self) -> None:
        """Raise :class:`InputError` if anything was recorded."""
        if self.total:
            raise InputError(self.listed, self.total)
