"""Faults in what the commands write: closed and full streams, bounded and inert
messages, inert tables and JSON, and the outcome command streaming its scores. The faults of
the input itself are in ``test_faults.py``; the helpers both share are in
``fault_builders.py``.

Every test here failed before the fix it covers.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fault_builders import REPO_ROOT, STDERR_BUDGET_BYTES, cli, run_line, valid_lines
from processes import run_captured

from scoring.cli import EXIT_BAD_INPUT, EXIT_BROKEN_PIPE, EXIT_OUTPUT_FAILED, run
from scoring.errors import MAX_LISTED_PROBLEMS, MAX_SHOWN_CHARS
from scoring.formulas.outcome import iter_outcome_scores, score_outcome_lines
from scoring.report.write import outcome_to_json

# Out of the fast lane: the command line's streams under faults (closed pipes, full disks),
# each case a subprocess; not the written contract.
pytestmark = pytest.mark.slow

# --- streams -------------------------------------------------------------------------------


def _shell(command: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    return run_captured(["bash", "-c", command], cwd=tmp_path, env=env, timeout=120)


@pytest.fixture
def outcome_log(tmp_path: Path) -> Path:
    """5,000 outcome records: far more output than a pipe buffer holds."""
    path = tmp_path / "records.jsonl"
    record = {"run_id": "", "judged": {"checklist": 0.5}}
    path.write_text("".join(json.dumps(record | {"run_id": f"r{i}"}) + "\n" for i in range(5000)))
    return path


PY = f"{sys.executable} -m scoring"


@pytest.mark.parametrize(
    ("redirect", "status", "message"),
    [
        ("<&-", EXIT_BAD_INPUT, "scoring outcome: cannot read stdin: stdin is closed"),
        (">&-", EXIT_OUTPUT_FAILED, "scoring outcome: cannot write the output: stdout is closed"),
        (
            ">/dev/full",
            EXIT_OUTPUT_FAILED,
            "scoring outcome: cannot write the output: No space left on device",
        ),
    ],
)
def test_closed_or_full_streams_end_in_one_line(
    redirect: str, status: int, message: str, outcome_log: Path, tmp_path: Path
) -> None:
    source = "-" if redirect == "<&-" else str(outcome_log)
    done = _shell(f"{PY} outcome {source} {redirect}", tmp_path)
    assert done.returncode == status
    assert done.stderr == message + "\n"


@pytest.mark.parametrize("fmt", ["table", "json"])
def test_a_closed_pipe_ends_quietly(fmt: str, outcome_log: Path, tmp_path: Path) -> None:
    done = _shell(
        f'{PY} outcome {outcome_log} --format {fmt} | head -n 1; echo "status=${{PIPESTATUS[0]}}"',
        tmp_path,
    )
    assert done.stderr == ""
    assert done.stdout.splitlines()[-1] == f"status={EXIT_BROKEN_PIPE}"


def test_a_full_disk_on_the_report_is_one_line(tmp_path: Path) -> None:
    log = tmp_path / "runs.jsonl"
    log.write_bytes(b"".join(valid_lines(20)))
    done = _shell(f"{PY} report {log} >/dev/full", tmp_path)
    assert done.returncode == EXIT_OUTPUT_FAILED
    assert done.stderr == "scoring report: cannot write the output: No space left on device\n"


def test_a_write_that_fails_in_process_is_one_line() -> None:
    class Full(io.StringIO):
        def flush(self) -> None:
            raise OSError(28, "No space left on device")

    err = io.StringIO()
    code = run(
        ["report", "-"], stdin=io.BytesIO(b"".join(valid_lines(2))), stdout=Full(), stderr=err
    )
    assert code == EXIT_OUTPUT_FAILED
    assert err.getvalue() == "scoring report: cannot write the output: No space left on device\n"


# --- bounded, inert messages ---------------------------------------------------------------

MEGABYTE = 1 << 20


@pytest.mark.parametrize(
    ("line", "length"),
    [
        (json.dumps(run_line() | {"x" * MEGABYTE: 1}), MEGABYTE),
        (json.dumps(run_line(agent_id=7, task_id="t" * MEGABYTE, status="x" * MEGABYTE)), MEGABYTE),
        (json.dumps(run_line(finished_at="9" * MEGABYTE)), MEGABYTE),
    ],
)
def test_an_echoed_name_or_value_is_cut_saying_its_length(line: str, length: int) -> None:
    code, out, err = cli("report", "-", stdin=line.encode() + b"\n")
    assert (code, out) == (EXIT_BAD_INPUT, "")
    assert f"({length} characters)" in err
    assert len(err.encode()) < STDERR_BUDGET_BYTES


def test_a_huge_duplicate_run_id_is_cut() -> None:
    lines = valid_lines(1, run_id="r" * MEGABYTE) * 2
    code, _, err = cli("report", "-", stdin=b"".join(lines))
    assert code == EXIT_BAD_INPUT
    cut_id = f"'{'r' * MAX_SHOWN_CHARS}'… ({MEGABYTE} characters)"
    assert f"duplicate run_id {cut_id}, first on line 1 [unique]" in err
    assert len(err.encode()) < STDERR_BUDGET_BYTES


def test_stderr_stays_small_whatever_the_input() -> None:
    # More bad lines than are listed, each with many long unknown keys full of escapes (a
    # few lines beyond the list are enough to be cut; each line costs the check ~50 ms).
    key = "\x1b[2J\u202e" * 500
    hostile = {f"{key}{i}": "\x00" * 1000 for i in range(200)}
    count = MAX_LISTED_PROBLEMS + 5
    lines = [json.dumps(run_line(run_id=f"r{i}") | hostile).encode() for i in range(count)]
    for command in ("report", "outcome"):
        code, out, err = cli(command, "-", stdin=b"\n".join(lines))
        assert (code, out) == (EXIT_BAD_INPUT, "")
        assert len(err.splitlines()) == MAX_LISTED_PROBLEMS + 2  # header, problems, count
        assert len(err.encode()) < STDERR_BUDGET_BYTES
        assert "\x1b" not in err
        assert "\u202e" not in err


def test_an_unknown_field_name_is_shown_inert() -> None:
    line = json.dumps(run_line() | {"\x1b[31mred\x1b[0m\nline 9: fake": 1})
    code, _, err = cli("report", "-", stdin=line.encode())
    assert code == EXIT_BAD_INPUT
    assert "line 1: '\\x1b[31mred\\x1b[0m\\nline 9: fake': unknown field" in err
    assert "\x1b" not in err
    assert err.count("\n") == 2


def test_a_usage_error_does_not_echo_a_huge_argument() -> None:
    code, _, err = cli("report", "-", "--format", "\x1b[2J" + "y" * MEGABYTE)
    assert code == EXIT_BAD_INPUT
    assert "\x1b" not in err
    assert len(err.encode()) < STDERR_BUDGET_BYTES


# --- inert tables and JSON -----------------------------------------------------------------

FAKE_ROW = "\x1b[2J\x1b[Hevil\r\nfake-agent  100.00\u202e\x9b31m\\x1b"


def test_the_report_table_shows_control_characters_as_escapes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "1000")  # each table in one block: one row per table
    lines = valid_lines(1, agent_id=FAKE_ROW) + valid_lines(1, agent_id="plain", run_id="p")
    code, out, _ = cli("report", "-", stdin=b"".join(lines))
    assert code == 0
    for raw in ("\x1b", "\r", "\u202e", "\x9b"):
        assert raw not in out
    shown = "\\x1b[2J\\x1b[Hevil\\r\\nfake-agent  100.00\\u202e\\x9b31m\\\\x1b"
    # The composite, radar and repeatability tables, the no-interval notes under the
    # composite and the radar, and the two no-value notes under repeatability (no task has
    # three outcomes, none has five).
    assert out.count(shown) == 7
    assert f"  {shown}: composite and success: " in out
    assert not any(line.startswith("fake-agent") for line in out.splitlines())


def test_the_outcome_table_shows_control_characters_as_escapes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "1000")  # the table in one block
    record = {"run_id": FAKE_ROW, "judged": {"checklist": 1.0}}
    code, out, _ = cli("outcome", "-", stdin=json.dumps(record).encode())
    assert code == 0
    assert "\x1b" not in out
    assert len(out.splitlines()) == 3


def test_json_output_escapes_what_a_terminal_would_act_on_and_keeps_the_data() -> None:
    record = {"run_id": FAKE_ROW, "judged": {"checklist": 1.0}}
    code, out, _ = cli("outcome", "-", "--format", "json", stdin=json.dumps(record).encode())
    assert code == 0
    assert all(c not in out for c in ("\x1b", "\u202e", "\x9b"))
    assert json.loads(out)[0]["run_id"] == FAKE_ROW


# --- the outcome command streams ------------------------------------------------------------


def test_outcome_scores_are_yielded_while_the_input_is_read() -> None:
    read = 0

    def lines() -> Iterator[bytes]:
        nonlocal read
        for i in range(1000):
            read += 1
            yield json.dumps({"run_id": f"r{i}"}).encode()

    scores = iter_outcome_scores(lines())
    first = next(scores)
    assert (first.run_id, read) == ("r0", 1)
    assert [s.run_id for s in scores] == [f"r{i}" for i in range(1, 1000)]


def test_outcome_output_is_in_input_order_and_as_before(outcome_log: Path) -> None:
    code, out, _ = cli("outcome", str(outcome_log), "--format", "json")
    assert code == 0
    scores = score_outcome_lines(outcome_log.open("rb"))
    before = json.dumps([outcome_to_json(s) for s in scores], indent=2, ensure_ascii=False)
    assert out == before + "\n"
    assert cli("outcome", "-", "--format", "json")[1] == "[]\n"


def test_a_bad_last_record_leaves_stdout_empty(outcome_log: Path) -> None:
    data = outcome_log.read_bytes() + b'{"run_id": "late", "judged": {"checklist": 2}}\n'
    for fmt in ("table", "json"):
        code, out, err = cli("outcome", "-", "--format", fmt, stdin=data)
        assert (code, out) == (EXIT_BAD_INPUT, "")
        assert "line 5001: judged.checklist" in err


def test_a_duplicate_outcome_run_id_names_its_first_line(outcome_log: Path) -> None:
    data = outcome_log.read_bytes() + b'{"run_id": "r4321"}\n'
    code, _, err = cli("outcome", "-", stdin=data)
    assert code == EXIT_BAD_INPUT
    assert "line 5001: run_id: duplicate run_id 'r4321', first on line 4322 [unique]" in err
