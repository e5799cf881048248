"""Results as JSON-ready data and as tables for people. Pure: nothing here prints."""

from __future__ import annotations

import json
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from enum import StrEnum
from fractions import Fraction
from typing import Any

import msgspec

from scoring.constants import (
    FRACTION_DECIMALS,
    PASS_K_LEVELS,
    REASON_DECIMALS,
    SCORE_DECIMALS,
    Axis,
)
from scoring.errors import json_visible, visible
from scoring.formulas.outcome import OutcomeScore
from scoring.intervals.surd import Interval
from scoring.numeric import round_half_up
from scoring.report import AgentReport, Report
from scoring.report.collector import collector_paused

_NONE = "—"


class OutputFormat(StrEnum):
    """How results are printed: a table for people, or JSON (both CLIs offer the two)."""

    TABLE = "table"
    JSON = "json"


class WeightsSource(StrEnum):
    """Whose weights the radar profile applied: the default profile's, or a viewer's
    (``--weights``)."""

    DEFAULT = "default"
    VIEWER = "viewer"


def _score(value: Fraction | None) -> float | None:
    return None if value is None else round_half_up(value, SCORE_DECIMALS)


def _fraction(value: Fraction | None) -> float | None:
    return None if value is None else round_half_up(value, FRACTION_DECIMALS)


def _raw(value: Fraction | None) -> float | None:
    return None if value is None else float(value)


def _interval(value: Interval | None) -> dict[str, float] | None:
    return None if value is None else {"low": float(value.low), "high": float(value.high)}


_CORRECTNESS = Axis.CORRECTNESS.value
_AXES = tuple((axis, axis.value) for axis in Axis)


def pass_key(k: int) -> str:
    """The JSON key of pass^k at level ``k``."""
    return f"pass^{k}"


def agent_to_json(
    agent: AgentReport, repeatability: dict[str, Any] | None = None
) -> dict[str, Any]:
    """One agent's object of ``report --format json``: its scores with the published
    scales and rounding, its intervals and why any is missing, and its ranks.

    ``repeatability``: its repeatability object, when it is built already
    (:func:`repeatability_to_json`)."""
    composite, radar = agent.composite, agent.radar
    intervals = agent.intervals
    return {
        "agent_id": agent.agent_id,
        "rank": agent.rank,
        "rank_upper_bound": agent.rank_upper_bound,
        "composite": {
            "score": _score(composite.score),
            "success_rate": _fraction(composite.success_rate),
            "consistency": _fraction(composite.consistency),
            "latency_score": _score(composite.latency_score),
            "cost_score": _score(composite.cost_score),
            "completed_runs": composite.completed_runs,
            "zero_success_floor": composite.zero_success_floor,
            "mean_latency_ms": _raw(composite.mean_latency_ms),
            "mean_cost_usd": _raw(composite.mean_cost_usd),
            "reason": composite.reason,
            "interval": _interval(intervals.composite),
            "success_rate_interval": _interval(intervals.success_rate),
            "interval_reason": intervals.composite_reason,
        },
        "radar": {
            "axes": {value: _score(radar.axes[axis]) for axis, value in _AXES},
            "profile": _score(radar.profile),
            "window_runs": radar.window_runs,
            "median_latency_ms": _raw(radar.median_latency_ms),
            "intervals": {_CORRECTNESS: _interval(intervals.correctness)},
            "interval_reasons": {_CORRECTNESS: intervals.correctness_reason},
        },
        "repeatability": (repeatability_to_json(agent) if repeatability is None else repeatability),
    }


def repeatability_to_json(agent: AgentReport) -> dict[str, Any]:
    """The ``repeatability`` object of one agent: pass^k per level, its intervals, and why
    any is missing."""
    rep, intervals = agent.repeatability, agent.intervals
    return {
        **{pass_key(k): _fraction(v) for k, v in rep.pass_hat.items()},
        "tasks": rep.tasks,
        "intervals": {pass_key(k): _interval(v) for k, v in intervals.pass_hat.items()},
        "interval_reasons": {
            pass_key(k): reason for k, reason in intervals.pass_hat_reasons.items()
        },
        "tasks_by_level": {pass_key(k): n for k, n in rep.tasks_by_level.items()},
        "reasons": {pass_key(k): rep.reasons.get(k) for k in rep.pass_hat},
    }


def report_to_json(report: Report, *, shared: bool = False) -> dict[str, Any]:
    """The ``report --format json`` document.

    ``shared``: agents whose repeatability scores are the very same objects (the report
    works them out once for agents with the same tallies: see
    :class:`scoring.report.score.Shared`) share one ``repeatability`` object too. Less to
    build, for a document that is written out at once (:func:`report_json_text`) and never
    changed: a change to one agent's object would show in the others'.
    """
    blocks: dict[tuple[int, int, int], dict[str, Any]] = {}

    def agent_json(agent: AgentReport) -> dict[str, Any]:
        if not shared:
            return agent_to_json(agent)
        intervals = agent.intervals
        # The objects are the report's, alive for this call: their ids stay theirs.
        key = (id(agent.repeatability), id(intervals.pass_hat), id(intervals.pass_hat_reasons))
        block = blocks.get(key)
        if block is None:
            block = blocks[key] = repeatability_to_json(agent)
        return agent_to_json(agent, block)

    with collector_paused():  # a dict per agent, no cycles: nothing for it to collect
        return {
            "methodology_version": report.methodology_version,
            "pass_k_levels": list(report.levels),
            "profile_weights": {
                "source": (
                    WeightsSource.VIEWER if report.viewer_weights else WeightsSource.DEFAULT
                ).value,
                "weights": {axis.value: _raw(w) for axis, w in report.profile_weights.items()},
            },
            "notes": list(report.notes),
            "agents": [agent_json(agent) for agent in report.agents],
        }


def report_json_text(report: Report) -> str:
    """The ``report --format json`` text of ``report`` (:func:`to_json_text`)."""
    return to_json_text(report_to_json(report, shared=True))


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


#: Characters between two columns of a table.
COLUMN_GAP = 2


class Table:
    """A plain-text table built row by row: columns of numbers right-aligned, the others
    left-aligned. Every cell is shown with :func:`scoring.errors.visible`, so that no input
    can move the cursor, clear the screen or start a fake row.

    The widths are known once every row was added: a caller that streams many rows adds
    them first (keeping the cells :meth:`add` returns somewhere cheap), then prints. A
    table wider than the terminal is printed in blocks of columns (:meth:`blocks`).
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

    def blocks(self, width: int | None) -> list[list[int]]:
        """The columns of each block the table is printed in, so that a line fits in
        ``width`` characters: all of them in one block when they fit (or ``width`` is
        ``None``); else the first column (what a row is about: the agent, the score, the
        run) in every block, followed by as many of the others, in order, as fit (at least
        one, however wide).

        >>> table = Table(["agent", "a", "b", "c"])
        >>> _ = table.add(["atlas", "1" * 6, "2" * 6, "3" * 6])
        >>> table.blocks(None), table.blocks(29), table.blocks(21)
        ([[0, 1, 2, 3]], [[0, 1, 2, 3]], [[0, 1, 2], [0, 3]])
        """
        every = list(range(len(self.widths)))
        if width is None or self.width(every) <= width:
            return [every]
        blocks: list[list[int]] = []
        block = [0]
        for column in every[1:]:
            if len(block) > 1 and self.width([*block, column]) > width:
                blocks.append(block)
                block = [0]
            block.append(column)
        blocks.append(block)
        return blocks

    def width(self, columns: Sequence[int]) -> int:
        """The characters of a full line of ``columns``."""
        return sum(self.widths[c] for c in columns) + COLUMN_GAP * (len(columns) - 1)

    def head(self, columns: Sequence[int] | None = None) -> list[str]:
        """The header line and the rule under it (of ``columns``, by default all)."""
        picked = range(len(self.widths)) if columns is None else columns
        rule = (" " * COLUMN_GAP).join("-" * self.widths[c] for c in picked)
        return [self.line(self.headers, columns), rule]

    def line(self, shown: Sequence[str], columns: Sequence[int] | None = None) -> str:
        """One row (cells as :meth:`add` returned them) padded to the column widths (of
        ``columns``, by default all)."""
        picked = range(len(self.widths)) if columns is None else columns
        right = [bool(self.rows) and n for n in self.numeric]
        padded = [
            shown[c].rjust(self.widths[c]) if right[c] else shown[c].ljust(self.widths[c])
            for c in picked
        ]
        return (" " * COLUMN_GAP).join(padded).rstrip()


def render_table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], width: int | None = None
) -> str:
    """A plain-text table (see :class:`Table`); wider than ``width`` characters, in blocks
    of columns (:meth:`Table.blocks`), a blank line between two.

    >>> print(render_table(["id", "n"], [["a\\x1b[2J", "1"]]))
    id        n
    --------  -
    a\\x1b[2J  1
    >>> print(render_table(["agent", "score", "rank"], [["atlas", "71.25", "1"]], width=14))
    agent  score
    -----  -----
    atlas  71.25
    <BLANKLINE>
    agent  rank
    -----  ----
    atlas     1
    """
    table = Table(headers)
    shown = [table.add(row) for row in rows]
    return "\n\n".join(
        "\n".join([*table.head(columns), *(table.line(r, columns) for r in shown)])
        for columns in table.blocks(width)
    )


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


def report_to_table(report: Report, width: int | None = None) -> str:
    """The ``report`` tables for a terminal: composite, radar, repeatability; a table wider
    than ``width`` characters in blocks of columns, each led by the agent column
    (:func:`render_table`)."""
    return document_table(report_to_json(report, shared=True), width)


def document_table(document: Mapping[str, Any], width: int | None = None) -> str:
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
            "latency score",
            "mean ms",
            "cost score",
            "mean USD",
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
                _mean(c["mean_latency_ms"]),
                _fixed(c["cost_score"], s),
                _mean(c["mean_cost_usd"]),
                str(c["completed_runs"]),
                _cell(c["zero_success_floor"]),
            ]
            for a in data
            for c in [a["composite"]]
        ],
        width,
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
        width,
    )
    levels = document.get("pass_k_levels", PASS_K_LEVELS)
    repeat = render_table(
        ["agent", *(pass_key(k) for k in levels), "tasks"],
        [
            [
                a["agent_id"],
                *(
                    _with_interval(
                        a["repeatability"][pass_key(k)],
                        a["repeatability"]["intervals"][pass_key(k)],
                        f,
                    )
                    for k in levels
                ),
                str(a["repeatability"]["tasks"]),
            ]
            for a in data
        ],
        width,
    )
    return "\n".join(
        [
            f"methodology {document['methodology_version']}",
            "",
            COMPOSITE_TITLE,
            composite,
            RANK_LEGEND,
            *_no_value_notes(
                (a["agent_id"], "composite", reason)
                for a in data
                for reason in [a["composite"]["reason"]]
                if a["composite"]["completed_runs"]
            ),
            *_no_interval_notes(
                (a["agent_id"], "composite and success", a["composite"]["score"], reason)
                for a in data
                for reason in [a["composite"]["interval_reason"]]
            ),
            "",
            RADAR_TITLE,
            *_weights_lines(document.get("profile_weights"), width),
            radar,
            *_no_interval_notes(
                (a["agent_id"], axis, a["radar"]["axes"][axis], reason)
                for a in data
                for axis, reason in a["radar"]["interval_reasons"].items()
            ),
            "",
            REPEATABILITY_TITLE,
            repeat,
            *_no_value_notes(
                (a["agent_id"], key, reason)
                for a in data
                for key, reason in a["repeatability"].get("reasons", {}).items()
            ),
            *_no_interval_notes(
                (a["agent_id"], key, a["repeatability"][key], reason)
                for a in data
                for key, reason in a["repeatability"]["interval_reasons"].items()
            ),
            *_report_notes(document.get("notes", ())),
        ]
    )


def _weights_lines(weights: Mapping[str, Any] | None, width: int | None) -> list[str]:
    """Which weights the radar profile applied, normalised to sum 1, for people:
    ``profile weights (default): correctness=0.2, latency=0.2, ...``, wrapped at ``width``.

    >>> _weights_lines({"source": "viewer", "weights": {"a": 2 / 3, "b": 1 / 3}}, None)
    ['profile weights (viewer, --weights, normalised): a=0.6667, b=0.3333']
    """
    if weights is None:
        return []
    whose = (
        "viewer, --weights, normalised" if weights["source"] == WeightsSource.VIEWER else "default"
    )
    pairs = ", ".join(
        f"{axis}={round_half_up(Fraction(value), FRACTION_DECIMALS):g}"
        for axis, value in weights["weights"].items()
    )
    text = f"profile weights ({whose}): {pairs}"
    if width is None:
        return [text]
    return textwrap.wrap(text, width, subsequent_indent="  ", break_on_hyphens=False)


def _mean(value: float | None) -> str:
    """A mean latency or cost as scored: ``61200``, ``0.0125``; ``—`` when unrecorded."""
    return _NONE if value is None else f"{value:g}"


def _no_value_notes(rows: Iterable[tuple[str, str, str | None]]) -> list[str]:
    """Why a score printed as ``—`` has no value, one line per agent and reason:
    ``  gale: pass^5: no task has 5 recorded outcomes``."""
    notes: dict[tuple[str, str], list[str]] = {}
    for agent, what, reason in rows:
        if reason is not None:
            notes.setdefault((agent, reason), []).append(what)
    if not notes:
        return []
    lines = [
        f"  {visible(agent)}: {', '.join(whats)}: {reason}"
        for (agent, reason), whats in notes.items()
    ]
    return [NO_VALUE, *lines]


def _report_notes(notes: Iterable[str]) -> list[str]:
    """The report's notes (where the anchors do not separate the agents), as a footer."""
    shown = [f"  {visible(note)}" for note in notes]
    return ["", NOTES_TITLE, *shown] if shown else []


COMPOSITE_TITLE = "Headline composite (scores 0-100; success and consistency as fractions 0-1)"
RADAR_TITLE = "Fitness radar (axis scores 0-100, diagnostic only)"
REPEATABILITY_TITLE = "Repeatability (pass^k, fractions 0-1)"
RANK_LEGEND = "rank (UB n): the best rank the agent could hold within its interval"
NO_INTERVAL = "No interval:"
NO_VALUE = "No value:"
NOTES_TITLE = "Notes:"


def _no_interval_notes(rows: Iterable[tuple[str, str, object, str | None]]) -> list[str]:
    """Why a score printed above has no interval, one line per agent and reason:
    ``  gale: composite and success: fewer than 10 distinct tasks (4)``. A score that is
    itself null (``—``) is left out: its row already says it has no value."""
    notes: dict[tuple[str, str], list[str]] = {}
    for agent, what, value, reason in rows:
        if value is not None and reason is not None:
            notes.setdefault((agent, reason), []).append(what)
    if not notes:
        return []
    # The agent id as the table shows it (visible): no input can move the cursor here either.
    lines = [
        f"  {visible(agent)}: {', '.join(whats)}: {reason}"
        for (agent, reason), whats in notes.items()
    ]
    return [NO_INTERVAL, *lines]


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


def outcomes_to_table(scores: Sequence[OutcomeScore], width: int | None = None) -> str:
    """The ``outcome`` table for a terminal (wider than ``width``: in blocks of columns,
    each led by the run_id column)."""
    rows = [outcome_row(o) for o in scores]
    return render_table(OUTCOME_HEADERS, rows, width) if rows else NO_RECORDS


def to_json_text(data: object) -> str:
    """JSON as the command line prints it: indented, non-ASCII kept, nothing a terminal
    could act on (see :func:`scoring.errors.json_visible`)."""
    # json.dumps indents in Python, one generator call per value; its C encoder writes the
    # compact text and msgspec indents that in C, to the same characters
    # (tests/scoring/test_report_speed.py checks both agree).
    compact = json.dumps(data, ensure_ascii=False)
    return json_visible(msgspec.json.format(compact, indent=2))
