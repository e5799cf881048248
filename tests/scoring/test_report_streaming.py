"""The streaming report's exact values, its fast validation and its chunks (hypothesis).

The exact values the library holds equal the reference's (``report_reference.py``) whatever
the chunk sizes; the fast validation accepts exactly what ``RunRecord`` accepts; problems and
duplicate run ids are the same whatever the chunks.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from datetime import UTC, datetime, timedelta
from typing import Any
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st
from pydantic import ValidationError
from report_reference import TERMINAL, reference_agents, to_lines

from scoring import (
    Axis,
    InputError,
    RunRecord,
    build_report,
)
from scoring.errors import MAX_LISTED_PROBLEMS, Problem, problems_from
from scoring.report import read as reading_module, stats as stats_module
from scoring.report.run_ids import RunIds

# --- the streaming report's exact values against the reference ---------------------------------

OFFSETS = [timedelta(0), timedelta(hours=2), timedelta(hours=-5, minutes=-30), timedelta(hours=14)]
BASE = datetime(2026, 5, 1, tzinfo=UTC)


def timestamp(instant: datetime, offset: timedelta, rng: random.Random) -> str:
    """``instant`` written in RFC 3339 with ``offset``, in one of its many spellings.

    Now and then with fraction digits beyond the microsecond (finer than a datetime holds:
    they still order runs), "t" or a space for "T", and "z" for "Z".
    """
    local = instant + offset
    text = local.strftime("%Y-%m-%d") + rng.choice("TTTt ") + local.strftime("%H:%M:%S")
    if instant.microsecond or rng.random() < 0.2:
        text += f".{instant.microsecond:06d}"
        if rng.random() < 0.3:
            text += rng.choice(["0", "1", "5", "000000001", "9"])
    if offset == timedelta(0):
        return text + rng.choice(["Z", "Z", "z", "+00:00"])
    sign = "+" if offset > timedelta(0) else "-"
    minutes = abs(int(offset.total_seconds())) // 60
    return f"{text}{sign}{minutes // 60:02d}:{minutes % 60:02d}"


def measurement(rng: random.Random, scale: float) -> float | int:
    kind = rng.randrange(6)
    if kind == 0:
        return rng.randrange(0, int(scale * 3) + 1)
    if kind == 1:
        return round(rng.uniform(0, scale * 3), rng.randrange(1, 7))
    if kind == 2:
        return rng.uniform(0, scale * 3)
    if kind == 3:
        return rng.uniform(0, 1e-6)
    if kind == 4:
        return rng.uniform(4e6, 1e9)
    return float(rng.choice([0, scale, scale / 3]))


@st.composite
def run_logs(draw: st.DrawFn) -> list[dict[str, Any]]:
    """A valid run log: few agents (one dominant) and tasks, many ties, mixed offsets."""
    rng = random.Random(draw(st.integers(0, 2**32)))
    size = draw(st.integers(0, 360))
    agents = [f"agent-{i}" for i in range(draw(st.integers(1, 4)))]
    tasks = [f"task-{i}" for i in range(draw(st.integers(1, 5)))]
    span = draw(st.integers(1, 500))  # distinct instants: small spans make many ties
    records = []
    for i in range(size):
        status = rng.choices(
            ["completed", "failed", "timeout", "queued", "running"], [60, 12, 8, 10, 10]
        )[0]
        terminal = status in TERMINAL
        # From 1.3.0 a completed run may leave latency or cost unrecorded: now and then.
        required = status == "completed" and rng.random() < 0.97
        instant = BASE + timedelta(minutes=rng.randrange(span), microseconds=rng.choice([0, 7]))
        records.append(
            {
                "run_id": f"r{i}",
                "agent_id": agents[0] if rng.random() < 0.6 else rng.choice(agents),
                "task_id": rng.choice(tasks),
                "status": status,
                "success": rng.choice([True, False, None]),
                "latency_ms": measurement(rng, 2000) if required or rng.random() < 0.5 else None,
                "cost_usd": measurement(rng, 0.05) if required or rng.random() < 0.5 else None,
                "steps": rng.choice([None, rng.randrange(0, 20)]),
                "finished_at": timestamp(instant, rng.choice(OFFSETS), rng)
                if terminal or rng.random() < 0.2
                else None,
            }
        )
        if rng.random() < 0.1:  # leave optional fields out altogether
            for key in ("success", "steps"):
                records[-1].pop(key)
    return records


def streamed(records: list[dict[str, Any]], weights=None) -> list[dict[str, Any]]:
    lines = to_lines(records)
    report = build_report(iter(lines), weights)
    return [
        {
            "agent_id": a.agent_id,
            "composite": a.composite,
            "axes": a.radar.axes,
            "profile": a.radar.profile,
            "window_runs": a.radar.window_runs,
            "median_latency_ms": a.radar.median_latency_ms,
            "pass_hat": a.repeatability.pass_hat,
            "tasks": a.repeatability.tasks,
            "by_level": a.repeatability.tasks_by_level,
        }
        for a in report.agents
    ]


# The streaming report reads its input in chunks and trims its window candidates now and
# then; small chunk and trim sizes make every boundary happen on small logs.
internals = st.fixed_dictionaries(
    {
        "CHUNK_LINES": st.sampled_from([1, 2, 7, 64, 4096]),
        "_WINDOW_TRIM": st.sampled_from([101, 137, 400]),
    }
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(run_logs(), internals, st.sampled_from([None, {Axis.CORRECTNESS: 2, Axis.COST: 1}]))
def test_streaming_report_equals_the_in_memory_reference(records, sizes, weights) -> None:
    expected = [
        {k: v for k, v in a.items() if k != "runs"} for a in reference_agents(records, weights)
    ]
    trim = sizes.pop("_WINDOW_TRIM")
    with (
        mock.patch.multiple(reading_module, **sizes),
        mock.patch.object(stats_module, "_WINDOW_TRIM", trim),
    ):
        assert streamed(records, weights) == expected


# --- the report's fast validation is RunRecord's validation ---------------------------------

json_values = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["", "a", "completed", "failed", "queued", "true", "1700000000"]),
    st.sampled_from(["2026-01-01T00:00:00Z", "2026-01-01T00:00:00", "2026-01-01T02:00:00+02:00"]),
    st.lists(st.integers(), max_size=2),
)
run_fields = {
    "run_id": st.one_of(st.text(max_size=3), json_values),
    "agent_id": st.one_of(st.text(max_size=3), json_values),
    "task_id": st.one_of(st.text(max_size=3), json_values),
    "status": st.one_of(
        st.sampled_from(["queued", "running", "completed", "failed", "timeout"]), json_values
    ),
    "success": json_values,
    "latency_ms": json_values,
    "cost_usd": json_values,
    "steps": json_values,
    "finished_at": json_values,
}


@settings(max_examples=300, deadline=None)
@given(st.fixed_dictionaries(run_fields), st.sets(st.sampled_from(sorted(run_fields)), max_size=2))
def test_fast_validation_accepts_exactly_what_run_record_accepts(record, left_out) -> None:
    for key in left_out:
        record.pop(key)
    line = json.dumps(record).encode()
    try:
        expected = reading_module.row_of(RunRecord.model_validate_json(line))
    except ValidationError:
        expected = None
    rows = reading_module.chunk_rows([line])
    if rows is None:
        # Refused: the reader reads the chunk again line by line, by the model itself
        # (reading.rows_one_by_one). Every key written, a valid line is never refused; one
        # that leaves an optional key out always is (msgspec's row has no defaults).
        assert expected is None or left_out
        return
    got = rows[0] if reading_module.status_rules_hold(rows) else None
    assert got == expected


def test_a_valid_line_that_leaves_a_key_out_is_refused_by_the_fast_path_only() -> None:
    """The example hypothesis found: the fast path refuses it, the model accepts it, and so
    does the report, which reads the chunk again line by line."""
    line = json.dumps(
        {"run_id": "0", "agent_id": "0", "task_id": "0", "status": "queued", "success": None}
    ).encode()
    assert reading_module.chunk_rows([line]) is None
    assert RunRecord.model_validate_json(line).run_id == "0"
    assert [stats.agent_id for stats in reading_module.read_stats([line])] == ["0"]


timestamps = st.builds(
    "{:04d}-{:02d}-{:02d}{}{:02d}:{:02d}:{:02d}{}{}".format,
    st.one_of(st.integers(0, 9999), st.sampled_from([0, 4, 100, 400, 1900, 2000, 2024, 2100])),
    st.integers(0, 13),
    st.integers(0, 32),
    st.sampled_from(["T", "t", " ", "_", "x"]),
    st.integers(0, 24),
    st.integers(0, 60),
    st.integers(0, 60),
    st.sampled_from(["", ".5", ".123456", ".1234567", ".000000001", "."]),
    st.sampled_from(["Z", "z", "+00:00", "-05:30", "+23:59", "+24:00", "", "+0200"]),
)


@settings(max_examples=400, deadline=None)
@given(timestamps)
def test_the_fast_timestamp_pattern_accepts_what_the_model_accepts(stamp: str) -> None:
    # The report's fast path reads finished_at with report.CALENDAR_PATTERN alone.
    record = {"run_id": "r", "agent_id": "a", "task_id": "t", "status": "queued"}
    try:
        RunRecord.model_validate_json(json.dumps(record | {"finished_at": stamp}))
        accepted = True
    except ValidationError:
        accepted = False
    assert bool(re.match(reading_module.CALENDAR_PATTERN, stamp)) == accepted


# --- problems: the same, in line order, whatever the chunks ---------------------------------


def reference_problems(lines: list[bytes]) -> tuple[list[Problem], int]:
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            run = RunRecord.model_validate_json(line)
        except ValidationError as error:
            problems.extend(problems_from(error, number))
            continue
        if run.run_id in seen:
            first = seen[run.run_id]
            rule = f"duplicate run_id {run.run_id!r}, first on line {first} [unique]"
            problems.append(Problem(number, "run_id", rule))
        seen.setdefault(run.run_id, number)
    return problems[:MAX_LISTED_PROBLEMS], len(problems)


BAD_LINES = [
    b"{",
    b"\n",
    b"   \n",
    b'{"run_id": 5}\n',
    b"[]\n",
    b"\xff\n",
    b'{"run_id": "r1", "agent_id": "a", "task_id": "t", "status": "completed"}\n',
]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    run_logs(),
    st.lists(st.tuples(st.integers(0, 400), st.sampled_from(BAD_LINES)), max_size=30),
    st.sampled_from([1, 3, 64, 4096]),
)
def test_problems_are_the_same_whatever_the_chunks(records, bad, chunk) -> None:
    lines = to_lines(records)
    for position, line in bad:
        lines.insert(min(position, len(lines)), line)
    if records and bad:
        lines.append(json.dumps(records[0]).encode() + b"\n")  # a duplicate, last
    expected, total = reference_problems(lines)
    with mock.patch.object(reading_module, "CHUNK_LINES", chunk):
        if total == 0:
            build_report(iter(lines))
            return
        with pytest.raises(InputError) as caught:
            build_report(iter(lines))
    assert caught.value.problems == expected
    assert caught.value.total == total


@pytest.mark.parametrize("chunk", [7, 4096])
def test_duplicates_across_chunks_and_table_growth(chunk: int) -> None:
    # 5,000 distinct ids grow the hash table several times; duplicates sit at chunk edges.
    records = [
        {
            "run_id": f"id-{i}",
            "agent_id": "a",
            "task_id": "t",
            "status": "queued",
        }
        for i in range(5000)
    ]
    lines = [json.dumps(r).encode() for r in records]
    lines.insert(1500, json.dumps(records[0]).encode())  # line 1501 repeats line 1
    lines.append(json.dumps(records[4999]).encode())  # line 5002 repeats line 5001
    with (
        mock.patch.object(reading_module, "CHUNK_LINES", chunk),
        pytest.raises(InputError) as caught,
    ):
        build_report(lines)
    assert [str(p) for p in caught.value.problems] == [
        "line 1501: run_id: duplicate run_id 'id-0', first on line 1 [unique]",
        "line 5002: run_id: duplicate run_id 'id-4999', first on line 5001 [unique]",
    ]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from([f"id-{i}" for i in range(12)]), max_size=60),
    st.lists(st.integers(1, 9), min_size=1, max_size=12),
)
def test_seen_ids_report_every_repeat_where_it_is(keys: list[str], cuts: list[int]) -> None:
    # Feed the keys in batches of the drawn sizes; a repeat is every occurrence after the
    # first, reported at its own place in its batch.
    seen, start, found = RunIds(), 0, []
    sizes = itertools.cycle(cuts)
    while start < len(keys):
        batch = keys[start : start + next(sizes)]
        found += [(start + p, line) for p, line in seen.add_all(batch, start + 1)]
        start += len(batch)
    assert found == [(i, keys.index(key) + 1) for i, key in enumerate(keys) if key in keys[:i]]
