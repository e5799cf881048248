"""What an operator reads when a log is bad: each message fed through ``scoring.cli.run``
and read whole (the exit status, the line or lines, the field, what is wrong)."""

from __future__ import annotations

import fcntl
import gzip
import io
import json
import os
import re
import struct
import termios
from collections.abc import Iterable
from pathlib import Path
from typing import Any, TextIO
from unittest import mock

import pytest
from hypothesis import given, settings, strategies as st

from contracts.source import REPO_ROOT
from scoring.cli import EXIT_BAD_INPUT, FALLBACK_COLUMNS, run, table_width
from scoring.comparisons.compare import COMPARE_TITLE, LEVEL_TEXT
from scoring.constants import INTERVAL_LEVEL, RADAR_DEFAULT_WEIGHTS
from scoring.models import RFC3339_PATTERN, TIMESTAMP_SHAPE, timestamp_problem
from scoring.report import read as reading_module, run_ids
from scoring.report.write import COMPOSITE_TITLE, RADAR_TITLE, REPEATABILITY_TITLE

_RUN: dict[str, Any] = {
    "run_id": "r1",
    "agent_id": "a",
    "task_id": "t",
    "status": "completed",
    "success": True,
    "latency_ms": 900,
    "cost_usd": 0.01,
    "steps": 4,
    "finished_at": "2026-07-01T09:00:00Z",
}


def run_line(**fields: Any) -> bytes:
    return json.dumps(_RUN | fields).encode() + b"\n"


class _Pipe(io.BytesIO):
    """Bytes that cannot be read twice, as from a pipe."""

    def seekable(self) -> bool:
        return False

    def seek(self, offset: int, whence: int = 0) -> int:
        raise io.UnsupportedOperation("seek")


def cli_stderr(argv: list[str], stdin: io.BytesIO | None = None) -> tuple[int, list[str]]:
    """The exit status and the lines of stderr of ``scoring ARGV`` run in this process."""
    out, err = io.StringIO(), io.StringIO()
    code = run(argv, stdin=stdin or io.BytesIO(), stdout=out, stderr=err)
    assert out.getvalue() == "" or code == 0
    return code, err.getvalue().splitlines()


def fed(command: str, data: bytes, way: str, tmp_path: Path) -> tuple[int, list[str]]:
    """``scoring COMMAND`` given ``data`` as a file, a file on stdin, a pipe, or gzipped in
    a file or a pipe; the source named in the heading is checked and dropped."""
    if way in ("file", "gzip file"):
        path = tmp_path / "log.jsonl"
        path.write_bytes(gzip.compress(data) if way == "gzip file" else data)
        code, lines = cli_stderr([command, str(path)])
        assert lines[0] == f"scoring {command}: cannot score {path}:"
        return code, lines[1:]
    source = {
        "stdin": io.BytesIO(data),
        "pipe": _Pipe(data),
        "gzip pipe": _Pipe(gzip.compress(data)),
    }[way]
    code, lines = cli_stderr([command, "-"], source)
    assert lines[0] == f"scoring {command}: cannot score stdin:"
    return code, lines[1:]


WAYS = ["file", "stdin", "pipe", "gzip file", "gzip pipe"]

# --- a repeated run_id names both lines ------------------------------------------------------


def _repeats(other: bytes) -> bytes:
    """r1 on line 2 and again on line 5 (a blank line 3 counts); ``other`` on lines 1 and 4."""
    return other + run_line(run_id="r1") + b"\n" + other + run_line(run_id="r1", task_id="u")


@pytest.mark.parametrize("way", WAYS)
@pytest.mark.parametrize(
    "path",
    [
        # Every key written: the chunk is read in C (the blank line sends it line by line,
        # so the chunk is cut to one line at a time to keep the fast path).
        "fast",
        # A line that leaves an optional key out is read by the model, line by line.
        "line by line",
    ],
)
def test_a_repeated_run_id_names_the_line_it_was_first_seen_on(
    path: str, way: str, tmp_path: Path
) -> None:
    if path == "fast":
        other = run_line(run_id="r0")
        chunk = 1
    else:
        other = json.dumps({k: v for k, v in _RUN.items() if k != "steps"} | {"run_id": "r0"})
        other = other.encode() + b"\n"
        chunk = 4096
    data = _repeats(other)
    with mock.patch.object(reading_module, "CHUNK_LINES", chunk):
        code, lines = fed("report", data, way, tmp_path)
    assert code == EXIT_BAD_INPUT
    assert lines == [
        "line 4: run_id: duplicate run_id 'r0', first on line 1 [unique]",
        "line 5: run_id: duplicate run_id 'r1', first on line 2 [unique]",
    ]


@pytest.mark.parametrize("way", WAYS)
def test_the_outcome_reader_words_a_repeat_the_same_way(way: str, tmp_path: Path) -> None:
    data = b'{"run_id": "o0"}\n{"run_id": "o1"}\n\n{"run_id": "o1"}\n'
    code, lines = fed("outcome", data, way, tmp_path)
    assert code == EXIT_BAD_INPUT
    assert lines == ["line 4: run_id: duplicate run_id 'o1', first on line 2 [unique]"]


def _colliding(keys: Iterable[str]) -> list[int]:
    """Every id but ``x`` shares one fingerprint: a collision, as two different ids could."""
    return [2 if key == "x" else 8 for key in keys]


@pytest.mark.parametrize("way", ["file", "stdin", "gzip file"])
@pytest.mark.parametrize("command", ["report", "outcome"])
def test_a_collision_is_named_as_one_where_the_input_can_be_read_again(
    command: str, way: str, tmp_path: Path
) -> None:
    # Lines 2 and 4 hold b, line 1 a: b shares a's fingerprint, and only the second b
    # repeats an id. Read again, line 1 is seen to hold another id: never named as b's.
    ids = ["a", "b", "x", "b"]
    if command == "report":
        data = b"".join(run_line(run_id=i) for i in ids)
    else:
        data = b"".join(json.dumps({"run_id": i}).encode() + b"\n" for i in ids)
    with mock.patch.object(run_ids, "fingerprints", _colliding):
        code, lines = fed(command, data, way, tmp_path)
    assert code == EXIT_BAD_INPUT
    assert lines == [
        "line 2: run_id: run_id 'b' shares its fingerprint with run_id 'a' of line 1 (two "
        "ids, one fingerprint): give one of them another run_id [fingerprint]",
        "line 4: run_id: duplicate run_id 'b', first on line 2 [unique]",
    ]


@pytest.mark.parametrize("command", ["report", "outcome"])
def test_from_a_pipe_a_collision_names_the_line_of_its_fingerprint(
    command: str, tmp_path: Path
) -> None:
    """What docs/inputs.md says: a pipe cannot be read twice, so the first line named is
    the first of the fingerprint (the odds of a collision are quoted there)."""
    if command == "report":
        data = run_line(run_id="a") + run_line(run_id="b")
    else:
        data = b'{"run_id": "a"}\n{"run_id": "b"}\n'
    with mock.patch.object(run_ids, "fingerprints", _colliding):
        code, lines = fed(command, data, "pipe", tmp_path)
    assert code == EXIT_BAD_INPUT
    assert lines == ["line 2: run_id: duplicate run_id 'b', first on line 1 [unique]"]


# --- a timestamp names the part that is wrong -------------------------------------------------

STAMPS = {
    "2026-07-01T25:00:00Z": "hour must be 00–23, not 25",
    "2026-13-01T09:00:00Z": "month must be 01–12, not 13",
    "2026-07-32T09:00:00Z": "day must be 01–31, not 32",
    "2026-07-01T09:61:00Z": "minute must be 00–59, not 61",
    "2026-07-01T09:00:60Z": "second must be 00–59, not 60",
    "2026-07-01T09:00:00": "has no UTC offset: add Z or ±hh:mm",
    "2026-07-01T09:00:00+24:00": "offset hour must be 00–23, not 24",
    "2026-07-01T09:00:00+0100": "offset must be Z or ±hh:mm, not '+0100'",
    "2026-07-01T0\u0663:00:00Z": "digits must be ASCII 0–9, not '\u0663' (character 13)",
    "2026-02-30T09:00:00Z": "2026-02-30 does not exist: month 02 of 2026 has 28 days",
    "2026-04-31T09:00:00+02:00": "2026-04-31 does not exist: month 04 of 2026 has 30 days",
    "0000-01-01T09:00:00Z": "year must be 0001–9999, not 0000",
    "1 July 2026": "must be an RFC 3339 timestamp with an offset, e.g. 2026-07-01T12:00:00Z",
}


def _kind(rule: str) -> str:
    return "datetime_invalid" if "exist" in rule or rule.startswith("year") else "rfc3339"


@pytest.mark.parametrize("path", ["fast", "line by line"])
@pytest.mark.parametrize(("stamp", "rule"), STAMPS.items(), ids=list(STAMPS))
def test_a_bad_timestamp_names_the_part_that_is_wrong(stamp: str, rule: str, path: str) -> None:
    """The same message whichever path reads the line: the fast path refuses it with its
    calendar pattern and the model reads it again."""
    bad = _RUN | {"run_id": "r2", "finished_at": stamp}
    if path == "line by line":
        del bad["steps"]  # a key left out: the chunk is read by the model from the start
    data = run_line() + json.dumps(bad, ensure_ascii=False).encode() + b"\n"
    code, lines = cli_stderr(["report", "-"], io.BytesIO(data))
    assert code == EXIT_BAD_INPUT
    shown = json.dumps(stamp, ensure_ascii=False).replace('"', "'")
    assert lines == [
        "scoring report: cannot score stdin:",
        f"line 2: finished_at: {rule} (got {shown}) [{_kind(rule)}]",
    ]


_TWO = st.integers(0, 99).map("{:02d}".format)


@st.composite
def loose_stamps(draw: st.DrawFn) -> str:
    """Stamps of RFC 3339's shape with any two digits in each part, and offsets of every
    kind: the ones the pattern refuses are refused for a part out of range."""
    year = draw(st.integers(0, 9999).map("{:04d}".format))
    month, day, hour, minute, second = (draw(_TWO) for _ in range(5))
    fraction = draw(st.sampled_from(["", ".5", ".000001"]))
    offset = draw(
        st.one_of(
            st.sampled_from(["Z", "z", "", "+0100", "UTC", "+01"]),
            st.tuples(st.sampled_from("+-"), _TWO, _TWO).map(lambda t: f"{t[0]}{t[1]}:{t[2]}"),
        )
    )
    separator = draw(st.sampled_from("Tt "))
    return f"{year}-{month}-{day}{separator}{hour}:{minute}:{second}{fraction}{offset}"


@settings(max_examples=300, deadline=None)
@given(loose_stamps())
def test_the_pattern_refuses_a_stamp_exactly_when_a_part_is_named(stamp: str) -> None:
    refused = re.match(RFC3339_PATTERN, stamp) is None
    assert (timestamp_problem(stamp) != TIMESTAMP_SHAPE) == refused, timestamp_problem(stamp)


# --- the tables follow the terminal's width ---------------------------------------------------

CORPUS = REPO_ROOT / "contracts" / "corpus" / "synthetic-runs.jsonl"


def printed(argv: list[str], out: TextIO | None = None) -> str:
    stream = io.StringIO() if out is None else out
    err = io.StringIO()
    assert run(argv, stdin=io.BytesIO(), stdout=stream, stderr=err) == 0, err.getvalue()
    return stream.getvalue() if out is None else ""


def test_the_width_is_columns_else_the_terminal_s_else_80(monkeypatch: pytest.MonkeyPatch) -> None:
    assert table_width(io.StringIO()) == FALLBACK_COLUMNS == 80
    monkeypatch.setenv("COLUMNS", "132")
    assert table_width(io.StringIO()) == 132
    for unusable in ("0", "-5", "wide", "\u0661\u0662"):
        monkeypatch.setenv("COLUMNS", unusable)
        assert table_width(io.StringIO()) == FALLBACK_COLUMNS
    monkeypatch.delenv("COLUMNS")
    leader, follower = os.openpty()
    try:
        fcntl.ioctl(leader, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 57, 0, 0))
        with open(follower, "w", encoding="utf-8", closefd=False) as terminal:
            assert table_width(terminal) == 57
            monkeypatch.setenv("COLUMNS", "132")
            assert table_width(terminal) == 132  # COLUMNS first, as shutil reads it
    finally:
        os.close(leader)
        os.close(follower)


def _blocks(text: str, title: str, rows: int) -> list[list[str]]:
    """The blocks of the table under ``title``: each its header, its rule and ``rows``
    rows; blocks are one blank line apart."""
    lines = text.splitlines()
    at = lines.index(title) + 1
    while not lines[at].startswith("agent"):
        at += 1  # the weights, under the radar's title
    blocks = []
    while at < len(lines) and lines[at].startswith("agent"):
        blocks.append(lines[at : at + 2 + rows])
        at += 2 + rows
        if at + 1 < len(lines) and lines[at] == "" and lines[at + 1].startswith("agent"):
            at += 1
    return blocks


@pytest.mark.parametrize("width", [80, 60, 132])
def test_a_table_wider_than_the_terminal_is_cut_into_blocks_led_by_the_agent(
    width: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    agents = len(json.loads(printed(["report", str(CORPUS), "--format", "json"]))["agents"])
    monkeypatch.setenv("COLUMNS", "1000")
    wide = printed(["report", str(CORPUS)])
    monkeypatch.setenv("COLUMNS", str(width))
    narrow = printed(["report", str(CORPUS)])
    for title in (COMPOSITE_TITLE, RADAR_TITLE, REPEATABILITY_TITLE):
        [whole] = _blocks(wide, title, agents)
        blocks = _blocks(narrow, title, agents)
        assert len(blocks) > 1 or len(max(whole, key=len)) <= width
        for block in blocks:
            assert all(len(line) <= width for line in block), (title, block)
            assert block[0].split()[0] == "agent"
            assert [row.split()[0] for row in block[2:]] == [row.split()[0] for row in whole[2:]]
        # The blocks' headers, each without its agent column, are the wide table's in order.
        assert _heads(whole[0]) == ["agent", *(h for block in blocks for h in _heads(block[0])[1:])]
    assert all(len(line) <= width for line in narrow.splitlines() if "weights" in line)
    if width >= len(max(wide.splitlines(), key=len)):
        assert narrow == wide


def _heads(header: str) -> list[str]:
    """A header line's column names (a name holds single spaces, columns are two apart)."""
    return [name.strip() for name in re.split(r"\s{2,}", header.strip())]


def test_the_json_does_not_follow_the_width(monkeypatch: pytest.MonkeyPatch) -> None:
    wide = printed(["report", str(CORPUS), "--format", "json"])
    monkeypatch.setenv("COLUMNS", "40")
    assert printed(["report", str(CORPUS), "--format", "json"]) == wide


def test_the_outcome_table_is_cut_into_blocks_led_by_the_run_id(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "outcomes.jsonl"
    path.write_text(
        '{"run_id": "r1", "judged": {"checklist": 1.0, "recoverable": 0.6}}\n'
        '{"run_id": "r2", "judged": {"checklist": 0.5}}\n',
        encoding="utf-8",
    )
    monkeypatch.setenv("COLUMNS", "60")
    assert printed(["outcome", str(path)]) == (
        # 52 characters; the version's 2 + 7 more would make 61.
        "run_id  score      c  source            rec_v  cat_v\n"
        "------  -----  -----  ----------------  -----  -----\n"
        "r1      0.800  1.000  judged.checklist  0.640      1\n"
        "r2      0.500  0.500  judged.checklist      —      1\n"
        "\n"
        "run_id  version  reason\n"
        "------  -------  -----------------------------\n"
        "r1      v1       c=1.000, rec_v=0.640, cat_v=1\n"
        "r2      v1       c=0.500, rec_v=n/a, cat_v=1\n"
    )


# --- the report says which radar weights it applied ------------------------------------------


def test_the_report_says_it_applied_the_default_weights(monkeypatch: pytest.MonkeyPatch) -> None:
    document = json.loads(printed(["report", str(CORPUS), "--format", "json"]))
    default = {axis.value: float(w) for axis, w in RADAR_DEFAULT_WEIGHTS.items()}
    assert document["profile_weights"] == {"source": "default", "weights": default}
    monkeypatch.setenv("COLUMNS", "1000")
    pairs = ", ".join(f"{axis}={weight:g}" for axis, weight in default.items())
    lines = printed(["report", str(CORPUS)]).splitlines()
    assert lines[lines.index(RADAR_TITLE) + 1] == f"profile weights (default): {pairs}"


def test_the_report_says_it_applied_the_viewer_weights_normalised(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    given = ["--weights", "correctness=2,cost=1"]
    document = json.loads(printed(["report", str(CORPUS), "--format", "json", *given]))
    assert document["profile_weights"] == {
        "source": "viewer",
        "weights": {
            "correctness": 2 / 3,
            "latency": 0.0,
            "cost": 1 / 3,
            "tool_efficiency": 0.0,
            "robustness": 0.0,
        },
    }
    monkeypatch.setenv("COLUMNS", "1000")
    lines = printed(["report", str(CORPUS), *given]).splitlines()
    assert lines[lines.index(RADAR_TITLE) + 1] == (
        "profile weights (viewer, --weights, normalised): correctness=0.6667, latency=0, "
        "cost=0.3333, tool_efficiency=0, robustness=0"
    )


# --- compare says the level of its intervals --------------------------------------------------


def test_compare_says_the_level_of_its_interval() -> None:
    assert f"{int(INTERVAL_LEVEL * 100)}%" == LEVEL_TEXT
    table = printed(["compare", str(CORPUS), "atlas", "birch"]).splitlines()
    header = table[table.index(COMPARE_TITLE) + 1]
    assert _heads(header) == ["score", "A", "B", "d = A - B", f"{LEVEL_TEXT} interval", "verdict"]
    document = json.loads(printed(["compare", str(CORPUS), "atlas", "birch", "--format", "json"]))
    assert document["interval_level"] == float(INTERVAL_LEVEL) == 0.95
