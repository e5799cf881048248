"""Results as JSON-ready data and as tables for people. Pure: nothing here prints."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from enum import StrEnum
from fractions import Fraction
from itertools import chain, repeat
from typing import Any, NamedTuple

import msgspec

from scoring.constants import (
    FRACTION_DECIMALS,
    PASS_K_LEVELS,
    REASON_DECIMALS,
    SCORE_DECIMALS,
    Axis,
)
from scoring.errors import json_visible, visible
from scoring.numeric import round_half_up
from scoring.outcome import OutcomeScore
from scoring.report import AgentReport, Report
from scoring.uncertainty import AgentIntervals, Interval

_NONE = "—"


class OutputFormat(StrEnum):
    """How results are printed: a table for people, or JSON (both CLIs offer the two)."""

    TABLE = "table"
    JSON = "json"


def _score(value: Fraction | None) -> float | None:
    return None if value is None else round_half_up(value, SCORE_DECIMALS)


def _fraction(value: Fraction | None) -> float | None:
    return None if value is None else round_half_up(value, FRACTION_DECIMALS)


def _raw(value: Fraction | None) -> float | None:
    return None if value is None else float(value)


def _interval(value: Interval | None) -> dict[str, float] | None:
    return None if value is None else {"low": float(value.low), "high": float(value.high)}


_AXIS_KEYS = tuple(axis.value for axis in Axis)
_CORRECTNESS = Axis.CORRECTNESS.value


def pass_key(k: int) -> str:
    """The JSON key of pass^k at level ``k``."""
    return f"pass^{k}"


class _PassKeys(dict[int, str]):
    """``pass_key`` of each level, computed once per level."""

    def __missing__(self, k: int) -> str:
        key = self[k] = pass_key(k)
        return key


_PASS_KEYS = _PassKeys()


# composite_part's and radar_part's arguments before the intervals: an agent's values.
CompositeValues = tuple[Sequence[float | None], int, bool]
RadarValues = tuple[Sequence[float | None], float | None, int, float | None]


def composite_part(
    published: Sequence[float | None], completed_runs: int, floor: bool, intervals: AgentIntervals
) -> dict[str, Any]:
    """The ``composite`` object of an agent: its published score, success rate,
    consistency, latency and cost scores (in that order), its counts and intervals."""
    score, success_rate, consistency, latency, cost = published
    return {
        "score": score,
        "success_rate": success_rate,
        "consistency": consistency,
        "latency_score": latency,
        "cost_score": cost,
        "completed_runs": completed_runs,
        "zero_success_floor": floor,
        "interval": _interval(intervals.composite),
        "success_rate_interval": _interval(intervals.success_rate),
        "interval_reason": intervals.composite_reason,
    }


def radar_part(
    axes: Sequence[float | None],
    profile: float | None,
    window_runs: int,
    median_latency_ms: float | None,
    intervals: AgentIntervals,
) -> dict[str, Any]:
    """The ``radar`` object of an agent: the published axes (in ``Axis`` order), profile,
    window size, unrounded median latency and the correctness interval."""
    correctness, latency, cost, tool_efficiency, robustness = axes
    return {
        "axes": {
            _AXIS_KEYS[0]: correctness,
            _AXIS_KEYS[1]: latency,
            _AXIS_KEYS[2]: cost,
            _AXIS_KEYS[3]: tool_efficiency,
            _AXIS_KEYS[4]: robustness,
        },
        "profile": profile,
        "window_runs": window_runs,
        "median_latency_ms": median_latency_ms,
        "intervals": {_CORRECTNESS: _interval(intervals.correctness)},
        "interval_reasons": {_CORRECTNESS: intervals.correctness_reason},
    }


def repeatability_part(
    pass_hat: Mapping[int, float | None], tasks: int, intervals: AgentIntervals
) -> dict[str, Any]:
    """The ``repeatability`` object of an agent: published pass^k by level, the qualifying
    tasks and the intervals."""
    reason = intervals.pass_hat_reason
    keys = _PASS_KEYS
    return {
        **{keys[k]: v for k, v in pass_hat.items()},
        "tasks": tasks,
        "intervals": {keys[k]: _interval(v) for k, v in intervals.pass_hat.items()},
        "interval_reasons": {keys[k]: reason for k in intervals.pass_hat},
    }


def agent_document(
    agent_id: str,
    rank: int | None,
    rank_upper_bound: int | None,
    parts: tuple[dict[str, Any], dict[str, Any], dict[str, Any]],
) -> dict[str, Any]:
    """One agent's object of ``report --format json``: its composite, radar and
    repeatability parts."""
    composite, radar, repeatability = parts
    return {
        "agent_id": agent_id,
        "rank": rank,
        "rank_upper_bound": rank_upper_bound,
        "composite": composite,
        "radar": radar,
        "repeatability": repeatability,
    }


def agent_to_json(agent: AgentReport) -> dict[str, Any]:
    """One agent's scores with the published scales and rounding."""
    composite, radar, rep = agent.composite, agent.radar, agent.repeatability
    intervals = agent.intervals
    published = (
        _score(composite.score),
        _fraction(composite.success_rate),
        _fraction(composite.consistency),
        _score(composite.latency_score),
        _score(composite.cost_score),
    )
    parts = (
        composite_part(
            published, composite.completed_runs, composite.zero_success_floor, intervals
        ),
        radar_part(
            [_score(radar.axes[axis]) for axis in Axis],
            _score(radar.profile),
            radar.window_runs,
            _raw(radar.median_latency_ms),
            intervals,
        ),
        repeatability_part(
            {k: _fraction(v) for k, v in rep.pass_hat.items()}, rep.tasks, intervals
        ),
    )
    return agent_document(agent.agent_id, agent.rank, agent.rank_upper_bound, parts)


def report_to_json(report: Report) -> dict[str, Any]:
    """The ``report --format json`` document."""
    return {
        "methodology_version": report.methodology_version,
        "agents": [agent_to_json(agent) for agent in report.agents],
    }


def outcome_to_json(score: OutcomeScore) -> dict[str, Any]:
    """One ``outcome --format json`` object; readings unrounded in [0, 1]."""
    efficiency = score.efficiency
    return {
        "run_id": score.run_id,
        "outcome_score": score.outcome_score,
        "correctness": _raw(score.correctness),
        "correctness_source": score.correctness_source,
        "recoverable_safety_raw": _raw(score.recoverable_safety_raw),
        "recoverable_safety": _raw(score.recoverable_safety),
        "catastrophic_gate": score.catastrophic_gate,
        "scoring_version": score.scoring_version,
        "reason": score.reason,
        "efficiency": None if efficiency is None else efficiency.model_dump(exclude_unset=True),
    }


def _cell(value: object) -> str:
    if value is None:
        return _NONE
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.{FRACTION_DECIMALS}f}" if value <= 1 else f"{value:.{SCORE_DECIMALS}f}"
    return str(value)


def _numeric(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return cell == _NONE
    return True


class Table:
    """A plain-text table built row by row: columns of numbers right-aligned, the others
    left-aligned. Every cell is shown with :func:`scoring.errors.visible`, so that no input
    can move the cursor, clear the screen or start a fake row.

    The widths are known once every row was added: a caller that streams many rows adds
    them first (keeping the cells :meth:`add` returns somewhere cheap), then prints.
    """

    def __init__(self, headers: Sequence[str]) -> None:
        self.headers = [visible(h) for h in headers]
        self.widths = [len(h) for h in self.headers]
        self.numeric = [True] * len(headers)
        self.rows = 0

    def add(self, cells: Sequence[str]) -> list[str]:
        """Account for one row; returns its cells as they will be shown."""
        shown = [visible(c) for c in cells]
        self.widths = list(map(max, self.widths, map(len, shown)))
        self.numeric = [n and _numeric(c) for n, c in zip(self.numeric, shown, strict=True)]
        self.rows += 1
        return shown

    def head(self) -> list[str]:
        """The header line and the rule under it."""
        return [self.line(self.headers), "  ".join("-" * w for w in self.widths)]

    def line(self, shown: Sequence[str]) -> str:
        """One row (cells as :meth:`add` returned them) padded to the column widths."""
        right = [bool(self.rows) and n for n in self.numeric]
        padded = [
            c.rjust(w) if r else c.ljust(w)
            for c, w, r in zip(shown, self.widths, right, strict=True)
        ]
        return "  ".join(padded).rstrip()


def render_table(headers: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plain-text table (see :class:`Table`).

    >>> print(render_table(["id", "n"], [["a\\x1b[2J", "1"]]))
    id        n
    --------  -
    a\\x1b[2J  1
    """
    table = Table(headers)
    shown = [table.add(row) for row in rows]
    return "\n".join([*table.head(), *(table.line(r) for r in shown)])


def _fixed(value: float | None, places: int) -> str:
    return _NONE if value is None else f"{value:.{places}f}"


def _with_interval(value: float | None, interval: dict[str, float] | None, places: int) -> str:
    """A score and its interval for people: ``71.23 [66.90, 75.51]``; the score alone
    when it has no interval."""
    if interval is None:
        return _fixed(value, places)
    low, high = _fixed(interval["low"], places), _fixed(interval["high"], places)
    return f"{_fixed(value, places)} [{low}, {high}]"


def _rank_cell(rank: int | None, upper: int | None) -> str:
    """``3 (UB 1)``: the rank and how high the agent could truly stand."""
    if rank is None:
        return _NONE
    return f"{rank} (UB {_NONE if upper is None else upper})"


def report_to_table(report: Report) -> str:
    """The ``report`` tables for a terminal: composite, radar, repeatability."""
    return document_table(report_to_json(report))


def document_table(document: Mapping[str, Any]) -> str:
    """:func:`report_to_table` of a ``report --format json`` document."""
    data = document["agents"]
    s, f = SCORE_DECIMALS, FRACTION_DECIMALS
    composite = render_table(
        [
            "agent",
            "rank",
            "composite",
            "success",
            "consistency",
            "latency",
            "cost",
            "completed",
            "floor",
        ],
        [
            [
                a["agent_id"],
                _rank_cell(a["rank"], a["rank_upper_bound"]),
                _with_interval(c["score"], c["interval"], s),
                _with_interval(c["success_rate"], c["success_rate_interval"], f),
                _fixed(c["consistency"], f),
                _fixed(c["latency_score"], s),
                _fixed(c["cost_score"], s),
                str(c["completed_runs"]),
                _cell(c["zero_success_floor"]),
            ]
            for a in data
            for c in [a["composite"]]
        ],
    )
    radar = render_table(
        ["agent", *(axis.value for axis in Axis), "profile", "window", "p50 latency ms"],
        [
            [
                a["agent_id"],
                *(
                    _with_interval(r["axes"][axis.value], r["intervals"].get(axis.value), s)
                    for axis in Axis
                ),
                _fixed(r["profile"], s),
                str(r["window_runs"]),
                _cell(r["median_latency_ms"])
                if r["median_latency_ms"] is None
                else f"{r['median_latency_ms']:g}",
            ]
            for a in data
            for r in [a["radar"]]
        ],
    )
    repeat = render_table(
        ["agent", *(pass_key(k) for k in PASS_K_LEVELS), "tasks"],
        [
            [
                a["agent_id"],
                *(
                    _with_interval(
                        a["repeatability"][pass_key(k)],
                        a["repeatability"]["intervals"][pass_key(k)],
                        f,
                    )
                    for k in PASS_K_LEVELS
                ),
                str(a["repeatability"]["tasks"]),
            ]
            for a in data
        ],
    )
    return "\n".join(
        [
            f"methodology {document['methodology_version']}",
            "",
            "Headline composite (0-100)",
            composite,
            "",
            "Fitness radar (0-100, diagnostic only)",
            radar,
            "",
            "Repeatability (pass^k, fractions)",
            repeat,
        ]
    )


OUTCOME_HEADERS = ("run_id", "score", "c", "source", "rec_v", "cat_v", "version", "reason")
NO_RECORDS = "no records"


def outcome_row(o: OutcomeScore) -> list[str]:
    """The cells of one run in the ``outcome`` table."""
    places = REASON_DECIMALS
    return [
        o.run_id,
        _fixed(o.outcome_score, places),
        _fixed(_raw(o.correctness), places),
        o.correctness_source or _NONE,
        _fixed(_raw(o.recoverable_safety), places),
        str(o.catastrophic_gate),
        o.scoring_version,
        o.reason,
    ]


def outcomes_to_table(scores: Sequence[OutcomeScore]) -> str:
    """The ``outcome`` table for a terminal."""
    rows = [outcome_row(o) for o in scores]
    return render_table(OUTCOME_HEADERS, rows) if rows else NO_RECORDS


def to_json_text(data: object) -> str:
    """JSON as the command line prints it: indented, non-ASCII kept, nothing a terminal
    could act on (see :func:`scoring.errors.json_visible`)."""
    # json.dumps indents in Python, one generator call per value; its C encoder writes the
    # compact text and msgspec indents that in C, to the same characters
    # (tests/scoring/test_report_speed.py checks both agree).
    compact = json.dumps(data, ensure_ascii=False)
    return json_visible(msgspec.json.format(compact, indent=2))


# Python writes a float in exponent form ("1e-05", "1e+16") below 1e-4 and from 1e16 on;
# msgspec writes those differently ("0.00001", "1e16"), and every other finite float as its
# ``repr`` (tests/scoring/test_report_speed.py checks both claims).
_PLAIN_LOW, _PLAIN_HIGH = 1e-4, 1e16


def _plain(value: float | None) -> bool:
    """Whether msgspec writes ``value`` as ``json.dumps`` does (``None`` and 0 included)."""
    return not value or _PLAIN_LOW <= abs(value) < _PLAIN_HIGH


def _intervals_plain(intervals: object) -> bool:
    if intervals is None:
        return True
    assert isinstance(intervals, dict)
    return _plain(intervals["low"]) and _plain(intervals["high"])


def _agent_plain(agent: dict[str, Any]) -> bool:
    """Whether every float of an ``agent_to_json`` object is written alike by msgspec and
    ``json.dumps``: the unrounded ones (the median latency, the interval bounds) are
    checked; the rounded ones are whole units of 10^-SCORE_DECIMALS or 10^-FRACTION_DECIMALS
    on scales of at most 100, never below 1e-4 unless 0 (both at most 4 decimals)."""
    return _plain(agent["radar"]["median_latency_ms"]) and _intervals_of_agent_plain(agent)


def _intervals_of_agent_plain(agent: dict[str, Any]) -> bool:
    """:func:`_agent_plain` of the agent's interval bounds."""
    composite, radar, repeatability = agent["composite"], agent["radar"], agent["repeatability"]
    intervals = [
        composite["interval"],
        composite["success_rate_interval"],
        *radar["intervals"].values(),
        *repeatability["intervals"].values(),
    ]
    return intervals.count(None) == len(intervals) or all(map(_intervals_plain, intervals))


def report_json_text(report: Report) -> str:
    """``to_json_text(report_to_json(report))``, the same characters, encoded in C.

    msgspec writes the compact text (every string as ``json.dumps(ensure_ascii=False)``
    writes it, every float of the report as its ``repr`` unless :func:`_agent_plain` says
    otherwise), then indents it. A report holding a lone surrogate (which msgspec cannot
    encode) or a float msgspec would write differently goes the way of :func:`to_json_text`.
    Only characters a terminal could act on are then escaped: none in ASCII text but DEL.
    """
    return document_json_text(report_to_json(report))


def document_json_text(data: dict[str, Any]) -> str:
    """:func:`report_json_text` of a ``report --format json`` document."""
    indented = _indented(data)
    if indented is None:
        return to_json_text(data)
    if _shown_as_is(indented):
        return indented.decode("ascii")
    return json_visible(indented.decode("utf-8"))


def document_json_ascii(data: dict[str, Any]) -> bytes | None:
    """:func:`document_json_text` as ASCII bytes, without a copy as text, where msgspec
    writes it and it holds nothing to escape (as a report of ASCII names does); else
    ``None``."""
    indented = _indented(data)
    return indented if indented is not None and _shown_as_is(indented) else None


# The two rank lines of an agent's object as json.dumps(indent=2) writes them inside the
# document, from the newline before to the one after (ranks null): a JSON string holds no
# raw newline, so their first occurrence is the agent's own (right after its id).
_INDENT = b"  "  # json.dumps(indent=2), as to_json_text writes it
_AGENT_DEPTH = 2  # an agent's object is an item of the document's "agents" list
_KEY_MARGIN = b"\n" + _INDENT * (_AGENT_DEPTH + 1)  # before a key of an agent's object
_RANK_LINES = _KEY_MARGIN + b'"rank": %s,' + _KEY_MARGIN + b'"rank_upper_bound": %s,\n'
_RANKS_UNSET = _RANK_LINES % (b"null", b"null")


def _text_at(value: Any, depth: int) -> bytes | None:
    """``value`` as JSON indented as ``json.dumps(indent=2)`` writes it ``depth`` levels
    deep (its first line without the margin), encoded by msgspec; ``None`` if msgspec
    cannot encode it (a lone surrogate). Whether its floats are written as ``json.dumps``
    writes them, and whether it holds a character to escape, is for the caller to check."""
    try:
        compact = _encode(value)
    except UnicodeEncodeError:
        return None
    indented = msgspec.json.format(compact, indent=len(_INDENT))
    return indented.replace(b"\n", b"\n" + _INDENT * depth) if depth else indented


# An agent's text as agents_json_ascii joins it: before its rank lines, and after them.
AgentText = tuple[bytes | memoryview, bytes | memoryview]


def agent_json_ascii(agent: dict[str, Any]) -> AgentText | None:
    """One agent's object (ranks ``None``) as :func:`document_json_ascii` writes it inside
    the document, indented for its place in the ``agents`` list and cut around its rank
    lines; ``None`` where that would be ``None`` (msgspec would write it otherwise than
    ``json.dumps``, or it holds a character to escape). :func:`agents_json_ascii` joins
    these."""
    return _agent_text(agent) if _agent_plain(agent) else None


def _agent_text(agent: dict[str, Any]) -> tuple[bytes, bytes] | None:
    """:func:`agent_json_ascii` without the check of its floats."""
    text = _text_at(agent, _AGENT_DEPTH)
    if text is None or not _shown_as_is(text):
        return None
    before, _, after = (_INDENT * _AGENT_DEPTH + text).partition(_RANKS_UNSET)
    return before, after


class _Template(NamedTuple):
    """The text of the objects of agents with the same intervals, cut where their values and
    their repeatability part go (see :func:`small_agent_json_ascii`)."""

    intervals: AgentIntervals  # held, so that its id stays its own while this lives
    before: tuple[bytes, bytes]  # around the agent's id
    after: list[bytes]  # around its values, in the order the text has them
    order: list[int]  # the value at each cut of ``after``


# The values of an agent's object after its id, in this order: the composite's values, the
# radar's (composite_part's and radar_part's arguments before the intervals), then the
# repeatability part's text.
_COMPOSITE_VALUES, _RADAR_VALUES = 5 + 2, 5 + 3
# Templates by the id of their intervals, and repeatability texts by the id of their part
# (each entry holds its object); emptied when full: a report holds few of either.
_TEMPLATES: dict[int, _Template] = {}
_REPEATABILITY_TEXTS: dict[int, tuple[dict[str, Any], bytes | None]] = {}
_REMEMBERED = 1 << 12


def _marker(index: int) -> str:
    """A value no agent's object holds, for the template's cut ``index``."""
    return f"\x00{index}\x00"


def _template(intervals: AgentIntervals) -> _Template | None:
    """The template of agents with these (shared) intervals, made once from the object
    :func:`agent_document` builds with markers for values: so its text is the one
    :func:`agent_json_ascii` writes. ``None`` where that writes none."""
    found = _TEMPLATES.get(id(intervals))
    if found is not None and found.intervals is intervals:
        return found
    marks = [_marker(i) for i in range(2 + _COMPOSITE_VALUES + _RADAR_VALUES)]
    composite = marks[1 : 1 + _COMPOSITE_VALUES]
    radar = marks[1 + _COMPOSITE_VALUES : -1]
    document = agent_document(
        marks[0],
        None,
        None,
        (
            composite_part(composite[:5], composite[5], composite[6], intervals),  # type: ignore[arg-type]
            radar_part(radar[:5], radar[5], radar[6], radar[7], intervals),  # type: ignore[arg-type]
            marks[-1],
        ),
    )
    composite_intervals = [
        document["composite"]["interval"],
        document["composite"]["success_rate_interval"],
    ]
    if not all(
        map(_intervals_plain, [*composite_intervals, *document["radar"]["intervals"].values()])
    ):
        return None
    text = _agent_text(document)
    if text is None:
        return None
    encoded = [_encode(mark) for mark in marks]
    head, tail = text
    before_id, id_mark, after_id = head.partition(encoded[0])
    if not id_mark:  # pragma: no cover - the id is the object's first value
        return None
    order = sorted(range(1, len(marks)), key=lambda i: tail.index(encoded[i]))
    after: list[bytes] = []
    for i in order:
        piece, _, tail = tail.partition(encoded[i])
        after.append(piece)
    after.append(tail)
    if len(_TEMPLATES) >= _REMEMBERED:
        _TEMPLATES.clear()
    found = _TEMPLATES[id(intervals)] = _Template(
        intervals, (before_id, after_id), after, [i - 1 for i in order]
    )
    return found


def _repeatability_text(repeatability: dict[str, Any]) -> bytes | None:
    """A repeatability part as :func:`agent_json_ascii` writes it in an agent's object
    (``None`` where it writes none); remembered by the part (shared between agents)."""
    found = _REPEATABILITY_TEXTS.get(id(repeatability))
    if found is not None and found[0] is repeatability:
        return found[1]
    text = None
    if all(map(_intervals_plain, repeatability["intervals"].values())):
        text = _text_at(repeatability, _AGENT_DEPTH + 1)  # the value of an agent's key
        if text is not None and not _shown_as_is(text):
            text = None
    if len(_REPEATABILITY_TEXTS) >= _REMEMBERED:
        _REPEATABILITY_TEXTS.clear()
    _REPEATABILITY_TEXTS[id(repeatability)] = (repeatability, text)
    return text


def small_agent_json_ascii(
    agent_id: str,
    intervals: AgentIntervals,
    composite: CompositeValues,
    radar: RadarValues,
    repeatability: dict[str, Any],
) -> AgentText | None:
    """:func:`agent_json_ascii` of the object ``agent_document`` builds from these values
    (``composite_part(*composite, intervals)``, ``radar_part(*radar, intervals)``), the
    same text, made from the text of agents with the same intervals (a template), the text
    of the repeatability part and the values, encoded together by msgspec as the object
    would be."""
    template = _template(intervals)
    repeatability_text = _repeatability_text(repeatability)
    if template is None or repeatability_text is None or not _plain(radar[3]):
        return None
    published, completed_runs, floor = composite
    axes, profile, window_runs, median = radar
    # Numbers, booleans and nulls only: their JSON holds no comma.
    values = _encode([*published, completed_runs, floor, *axes, profile, window_runs, median])
    written = [*values[1:-1].split(b","), repeatability_text]
    try:
        id_text = _encode(agent_id)
    except UnicodeEncodeError:
        return None
    if not _shown_as_is(id_text):
        return None
    pieces: list[bytes] = [b""] * (2 * len(written) + 1)
    pieces[0::2] = template.after
    pieces[1::2] = [written[i] for i in template.order]
    return template.before[0] + id_text + template.before[1], b"".join(pieces)


def agents_json_ascii(
    methodology_version: str, agents: Sequence[tuple[AgentText, int | None, int | None]]
) -> bytes:
    """:func:`document_json_ascii` of the document of these agents, given in the report's
    order as their :func:`agent_json_ascii` texts with their ranks and rank upper bounds."""
    head = b'{\n  "methodology_version": %s,\n  "agents": ' % _encode(methodology_version)
    if not agents:
        return head + b"[]\n}"
    null = b"null"
    ranks = [
        _RANK_LINES
        % (null if rank is None else b"%d" % rank, null if bound is None else b"%d" % bound)
        for _, rank, bound in agents
    ]
    # Each agent: a newline, its text to the ranks, the rank lines, the rest and a comma;
    # the last comma is the list's end instead.
    pieces: list[bytes | memoryview] = list(
        chain.from_iterable(
            zip(
                repeat(b"\n"),
                [text[0] for text, _, _ in agents],
                ranks,
                [text[1] for text, _, _ in agents],
                repeat(b","),
            )
        )
    )
    pieces[0] = head + b"[\n"
    pieces[-1] = b"\n" + _INDENT + b"]\n}"
    return b"".join(pieces)  # one copy of what may be tens of MiB


def _indented(data: dict[str, Any]) -> bytes | None:
    """The document indented by msgspec, where msgspec writes it as ``json.dumps`` would."""
    if not all(map(_agent_plain, data["agents"])):
        return None
    return _text_at(data, 0)


def _shown_as_is(indented: bytes) -> bool:
    """Whether JSON text holds no character a terminal could act on: ASCII without DEL."""
    return indented.isascii() and b"\x7f" not in indented


_encode = msgspec.json.Encoder().encode


__all__ = [
    "NO_RECORDS",
    "OUTCOME_HEADERS",
    "AgentText",
    "CompositeValues",
    "RadarValues",
    "Table",
    "agent_document",
    "agent_json_ascii",
    "agent_to_json",
    "agents_json_ascii",
    "composite_part",
    "document_json_ascii",
    "document_json_text",
    "document_table",
    "outcome_row",
    "outcome_to_json",
    "outcomes_to_table",
    "pass_key",
    "radar_part",
    "render_table",
    "repeatability_part",
    "report_json_text",
    "report_to_json",
    "report_to_table",
    "small_agent_json_ascii",
    "to_json_text",
]
