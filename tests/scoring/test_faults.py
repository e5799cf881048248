"""Faults and hostile input: repeated keys, the two paths that read a run log
agreeing, non-ASCII digits, bounded --weights, a byte-order mark, deterministic run_id
fingerprints and more hostile lines. What the commands write when a stream fails, and how
their messages and tables stay bounded and inert, is in ``test_fault_streams.py``.

Every test here failed before the fix it covers. The helpers shared with
``test_fault_streams.py`` are plain functions in ``fault_builders.py``, so that the tests do
not depend on where the shared fixtures live.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from fault_builders import REPO_ROOT, STDERR_BUDGET_BYTES, cli, run_line, valid_lines
from hypothesis import HealthCheck, given, settings, strategies as st
from pydantic import ValidationError

from scoring import InputError, RunRecord, build_report, report_to_json
from scoring.cli import EXIT_BAD_INPUT, WEIGHT_MAX_EXPONENT, parse_weights
from scoring.errors import Problem
from scoring.formulas.outcome import score_outcome_lines
from scoring.report import read as reading_module
from scoring.report.jsonlines import REPEATED_KEY_RULE, repeated_keys
from scoring.report.run_ids import fingerprints

# Arabic-Indic, Devanagari and fullwidth digits: Unicode digits that \d would accept.
FOREIGN_DIGITS = ["\u0665", "\u096b", "\uff15"]
BOM = b"\xef\xbb\xbf"


def problems_of(lines: list[bytes]) -> list[Problem]:
    with pytest.raises(InputError) as caught:
        build_report(iter(lines))
    return caught.value.problems


def outcome_problems(lines: list[bytes]) -> list[Problem]:
    with pytest.raises(InputError) as caught:
        score_outcome_lines(iter(lines))
    return caught.value.problems


# --- repeated keys -------------------------------------------------------------------------


# A negative latency hidden behind a valid one, written four ways.
HIDDEN_LATENCY = [
    b'"latency_ms": -1, "latency_ms": 5',
    b'"latency_ms": -1, "latency_ms" : 5',
    b'"latency_ms":-1,"latency\\u005fms":5',
    b'"latency_ms": -1,\t"latency_ms"\t:\t5',
]


def _with_hidden(fragment: bytes, all_keys: bool) -> bytes:
    record = run_line()
    del record["latency_ms"]
    if not all_keys:
        del record["steps"]  # the fast path's second validator (optional keys left out)
    body = json.dumps(record).encode()[1:-1]
    return b"{" + fragment + b", " + body + b"}\n"


@pytest.mark.parametrize("fragment", HIDDEN_LATENCY)
@pytest.mark.parametrize("all_keys", [True, False])
@pytest.mark.parametrize("chunk", [1, 4096])
def test_a_repeated_key_is_refused_on_the_fast_path(
    fragment: bytes, all_keys: bool, chunk: int
) -> None:
    lines = valid_lines(50)
    lines.insert(20, _with_hidden(fragment, all_keys))
    with mock.patch.object(reading_module, "CHUNK_LINES", chunk):
        problems = problems_of(lines)
    assert problems == [Problem(21, "latency_ms", REPEATED_KEY_RULE)]


@pytest.mark.parametrize(
    "repeat",
    [b'"task_id": "x", ', b'"success": null, ', b'"finished_at": "2026-01-01T00:00:00Z", '],
)
def test_a_repeat_is_found_beside_lines_with_escapes(repeat: bytes) -> None:
    # Escaped quotes elsewhere in the chunk make its quote count differ: its lines are then
    # counted one by one, and only the line with the repeat is parsed again.
    lines = valid_lines(30, agent_id='back\\slash "quoted"')
    lines[7] = b"{" + repeat + lines[7][1:]
    field = repeat.split(b'"')[1].decode()
    assert problems_of(lines) == [Problem(8, field, REPEATED_KEY_RULE)]


def test_a_repeated_key_is_named_on_the_command_line() -> None:
    lines = [*valid_lines(3), _with_hidden(HIDDEN_LATENCY[0], True)]
    code, out, err = cli("report", "-", stdin=b"".join(lines))
    assert (code, out) == (EXIT_BAD_INPUT, "")
    assert f"line 4: latency_ms: {REPEATED_KEY_RULE}" in err


def test_a_string_value_that_looks_like_a_key_end_is_still_accepted() -> None:
    # '":' inside a value (written \":) makes the fast count too high: the chunk is looked
    # at line by line, and nothing is repeated.
    lines = valid_lines(10, task_id='a":b')
    expected = report_to_json(build_report(valid_lines(10, task_id="x")))["agents"]
    got = report_to_json(build_report(lines))["agents"]
    assert got == expected


def test_a_failed_catastrophic_safeguard_cannot_be_hidden_by_a_repeat() -> None:
    failed = (
        b'{"run_id": "r1", "verification": [{"name": "no-delete", "role": "safeguard", '
        b'"severity": "catastrophic", "status": "failed"}], "verification": [], '
        b'"judged": {"checklist": 1.0}}\n'
    )
    assert outcome_problems([failed]) == [Problem(1, "verification", REPEATED_KEY_RULE)]


def test_a_repeated_key_deep_in_an_outcome_record_is_named_by_its_path() -> None:
    record = (
        b'{"run_id": "r1", "verification": [{"name": "a", "role": "objective", '
        b'"status": "failed", "status": "passed"}]}\n'
    )
    code, out, err = cli("outcome", "-", stdin=record)
    assert (code, out) == (EXIT_BAD_INPUT, "")
    assert f"line 1: verification.0.status: {REPEATED_KEY_RULE}" in err


def test_repeated_keys_lists_every_repeat_with_its_path() -> None:
    text = b'{"a": {"b": 1, "b": 2, "b": 3}, "c": [{"d": 1, "d\\u0000": 2, "d": 3}]}'
    assert repeated_keys(text) == [("a", "b"), ("a", "b"), ("c", 0, "d")]
    assert repeated_keys(b'{"a": 1, "A": 2}') == []


# --- the two paths agree -------------------------------------------------------------------


def _reference(line: bytes) -> bool:
    """Whether one line is a valid run, by RunRecord and the stdlib's JSON reader alone."""
    try:
        RunRecord.model_validate_json(line)
    except ValidationError:
        return False
    seen: list[int] = []

    def pairs(items: list[tuple[str, Any]]) -> dict[str, Any]:
        keys = [k for k, _ in items]
        seen.append(len(keys) - len(set(keys)))
        return dict(items)

    json.loads(line, object_pairs_hook=pairs)
    return not any(seen)


KEY_NAMES = ["run_id", "latency_ms", "finished_at", "status", "steps"]


@st.composite
def hostile_lines(draw: st.DrawFn) -> bytes:
    """A run line, valid or not: repeated keys (plain, spaced, escaped), non-ASCII digits
    in the timestamp, control characters in ids (escaped or raw)."""
    status = draw(st.sampled_from(["completed", "failed", "queued"]))
    stamp = list("2026-01-01T00:00:00.5Z")
    for _ in range(draw(st.integers(0, 2))):
        position = draw(st.sampled_from([0, 3, 6, 9, 12, 15, 18, 20]))
        stamp[position] = draw(st.sampled_from([*FOREIGN_DIGITS, "7", "\u0660"]))
    record = run_line(
        run_id=draw(st.text(alphabet="ab\x1b\x00\u202e\x7f", min_size=1, max_size=4)),
        status=status,
        finished_at="".join(stamp),
    )
    for key in draw(st.sets(st.sampled_from(["success", "steps", "cost_usd"]))):
        del record[key]
    body = json.dumps(record, ensure_ascii=draw(st.booleans()))
    repeats = draw(st.lists(st.sampled_from(KEY_NAMES), max_size=2))
    for key in repeats:
        written = draw(
            st.sampled_from(
                [f'"{key}": ', f'"{key}" : ', f'"{key[0]}\\u00{ord(key[1]):02x}{key[2:]}":']
            )
        )
        value = json.dumps(record.get(key))
        body = "{" + written + value + ", " + body[1:]
    if draw(st.booleans()) and "\\u001b" in body:
        body = body.replace("\\u001b", "\x1b")  # a raw control character: not JSON
    return body.encode("utf-8", "surrogatepass") + b"\n"


def _outcome(lines: list[bytes]) -> tuple[list[dict[str, Any]] | None, list[Problem], int]:
    try:
        report = build_report(iter(lines))
    except InputError as error:
        return None, error.problems, error.total
    return report_to_json(report)["agents"], [], 0


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(hostile_lines(), min_size=1, max_size=12))
def test_fast_and_line_by_line_paths_agree(lines: list[bytes]) -> None:
    # Unique run_ids, so that only the lines themselves decide.
    lines = [
        line.replace(b'"run_id": "', f'"run_id": "{i}-'.encode(), 1) for i, line in enumerate(lines)
    ]
    fast = _outcome(lines)
    with mock.patch.object(reading_module, "chunk_rows", return_value=None):
        slow = _outcome(lines)  # every chunk read line by line, with RunRecord
    assert fast == slow
    # Acceptance as RunRecord and the stdlib's reader of repeated keys say, line by line.
    assert (fast[0] is not None) == all(_reference(line) for line in lines)


# --- ASCII digits --------------------------------------------------------------------------


@pytest.mark.parametrize("digit", FOREIGN_DIGITS)
@pytest.mark.parametrize(
    "stamp", ["2026-01-01T00:00:0{}Z", "2026-01-01T00:00:00.{}Z", "2026-01-01T0{}:00:00Z"]
)
def test_non_ascii_digits_in_a_timestamp_are_bad_input(digit: str, stamp: str) -> None:
    line = json.dumps(run_line(finished_at=stamp.format(digit)), ensure_ascii=False).encode()
    code, out, err = cli("report", "-", stdin=b"".join(valid_lines(3)) + line + b"\n")
    assert (code, out) == (EXIT_BAD_INPUT, "")
    position = stamp.index("{") + 1
    digit_rule = f"digits must be ASCII 0–9, not '{digit}' (character {position})"
    assert f"line 4: finished_at: {digit_rule}" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    "weights",
    [
        "correctness=\u0661",
        "correctness=\uff11",
        "correctness=1_0",
        "correctness=1e999999999",
        f"correctness=1e{WEIGHT_MAX_EXPONENT + 1}",
        "correctness=1e-999999999",
        "correctness=" + "1" * 41,
        "correctness=0x10",
        "correctness=+1",
        "correctness=\u22121",
    ],
)
def test_weights_are_bounded_ascii_decimals(weights: str) -> None:
    with pytest.raises(InputError, match="weight must be a finite number >= 0"):
        parse_weights(weights)


def test_weights_at_the_bounds_are_accepted() -> None:
    weights = parse_weights(f"correctness=1e{WEIGHT_MAX_EXPONENT},cost=.5,latency=2.")
    assert [str(w) for w in weights.values() if w] == [f"1E+{WEIGHT_MAX_EXPONENT}", "2", "0.5"]


def test_a_repeated_axis_is_an_error() -> None:
    with pytest.raises(InputError, match="correctness: axis given twice"):
        parse_weights("correctness=1,cost=1,correctness=2")


def test_bad_weights_are_a_usage_error_before_any_file_is_read(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-file.jsonl"
    code, out, err = cli("report", str(missing), "--weights", "correctness=1e999999999")
    assert (code, out) == (EXIT_BAD_INPUT, "")
    assert err.startswith("usage: scoring report")
    assert "error: argument --weights: correctness: weight must be" in err
    assert "cannot read" not in err
    assert str(missing) not in err


def test_a_huge_weights_argument_is_refused_and_not_echoed() -> None:
    code, out, err = cli("report", "-", "--weights", "x" * 100_000)
    assert (code, out) == (EXIT_BAD_INPUT, "")
    assert "100000 characters" in err
    assert len(err.encode()) < STDERR_BUDGET_BYTES


# --- byte-order mark -----------------------------------------------------------------------


def test_a_byte_order_mark_at_the_start_is_skipped(tmp_path: Path) -> None:
    lines = valid_lines(3)
    path = tmp_path / "runs.jsonl"
    path.write_bytes(BOM + b"".join(lines))
    plain = cli("report", "-", "--format", "json", stdin=b"".join(lines))
    assert cli("report", str(path), "--format", "json") == plain
    assert cli("report", "-", "--format", "json", stdin=BOM + b"".join(lines)) == plain
    record = BOM + b'{"run_id": "r"}\n'
    assert cli("outcome", "-", stdin=record)[0] == 0


def test_a_byte_order_mark_elsewhere_is_bad_input() -> None:
    lines = valid_lines(3)
    lines[1] = BOM + lines[1]
    code, _, err = cli("report", "-", stdin=b"".join(lines))
    assert code == EXIT_BAD_INPUT
    assert "line 2: not valid JSON" in err


# --- deterministic fingerprints ------------------------------------------------------------


_SLOTS = """
from scoring.report.run_ids import RunIds
seen = RunIds()
seen.add_all([f"run-{i}" for i in range(3000)])
print(seen._slots.tobytes().hex())
"""


def test_run_id_fingerprints_are_the_same_in_every_process() -> None:
    def slots(seed: str) -> str:
        env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(REPO_ROOT)}
        done = subprocess.run(
            [sys.executable, "-c", _SLOTS], env=env, capture_output=True, text=True, check=True
        )
        return done.stdout

    assert slots("1") == slots("2")
    assert fingerprints(["run-1"]) == [
        int.from_bytes(__import__("hashlib").blake2b(b"run-1", digest_size=8).digest())
    ]


# --- more hostile lines: refused or scored, never a traceback, stderr small ----------------


_GOOD = json.dumps(run_line())


EXTRA_HOSTILE: dict[str, tuple[bytes, int]] = {
    "an integer of 5,000 digits": (
        _GOOD.replace('"steps": 3', '"steps": ' + "9" * 5000).encode(),
        2,
    ),
    "1e400": (_GOOD.replace('"latency_ms": 1000.0', '"latency_ms": 1e400').encode(), 2),
    "NaN": (_GOOD.replace('"latency_ms": 1000.0', '"latency_ms": NaN').encode(), 2),
    "-Infinity": (_GOOD.replace('"cost_usd": 0.01', '"cost_usd": -Infinity').encode(), 2),
    "nesting 100,000 deep": (b"[" * 100_000 + b"]" * 100_000, 2),
    "nesting inside a field": (
        _GOOD.replace('"steps": 3', '"steps": ' + "[" * 150 + "]" * 150).encode(),
        2,
    ),
    "invalid UTF-8": (_GOOD.encode()[:-2] + b'\xff"}', 2),
    "a lone surrogate": (_GOOD.replace('"run_id": "r1"', '"run_id": "\\udc00"').encode(), 2),
    "a raw NUL after the object": (_GOOD.encode() + b"\x00", 2),
    "a raw control character in a string": (_GOOD.replace('"agent"', '"a\x1bb"').encode(), 2),
    "UTF-16": (_GOOD.encode("utf-16"), 2),
    "two byte-order marks": (BOM * 2 + _GOOD.encode(), 2),
    "an empty key, repeated": (_GOOD.replace("{", '{"": 1, "": 2, ', 1).encode(), 2),
    "10,000 repeats of one key": (
        (_GOOD[:-1] + "," + ",".join('"steps": 1' for _ in range(10_000)) + "}").encode(),
        2,
    ),
    "a leap second": (_GOOD.replace("00:00:00Z", "23:59:60Z").encode(), 2),
    "year 0000": (_GOOD.replace("2026-01-01", "0000-01-01").encode(), 2),
    "a lookalike status": (_GOOD.replace('"completed"', '"c\u043empleted"').encode(), 2),
    "CRLF": (_GOOD.encode() + b"\r", 0),
    "a NUL escaped in an id": (_GOOD.replace('"agent"', '"a\\u0000b"').encode(), 0),
    "a million fraction digits": (
        _GOOD.replace("00:00:00Z", "00:00:00." + "1" * 10**6 + "Z").encode(),
        0,
    ),
    "a subnormal cost": (_GOOD.replace('"cost_usd": 0.01', '"cost_usd": 5e-324').encode(), 0),
    "only blank lines": (b"\n \n\t\r\n", 0),
    "an empty input": (b"", 0),
}


@pytest.mark.parametrize("name", sorted(EXTRA_HOSTILE))
@pytest.mark.parametrize("command", ["report", "outcome"])
def test_more_hostile_lines_never_end_in_a_traceback(name: str, command: str) -> None:
    line, report_status = EXTRA_HOSTILE[name]
    code, _, err = cli(command, "-", stdin=line + b"\n")
    if command == "report":
        assert code == report_status, err
    else:
        assert code in (0, EXIT_BAD_INPUT)  # an outcome record has other fields
    assert "Traceback" not in err
    assert len(err.encode()) < STDERR_BUDGET_BYTES


def test_an_empty_repeated_key_is_named() -> None:
    code, _, err = cli("outcome", "-", stdin=b'{"run_id": "r", "": 1, "": 2}\n')
    assert code == EXIT_BAD_INPUT
    assert f"line 1: '': {REPEATED_KEY_RULE}" in err
