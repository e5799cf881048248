"""What the report does with real logs (methodology 1.3.0): unrecorded latency and cost,
levels asked for with ``--pass-k``, and the notes where the anchors do not separate the
agents (docs/composite.md, docs/repeatability.md)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scoring import build_report, report_to_json
from scoring.cli import PASS_K_MAX
from scoring.constants import COST_ANCHORS_USD, LATENCY_ANCHORS_MS, PASS_K_LEVELS
from scoring.formulas.composite import anchor_notes, score_composite
from scoring.formulas.curves import along


def _agent_runs(
    agent: str, tasks: int, per_task: int, latency: float | None, cost: float | None
) -> list[dict[str, Any]]:
    return [
        {
            "run_id": f"{agent}-{t}-{r}",
            "agent_id": agent,
            "task_id": f"t{t}",
            "status": "completed",
            "success": (t + r) % 3 != 0,
            "latency_ms": latency,
            "cost_usd": cost,
            "steps": 3,
            "finished_at": f"2026-01-01T00:{t:02d}:{r:02d}Z",
        }
        for t in range(tasks)
        for r in range(per_task)
    ]


def _report(runs: list[dict[str, Any]], *extra: int) -> dict[str, Any]:
    lines = [json.dumps(r).encode() for r in runs]
    return report_to_json(build_report(lines, extra_levels=extra))


def _by_id(document: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {a["agent_id"]: a for a in document["agents"]}


# --- unrecorded latency and cost ------------------------------------------------------------


def test_unrecorded_cost_gives_a_null_composite_with_its_reason_and_keeps_the_rest() -> None:
    runs = _agent_runs("priced", 12, 4, 800.0, 0.02) + _agent_runs("unpriced", 12, 4, 800.0, None)
    agents = _by_id(_report(runs))
    priced, unpriced = agents["priced"]["composite"], agents["unpriced"]["composite"]
    assert priced["score"] is not None
    assert priced["reason"] is None
    assert unpriced["score"] is None
    assert unpriced["reason"] == "cost not recorded on 48 of 48 completed runs"
    assert unpriced["mean_cost_usd"] is None
    assert unpriced["cost_score"] is None
    # What needs neither value is still scored, and equals the priced agent's (same outcomes).
    for key in ("success_rate", "consistency", "latency_score", "mean_latency_ms"):
        assert unpriced[key] == priced[key], key
    assert unpriced["success_rate_interval"] == priced["success_rate_interval"] is not None
    # No composite: no interval, no rank, no rank bound, no floor; never read as 0.
    assert unpriced["interval"] is None
    assert unpriced["zero_success_floor"] is False
    assert (agents["unpriced"]["rank"], agents["unpriced"]["rank_upper_bound"]) == (None, None)
    assert agents["priced"]["rank"] == 1
    assert agents["unpriced"]["repeatability"] == agents["priced"]["repeatability"]


def test_a_single_unrecorded_value_is_enough_and_is_counted() -> None:
    runs = _agent_runs("a", 3, 4, 800.0, 0.02)
    runs[5] = {**runs[5], "latency_ms": None}
    del runs[7]["latency_ms"]  # absent is unrecorded too
    runs[2] = {**runs[2], "cost_usd": None}
    [agent] = _report(runs)["agents"]
    assert agent["composite"]["reason"] == (
        "latency not recorded on 2 of 12 completed runs; "
        "cost not recorded on 1 of 12 completed runs"
    )


def test_unrecorded_values_on_runs_that_did_not_complete_change_nothing() -> None:
    runs = _agent_runs("a", 3, 4, 800.0, 0.02)
    failed = [
        {
            **r,
            "run_id": r["run_id"] + "-f",
            "status": "failed",
            "latency_ms": None,
            "cost_usd": None,
        }
        for r in runs[:3]
    ]
    [agent] = _report(runs + failed)["agents"]
    assert agent["composite"]["reason"] is None
    assert agent["composite"]["mean_cost_usd"] == 0.02


def test_the_composite_reason_without_any_completed_run() -> None:
    result = score_composite(0, 0, None, None)
    assert (result.score, result.reason) == (None, "no completed run")


# --- levels asked for ----------------------------------------------------------------------


def test_extra_levels_are_reported_in_order_with_their_own_tasks_and_reasons() -> None:
    runs = _agent_runs("a", 12, 4, 800.0, 0.02)
    document = _report(runs, 4, 2, 8)
    assert document["pass_k_levels"] == sorted({*PASS_K_LEVELS, 2, 4, 8})
    [agent] = document["agents"]
    rep = agent["repeatability"]
    keys = [f"pass^{k}" for k in document["pass_k_levels"]]
    assert [k for k in rep if k.startswith("pass^")] == keys
    assert list(rep["intervals"]) == list(rep["interval_reasons"]) == keys
    assert rep["tasks_by_level"] == {key: (12 if int(key[5:]) <= 4 else 0) for key in keys}
    assert rep["pass^4"] is not None
    assert rep["intervals"]["pass^4"] is not None
    assert rep["pass^5"] is None
    assert rep["reasons"]["pass^5"] == "no task has 5 recorded outcomes"
    assert rep["reasons"]["pass^8"] == "no task has 8 recorded outcomes"
    assert rep["interval_reasons"]["pass^8"] == "fewer than 10 qualifying tasks (0)"


_LEVEL_RULE = f"a pass^k level must be a whole number from 1 to {PASS_K_MAX}"


@pytest.mark.parametrize(
    ("argument", "message"),
    [
        ("0", f"{_LEVEL_RULE}, not '0'"),
        ("2,x", f"{_LEVEL_RULE}, not 'x'"),
        (str(PASS_K_MAX + 1), f"{_LEVEL_RULE}, not '{PASS_K_MAX + 1}'"),
        ("", f"{_LEVEL_RULE}, not ''"),
    ],
)
def test_a_bad_level_is_a_usage_error(scoring_cli, tmp_path, argument: str, message: str) -> None:
    log = tmp_path / "runs.jsonl"
    log.write_text("")
    code, out, err = scoring_cli("report", str(log), "--pass-k", argument)
    assert (code, out) == (2, "")
    assert err.endswith(f"argument --pass-k: {message}\n")


def test_the_table_shows_the_extra_levels_and_why_one_is_null(
    scoring_cli, tmp_path, monkeypatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")  # the table in one block
    log = tmp_path / "runs.jsonl"
    log.write_bytes(
        b"".join(json.dumps(r).encode() + b"\n" for r in _agent_runs("a", 12, 4, 800.0, 0.02))
    )
    code, out, err = scoring_cli("report", str(log), "--pass-k", "4")
    assert (code, err) == (0, "")
    lines = out.splitlines()
    header = lines[lines.index("Repeatability (pass^k, fractions 0-1)") + 1]
    assert header.split() == ["agent", "pass^1", "pass^3", "pass^4", "pass^5", "tasks"]
    assert "  a: pass^5: no task has 5 recorded outcomes" in lines


# --- the anchors that do not separate the agents --------------------------------------------


#: Costs on the cost curve's second slope, a quarter and three quarters of the way along:
#: two agents there are separated by the cost term.
_NEAR_USD, _FAR_USD = (float(along(COST_ANCHORS_USD, share, 1)) for share in ("0.25", "0.75"))


def _beyond(anchors: Any) -> float:
    return float(anchors[-1].x) * 10


def test_a_note_when_every_agent_is_beyond_the_last_latency_anchor() -> None:
    slow = _beyond(LATENCY_ANCHORS_MS)
    runs = [
        *_agent_runs("a", 3, 4, slow, _NEAR_USD),
        *_agent_runs("b", 3, 4, slow * 2, _FAR_USD),
    ]
    document = _report(runs)
    first, last = LATENCY_ANCHORS_MS[0].x, LATENCY_ANCHORS_MS[-1].x
    lowest = min(a.score for a in LATENCY_ANCHORS_MS)
    assert document["notes"] == [
        f"the latency anchors ({first:,} ms to {last:,} ms) do not separate these agents: "
        f"all 2 score {lowest}"
    ]


def test_no_note_when_the_agents_are_separated_and_one_when_all_are_at_the_top() -> None:
    # a inside the latency curve, b beyond it: separated. Both at the cheapest cost: the
    # cost term's note says they all score its highest.
    cheap = float(COST_ANCHORS_USD[0].x) / 2
    slow = _beyond(LATENCY_ANCHORS_MS)
    inside = float(along(LATENCY_ANCHORS_MS, "0.5"))
    runs = [*_agent_runs("a", 3, 4, inside, cheap), *_agent_runs("b", 3, 4, slow, cheap)]
    notes = _report(runs)["notes"]
    assert len(notes) == 1
    assert notes[0].startswith("the cost anchors (")
    assert notes[0].endswith(f"all 2 score {max(a.score for a in COST_ANCHORS_USD)}")


def test_the_notes_read_only_agents_with_a_score_on_the_term() -> None:
    slow = _beyond(LATENCY_ANCHORS_MS)
    results = [score_composite(4, 2, slow, _NEAR_USD), score_composite(4, 2, None, _FAR_USD)]
    assert anchor_notes(results) == (
        f"the latency anchors ({LATENCY_ANCHORS_MS[0].x:,} ms to "
        f"{LATENCY_ANCHORS_MS[-1].x:,} ms) do not separate these agents: the one agent scores "
        f"{min(a.score for a in LATENCY_ANCHORS_MS)}",
    )
    assert anchor_notes([score_composite(0, 0, None, None)]) == ()


def test_the_notes_are_the_tables_footer(scoring_cli, tmp_path) -> None:
    slow = _beyond(LATENCY_ANCHORS_MS)
    log = tmp_path / "runs.jsonl"
    log.write_bytes(
        b"".join(json.dumps(r).encode() + b"\n" for r in _agent_runs("a", 3, 4, slow, _NEAR_USD))
    )
    code, out, _ = scoring_cli("report", str(log))
    assert code == 0
    lines = out.splitlines()
    assert lines[-2] == "Notes:"
    assert lines[-1].startswith("  the latency anchors (")


def test_compare_has_no_composite_difference_where_a_cost_is_unrecorded(
    scoring_cli, tmp_path
) -> None:
    runs = _agent_runs("priced", 12, 4, 800.0, 0.02) + _agent_runs("unpriced", 12, 4, 800.0, None)
    log = tmp_path / "runs.jsonl"
    log.write_bytes(b"".join(json.dumps(r).encode() + b"\n" for r in runs))
    code, out, err = scoring_cli("compare", str(log), "priced", "unpriced", "--format", "json")
    assert (code, err) == (0, "")
    document = json.loads(out)
    composite = document["composite"]
    assert composite["difference"] is None
    assert composite["reason"] == "'unpriced': cost not recorded on 48 of 48 completed runs"
    assert document["success_rate"]["difference"] == 0
