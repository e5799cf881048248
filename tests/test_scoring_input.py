"""Bad input: exit status 2, one stderr line per problem naming line, field and rule, and
nothing on stdout. Nothing is scored from an input that has an error."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from scoring import InputError, build_report
from scoring.errors import MAX_LISTED_PROBLEMS

PROBLEM_LINE = re.compile(r"^line (\d+): (\S+): .+ \[(\w+)\]$")


def problem_lines(stderr: str) -> list[str]:
    """The stderr lines after the header line."""
    header, *rest = stderr.splitlines()
    assert header.startswith("scoring report: cannot score")
    return rest


def one_bad_line(run_record, as_jsonl, scoring_cli, bad: dict[str, Any] | str | bytes):
    """A good first line, the bad one second; returns the single problem line."""
    code, out, err = scoring_cli(
        "report", "-", "--format", "json", stdin=as_jsonl([run_record(), bad])
    )
    assert code == 2
    assert out == ""
    (line,) = problem_lines(err)
    return line


@pytest.mark.parametrize(
    ("fields", "field", "rule"),
    [
        ({"colour": "blue"}, "colour", "extra_forbidden"),
        ({"success": "true"}, "success", "bool_type"),
        ({"success": 1}, "success", "bool_type"),
        ({"steps": 3.0}, "steps", "int_type"),
        ({"steps": "3"}, "steps", "int_type"),
        ({"latency_ms": "1000"}, "latency_ms", "float_type"),
        ({"status": "done"}, "status", "enum"),
        ({"run_id": 7}, "run_id", "string_type"),
        ({"run_id": ""}, "run_id", "string_too_short"),
        ({"latency_ms": -1}, "latency_ms", "greater_than_equal"),
        ({"cost_usd": -0.01}, "cost_usd", "greater_than_equal"),
        ({"steps": -1}, "steps", "greater_than_equal"),
        ({"latency_ms": None}, "latency_ms", "required_for_status"),
        ({"cost_usd": None}, "cost_usd", "required_for_status"),
        ({"finished_at": None}, "finished_at", "required_for_status"),
        ({"status": "failed", "finished_at": None}, "finished_at", "required_for_status"),
        ({"status": "timeout", "finished_at": None}, "finished_at", "required_for_status"),
        ({"finished_at": "2026-01-01T00:00:00"}, "finished_at", "string_pattern_mismatch"),
        ({"finished_at": "yesterday"}, "finished_at", "string_pattern_mismatch"),
        ({"finished_at": "2026-02-30T00:00:00Z"}, "finished_at", "datetime_invalid"),
        ({"finished_at": 1767225600}, "finished_at", "string_type"),
    ],
)
def test_field_problems(run_record, as_jsonl, scoring_cli, fields, field, rule) -> None:
    bad = run_record(**fields)
    line = one_bad_line(run_record, as_jsonl, scoring_cli, bad)
    assert PROBLEM_LINE.match(line).groups() == ("2", field, rule), line


def test_a_missing_required_field(run_record, as_jsonl, scoring_cli) -> None:
    bad = run_record()
    del bad["task_id"]
    line = one_bad_line(run_record, as_jsonl, scoring_cli, bad)
    assert PROBLEM_LINE.match(line).groups() == ("2", "task_id", "missing")


@pytest.mark.parametrize("number", ["NaN", "Infinity", "-Infinity", "1e400"])
@pytest.mark.parametrize("field", ["latency_ms", "cost_usd"])
def test_nan_and_infinity_are_refused(run_record, as_jsonl, scoring_cli, number, field) -> None:
    bad = json.dumps(run_record(**{field: 12345.5})).replace("12345.5", number)
    assert f'"{field}": {number}' in bad
    line = one_bad_line(run_record, as_jsonl, scoring_cli, bad)
    assert PROBLEM_LINE.match(line).groups() == ("2", field, "finite_number"), line


def test_a_duplicate_run_id_names_its_line(run_record, as_jsonl, scoring_cli) -> None:
    first = run_record()
    records = [first, run_record(), run_record(run_id=first["run_id"])]
    code, out, err = scoring_cli("report", "-", stdin=as_jsonl(records))
    assert (code, out) == (2, "")
    (line,) = problem_lines(err)
    assert line == f"line 3: run_id: duplicate run_id {first['run_id']!r} [unique]"


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("not json", r"^line 2: not valid JSON \(.+\) \[json\]$"),
        ('{"run_id": "x",', r"^line 2: not valid JSON \(.+\) \[json\]$"),
        ("[1, 2]", r"^line 2: must be a JSON object$"),
        (
            b'{"run_id": "\xff\xfe"}',
            r"^line 2: not UTF-8 text \(byte 13 cannot be decoded\) \[utf8\]$",
        ),
    ],
)
def test_lines_that_are_not_a_json_object(run_record, as_jsonl, scoring_cli, raw, expected) -> None:
    line = one_bad_line(run_record, as_jsonl, scoring_cli, raw)
    assert re.match(expected, line), line


def test_every_problem_is_listed_in_line_order(run_record, as_jsonl, scoring_cli) -> None:
    good = run_record()
    records = [
        good,
        "{",  # line 2
        run_record(steps=1.5),  # line 3
        "",  # line 4: blank lines are skipped, not errors
        run_record(run_id=good["run_id"]),  # line 5
        run_record(success="yes", cost_usd=-1),  # line 6: two problems
    ]
    code, out, err = scoring_cli("report", "-", stdin=as_jsonl(records))
    assert (code, out) == (2, "")
    lines = problem_lines(err)
    assert [line.split(":")[0] for line in lines] == [
        "line 2",
        "line 3",
        "line 5",
        "line 6",
        "line 6",
    ]
    assert lines[3].startswith("line 6: success:")
    assert lines[4].startswith("line 6: cost_usd:")


def test_more_than_twenty_problems_are_counted(run_record, as_jsonl, scoring_cli) -> None:
    records = [run_record(steps=-i - 1) for i in range(MAX_LISTED_PROBLEMS + 5)]
    code, out, err = scoring_cli("report", "-", stdin=as_jsonl(records))
    assert (code, out) == (2, "")
    lines = problem_lines(err)
    assert MAX_LISTED_PROBLEMS == 20
    assert len(lines) == 21
    assert [PROBLEM_LINE.match(line).group(1) for line in lines[:20]] == [
        str(i) for i in range(1, 21)
    ]
    assert lines[20] == "... and 5 more problems"


def test_nothing_is_scored_from_an_input_with_an_error(run_record, as_jsonl) -> None:
    records = [run_record() for _ in range(5)] + [run_record(status="unknown")]
    with pytest.raises(InputError) as caught:
        build_report(as_jsonl(records).splitlines())
    assert caught.value.total == 1
    (problem,) = caught.value.problems
    assert (problem.line, problem.field) == (6, "status")


def test_blank_lines_are_skipped(run_record, as_jsonl) -> None:
    records = ["", run_record(), "   ", run_record(), ""]
    (agent,) = build_report(as_jsonl(records).splitlines(keepends=True)).agents
    assert agent.composite.completed_runs == 2


def test_a_missing_file_is_a_clear_error(scoring_cli, tmp_path) -> None:
    missing = tmp_path / "nope.jsonl"
    for command in ("report", "outcome"):
        code, out, err = scoring_cli(command, str(missing), "--format", "json")
        assert (code, out) == (2, "")
        assert f"cannot read {missing}: No such file or directory" in err
        assert "Traceback" not in err


def test_a_directory_is_a_clear_error(scoring_cli, tmp_path) -> None:
    code, out, err = scoring_cli("report", str(tmp_path))
    assert (code, out) == (2, "")
    assert f"cannot read {tmp_path}" in err


def test_the_report_fast_path_checks_what_run_record_checks() -> None:
    # build_report validates each line with models._RunFields and applies RunRecord's status
    # rules to whole chunks; any other rule added to RunRecord alone would be skipped there.
    from scoring.models import RunRecord, _RunFields

    assert RunRecord.__mro__[1] is _RunFields
    assert RunRecord.model_config == _RunFields.model_config
    assert {
        name: (field.annotation, field.metadata, field.default)
        for name, field in RunRecord.model_fields.items()
    } == {
        name: (field.annotation, field.metadata, field.default)
        for name, field in _RunFields.model_fields.items()
    }
    own, base = RunRecord.__pydantic_decorators__, _RunFields.__pydantic_decorators__
    assert set(own.model_validators) - set(base.model_validators) == {"_required_by_status"}
    for kind in ("validators", "field_validators", "root_validators"):
        assert getattr(own, kind).keys() == getattr(base, kind).keys(), kind
