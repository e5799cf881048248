"""The file-system side of the contracts: atomic writes, the update lock, git ``HEAD``.

:func:`write_atomic` never leaves a half-written file (temporary file, then rename);
:func:`temporary_files` finds what a killed write left behind; :func:`update_lock` lets one
``python -m contracts update`` run at a time, across processes; :func:`text_at_head` reads a
file as git last committed it.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from contracts.source import display_path
from contracts.store import EXIT_FAILED, UPDATE_COMMAND, ContractsError

#: How long an update waits for another one to finish before it refuses.
UPDATE_LOCK_WAIT_SECONDS = 10.0
_LOCK_POLL_SECONDS = 0.05
#: The names of write_atomic's temporary files: ``.<target name>.<random>.tmp``.
TEMPORARY_GLOB = ".*.tmp"


def _new_file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename: never half-written."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(temporary, path.stat().st_mode & 0o777 if path.exists() else _new_file_mode())
        with os.fdopen(handle, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def temporary_files(directory: Path) -> list[Path]:
    """Temporary files of :func:`write_atomic` in ``directory`` (left by an update that was
    killed, or being written by one that runs now), by name."""
    if not directory.is_dir():
        return []
    return sorted(p for p in directory.glob(TEMPORARY_GLOB) if p.is_file())


@contextlib.contextmanager
def update_lock(directory: Path, wait_seconds: float = UPDATE_LOCK_WAIT_SECONDS) -> Iterator[None]:
    """Hold the update lock of a snapshot folder: one update at a time, across processes.

    The lock is ``flock`` on the folder itself (no lock file to leave behind); the kernel
    releases it when the holder exits, however it exits. Another holder is waited for up to
    ``wait_seconds``, then :class:`ContractsError` (exit 1) says so.
    """
    directory.mkdir(parents=True, exist_ok=True)
    handle = os.open(directory, os.O_RDONLY)
    try:
        deadline = time.monotonic() + wait_seconds
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise ContractsError(
                        f"{display_path(directory)}: another {UPDATE_COMMAND} is running "
                        f"(it holds the lock on this folder; waited {wait_seconds:g} s); "
                        "run the update again once it has finished",
                        exit_code=EXIT_FAILED,
                    ) from None
                time.sleep(_LOCK_POLL_SECONDS)
        yield
    finally:
        os.close(handle)  # releases the lock


def update_running(directory: Path) -> bool:
    """Whether an update holds the lock of ``directory`` right now."""
    try:
        handle = os.open(directory, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(handle)
    return False


def _git(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["git", *args], cwd=path.parent, capture_output=True, text=True, check=False
    )


def work_tree_top(path: Path) -> Path | None:
    """The top folder of the git work tree that holds ``path``; ``None`` when git cannot
    tell (no git, not a work tree)."""
    try:
        top = _git(path, "rev-parse", "--show-toplevel")
    except (OSError, ValueError):
        return None
    return Path(top.stdout.strip()).resolve() if top.returncode == 0 else None


def text_at_head(path: Path) -> str | None:
    """The text of ``path`` as committed at git ``HEAD``; ``None`` when git cannot tell
    (no git, not a work tree, no commit, the file not committed)."""
    top = work_tree_top(path)
    if top is None:
        return None
    try:
        relative = path.resolve().relative_to(top).as_posix()
        shown = _git(path, "show", f"HEAD:{relative}")
    except (OSError, ValueError):
        return None
    return shown.stdout if shown.returncode == 0 else None
