"""Input formats read off the pydantic models, rules found by probing them, and the real
messages that bad input gets. Nothing here restates a rule: it asks the code."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ValidationError

from macros.markup import esc, joined

_NULL = {"type": "null"}


def _code(text: object) -> str:
    return f"<code>{esc(text)}</code>"


def schema_type(prop: dict[str, Any], defs: dict[str, Any]) -> str:
    """The JSON type of one schema property in words (HTML)."""
    if "$ref" in prop:
        target = defs[prop["$ref"].rsplit("/", 1)[-1]]
        if "enum" in target:
            return "one of " + joined([_code(v) for v in target["enum"]], "or")
        return f"object ({esc(target.get('title', 'object'))}, see below)"
    if "anyOf" in prop:
        options = [p for p in prop["anyOf"] if p != _NULL]
        text = " or ".join(schema_type(p, defs) for p in options)
        return f"{text} or {_code('null')}" if _NULL in prop["anyOf"] else text
    kind = prop.get("type")
    if kind == "array":
        return f"list of {schema_type(prop['items'], defs)}"
    if kind == "string":
        if prop.get("format") == "date-time":
            return "RFC 3339 timestamp (string)"
        return "string, not empty" if prop.get("minLength") else "string"
    if kind in ("number", "integer"):
        low, high = prop.get("minimum"), prop.get("maximum")
        if low is not None and high is not None:
            return f"{kind} in [{low}, {high}]"
        if low is not None:
            return f"{kind} ≥ {low}"
        if prop.get("exclusiveMinimum") is not None:
            return f"{kind} > {prop['exclusiveMinimum']}"
        return str(kind)
    if kind == "boolean":
        return f"{_code('true')} or {_code('false')}"
    return esc(kind or "any")


@dataclass(frozen=True, slots=True)
class FieldRow:
    """One field of an input model, as the site's table shows it."""

    name: str
    type_html: str
    required: bool
    default: Any
    aware_datetime: bool


def model_fields(model: type[BaseModel]) -> list[FieldRow]:
    """The fields of ``model`` with their JSON types, in declaration order."""
    schema = model.model_json_schema()
    defs = schema.get("$defs", {})
    required = set(schema.get("required", []))
    rows = []
    for name, info in model.model_fields.items():
        prop = schema["properties"][name]
        default = None if info.is_required() else info.get_default(call_default_factory=True)
        aware = "AwareDatetime" in repr(info.annotation)
        type_html = schema_type(prop, defs)
        if aware:
            type_html = type_html.replace("timestamp", "timestamp with a UTC offset")
        rows.append(FieldRow(name, type_html, name in required, default, aware))
    return rows


def model_description(model: type[BaseModel]) -> str:
    """The first line of the model's docstring."""
    return (model.__doc__ or "").strip().splitlines()[0].replace("``", "")


def _errors(model: type[BaseModel], data: dict[str, Any]) -> list[dict[str, Any]]:
    try:
        model.model_validate_json(json.dumps(data))
    except ValidationError as error:
        return list(error.errors(include_url=False))
    return []


def conditional_rules(
    model: type[BaseModel], base: dict[str, Any], switch: str, values: list[str]
) -> dict[str, list[tuple[str, str]]]:
    """For each field: the ``switch`` values under which leaving it out is refused.

    ``base`` is a complete, valid record whatever ``switch`` is; each field in turn is set
    to ``null`` (or removed) and the record validated again. Returns, per field, pairs of
    (switch value, the model's own message).
    """
    found: dict[str, list[tuple[str, str]]] = {}
    for name in model.model_fields:
        if name == switch:
            continue
        for option in values:
            data = {**base, switch: option}
            data.pop(name, None)
            if _errors(model, {**base, switch: option}):
                continue
            problems = _errors(model, data)
            if problems and problems[0]["type"] != "missing":
                found.setdefault(name, []).append((option, problems[0]["msg"]))
    return found


def forbidden_rules(
    model: type[BaseModel], base: dict[str, Any], switch: str, values: list[str], field: str
) -> list[tuple[str, str]]:
    """The ``switch`` values under which giving ``field`` (as in ``base``) is refused."""
    refused = []
    for option in values:
        problems = _errors(model, {**base, switch: option})
        if problems:
            refused.append((option, problems[0]["msg"]))
    return refused


@dataclass(frozen=True, slots=True)
class BadCase:
    """A kind of bad input, the lines that show it, and (filled in) the real message."""

    what: str
    lines: tuple[str, ...]
    #: What to show of the input (HTML); the whole lines when empty.
    shown: str = ""


def bad_input_messages(kind: str, cases: list[BadCase]) -> list[tuple[BadCase, list[str]]]:
    """Feed each case to the real reader (``report`` or ``outcome``); collect its messages."""
    from scoring.errors import InputError
    from scoring.outcome import score_outcome_lines
    from scoring.report import build_report

    reader = build_report if kind == "report" else score_outcome_lines
    results = []
    for case in cases:
        try:
            reader([line.encode("utf-8") for line in case.lines])
        except InputError as error:
            results.append((case, [str(p) for p in error.problems]))
        else:
            raise AssertionError(f"bad input case {case.what!r} was accepted")
    return results
