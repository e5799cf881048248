"""What an input is, by its bytes (``scoring.report.byte_input``): gzip is read as it goes, with
the line numbers of the plain text; other binary input is named; an input plainly of the
other command's kind says so; an empty input says "no runs" / "no records"."""

from __future__ import annotations

import bz2
import gzip
import io
import json
import lzma
import tarfile
import zipfile
from pathlib import Path

import pytest
from builders import cli

from scoring.errors import InputError
from scoring.formulas.outcome import iter_outcome_scores
from scoring.report.byte_input import SIGNATURES, RecordKind, record_lines


def _run(index: int, **fields: object) -> dict[str, object]:
    return {
        "run_id": f"r{index}",
        "agent_id": f"agent-{index % 3}",
        "task_id": f"task-{index % 5}",
        "status": "completed",
        "success": index % 2 == 0,
        "latency_ms": 1000 + index,
        "cost_usd": 0.01,
        "steps": 3,
        "finished_at": "2026-01-01T00:00:00Z",
    } | fields


RUNS = b"".join(json.dumps(_run(i)).encode() + b"\n" for i in range(200))
RECORDS = b"".join(
    json.dumps({"run_id": f"o{i}", "judged": {"checklist": (i % 10) / 10}}).encode() + b"\n"
    for i in range(200)
)
INPUTS = {"report": RUNS, "outcome": RECORDS}


@pytest.mark.parametrize("command", ["report", "outcome"])
@pytest.mark.parametrize("name", ["runs.jsonl.gz", "runs.jsonl"])
def test_gzip_is_read_by_its_bytes_whatever_the_name(
    command: str, name: str, tmp_path: Path
) -> None:
    plain = cli([command, "-", "--format", "json"], INPUTS[command])
    assert plain[0] == 0
    path = tmp_path / name
    path.write_bytes(gzip.compress(INPUTS[command]))
    assert cli([command, str(path), "--format", "json"], b"") == plain
    assert cli([command, "-", "--format", "json"], path.read_bytes()) == plain


@pytest.mark.parametrize("command", ["report", "outcome"])
def test_a_bad_line_in_gzip_keeps_its_number(command: str) -> None:
    lines = INPUTS[command].splitlines(keepends=True)
    lines[150] = b'{"run_id": 5}\n'
    plain = cli([command, "-"], b"".join(lines))
    assert plain[0] == 2
    assert "line 151: " in plain[2]
    # Several gzip members (as `cat a.gz b.gz` writes) are one stream.
    members = gzip.compress(b"".join(lines[:100])) + gzip.compress(b"".join(lines[100:]))
    assert cli([command, "-"], members) == plain


def test_gzip_is_decompressed_as_it_is_read() -> None:
    many = b"".join(
        json.dumps({"run_id": f"o{i}", "judged": {"checklist": 0.5}}).encode() + b"\n"
        for i in range(100_000)
    )
    packed = io.BytesIO(gzip.compress(many))
    scores = iter_outcome_scores(packed)
    assert next(scores).run_id == "o0"
    assert packed.tell() < len(packed.getvalue()) / 4  # read only the start so far


@pytest.mark.parametrize("command", ["report", "outcome"])
def test_a_truncated_gzip_is_bad_input(command: str) -> None:
    packed = gzip.compress(INPUTS[command])
    code, out, err = cli([command, "-"], packed[: len(packed) // 2])
    assert (code, out) == (2, "")
    assert "gzip data broken after line " in err
    assert err.count("\n") == 2


def _zip(data: bytes) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("runs.jsonl", data)
    return buffer.getvalue()


def _tar(data: bytes) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        info = tarfile.TarInfo("a-long-file-name-of-a-run-log.jsonl")
        info.size = len(data)
        archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(20)
BINARY = {
    "zip": (_zip, "a zip archive"),
    "tar": (_tar, "a tar archive"),
    "bzip2": (bz2.compress, "bzip2-compressed data"),
    "xz": (lzma.compress, "xz-compressed data"),
    "zstd": (lambda d: b"\x28\xb5\x2f\xfd" + d, "zstd-compressed data"),
    "png": (lambda d: PNG, "a PNG image"),
    "utf-16": (lambda d: d.decode().encode("utf-16"), "UTF-16 text (little-endian)"),
    "utf-16-be": (lambda d: d.decode().encode("utf-16-be"), "UTF-16 text (big-endian)"),
    "utf-16 without a mark": (lambda d: d.decode().encode("utf-16-le"), "UTF-16 text"),
    "utf-32": (lambda d: d.decode().encode("utf-32"), "UTF-32 text (little-endian)"),
    "a zip in gzip": (lambda d: gzip.compress(_zip(d)), "gzip-compressed a zip archive"),
    "gzip in gzip": (lambda d: gzip.compress(gzip.compress(d)), "gzip inside gzip"),
    "NUL bytes": (lambda d: b"\x01\x02\x00\x00" + d, "binary data (a NUL byte at byte 3)"),
}


@pytest.mark.parametrize("command", ["report", "outcome"])
@pytest.mark.parametrize("kind", sorted(BINARY))
def test_binary_input_is_named_in_one_line(command: str, kind: str) -> None:
    make, named = BINARY[kind]
    code, out, err = cli([command, "-"], make(INPUTS[command]))
    assert (code, out) == (2, "")
    problem = err.splitlines()[1:]
    assert len(problem) == 1, err
    assert problem[0].startswith("input: " + named), err


def test_every_signature_is_named() -> None:
    for signature in SIGNATURES:
        head = bytes(signature.offset) + signature.magic + b"\n{}\n"
        with pytest.raises(InputError) as caught:
            list(record_lines([head], RecordKind.RUNS))
        assert signature.kind in str(caught.value)


@pytest.mark.parametrize(
    "first",
    [b"\n", b"{}\n", b"\xef\xbb\xbf\n", b"\r\n", b'{"a":1}\n'],
)
def test_text_with_a_short_first_line_is_read_as_before(first: str) -> None:
    # The first bytes are read as a block: the lines after them are whole again.
    data = first + RUNS
    assert list(record_lines(io.BytesIO(data), RecordKind.RUNS))[1:] == RUNS.splitlines(
        keepends=True
    )


def test_text_lines_from_a_file_are_its_lines() -> None:
    data = b"a\r\nb\rc\n\nlast without newline"
    assert list(record_lines(io.BytesIO(data), RecordKind.RUNS)) == io.BytesIO(data).readlines()


def test_a_run_log_given_to_outcome_is_named() -> None:
    code, out, err = cli(["outcome", "-"], RUNS)
    assert (code, out) == (2, "")
    assert err.splitlines()[1:] == [
        "line 1: a run record, where an outcome record was expected: this is a run log; "
        "score it with `scoring report`, not `scoring outcome` [other_command]"
    ]


def test_outcome_records_given_to_report_are_named() -> None:
    code, out, err = cli(["report", "-"], b"\n\n" + gzip.compress(RECORDS)[:0] + RECORDS)
    assert (code, out) == (2, "")
    assert err.splitlines()[1:] == [
        "line 3: an outcome record, where a run record was expected: this is a file of "
        "outcome records; score it with `scoring outcome`, not `scoring report` "
        "[other_command]"
    ]


@pytest.mark.parametrize(
    "line",
    [
        b'{"run_id": "x"}\n',  # could be either: the run log's own problems
        json.dumps(_run(1, status="bogus")).encode() + b"\n",  # a broken run, not an outcome
    ],
)
def test_what_is_not_plainly_the_other_kind_gets_its_own_problems(line: bytes) -> None:
    code, _, err = cli(["report", "-"], line)
    assert code == 2
    assert "other_command" not in err
    assert "line 1: " in err


@pytest.mark.parametrize(("command", "said"), [("report", "no runs"), ("outcome", "no records")])
@pytest.mark.parametrize(
    "data", [b"", b"\n \n\t\r\n", gzip.compress(b"", mtime=0), b"\xef\xbb\xbf"]
)
@pytest.mark.parametrize("fmt", ["table", "json"])
def test_an_empty_input_says_so_on_stderr(command: str, said: str, data: bytes, fmt: str) -> None:
    code, out, err = cli([command, "-", "--format", fmt], data)
    assert code == 0
    assert err == f"scoring {command}: {said} in stdin\n"
    if fmt == "json":
        json.loads(out)  # still the documented (empty) document


def test_a_scored_input_says_nothing_more() -> None:
    assert cli(["report", "-"], RUNS)[2] == ""
    assert cli(["outcome", "-"], RECORDS)[2] == ""
