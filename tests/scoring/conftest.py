"""Fixtures of the scoring tests (the builders behind them are in ``builders.py``).

- ``run_record``: a factory of valid run records (dicts) that a test overrides field by field.
- ``as_jsonl``: records (dicts or raw strings/bytes) as the bytes of a JSON Lines input.
- ``scoring_cli``: runs the command line in-process; returns (exit status, stdout, stderr).
- ``worked_anchors``: the composite's anchors a hand-worked expectation was made on.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import pytest
from builders import CliResult, cli, jsonl
from published_curves import FIRST, use_anchors

RunFactory = Callable[..., dict[str, Any]]


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


@pytest.fixture
def worked_anchors(monkeypatch: pytest.MonkeyPatch) -> None:
    """For one test, the composite's anchors published with 1.0.0, which its expected
    values were worked out on (a document or a verdict that is the test's point): they
    do not follow a change of the live anchors (``published_curves``)."""
    use_anchors(monkeypatch, FIRST)


@pytest.fixture
def as_jsonl() -> Callable[[Iterable[dict[str, Any] | str | bytes]], bytes]:
    """``as_jsonl(records)``: the bytes of a JSON Lines input."""
    return jsonl


@pytest.fixture
def scoring_cli() -> Callable[..., CliResult]:
    """``scoring_cli(*argv, stdin=b"")``: run ``scoring`` in-process on bytes for stdin."""

    def invoke(*argv: str, stdin: bytes = b"") -> CliResult:
        return cli(list(argv), stdin)

    return invoke
