"""The report's progress line: on a terminal's stderr only, never in a pipe or
in CI, never on stdout; erased before the output. Terminals are real ones (``os.openpty``).
"""

from __future__ import annotations

import io
import json
import os
import select
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

from contracts.source import REPO_ROOT
from scoring import progress as progress_module
from scoring.cli import run
from scoring.report import read as reading_module


@pytest.fixture
def run_log(tmp_path: Path) -> Path:
    path = tmp_path / "runs.jsonl"
    lines = [
        json.dumps(
            {
                "run_id": f"r{i}",
                "agent_id": f"agent-{i % 3}",
                "task_id": f"task-{i % 7}",
                "status": "completed",
                "success": i % 2 == 0,
                "latency_ms": 1000 + i,
                "cost_usd": 0.01,
                "steps": 3,
                "finished_at": "2026-01-01T00:00:00Z",
            }
        )
        for i in range(400)
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture
def at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every input counts as large, every chunk redraws the line, and chunks are small."""
    monkeypatch.setattr(progress_module, "PROGRESS_DELAY_SECONDS", 0.0)
    monkeypatch.setattr(progress_module, "PROGRESS_INTERVAL_SECONDS", 0.0)
    monkeypatch.setattr(reading_module, "CHUNK_LINES", 50)
    monkeypatch.delenv("CI", raising=False)


@pytest.fixture
def terminal() -> Iterator[tuple[IO[str], int]]:
    """A pseudo-terminal: the writer end (a text stream that is a tty) and the reader fd."""
    reader, writer = os.openpty()
    stream = os.fdopen(writer, "w", encoding="utf-8")
    assert stream.isatty()
    yield stream, reader
    stream.close()
    os.close(reader)


def drain(fd: int) -> str:
    chunks = []
    while select.select([fd], [], [], 0.2)[0]:
        try:
            data = os.read(fd, 1 << 16)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    return b"".join(chunks).decode()


@pytest.mark.usefixtures("at_once")
def test_a_terminal_gets_a_progress_line_that_is_erased(
    run_log: Path, terminal: tuple[IO[str], int]
) -> None:
    stream, reader = terminal
    out = io.StringIO()
    assert run(["report", str(run_log), "--format", "json"], stdout=out, stderr=stream) == 0
    shown = drain(reader)
    assert "scoring report: " in shown
    assert "MiB read (" in shown  # a file: its share is known
    assert "400 runs" in shown
    assert "runs/s" in shown
    assert shown.endswith("\r\x1b[K")  # erased: the next line starts clean
    assert json.loads(out.getvalue())["agents"]  # stdout is the report alone
    assert "\r" not in out.getvalue()


@pytest.mark.usefixtures("at_once")
def test_a_pipe_gets_no_progress_line(run_log: Path) -> None:
    reader, writer = os.pipe()
    with os.fdopen(writer, "w") as stream:
        assert run(["report", str(run_log)], stdout=io.StringIO(), stderr=stream) == 0
    with os.fdopen(reader) as pipe:
        assert pipe.read() == ""


@pytest.mark.usefixtures("at_once")
def test_ci_gets_no_progress_line(
    run_log: Path, terminal: tuple[IO[str], int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CI", "true")
    stream, reader = terminal
    assert run(["report", str(run_log)], stdout=io.StringIO(), stderr=stream) == 0
    assert drain(reader) == ""


@pytest.mark.usefixtures("at_once")
def test_the_pipe_check_would_see_a_progress_line(
    run_log: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The pipe test fails if the line were written wherever stderr goes.
    monkeypatch.setattr(progress_module, "wanted", lambda stream: stream is not None)
    monkeypatch.setattr("scoring.cli.progress_wanted", progress_module.wanted)
    reader, writer = os.pipe()
    with os.fdopen(writer, "w") as stream:
        run(["report", str(run_log)], stdout=io.StringIO(), stderr=stream)
    with os.fdopen(reader) as pipe:
        assert "runs/s" in pipe.read()


@pytest.mark.usefixtures("at_once")
def test_bad_input_is_named_on_a_clean_line(tmp_path: Path, terminal: tuple[IO[str], int]) -> None:
    path = tmp_path / "bad.jsonl"
    good = {"run_id": "r", "agent_id": "a", "task_id": "t", "status": "queued"}
    path.write_text(
        "\n".join([json.dumps(good | {"run_id": f"r{i}"}) for i in range(120)]) + "\n{\n"
    )
    stream, reader = terminal
    assert run(["report", str(path)], stdout=io.StringIO(), stderr=stream) == 2
    shown = drain(reader)
    progress, _, problems = shown.rpartition("\r\x1b[K")
    assert "runs/s" in progress
    assert problems.startswith("scoring report: cannot score")
    assert "line 121: not valid JSON" in problems


def test_a_small_input_prints_nothing_on_a_terminal(
    run_log: Path, terminal: tuple[IO[str], int]
) -> None:
    # A fresh process, its stderr a terminal, the default delay: done before the line.
    stream, reader = terminal
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    env["PYTHONPATH"] = str(REPO_ROOT)
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "report", str(run_log)],
        stdout=subprocess.PIPE,
        stderr=stream,
        env=env,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0
    assert done.stdout.startswith(b"methodology ")
    assert drain(reader) == ""
