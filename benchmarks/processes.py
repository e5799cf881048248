"""Running a command to its end with its output captured: the one way the benchmarks and the
tests start a subprocess whose status and output they read.

Shared by ``benchmarks/parity.py`` and the tests (``from processes import run_captured``):
``benchmarks/`` is on pytest's import path. Also the load of other tenants, made on purpose
(:func:`busy_processes`), beside which ``bench_suite.py`` and ``bench_serve_reload.py``
measure with ``--busy N``. Only the standard library: the benchmarks run without pytest.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path


def run_captured(
    command: Sequence[str],
    *,
    cwd: Path | None = None,
    env: Mapping[str, str] | None = None,
    timeout: float | None = None,
) -> subprocess.CompletedProcess[str]:
    """``command`` run in ``cwd`` with ``env`` (this process's environment when ``None``),
    its stdout and stderr captured as text. A failing status is returned, not raised: the
    caller reads ``returncode``; only a run longer than ``timeout`` seconds raises
    (:exc:`subprocess.TimeoutExpired`)."""
    return subprocess.run(
        list(command),
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


#: A process that keeps one core busy until it is killed.
_SPIN = "while True: pass"


@contextmanager
def busy_processes(count: int) -> Iterator[list[int]]:
    """``count`` processes spinning on the CPU while the block runs (their ids, so that a
    measurement of CPU time can leave them out)."""
    spinning = [subprocess.Popen([sys.executable, "-c", _SPIN]) for _ in range(count)]
    try:
        yield [process.pid for process in spinning]
    finally:
        for process in spinning:
            process.kill()
            process.wait()
