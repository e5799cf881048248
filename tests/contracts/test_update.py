"""The update: what it records, what it refuses, on copies of the committed files."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from contract_builders import VERSION, add_entry, bumped_to, update_bumped, with_constant

from contracts import store
from contracts.check.drift import (
    run_check,
)
from contracts.model import Methodology
from contracts.output import OUTPUT_MODELS
from contracts.update import run_update

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
    drifted = with_constant(live, "composite.weight.cost", 0.25)
    result = run_update(live=drifted, snapshot_dir=snapshots, changelog_path=changelog)
    assert (result.ok, result.exit_code) == (False, 1)
    [line] = result.lines
    assert line.startswith(f"contracts update: REFUSED: version {VERSION} is released")
    assert "(1 difference; run python -m contracts check to list them)" in line
    assert "python -m contracts release --note" in line
    assert "bumps METHODOLOGY_VERSION, scoring/constants.py:" in line
    assert _files_bytes(snapshots) == before


def test_update_records_a_new_version_and_leaves_older_ones(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    before = (snapshots / f"{VERSION}.json").read_bytes()
    bumped = bumped_to(with_constant(live, "composite.weight.cost", 0.25), "2.0.0")
    refused = run_update(live=bumped, snapshot_dir=snapshots, changelog_path=changelog)
    assert refused.exit_code == 1
    assert "no entry for methodology version 2.0.0" in refused.lines[0]
    assert not (snapshots / "2.0.0.json").exists()

    add_entry(changelog, "2.0.0")
    result = run_update(live=bumped, snapshot_dir=snapshots, changelog_path=changelog)
    assert result.ok
    assert result.written == [snapshots / "2.0.0.json", snapshots / "released.json"]
    assert (snapshots / f"{VERSION}.json").read_bytes() == before
    released = list(store.read_lock())
    assert list(store.read_lock(snapshots / "released.json")) == [*released, "2.0.0"]
    assert store.read_snapshot(snapshots / "2.0.0.json").methodology == bumped
    assert run_check(live=bumped, snapshot_dir=snapshots, changelog_path=changelog).ok
    assert sorted(p.name for p in snapshots.iterdir()) == sorted(
        [
            *(f"{v}.json" for v in released),
            "2.0.0.json",
            "methodology.schema.json",
            "outcome.schema.json",
            "released.json",
            "report.schema.json",
        ]
    )


def test_update_refuses_a_version_that_is_not_newer(
    files: tuple[Path, Path], live: Methodology
) -> None:
    result = update_bumped(files, live, "0.9.0")
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
    schemas = [store.SCHEMA_FILENAME, *OUTPUT_MODELS]
    assert set(written) == {f"{VERSION}.json", store.LOCK_FILENAME, *schemas}
    for name in (f"{VERSION}.json", *schemas):
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
    first = bumped_to(with_constant(live, "composite.weight.cost", 0.25), "2.0.0")
    second = with_constant(first, "composite.weight.reliability", 0.35)
    add_entry(changelog, "2.0.0")
    outside = run_update(live=first, snapshot_dir=snapshots, changelog_path=changelog)
    assert outside.ok
    refused = run_update(live=second, snapshot_dir=snapshots, changelog_path=changelog, amend=True)
    assert "cannot amend version 2.0.0: git cannot tell" in refused.lines[0]

    root = snapshots.parent
    shutil.rmtree(snapshots)
    shutil.copytree(store.SNAPSHOT_DIR, snapshots)
    _git(root, "init", "-q")
    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", "1.0.0")
    assert run_update(live=first, snapshot_dir=snapshots, changelog_path=changelog).ok
    plain = run_update(live=second, snapshot_dir=snapshots, changelog_path=changelog)
    assert "version 2.0.0 is released" in plain.lines[0]
    amended = run_update(live=second, snapshot_dir=snapshots, changelog_path=changelog, amend=True)
    assert amended.ok, amended.lines
    assert amended.lines[0] == "amending unreleased version 2.0.0 (not in git HEAD's lock)"
    assert run_check(live=second, snapshot_dir=snapshots, changelog_path=changelog).ok

    _git(root, "add", ".")
    _git(root, "commit", "-q", "-m", "2.0.0")
    third = with_constant(second, "composite.weight.success", 0.3)
    refused = run_update(live=third, snapshot_dir=snapshots, changelog_path=changelog, amend=True)
    assert "it is released in the committed released.json (git HEAD)" in refused.lines[0]
