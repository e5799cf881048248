"""``scoring compare LOG AGENT_A AGENT_B``: the paired comparison of two agents of a run log
(``scoring.comparisons.compare`` over ``scoring.comparisons.paired``), its exact table and JSON, its
null with a reason, its errors (an unknown agent, the report's own input problems), and the corpus's
agents: one clearly ahead is named, tied ones are within the noise, and the paired
interval is narrower than the unpaired one where the tasks are shared and correlated.
"""

from __future__ import annotations

import gzip
import json
import math
from pathlib import Path
from typing import Any

import pytest
from builders import cli, jsonl, scoring_subprocess

from contracts.build import REPO_ROOT
from scoring.comparisons.compare import LEVEL_TEXT, compare_in, comparison_to_table, signed_text
from scoring.comparisons.paired import Verdict
from scoring.constants import (
    FRACTION_DECIMALS,
    INTERVAL_LEVEL,
    INTERVAL_MIN_TASKS,
    METHODOLOGY_VERSION,
)
from scoring.report.read import read_stats

CORPUS = REPO_ROOT / "contracts" / "corpus" / "synthetic-runs.jsonl"
#: t(0.975) with 11 degrees of freedom, from a published table (12 shared tasks).
T_975_11 = 2.200985


def runs(agent: str, pattern: list[tuple[int, int]], latency: int = 1000) -> list[dict[str, Any]]:
    """``agent``'s completed runs: task ``t01``, ``t02``, … with (successes, runs) each,
    the successes first; a latency per task so that the latency means differ by task."""
    records = []
    for number, (successes, count) in enumerate(pattern, start=1):
        for r in range(count):
            records.append(
                {
                    "run_id": f"{agent}-{number}-{r}",
                    "agent_id": agent,
                    "task_id": f"t{number:02d}",
                    "status": "completed",
                    "success": r < successes,
                    "latency_ms": latency + 100 * number,
                    "cost_usd": 0.01,
                    "steps": 3,
                    "finished_at": "2026-01-01T00:00:00Z",
                }
            )
    return records


#: x succeeds on every run of 12 tasks; y on every run of the first 6 and none of the rest.
HALF = jsonl(runs("x", [(2, 2)] * 12) + runs("y", [(2, 2)] * 6 + [(0, 2)] * 6))


@pytest.fixture
def half_log(tmp_path: Path) -> Path:
    path = tmp_path / "runs.jsonl"
    path.write_bytes(HALF)
    return path


def test_the_success_difference_is_the_hand_computed_one() -> None:
    """By hand: d = 1 − 1/2; x's residuals are 0, y's ±1 per task over 24 runs, so
    Var(d) = 12/11 · 12 · (1/24)² = 1/44; d ± t(0.975; 11)·√(1/44), four decimals out."""
    c = compare_in(read_stats(HALF.splitlines(keepends=True)), "x", "y").success_rate
    half = T_975_11 * math.sqrt(1 / 44)
    assert c.difference == 0.5
    assert c.standard_error == pytest.approx(math.sqrt(1 / 44), rel=1e-12)
    assert float(c.interval.low) == math.floor((0.5 - half) * 10**4) / 10**4 == 0.1681
    assert float(c.interval.high) == math.ceil((0.5 + half) * 10**4) / 10**4 == 0.8319
    assert c.verdict is Verdict.A_AHEAD


def test_the_table_is_exact(half_log: Path, worked_anchors: None) -> None:
    code, out, err = cli(["compare", str(half_log), "x", "y"])
    assert (code, err) == (0, "")
    assert out == (
        f"methodology {METHODOLOGY_VERSION}\n"
        "A: x (12 tasks)\n"
        "B: y (12 tasks)\n"
        "shared tasks: 12\n"
        "\n"
        "Paired comparison on the shared tasks (composite 0-100; success rate 0-1)\n"
        f"score           A       B  d = A - B  {LEVEL_TEXT} interval      verdict\n"
        "---------  ------  ------  ---------  ----------------  -------\n"
        "composite   89.40   44.00     +45.40  [32.91, 57.89]    x ahead\n"
        "success    1.0000  0.5000    +0.5000  [0.1681, 0.8319]  x ahead\n"
    )


def test_the_json_is_exact(half_log: Path, worked_anchors: None) -> None:
    code, out, err = cli(["compare", str(half_log), "x", "y", "--format", "json"])
    assert (code, err) == (0, "")
    document = json.loads(out)
    assert out == json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    composite, success = document.pop("composite"), document.pop("success_rate")
    assert document == {
        "methodology_version": METHODOLOGY_VERSION,
        "agent_a": "x",
        "agent_b": "y",
        "tasks_a": 12,
        "tasks_b": 12,
        "shared_tasks": 12,
        "interval_level": float(INTERVAL_LEVEL),
    }
    errors = {key: composite.pop(key) for key in ("standard_error", "unpaired_standard_error")}
    assert composite == {
        "a": 89.4,
        "b": 44.0,
        "difference": 45.4,
        "interval": {"low": 32.91, "high": 57.89},
        "verdict": "A ahead",
        "ahead": "x",
        "reason": None,
    }
    # Both agents have every task: A and B are their report's composites.
    _, report, _ = cli(["report", str(half_log), "--format", "json"])
    published = {a["agent_id"]: a["composite"]["score"] for a in json.loads(report)["agents"]}
    assert (composite["a"], composite["b"]) == (published["x"], published["y"])
    # Both agents' latencies rise with the task alike: pairing takes that common part out.
    assert 0 < errors["standard_error"] < errors["unpaired_standard_error"]
    assert success == {
        "a": 1.0,
        "b": 0.5,
        "difference": 0.5,
        "interval": {"low": 0.1681, "high": 0.8319},
        "verdict": "A ahead",
        "ahead": "x",
        "reason": None,
        "standard_error": math.sqrt(1 / 44),
        "unpaired_standard_error": math.sqrt(1 / 44),
    }


def test_swapping_the_agents_swaps_the_sign_and_the_verdict(half_log: Path) -> None:
    _, out, _ = cli(["compare", str(half_log), "y", "x", "--format", "json"])
    success = json.loads(out)["success_rate"]
    assert success["difference"] == -0.5
    assert success["interval"] == {"low": -0.8319, "high": -0.1681}
    assert (success["verdict"], success["ahead"]) == ("B ahead", "x")
    _, table, _ = cli(["compare", str(half_log), "y", "x"])
    assert "-0.5000  [-0.8319, -0.1681]  x ahead" in table


def test_stdin_and_gzip_read_as_the_report_reads_them(half_log: Path, tmp_path: Path) -> None:
    expected = cli(["compare", str(half_log), "x", "y"])
    packed = tmp_path / "runs.jsonl.gz"
    packed.write_bytes(gzip.compress(HALF))
    assert cli(["compare", "-", "x", "y"], stdin=HALF) == expected
    assert cli(["compare", str(packed), "x", "y"]) == expected
    assert cli(["compare", "-", "x", "y"], stdin=gzip.compress(HALF)) == expected


def test_the_same_composite_is_within_the_noise(half_log: Path, tmp_path: Path) -> None:
    # The same agent twice, and two agents with the same runs under other ids.
    _, out, _ = cli(["compare", str(half_log), "y", "y", "--format", "json"])
    both = json.loads(out)
    for key in ("composite", "success_rate"):
        assert both[key]["difference"] == 0
        assert both[key]["verdict"] == "within the noise"
        assert both[key]["ahead"] is None
    twin = jsonl(runs("u", [(1, 2)] * 12) + runs("w", [(1, 2)] * 12))
    code, table, _ = cli(["compare", "-", "u", "w"], stdin=twin)
    assert code == 0
    rows = [line for line in table.splitlines() if line.startswith(("composite", "success"))]
    assert len(rows) == 2
    assert all(row.endswith("within the noise") for row in rows)


def test_fewer_shared_tasks_than_the_minimum_is_null_with_the_reason() -> None:
    shared = INTERVAL_MIN_TASKS - 1
    # p on 12 tasks; q on the last `shared` of p's tasks and 5 of its own.
    p = runs("p", [(2, 2)] * 12)
    q = [
        r | {"task_id": f"t{int(r['task_id'][1:]) + 12 - shared:02d}"}
        for r in runs("q", [(1, 2)] * (shared + 5))
    ]
    code, out, err = cli(["compare", "-", "p", "q", "--format", "json"], stdin=jsonl(p + q))
    assert (code, err) == (0, "")
    document = json.loads(out)
    assert (document["tasks_a"], document["tasks_b"], document["shared_tasks"]) == (
        12,
        shared + 5,
        shared,
    )
    reason = f"fewer than {INTERVAL_MIN_TASKS} shared tasks ({shared})"
    for key in ("composite", "success_rate"):
        part = document[key]
        assert part["difference"] is part["interval"] is part["verdict"] is None
        assert part["standard_error"] is part["unpaired_standard_error"] is None
        assert part["reason"] == reason
    assert document["success_rate"]["a"] == 1.0  # the agents' own scores on the shared tasks
    _, table, _ = cli(["compare", "-", "p", "q"], stdin=jsonl(p + q))
    assert table.endswith(f"No interval:\n  composite: {reason}\n  success: {reason}\n")


def test_an_unknown_agent_exits_2_naming_it_the_log_and_its_agents(half_log: Path) -> None:
    code, out, err = cli(["compare", str(half_log), "x", "nobody"])
    assert (code, out) == (2, "")
    assert err == (
        f"scoring compare: cannot score {half_log}:\n"
        "input: AGENT_B: no agent 'nobody' in the log (it has 2 agents: 'x', 'y')\n"
    )
    code, _, err = cli(["compare", "-", "a", "b"], stdin=b"")
    assert code == 2
    assert err.splitlines()[1:] == [
        "input: AGENT_A: no agent 'a' in the log (it has no agents)",
        "input: AGENT_B: no agent 'b' in the log (it has no agents)",
    ]


def test_the_process_exits_with_the_same_statuses(tmp_path: Path) -> None:
    done = scoring_subprocess(["compare", "-", "x", "y"], tmp_path, stdin=gzip.compress(HALF))
    assert done.returncode == 0
    assert done.stdout.decode() == cli(["compare", "-", "x", "y"], stdin=HALF)[1]
    done = scoring_subprocess(["compare", "-", "x", "z"], tmp_path, stdin=HALF)
    assert (done.returncode, done.stdout) == (2, b"")
    assert b"no agent 'z' in the log" in done.stderr
    done = scoring_subprocess(["compare", "-", "x"], tmp_path, stdin=HALF)
    assert done.returncode == 2
    assert b"AGENT_B" in done.stderr  # the usage names the missing argument


def test_many_agents_are_counted_not_all_named() -> None:
    log = jsonl([r for i in range(8) for r in runs(f"a{i}", [(1, 1)])])
    _, _, err = cli(["compare", "-", "a0", "zz"], stdin=log)
    assert "(it has 8 agents: 'a0', 'a1', 'a2', 'a3', 'a4' and 3 more)" in err


@pytest.mark.parametrize(
    "line",
    [
        b'{"run_id": "h", "agent_id": "x\\u001b[2J", "task_id": "t", "status": "completed"}',
        b"not json at all",
        b'{"run_id": "x-1-0", "agent_id": "x", "task_id": "t01", "status": "completed", '
        b'"success": true, "latency_ms": -5, "cost_usd": 0.01, "steps": 1, '
        b'"finished_at": "2026-01-01T00:00:00Z"}',
    ],
)
def test_a_hostile_line_gets_the_reports_own_error(line: bytes) -> None:
    log = HALF + line + b"\n"
    report = cli(["report", "-"], stdin=log)
    compare = cli(["compare", "-", "x", "y"], stdin=log)
    assert report[0] == compare[0] == 2
    assert compare[1] == ""
    assert compare[2] == report[2].replace("scoring report", "scoring compare")
    assert "line 49" in compare[2]
    assert "\x1b" not in compare[2]


def test_the_text_escapes_the_agent_ids() -> None:
    log = jsonl(runs("a\x1b[2J", [(1, 2)] * 10) + runs("b", [(1, 2)] * 10))
    code, out, _ = cli(["compare", "-", "a\x1b[2J", "b"], stdin=log)
    assert code == 0
    assert "\x1b" not in out
    assert "A: a\\x1b[2J (10 tasks)" in out


# --- the corpus -----------------------------------------------------------------------------


def corpus_json(a: str, b: str) -> dict[str, Any]:
    code, out, err = cli(["compare", str(CORPUS), a, b, "--format", "json"])
    assert (code, err) == (0, "")
    return json.loads(out)


def test_an_agent_of_the_corpus_clearly_ahead_is_named() -> None:
    # birch tops ember by about 23 points on their 24 shared tasks.
    document = corpus_json("ember", "birch")
    assert document["shared_tasks"] == 24
    composite = document["composite"]
    assert composite["difference"] < 0
    assert composite["interval"]["high"] < 0
    assert (composite["verdict"], composite["ahead"]) == ("B ahead", "birch")
    _, table, _ = cli(["compare", str(CORPUS), "ember", "birch"])
    assert next(r for r in table.splitlines() if r.startswith("composite")).endswith("birch ahead")


def test_two_corpus_agents_with_the_same_composite_are_within_the_noise() -> None:
    # nova and moss publish the same composite (ranked level in the report).
    document = corpus_json("nova", "moss")
    composite = document["composite"]
    assert composite["a"] == composite["b"]
    assert composite["difference"] == 0
    assert composite["verdict"] == "within the noise"
    assert composite["interval"]["low"] <= 0 <= composite["interval"]["high"]


def test_the_paired_interval_is_narrower_where_tasks_are_shared_and_correlated(
    worked_anchors: None,
) -> None:
    """atlas and dune succeed and fail on the same tasks: pairing removes the tasks'
    common difficulty, the paired error is below the unpaired one, and the paired
    interval excludes 0 where one built from the unpaired error would not (on the anchors
    the corpus's latencies and costs were made for)."""
    composite = corpus_json("atlas", "dune")["composite"]
    paired, unpaired = composite["standard_error"], composite["unpaired_standard_error"]
    assert paired < 0.8 * unpaired
    width = composite["interval"]["high"] - composite["interval"]["low"]
    q = width / (2 * paired)  # the t factor the interval used (up to rounding outwards)
    assert composite["verdict"] == "A ahead"
    assert composite["difference"] - q * unpaired < 0  # unpaired: within the noise


def test_correlated_made_up_agents_pair_to_a_narrower_interval() -> None:
    """x and y fail the same four hard tasks and pass the same seven easy ones; they differ
    on one task. Unpaired, the tasks' difficulty swamps that difference."""
    log = jsonl(
        runs("x", [(2, 2)] * 8 + [(0, 2)] * 4)
        + runs("y", [(2, 2)] * 7 + [(1, 2)] + [(0, 2)] * 4, latency=1200)
    )
    _, out, _ = cli(["compare", "-", "x", "y", "--format", "json"], stdin=log)
    for key in ("composite", "success_rate"):
        part = json.loads(out)[key]
        assert part["standard_error"] < part["unpaired_standard_error"] / 3
    success = json.loads(out)["success_rate"]
    assert success["difference"] == round(1 / 24, FRACTION_DECIMALS)
    # By hand: p_A = 2/3, p_B = 5/8, e_t = (r_A − r_B)/24 is −1/12 / 24 on the eleven tasks
    # they agree on and 11/12 / 24 on the other: Σ e² = (11 + 121)/144/576, and
    # Var(d) = 12/11 · Σ e² = 1/576.
    assert success["standard_error"] == pytest.approx(1 / 24, rel=1e-12)


def test_the_library_difference_is_a_minus_b_on_the_shared_tasks() -> None:
    stats = read_stats(CORPUS.open("rb"))
    c = compare_in(stats, "atlas", "cedar")
    assert c.composite.difference == c.on_shared_a.score - c.on_shared_b.score
    assert c.success_rate.difference == c.on_shared_a.success_rate - c.on_shared_b.success_rate
    assert "atlas ahead" in comparison_to_table(c)
    assert signed_text(c.composite.difference, 2).startswith("+")
