"""One agent's intervals (methodology 1.2.0: scoring.intervals.rates, scoring.intervals.moves): the
median time per call of each, on the published check agents.

Every agent of a report with enough tasks pays these, so they are the report's hot path.

    python benchmarks/bench_intervals.py [--calls N] [--repeats N]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import timeit
from collections.abc import Callable

from contracts.source import REPO_ROOT as REPO

# The check inputs of docs/uncertainty.md as the tests write them, loaded from the test file by path
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

from scoring.intervals import moves, rates  # noqa: E402


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
        ("composite (30 tasks, 193 runs)", lambda: moves.composite_interval(COMPOSITE_CHECK_TASKS)),
        ("success rate (30 tasks)", lambda: rates.success_rate_interval(SUCCESS_TASKS)),
        ("pass^5 (100 tasks)", lambda: rates.pass_hat_k_interval(PASS5_TASKS, 5)),
        ("pass^1 (100 tasks)", lambda: rates.pass_hat_k_interval(PASS5_TASKS, 1)),
    )
    print(f"{'interval (methodology 1.2.0)':<32} {'µs a call':>10}")
    for label, call in rows:
        print(f"{label:<32} {median_us(call, options.calls, options.repeats):>10.0f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
