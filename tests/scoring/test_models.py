"""Input validation (``scoring.models``), through the command line: bad input exits 2 with one
stderr line per problem naming the line, the field and the rule, and nothing on stdout;
nothing is scored from an input that has an error.
"""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest
from builders import cli, good, problem_lines, scoring_subprocess

from scoring import InputError, build_report
from scoring.cli import run
from scoring.errors import MAX_LISTED_PROBLEMS

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
        "has no UTC offset: add Z or ±hh:mm",
    ),
    ("unknown status", good("b", status="done"), "status", "'queued'"),
    (
        "missing agent_id",
        json.dumps({"run_id": "b", "status": "queued", "task_id": "t"}).encode(),
        "agent_id",
        "required field is missing",
    ),
    ("duplicate run_id", good("g1"), "run_id", "duplicate run_id 'g1', first on line 1"),
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
    # docs/inputs.md: finished_at is an "RFC 3339 timestamp with offset". A string holding
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
    assert problem_lines(err) == [
        "line 5001: run_id: duplicate run_id 'r17', first on line 18 [unique]"
    ]


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
    done = scoring_subprocess(["report", "-", "--format", "xml"], tmp_path, stdin=good("g1"))
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
    (
        "duplicate run_id",
        {"run_id": "first"},
        "run_id",
        "duplicate run_id 'first', first on line 1",
    ),
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
    done = scoring_subprocess(["report", str(bad), "--format", "json"], tmp_path)
    assert done.returncode == 2
    assert done.stdout == b""
    listed = problem_lines(done.stderr.decode())
    assert listed == [
        "line 2: cost_usd: must be a finite number (NaN and Infinity are refused) [finite_number]"
    ]
    missing = scoring_subprocess(["report", str(tmp_path / "absent.jsonl")], tmp_path)
    assert missing.returncode == 2
    assert missing.stdout == b""
    assert b"absent.jsonl" in missing.stderr
    assert b"Traceback" not in missing.stderr


PROBLEM_LINE = re.compile(r"^line (\d+): (\S+): .+ \[(\w+)\]$")


def parsed_problem_lines(stderr: str) -> list[str]:
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
    (line,) = parsed_problem_lines(err)
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
        ({"finished_at": None}, "finished_at", "required_for_status"),
        ({"status": "failed", "finished_at": None}, "finished_at", "required_for_status"),
        ({"status": "timeout", "finished_at": None}, "finished_at", "required_for_status"),
        ({"finished_at": "2026-01-01T00:00:00"}, "finished_at", "rfc3339"),
        ({"finished_at": "yesterday"}, "finished_at", "rfc3339"),
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
    (line,) = parsed_problem_lines(err)
    assert line == f"line 3: run_id: duplicate run_id {first['run_id']!r}, first on line 1 [unique]"


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
    lines = parsed_problem_lines(err)
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
    lines = parsed_problem_lines(err)
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
    # build_report validates each line with models.RunFields and applies RunRecord's status
    # rules to whole chunks; any other rule added to RunRecord alone would be skipped there.
    from scoring.models import RunFields, RunRecord

    assert RunRecord.__mro__[1] is RunFields
    assert RunRecord.model_config == RunFields.model_config
    assert {
        name: (field.annotation, field.metadata, field.default)
        for name, field in RunRecord.model_fields.items()
    } == {
        name: (field.annotation, field.metadata, field.default)
        for name, field in RunFields.model_fields.items()
    }
    own, base = RunRecord.__pydantic_decorators__, RunFields.__pydantic_decorators__
    assert set(own.model_validators) - set(base.model_validators) == {"_required_by_status"}
    for kind in ("validators", "field_validators", "root_validators"):
        assert getattr(own, kind).keys() == getattr(base, kind).keys(), kind
