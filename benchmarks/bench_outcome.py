"""Benchmark of ``python -m scoring outcome``: peak memory against the number of records,
and throughput.

A script, not a test::

    python benchmarks/bench_outcome.py                 # 200,000 and 20,000 records, 3 repeats
    python benchmarks/bench_outcome.py --records 50000 --small 5000 --repeats 1

It writes two deterministic outcome logs (objectives, recoverable and catastrophic
safeguards, judged readings, efficiency; a few entries in error) to a temporary folder,
then runs ``python -m scoring outcome LOG --format json`` (and ``--format table``) on each
in a fresh subprocess, interleaved, and measures the wall time and the peak memory (max
RSS, from ``os.wait4``).

It prints the medians, the throughput (records per second) and the memory ratio large ÷
small with its target (≤ 1.5: memory flat in the number of records). Exit status 1 if the
target is missed.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
from pathlib import Path

from measuring import Measure, log_sizes_parser, measure, write_logs

MEMORY_RATIO_TARGET = 1.5
FORMATS = ("json", "table")


def _entry(rng: random.Random, index: int) -> dict[str, object]:
    role = rng.choice(["objective", "objective", "safeguard"])
    entry: dict[str, object] = {"name": f"check-{index}", "role": role}
    if role == "safeguard":
        entry["severity"] = "catastrophic" if rng.random() < 0.2 else "recoverable"
    draw = rng.random()
    entry["status"] = "passed" if draw < 0.85 else ("failed" if draw < 0.98 else "error")
    if rng.random() < 0.3:
        entry["weight"] = round(rng.uniform(0.5, 3.0), 2)
    return entry


def write_records(path: Path, records: int, seed: int) -> None:
    """Write ``records`` outcome records (JSON Lines) to ``path``; the same seed, the same
    bytes."""
    rng = random.Random(seed)
    with path.open("w", encoding="utf-8") as out:
        for i in range(records):
            record: dict[str, object] = {
                "run_id": f"run-{i:08d}",
                "verification": [_entry(rng, n) for n in range(rng.randrange(0, 6))],
            }
            if rng.random() < 0.5:
                record["judged"] = {
                    "checklist": round(rng.random(), 3),
                    "recoverable": round(rng.random(), 3),
                }
            if rng.random() < 0.7:
                record["efficiency"] = {
                    "latency_sec": round(rng.lognormvariate(1.5, 0.6), 3),
                    "input_tokens": rng.randrange(100, 20000),
                    "output_tokens": rng.randrange(10, 4000),
                }
            out.write(json.dumps(record) + "\n")


def main(argv: list[str] | None = None) -> int:
    """Generate the logs, measure, print the figures; exit status 1 if the target is missed."""
    parser = log_sizes_parser(
        __doc__, large_flag="records", noun="records", large=200_000, small=20_000, repeats=3
    )
    parser.set_defaults(seed=20261201)
    args = parser.parse_args(argv)

    with tempfile.TemporaryDirectory(prefix="bench-outcome-") as scratch:
        folder = Path(scratch)
        large = folder / f"records-{args.records}.jsonl"
        small = folder / f"records-{args.small}.jsonl"
        write_logs(write_records, {large: args.records, small: args.small}, args.seed, "records")
        outcome = [sys.executable, "-m", "scoring", "outcome"]
        runs: dict[tuple[str, str], list[Measure]] = {}
        for repeat in range(1, args.repeats + 1):
            for fmt in FORMATS:
                for name, path in (("large", large), ("small", small)):
                    got = measure([*outcome, str(path), "--format", fmt])
                    runs.setdefault((fmt, name), []).append(got)
                    print(
                        f"repeat {repeat}: {fmt:5} {path.name}: {got.seconds:.2f} s, "
                        f"{got.max_rss_mib:.1f} MiB"
                    )

    verdicts = []
    print()
    print(f"medians of {args.repeats}:")
    for fmt in FORMATS:
        big, little = runs[(fmt, "large")], runs[(fmt, "small")]
        seconds = statistics.median(m.seconds for m in big)
        big_mib = statistics.median(m.max_rss_mib for m in big)
        little_mib = statistics.median(m.max_rss_mib for m in little)
        ratio = big_mib / little_mib
        ok = ratio <= MEMORY_RATIO_TARGET
        verdicts.append(ok)
        print(
            f"  --format {fmt:5}: {args.records:,} records in {seconds:.2f} s "
            f"= {args.records / seconds:,.0f} records/s; peak memory {little_mib:.1f} MiB at "
            f"{args.small:,}, {big_mib:.1f} MiB at {args.records:,}: ratio {ratio:.2f} "
            f"(target <= {MEMORY_RATIO_TARGET}) {'PASS' if ok else 'FAIL'}"
        )
    return 0 if all(verdicts) else 1


if __name__ == "__main__":
    sys.exit(main())
