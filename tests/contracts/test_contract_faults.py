"""Faults of the contracts tooling: broken live code, a ``defined_in`` outside
the repository, a wrong hash in the lock, concurrent updates, temporary files left behind,
non-ASCII digits in a version.

(Named ``test_contract_faults.py``, not ``test_faults.py``: pytest imports test files by
their base name when the folders have no ``__init__.py``, and ``tests/scoring/`` already
has a ``test_faults.py``.)
"""

from __future__ import annotations

import fcntl
import os
import signal
import subprocess
import threading
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest import mock

import pytest
from contract_builders import edit_lock, edit_snapshot, python_in
from serving import copy_project

from contracts import filesystem, store, update as update_module
from contracts.check.drift import run_check
from contracts.cli import terminate_as_interrupt
from contracts.filesystem import update_lock, write_atomic
from contracts.model import Location, Methodology
from contracts.source import REPO_ROOT, locate
from contracts.store import ContractsError, is_version, read_snapshot
from contracts.update import run_update

VERSION = store.current_version()
#: How long one thread waits for the other to reach a point: a bound on a hang, never an
#: order (the order comes from the events).
CONTENTION_WAIT_S = 60


# The fixtures ``live`` and ``files`` come from ``conftest.py``.


def _text(lines: list[str]) -> str:
    return "\n".join(lines)


def _contracts(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """``python -m contracts ARGS`` run on the copy of the code at ``root``."""
    return python_in(root, "-m", "contracts", *args, timeout_s=120)


# --- broken live code ----------------------------------------------------------------------


@pytest.mark.parametrize("command", ["check", "update"])
def test_a_syntax_error_in_scoring_is_one_line_with_file_and_line(
    tmp_path: Path, command: str
) -> None:
    root = copy_project(tmp_path, ("scoring", "contracts"))
    constants = root / "scoring" / "constants.py"
    lines = constants.read_text(encoding="utf-8").splitlines()
    lines.append("SCORE_DECIMALS = = 2")
    broken_line = len(lines)
    constants.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = _contracts(root, command)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith(
        f"contracts {command}: cannot import the live methodology (scoring) at "
        f"scoring/constants.py:{broken_line}: SyntaxError: "
    )


def test_an_error_raised_while_scoring_imports_names_its_line(tmp_path: Path) -> None:
    root = copy_project(tmp_path, ("scoring", "contracts"))
    radar = root / "scoring" / "formulas" / "radar.py"
    radar.write_text(radar.read_text(encoding="utf-8") + "\n1 / 0\n", encoding="utf-8")
    line = len(radar.read_text(encoding="utf-8").splitlines())
    done = _contracts(root, "check")
    assert done.returncode == 2
    assert done.stderr == (
        "contracts check: cannot import the live methodology (scoring) at "
        f"scoring/formulas/radar.py:{line}: ZeroDivisionError: division by zero\n"
    )


# --- defined_in stays inside the repository ------------------------------------------------


@pytest.mark.parametrize(
    "file",
    ["../../../etc/passwd.py", "/etc/passwd", "scoring/../../x.py", "C:/x.py", "README.md", ""],
)
def test_a_defined_in_outside_the_repository_is_refused(
    files: tuple[Path, Path], file: str
) -> None:
    snapshots, _ = files
    path = snapshots / f"{VERSION}.json"
    edit_snapshot(path, ("constants", 0, "defined_in", "file"), file)
    with pytest.raises(ContractsError, match=r"constants\.0\.defined_in\.file: Value error"):
        read_snapshot(path)


def test_locate_never_reads_outside_the_repository(tmp_path: Path) -> None:
    outside = tmp_path / "outside.py"
    outside.write_text("SECRET = 1\n", encoding="utf-8")
    link = REPO_ROOT / "scoring" / "_faults_test_link.py"
    link.symlink_to(outside)
    try:
        assert locate(Location(file="scoring/_faults_test_link.py", symbol="SECRET")) == 0
    finally:
        link.unlink()
    # A location built without validation (model_construct) is checked again.
    escaped = Location.model_construct(file=os.path.relpath(outside, REPO_ROOT), symbol="SECRET")
    assert locate(escaped) == 0


def test_locate_gives_no_line_for_a_file_it_cannot_parse(tmp_path: Path) -> None:
    broken = REPO_ROOT / "scoring" / "_faults_test_broken.py"
    broken.write_text("def (:\n", encoding="utf-8")
    try:
        assert locate(Location(file="scoring/_faults_test_broken.py", symbol="x")) == 0
    finally:
        broken.unlink()
    assert locate(Location(file="scoring.py", symbol="x")) == 0  # no such file


# --- a wrong hash in the lock --------------------------------------------------------------


def test_a_wrong_hash_in_the_lock_is_named_as_such(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    edit_lock(snapshots, VERSION, "sha256", "0" * 64)
    lock = snapshots / store.LOCK_FILENAME
    result = run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog)
    text = _text(result.output())
    assert result.exit_code == 1
    assert f"hash mismatch in the lock for released version {VERSION}" in text
    assert "was edited" not in text
    assert f"git checkout -- {lock}" in text


# --- one update at a time ------------------------------------------------------------------


def _hold_lock(directory: Path) -> int:
    handle = os.open(directory, os.O_RDONLY)
    fcntl.flock(handle, fcntl.LOCK_EX)
    return handle


def test_an_update_refuses_while_another_holds_the_lock(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    before = {p.name: p.read_bytes() for p in snapshots.iterdir()}
    handle = _hold_lock(snapshots)
    try:
        result = run_update(
            live=_bumped(live, "9.0.0"),
            snapshot_dir=snapshots,
            changelog_path=_with_entries(changelog, "9.0.0"),
            lock_wait_seconds=0.2,
        )
    finally:
        os.close(handle)
    assert (result.ok, result.exit_code) == (False, 1)
    assert "another python -m contracts update is running" in _text(result.output())
    assert {p.name: p.read_bytes() for p in snapshots.iterdir()} == before


def _bumped(live: Methodology, version: str) -> Methodology:
    return live.model_copy(update={"methodology_version": version})


def _with_entries(changelog: Path, *versions: str) -> Path:
    entries = "".join(f"## {v} (2026-12-01)\n\nA test release.\n\n" for v in versions)
    text = changelog.read_text(encoding="utf-8")
    first = text.index("\n## ")
    changelog.write_text(text[: first + 1] + entries + text[first + 1 :], encoding="utf-8")
    return changelog


def test_two_concurrent_updates_lose_no_entry(files: tuple[Path, Path], live: Methodology) -> None:
    """2.0.0 reads the lock, and only once 2.1.0 has found the folder locked does it go on
    to write: without the folder lock, 2.1.0 would read the same list and the second write
    would drop the first one's entry. Ordered by events, not by sleeping: 2.1.0 starts only
    when 2.0.0 is inside, and 2.0.0 waits until 2.1.0 is refused the lock (or, were the
    lock gone, until 2.1.0 reads the lock file too: then both write from the same list, and
    an entry is lost)."""
    snapshots, changelog = files
    released = set(store.read_lock(snapshots / store.LOCK_FILENAME))
    _with_entries(changelog, "2.0.0", "2.1.0")
    real_read_lock = update_module.read_lock_entries
    real_flock = filesystem.fcntl.flock
    first_inside, contended = threading.Event(), threading.Event()

    def read_lock(path: Path) -> dict[str, store.LockEntry]:
        if threading.current_thread().name == "2.0.0":
            first_inside.set()
            contended.wait(CONTENTION_WAIT_S)
        else:
            contended.set()  # only without the lock can the second get here now
        return real_read_lock(path)

    def flock(handle: int, operation: int) -> None:
        try:
            real_flock(handle, operation)
        except BlockingIOError:
            if threading.current_thread().name == "2.1.0":
                contended.set()
            raise

    results: dict[str, Any] = {}

    def update(version: str) -> None:
        results[version] = run_update(
            live=_bumped(live, version), snapshot_dir=snapshots, changelog_path=changelog
        )

    fcntl_of_the_lock = SimpleNamespace(**{**vars(fcntl), "flock": flock})
    with (
        mock.patch.object(update_module, "read_lock_entries", read_lock),
        mock.patch.object(filesystem, "fcntl", fcntl_of_the_lock),
    ):
        first = threading.Thread(target=update, args=("2.0.0",), name="2.0.0")
        second = threading.Thread(target=update, args=("2.1.0",), name="2.1.0")
        first.start()
        assert first_inside.wait(CONTENTION_WAIT_S), "the first update never read the lock"
        second.start()
        for thread in (first, second):
            thread.join()
    assert contended.is_set(), "the second update neither waited for the lock nor read it"
    assert all(r.ok for r in results.values()), results
    recorded = store.read_lock(snapshots / store.LOCK_FILENAME)
    assert set(recorded) == released | {"2.0.0", "2.1.0"}


# --- temporary files -----------------------------------------------------------------------


def test_check_reports_stray_temporary_files(files: tuple[Path, Path], live: Methodology) -> None:
    snapshots, changelog = files
    stray = snapshots / f".{VERSION}.json.k3x9_q.tmp"
    stray.write_text("{", encoding="utf-8")
    result = run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog)
    assert result.exit_code == 1
    assert f"1 temporary file(s) left by an interrupted update: {stray}" in _text(result.output())
    # While an update holds the lock, its temporary files are its own: not reported.
    handle = _hold_lock(snapshots)
    try:
        held = run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog)
    finally:
        os.close(handle)
    assert held.ok


def test_update_removes_temporary_files_left_behind(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    stray = snapshots / f".{store.LOCK_FILENAME}.a1b2c3.tmp"
    stray.write_text("{", encoding="utf-8")
    result = run_update(live=live, snapshot_dir=snapshots, changelog_path=changelog)
    assert result.ok
    assert f"removed {stray} (left by an interrupted update)" in result.output()
    assert not stray.exists()
    assert run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog).ok


def test_a_terminated_update_unwinds_and_cleans_up(tmp_path: Path) -> None:
    target = tmp_path / "file.json"
    real_fsync = os.fsync

    def terminated(fd: int) -> None:
        real_fsync(fd)
        os.kill(os.getpid(), signal.SIGTERM)  # arrives mid-write

    with (
        pytest.raises(KeyboardInterrupt),
        terminate_as_interrupt(),
        mock.patch.object(os, "fsync", terminated),
    ):
        write_atomic(target, "{}\n")
    assert list(tmp_path.iterdir()) == []
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL


def test_update_lock_is_released_when_its_holder_fails(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError), update_lock(tmp_path):
        raise RuntimeError
    with update_lock(tmp_path, wait_seconds=0):
        pass


# --- ASCII digits --------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["\u0661.0.0", "1.\uff10.0", "1.0.\u0969"])
def test_a_version_with_non_ascii_digits_is_not_a_version(version: str) -> None:
    assert not is_version(version)
    with pytest.raises(ValueError, match=r"is not MAJOR\.MINOR\.PATCH"):
        store.version_key(version)
