"""Input validation and the command line: bad input exits 2 with one line per problem on
stderr and nothing on stdout; good input gives the exact JSON of decisions.md."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from scoring.cli import run
from scoring.constants import METHODOLOGY_VERSION

# --- helpers --------------------------------------------------------------------------------

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


def good(run_id: str, **changes: Any) -> bytes:
    return json.dumps(GOOD | {"run_id": run_id} | changes).encode()


def cli(argv: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = run(argv, stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def problem_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("line ")]


def _subprocess(args: list[str], cwd: Path, stdin: bytes = b"") -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "scoring", *args],
        input=stdin,
        capture_output=True,
        cwd=cwd,
        env=os.environ.copy(),
        timeout=60,
        check=False,
    )


# --- bad run records ----------------------------------------------------------------------

_without_latency = {k: v for k, v in GOOD.items() if k != "latency_ms"}

BAD_LINES: list[tuple[str, bytes, str | None, str]] = [
    # (case, line 3 of the input, field named, words of the rule)
    ("unknown field", good("b", foo=1), "foo", "unknown field"),
    ("success as a string", good("b", success="true"), "success", "valid boolean"),
    ("steps as a float", good("b", steps=3.0), "steps", "valid integer"),
    ("latency NaN", good("b").replace(b"1000", b"NaN"), "latency_ms", "finite number"),
    ("latency Infinity", good("b").replace(b"1000", b"Infinity"), "latency_ms", "finite number"),
    ("cost -Infinity", good("b").replace(b"0.01", b"-Infinity"), "cost_usd", "finite number"),
    ("negative latency", good("b", latency_ms=-0.5), "latency_ms", "greater than or equal to 0"),
    ("negative steps", good("b", steps=-1), "steps", "greater than or equal to 0"),
    (
        "latency absent on completed",
        json.dumps(_without_latency | {"run_id": "b"}).encode(),
        "latency_ms",
        "required (not null) on a completed run",
    ),
    (
        "latency null on completed",
        good("b", latency_ms=None),
        "latency_ms",
        "required (not null) on a completed run",
    ),
    (
        "cost null on completed",
        good("b", cost_usd=None),
        "cost_usd",
        "required (not null) on a completed run",
    ),
    (
        "finished_at null on failed",
        good("b", status="failed", finished_at=None),
        "finished_at",
        "required (not null) on a failed run",
    ),
    (
        "finished_at null on timeout",
        good("b", status="timeout", finished_at=None),
        "finished_at",
        "required (not null) on a timeout run",
    ),
    (
        "timestamp without offset",
        good("b", finished_at="2024-01-01T00:00:00"),
        "finished_at",
        "with an offset",
    ),
    ("unknown status", good("b", status="done"), "status", "'queued'"),
    (
        "missing agent_id",
        json.dumps({"run_id": "b", "status": "queued", "task_id": "t"}).encode(),
        "agent_id",
        "required field is missing",
    ),
    ("duplicate run_id", good("g1"), "run_id", "duplicate run_id 'g1'"),
    ("not JSON", b'{"run_id": "b", ', None, "not valid JSON"),
    ("invalid UTF-8", b'{"run_id": "b\xff\xfe"}', None, "not UTF-8"),
    ("JSON array", b"[1, 2, 3]", None, "must be a JSON object"),
    ("JSON array of a record", b"[" + good("b") + b"]", None, "must be a JSON object"),
    ("JSON string", b'"hello"', None, "must be a JSON object"),
]


@pytest.mark.parametrize(
    ("line", "field", "rule"), [c[1:] for c in BAD_LINES], ids=[c[0] for c in BAD_LINES]
)
def test_bad_run_record_exits_2_names_line_field_rule(
    line: bytes, field: str | None, rule: str
) -> None:
    stdin = good("g1") + b"\n" + good("g2") + b"\n" + line + b"\n" + good("g4") + b"\n"
    code, out, err = cli(["report", "-", "--format", "json"], stdin)
    assert code == 2
    assert out == ""
    listed = problem_lines(err)
    assert len(listed) == 1, err
    assert listed[0].startswith(f"line 3: {field}: " if field else "line 3: ")
    assert rule in listed[0]
    assert "Traceback" not in err


@pytest.mark.parametrize("stamp", ["1700000000", "1700000000.5"])
def test_unix_time_string_is_not_an_rfc3339_timestamp_with_offset(stamp: str) -> None:
    # decisions.md: finished_at is an "RFC 3339 timestamp with offset". A string holding
    # Unix seconds is neither RFC 3339 nor carries an offset; it must be refused like any
    # other timestamp without offset, not read silently as UTC.
    stdin = good("g1") + b"\n" + good("g2") + b"\n" + good("b", finished_at=stamp) + b"\n"
    code, out, err = cli(["report", "-", "--format", "json"], stdin)
    assert (code, out) == (2, ""), out[:200]
    listed = problem_lines(err)
    assert len(listed) == 1
    assert listed[0].startswith("line 3: finished_at: ")


def test_blank_lines_keep_the_line_numbers() -> None:
    stdin = good("g1") + b"\n\n   \n" + good("b", steps=-2) + b"\n"
    code, out, err = cli(["report", "-"], stdin)
    assert (code, out) == (2, "")
    assert problem_lines(err) == [
        "line 4: steps: Input should be greater than or equal to 0 (got -2) [greater_than_equal]"
    ]


def test_no_output_even_when_the_bad_line_is_last_of_many() -> None:
    lines = [good(f"r{i}") for i in range(5000)] + [good("r17")]
    code, out, err = cli(["report", "-", "--format", "json"], b"\n".join(lines) + b"\n")
    assert (code, out) == (2, "")
    assert problem_lines(err) == ["line 5001: run_id: duplicate run_id 'r17' [unique]"]


def test_more_than_20_problems_lists_20_then_counts() -> None:
    lines = [good("ok")]
    lines += [good(f"b{i}", steps=-1) for i in range(23)]  # lines 2..24
    lines += [good(f"c{i}", success="yes") for i in range(2)]  # lines 25..26
    code, out, err = cli(["report", "-"], b"\n".join(lines) + b"\n")
    assert (code, out) == (2, "")
    listed = problem_lines(err)
    assert len(listed) == 20
    assert [line.split(":")[0] for line in listed] == [f"line {n}" for n in range(2, 22)]
    assert err.rstrip("\n").splitlines()[-1] == "... and 5 more problems"


def test_exactly_20_problems_has_no_count_line() -> None:
    lines = [good(f"b{i}", steps=-1) for i in range(20)]
    code, _, err = cli(["report", "-"], b"\n".join(lines) + b"\n")
    assert code == 2
    assert len(problem_lines(err)) == 20
    assert "more problems" not in err


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope.jsonl"
    code, out, err = cli(["report", str(missing)])
    assert (code, out) == (2, "")
    assert str(missing) in err
    assert "No such file" in err
    assert "Traceback" not in err
    code, out, err = cli(["outcome", str(missing), "--format", "json"])
    assert (code, out) == (2, "")
    assert "cannot read" in err


def test_bad_arguments_return_2_through_the_given_streams() -> None:
    # run() "returns the exit status" and writes to the streams it is given; the module
    # promises exit status 2 on bad arguments with the problem on stderr.
    out, err = io.StringIO(), io.StringIO()
    try:
        code = run(
            ["report", "-", "--format", "xml"], stdin=io.BytesIO(b""), stdout=out, stderr=err
        )
    except SystemExit as exit_:  # argparse exits instead of returning
        pytest.fail(f"run() raised SystemExit({exit_.code}) instead of returning 2")
    assert code == 2
    assert out.getvalue() == ""
    assert "--format" in err.getvalue()


def test_subprocess_bad_arguments_exit_2(tmp_path: Path) -> None:
    done = _subprocess(["report", "-", "--format", "xml"], tmp_path, stdin=good("g1"))
    assert done.returncode == 2
    assert done.stdout == b""
    assert b"--format" in done.stderr
    assert b"Traceback" not in done.stderr


# --- bad outcome records -------------------------------------------------------------------

BAD_OUTCOMES: list[tuple[str, dict[str, Any], str, str]] = [
    (
        "safeguard without severity",
        {"run_id": "x", "verification": [{"name": "s", "role": "safeguard", "status": "passed"}]},
        "verification.0.severity",
        "required on a safeguard",
    ),
    (
        "objective with severity",
        {
            "run_id": "x",
            "verification": [
                {"name": "o", "role": "objective", "severity": "recoverable", "status": "passed"}
            ],
        },
        "verification.0.severity",
        "must be absent on an objective",
    ),
    (
        "weight 0",
        {
            "run_id": "x",
            "verification": [
                {"name": "o", "role": "objective", "status": "passed"},
                {"name": "p", "role": "objective", "status": "passed", "weight": 0},
            ],
        },
        "verification.1.weight",
        "greater than 0",
    ),
    (
        "judged 1.5",
        {"run_id": "x", "judged": {"checklist": 1.5}},
        "judged.checklist",
        "less than or equal to 1",
    ),
    (
        "judged negative",
        {"run_id": "x", "judged": {"recoverable": -0.1}},
        "judged.recoverable",
        "greater than or equal to 0",
    ),
    (
        "unknown status",
        {"run_id": "x", "verification": [{"name": "o", "role": "objective", "status": "skipped"}]},
        "verification.0.status",
        "'passed'",
    ),
    ("unknown field", {"run_id": "x", "score": 1}, "score", "unknown field"),
    ("duplicate run_id", {"run_id": "first"}, "run_id", "duplicate run_id 'first'"),
]


@pytest.mark.parametrize(
    ("record", "field", "rule"), [c[1:] for c in BAD_OUTCOMES], ids=[c[0] for c in BAD_OUTCOMES]
)
def test_bad_outcome_record_exits_2(record: dict[str, Any], field: str, rule: str) -> None:
    stdin = b'{"run_id": "first"}\n' + json.dumps(record).encode() + b"\n"
    code, out, err = cli(["outcome", "-", "--format", "json"], stdin)
    assert (code, out) == (2, "")
    listed = problem_lines(err)
    assert len(listed) == 1, err
    assert listed[0].startswith(f"line 2: {field}: ")
    assert rule in listed[0]


def test_judged_1_5_rule_is_named() -> None:
    stdin = b'{"run_id": "x", "judged": {"checklist": 1.5}}\n'
    _, _, err = cli(["outcome", "-"], stdin)
    assert problem_lines(err) == [
        "line 1: judged.checklist: Input should be less than or equal to 1 (got 1.5) "
        "[less_than_equal]"
    ]


# --- a real subprocess ---------------------------------------------------------------------


def test_subprocess_bad_input_and_missing_file(tmp_path: Path) -> None:
    bad = tmp_path / "runs.jsonl"
    bad.write_bytes(good("g1") + b"\n" + good("b", cost_usd=float("nan")))
    done = _subprocess(["report", str(bad), "--format", "json"], tmp_path)
    assert done.returncode == 2
    assert done.stdout == b""
    listed = problem_lines(done.stderr.decode())
    assert listed == [
        "line 2: cost_usd: must be a finite number (NaN and Infinity are refused) [finite_number]"
    ]
    missing = _subprocess(["report", str(tmp_path / "absent.jsonl")], tmp_path)
    assert missing.returncode == 2
    assert missing.stdout == b""
    assert b"absent.jsonl" in missing.stderr
    assert b"Traceback" not in missing.stderr


# --- success: the exact JSON of a small input ------------------------------------------------


def _small_input() -> bytes:
    def line(**fields: Any) -> str:
        record = {
            "success": None,
            "latency_ms": None,
            "cost_usd": None,
            "steps": None,
            "finished_at": None,
        } | fields
        return json.dumps(record)

    def done(run_id: str, agent: str, task: str, success: Any, ms: Any, usd: Any, **kw: Any):
        return line(
            run_id=run_id,
            agent_id=agent,
            task_id=task,
            status="completed",
            success=success,
            latency_ms=ms,
            cost_usd=usd,
            **kw,
        )

    rows = [
        done("a1", "alpha", "t1", True, 1000, 0.02, steps=3, finished_at="2024-01-01T10:00:00Z"),
        done(
            "a2", "alpha", "t1", True, 2000, 0.03, steps=4, finished_at="2024-01-01T11:00:00+01:00"
        ),
        done("a3", "alpha", "t2", True, 3000, 0.04, steps=5, finished_at="2024-01-01T10:02:00Z"),
        done(
            "a4", "alpha", "t2", False, 1500, 0.03, steps=6, finished_at="2024-01-01T05:03:00-05:00"
        ),
        done("a5", "alpha", "t3", True, 2500, 0.03, finished_at="2024-01-01T10:04:00Z"),
        line(
            run_id="a6",
            agent_id="alpha",
            task_id="t1",
            status="failed",
            success=False,
            steps=9,
            finished_at="2024-01-01T10:05:00Z",
        ),
        done("b1", "beta", "t1", True, 400, 0.001, finished_at="2024-01-02T00:00:00Z"),
        line(
            run_id="b2",
            agent_id="beta",
            task_id="t1",
            status="queued",
            success=False,
            latency_ms=99999,
            cost_usd=9.0,
            steps=50,
        ),
        line(
            run_id="c1",
            agent_id="gamma",
            task_id="t1",
            status="failed",
            success=False,
            latency_ms=700,
            cost_usd=0.2,
            finished_at="2024-01-03T00:00:00Z",
        ),
        line(
            run_id="c2",
            agent_id="gamma",
            task_id="t2",
            status="timeout",
            finished_at="2024-01-03T00:01:00Z",
        ),
        done("d1", "delta", "t1", False, 100, 0.0005, finished_at="2024-01-04T00:00:00Z"),
        done("d2", "delta", "t1", False, 100, 0.0005, finished_at="2024-01-04T00:01:00Z"),
    ]
    return "\n".join(rows).encode() + b"\n"


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
#   pass^1 = 2/3 → 0.6667, pass^3 = 0, pass^5 = 0, tasks 1.
# beta: 1 completed success (the queued run enters nothing): p = 1, consistency 1 (1 < 5);
#   400 ms → 100; $0.001 → 100; composite 100. Window 1 run: correctness 100; latency null
#   (1 < 5) with median 400; cost 100 × (0.11 − 0.001)/0.1 = 109 → 100; tool null;
#   robustness null; profile (100 + 100) / 2 = 100. No qualifying task.
# gamma: no completed run: composite null. Window 2 runs: correctness 0/1 = 0; latency null
#   (median 700); cost 100 × (0.11 − 0.2)/0.1 = −90 → 0; profile (0 + 0) / 2 = 0.
# delta: 2 completed failures: floor 0; latency 100 ms → 100; $0.0005 → 100; consistency 1.
#   Window: correctness 0; latency null (median 100); cost → 100 (clamped from 109.5);
#   robustness t1 (0 of 2) → determinism 1 → 100; profile (0 + 100 + 100) / 3 = 66.67.
EXPECTED = {
    "methodology_version": METHODOLOGY_VERSION,
    "agents": [
        {
            "agent_id": "beta",
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
                    "tool_efficiency": None,
                    "robustness": None,
                },
                "profile": 100.0,
                "window_runs": 1,
                "median_latency_ms": 400.0,
            },
            "repeatability": {"pass^1": None, "pass^3": None, "pass^5": None, "tasks": 0},
        },
        {
            "agent_id": "alpha",
            "composite": {
                "score": 60.14,
                "success_rate": 0.8,
                "consistency": 0.36,
                "latency_score": 80.0,
                "cost_score": 65.0,
                "completed_runs": 5,
                "zero_success_floor": False,
            },
            "radar": {
                "axes": {
                    "correctness": 66.67,
                    "latency": 70.0,
                    "cost": 80.0,
                    "tool_efficiency": 80.0,
                    "robustness": 5.56,
                },
                "profile": 60.44,
                "window_runs": 6,
                "median_latency_ms": 2000.0,
            },
            "repeatability": {"pass^1": 0.6667, "pass^3": 0.0, "pass^5": 0.0, "tasks": 1},
        },
        {
            "agent_id": "delta",
            "composite": {
                "score": 0.0,
                "success_rate": 0.0,
                "consistency": 1.0,
                "latency_score": 100.0,
                "cost_score": 100.0,
                "completed_runs": 2,
                "zero_success_floor": True,
            },
            "radar": {
                "axes": {
                    "correctness": 0.0,
                    "latency": None,
                    "cost": 100.0,
                    "tool_efficiency": None,
                    "robustness": 100.0,
                },
                "profile": 66.67,
                "window_runs": 2,
                "median_latency_ms": 100.0,
            },
            "repeatability": {"pass^1": None, "pass^3": None, "pass^5": None, "tasks": 0},
        },
        {
            "agent_id": "gamma",
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
                    "cost": 0.0,
                    "tool_efficiency": None,
                    "robustness": None,
                },
                "profile": 0.0,
                "window_runs": 2,
                "median_latency_ms": 700.0,
            },
            "repeatability": {"pass^1": None, "pass^3": None, "pass^5": None, "tasks": 0},
        },
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


def test_report_json_exact(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_bytes(_small_input())
    code, out, err = cli(["report", str(path), "--format", "json"])
    assert (code, err) == (0, "")
    document = json.loads(out)
    assert document == EXPECTED
    assert _key_paths(document) == _key_paths(EXPECTED)  # key order too


def test_report_dash_reads_stdin(tmp_path: Path) -> None:
    path = tmp_path / "runs.jsonl"
    path.write_bytes(_small_input())
    from_file = cli(["report", str(path), "--format", "json"])
    from_stdin = cli(["report", "-", "--format", "json"], _small_input())
    assert from_stdin == from_file
    assert json.loads(from_stdin[1]) == EXPECTED


def test_report_table_default() -> None:
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
    assert (code, err) == (0, "")
    if fmt == "json":
        assert json.loads(out) == {"methodology_version": METHODOLOGY_VERSION, "agents": []}
    else:
        assert "Headline composite" in out
    code, out, err = cli(["outcome", "-", "--format", fmt], b"")
    assert (code, err) == (0, "")
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

OUTCOME_KEYS = [
    "run_id",
    "outcome_score",
    "correctness",
    "correctness_source",
    "recoverable_safety_raw",
    "recoverable_safety",
    "catastrophic_gate",
    "scoring_version",
    "reason",
    "efficiency",
]


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
    path.write_text("\n".join(json.dumps(r) for r in records) + "\n", encoding="utf-8")
    done = _subprocess(["outcome", str(path), "--format", "json"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    document = json.loads(done.stdout)
    assert isinstance(document, list)
    assert [o["run_id"] for o in document] == ["z", "a", "m"]
    for item in document:
        assert list(item) == OUTCOME_KEYS
    assert document[0] == {
        "run_id": "z",
        "outcome_score": 0.8,  # sqrt(1 × (0.1 + 0.9 × 0.6)) = sqrt(0.64)
        "correctness": 1.0,
        "correctness_source": "judged.checklist",
        "recoverable_safety_raw": 0.6,
        "recoverable_safety": 0.64,
        "catastrophic_gate": 1,
        "scoring_version": "v1",
        "reason": "c=1.000, rec_v=0.640, cat_v=1",
        "efficiency": None,
    }
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
    assert "bypass" in out


def test_subprocess_report_success(tmp_path: Path) -> None:
    done = _subprocess(["report", "-", "--format", "json"], tmp_path, stdin=_small_input())
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == EXPECTED
