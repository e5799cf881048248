"""Builders shared by the scoring tests, as plain functions.

They are plain functions, not fixtures, because several test modules call them while the
module is imported (inside ``pytest.mark.parametrize`` lists), where fixtures are not
available. ``conftest.py`` wraps them as fixtures for the test bodies.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from scoring import build_report, report_to_json
from scoring.cli import run

CliResult = tuple[int, str, str]

#: Hypothesis settings for the cheaper property tests that several modules share.
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def successes_of(draw: st.DrawFn, low: int = 0) -> tuple[int, int]:
    """(successes c, outcomes n) with ``low`` <= n <= 3000 and 0 <= c <= n."""
    n = draw(st.integers(min_value=low, max_value=3000))
    return draw(st.integers(min_value=0, max_value=n)), n


#: A valid completed run record; ``good`` varies it field by field.
GOOD: dict[str, Any] = {
    "run_id": "g1",
    "agent_id": "a",
    "task_id": "t",
    "status": "completed",
    "success": True,
    "latency_ms": 1000,
    "cost_usd": 0.01,
    "steps": 3,
    "finished_at": "2024-01-01T00:00:00Z",
}


#: The composite of an agent without completed runs, as the report prints it.
NULL_COMPOSITE: dict[str, Any] = {
    "score": None,
    "success_rate": None,
    "consistency": None,
    "latency_score": None,
    "cost_score": None,
    "completed_runs": 0,
    "zero_success_floor": False,
}


def run_fields(
    run_id: str,
    agent_id: str,
    task_id: str,
    status: str,
    success: bool | None,
    latency_ms: float | None,
    cost_usd: float | None,
    steps: int | None,
    finished_at: str | None,
) -> dict[str, Any]:
    """A run record with every field given, in the order of the input format."""
    return {
        "run_id": run_id,
        "agent_id": agent_id,
        "task_id": task_id,
        "status": status,
        "success": success,
        "latency_ms": latency_ms,
        "cost_usd": cost_usd,
        "steps": steps,
        "finished_at": finished_at,
    }


def good(run_id: str, **changes: Any) -> bytes:
    """One JSON line (no newline): ``GOOD`` with ``run_id`` and the ``changes``."""
    return json.dumps(GOOD | {"run_id": run_id} | changes).encode()


def jsonl(records: Iterable[dict[str, Any] | str | bytes]) -> bytes:
    """One line per record: dicts as JSON, strings and bytes as they are."""
    lines = []
    for record in records:
        if isinstance(record, bytes):
            lines.append(record)
        elif isinstance(record, str):
            lines.append(record.encode())
        else:
            lines.append(json.dumps(record).encode())
    return b"".join(line + b"\n" for line in lines)


def report_document(records: list[dict[str, Any]], weights: Any = None) -> dict[str, Any]:
    """The JSON document ``scoring report`` prints for these run records."""
    return report_to_json(build_report(jsonl(records).splitlines(keepends=True), weights))


def cli(argv: list[str], stdin: bytes = b"") -> CliResult:
    """Run ``scoring`` in-process on bytes for stdin: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    code = run(argv, stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def problem_lines(stderr: str) -> list[str]:
    """The lines of ``stderr`` that name an input problem."""
    return [line for line in stderr.splitlines() if line.startswith("line ")]


def scoring_subprocess(
    args: list[str], cwd: Path, stdin: bytes = b""
) -> subprocess.CompletedProcess[bytes]:
    """``python -m scoring ARGS`` in a real subprocess, its output captured."""
    return subprocess.run(
        [sys.executable, "-m", "scoring", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        env=os.environ.copy(),
        timeout=60,
        check=False,
    )
