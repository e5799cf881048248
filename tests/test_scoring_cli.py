"""The command line: the exact JSON of decisions.md on a small input worked out by hand, the
table, stdin, viewer weights, the installed console script, and the order of agents."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scoring.constants import METHODOLOGY_VERSION

REPO = Path(__file__).resolve().parent.parent


def run(
    run_id: str,
    agent: str,
    task: str,
    status: str,
    success: bool | None,
    latency: float | None,
    cost: float | None,
    steps: int | None,
    second: int | None,
) -> dict[str, Any]:
    finished = None if second is None else f"2026-03-01T10:00:{second:02d}+01:00"
    return {
        "run_id": run_id,
        "agent_id": agent,
        "task_id": task,
        "status": status,
        "success": success,
        "latency_ms": latency,
        "cost_usd": cost,
        "steps": steps,
        "finished_at": finished,
    }


def agent_runs(agent: str) -> list[dict[str, Any]]:
    return [
        run(f"{agent}-1", agent, "t1", "completed", True, 1000, 0.02, 4, 1),
        run(f"{agent}-2", agent, "t1", "completed", False, 3000, 0.04, 6, 2),
        run(f"{agent}-3", agent, "t1", "failed", False, None, None, None, 3),
        run(f"{agent}-4", agent, "t2", "timeout", None, None, None, None, 4),
        run(f"{agent}-5", agent, "t2", "queued", None, None, None, None, None),
    ]


SMALL_INPUT = [
    *agent_runs("a1"),
    run("lonely", "a2", "t1", "failed", False, None, None, None, 5),
    run("best", "z9", "t1", "completed", True, 500, 0.001, 2, 6),
    *agent_runs("a0"),
]

# Worked out by hand for a0 and a1 (the same runs):
# composite: completed a?-1, a?-2; p = 1/2; 2 < 5 runs → consistency 1;
#   mean latency (1000 + 3000)/2 = 2000 → 80; mean cost (0.02 + 0.04)/2 = 0.03
#   → 80 − 30·0.02/0.04 = 65; 100 × (0.4·0.5 + 0.3·1·0.8 + 0.3·0.65) = 20 + 24 + 19.5 = 63.5
# radar: window = 4 terminal runs (the queued one never enters)
#   correctness: 1 pass of 3 known → 100/3 = 33.33
#   latency: 2 runs with a latency < 5 → null; raw median (1000 + 3000)/2 = 2000
#   cost: median (0.02 + 0.04)/2 = 0.03 → 100 × (0.11 − 0.03)/0.1 = 80
#   tool efficiency: median (4 + 6)/2 = 5 → 100 − 10·2 = 80
#   robustness: t1 has 3 known (q = 1/3): (2/3 − 1)² = 1/9 → 100/9 = 11.11; t2 has none
#   profile: (100/3 + 80 + 80 + 100/9)/4 = (1840/9)/4 = 460/9 = 51.11
# repeatability: t1 n = 3, c = 1 → pass^1 1/3 = 0.3333, pass^3 0 (c < 3), pass^5 0; 1 task
MIDDLE: dict[str, Any] = {
    "composite": {
        "score": 63.5,
        "success_rate": 0.5,
        "consistency": 1.0,
        "latency_score": 80.0,
        "cost_score": 65.0,
        "completed_runs": 2,
        "zero_success_floor": False,
    },
    "radar": {
        "axes": {
            "correctness": 33.33,
            "latency": None,
            "cost": 80.0,
            "tool_efficiency": 80.0,
            "robustness": 11.11,
        },
        "profile": 51.11,
        "window_runs": 4,
        "median_latency_ms": 2000.0,
    },
    "repeatability": {"pass^1": 0.3333, "pass^3": 0.0, "pass^5": 0.0, "tasks": 1},
}

EXPECTED: dict[str, Any] = {
    "methodology_version": METHODOLOGY_VERSION,
    "agents": [
        # z9: 1 completed pass at 500 ms and $0.001: 100 × (0.4 + 0.3 + 0.3) = 100.
        # radar: correctness 100; latency null (1 < 5), raw 500; cost
        # 100 × (0.11 − 0.001)/0.1 = 109 → clamped 100; steps 2 ≤ 3 → 100; robustness null
        # (one outcome); profile (100 + 100 + 100)/3 = 100. repeatability: 1 outcome → null.
        {
            "agent_id": "z9",
            "composite": {
                "score": 100.0,
                "success_rate": 1.0,
                "consistency": 1.0,
                "latency_score": 100.0,
                "cost_score": 100.0,
                "completed_runs": 1,
                "zero_success_floor": False,
            },
            "radar": {
                "axes": {
                    "correctness": 100.0,
                    "latency": None,
                    "cost": 100.0,
                    "tool_efficiency": 100.0,
                    "robustness": None,
                },
                "profile": 100.0,
                "window_runs": 1,
                "median_latency_ms": 500.0,
            },
            "repeatability": {"pass^1": None, "pass^3": None, "pass^5": None, "tasks": 0},
        },
        {"agent_id": "a0", **MIDDLE},  # ties with a1 at 63.5: by agent_id
        {"agent_id": "a1", **MIDDLE},
        # a2: no completed run → null composite, listed last. radar: one failure →
        # correctness 0, nothing else; profile 0. repeatability: 1 outcome → null.
        {
            "agent_id": "a2",
            "composite": {
                "score": None,
                "success_rate": None,
                "consistency": None,
                "latency_score": None,
                "cost_score": None,
                "completed_runs": 0,
                "zero_success_floor": False,
            },
            "radar": {
                "axes": {
                    "correctness": 0.0,
                    "latency": None,
                    "cost": None,
                    "tool_efficiency": None,
                    "robustness": None,
                },
                "profile": 0.0,
                "window_runs": 1,
                "median_latency_ms": None,
            },
            "repeatability": {"pass^1": None, "pass^3": None, "pass^5": None, "tasks": 0},
        },
    ],
}


def keys_in_order(text: str) -> list[list[str]]:
    """Every object's keys, in the order the JSON text writes them."""
    found: list[list[str]] = []
    json.loads(text, object_pairs_hook=lambda pairs: found.append([k for k, _ in pairs]) or {})
    return found


@pytest.fixture
def small_input(tmp_path: Path, as_jsonl) -> Path:
    path = tmp_path / "runs.jsonl"
    path.write_bytes(as_jsonl(SMALL_INPUT))
    return path


def test_report_json_is_exactly_the_documented_document(small_input, scoring_cli) -> None:
    code, out, err = scoring_cli("report", str(small_input), "--format", "json")
    assert (code, err) == (0, "")
    assert json.loads(out) == EXPECTED
    expected_text = json.dumps(EXPECTED)
    assert keys_in_order(out) == keys_in_order(expected_text)


def test_agents_are_ordered_by_composite_then_id_null_last(as_jsonl, scoring_cli) -> None:
    records = [
        run("n1", "b-null", "t", "failed", False, None, None, None, 1),
        run("n2", "a-null", "t", "timeout", None, None, None, None, 2),
        run("x1", "m-low", "t", "completed", False, 500, 0.001, 3, 3),  # floor: 0
        run("x2", "c-high", "t", "completed", True, 500, 0.001, 3, 4),  # 100
        run("x3", "b-high", "t", "completed", True, 500, 0.001, 3, 5),  # 100
    ]
    code, out, _ = scoring_cli("report", "-", "--format", "json", stdin=as_jsonl(records))
    assert code == 0
    order = [a["agent_id"] for a in json.loads(out)["agents"]]
    assert order == ["b-high", "c-high", "m-low", "a-null", "b-null"]


def test_stdin_and_a_file_give_the_same_report(small_input, scoring_cli) -> None:
    from_file = scoring_cli("report", str(small_input), "--format", "json")
    from_stdin = scoring_cli("report", "-", "--format", "json", stdin=small_input.read_bytes())
    assert from_file == from_stdin
    assert from_file[0] == 0


def test_the_table_is_readable(small_input, scoring_cli) -> None:
    code, out, err = scoring_cli("report", str(small_input))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"methodology {METHODOLOGY_VERSION}"
    for title in (
        "Headline composite (0-100)",
        "Fitness radar (0-100, diagnostic only)",
        "Repeatability (pass^k, fractions)",
    ):
        assert title in lines
    start = lines.index("Headline composite (0-100)")
    header, rule, *rows = lines[start + 1 : start + 7]
    assert header.split() == [
        "agent",
        "composite",
        "success",
        "consistency",
        "latency",
        "cost",
        "completed",
        "floor",
    ]
    assert set(rule.replace(" ", "")) == {"-"}
    assert [row.split()[:2] for row in rows] == [
        ["z9", "100.00"],
        ["a0", "63.50"],
        ["a1", "63.50"],
        ["a2", "—"],
    ]
    # Numbers are right-aligned: every composite cell ends in the same column.
    ends = {row.index(row.split()[1]) + len(row.split()[1]) for row in rows}
    assert len(ends) == 1
    assert rows[1].split()[2:] == ["0.5000", "1.0000", "80.00", "65.00", "2", "no"]


def test_the_table_of_an_empty_input(scoring_cli) -> None:
    code, out, err = scoring_cli("report", "-", stdin=b"")
    assert (code, err) == (0, "")
    assert "Headline composite (0-100)" in out


def test_outcome_table(as_jsonl, scoring_cli) -> None:
    records = [{"run_id": "r1", "judged": {"checklist": 1.0, "recoverable": 0.6}}]
    code, out, _ = scoring_cli("outcome", "-", stdin=as_jsonl(records))
    assert code == 0
    header, _, row = out.splitlines()
    assert header.split()[:3] == ["run_id", "score", "c"]
    assert row.split()[:6] == ["r1", "0.800", "1.000", "judged.checklist", "0.640", "1"]


# --- viewer weights ------------------------------------------------------------------------------


def test_weights_change_the_profile_only(small_input, scoring_cli) -> None:
    plain = json.loads(scoring_cli("report", str(small_input), "--format", "json")[1])
    code, out, err = scoring_cli(
        "report", str(small_input), "--format", "json", "--weights", "correctness=3, cost=1"
    )
    assert (code, err) == (0, "")
    weighted = json.loads(out)
    a1_plain, a1_weighted = plain["agents"][2], weighted["agents"][2]
    assert a1_weighted["agent_id"] == "a1"
    assert a1_weighted["composite"] == a1_plain["composite"]
    assert a1_weighted["radar"]["axes"] == a1_plain["radar"]["axes"]
    assert a1_weighted["repeatability"] == a1_plain["repeatability"]
    # (3 × 100/3 + 1 × 80)/4 = 180/4 = 45
    assert a1_weighted["radar"]["profile"] == 45.0


@pytest.mark.parametrize(
    ("weights", "message"),
    [
        ("speed=1", "'speed=1': expected AXIS=WEIGHT"),
        ("correctness", "'correctness': expected AXIS=WEIGHT"),
        ("cost=-1", "cost: weight must be a finite number >= 0"),
        ("cost=abc", "cost: weight must be a finite number >= 0"),
        ("cost=nan", "cost: weight must be a finite number >= 0"),
        ("cost=inf", "cost: weight must be a finite number >= 0"),
        ("cost=0,latency=0", "at least one weight must be above 0"),
    ],
)
def test_weights_errors(small_input, scoring_cli, weights, message) -> None:
    code, out, err = scoring_cli("report", str(small_input), "--weights", weights)
    assert (code, out) == (2, "")
    assert f"--weights: {message}" in err


def test_an_unknown_format_is_a_usage_error(small_input, scoring_cli) -> None:
    code, out, err = scoring_cli("report", str(small_input), "--format", "yaml")
    assert (code, out) == (2, "")
    assert "invalid choice: 'yaml'" in err


# --- the installed command -----------------------------------------------------------------------


def console_commands() -> list[list[str]]:
    commands = [[sys.executable, "-m", "scoring"]]
    script = Path(sys.executable).with_name("scoring")
    installed = str(script) if script.exists() else shutil.which("scoring")
    if installed:
        commands.append([installed])
    return commands


@pytest.mark.parametrize("command", console_commands(), ids=lambda c: Path(c[-1]).name)
def test_the_console_script(command: list[str], small_input: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(
        [*command, "report", str(small_input), "--format", "json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=False,
    )
    assert (done.returncode, done.stderr) == (0, "")
    assert json.loads(done.stdout) == EXPECTED


def test_the_console_script_on_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"run_id": "x"}\n')
    done = subprocess.run(
        [sys.executable, "-m", "scoring", "report", str(path)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert "line 1: agent_id: required field is missing [missing]" in done.stderr
    assert "Traceback" not in done.stderr
