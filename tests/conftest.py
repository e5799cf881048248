"""Shared fixtures of the scoring tests (``tests/test_scoring_*.py``).

- ``run_record``: a factory of valid run records (dicts) that a test overrides field by field.
- ``as_jsonl``: records (dicts or raw strings/bytes) as the bytes of a JSON Lines input.
- ``scoring_cli``: runs the command line in-process; returns (exit status, stdout, stderr).
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from scoring.cli import run

RunFactory = Callable[..., dict[str, Any]]
CliResult = tuple[int, str, str]


@pytest.fixture
def run_record() -> RunFactory:
    """``run_record(**fields)``: a valid completed run; each call gets a fresh ``run_id``."""
    counter = iter(range(1, 10**9))

    def make(**fields: Any) -> dict[str, Any]:
        record: dict[str, Any] = {
            "run_id": f"run-{next(counter)}",
            "agent_id": "agent",
            "task_id": "task",
            "status": "completed",
            "success": True,
            "latency_ms": 1000,
            "cost_usd": 0.01,
            "steps": 3,
            "finished_at": "2026-01-01T00:00:00Z",
        }
        record.update(fields)
        return record

    return make


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


@pytest.fixture
def as_jsonl() -> Callable[[Iterable[dict[str, Any] | str | bytes]], bytes]:
    """``as_jsonl(records)``: the bytes of a JSON Lines input."""
    return jsonl


@pytest.fixture
def scoring_cli() -> Callable[..., CliResult]:
    """``scoring_cli(*argv, stdin=b"")``: run ``scoring`` in-process on bytes for stdin."""

    def invoke(*argv: str, stdin: bytes = b"") -> CliResult:
        out, err = io.StringIO(), io.StringIO()
        code = run(list(argv), stdin=io.BytesIO(stdin), stdout=out, stderr=err)
        return code, out.getvalue(), err.getvalue()

    return invoke
