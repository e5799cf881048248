"""Work shared with a forked helper process: the report reads a large log on two cores.

A :class:`Helper` is a child process made with ``os.fork`` (it starts with the parent's
modules and data, nothing to import or send); it runs one function, and its result comes
back pickled through a pipe. The helper never writes to stdout or stderr and never runs
the parent's exit handlers (it leaves with ``os._exit``). A helper that fails, for any
reason, gives ``None``: its caller then does the work itself, so a helper can make a result
come sooner, never different. :func:`helpers_allowed` says where there is a second core to
run one on (and where ``fork`` exists); ``SCORING_WORKERS=1`` turns helpers off.
"""

from __future__ import annotations

import contextlib
import mmap
import os
import pickle
import signal
from collections.abc import Callable
from typing import Any

#: The environment variable that turns helper processes off when set to ``1``.
WORKERS_ENV = "SCORING_WORKERS"
# The pipe's buffer asked for (Linux allows up to /proc/sys/fs/pipe-max-size, 1 MiB by
# default, to anyone).
PIPE_BYTES = 1 << 20


def usable_cores() -> int:
    """The CPU cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        return os.cpu_count() or 1


def helpers_allowed() -> bool:
    """Whether a helper process may run: ``fork`` exists, a second core is free to run it,
    and ``SCORING_WORKERS`` is not ``1``."""
    return hasattr(os, "fork") and usable_cores() >= 2 and os.environ.get(WORKERS_ENV) != "1"


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

    >>> Helper(lambda: sum(range(10))).result()
    45
    """

    def __init__(self, work: Callable[[], Any]) -> None:
        readable, writable = os.pipe()
        # A larger pipe, where the system allows it: a result of many MiB crosses in fewer
        # turns between the two processes.
        with contextlib.suppress(ImportError, AttributeError, OSError):
            import fcntl

            fcntl.fcntl(writable, fcntl.F_SETPIPE_SZ, PIPE_BYTES)
        pid = os.fork()
        if pid == 0:  # pragma: no cover - runs in the child, which coverage does not see
            os.close(readable)
            status = 1
            try:
                with os.fdopen(writable, "wb") as out:
                    pickle.dump(work(), out, protocol=pickle.HIGHEST_PROTOCOL)
                status = 0
            except BaseException:  # any failure: the parent does the work itself
                pass
            finally:
                os._exit(status)
        os.close(writable)
        self._pid: int | None = pid
        self._pipe = os.fdopen(readable, "rb")

    def result(self) -> Any:
        """What ``work()`` returned, once the helper has ended; ``None`` if it failed."""
        try:
            # Read as it is unpickled: the pickled bytes are never all held at once.
            found = pickle.load(self._pipe)  # bytes our own child wrote
        except (EOFError, pickle.UnpicklingError):  # it ended without a result
            found = None
        finally:
            status = self._wait()
        return found if status == 0 else None

    def stop(self) -> None:
        """End the helper if it is still running (the parent no longer needs it)."""
        if self._pid is not None:
            with contextlib.suppress(ProcessLookupError):  # it had just ended
                os.kill(self._pid, signal.SIGKILL)
            self._wait()

    def _wait(self) -> int:
        self._pipe.close()
        if self._pid is None:
            return 1
        _, status = os.waitpid(self._pid, 0)
        self._pid = None
        return status


__all__ = ["WORKERS_ENV", "Helper", "SharedCounts", "helpers_allowed", "usable_cores"]
