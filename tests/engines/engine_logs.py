"""Logs for the engine tests: clean ones that vary what the SQL computes (sums that are
and are not fixed-point, medians, windows full of timestamp ties, offsets, digits beyond
the microsecond), and hostile ones, each breaking one rule the way the issue lists them.

Every log is bytes, written to a file by :func:`write`; the expected output is always
``--engine python``'s on the same file, never a hard-coded result.
"""

from __future__ import annotations

import gzip
import io
import json
import random
import re
from collections.abc import Callable, Iterable
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

from scoring.cli import run
from scoring.constants import RADAR_WINDOW_RUNS

CliResult = tuple[int, str, str]

_OFFSETS = ("Z", "+00:00", "+02:00", "-05:30", "z", "+14:00")
_OFFSET_MINUTES = {"Z": 0, "+00:00": 0, "+02:00": 120, "-05:30": -330, "+14:00": 840}
_START = datetime(2026, 6, 1, tzinfo=UTC)
_STATUSES = ("completed", "completed", "completed", "failed", "timeout", "queued", "running")


def cli(argv: list[str]) -> CliResult:
    """``scoring`` in-process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = run(argv, stdin=io.BytesIO(), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def _stamp(rng: random.Random, second: int) -> str:
    """An RFC 3339 text of a second after 2026-06-01, in varied offsets and fractions: many
    runs share a second, some share the microsecond and differ beyond it."""
    offset = rng.choice(_OFFSETS)
    minutes = _OFFSET_MINUTES[offset.upper()]
    local = (_START + timedelta(seconds=second)).astimezone(timezone(timedelta(minutes=minutes)))
    fraction = rng.choice(["", "", ".5", ".123456", ".1234567", ".12345670", ".123456789"])
    separator = rng.choice("Tt ")
    return local.strftime(f"%Y-%m-%d{separator}%H:%M:%S") + fraction + offset


def _number(rng: random.Random, scale: float) -> float | int:
    """A value in one of the forms the sums must carry exactly: integers, decimals of a
    few digits, 17-digit doubles, tiny and large values."""
    form = rng.randrange(6)
    if form == 0:
        return rng.randrange(0, 5000)
    if form == 1:
        return round(rng.uniform(0, scale), 3)
    if form == 2:
        return rng.uniform(0, scale)  # 17 significant digits: not fixed-point
    if form == 3:
        return rng.choice([1e-7, 1e-10, 0.1, 0.2, 0.3, 5e-324, 0.0, -0.0])
    if form == 4:
        return rng.choice([9007199.254740993, 1e15, 123456789012.5, 1e22])
    return round(rng.uniform(0, scale), 9)


def clean_log(seed: int, runs: int, agents: int, ties: bool = False, escaped: bool = True) -> bytes:
    """A valid log: varied statuses, values, offsets and fractions; with ``ties``, every run
    of an agent finishes within a few seconds (the window is decided by the sub-µs digits
    and the input order). ``escaped``: every character beyond ASCII written as a ``\\u``
    escape (json.dumps's default), else as itself (no backslash in the log: the logs
    DuckDB proves clean by itself, see scoring.engines.proof)."""
    rng = random.Random(seed)
    lines = []
    for i in range(runs):
        status = rng.choice(_STATUSES)
        terminal = status in ("completed", "failed", "timeout")
        record: dict[str, Any] = {
            "run_id": f"run-{i}",
            "agent_id": f"agent-{rng.randrange(agents)}",
            "task_id": rng.choice(["t-1", "t-2", "t-3", "T-0", "é-task", "t-10"]),
            "status": status,
        }
        if rng.random() < 0.9:
            record["success"] = rng.choice([True, False, None]) if terminal else None
        # From 1.3.0 a completed run may leave latency or cost unrecorded (null or absent).
        if status == "completed" or rng.random() < 0.4:
            if status != "completed" or rng.random() < 0.97:
                record["latency_ms"] = _number(rng, 20000)
            if status != "completed" or rng.random() < 0.95:
                record["cost_usd"] = _number(rng, 0.2)
        if rng.random() < 0.7:
            record["steps"] = rng.choice([None, 0, 3, 7, 12, 10**6])
        if terminal:
            second = rng.randrange(3) if ties else rng.randrange(0, 5 * 86400)
            record["finished_at"] = _stamp(rng, second)
        lines.append(json.dumps(record, ensure_ascii=escaped))
    return ("\n".join(lines) + "\n").encode()


def _line(**fields: Any) -> str:
    record = {
        "run_id": "bad",
        "agent_id": "agent-0",
        "task_id": "t-1",
        "status": "completed",
        "success": True,
        "latency_ms": 100,
        "cost_usd": 0.01,
        "steps": 3,
        "finished_at": "2026-06-01T00:00:00Z",
    } | fields
    return json.dumps({k: v for k, v in record.items() if v is not _LEFT_OUT})


_LEFT_OUT = object()
_REPEATED_KEY = (
    '{"run_id": "bad", "run_id": "bad2", "agent_id": "a", "task_id": "t", "status": "queued"}'
)
_TWO_OBJECTS = _line() + " " + _line(run_id="bad-2")

#: One bad line each, by what it breaks (inserted among clean lines).
HOSTILE_LINES: dict[str, str] = {
    "repeated key": _REPEATED_KEY,
    "1e400": _line().replace('"latency_ms": 100', '"latency_ms": 1e400'),
    "NaN": _line().replace('"cost_usd": 0.01', '"cost_usd": NaN'),
    "true as a string": _line(success="true"),
    "100 as a string": _line(latency_ms="100"),
    "3.5 steps": _line(steps=3.5),
    "unknown field": _line(note="x"),
    "unknown status": _line(status="done"),
    "negative latency": _line(latency_ms=-1),
    "negative steps": _line(steps=-2),
    "duplicate run_id": _line(run_id="run-0"),
    "missing run_id": _line(run_id=_LEFT_OUT),
    "empty agent_id": _line(agent_id=""),
    "failed without finished_at": _line(status="failed", finished_at=None),
    "timestamp without offset": _line(finished_at="2026-06-01T00:00:00"),
    "30 February": _line(finished_at="2026-02-30T00:00:00Z"),
    "two objects on a line": _TWO_OBJECTS,
    "not JSON": "{not json",
    "an array": "[1, 2]",
    "lone surrogate": _line(agent_id="\ud800"),
    # What DuckDB's JSON reader lets through or coerces, which json_runs.sql must refuse.
    "trailing comma": _line()[:-1] + ", }",
    "unknown field set to null": _line(note=None),
    "a number as agent_id": _line(agent_id=5),
    "1 as success": _line(success=1),
    "true as latency": _line(latency_ms=True),
    "3.0 steps": _line(steps=3.0),
    "1e2 steps": _line().replace('"steps": 3', '"steps": 1e2'),
    "a list as task_id": _line(task_id=["t-1"]),
    "an object as cost": _line(cost_usd={"usd": 1}),
    "-Infinity": _line().replace('"cost_usd": 0.01', '"cost_usd": -Infinity'),
    "null": "null",
    "an empty object": "{}",
    "a string": '"run"',
    "an object on two lines": _line().replace(', "task_id"', ',\n"task_id"'),
}


def hostile_log(name: str, seed: int = 7, escaped: bool = True) -> bytes:
    """A clean log (``escaped`` as :func:`clean_log`'s) with the line
    ``HOSTILE_LINES[name]`` in its middle."""
    lines = clean_log(seed, 40, 3, escaped=escaped).decode().splitlines()
    lines.insert(len(lines) // 2, HOSTILE_LINES[name])
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")


#: Valid logs that an engine's JSON reader might read otherwise: each must still print
#: what the Python reader prints (by the engine, or by the Python reader it hands it to).
ODD_CLEAN_LOGS: dict[str, Callable[[], bytes]] = {
    "byte-order mark": lambda: b"\xef\xbb\xbf" + clean_log(3, 30, 2),
    "CRLF line ends": lambda: clean_log(4, 30, 2).replace(b"\n", b"\r\n"),
    "blank lines": lambda: clean_log(5, 30, 2).replace(b"\n", b"\n\n", 3),
    "no final newline": lambda: clean_log(6, 30, 2).rstrip(b"\n"),
    "escaped strings": lambda: clean_log(8, 30, 2).replace(b'"t-1"', b'"t-\\u00e9\\"1"'),
    "surrogate pair": lambda: clean_log(9, 30, 2).replace(b'"t-2"', b'"\\ud83d\\ude00"'),
    "keys left out": lambda: (
        b'{"run_id": "x", "agent_id": "a", "task_id": "t", "status": "queued"}\n'
        + clean_log(10, 30, 2)
    ),
    "only queued runs": lambda: (
        b'{"run_id": "x", "agent_id": "a", "task_id": "t", "status": "queued"}\n'
    ),
    "steps beyond 64 bits": lambda: clean_log(11, 30, 2).replace(
        b'"steps": 7', b'"steps": 10000000000000000000000000000000'
    ),
    "commas in strings": lambda: clean_log(12, 30, 2, escaped=False).replace(b'"t-1"', b'"t,1,"'),
    "spaces before colons": lambda: clean_log(13, 30, 2, escaped=False).replace(b'": ', b'" : '),
    "keys in another order": lambda: b"".join(
        json.dumps(dict(reversed(json.loads(line).items())), ensure_ascii=False).encode() + b"\n"
        for line in clean_log(14, 30, 2).splitlines()
    ),
    "a blank line, unescaped": lambda: clean_log(15, 30, 2, escaped=False).replace(
        b"\n", b"\n\n", 1
    ),
    "a CRLF line end, unescaped": lambda: clean_log(16, 30, 2, escaped=False).replace(
        b"\n", b"\r\n", 1
    ),
    "empty": lambda: b"",
    "only blank lines": lambda: b"\n  \n\n",
}

#: Odd logs whose oddity is the whole file's (no runs, no terminal run): never joined.
WHOLE_FILE_ODDITIES = frozenset({"empty", "only blank lines", "only queued runs"})
_BYTE_ORDER_MARK = b"\xef\xbb\xbf"
_RUN_ID_VALUE = re.compile(rb'("run_id"\s*:\s*")')


def odd_logs_together(names: Iterable[str]) -> dict[str, tuple[bytes, tuple[bytes, ...]]]:
    """The odd logs ``names`` joined into as few logs as keep each one's bytes as they are:
    one of the logs with a backslash ("escaped"), one of those without ("unescaped"; a log
    without one is proven clean by DuckDB alone, see scoring.engines.proof, so the two kinds
    stay apart). Each joined log with its parts, as they stand in it: every part's run ids
    its own (``part3-run-0``), a byte-order mark at the start of the file, the part without
    a final newline last. Raises ``ValueError`` where that cannot be (two parts with a
    byte-order mark or without a final newline, a whole-file oddity, a part with no runs)."""
    groups: dict[str, list[bytes]] = {}
    for number, name in enumerate(names):
        if name in WHOLE_FILE_ODDITIES:
            raise ValueError(f"{name!r} is an oddity of a whole file: it is scored alone")
        data = ODD_CLEAN_LOGS[name]()
        part = _RUN_ID_VALUE.sub(rb"\g<1>part" + str(number).encode() + b"-", data)
        if part == data:
            raise ValueError(f"{name!r} has no run id to make its own")
        groups.setdefault("escaped" if b"\\" in data else "unescaped", []).append(part)
    joined: dict[str, tuple[bytes, tuple[bytes, ...]]] = {}
    for kind, parts in groups.items():
        marked = [part for part in parts if part.startswith(_BYTE_ORDER_MARK)]
        unended = [part for part in parts if not part.endswith(b"\n")]
        if len(marked) > 1 or len(unended) > 1:
            raise ValueError(f"the {kind} parts have two starts or two ends of a file")
        middle = [part for part in parts if part not in marked and part not in unended]
        ordered = [part.removeprefix(_BYTE_ORDER_MARK) for part in marked] + middle + unended
        head = _BYTE_ORDER_MARK if marked else b""
        joined[kind] = (head + b"".join(ordered), tuple(ordered))
    return joined


#: The window is one of these many runs (a log of ties needs more runs than it).
TIES_RUNS = 3 * RADAR_WINDOW_RUNS


def write(path: Path, data: bytes, compress: bool = False) -> Path:
    """``data`` written to ``path`` (gzip-compressed with ``compress``)."""
    path.write_bytes(gzip.compress(data, mtime=0) if compress else data)
    return path


_TYPED = (
    "{run_id: 'VARCHAR', agent_id: 'VARCHAR', task_id: 'VARCHAR', status: 'VARCHAR', "
    "success: 'BOOLEAN', latency_ms: 'DOUBLE', cost_usd: 'DOUBLE', steps: 'BIGINT', "
    "finished_at: 'VARCHAR'}"
)


def parquet_copy(
    source: Path, target: Path, select: str = "*", auto: bool = False, order: str = ""
) -> Path:
    """A Parquet copy of the JSON Lines log ``source``, written by DuckDB: its columns typed
    as the table contract's (or, with ``auto``, as DuckDB guesses them: whole numbers,
    timestamps, all-null JSON), ``select`` of them, ``order`` (an ``ORDER BY`` or ``LIMIT``)."""
    import duckdb

    columns = "" if auto else f", columns = {_TYPED}"
    with duckdb.connect() as con:
        con.execute(
            f"COPY (SELECT {select} FROM read_json('{source}', format = 'newline_delimited'"
            f"{columns}) {order}) TO '{target}' (FORMAT parquet)"
        )
    return target
