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

from hypothesis import HealthCheck, settings, strategies as st

from scoring import build_report, report_to_json
from scoring.cli import run
from scoring.formulas.composite import NO_COMPLETED_RUN
from scoring.formulas.repeatability import missing_reason
from scoring.intervals.variance import interval_reason

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


#: The keys of a composite's scores, in the documented order.
COMPOSITE_SCORE_KEYS = (
    "score",
    "success_rate",
    "consistency",
    "latency_score",
    "cost_score",
    "completed_runs",
    "zero_success_floor",
    "mean_latency_ms",
    "mean_cost_usd",
    "reason",
)


def composite_json(
    score: float | None,
    success_rate: float | None,
    consistency: float | None,
    latency: float | None,
    cost: float | None,
    *,
    runs: int,
    floor: bool = False,
    mean_ms: float | None = None,
    mean_usd: float | None = None,
    reason: str | None = None,
) -> dict[str, Any]:
    """An agent's composite as the report prints it (keys in the documented order), without
    the interval keys of 1.1.0 (see :func:`scores_only`), for ``runs`` completed runs whose
    mean latency and cost are ``mean_ms`` and ``mean_usd``. Without a completed run the
    reason is the report's."""
    if runs == 0 and reason is None:
        reason = NO_COMPLETED_RUN
    values = (score, success_rate, consistency, latency, cost, runs, floor, mean_ms, mean_usd)
    return dict(zip(COMPOSITE_SCORE_KEYS, (*values, reason), strict=True))


def _without_interval(composite: dict[str, Any]) -> dict[str, Any]:
    """``composite`` with its interval ``null``, for a cohort of as many tasks as runs."""
    return {
        **composite,
        "interval": None,
        "success_rate_interval": None,
        "interval_reason": interval_reason(composite["completed_runs"]),
    }


#: The composite of an agent without completed runs, as the report prints it.
NULL_COMPOSITE: dict[str, Any] = _without_interval(
    composite_json(None, None, None, None, None, runs=0)
)

#: The composite of an agent with one completed pass, fast and cheap enough that every part
#: is at its best, as the report prints it.
PERFECT_COMPOSITE: dict[str, Any] = _without_interval(
    composite_json(100.0, 1.0, 1.0, 100.0, 100.0, runs=1)
)


def judged_outcome_json(run_id: str) -> dict[str, Any]:
    """What ``scoring outcome --format json`` prints, keys in the documented order, for
    ``{"run_id": run_id, "judged": {"checklist": 1.0, "recoverable": 0.6}}``:
    rec_v = 0.1 + 0.9 × 0.6 = 0.64 and score sqrt(1 × 0.64) = 0.8."""
    return {
        "run_id": run_id,
        "outcome_score": 0.8,
        "correctness": 1.0,
        "correctness_source": "judged.checklist",
        "recoverable_safety_raw": 0.6,
        "recoverable_safety": 0.64,
        "catastrophic_gate": 1,
        "scoring_version": "v1",
        "reason": "c=1.000, rec_v=0.640, cat_v=1",
        "efficiency": None,
    }


def radar_json(
    correctness: float | None,
    latency: float | None,
    cost: float | None,
    tool_efficiency: float | None,
    robustness: float | None,
    *,
    profile: float | None,
    runs: int,
    median_ms: float | None,
) -> dict[str, Any]:
    """An agent's radar as the report prints it (the axes in their documented order), for a
    window of ``runs`` runs whose median latency is ``median_ms``."""
    axes = {
        "correctness": correctness,
        "latency": latency,
        "cost": cost,
        "tool_efficiency": tool_efficiency,
        "robustness": robustness,
    }
    return {
        "axes": axes,
        "profile": profile,
        "window_runs": runs,
        "median_latency_ms": median_ms,
    }


#: The keys methodology 1.1.0 added to the composite, the radar and repeatability.
INTERVAL_KEYS = frozenset(
    {"interval", "success_rate_interval", "interval_reason", "intervals", "interval_reasons"}
)


def scores_only(section: dict[str, Any]) -> dict[str, Any]:
    """A section of an agent (composite, radar, repeatability) without its intervals, for
    tests about the scores themselves (``tests/scoring/test_intervals.py`` checks those)."""
    return {k: v for k, v in section.items() if k not in INTERVAL_KEYS}


def small_agent(
    agent_id: str,
    composite: dict[str, Any],
    radar: dict[str, Any],
    repeatability: dict[str, Any],
    *,
    rank: int | None,
    cohort_tasks: int,
    window_tasks: int,
) -> dict[str, Any]:
    """An agent of a small report, as printed (keys in the documented order): every
    interval ``null`` (too few tasks), with the reasons for a cohort of ``cohort_tasks``
    distinct tasks, ``window_tasks`` in the window with a known outcome and the
    repeatability's qualifying tasks; ``rank_upper_bound`` ``null`` (no interval)."""
    levels = [key for key in repeatability if key.startswith("pass^")]
    # A level is null exactly when no task qualifies at it, in these small reports.
    by_level = {key: 0 if repeatability[key] is None else repeatability["tasks"] for key in levels}
    reasons = {
        key: missing_reason(int(key.removeprefix("pass^"))) if by_level[key] == 0 else None
        for key in levels
    }
    composite_keys = ("interval", "success_rate_interval", "interval_reason")
    plain = {k: v for k, v in composite.items() if k not in composite_keys}
    return {
        "agent_id": agent_id,
        "rank": rank,
        "rank_upper_bound": None,
        "composite": {
            **plain,
            "interval": None,
            "success_rate_interval": None,
            "interval_reason": interval_reason(cohort_tasks),
        },
        "radar": {
            **radar,
            "intervals": {"correctness": None},
            "interval_reasons": {"correctness": interval_reason(window_tasks)},
        },
        "repeatability": {
            **repeatability,
            "intervals": dict.fromkeys(levels),
            "interval_reasons": {
                key: interval_reason(by_level[key], "qualifying tasks") for key in levels
            },
            "tasks_by_level": by_level,
            "reasons": reasons,
        },
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


def good_run(i: int, agent: str = "a", **changes: Any) -> dict[str, Any]:
    """``GOOD`` as run ``r<i>`` of ``agent``, with the ``changes``."""
    return GOOD | {"run_id": f"r{i}", "agent_id": agent} | changes


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
