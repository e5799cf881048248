"""The command line: the exact JSON of docs/reference.md on small inputs worked out by hand, the
table, stdin, viewer weights, the outcome JSON, the order of agents and the installed
console script.

The documents worked out by hand are the point of their tests: they were worked out on the
composite's anchors published with 1.0.0, which those tests set (``worked_anchors``), so
they do not follow a change of the live anchors. The commands run as processes compare
with the same command run in-process on the live anchors.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest
from builders import (
    NULL_COMPOSITE,
    PERFECT_COMPOSITE,
    cli,
    composite_json,
    good_run,
    jsonl,
    judged_outcome_json,
    radar_json,
    run_fields,
    scoring_subprocess,
    small_agent,
)
from processes import run_captured

from scoring.constants import METHODOLOGY_VERSION, PASS_K_LEVELS, RADAR_DEFAULT_WEIGHTS
from scoring.report.write import (
    COMPOSITE_TITLE,
    NO_INTERVAL,
    RADAR_TITLE,
    RANK_LEGEND,
    REPEATABILITY_TITLE,
)


def _small_input() -> bytes:
    # run_fields(run_id, agent, task, status, success, latency_ms, cost_usd, steps, finished_at)
    rows = [
        run_fields("a1", "alpha", "t1", "completed", True, 1000, 0.02, 3, "2024-01-01T10:00:00Z"),
        run_fields(
            "a2", "alpha", "t1", "completed", True, 2000, 0.03, 4, "2024-01-01T11:00:00+01:00"
        ),
        run_fields("a3", "alpha", "t2", "completed", True, 3000, 0.04, 5, "2024-01-01T10:02:00Z"),
        run_fields(
            "a4", "alpha", "t2", "completed", False, 1500, 0.03, 6, "2024-01-01T05:03:00-05:00"
        ),
        run_fields(
            "a5", "alpha", "t3", "completed", True, 2500, 0.03, None, "2024-01-01T10:04:00Z"
        ),
        run_fields("a6", "alpha", "t1", "failed", False, None, None, 9, "2024-01-01T10:05:00Z"),
        run_fields("b1", "beta", "t1", "completed", True, 400, 0.001, None, "2024-01-02T00:00:00Z"),
        run_fields("b2", "beta", "t1", "queued", False, 99999, 9.0, 50, None),
        run_fields("c1", "gamma", "t1", "failed", False, 700, 0.2, None, "2024-01-03T00:00:00Z"),
        run_fields("c2", "gamma", "t2", "timeout", None, None, None, None, "2024-01-03T00:01:00Z"),
        run_fields(
            "d1", "delta", "t1", "completed", False, 100, 0.0005, None, "2024-01-04T00:00:00Z"
        ),
        run_fields(
            "d2", "delta", "t1", "completed", False, 100, 0.0005, None, "2024-01-04T00:01:00Z"
        ),
    ]
    return jsonl(rows)


# alpha: 5 completed runs, 4 successes: p = 0.8, consistency 1 − 4 × 0.8 × 0.2 = 0.36.
#   mean latency (1000 + 2000 + 3000 + 1500 + 2500) / 5 = 2000 → 80;
#   mean cost (0.02 + 0.03 + 0.04 + 0.03 + 0.03) / 5 = 0.03 → 80 − 750 × 0.02 = 65;
#   composite = 100 × (0.4 × 0.8 + 0.3 × 0.36 × 0.8 + 0.3 × 0.65) = 32 + 8.64 + 19.5 = 60.14.
#   window: 6 terminal runs; known 6, passes 4 → 66.666… → 66.67;
#   latencies 1000, 1500, 2000, 2500, 3000 → median 2000 → 100 − 2 × 15 = 70;
#   costs → median 0.03 → 100 × 0.08 / 0.1 = 80; steps 3, 4, 5, 6, 9 → 5 → 80;
#   robustness: t1 (2 of 3) → 1/9, t2 (1 of 2) → 0, t3 (1 outcome) out → 100/18 = 5.56;
#   profile = (200/3 + 70 + 80 + 80 + 50/9) / 5 = (2720/9) / 5 = 544/9 = 60.44.
#   repeatability: t1 n = 3, c = 2 qualifies (t2 n = 2, t3 n = 1 do not):
#   pass^1 = 2/3 → 0.6667, pass^3 = 0, pass^5 null (no task has 5 outcomes), tasks 1.
# beta: 1 completed success (the queued run enters nothing): p = 1, consistency 1 (1 < 5);
#   400 ms → 100; $0.001 → 100; composite 100. Window 1 run: correctness 100; latency null
#   (1 < 5) with median 400; cost 100 × (0.11 − 0.001)/0.1 = 109 → 100; tool null;
#   robustness null; profile (100 + 100) / 2 = 100. No qualifying task.
# gamma: no completed run: composite null. Window 2 runs: correctness 0/1 = 0; latency null
#   (median 700); cost 100 × (0.11 − 0.2)/0.1 = −90 → 0; profile (0 + 0) / 2 = 0.
# delta: 2 completed failures: floor 0; latency 100 ms → 100; $0.0005 → 100; consistency 1.
#   Window: correctness 0; latency null (median 100); cost → 100 (clamped from 109.5);
#   robustness t1 (0 of 2) → determinism 1 → 100; profile (0 + 100 + 100) / 3 = 66.67.
#: What the report says it weighed the radar profile with, given no --weights: the default
#: weights, which sum to 1 already.
DEFAULT_PROFILE_WEIGHTS = {
    "source": "default",
    "weights": {axis.value: float(weight) for axis, weight in RADAR_DEFAULT_WEIGHTS.items()},
}

EXPECTED = {
    "methodology_version": METHODOLOGY_VERSION,
    "pass_k_levels": list(PASS_K_LEVELS),
    "profile_weights": DEFAULT_PROFILE_WEIGHTS,
    "notes": [],
    "agents": [
        small_agent(
            "beta",
            {**PERFECT_COMPOSITE, "mean_latency_ms": 400.0, "mean_cost_usd": 0.001},
            radar_json(100.0, None, 100.0, None, None, profile=100.0, runs=1, median_ms=400.0),
            {"pass^1": None, "pass^3": None, "pass^5": None, "tasks": 0},
            rank=1,
            cohort_tasks=1,
            window_tasks=1,
        ),
        small_agent(
            "alpha",
            composite_json(60.14, 0.8, 0.36, 80.0, 65.0, runs=5, mean_ms=2000.0, mean_usd=0.03),
            radar_json(66.67, 70.0, 80.0, 80.0, 5.56, profile=60.44, runs=6, median_ms=2000.0),
            {"pass^1": 0.6667, "pass^3": 0.0, "pass^5": None, "tasks": 1},
            rank=2,
            cohort_tasks=3,
            window_tasks=3,
        ),
        small_agent(
            "delta",
            composite_json(
                0.0, 0.0, 1.0, 100.0, 100.0, runs=2, floor=True, mean_ms=100.0, mean_usd=0.0005
            ),
            radar_json(0.0, None, 100.0, None, 100.0, profile=66.67, runs=2, median_ms=100.0),
            {"pass^1": None, "pass^3": None, "pass^5": None, "tasks": 0},
            rank=3,
            cohort_tasks=1,
            window_tasks=1,
        ),
        small_agent(
            "gamma",
            NULL_COMPOSITE,
            radar_json(0.0, None, 0.0, None, None, profile=0.0, runs=2, median_ms=700.0),
            {"pass^1": None, "pass^3": None, "pass^5": None, "tasks": 0},
            rank=None,
            cohort_tasks=0,
            window_tasks=1,
        ),
    ],
}


def _key_paths(value: Any, prefix: str = "") -> list[str]:
    if isinstance(value, dict):
        paths = []
        for key, item in value.items():
            paths.append(prefix + key)
            paths += _key_paths(item, prefix + key + ".")
        return paths
    if isinstance(value, list):
        return [p for i, item in enumerate(value) for p in _key_paths(item, f"{prefix}{i}.")]
    return []


def test_report_json_exact(tmp_path: Path, worked_anchors: None) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_bytes(_small_input())
    code, out, err = cli(["report", str(path), "--format", "json"])
    assert (code, err) == (0, "")
    document = json.loads(out)
    assert document == EXPECTED
    assert _key_paths(document) == _key_paths(EXPECTED)  # key order too


def test_report_dash_reads_stdin(tmp_path: Path, worked_anchors: None) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_bytes(_small_input())
    from_file = cli(["report", str(path), "--format", "json"])
    from_stdin = cli(["report", "-", "--format", "json"], _small_input())
    assert from_stdin == from_file
    assert json.loads(from_stdin[1]) == EXPECTED


def test_report_table_default(worked_anchors: None) -> None:
    code, out, err = cli(["report", "-"], _small_input())
    assert (code, err) == (0, "")
    for text in (
        "Headline composite",
        "Fitness radar",
        "Repeatability",
        "composite",
        "correctness",
        "robustness",
        "pass^1",
        "pass^5",
        "alpha",
        "beta",
        "gamma",
        "delta",
        "60.14",
        "0.6667",
    ):
        assert text in out, text
    assert out.index("beta") < out.index("alpha") < out.index("delta") < out.index("gamma")


@pytest.mark.parametrize("fmt", ["table", "json"])
def test_empty_input_is_scored_as_no_agents(fmt: str) -> None:
    code, out, err = cli(["report", "-", "--format", fmt], b"\n\n")
    assert (code, err) == (0, "scoring report: no runs in stdin\n")
    if fmt == "json":
        assert json.loads(out) == {
            "methodology_version": METHODOLOGY_VERSION,
            "pass_k_levels": list(PASS_K_LEVELS),
            "profile_weights": DEFAULT_PROFILE_WEIGHTS,
            "notes": [],
            "agents": [],
        }
    else:
        assert "Headline composite" in out
    code, out, err = cli(["outcome", "-", "--format", fmt], b"")
    assert (code, err) == (0, "scoring outcome: no records in stdin\n")
    assert out.strip() == ("[]" if fmt == "json" else "no records")


def test_report_weights_change_the_profile_only() -> None:
    plain = json.loads(cli(["report", "-", "--format", "json"], _small_input())[1])
    code, out, err = cli(
        ["report", "-", "--format", "json", "--weights", "correctness=2,cost=1"], _small_input()
    )
    assert (code, err) == (0, "")
    weighted = json.loads(out)
    # alpha: (2 × 200/3 + 80) / 3 = (400/3 + 240/3) / 3 = 640/9 = 71.11
    # beta: (2 × 100 + 100) / 3 = 100; delta: (0 + 100) / 3 = 33.33; gamma: 0
    profiles = {a["agent_id"]: a["radar"]["profile"] for a in weighted["agents"]}
    assert profiles == {"alpha": 71.11, "beta": 100.0, "delta": 33.33, "gamma": 0.0}
    for before, after in zip(plain["agents"], weighted["agents"], strict=True):
        assert before["agent_id"] == after["agent_id"]
        assert before["composite"] == after["composite"]
        assert before["radar"]["axes"] == after["radar"]["axes"]
        assert before["repeatability"] == after["repeatability"]


@pytest.mark.parametrize(
    "weights",
    [
        "foo=1",
        "correctness",
        "correctness=",
        "correctness=abc",
        "correctness=-1",
        "correctness=nan",
        "correctness=inf",
        "correctness=0",
        "correctness=0,cost=0",
        "",
    ],
)
def test_bad_weights_exit_2(weights: str) -> None:
    code, out, err = cli(["report", "-", "--weights", weights], _small_input())
    assert (code, out) == (2, "")
    assert "--weights" in err
    assert "Traceback" not in err


# --- outcome JSON --------------------------------------------------------------------------


def test_subprocess_outcome_json_keys_and_input_order(tmp_path: Path) -> None:
    records = [
        {"run_id": "z", "judged": {"checklist": 1.0, "recoverable": 0.6}},
        {
            "run_id": "a",
            "verification": [
                {"name": "c", "role": "safeguard", "severity": "catastrophic", "status": "error"}
            ],
            "judged": {"checklist": 1.0},
            "efficiency": {"latency_sec": 3.5, "total_tokens": 100},
        },
        {"run_id": "m"},
    ]
    path = tmp_path / "outcomes.jsonl"
    path.write_bytes(jsonl(records))
    done = scoring_subprocess(["outcome", str(path), "--format", "json"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    document = json.loads(done.stdout)
    assert isinstance(document, list)
    assert [o["run_id"] for o in document] == ["z", "a", "m"]
    for item in document:
        assert list(item) == list(judged_outcome_json(item["run_id"]))
    assert document[0] == judged_outcome_json("z")
    assert document[1]["outcome_score"] == 0.0
    assert document[1]["catastrophic_gate"] == 0
    assert document[1]["efficiency"] == {"latency_sec": 3.5, "total_tokens": 100}
    assert document[2]["outcome_score"] is None
    assert document[2]["correctness"] is None


def test_outcome_stdin_and_table() -> None:
    stdin = b'{"run_id": "only", "judged": {"outcome_validity": 0.5}}\n'
    code, out, err = cli(["outcome", "-", "--format", "json"], stdin)
    assert (code, err) == (0, "")
    assert json.loads(out)[0]["correctness_source"] == "judged.outcome_validity"
    code, out, _ = cli(["outcome", "-"], stdin)
    assert code == 0
    assert "only" in out
    assert "reason" in out
    assert "rec_v=n/a" in out


def test_subprocess_report_success(tmp_path: Path) -> None:
    done = scoring_subprocess(["report", "-", "--format", "json"], tmp_path, stdin=_small_input())
    in_process = json.loads(cli(["report", "-", "--format", "json"], _small_input())[1])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == in_process


from contracts.source import REPO_ROOT as REPO  # noqa: E402 - the one root


def run_row(
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
    return run_fields(run_id, agent, task, status, success, latency, cost, steps, finished)


def agent_runs(agent: str) -> list[dict[str, Any]]:
    return [
        run_row(f"{agent}-1", agent, "t1", "completed", True, 1000, 0.02, 4, 1),
        run_row(f"{agent}-2", agent, "t1", "completed", False, 3000, 0.04, 6, 2),
        run_row(f"{agent}-3", agent, "t1", "failed", False, None, None, None, 3),
        run_row(f"{agent}-4", agent, "t2", "timeout", None, None, None, None, 4),
        run_row(f"{agent}-5", agent, "t2", "queued", None, None, None, None, None),
    ]


SMALL_INPUT = [
    *agent_runs("a1"),
    run_row("lonely", "a2", "t1", "failed", False, None, None, None, 5),
    run_row("best", "z9", "t1", "completed", True, 500, 0.001, 2, 6),
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
# repeatability: t1 n = 3, c = 1 → pass^1 1/3 = 0.3333, pass^3 0 (c < 3), pass^5 null; 1 task
MIDDLE: tuple[dict[str, Any], dict[str, Any], dict[str, Any]] = (
    composite_json(63.5, 0.5, 1.0, 80.0, 65.0, runs=2, mean_ms=2000.0, mean_usd=0.03),
    radar_json(33.33, None, 80.0, 80.0, 11.11, profile=51.11, runs=4, median_ms=2000.0),
    {"pass^1": 0.3333, "pass^3": 0.0, "pass^5": None, "tasks": 1},
)

# Every agent has fewer than 10 tasks: every interval is null, with its reason; a0 and a1
# share rank 2 (equal composites), a2 has none (null composite).
DOCUMENTED_REPORT: dict[str, Any] = {
    "methodology_version": METHODOLOGY_VERSION,
    "pass_k_levels": list(PASS_K_LEVELS),
    "profile_weights": DEFAULT_PROFILE_WEIGHTS,
    "notes": [],
    "agents": [
        # z9: 1 completed pass at 500 ms and $0.001: 100 × (0.4 + 0.3 + 0.3) = 100.
        # radar: correctness 100; latency null (1 < 5), raw 500; cost
        # 100 × (0.11 − 0.001)/0.1 = 109 → clamped 100; steps 2 ≤ 3 → 100; robustness null
        # (one outcome); profile (100 + 100 + 100)/3 = 100. repeatability: 1 outcome → null.
        small_agent(
            "z9",
            {**PERFECT_COMPOSITE, "mean_latency_ms": 500.0, "mean_cost_usd": 0.001},
            radar_json(100.0, None, 100.0, 100.0, None, profile=100.0, runs=1, median_ms=500.0),
            {"pass^1": None, "pass^3": None, "pass^5": None, "tasks": 0},
            rank=1,
            cohort_tasks=1,
            window_tasks=1,
        ),
        # ties with a1 at 63.5: by agent_id; one task in the cohort and one known in the window
        small_agent("a0", *MIDDLE, rank=2, cohort_tasks=1, window_tasks=1),
        small_agent("a1", *MIDDLE, rank=2, cohort_tasks=1, window_tasks=1),
        # a2: no completed run → null composite, listed last. radar: one failure →
        # correctness 0, nothing else; profile 0. repeatability: 1 outcome → null.
        small_agent(
            "a2",
            NULL_COMPOSITE,
            radar_json(0.0, None, None, None, None, profile=0.0, runs=1, median_ms=None),
            {"pass^1": None, "pass^3": None, "pass^5": None, "tasks": 0},
            rank=None,
            cohort_tasks=0,
            window_tasks=1,
        ),
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


def test_report_json_is_exactly_the_documented_document(
    small_input, scoring_cli, worked_anchors
) -> None:
    code, out, err = scoring_cli("report", str(small_input), "--format", "json")
    assert (code, err) == (0, "")
    assert json.loads(out) == DOCUMENTED_REPORT
    expected_text = json.dumps(DOCUMENTED_REPORT)
    assert keys_in_order(out) == keys_in_order(expected_text)


def test_agents_are_ordered_by_composite_then_id_null_last(as_jsonl, scoring_cli) -> None:
    records = [
        run_row("n1", "b-null", "t", "failed", False, None, None, None, 1),
        run_row("n2", "a-null", "t", "timeout", None, None, None, None, 2),
        run_row("x1", "m-low", "t", "completed", False, 500, 0.001, 3, 3),  # floor: 0
        run_row("x2", "c-high", "t", "completed", True, 500, 0.001, 3, 4),  # 100
        run_row("x3", "b-high", "t", "completed", True, 500, 0.001, 3, 5),  # 100
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


def test_the_table_is_readable(small_input, scoring_cli, worked_anchors, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # a terminal wide enough for each table at once
    code, out, err = scoring_cli("report", str(small_input))
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == f"methodology {METHODOLOGY_VERSION}"
    for title in (COMPOSITE_TITLE, RADAR_TITLE, REPEATABILITY_TITLE):
        assert title in lines
    start = lines.index(COMPOSITE_TITLE)
    header, rule, *rows = lines[start + 1 : start + 7]
    assert " ".join(header.split()) == (
        "agent rank composite success consistency latency score mean ms cost score mean USD "
        "completed floor"
    )
    assert set(rule.replace(" ", "")) == {"-"}
    # The rank and its upper bound (none: fewer than 10 tasks, so no interval), then the
    # composite, which has no interval either.
    assert [row.split()[:4] for row in rows] == [
        ["z9", "1", "(UB", "—)"],
        ["a0", "2", "(UB", "—)"],
        ["a1", "2", "(UB", "—)"],
        ["a2", "—", "—", "—"],
    ]
    assert [row.split()[4] for row in rows[:3]] == ["100.00", "63.50", "63.50"]
    # Numbers are right-aligned: every composite cell ends in the same column.
    ends = {row.index(row.split()[4]) + len(row.split()[4]) for row in rows[:3]}
    assert len(ends) == 1
    assert rows[1].split()[5:] == ["0.5000", "1.0000", "80.00", "2000", "65.00", "0.03", "2", "no"]
    # Each score printed without an interval says why, under its table; a null score
    # (a2's) does not.
    notes = lines[lines.index(RANK_LEGEND) + 1 :]
    assert notes[0] == NO_INTERVAL
    assert [n.split(":")[0].strip() for n in notes[1:4]] == ["z9", "a0", "a1"]
    assert all(
        n.endswith(": composite and success: fewer than 10 distinct tasks (1)") for n in notes[1:4]
    ), notes[1:4]


def test_a_table_with_every_interval_has_no_notes(scoring_cli, as_jsonl) -> None:
    """No reason line where every score has its interval: the notes cannot be constant."""
    runs = [
        good_run(
            12 * i + t,
            agent="many",
            task_id=f"t{t}",
            success=(t + i) % 3 != 0,
            latency_ms=1000 + 10 * t,
            finished_at=f"2024-01-01T00:{t:02d}:{i:02d}Z",
        )
        for t in range(12)
        for i in range(5)
    ]
    code, out, err = scoring_cli("report", "-", stdin=as_jsonl(runs))
    assert (code, err) == (0, "")
    assert NO_INTERVAL not in out.splitlines()


def test_the_table_of_an_empty_input(scoring_cli) -> None:
    code, out, err = scoring_cli("report", "-", stdin=b"")
    assert (code, err) == (0, "scoring report: no runs in stdin\n")
    assert COMPOSITE_TITLE in out


def test_outcome_table(as_jsonl, scoring_cli, monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # one block: the blocks are tested in test_messages
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
    done = run_captured(
        [*command, "report", str(small_input), "--format", "json"], env=env, timeout=60
    )
    assert (done.returncode, done.stderr) == (0, "")
    in_process = cli(["report", str(small_input), "--format", "json"])[1]
    assert json.loads(done.stdout) == json.loads(in_process)


def test_the_console_script_on_bad_input(tmp_path: Path) -> None:
    path = tmp_path / "bad.jsonl"
    path.write_text('{"run_id": "x"}\n')
    done = run_captured(
        [sys.executable, "-m", "scoring", "report", str(path)],
        env={**os.environ, "PYTHONPATH": str(REPO)},
        timeout=60,
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert "line 1: agent_id: required field is missing [missing]" in done.stderr
    assert "Traceback" not in done.stderr
