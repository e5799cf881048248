"""The command's exit statuses are one table (``scoring.cli.EXITS``): every error class
reaches its row, with its own status and message."""

from __future__ import annotations

import errno
import io
import sys
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from builders import good

import scoring.formulas.composite
import scoring.formulas.radar
from contracts.source import REPO_ROOT
from scoring.cli import EXITS, ExitStatus, exit_for, run
from scoring.constants import Axis
from scoring.errors import MethodologyError

GOOD_LOG = good("r1") + b"\n"
CORPUS_LOG = REPO_ROOT / "contracts" / "corpus" / "synthetic-runs.jsonl"


class _Failing(io.StringIO):
    def __init__(self, error: BaseException) -> None:
        super().__init__()
        self.error = error

    def write(self, text: str) -> int:
        raise self.error


class _Interrupted(io.BytesIO):
    def read(self, size: int | None = -1, /) -> bytes:
        raise KeyboardInterrupt

    read1 = read


def _run(argv: list[str], stdin: io.BytesIO, stdout: io.StringIO) -> tuple[int, str, str]:
    err = io.StringIO()
    code = run(argv, stdin=stdin, stdout=stdout, stderr=err)
    return code, stdout.getvalue() if type(stdout) is io.StringIO else "", err.getvalue()


def _no_duckdb(monkeypatch: pytest.MonkeyPatch) -> None:
    # As without the extra: importing the engine fails (also where it was imported).
    import scoring.engines

    monkeypatch.setitem(sys.modules, "scoring.engines.duckdb_engine", None)
    monkeypatch.delattr(scoring.engines, "duckdb_engine", raising=False)


def _negative_weight(monkeypatch: pytest.MonkeyPatch) -> None:
    weights = dict.fromkeys(Axis, Decimal(1)) | {Axis.COST: Decimal(-1)}
    monkeypatch.setattr(scoring.formulas.radar, "RADAR_DEFAULT_WEIGHTS", weights)


def _broken_invariant(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: Any, **__: Any) -> None:
        # Made without its constructor, whose arguments differ between branches (issue16).
        raise MethodologyError.__new__(MethodologyError)

    _break_composite(monkeypatch, broken)


def _zero_divisor(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: Any, **__: Any) -> None:
        raise ZeroDivisionError("division by zero")

    _break_composite(monkeypatch, broken)


def _break_composite(monkeypatch: pytest.MonkeyPatch, broken: Callable[..., None]) -> None:
    """The composite's formula broken (the one implementation every agent is scored by)."""
    monkeypatch.setattr(scoring.formulas.composite, "composite_score", broken)


# (row name, argv, stdin, stdout, setup, expected words on stderr)
Scenario = tuple[
    str, list[str], io.BytesIO, io.StringIO, Callable[[pytest.MonkeyPatch], None] | None, str
]
SCENARIOS: dict[str, Scenario] = {
    "an unknown option": (
        "usage",
        ["report", "-", "--nope"],
        io.BytesIO(),
        io.StringIO(),
        None,
        "error:",
    ),
    "a bad weight": (
        "usage",
        ["report", "-", "--weights", "x"],
        io.BytesIO(),
        io.StringIO(),
        None,
        "error:",
    ),
    "a bad record": (
        "bad input",
        ["report", "-"],
        io.BytesIO(b"{}\n"),
        io.StringIO(),
        None,
        "cannot score stdin",
    ),
    "a zip": (
        "bad input",
        ["outcome", "-"],
        io.BytesIO(b"PK\x03\x04" + bytes(40)),
        io.StringIO(),
        None,
        "zip archive",
    ),
    "a missing file": (
        "unreadable input",
        ["report", "/nonexistent/runs.jsonl"],
        io.BytesIO(),
        io.StringIO(),
        None,
        "cannot read",
    ),
    "a negative radar weight": (
        "broken methodology",
        ["report", "-"],
        io.BytesIO(GOOD_LOG),
        io.StringIO(),
        _negative_weight,
        "the methodology is broken, not the input: the weight of axis cost",
    ),
    "a broken invariant": (
        "broken methodology",
        ["report", "-"],
        io.BytesIO(GOOD_LOG),
        io.StringIO(),
        _broken_invariant,
        "the methodology is broken, not the input",
    ),
    "a zero divisor": (
        "broken methodology",
        ["report", "-"],
        io.BytesIO(GOOD_LOG),
        io.StringIO(),
        _zero_divisor,
        "the methodology is broken",
    ),
    "a closed pipe": (
        "closed pipe",
        ["report", "-"],
        io.BytesIO(GOOD_LOG),
        _Failing(BrokenPipeError()),
        None,
        "",
    ),
    "a full disk": (
        "output failure",
        ["report", "-"],
        io.BytesIO(GOOD_LOG),
        _Failing(OSError(errno.ENOSPC, "No space left on device")),
        None,
        "cannot write the output: No space left on device",
    ),
    "a closed stdout": (
        "output failure",
        ["outcome", "-"],
        io.BytesIO(b""),
        _Failing(ValueError("I/O operation on closed file.")),
        None,
        "cannot write the output: I/O operation on closed file",
    ),
    "an engine not installed": (
        "engine not installed",
        ["report", str(CORPUS_LOG), "--engine", "duckdb"],
        io.BytesIO(),
        io.StringIO(),
        _no_duckdb,
        'the duckdb engine is not installed: pip install "agent-scoring-methodology[duckdb]"',
    ),
    "Ctrl-C": ("interrupted", ["report", "-"], _Interrupted(), io.StringIO(), None, ""),
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_every_error_reaches_its_row(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    row_name, argv, stdin, stdout, setup, words = SCENARIOS[name]
    if setup is not None:
        setup(monkeypatch)
    code, out, err = _run(argv, stdin, stdout)
    (row,) = [r for r in EXITS if r.name == row_name]
    assert code == row.status, err
    assert out == ""
    assert words in err
    if row.says is None and row_name != "usage":
        assert err == ""
    if row_name != "output failure":
        assert "cannot write the output" not in err
    assert "Traceback" not in err


def test_every_row_is_reached() -> None:
    assert {s[0] for s in SCENARIOS.values()} == {row.name for row in EXITS}


def test_the_statuses_are_as_documented() -> None:
    statuses = {row.name: row.status for row in EXITS}
    assert statuses == {
        "usage": 2,
        "bad input": 2,
        "engine not installed": 2,
        "unreadable input": 2,
        "broken methodology": 2,
        "closed pipe": 141,
        "output failure": 1,
        "interrupted": 130,
    }
    messages = [row.says for row in EXITS if row.status == ExitStatus.BAD_INPUT and row.says]
    assert len(set(messages)) == len(messages)  # each of status 2 says its own thing


def test_a_bug_is_no_row() -> None:
    # A TypeError is a bug in the code, not a condition the table names.
    assert exit_for(TypeError("x")) is None


def test_a_broken_constant_on_a_file_reaches_its_row(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    log = tmp_path / "runs.jsonl"
    log.write_bytes(GOOD_LOG)
    _negative_weight(monkeypatch)
    code, out, err = _run(["report", str(log)], io.BytesIO(), io.StringIO())
    assert (code, out) == (2, "")
    assert err.startswith("scoring report: the methodology is broken, not the input")
