"""Helpers of the fault tests (``test_faults.py``, ``test_fault_streams.py``), as plain
functions: a valid run line, valid JSON lines, and the command line run in-process.

Plain functions rather than the shared fixtures of ``conftest.py``: the fault tests build
their inputs while the module is imported (inside ``pytest.mark.parametrize`` lists), and do
not depend on where the shared fixtures live.
"""

from __future__ import annotations

import io
import json
from typing import Any

from contracts.source import REPO_ROOT as REPO_ROOT
from scoring.cli import run

# stderr of any failed run stays within this many bytes, whatever the input.
STDERR_BUDGET_BYTES = 4096


def run_line(**fields: Any) -> dict[str, Any]:
    record: dict[str, Any] = {
        "run_id": "r1",
        "agent_id": "agent",
        "task_id": "task",
        "status": "completed",
        "success": True,
        "latency_ms": 1000.0,
        "cost_usd": 0.01,
        "steps": 3,
        "finished_at": "2026-01-01T00:00:00Z",
    }
    record.update(fields)
    return record


def valid_lines(count: int, **fields: Any) -> list[bytes]:
    records = [run_line(**({"run_id": f"r{i}"} | fields)) for i in range(count)]
    return [json.dumps(record).encode() + b"\n" for record in records]


def cli(*argv: str, stdin: bytes = b"") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(list(argv), stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()
