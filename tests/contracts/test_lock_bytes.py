"""The lock records what it says: the SHA-256 of each released snapshot file's bytes.

``sha256sum`` of a released snapshot equals its lock entry; ``verify`` says OK for those
exact bytes only and tells a re-formatted copy ("same content, different bytes") from a
different methodology; ``check`` fails on a re-indented released snapshot as on an edited
one; ``update`` records the hash of the bytes it writes.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from contract_builders import check_text, edit_lock, edit_snapshot, update_bumped

from contracts import store
from contracts.check.drift import run_check
from contracts.model import Methodology
from contracts.verify import verify_file

RELEASED = list(store.read_lock())


@pytest.mark.parametrize("version", RELEASED)
def test_the_lock_entry_is_what_sha256sum_prints(version: str) -> None:
    path = store.snapshot_path(version)
    if shutil.which("sha256sum") is None:
        pytest.skip("sha256sum is not installed")
    printed = subprocess.run(
        ["sha256sum", str(path)], capture_output=True, text=True, check=True
    ).stdout.split()[0]
    assert store.read_lock()[version] == printed == store.file_hash(path.read_bytes())


@pytest.mark.parametrize("version", RELEASED)
def test_the_lock_also_records_the_content_hash(version: str) -> None:
    read = store.read_snapshot(store.snapshot_path(version))
    assert store.read_lock_entries()[version].content_sha256 == read.sha256


def _reindented(source: Path, target: Path, indent: int | None) -> Path:
    data = json.loads(source.read_text(encoding="utf-8"))
    target.write_text(json.dumps(data, indent=indent, ensure_ascii=False), encoding="utf-8")
    return target


@pytest.mark.parametrize("indent", [4, None])
def test_verify_tells_a_reformatted_copy_from_the_released_bytes(
    tmp_path: Path, indent: int | None
) -> None:
    version = RELEASED[-1]
    copy = _reindented(store.snapshot_path(version), tmp_path / "copy.json", indent)
    verdict = verify_file(copy)
    assert verdict.exit_code == 1
    assert f"SAME CONTENT, DIFFERENT BYTES {version}" in verdict.line
    assert f"expected sha256 {store.read_lock()[version]}" in verdict.line
    assert f"actual sha256 {store.file_hash(copy.read_bytes())}" in verdict.line


def test_verify_says_ok_for_an_exact_copy(tmp_path: Path) -> None:
    version = RELEASED[-1]
    copy = tmp_path / "copy.json"
    shutil.copyfile(store.snapshot_path(version), copy)
    assert verify_file(copy).line == f"OK {version} sha256 {store.read_lock()[version]}"


def test_verify_calls_a_changed_content_a_mismatch(tmp_path: Path) -> None:
    version = RELEASED[-1]
    copy = tmp_path / f"{version}.json"
    shutil.copyfile(store.snapshot_path(version), copy)
    edit_snapshot(copy, ("examples", 0, "title"), "Another title")
    verdict = verify_file(copy)
    assert verdict.exit_code == 1
    assert f"MISMATCH {version}" in verdict.line
    assert "SAME CONTENT" not in verdict.line


def test_verify_refuses_a_lock_in_the_old_format(tmp_path: Path) -> None:
    lock = tmp_path / "released.json"
    old = {v: e.content_sha256 for v, e in store.read_lock_entries().items()}
    lock.write_text(json.dumps({"released": old}), encoding="utf-8")
    verdict = verify_file(store.snapshot_path(RELEASED[-1]), lock)
    assert verdict.exit_code == 2
    assert "the lock format before 1.1.0" in verdict.line


@pytest.mark.parametrize("version", RELEASED)
def test_check_fails_on_a_reindented_released_snapshot(
    files: tuple[Path, Path], live: Methodology, version: str
) -> None:
    snapshots, changelog = files
    path = store.snapshot_path(version, snapshots)
    _reindented(path, path, 4)
    result = run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog)
    assert result.exit_code == 1
    text = check_text(result)
    assert f"{path}: released snapshot was re-formatted: same content, different bytes" in text
    assert f"git checkout -- {path}" in text


def test_check_passes_on_the_committed_bytes(files: tuple[Path, Path], live: Methodology) -> None:
    snapshots, changelog = files
    result = run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog)
    assert "re-formatted" not in check_text(result)
    assert "was edited" not in check_text(result)


def test_check_fails_on_an_edited_content_hash_in_the_lock(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    edit_lock(snapshots, RELEASED[0], "content_sha256", "0" * 64)
    result = run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog)
    assert result.exit_code == 1
    assert f"the content hash of released version {RELEASED[0]} was changed" in check_text(result)


def test_update_records_the_hash_of_the_bytes_it_writes(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, _ = files
    result = update_bumped(files, live, "9.0.0")
    assert result.ok, result.output()
    written = store.snapshot_path("9.0.0", snapshots)
    entry = store.read_lock_entries(snapshots / store.LOCK_FILENAME)["9.0.0"]
    assert entry.sha256 == store.file_hash(written.read_bytes())
    assert entry.content_sha256 == store.read_snapshot(written).sha256
    # The released entries are kept as they were.
    for version in RELEASED:
        assert (
            store.read_lock(snapshots / store.LOCK_FILENAME)[version] == store.read_lock()[version]
        )
