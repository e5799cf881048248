"""One agent's intervals, 1.1.0 (scoring.uncertainty) against 1.2.0 (scoring.rates):
the median time per call of each, on the decisions' check agents, and their ratio.

Every agent of a report pays these (up to 20,000 agents a report), so the ratio says what
1.2.0 costs the report's hot path before it is wired in.

    python benchmarks/bench_intervals.py [--calls N] [--repeats N]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import timeit
from collections.abc import Callable
from pathlib import Path

sys.path[:0] = [str(Path(__file__).resolve().parents[1])]  # run as a script: the project
from contracts.source import REPO_ROOT as REPO  # noqa: E402

# The check inputs of decisions.md as the tests write them, loaded from the test file by path
# (it is a module of the project's tests, not an installed distribution).
_CHECKS_PATH = REPO / "tests" / "scoring" / "test_intervals_1_2.py"
sys.path[:0] = [str(_CHECKS_PATH.parent)]
_spec = importlib.util.spec_from_file_location("interval_checks", _CHECKS_PATH)
if _spec is None or _spec.loader is None:
    raise SystemExit(f"cannot load the check inputs from {_CHECKS_PATH}")
_checks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_checks)
COMPOSITE_CHECK_TASKS = _checks.COMPOSITE_CHECK_TASKS
PASS5_TASKS = _checks.PASS5_TASKS
SUCCESS_TASKS = _checks.SUCCESS_TASKS

from scoring import moves, rates, uncertainty  # noqa: E402


def median_us(call: Callable[[], object], calls: int, repeats: int) -> float:
    """The median over ``repeats`` of the time per call in microseconds."""
    return statistics.median(timeit.repeat(call, number=calls, repeat=repeats)) / calls * 1e6


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--calls", type=int, default=100, help="calls per measurement")
    parser.add_argument("--repeats", type=int, default=7, help="measurements of each")
    options = parser.parse_args(argv)
    rates.success_rate_interval(SUCCESS_TASKS)  # scipy's import, outside the timing
    rows = (
        (
            "composite (30 tasks, 193 runs)",
            lambda: uncertainty.composite_interval(COMPOSITE_CHECK_TASKS),
            lambda: moves.composite_moves(COMPOSITE_CHECK_TASKS),
        ),
        (
            "success rate (30 tasks)",
            lambda: uncertainty.success_rate_interval(SUCCESS_TASKS),
            lambda: rates.success_rate_interval(SUCCESS_TASKS),
        ),
        (
            "pass^5 (100 tasks)",
            lambda: uncertainty.pass_hat_k_interval(PASS5_TASKS, 5),
            lambda: rates.pass_hat_k_interval(PASS5_TASKS, 5),
        ),
    )
    print(f"{'interval':<32} {'1.1.0 µs':>10} {'1.2.0 µs':>10} {'1.2.0/1.1.0':>12}")
    for label, old, new in rows:
        before = median_us(old, options.calls, options.repeats)
        after = median_us(new, options.calls, options.repeats)
        print(f"{label:<32} {before:>10.0f} {after:>10.0f} {after / before:>12.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
