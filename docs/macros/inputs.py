"""Input formats: the fields of each input model read off the pydantic model, rules found by
probing it, which runs each score reads, and the real messages that bad input gets. Nothing
here restates a rule: it asks the code."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, ValidationError

import scoring.constants as C  # noqa: N812 - the module of constants, named as in contracts
from macros.markup import code_block, esc, joined, table, value

if TYPE_CHECKING:
    from macros.site import Site

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
    from scoring.formulas.outcome import score_outcome_lines
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


# --- macros ----------------------------------------------------------------------------------


def model_table(site: Site, name: str) -> str:
    """The fields of an input model, read off the pydantic model itself."""
    from scoring import models

    model = getattr(models, name)
    rules = _model_rules(name)
    rows = []
    for row in model_fields(model):
        default = "" if row.required else f"<code>{esc(json.dumps(row.default))}</code>"
        rows.append(
            [
                f"<code>{esc(row.name)}</code>",
                row.type_html,
                "required" if row.required else f"optional, default {default}",
                "; ".join(rules.get(row.name, [])),
            ]
        )
    headers = ["Field", "Type", "Presence", "Also refused"]
    if not rules:
        headers, rows = headers[:-1], [row[:-1] for row in rows]
    return table(
        f"model:{name}",
        headers,
        rows,
        caption=f"<code>{esc(name)}</code>: {esc(model_description(model))}",
    )


def _model_rules(name: str) -> dict[str, list[str]]:
    from scoring import models

    found: dict[str, list[str]] = {}
    if name == "RunRecord":
        statuses = [s.value for s in models.RunStatus]
        base = {
            "run_id": "r",
            "agent_id": "a",
            "task_id": "t",
            "success": True,
            "latency_ms": 1.0,
            "cost_usd": 1.0,
            "steps": 1,
            "finished_at": "2026-01-01T00:00:00+00:00",
        }
        for field, hits in conditional_rules(models.RunRecord, base, "status", statuses).items():
            found.setdefault(field, []).append(
                "<code>null</code> or missing when <code>status</code> is "
                + joined([f"<code>{esc(s)}</code>" for s, _ in hits], "or")
            )
    if name == "VerificationEntry":
        roles = [r.value for r in models.Role]
        base = {"name": "n", "status": "passed", "severity": "recoverable"}
        for field, hits in conditional_rules(models.VerificationEntry, base, "role", roles).items():
            found.setdefault(field, []).append(
                "missing when <code>role</code> is "
                + joined([f"<code>{esc(r)}</code>" for r, _ in hits], "or")
            )
        for role, _ in forbidden_rules(models.VerificationEntry, base, "role", roles, "severity"):
            found.setdefault("severity", []).append(
                f"given when <code>role</code> is <code>{esc(role)}</code>"
            )
    return found


def status_table(site: Site) -> str:
    """Which runs each score reads, found by scoring one-status run logs."""
    from scoring import models
    from scoring.report import build_report

    rows = []
    for status in models.RunStatus:
        lines = [
            json.dumps(
                {
                    "run_id": f"r{i}",
                    "agent_id": "a",
                    "task_id": "t",
                    "status": status.value,
                    "success": True,
                    "latency_ms": 1000,
                    "cost_usd": 0.01,
                    "finished_at": f"2026-01-01T00:00:0{i}+00:00",
                }
            ).encode()
            for i in range(max(C.REPEATABILITY_MIN_OUTCOMES, C.CONSISTENCY_MIN_RUNS))
        ]
        agent = build_report(lines).agents[0]
        rows.append(
            [
                f"<code>{esc(status.value)}</code>",
                "yes" if status in models.TERMINAL_STATUSES else "no",
                "yes" if agent.composite.completed_runs else "no",
                "yes" if agent.radar.window_runs else "no",
                "yes" if agent.repeatability.tasks else "no",
            ]
        )
    return table(
        "model:RunStatus",
        ["Status", "Terminal", "Headline composite", "Fitness radar", "Repeatability"],
        rows,
    )


def bad_input(site: Site, kind: str) -> str:
    """Bad lines and the messages the live reader gives them."""
    cases = BAD_RUNS if kind == "report" else BAD_OUTCOMES
    intro = ""
    if kind == "report":
        intro = code_block("bad-input:good-line", _GOOD_RUN, lang="json", title="a good line")
    rows = [
        [
            esc(case.what),
            case.shown
            if case.shown
            else "<br>".join(f"<code>{esc(line)}</code>" for line in case.lines),
            "<br>".join(f"<code>{esc(m)}</code>" for m in messages),
        ]
        for case, messages in bad_input_messages(kind, cases)
    ]
    return intro + table(f"bad-input:{kind}", ["Problem", "Input", "Message"], rows)


# --- bad input --------------------------------------------------------------------------------

_GOOD_RUN = (
    '{"run_id": "r1", "agent_id": "a", "task_id": "t", "status": "completed", "success": true, '
    '"latency_ms": 900, "cost_usd": 0.01, "steps": 4, "finished_at": "2026-07-01T09:00:00+00:00"}'
)


def _bad_run(what: str, old: str, new: str) -> BadCase:
    """The good run line with ``old`` replaced by ``new``."""
    assert old in _GOOD_RUN
    shown = f"<code>{esc(new)}</code> instead of <code>{esc(old)}</code>"
    return BadCase(what, (_GOOD_RUN.replace(old, new),), shown)


BAD_RUNS = [
    _bad_run("an unknown field", '"steps": 4', '"steps": 4, "model": "x"'),
    _bad_run("a wrong type", '"success": true', '"success": "yes"'),
    _bad_run("a whole number written as a decimal", '"steps": 4', '"steps": 4.0'),
    _bad_run("NaN", '"latency_ms": 900', '"latency_ms": NaN'),
    _bad_run("Infinity", '"cost_usd": 0.01', '"cost_usd": Infinity'),
    _bad_run("a negative number", '"cost_usd": 0.01', '"cost_usd": -0.01'),
    _bad_run(
        "no finish time on a finished run",
        '"finished_at": "2026-07-01T09:00:00+00:00"',
        '"finished_at": null',
    ),
    BadCase(
        "a terminal run without finished_at",
        (
            _GOOD_RUN.replace('"completed"', '"failed"').replace(
                '"2026-07-01T09:00:00+00:00"', "null"
            ),
        ),
        '<code>"status": "failed"</code> and <code>"finished_at": null</code>',
    ),
    _bad_run(
        "a timestamp without an offset",
        '"2026-07-01T09:00:00+00:00"',
        '"2026-07-01T09:00:00"',
    ),
    _bad_run(
        "an hour out of range",
        '"2026-07-01T09:00:00+00:00"',
        '"2026-07-01T25:00:00+00:00"',
    ),
    _bad_run(
        "a date that does not exist",
        '"2026-07-01T09:00:00+00:00"',
        '"2026-02-30T09:00:00+00:00"',
    ),
    _bad_run("an unknown status", '"completed"', '"done"'),
    BadCase(
        "a duplicate run_id",
        (_GOOD_RUN, _GOOD_RUN.replace('"task_id": "t"', '"task_id": "u"')),
        "the line twice, the second for another task",
    ),
    _bad_run("a field given twice", '"latency_ms": 900', '"latency_ms": 900, "latency_ms": 90'),
    BadCase("a line that is not JSON", ('{"run_id": "r1", "agent_id": ',)),
    BadCase(
        "outcome records given to the report",
        ('{"run_id": "o1", "judged": {"checklist": 0.9}}',),
    ),
]


def _outcome_line(**fields: Any) -> str:
    return json.dumps({"run_id": "o1", **fields})


def _check(**fields: Any) -> dict[str, Any]:
    return {"name": "c", "role": "objective", "status": "passed", **fields}


BAD_OUTCOMES = [
    BadCase(
        "a safeguard without severity",
        (_outcome_line(verification=[_check(role="safeguard")]),),
    ),
    BadCase(
        "an objective with a severity",
        (_outcome_line(verification=[_check(severity="recoverable")]),),
    ),
    BadCase("a weight of zero", (_outcome_line(verification=[_check(weight=0)]),)),
    BadCase("a judged reading above one", (_outcome_line(judged={"checklist": 1.2}),)),
    BadCase("an unknown status", (_outcome_line(verification=[_check(status="skipped")]),)),
    BadCase(
        "efficiency inside the judged readings",
        (_outcome_line(judged={"checklist": 0.9, "latency_sec": 3}),),
    ),
    BadCase(
        "a check whose status is given twice",
        # json.dumps cannot write a key twice, so the second status is spliced into the text.
        (
            _outcome_line(verification=[_check(status="failed")]).replace(
                '"status": "failed"', '"status": "failed", "status": "passed"'
            ),
        ),
    ),
    BadCase("a duplicate run_id", (_outcome_line(), _outcome_line())),
    BadCase("a run log given to the outcome score", (_GOOD_RUN,)),
]


def binary_kinds(site: Site) -> str:
    """The binary inputs the reader names (``scoring.report.byte_input.SIGNATURES``), in words."""
    from scoring.report.byte_input import SIGNATURES

    kinds = list(dict.fromkeys(s.kind for s in SIGNATURES))
    text = ", ".join(kinds[:-1]) + " or " + kinds[-1]
    return value("input:binary-kinds", text, title="scoring.report.byte_input.SIGNATURES")


def exit_table(site: Site) -> str:
    """How ``python -m scoring`` ends, from its one table of exit statuses."""
    from scoring.cli import EXITS

    rows = [[esc(row.name), str(int(row.status)), esc(row.tells)] for row in EXITS]
    return table("cli:exits", ["Ends with", "Status", "Standard error"], rows, numeric=(1,))


#: The macros this module renders (see ``macros.MACROS_BY_MODULE``).
MACROS: dict[str, Callable[..., str]] = {
    "model_table": model_table,
    "status_table": status_table,
    "bad_input": bad_input,
    "exit_table": exit_table,
    "binary_kinds": binary_kinds,
}
