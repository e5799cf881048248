"""Work shared with a forked helper process: the report reads a large log on two cores.

A :class:`Helper` is a child process made with ``os.fork`` (it starts with the parent's
modules and data, nothing to import or send); it runs one function, and its result comes
back pickled through a file in memory. The helper never writes to stdout or stderr and
never runs the parent's exit handlers (it leaves with ``os._exit``). A helper that fails,
for any reason, gives ``None``: its caller then does the work itself, so a helper can make
a result come sooner, never different. :func:`helpers_allowed` says where there is a second
core to run one on (and where ``fork`` exists); ``SCORING_WORKERS=1`` turns helpers off.
"""

from __future__ import annotations

import contextlib
import io
import mmap
import os
import pickle
import signal
import tempfile
import threading
from collections.abc import Callable
from typing import Any, BinaryIO

#: The environment variable that turns helper processes off when set to ``1``.
WORKERS_ENV = "SCORING_WORKERS"


def usable_cores() -> int:
    """The CPU cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def helpers_allowed() -> bool:
    """Whether a helper process may run: ``fork`` exists, a second core is free to run it,
    ``SCORING_WORKERS`` is not ``1``, and this process runs one thread (a fork copies only
    the thread that makes it, and a lock another thread held would stay held in the copy:
    a program with threads that calls the library reads on one core)."""
    return (
        hasattr(os, "fork")
        and usable_cores() >= 2
        and os.environ.get(WORKERS_ENV) != "1"
        and threading.active_count() == 1
    )


class SharedCounts:
    """Counters that a helper raises and its parent reads (an anonymous shared mapping,
    made before the fork): how far the helper has read, for the progress line.

    >>> counts = SharedCounts(2)
    >>> counts.add(1, 5); counts.add(1, 2)
    >>> counts.value(0), counts.value(1)
    (0, 7)
    """

    def __init__(self, size: int) -> None:
        self._map = mmap.mmap(-1, 8 * size)
        self._values = memoryview(self._map).cast("Q")

    def add(self, index: int, count: int) -> None:
        """Raise counter ``index`` by ``count`` (only one process writes a counter)."""
        self._values[index] += count

    def value(self, index: int) -> int:
        """Counter ``index`` as last written."""
        return int(self._values[index])


class Helper:
    """``work()`` run in a forked child process; :meth:`result` is what it returned.

    The result is pickled into a file in memory (``memfd_create``; a temporary file where
    that is missing) that both processes hold: the helper writes it without waiting for
    the parent to read, and the parent reads it once the helper has ended.

    >>> Helper(lambda: sum(range(10))).result()
    45
    """

    def __init__(self, work: Callable[[], Any]) -> None:
        self._pid: int | None = None
        # No room for a file or a process: no helper (result() is None), the parent does it.
        try:
            self._file = _scratch_file()
        except OSError:
            self._file = io.BytesIO()
            return
        try:
            pid = os.fork()
        except OSError:
            return
        if pid == 0:  # pragma: no cover - runs in the child, which coverage does not see
            status = 1
            try:
                pickle.dump(work(), self._file, protocol=pickle.HIGHEST_PROTOCOL)
                self._file.flush()
                status = 0
            except BaseException:  # any failure: the parent does the work itself
                pass
            finally:
                os._exit(status)
        self._pid = pid

    def result(self) -> Any:
        """What ``work()`` returned, once the helper has ended; ``None`` if it failed."""
        if self._wait() != 0:
            self._file.close()
            return None
        with self._file:
            # The helper wrote through the same open file: its offset is at the end.
            self._file.seek(0)
            try:
                return pickle.load(self._file)  # bytes our own child wrote
            except (EOFError, pickle.UnpicklingError):  # pragma: no cover - it ended early
                return None

    def stop(self) -> None:
        """End the helper if it is still running (the parent no longer needs it)."""
        if self._pid is not None:
            with contextlib.suppress(ProcessLookupError):  # it had just ended
                os.kill(self._pid, signal.SIGKILL)
            self._wait()
        self._file.close()

    def _wait(self) -> int:
        if self._pid is None:
            return 1
        _, status = os.waitpid(self._pid, 0)
        self._pid = None
        return status


def _scratch_file() -> BinaryIO:
    """An anonymous file in memory, read and written (a temporary file where the system
    has no ``memfd_create``)."""
    try:
        fd = os.memfd_create("scoring-helper")
    except (AttributeError, OSError):
        return tempfile.TemporaryFile()
    return open(fd, "w+b")


__all__ = ["WORKERS_ENV", "Helper", "SharedCounts", "helpers_allowed", "usable_cores"]
