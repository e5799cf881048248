"""Deterministic random run logs for the differential check of ``scoring report``
(``benchmarks/differential_report.py``): good logs that vary everything a score reads, and
hostile ones with faults planted at random lines.

Everything here is decided by one integer seed per log (:class:`LogSpec`), so a log is made
again, byte for byte, from the line the harness prints. The JSON is written by hand, not by
``json.dumps``, so that the text of a number (``1e3``, ``1000``, ``1000.000``, 25 decimals,
``-0.0``) and the layout of a line (spacing, key order, CRLF) vary as real logs do.

The shares and ranges written where a value is drawn (``rng.random() < 0.3``) are the
distribution itself, read best beside the value they shape; the bounds the methodology
sets (the radar's window, the tasks an interval needs, the anchors) come from
``scoring.constants``, so the logs test the edges of whatever a tree's constants are here.

A script too, to write one log again::

    python benchmarks/random_logs.py --seed 123 --runs 5000 --agents 40 --kind hostile OUT
"""

from __future__ import annotations

import argparse
import gzip
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from enum import StrEnum
from pathlib import Path
from typing import BinaryIO

from scoring.constants import (
    COST_ANCHORS_USD,
    INTERVAL_MIN_TASKS,
    LATENCY_ANCHORS_MS,
    RADAR_COST_FULL_USD,
    RADAR_COST_ZERO_USD,
    RADAR_LATENCY_FULL_MS,
    RADAR_STEPS_FREE,
    RADAR_WINDOW_RUNS,
)

# --- the shape of a log --------------------------------------------------------------------

#: The bounds on a log: 1 to 2,000 agents, up to 1M runs.
MAX_AGENTS = 2000
MAX_RUNS = 1_000_000
#: Tasks of one agent, and runs of one task (a few large logs need more runs per task).
MAX_TASKS_PER_AGENT = 30
MAX_RUNS_PER_TASK = 60
#: Agents are written in groups whose lines are shuffled together: input order differs from
#: timestamp order and agents interleave, while a log of 1M runs never sits in memory whole.
SHUFFLE_GROUP_AGENTS = 40
#: Bytes per gzip write and compression level (1: these logs are read, not kept).
GZIP_LEVEL = 1

STATUSES = ("completed", "failed", "timeout", "queued", "running")
TERMINAL = frozenset({"completed", "failed", "timeout"})
#: The instant every timestamp counts from, and the spread of minutes it is drawn from.
EPOCH = datetime(2026, 3, 1, tzinfo=UTC)
OFFSETS = (
    timedelta(0),
    timedelta(hours=2),
    timedelta(hours=-8),
    timedelta(hours=5, minutes=30),
    timedelta(hours=-3, minutes=-30),
    timedelta(hours=14),
)
FIELD_ORDER = (
    "run_id",
    "agent_id",
    "task_id",
    "status",
    "success",
    "latency_ms",
    "cost_usd",
    "steps",
    "finished_at",
)
OPTIONAL_FIELDS = ("success", "latency_ms", "cost_usd", "steps", "finished_at")


class Kind(StrEnum):
    """Whether a log is valid input or has faults planted in it."""

    GOOD = "good"
    HOSTILE = "hostile"


@dataclass(frozen=True, slots=True)
class LogSpec:
    """Everything a log is made from: the same spec writes the same bytes."""

    seed: int
    runs: int
    agents: int
    kind: Kind
    gzip: bool

    @property
    def name(self) -> str:
        """A file name that says what the log is."""
        suffix = ".jsonl.gz" if self.gzip else ".jsonl"
        return f"log-{self.seed}-{self.kind.value}-{self.runs}r-{self.agents}a{suffix}"


# --- numbers and timestamps, as text ---------------------------------------------------------


def _anchor_values(anchors: tuple[object, ...]) -> list[float]:
    return [float(anchor.x) for anchor in anchors]  # type: ignore[attr-defined]


LATENCY_EDGES = [
    *_anchor_values(LATENCY_ANCHORS_MS),
    float(RADAR_LATENCY_FULL_MS),
]
COST_EDGES = [
    *_anchor_values(COST_ANCHORS_USD),
    float(RADAR_COST_FULL_USD),
    float(RADAR_COST_ZERO_USD),
]
#: Latencies and costs the exact arithmetic and the float paths are known to part on.
SPECIAL_NUMBERS = (
    "0",
    "0.0",
    "0e0",
    "0.1",
    "0.2",
    "0.3",
    "1e-7",
    "2.5e-5",
    "5e-324",
    "4194304.5",
    "9007199254740993",
    "1E+2",
    "123456789012345678901234567890",
    "1.7976931348623157e308",
)
#: Draws of a number style, by weight: most numbers are plain.
NUMBER_STYLES = (
    ("int", 4),
    ("short", 4),
    ("repr", 4),
    ("exponent", 2),
    ("long", 1),
    ("edge", 2),
    ("special", 1),
    ("negative_zero", 1),
)


def number_text(rng: random.Random, scale: float, edges: list[float], style: str) -> str:
    """A non-negative number near ``scale``'s range, written in ``style``."""
    value = rng.uniform(0, scale) if rng.random() < 0.9 else rng.uniform(0, scale * 1000)
    if style == "int":
        return str(int(value))
    if style == "short":
        return f"{value:.{rng.randint(1, 4)}f}"
    if style == "repr":
        return repr(value)
    if style == "exponent":
        text = f"{value:.{rng.randint(0, 8)}e}"
        return text.upper() if rng.random() < 0.3 else text.replace("e+0", "e")
    if style == "long":
        return f"{value:.{rng.randint(18, 40)}f}"
    if style == "edge":
        edge = rng.choice(edges)
        nudge = rng.choice((0.0, 0.0, 1e-9, -1e-9, 0.5, -0.5)) * (edge or 1)
        return repr(max(0.0, edge + nudge))
    if style == "special":
        return rng.choice(SPECIAL_NUMBERS)
    return "-0.0" if rng.random() < 0.5 else "-0"


def timestamp_text(rng: random.Random, minute: int, micro: int, extra: str, style: int) -> str:
    """The instant ``minute`` minutes and ``micro`` microseconds after :data:`EPOCH`, at a
    random offset, with ``extra`` digits beyond the microsecond, written in one of the forms
    RFC 3339 allows (``style`` picks separators and the case of ``T`` and ``Z``)."""
    instant = EPOCH + timedelta(minutes=minute, microseconds=micro)
    offset = rng.choice(OFFSETS)
    local = instant.astimezone(timezone(offset))
    digits = f"{local.microsecond:06d}{extra}"
    if not extra and rng.random() < 0.5:
        digits = digits.rstrip("0")
    fraction = f".{digits}" if digits else ""
    separator = "T" if style % 3 else rng.choice("t ")
    body = local.strftime(f"%Y-%m-%d{separator}%H:%M:%S") + fraction
    if offset == timedelta(0) and rng.random() < 0.7:
        return body + ("z" if style % 5 == 0 else "Z")
    total = int(offset.total_seconds()) // 60
    sign = "-" if total < 0 else "+"
    hours, minutes = divmod(abs(total), 60)
    return f"{body}{sign}{hours:02d}:{minutes:02d}"


def string_text(value: str) -> str:
    """``value`` as a JSON string: quotes, backslashes and control characters escaped, the
    rest (non-ASCII included) written as it is."""
    out = value.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(c if c >= " " else f"\\u{ord(c):04x}" for c in out) + '"'


# --- agents ----------------------------------------------------------------------------------

#: Odd agent names (quotes, escapes, non-ASCII, a long one) mixed in among plain ones.
ODD_NAMES = (
    'agent "quoted"',
    "agent\\back",
    "agent\ttab",
    "agent-é-ü",
    "代理-🤖",
    "a" * 300,
    " ",
    "agent\u0007bell",
    "agent\u202eright-to-left",
    "<b>agent</b>",
)


@dataclass(slots=True)
class AgentPlan:
    """How one agent's runs are drawn."""

    name: str
    tasks: int
    runs: int
    success: float
    unknown: float
    statuses: list[int]
    latency_style: str
    cost_style: str
    steps: float
    omit: float
    minutes: int
    ties: float
    window_terminal: int | None


def _agent_plan(rng: random.Random, index: int, runs: int) -> AgentPlan:
    name = f"agent-{index:04d}"
    if rng.random() < 0.03:
        name = f"{rng.choice(ODD_NAMES)}-{index}"
    few_tasks = rng.random() < 0.5
    tasks = (
        rng.randint(1, INTERVAL_MIN_TASKS - 1)
        if few_tasks
        else rng.randint(INTERVAL_MIN_TASKS, MAX_TASKS_PER_AGENT)
    )
    success = rng.choice((0.0, 1.0, rng.random(), rng.random(), rng.random()))
    statuses = rng.choice(
        (
            [1, 0, 0, 0, 0],  # completed only
            [8, 2, 1, 1, 1],
            [rng.randint(0, 8) for _ in STATUSES],
            [0, 3, 2, 1, 1],  # no completed run: the composite is null
            [4, 0, 0, 3, 3],
        )
    )
    if not any(statuses):
        statuses[0] = 1
    styles = [style for style, _ in NUMBER_STYLES]
    weights = [weight for _, weight in NUMBER_STYLES]
    # Terminal runs about the window's size, the rest queued or running: the window's
    # boundary falls among tied timestamps.
    window_terminal = None
    if runs >= RADAR_WINDOW_RUNS - 2 and rng.random() < 0.1:
        window_terminal = min(runs, RADAR_WINDOW_RUNS + rng.randint(-2, 2))
    return AgentPlan(
        name=name,
        tasks=max(1, min(tasks, runs)),
        runs=runs,
        success=success,
        unknown=rng.choice((0.0, 0.0, 0.1, 0.5, 1.0)),
        statuses=statuses,
        latency_style=rng.choices(styles, weights)[0] if rng.random() < 0.5 else "mixed",
        cost_style=rng.choices(styles, weights)[0] if rng.random() < 0.5 else "mixed",
        steps=rng.choice((0.0, 1.0, 1.0, 0.5)),
        omit=rng.choice((0.0, 0.0, 0.3, 1.0)),
        minutes=rng.choice((1, 3, 60, 10_000, 500_000)),
        ties=0.9 if window_terminal else rng.choice((0.0, 0.1, 0.5, 0.9)),
        window_terminal=window_terminal,
    )


def _agent_budgets(rng: random.Random, runs: int, agents: int) -> list[int]:
    """Runs of each agent: every agent at least one, the rest spread unevenly (a few large
    agents, many small), summing to ``runs``."""
    weights = [rng.paretovariate(1.2) for _ in range(agents)]
    total = sum(weights)
    spare = runs - agents
    budgets = [1 + int(spare * w / total) for w in weights]
    for i in rng.sample(range(agents), runs - sum(budgets)):
        budgets[i] += 1
    return budgets


def _task_runs(rng: random.Random, tasks: int, runs: int) -> list[int]:
    """Runs of each task: at least one each, at most ``MAX_RUNS_PER_TASK`` where they fit."""
    counts = [1] * tasks
    spare = runs - tasks
    cap = max(MAX_RUNS_PER_TASK, -(-runs // tasks))
    weights = [rng.random() + 0.05 for _ in range(tasks)]
    while spare > 0:
        for i in rng.choices(range(tasks), weights, k=min(spare, 4 * tasks)):
            if spare and counts[i] < cap:
                counts[i] += 1
                spare -= 1
    return counts


class Record:
    """One run as (key, JSON text) pairs, in the order they are written."""

    __slots__ = ("pairs",)

    def __init__(self, pairs: list[tuple[str, str]]) -> None:
        self.pairs = pairs

    def get(self, key: str) -> str | None:
        """The text of ``key``'s first value, if it is there."""
        return next((value for k, value in self.pairs if k == key), None)

    def set(self, key: str, value: str) -> None:
        """``key`` set to the JSON text ``value`` (added last if it is not there)."""
        for i, (k, _) in enumerate(self.pairs):
            if k == key:
                self.pairs[i] = (key, value)
                return
        self.pairs.append((key, value))

    def drop(self, key: str) -> None:
        """``key`` removed."""
        self.pairs = [(k, v) for k, v in self.pairs if k != key]

    def text(self, compact: bool) -> str:
        """The record as a JSON object."""
        colon, comma = (":", ",") if compact else (": ", ", ")
        return "{" + comma.join(f'"{k}"{colon}{v}' for k, v in self.pairs) + "}"


def _agent_records(rng: random.Random, plan: AgentPlan, first_id: int) -> list[Record]:
    records = []
    styles = [style for style, _ in NUMBER_STYLES]
    weights = [weight for _, weight in NUMBER_STYLES]
    tie_minutes = [rng.randrange(plan.minutes) for _ in range(3)]
    agent = string_text(plan.name)
    run_id = first_id
    terminal = [s in TERMINAL for s in STATUSES]
    for task, count in enumerate(_task_runs(rng, plan.tasks, plan.runs)):
        task_text = string_text(f"task-{task:02d}")
        for _ in range(count):
            status = rng.choices(STATUSES, plan.statuses)[0]
            if plan.window_terminal is not None:
                wanted = run_id - first_id < plan.window_terminal
                chances = [
                    w if t == wanted else 0 for w, t in zip(plan.statuses, terminal, strict=True)
                ]
                if not any(chances):
                    chances = [1 if t == wanted else 0 for t in terminal]
                status = rng.choices(STATUSES, chances)[0]
            values: dict[str, str | None] = {
                "run_id": string_text(f"run-{run_id}"),
                "agent_id": agent,
                "task_id": task_text,
                "status": f'"{status}"',
            }
            run_id += 1
            if rng.random() < plan.unknown:
                values["success"] = "null"
            else:
                values["success"] = "true" if rng.random() < plan.success else "false"
            completed = status == "completed"
            for key, scale, edges, style in (
                ("latency_ms", 12_000.0, LATENCY_EDGES, plan.latency_style),
                ("cost_usd", 0.25, COST_EDGES, plan.cost_style),
            ):
                if completed or rng.random() < 0.5:
                    chosen = rng.choices(styles, weights)[0] if style == "mixed" else style
                    values[key] = number_text(rng, scale, edges, chosen)
                else:
                    values[key] = None
            if rng.random() < plan.steps:
                steps = rng.choice((0, 1, RADAR_STEPS_FREE, rng.randint(0, 20), 10**6))
                values["steps"] = str(steps)
            else:
                values["steps"] = None
            if status in TERMINAL or rng.random() < 0.3:
                tied = rng.random() < plan.ties
                minute = rng.choice(tie_minutes) if tied else rng.randrange(plan.minutes)
                micro = 0 if tied else rng.choice((0, 0, rng.randrange(10**6)))
                extra = ""
                if rng.random() < 0.1:
                    extra = rng.choice(("0", "000", "1", "0000001", str(rng.randrange(10**6))))
                style = rng.randrange(15)
                values["finished_at"] = f'"{timestamp_text(rng, minute, micro, extra, style)}"'
            else:
                values["finished_at"] = None
            pairs: list[tuple[str, str]] = []
            for key in FIELD_ORDER:
                value = values.get(key)
                if value is None:
                    if key in OPTIONAL_FIELDS and rng.random() < plan.omit:
                        continue
                    value = "null"
                pairs.append((key, value))
            if rng.random() < 0.05:
                rng.shuffle(pairs)
            records.append(Record(pairs))
    return records


def good_records(rng: random.Random, runs: int, agents: int) -> Iterator[Record]:
    """The records of a valid log, a group of agents at a time, shuffled within the group."""
    budgets = _agent_budgets(rng, runs, agents)
    next_id = 0
    for start in range(0, agents, SHUFFLE_GROUP_AGENTS):
        group: list[Record] = []
        for index in range(start, min(agents, start + SHUFFLE_GROUP_AGENTS)):
            plan = _agent_plan(rng, index, budgets[index])
            group += _agent_records(rng, plan, next_id)
            next_id += plan.runs
        if rng.random() < 0.85:
            rng.shuffle(group)
        yield from group


# --- faults ----------------------------------------------------------------------------------

#: A line fault: takes the record (and the run ids seen so far), gives the line's bytes.
LineFault = Callable[[random.Random, Record, list[str]], bytes]


def _set(key: str, *texts: str) -> LineFault:
    def fault(rng: random.Random, record: Record, seen: list[str]) -> bytes:
        record.set(key, rng.choice(texts))
        return record.text(False).encode()

    return fault


def _repeated_key(rng: random.Random, record: Record, seen: list[str]) -> bytes:
    key, value = rng.choice(record.pairs)
    again = rng.choice((value, '"other"', "-1", "null"))
    record.pairs.insert(rng.randrange(len(record.pairs) + 1), (key, again))
    return record.text(False).encode()


def _duplicate_run_id(rng: random.Random, record: Record, seen: list[str]) -> bytes:
    # On the first line nothing is seen yet: the id of the first run drawn (or of the second,
    # if this is it), which a later line carries.
    first = string_text("run-0")
    fallback = string_text("run-1") if record.get("run_id") == first else first
    record.set("run_id", rng.choice(seen) if seen else fallback)
    return record.text(False).encode()


def _missing(key: str) -> LineFault:
    def fault(rng: random.Random, record: Record, seen: list[str]) -> bytes:
        record.drop(key)
        return record.text(False).encode()

    return fault


def _completed_without(key: str) -> LineFault:
    def fault(rng: random.Random, record: Record, seen: list[str]) -> bytes:
        record.set("status", '"completed"')
        if rng.random() < 0.5:
            record.drop(key)
        else:
            record.set(key, "null")
        return record.text(False).encode()

    return fault


def _terminal_without_time(rng: random.Random, record: Record, seen: list[str]) -> bytes:
    record.set("status", rng.choice(('"failed"', '"timeout"', '"completed"')))
    record.set("latency_ms", "1")
    record.set("cost_usd", "0")
    record.set("finished_at", "null")
    return record.text(False).encode()


def _two_objects(rng: random.Random, record: Record, seen: list[str]) -> bytes:
    line = record.text(False)
    return (line + rng.choice(("", " ", ",")) + line).encode()


def _invalid_utf8(rng: random.Random, record: Record, seen: list[str]) -> bytes:
    line = record.text(False).encode()
    at = line.find(b'"', 2) + 1
    return line[:at] + rng.choice((b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf")) + line[at:]


def _mid_bom(rng: random.Random, record: Record, seen: list[str]) -> bytes:
    return b"\xef\xbb\xbf" + record.text(False).encode()


def _raw(*lines: bytes) -> LineFault:
    def fault(rng: random.Random, record: Record, seen: list[str]) -> bytes:
        return rng.choice(lines)

    return fault


def _control_character(rng: random.Random, record: Record, seen: list[str]) -> bytes:
    record.set("task_id", '"task\x01raw"')
    return record.text(False).encode()


def _deep(rng: random.Random, record: Record, seen: list[str]) -> bytes:
    depth = rng.choice((50, 300, 5000))
    record.set("steps", "[" * depth + "]" * depth)
    return record.text(False).encode()


def _long_line(rng: random.Random, record: Record, seen: list[str]) -> bytes:
    # A long task id: a line past any read block, whose id no output prints.
    record.set("task_id", string_text("t" * rng.choice((70_000, LONG_LINE_CHARS))))
    return record.text(False).encode()


def long_agent_id(agents: int) -> LineFault:
    """A long agent id, as long as a log of ``agents`` agents can take: the table pads every
    agent's row to the longest id, so its output grows as agents × that length."""
    chars = max(1, min(LONG_AGENT_ID_CHARS, TABLE_BUDGET_CHARS // agents))

    def oddity(rng: random.Random, record: Record, seen: list[str]) -> bytes:
        record.set("agent_id", string_text("a" * chars))
        return record.text(False).encode()

    return oddity


def _outcome_record(rng: random.Random, record: Record, seen: list[str]) -> bytes:
    run_id = record.get("run_id") or '"r"'
    return f'{{"run_id": {run_id}, "verification": []}}'.encode()


#: Every fault planted at a line, by name (the name is printed with the log).
LINE_FAULTS: dict[str, LineFault] = {
    "repeated_key": _repeated_key,
    "infinite_number": _set("latency_ms", "1e400", "-1e400", "1" + "0" * 400),
    "nan": _set("cost_usd", "NaN", "Infinity", "-Infinity", "nan"),
    "bool_as_string": _set("success", '"true"', '"false"', "1", "0"),
    "number_as_string": _set("latency_ms", '"100"', '"0.5"', '"1e3"'),
    "fractional_steps": _set("steps", "3.5", "3.0", "1e2", "-0.5"),
    "huge_integer": _set("steps", "9" * 5000, "1" + "0" * 4300),
    "unknown_field": _set("tool_calls", "3", "null", '"x"'),
    "unknown_status": _set("status", '"cancelled"', '"Completed"', '"COMPLETED"', '""', "null"),
    "negative": _set("latency_ms", "-1", "-0.001", "-1e-300"),
    "negative_cost": _set("cost_usd", "-0.01", "-5"),
    "negative_steps": _set("steps", "-1", "-2"),
    "duplicate_run_id": _duplicate_run_id,
    "missing_run_id": _missing("run_id"),
    "missing_agent_id": _missing("agent_id"),
    "missing_status": _missing("status"),
    "empty_run_id": _set("run_id", '""'),
    "completed_without_latency": _completed_without("latency_ms"),
    "completed_without_cost": _completed_without("cost_usd"),
    "terminal_without_time": _terminal_without_time,
    "timestamp_without_offset": _set(
        "finished_at", '"2026-03-01T10:00:00"', '"2026-03-01T10:00:00.5"', '"2026-03-01"'
    ),
    "bad_timestamp": _set(
        "finished_at",
        '"2026-02-30T00:00:00Z"',
        '"2026-03-01T23:59:60Z"',
        '"2026-03-01T24:00:00Z"',
        '"2026-03-01T10:00:00+24:00"',
        '"2026-03-01T10:00:00 Z"',
        '"２０２６-03-01T10:00:00Z"',
        "1772000000",
    ),
    "two_objects": _two_objects,
    "invalid_utf8": _invalid_utf8,
    "bom_mid_file": _mid_bom,
    "non_object": _raw(b"[1, 2]", b"42", b'"run"', b"null", b"true", b"[]", b"{}"),
    "not_json": _raw(b"{bad", b'{"run_id": "x",}', b"{'run_id': 'x'}", b"}", b"\x00\x00"),
    "wrong_type_agent": _set("agent_id", "42", "null", "[]", '{"a": 1}', "true"),
    "wrong_type_steps": _set("steps", '"3"', "true", "[3]"),
    "wrong_type_time": _set("finished_at", "123", "true", "[]"),
    "wrong_type_latency": _set("latency_ms", "true", "[1]", '{"ms": 1}'),
    "control_character": _control_character,
    "deep_nesting": _deep,
    "outcome_record": _outcome_record,
}

#: Characters of a long line's task id (beyond ``READ_BLOCK_BYTES`` of the reader), of a
#: long agent id at most, and of the report's tables at most for one long agent id
#: (a run of an earlier version of this module, with an id of 1.2M characters among 860
#: agents, took the report's table over 23 GB of memory).
LONG_LINE_CHARS = 5_000_000
LONG_AGENT_ID_CHARS = 70_000
TABLE_BUDGET_CHARS = 4_000_000

#: Valid lines that few logs hold, put in good and hostile logs alike ("long_agent_id" is
#: made for the log's agents by :func:`long_agent_id`).
LINE_ODDITIES: dict[str, LineFault] = {
    "long_line": _long_line,
    "long_agent_id": long_agent_id(1),
    "huge_valid_steps": _set("steps", "1" + "0" * 30, str(2**63), str(2**64 + 1)),
    "zero_values": _set("latency_ms", "0", "0.0", "0e-5"),
}
#: Lines at most that get an oddity.
MAX_ODD_LINES = 3

#: Faults of the whole file, applied after (or instead of) the lines.
FILE_FAULTS = (
    "empty_file",
    "only_blank_lines",
    "truncated_last_line",
    "binary_header",
    "utf16",
    "gzip_truncated",
    "gzip_trailing_garbage",
    "flood",
)
#: Valid oddities of the whole file (not faults), put in good and hostile logs alike.
HARMLESS = ("blank_lines", "bom_at_start", "crlf", "compact", "no_final_newline", "odd_lines")
#: Lines at most a flood plants faults at (the report names the first problems and counts
#: the rest): enough to pass any cap on the problems named.
FLOOD_LINES = 3000


# --- writing a log ---------------------------------------------------------------------------


@dataclass(slots=True)
class Plan:
    """What is done to a log as it is written: line faults by line, file faults, oddities."""

    line_faults: dict[int, str]
    file_faults: list[str]
    harmless: list[str]
    odd_lines: dict[int, str] = field(default_factory=dict)

    def describe(self) -> str:
        """The faults and oddities, in a few words, for the harness's line."""
        names = sorted(set(self.line_faults.values()))
        shown = names[:4] + ([f"+{len(names) - 4}"] if len(names) > 4 else [])
        parts = [*self.file_faults, *shown]
        return ",".join(parts) if parts else "-"


def fault_plan(rng: random.Random, spec: LogSpec) -> Plan:
    """Which faults and oddities a log gets, drawn from its own random stream."""
    harmless = [name for name in HARMLESS if rng.random() < 0.15]
    odd_lines: dict[int, str] = {}
    if "odd_lines" in harmless:
        for _ in range(rng.randint(1, MAX_ODD_LINES)):
            odd_lines[rng.randrange(spec.runs)] = rng.choice(list(LINE_ODDITIES))
    if spec.kind is Kind.GOOD:
        return Plan({}, [], harmless, odd_lines)
    line_faults: dict[int, str] = {}
    file_faults: list[str] = []
    roll = rng.random()
    file_choices = [f for f in FILE_FAULTS if spec.gzip or not f.startswith("gzip")]
    if roll < 0.15:
        file_faults.append(rng.choice(file_choices))
    count = 1 if roll < 0.55 else rng.randint(2, 6)
    if "flood" in file_faults:
        count = min(spec.runs, rng.randint(FLOOD_LINES // 3, FLOOD_LINES))
    if file_faults and file_faults[0] in ("empty_file", "only_blank_lines", "binary_header"):
        count = 0
    names = list(LINE_FAULTS)
    for _ in range(count):
        line = rng.randrange(spec.runs)
        # A late line now and then: a large file is read in two parts.
        if rng.random() < 0.3:
            line = spec.runs - 1 - rng.randrange(min(spec.runs, 50))
        name = rng.choice(names)
        if name == "bom_mid_file" and line == 0 and spec.runs > 1:
            line = 1  # a mark at the very start is skipped, not a fault
        line_faults[line] = name
    return Plan(line_faults, file_faults, harmless, odd_lines)


def log_lines(spec: LogSpec, plan: Plan, rng: random.Random) -> Iterator[bytes]:
    """The lines of the log, each with its line ending."""
    ending = b"\r\n" if "crlf" in plan.harmless else b"\n"
    compact = "compact" in plan.harmless
    blanks = "blank_lines" in plan.harmless
    seen: list[str] = []
    if "only_blank_lines" in plan.file_faults:
        yield b"\n  \n\t\n\n"
        return
    if "empty_file" in plan.file_faults:
        return
    for number, record in enumerate(good_records(rng, spec.runs, spec.agents)):
        fault = plan.line_faults.get(number)
        odd = plan.odd_lines.get(number)
        if fault is not None:
            line = LINE_FAULTS[fault](rng, record, seen)
        elif odd == "long_agent_id":
            line = long_agent_id(spec.agents)(rng, record, seen)
        elif odd is not None:
            line = LINE_ODDITIES[odd](rng, record, seen)
        else:
            line = record.text(compact).encode()
        if len(seen) < 1000 or rng.random() < 0.01:
            run_id = record.get("run_id")
            if run_id is not None:
                seen.append(run_id)
        if blanks and rng.random() < 0.02:
            yield rng.choice((b"\n", b"   \n", b"\t\r\n"))
        yield line + ending


def write_log(spec: LogSpec, path: Path, plan: Plan | None = None) -> Plan:
    """Write the log of ``spec`` to ``path``; the plan it followed (drawn from the seed,
    unless one is given)."""
    rng = random.Random(spec.seed)
    drawn = fault_plan(rng, spec)
    plan = drawn if plan is None else plan
    with path.open("wb") as raw:
        if spec.gzip:
            # No name and no time in the header: the same bytes whatever the path and day.
            with gzip.GzipFile("", "wb", GZIP_LEVEL, raw, mtime=0) as out:
                _write_lines(spec, plan, rng, out)
        else:
            _write_lines(spec, plan, rng, raw)
    _file_faults(plan, path, rng)
    return plan


def _write_lines(spec: LogSpec, plan: Plan, rng: random.Random, out: BinaryIO) -> None:
    if "bom_at_start" in plan.harmless:
        out.write(b"\xef\xbb\xbf")
    if "binary_header" in plan.file_faults:
        out.write(rng.choice((b"PK\x03\x04", b"\x89PNG\r\n\x1a\n", b"BZh91AY", b"%PDF-1.7\n")))
        return
    utf16 = "utf16" in plan.file_faults
    truncate = "truncated_last_line" in plan.file_faults
    no_final = "no_final_newline" in plan.harmless or truncate
    previous: bytes | None = None
    batch: list[bytes] = []
    for line in log_lines(spec, plan, rng):
        if previous is not None:
            batch.append(previous)
            if len(batch) >= 4096:
                _flush(out, batch, utf16)
        previous = line
    if previous is not None:
        if no_final:
            previous = previous.rstrip(b"\r\n")
        if truncate:
            previous = previous[: rng.randrange(1, max(2, len(previous) - 1))]
        batch.append(previous)
    _flush(out, batch, utf16)


def _flush(out: BinaryIO, batch: list[bytes], utf16: bool) -> None:
    data = b"".join(batch)
    if utf16:
        data = data.decode("utf-8", "replace").encode("utf-16-le")
    out.write(data)
    batch.clear()


def _file_faults(plan: Plan, path: Path, rng: random.Random) -> None:
    if "gzip_truncated" in plan.file_faults:
        size = path.stat().st_size
        with path.open("r+b") as handle:
            handle.truncate(max(10, size - rng.randint(1, 64)))
    if "gzip_trailing_garbage" in plan.file_faults:
        with path.open("ab") as handle:
            handle.write(rng.choice((b"garbage", b"\x1f\x8b\x08\x00", b"\x00" * 16)))


def main(argv: list[str] | None = None) -> int:
    """Write one log, as the harness would, and say what went into it."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--runs", type=int, required=True)
    parser.add_argument("--agents", type=int, required=True)
    parser.add_argument("--kind", choices=[k.value for k in Kind], default=Kind.GOOD.value)
    parser.add_argument("--gzip", action="store_true")
    parser.add_argument("out", type=Path)
    args = parser.parse_args(argv)
    if not 1 <= args.agents <= min(args.runs, MAX_AGENTS) or args.runs > MAX_RUNS:
        parser.error(f"--agents must be 1..min(--runs, {MAX_AGENTS}), --runs at most {MAX_RUNS}")
    spec = LogSpec(args.seed, args.runs, args.agents, Kind(args.kind), args.gzip)
    plan = write_log(spec, args.out)
    print(f"{args.out}: {plan.describe()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
