"""``python -m contracts verify`` and the JSON Schemas of the CLI output.

verify: exit 0 on a released snapshot (committed file or republished content), 1 on an
edited one naming both hashes or on a version never released, 2 on unreadable input. The
schemas: real ``report``/``outcome --format json`` output and every committed snapshot
validate with jsonschema; the committed output schemas are fresh, and a stale one fails the
drift check.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from processes import run_captured

from contracts.build import build_snapshot
from contracts.check.drift import run_check
from contracts.cli import main as contracts_main
from contracts.output import OUTPUT_MODELS, output_schema_text, stale_output_schemas
from contracts.source import REPO_ROOT
from contracts.store import (
    LOCK_PATH,
    SCHEMA_PATH,
    SNAPSHOT_DIR,
    file_hash,
    read_lock,
    snapshot_path,
    snapshot_text,
)
from contracts.verify import verify_file
from scoring.cli import run

RELEASED = list(read_lock())


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    """``python -m contracts verify`` in this process (its exit status and streams): the
    command's own code, without a Python start per case; one test below runs it as a
    process, end to end."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = contracts_main(["verify", *args])
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


@pytest.mark.parametrize("version", RELEASED)
def test_a_released_snapshot_verifies(version: str) -> None:
    result = _cli(str(snapshot_path(version)))
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"OK {version} sha256 {read_lock()[version]}\n"


def test_verify_as_a_process_prints_and_exits_as_in_process(tmp_path: Path) -> None:
    """The command line end to end (``python -m contracts verify``): the same lines and exit
    statuses as the in-process runs above, on a released snapshot and on an unreadable file."""
    for path in (snapshot_path(RELEASED[-1]), tmp_path / "missing.json"):
        process = run_captured(
            [sys.executable, "-m", "contracts", "verify", str(path)], cwd=REPO_ROOT
        )
        inside = _cli(str(path))
        assert (process.returncode, process.stdout, process.stderr) == (
            inside.returncode,
            inside.stdout,
            inside.stderr,
        )
    assert process.returncode == 2
    assert "Traceback" not in process.stderr


def test_the_live_snapshot_as_the_site_publishes_it_verifies(tmp_path: Path) -> None:
    live = build_snapshot()
    if live.methodology_version not in read_lock():
        pytest.skip("the live version is not released yet")
    path = tmp_path / "methodology.json"
    path.write_text(snapshot_text(live), encoding="utf-8")
    assert verify_file(path).exit_code == 0


def test_an_edited_snapshot_fails_naming_both_hashes(tmp_path: Path) -> None:
    version = RELEASED[-1]
    data = json.loads(snapshot_path(version).read_text(encoding="utf-8"))
    entry = next(c for c in data["constants"] if c["name"] == "radar.window_runs")
    entry["value"] += 1
    path = tmp_path / f"{version}.json"
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")
    result = _cli(str(path))
    assert result.returncode == 1
    expected, actual = read_lock()[version], file_hash(path.read_bytes())
    assert f"expected sha256 {expected}" in result.stderr
    assert f"actual sha256 {actual}" in result.stderr
    assert result.stdout == ""


def test_a_version_never_released_fails(tmp_path: Path) -> None:
    data = json.loads(snapshot_path(RELEASED[-1]).read_text(encoding="utf-8"))
    data["methodology_version"] = "99.0.0"
    path = tmp_path / "new.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    verdict = verify_file(path)
    assert verdict.exit_code == 1
    assert "99.0.0 was never released" in verdict.line


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot be read"),
        (b"\xff\xfe", "not UTF-8"),
        (b'{"a": ', "not JSON (line 1"),
        (b"[]", "a snapshot is a JSON object"),
        (b'{"methodology_version": "1.0.0"}', "not a methodology snapshot: "),
    ],
)
def test_unreadable_input_exits_2(tmp_path: Path, content: bytes | None, message: str) -> None:
    path = tmp_path / "download.json"
    if content is not None:
        path.write_bytes(content)
    result = _cli(str(path))
    assert result.returncode == 2
    assert message in result.stderr
    assert "Traceback" not in result.stderr


def test_a_downloaded_lock_can_be_given(tmp_path: Path) -> None:
    lock = tmp_path / "released.json"
    shutil.copy(LOCK_PATH, lock)
    version = RELEASED[-1]
    assert verify_file(snapshot_path(version), lock).exit_code == 0
    lock.write_text('{"released": {}}', encoding="utf-8")
    assert verify_file(snapshot_path(version), lock).exit_code == 1
    lock.write_text("nope", encoding="utf-8")
    assert verify_file(snapshot_path(version), lock).exit_code == 2


# --- JSON Schemas -----------------------------------------------------------------------------


def _schema(name: str) -> dict[str, Any]:
    return json.loads((SNAPSHOT_DIR / name).read_text(encoding="utf-8"))


def _json_output(*argv: str, stdin: bytes) -> Any:
    import io

    out, err = io.StringIO(), io.StringIO()
    code = run([*argv, "--format", "json", "-"], stdin=io.BytesIO(stdin), stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    return json.loads(out.getvalue())


@pytest.fixture(scope="module")
def samples() -> Any:
    """The site's sample inputs (``docs/macros/samples.py``), the CLI's real input here."""
    sys.path.insert(0, str(REPO_ROOT / "docs"))
    try:
        return importlib.import_module("macros.samples")
    finally:
        sys.path.remove(str(REPO_ROOT / "docs"))


def test_report_output_validates_against_its_schema(samples: Any) -> None:
    data = _json_output("report", stdin=samples.jsonl(samples.sample_runs()).encode())
    assert data["agents"]
    jsonschema.validate(data, _schema("report.schema.json"))
    spoiled = json.loads(json.dumps(data))
    spoiled["agents"][0]["composite"]["score"] = 101
    with pytest.raises(jsonschema.ValidationError, match="101"):
        jsonschema.validate(spoiled, _schema("report.schema.json"))


def test_outcome_output_validates_against_its_schema(samples: Any) -> None:
    data = _json_output("outcome", stdin=samples.jsonl(samples.sample_outcomes()).encode())
    assert len(data) == len(samples.sample_outcomes())
    jsonschema.validate(data, _schema("outcome.schema.json"))
    spoiled = json.loads(json.dumps(data))
    spoiled[0]["scoring_version"] = "v0"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(spoiled, _schema("outcome.schema.json"))


@pytest.mark.parametrize("version", RELEASED)
def test_committed_snapshots_validate_against_the_methodology_schema(version: str) -> None:
    data = json.loads(snapshot_path(version).read_text(encoding="utf-8"))
    jsonschema.validate(data, json.loads(SCHEMA_PATH.read_text(encoding="utf-8")))


def test_output_schemas_are_fresh_and_a_stale_one_fails_the_check(tmp_path: Path) -> None:
    assert stale_output_schemas() == []
    for name, model in OUTPUT_MODELS.items():
        assert (SNAPSHOT_DIR / name).read_text(encoding="utf-8") == output_schema_text(model)
    copy = tmp_path / "snapshots"
    shutil.copytree(SNAPSHOT_DIR, copy)
    (copy / "report.schema.json").write_text("{}\n", encoding="utf-8")
    (copy / "outcome.schema.json").unlink()
    result = run_check(snapshot_dir=copy)
    assert result.exit_code == 1
    text = "\n".join(result.lines())
    assert "report.schema.json: the JSON Schema of the CLI output is stale" in text
    assert "outcome.schema.json: the JSON Schema of the CLI output is missing" in text
