"""``scoring report --from`` and ``scoring convert``: the logs of Inspect AI, Harbor and
τ-bench read as run records (``scoring.harnesses``).

Each reader is checked against what its harness itself recorded: τ-bench's published
pass^k, Inspect's accuracy in the log's own header (read with ``inspect_ai``), Harbor's mean
reward in the job's ``result.json``. The logs are the copies in ``tests/data/harness-logs``
(see its README) and logs ``inspect_ai`` writes in the test (``inspect_logs.py``).
"""

from __future__ import annotations

import json
import runpy
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from builders import CliResult
from inspect_logs import CRASH, SLOW

from contracts.source import REPO_ROOT
from scoring.constants import FRACTION_DECIMALS
from scoring.formulas.composite import unrecorded_reason
from scoring.formulas.repeatability import missing_reason
from scoring.harnesses import (
    READERS,
    Harness,
    Options,
    convert,
    harbor,
    inspect as inspect_reader,
    run_log,
)
from scoring.harnesses.base import RUN_FIELDS, Mapping, Row
from scoring.models import RunRecord

DATA = REPO_ROOT / "tests" / "data" / "harness-logs"
PRICED = DATA / "arith-4x5-priced.eval"
UNPRICED = DATA / "arith-4x2.json"
JOB = DATA / "harbor-job"
TAU_RECORDS = DATA / "gpt-4o-airline-2-records.json"
TAU_LOG = REPO_ROOT / "docs" / "data" / "tau-bench-gpt-4o-airline.jsonl"
#: The one place the published pass^k of τ-bench's gpt-4o airline agent is written.
TAU_EXAMPLE = REPO_ROOT / "docs" / "examples" / "tau_bench.py"

needs_inspect = pytest.mark.skipif(
    not inspect_reader.available(),
    reason=f"inspect_ai is not installed ({inspect_reader.INSTALL}; dev installs it)",
)

Cli = Callable[..., CliResult]


def _document(result: CliResult) -> dict[str, Any]:
    code, out, err = result
    assert code == 0, err
    document: dict[str, Any] = json.loads(out)
    return document


def _agent(document: dict[str, Any]) -> dict[str, Any]:
    (agent,) = document["agents"]
    return agent


def _rounded(value: float) -> float:
    return round(value, FRACTION_DECIMALS)


# --- τ-bench ----------------------------------------------------------------------------------


def test_tau_bench_report_matches_every_published_level(scoring_cli: Cli) -> None:
    published: dict[int, str] = runpy.run_path(str(TAU_EXAMPLE))["PUBLISHED"]
    code, out, err = scoring_cli(
        "report", "--from", "tau-bench", str(TAU_LOG), "--agent", "gpt-4o-airline",
        "--pass-k", "2,4", "--format", "json",
    )  # fmt: skip
    rep = _agent(_document((code, out, err)))["repeatability"]
    assert {k: f"{rep[f'pass^{k}']:.3f}" for k in published} == published
    highest = max(published) + 1
    assert rep[f"pass^{highest}"] is None
    assert rep["reasons"][f"pass^{highest}"] == missing_reason(highest)
    # What the mapping assumed, one line each, prefixed by the command and the harness.
    lines = err.splitlines()
    assert lines
    assert all(line.startswith("scoring report: tau-bench: ") for line in lines)
    assert any("finished_at is a placeholder" in line for line in lines)


def test_tau_bench_results_file_and_json_lines_map_alike(tmp_path: Path) -> None:
    """The JSON list τ-bench writes and the JSON Lines form give the same runs."""
    records = json.loads(TAU_RECORDS.read_text(encoding="utf-8"))
    lines = tmp_path / "records.jsonl"
    lines.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    options = Options(agent="a")
    listed = convert(Harness.TAU_BENCH, [TAU_RECORDS], options)
    assert listed.runs == convert(Harness.TAU_BENCH, [lines], options).runs
    assert [(r["task_id"], r["success"]) for r in listed.runs] == [
        (str(r["task_id"]), r["reward"] == 1) for r in records
    ]


def _tau2_file(tmp_path: Path, **changes: object) -> Path:
    simulation = {
        "id": "sim-1",
        "task_id": "7",
        "trial": 0,
        "start_time": "2025-07-01T10:00:00",
        "end_time": "2025-07-01T10:01:30.500000",
        "duration": 90.5,
        "termination_reason": "user_stop",
        "agent_cost": 0.25,
        "reward_info": {"reward": 1.0},
    } | changes
    path = tmp_path / "results.json"
    path.write_text(json.dumps({"simulations": [simulation]}), encoding="utf-8")
    return path


def test_tau2_bench_naive_timestamps_need_assume_utc(tmp_path: Path, scoring_cli: Cli) -> None:
    path = _tau2_file(tmp_path)
    code, out, err = scoring_cli("convert", "--from", "tau-bench", str(path), "--agent", "a")
    assert (code, out) == (2, "")
    assert err.splitlines()[1] == (
        f"{path}: simulation 1: end_time: '2025-07-01T10:01:30.500000' has no UTC offset: "
        "pass --assume-utc to read such timestamps as UTC"
    )
    code, out, err = scoring_cli(
        "convert", "--from", "tau-bench", str(path), "--agent", "a", "--assume-utc"
    )
    assert code == 0, err
    assert json.loads(out) == {
        "run_id": "sim-1",
        "agent_id": "a",
        "task_id": "7",
        "status": "completed",
        "success": True,
        "latency_ms": 90500.0,
        "cost_usd": 0.25,
        "steps": None,
        "finished_at": "2025-07-01T10:01:30.500000Z",
    }
    assert "end_time has no UTC offset; read as UTC (--assume-utc) on 1 run" in err


@pytest.mark.parametrize(
    ("reason", "status"),
    [("max_steps", "completed"), ("timeout", "timeout"), ("agent_error", "failed")],
)
def test_tau2_bench_termination_reasons(tmp_path: Path, reason: str, status: str) -> None:
    path = _tau2_file(tmp_path, termination_reason=reason, end_time="2025-07-01T10:01:30Z")
    (run,) = convert(Harness.TAU_BENCH, [path], Options(agent="a")).runs
    assert run["status"] == status


def test_tau_bench_needs_an_agent(scoring_cli: Cli) -> None:
    code, out, err = scoring_cli("report", "--from", "tau-bench", str(TAU_LOG))
    assert (code, out) == (2, "")
    assert "--from tau-bench needs --agent NAME" in err


# --- Harbor -----------------------------------------------------------------------------------


def test_harbor_pass_1_is_harbors_own_mean_reward(scoring_cli: Cli) -> None:
    job = json.loads((JOB / "result.json").read_text(encoding="utf-8"))
    (evaluation,) = job["stats"]["evals"].values()
    (metric,) = evaluation["metrics"]
    result = scoring_cli("report", "--from", "harbor", str(JOB), "--format", "json")
    agent = _agent(_document(result))
    assert agent["repeatability"]["pass^1"] == _rounded(metric["mean"])
    assert agent["agent_id"] == "scripted-agent"
    assert "scoring report: harbor: no attempt number is recorded; run ids are the trial " \
        "folder names" in result[2].splitlines()  # fmt: skip


def test_harbor_statuses_follow_the_exceptions() -> None:
    runs = convert(Harness.HARBOR, [JOB], Options()).runs
    job = json.loads((JOB / "result.json").read_text(encoding="utf-8"))
    (evaluation,) = job["stats"]["evals"].values()
    timed_out = set(evaluation["exception_stats"][harbor.TIMEOUT_EXCEPTION])
    assert {r["run_id"] for r in runs if r["status"] == "timeout"} == timed_out
    assert {r["status"] for r in runs if r["run_id"] not in timed_out} == {"completed"}
    assert len(runs) == job["n_total_trials"]


def test_harbor_agent_names_its_model(tmp_path: Path) -> None:
    job = tmp_path / "job"
    shutil.copytree(JOB / "add-task__4uGhVtC", job / "add-task__4uGhVtC")
    result = job / "add-task__4uGhVtC" / "result.json"
    data = json.loads(result.read_text(encoding="utf-8"))
    data["agent_info"]["model_info"] = {"name": "claude-x", "provider": "anthropic"}
    result.write_text(json.dumps(data), encoding="utf-8")
    (run,) = convert(Harness.HARBOR, [job], Options()).runs
    assert run["agent_id"] == "scripted-agent/anthropic/claude-x"
    (run,) = convert(Harness.HARBOR, [job], Options(agent="mine")).runs
    assert run["agent_id"] == "mine"


# --- Inspect AI -------------------------------------------------------------------------------


@needs_inspect
def test_inspect_success_rate_is_inspects_own_accuracy(scoring_cli: Cli) -> None:
    from inspect_ai.log import read_eval_log

    header = read_eval_log(str(PRICED), header_only=True)
    accuracy = header.results.scores[0].metrics["accuracy"].value
    agent = _agent(_document(scoring_cli("report", "--from", "inspect", str(PRICED), "--format",
                                         "json")))  # fmt: skip
    assert agent["composite"]["success_rate"] == _rounded(accuracy)
    assert agent["composite"]["score"] is not None  # prices recorded: a composite
    assert agent["agent_id"] == header.eval.model


@needs_inspect
def test_inspect_without_prices_has_no_composite(scoring_cli: Cli) -> None:
    from inspect_ai.log import read_eval_log, read_eval_log_sample_summaries

    header = read_eval_log(str(UNPRICED), header_only=True)
    accuracy = header.results.scores[0].metrics["accuracy"].value
    completed = [
        s
        for s in read_eval_log_sample_summaries(str(UNPRICED))
        if not s.error and s.limit not in inspect_reader.TIME_LIMITS
    ]
    code, out, err = scoring_cli("report", "--from", "inspect", str(UNPRICED), "--format", "json")
    composite = _agent(_document((code, out, err)))["composite"]
    assert composite["score"] is None
    assert composite["reason"] == unrecorded_reason("cost", len(completed), len(completed))
    assert composite["success_rate"] == _rounded(accuracy)
    assert (
        "scoring report: inspect: cost not recorded (no prices configured: "
        f"model_usage.*.total_cost absent): cost_usd null on {len(completed)} runs"
    ) in err.splitlines()


@needs_inspect
def test_inspect_agent_from_and_scorer(scoring_cli: Cli) -> None:
    runs = convert(Harness.INSPECT, [UNPRICED], Options(agent_from="solver")).runs
    assert {r["agent_id"] for r in runs} == {"react"}
    scored = convert(Harness.INSPECT, [UNPRICED], Options(scorer="match")).runs
    assert scored == convert(Harness.INSPECT, [UNPRICED], Options()).runs
    code, out, err = scoring_cli("convert", "--from", "inspect", str(UNPRICED), "--scorer", "f1")
    assert (code, out) == (2, "")
    assert f"{UNPRICED}: sample 'add-0' epoch 1: scores.f1: no score of the scorer" in err


@pytest.fixture(scope="module")
def written_logs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Logs ``inspect_ai`` writes now, offline (``inspect_logs.py``, in its own process)."""
    if not inspect_reader.available():
        pytest.skip(f"inspect_ai is not installed ({inspect_reader.INSTALL})")
    folder = tmp_path_factory.mktemp("inspect-logs")
    script = Path(__file__).with_name("inspect_logs.py")
    subprocess.run(
        [sys.executable, str(script), str(folder)], check=True, capture_output=True, timeout=300
    )
    return folder


def _log_of(folder: Path, task: str) -> Path:
    (path,) = folder.glob(f"*_{task}_*.eval")
    return path


def test_logs_inspect_writes_are_read_back(written_logs: Path, scoring_cli: Cli) -> None:
    from inspect_ai.log import read_eval_log

    for task in ("arith", "echo"):
        path = _log_of(written_logs, task)
        accuracy = read_eval_log(str(path), header_only=True).results.scores[0].metrics
        result = scoring_cli("report", "--from", "inspect", str(path), "--format", "json")
        rep = _agent(_document(result))["repeatability"]
        # pass^1 averages each task's share of passes, as Inspect's accuracy averages each
        # sample's epochs: the timed-out sample's failures count, the errored one has none.
        assert rep["pass^1"] == _rounded(accuracy["accuracy"].value), task
    runs = convert(Harness.INSPECT, [_log_of(written_logs, "arith")], Options()).runs
    statuses: dict[str, set[str]] = {}
    for run in runs:
        statuses.setdefault(str(run["task_id"]), set()).add(str(run["status"]))
    assert statuses == {
        "add": {"completed"},
        "mul": {"completed"},
        CRASH: {"failed"},  # raised: an error
        SLOW: {"timeout"},  # stopped by its time limit
    }


def test_a_folder_of_several_tasks_names_tasks_by_task(written_logs: Path) -> None:
    converted = convert(Harness.INSPECT, [written_logs], Options())
    assert {r["task_id"] for r in converted.runs} == {
        "arith/add", "arith/mul", f"arith/{CRASH}", f"arith/{SLOW}", "echo/add",
    }  # fmt: skip
    assert f"inspect: {inspect_reader.SEVERAL_TASKS}" in converted.assumptions
    run_ids = [str(r["run_id"]) for r in converted.runs]
    assert len(set(run_ids)) == len(run_ids)


def test_inspect_without_inspect_ai_asks_for_the_extra(
    monkeypatch: pytest.MonkeyPatch, scoring_cli: Cli
) -> None:
    for name in ("inspect_ai", "inspect_ai.log"):
        monkeypatch.setitem(sys.modules, name, None)  # import fails, as when not installed
    code, out, err = scoring_cli("report", "--from", "inspect", str(PRICED))
    assert (code, out) == (2, "")
    assert err.splitlines()[-1] == (
        f"scoring report: error: --from inspect needs inspect_ai: {inspect_reader.INSTALL}"
    )


def test_the_library_imports_without_inspect_ai() -> None:
    code = (
        "import sys; sys.modules['inspect_ai'] = None\n"
        "import scoring, scoring.cli, scoring.harnesses\n"
        "assert sys.modules['inspect_ai'] is None\n"
        "print(scoring.harnesses.inspect.available())"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=REPO_ROOT
    )
    assert (result.returncode, result.stdout) == (0, "False\n"), result.stderr


# --- the same report either way ---------------------------------------------------------------

CASES = [
    pytest.param(["--from", "tau-bench", str(TAU_LOG), "--agent", "gpt-4o-airline"], id="tau"),
    pytest.param(["--from", "harbor", str(JOB)], id="harbor"),
    pytest.param(["--from", "inspect", str(PRICED)], id="inspect", marks=needs_inspect),
]


@pytest.mark.parametrize("source", CASES)
@pytest.mark.parametrize("output", [[], ["--format", "json", "--pass-k", "2"]])
def test_convert_then_report_is_report_from(
    source: list[str], output: list[str], scoring_cli: Cli, tmp_path: Path
) -> None:
    code, log, said = scoring_cli("convert", *source)
    assert code == 0, said
    path = tmp_path / "runs.jsonl"
    path.write_text(log, encoding="utf-8")
    for line in log.splitlines():  # the documented run log: every field, valid
        record = json.loads(line)
        assert list(record) == list(RUN_FIELDS)
        RunRecord.model_validate_json(line)
    code, direct, err = scoring_cli("report", *source, *output)
    assert code == 0, err
    assert err == said.replace("scoring convert: ", "scoring report: ")
    assert scoring_cli("report", str(path), *output) == (0, direct, "")


def test_report_from_refuses_another_engine(scoring_cli: Cli) -> None:
    code, out, err = scoring_cli("report", "--from", "harbor", str(JOB), "--engine", "duckdb")
    assert (code, out) == (2, "")
    assert "--from scores with the python engine only" in err


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["report", "a.jsonl", "b.jsonl"], "several paths need --from"),
        (["report", "a.jsonl", "--agent", "x"], "--agent is an option of --from"),
        (["report", "--from", "harbor", str(JOB), "--scorer", "x"], "--from inspect only"),
        (["convert", str(JOB)], "the following arguments are required: --from"),
        (["convert", "--from", "harbor", "-"], "not stdin"),
    ],
)
def test_usage_errors(args: list[str], says: str, scoring_cli: Cli) -> None:
    code, out, err = scoring_cli(*args)
    assert (code, out) == (2, "")
    assert says in err


# --- bad logs ---------------------------------------------------------------------------------


def _truncated_eval(tmp_path: Path) -> tuple[Path, str]:
    path = tmp_path / "cut.eval"
    path.write_bytes(PRICED.read_bytes()[: PRICED.stat().st_size // 2])
    return path, f"{path}: not a complete zip archive, as an .eval log is (truncated?)"


def _not_an_inspect_log(tmp_path: Path) -> tuple[Path, str]:
    path = tmp_path / "other.json"
    path.write_text('{"eval": 3}', encoding="utf-8")
    return path, f"{path}: not readable as an Inspect log"


def _trial_without_verifier(tmp_path: Path) -> tuple[Path, str]:
    job = tmp_path / "job"
    shutil.copytree(JOB, job)
    result = job / "add-task__4uGhVtC" / "result.json"
    data = json.loads(result.read_text(encoding="utf-8"))
    del data["verifier_result"]
    result.write_text(json.dumps(data), encoding="utf-8")
    return job, (
        f"{result}: trial add-task__4uGhVtC: verifier_result: required on a trial that raised "
        "no exception: its reward decides success"
    )


def _record_without_reward(tmp_path: Path) -> tuple[Path, str]:
    records = json.loads(TAU_RECORDS.read_text(encoding="utf-8"))
    del records[1]["reward"]
    path = tmp_path / "results.json"
    path.write_text(json.dumps(records), encoding="utf-8")
    return path, f"{path}: record 2: reward: required: the trial's reward, a success within 1e-6"


BAD = {
    "truncated .eval": (Harness.INSPECT, _truncated_eval),
    "JSON not an Inspect log": (Harness.INSPECT, _not_an_inspect_log),
    "trial without verifier_result": (Harness.HARBOR, _trial_without_verifier),
    "record without reward": (Harness.TAU_BENCH, _record_without_reward),
}


@pytest.mark.parametrize("case", BAD)
@pytest.mark.parametrize("command", ["report", "convert"])
def test_bad_logs_are_refused_naming_file_record_field_and_rule(
    case: str, command: str, tmp_path: Path, scoring_cli: Cli
) -> None:
    harness, make = BAD[case]
    if harness is Harness.INSPECT and not inspect_reader.available():
        pytest.skip(f"inspect_ai is not installed ({inspect_reader.INSTALL})")
    path, says = make(tmp_path)
    code, out, err = scoring_cli(command, "--from", harness.value, str(path), "--agent", "a")
    assert (code, out) == (2, "")
    head, *problems = err.splitlines()
    assert head == f"scoring {command}: cannot score {path}:"
    assert problems[0].startswith(says), problems


def test_a_run_twice_in_the_input_is_refused(tmp_path: Path) -> None:
    copy = tmp_path / "again.json"
    shutil.copy(TAU_RECORDS, copy)
    with pytest.raises(Exception, match="is also the run id of") as raised:
        convert(Harness.TAU_BENCH, [TAU_RECORDS, copy], Options(agent="a"))
    assert f"{copy}: record 1: run_id: '0-trial-0'" in str(raised.value)


# --- the mapping tables -----------------------------------------------------------------------


def test_each_mapping_has_one_row_per_run_field_in_order() -> None:
    for reader in READERS.values():
        assert tuple(row.run_field for row in reader.mapping.rows) == RUN_FIELDS
    rows = READERS[Harness.HARBOR].mapping.rows
    with pytest.raises(ValueError, match="one row per run field"):
        Mapping(Harness.HARBOR, rows[1:] + rows[:1])


def test_the_reader_follows_its_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """A row of the table changed, the runs change with it: the table is what is run."""
    rows = harbor.MAPPING.rows
    renamed = tuple(
        replace(row, derive=lambda t: "renamed") if row.run_field == "task_id" else row
        for row in rows
    )
    monkeypatch.setattr(harbor, "MAPPING", Mapping(Harness.HARBOR, renamed))
    runs = harbor.read([JOB], Options())
    assert {r["task_id"] for r in runs.runs} == {"renamed"}
    assert isinstance(rows[0], Row)


def test_the_run_log_is_one_json_object_a_line() -> None:
    runs = convert(Harness.HARBOR, [JOB], Options()).runs
    lines = run_log(runs)
    assert [json.loads(line) for line in lines] == list(runs)
    assert all(line.endswith(b"}\n") for line in lines)
