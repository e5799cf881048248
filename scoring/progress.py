"""A progress line on stderr while ``scoring report`` reads a large input.

Shown only where a person watches: stderr is a terminal and ``CI`` is not set; never on
stdout, never in a pipe or a log file. It appears once reading has taken
``PROGRESS_DELAY_SECONDS`` (a small input is done before that, and prints nothing), is
rewritten in place (a carriage return) at most every ``PROGRESS_INTERVAL_SECONDS``, and is
erased when reading ends, so that the report or the problems start on a clean line.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TextIO

#: Reading time before the line appears: below it the input counts as small.
PROGRESS_DELAY_SECONDS = 1.0
#: Time between two updates of the line.
PROGRESS_INTERVAL_SECONDS = 0.25
_MIB = 1 << 20
# Carriage return, then "erase to the end of the line" (ECMA-48 EL): the line is rewritten.
_ERASE = "\r\x1b[K"


def wanted(stream: TextIO | None) -> bool:
    """Whether a progress line belongs on ``stream``: a terminal, and not in CI."""
    if stream is None or os.environ.get("CI"):
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):
        return False


class Progress:
    """Bytes read and runs per second, on one line of ``stream``.

    >>> import io
    >>> line = io.StringIO()
    >>> ticks = iter([0.0, 2.0, 2.0, 2.0])
    >>> progress = Progress(line, "scoring report", 4 * _MIB, clock=lambda: next(ticks))
    >>> progress.read(2 * _MIB); progress.rows(1000)
    >>> line.getvalue()
    '\\r\\x1b[Kscoring report: 2.0 MiB read (50%), 1,000 runs, 500 runs/s'
    """

    def __init__(
        self,
        stream: TextIO,
        prefix: str,
        total_bytes: int | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._stream, self._prefix, self._total = stream, prefix, total_bytes
        self._clock = clock
        self._started = clock()
        self._next = self._started + PROGRESS_DELAY_SECONDS
        self._bytes = self._runs = 0
        self._shown = False

    def read(self, count: int) -> None:
        """``count`` more bytes were read."""
        self._bytes += count

    def rows(self, count: int) -> None:
        """``count`` more runs were read; the line is redrawn if it is time."""
        self._runs += count
        now = self._clock()
        if now < self._next:
            return
        self._next = now + PROGRESS_INTERVAL_SECONDS
        elapsed = max(now - self._started, 1e-9)
        # (capped: a compressed file is shorter than the lines read from it)
        share = f" ({min(100, 100 * self._bytes // self._total)}%)" if self._total else ""
        self._write(
            f"{_ERASE}{self._prefix}: {self._bytes / _MIB:.1f} MiB read{share}, "
            f"{self._runs:,} runs, {self._runs / elapsed:,.0f} runs/s"
        )
        self._shown = True

    def close(self) -> None:
        """Erase the line, if it was shown."""
        if self._shown:
            self._write(_ERASE)
            self._shown = False

    def _write(self, text: str) -> None:
        try:
            self._stream.write(text)
            self._stream.flush()
        except (OSError, ValueError):
            pass  # a progress line is never worth failing for
