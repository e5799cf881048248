"""The drift check, the update and the CLI, in-process on copies of the committed files."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import contracts.check
import contracts.update
from contracts import store
from contracts.build import build_snapshot, locate
from contracts.check import run_check
from contracts.cli import Command, main
from contracts.model import Methodology
from contracts.update import run_update
from scoring.constants import METHODOLOGY_VERSION

#: The current (newest released) version, which the live code is checked against.
VERSION = METHODOLOGY_VERSION


@pytest.fixture(scope="module")
def live() -> Methodology:
    return build_snapshot()


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the committed snapshots folder and changelog."""
    snapshots = tmp_path / "snapshots"
    shutil.copytree(store.SNAPSHOT_DIR, snapshots)
    changelog = tmp_path / "CHANGELOG.md"
    shutil.copy2(store.CHANGELOG_PATH, changelog)
    return snapshots, changelog


def _with_constant(snapshot: Methodology, name: str, value: object) -> Methodology:
    constants = [
        entry.model_copy(update={"value": value}) if entry.name == name else entry
        for entry in snapshot.constants
    ]
    return snapshot.model_copy(update={"constants": constants})


def _bumped(snapshot: Methodology, version: str) -> Methodology:
    bumped = _with_constant(snapshot, "methodology.version", version)
    return bumped.model_copy(update={"methodology_version": version})


def _add_entry(changelog: Path, version: str) -> None:
    text = changelog.read_text(encoding="utf-8")
    head, rest = text.split(f"\n## {VERSION} (", 1)
    entry = f"\n## {version} (2026-12-01)\n\nCost weighs less.\n"
    changelog.write_text(f"{head}{entry}\n## {VERSION} ({rest}", encoding="utf-8")


def _line(snapshot: Methodology, name: str) -> int:
    return locate(snapshot.constant(name).defined_in)


def _text(result: contracts.check.CheckResult) -> str:
    return "\n".join(result.lines())


# --- check -----------------------------------------------------------------------------------


def test_check_passes_on_the_committed_contracts() -> None:
    result = run_check()
    assert (result.ok, result.problems, result.exit_code) == (True, [], 0)
    assert result.lines() == ["contracts check: OK"]


def test_check_passes_on_a_copy(files: tuple[Path, Path], live: Methodology) -> None:
    snapshots, changelog = files
    assert run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog).ok


def test_check_names_each_drift_and_asks_for_a_bump(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    drifted = _with_constant(live, "composite.weight.cost", 0.25)
    result = run_check(live=drifted, snapshot_dir=snapshots, changelog_path=changelog)
    assert (result.ok, result.exit_code) == (False, 1)
    [difference] = result.differences
    assert difference.path == "constants[composite.weight.cost].value"
    assert (difference.committed, difference.live) == (0.3, 0.25)
    assert difference.location == f"scoring/constants.py:{_line(live, 'composite.weight.cost')}"
    assert "  constants[composite.weight.cost].value" in result.problems
    assert any("is released and its snapshot is immutable" in line for line in result.problems)


def test_check_on_a_bumped_version_lists_what_update_will_record(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    bumped = _bumped(_with_constant(live, "composite.weight.cost", 0.25), "1.1.0")
    text = _text(run_check(live=bumped, snapshot_dir=snapshots, changelog_path=changelog))
    assert "1.1.0.json: the snapshot of methodology version 1.1.0 is missing" in text
    assert (
        f"changes since released version {VERSION} (3 differences), which python -m contracts "
        "update" in text
    )
    assert "  constants[composite.weight.cost].value" in text
    assert "  methodology_version" in text
    assert "no entry for methodology version 1.1.0" in text
    _add_entry(changelog, "1.1.0")
    text = _text(run_check(live=bumped, snapshot_dir=snapshots, changelog_path=changelog))
    assert "no entry for methodology version 1.1.0" not in text
    assert "is missing; run python -m contracts update" in text


def test_check_rejects_a_version_older_than_the_released_ones(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    result = run_check(
        live=_bumped(live, "0.9.0"), snapshot_dir=snapshots, changelog_path=changelog
    )
    assert f"0.9.0 is older than the newest released version {VERSION}" in _text(result)
    result = run_check(live=_bumped(live, "1.0"), snapshot_dir=snapshots, changelog_path=changelog)
    assert "constants[methodology.version].value: methodology version '1.0' is not" in _text(result)


def test_check_catches_an_edited_released_snapshot(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    path = snapshots / f"{VERSION}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["examples"][0]["title"] = "A nicer title"
    path.write_text(store.pretty_json(data), encoding="utf-8")
    result = run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog)
    assert result.exit_code == 1
    assert f"{path}: released snapshot was edited: its content hash" in _text(result)
    assert [d.path for d in result.differences] == ["examples[composite.typical].title"]


def test_check_catches_a_missing_or_unrecorded_snapshot(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    shutil.copy2(snapshots / f"{VERSION}.json", snapshots / "0.5.0.json")
    (snapshots / f"{VERSION}.json").unlink()
    text = _text(run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog))
    assert f"the snapshot of released version {VERSION} is missing; restore it" in text
    assert "0.5.0.json: version 0.5.0 is not recorded in released.json" in text


def test_check_catches_a_missing_changelog_entry(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    changelog.write_text("# Methodology changelog\n", encoding="utf-8")
    result = run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog)
    assert result.exit_code == 1
    assert f"{changelog}: no entry for released version {VERSION}; add a section" in _text(result)


def test_check_catches_a_stale_or_missing_schema(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    schema = snapshots / store.SCHEMA_FILENAME
    schema.write_text("{}\n", encoding="utf-8")
    result = run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog)
    assert result.problems == [
        f"{schema}: the JSON Schema is stale (the snapshot model changed); "
        "run python -m contracts update"
    ]
    schema.unlink()
    result = run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog)
    assert result.problems == [
        f"{schema}: the JSON Schema is missing; run python -m contracts update"
    ]


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        (f"{VERSION}.json", '{"constants": [', "snapshot is not valid JSON (line 1, column 16"),
        (f"{VERSION}.json", '{"methodology_version": "1.0.0"}', "does not match the schema"),
        ("released.json", "not json", "lock is not valid JSON (line 1, column 1"),
        ("released.json", None, "lock of released versions is missing"),
        ("CHANGELOG.md", "## 1.0.0\n", "'## 1.0.0': a section heading must read"),
        ("CHANGELOG.md", None, "changelog is missing; restore it from git"),
    ],
)
def test_check_names_an_unusable_file_and_exits_2(
    files: tuple[Path, Path], live: Methodology, name: str, content: str | None, message: str
) -> None:
    snapshots, changelog = files
    path = changelog if name == "CHANGELOG.md" else snapshots / name
    if content is None:
        path.unlink()
    else:
        path.write_text(content, encoding="utf-8")
    result = run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog)
    assert (result.ok, result.exit_code) == (False, 2)
    assert any(line.startswith(f"{path}") and message in line for line in result.problems)


def test_check_turns_a_broken_build_into_a_message(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> Methodology:
        return 1 // 0  # type: ignore[return-value]

    monkeypatch.setattr(contracts.check, "build_snapshot", broken)
    result = run_check()
    assert result.exit_code == 2
    [problem] = result.problems
    assert problem.startswith("cannot build the live methodology from scoring at tests/")
    assert problem.endswith("ZeroDivisionError: integer division or modulo by zero")


# --- update ----------------------------------------------------------------------------------


def _files_bytes(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_update_writes_nothing_when_up_to_date(files: tuple[Path, Path], live: Methodology) -> None:
    snapshots, changelog = files
    result = run_update(live=live, snapshot_dir=snapshots, changelog_path=changelog)
    assert (result.ok, result.written) == (True, [])
    assert result.lines == [
        f"contracts update: OK; version {VERSION} is up to date, nothing written"
    ]


def test_update_refuses_to_change_a_released_version(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    before = _files_bytes(snapshots)
    drifted = _with_constant(live, "composite.weight.cost", 0.25)
    result = run_update(live=drifted, snapshot_dir=snapshots, changelog_path=changelog)
    assert (result.ok, result.exit_code) == (False, 1)
    [line] = result.lines
    assert line.startswith(f"contracts update: REFUSED: version {VERSION} is released")
    assert "(1 difference; run python -m contracts check to list them)" in line
    assert "bump METHODOLOGY_VERSION (scoring/constants.py:" in line
    assert _files_bytes(snapshots) == before


def test_update_records_a_new_version_and_leaves_older_ones(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    before = (snapshots / f"{VERSION}.json").read_bytes()
    bumped = _bumped(_with_constant(live, "composite.weight.cost", 0.25), "1.1.0")
    refused = run_update(live=bumped, snapshot_dir=snapshots, changelog_path=changelog)
    assert refused.exit_code == 1
    assert "no entry for methodology version 1.1.0" in refused.lines[0]
    assert not (snapshots / "1.1.0.json").exists()

    _add_entry(changelog, "1.1.0")
    result = run_update(live=bumped, snapshot_dir=snapshots, changelog_path=changelog)
    assert result.ok
    assert result.written == [snapshots / "1.1.0.json", snapshots / "released.json"]
    assert (snapshots / f"{VERSION}.json").read_bytes() == before
    released = list(store.read_lock())
    assert list(store.read_lock(snapshots / "released.json")) == [*released, "1.1.0"]
    assert store.read_snapshot(snapshots / "1.1.0.json").methodology == bumped
    assert run_check(live=bumped, snapshot_dir=snapshots, changelog_path=changelog).ok
    assert sorted(p.name for p in snapshots.iterdir()) == sorted(
        [*(f"{v}.json" for v in released), "1.1.0.json", "methodology.schema.json", "released.json"]
    )


def test_update_refuses_a_version_that_is_not_newer(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    _add_entry(changelog, "0.9.0")
    result = run_update(
        live=_bumped(live, "0.9.0"), snapshot_dir=snapshots, changelog_path=changelog
    )
    assert result.exit_code == 1
    assert f"version 0.9.0 is not newer than released version {VERSION}" in result.lines[0]


def test_update_restores_an_edited_current_snapshot(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    path = snapshots / f"{VERSION}.json"
    original = path.read_bytes()
    path.write_text(path.read_text(encoding="utf-8").replace("56.1", "56.2"), encoding="utf-8")
    assert not run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog).ok
    result = run_update(live=live, snapshot_dir=snapshots, changelog_path=changelog)
    assert result.lines[0] == f"restored {path} (methodology {VERSION})"
    assert path.read_bytes() == original


def test_update_bootstraps_an_empty_folder(tmp_path: Path, live: Methodology) -> None:
    changelog = tmp_path / "CHANGELOG.md"
    shutil.copy2(store.CHANGELOG_PATH, changelog)
    snapshots = tmp_path / "snapshots"
    result = run_update(live=live, snapshot_dir=snapshots, changelog_path=changelog)
    assert result.ok
    # The current version only: the older released snapshots are not rebuilt from live code.
    written, committed = _files_bytes(snapshots), _files_bytes(store.SNAPSHOT_DIR)
    assert set(written) == {f"{VERSION}.json", store.SCHEMA_FILENAME, store.LOCK_FILENAME}
    for name in (f"{VERSION}.json", store.SCHEMA_FILENAME):
        assert written[name] == committed[name]
    lock = store.read_lock(snapshots / store.LOCK_FILENAME)
    assert lock == {VERSION: store.read_lock()[VERSION]}


def test_update_refuses_when_the_lock_is_lost(files: tuple[Path, Path], live: Methodology) -> None:
    snapshots, changelog = files
    (snapshots / "released.json").unlink()
    result = run_update(live=live, snapshot_dir=snapshots, changelog_path=changelog)
    assert result.exit_code == 2
    existing = ", ".join(store.read_lock())
    assert f"the lock is missing but snapshots exist ({existing}); restore it" in result.lines[0]


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args],
        cwd=cwd,
        check=True,
        capture_output=True,
    )


def test_update_amend_only_before_the_version_is_committed(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    first = _bumped(_with_constant(live, "composite.weight.cost", 0.25), "1.1.0")
    second = _with_constant(first, "composite.weight.reliability", 0.35)
    _add_entry(changelog, "1.1.0")
    outside = run_update(live=first, snapshot_dir=snapshots, changelog_path=changelog)
    assert outside.ok
    refused = run_update(live=second, snapshot_dir=snapshots, changelog_path=changelog, amend=True)
    assert "cannot amend version 1.1.0: git cannot tell" in refused.lines[0]

    root = snapshots.parent
    shutil.rmtree(snapshots)
    shutil.copytree(store.SNAPSHOT_DIR, snapshots)
    _git(root, "init", "-q")
    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", "1.0.0")
    assert run_update(live=first, snapshot_dir=snapshots, changelog_path=changelog).ok
    plain = run_update(live=second, snapshot_dir=snapshots, changelog_path=changelog)
    assert "version 1.1.0 is released" in plain.lines[0]
    amended = run_update(live=second, snapshot_dir=snapshots, changelog_path=changelog, amend=True)
    assert amended.ok, amended.lines
    assert amended.lines[0] == "amending unreleased version 1.1.0 (not in git HEAD's lock)"
    assert run_check(live=second, snapshot_dir=snapshots, changelog_path=changelog).ok

    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", "1.1.0")
    third = _with_constant(second, "composite.weight.success", 0.3)
    refused = run_update(live=third, snapshot_dir=snapshots, changelog_path=changelog, amend=True)
    assert "it is released in the committed released.json (git HEAD)" in refused.lines[0]


# --- CLI -------------------------------------------------------------------------------------


def test_cli_has_one_enum_of_commands() -> None:
    assert [command.value for command in Command] == ["check", "update", "impact"]


def test_cli_check_ok(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check"]) == 0
    assert capsys.readouterr() == ("contracts check: OK\n", "")


def test_cli_check_prints_exact_lines_for_a_drift(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], live: Methodology
) -> None:
    drifted = _with_constant(live, "composite.weight.cost", 0.25)
    monkeypatch.setattr(contracts.check, "build_snapshot", lambda: drifted)
    assert main(["check"]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    weight = _line(live, "composite.weight.cost")
    version = _line(live, "methodology.version")
    assert err.splitlines() == [
        f"contracts/snapshots/{VERSION}.json: the live methodology differs from the committed "
        f"snapshot of version {VERSION} (1 difference):",
        "  constants[composite.weight.cost].value",
        "      committed: 0.3",
        "      live:      0.25",
        f"      defined:   scoring/constants.py:{weight}",
        "      fix:       python -m contracts update, after bumping METHODOLOGY_VERSION and "
        "adding a CHANGELOG entry (or revert the change)",
        f"version {VERSION} is released and its snapshot is immutable: to publish this change, "
        f"bump METHODOLOGY_VERSION (scoring/constants.py:{version}), add a "
        "'## <new version> (<YYYY-MM-DD>)' entry to contracts/CHANGELOG.md, then run: "
        "python -m contracts update",
        "contracts check: FAILED (2 problems, exit 1)",
    ]


def test_cli_check_exit_2_names_the_file(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    changelog = tmp_path / "CHANGELOG.md"
    changelog.write_text("## nope\n", encoding="utf-8")
    monkeypatch.setattr(contracts.check, "CHANGELOG_PATH", changelog)
    assert main(["check"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"{changelog}:1: '## nope': a section heading must read "
        "'## <MAJOR.MINOR.PATCH> (<YYYY-MM-DD>)'",
        "contracts check: FAILED (1 problem, exit 2)",
    ]


def test_cli_update(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    files: tuple[Path, Path],
    live: Methodology,
) -> None:
    snapshots, changelog = files
    monkeypatch.setattr(contracts.update, "SNAPSHOT_DIR", snapshots)
    monkeypatch.setattr(contracts.update, "CHANGELOG_PATH", changelog)
    assert main(["update"]) == 0
    assert capsys.readouterr().out == (
        f"contracts update: OK; version {VERSION} is up to date, nothing written\n"
    )
    drifted = _with_constant(live, "composite.weight.cost", 0.25)
    monkeypatch.setattr(contracts.check, "build_snapshot", lambda: drifted)
    assert main(["update"]) == 1
    assert capsys.readouterr().err.startswith(f"contracts update: REFUSED: version {VERSION}")


def test_cli_usage_errors_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in ([], ["bogus"], ["check", "--amend"]):
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2
    assert "usage: python -m contracts" in capsys.readouterr().err
