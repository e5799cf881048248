"""pass^k of the τ-bench gpt-4o airline agent, computed by this repository's own code.

The data: 50 airline tasks × 4 trials from the public τ-bench repository
(sierra-research/tau-bench, MIT licence). τ-bench counts a trial as a success when its
reward is 1, within a tolerance, and publishes pass^k for this agent in its README. The
trials are read as ``scoring report --from tau-bench`` reads them.

Run it next to the data file::

    python tau_bench.py tau-bench-gpt-4o-airline.jsonl
"""

from __future__ import annotations

import sys
from collections import Counter
from fractions import Fraction
from pathlib import Path

from scoring import aggregate_pass_hat_k
from scoring.harnesses import Harness, Options, convert

#: The agent whose trials these are (τ-bench's records name none).
AGENT = "gpt-4o-airline"
#: pass^k for gpt-4o on the airline domain, as τ-bench's README publishes it.
PUBLISHED = {1: "0.420", 2: "0.273", 3: "0.220", 4: "0.200"}


def tasks(path: Path) -> list[tuple[int, int]]:
    """``(n, c)`` per task: recorded trials and successful trials (a reward of 1)."""
    trials: Counter[str] = Counter()
    successes: Counter[str] = Counter()
    for run in convert(Harness.TAU_BENCH, [path], Options(agent=AGENT)).runs:
        trials[str(run["task_id"])] += 1
        successes[str(run["task_id"])] += run["success"] is True
    return [(trials[task], successes[task]) for task in sorted(trials, key=int)]


def pass_hat(path: Path) -> dict[int, Fraction | None]:
    """Our pass^k at every level τ-bench publishes."""
    per_task = tasks(path)
    return {k: aggregate_pass_hat_k(per_task, k) for k in PUBLISHED}


def main(argv: list[str]) -> None:
    path = Path(argv[0] if argv else "tau-bench-gpt-4o-airline.jsonl")
    per_task = tasks(path)
    print(f"{len(per_task)} tasks, {sum(n for n, _ in per_task)} trials")
    print("k  ours (exact)  ours     published")
    for k, ours in pass_hat(path).items():
        exact = "null" if ours is None else str(ours)
        shown = "null" if ours is None else f"{float(ours):.3f}"
        print(f"{k}  {exact:<12}  {shown:<7}  {PUBLISHED[k]}")


if __name__ == "__main__":
    main(sys.argv[1:])
