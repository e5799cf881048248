"""Readers of the logs evaluation harnesses write: Inspect AI, Harbor, τ-bench/τ²-bench.

Each harness has one module behind one interface (:class:`Reader`): ``read(paths,
options)`` turns the files and folders it names into run records (dicts in the run log's
field order, each valid as a :class:`scoring.models.RunRecord`) and returns, separately, the
assumptions its mapping made (:class:`Converted`). The mapping is one table per harness
(``MAPPING``), which the reader follows and the documentation renders.

:func:`run_log` writes run records as the documented run log (JSON Lines, every field
present), the bytes ``scoring convert`` prints and ``scoring report --from`` scores, so that
both give the same report. Bad logs raise :class:`LogError` (an
:class:`~scoring.errors.InputError`) naming the file, the record, the field and the rule.
Nothing here prints.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scoring.errors import json_visible
from scoring.harnesses import harbor, inspect, tau_bench
from scoring.harnesses.base import (
    REWARD_TOLERANCE,
    Converted,
    Harness,
    LogError,
    LogProblem,
    Mapping,
    Options,
    Row,
)

__all__ = [
    "READERS",
    "REWARD_TOLERANCE",
    "Converted",
    "Harness",
    "LogError",
    "LogProblem",
    "Mapping",
    "Options",
    "Reader",
    "Row",
    "convert",
    "run_log",
]


@dataclass(frozen=True, slots=True)
class Reader:
    """One harness's reader: its name, its mapping table, what it may say on stderr, and the
    function that reads its logs."""

    harness: Harness
    title: str
    mapping: Mapping[Any]
    notes: tuple[str, ...]
    read: Callable[[Sequence[str | Path], Options], Converted]


#: Every reader, by harness (in the order of :class:`Harness`).
READERS: dict[Harness, Reader] = {
    Harness.INSPECT: Reader(
        Harness.INSPECT, "Inspect AI", inspect.MAPPING, inspect.NOTES, inspect.read
    ),
    Harness.HARBOR: Reader(Harness.HARBOR, "Harbor", harbor.MAPPING, harbor.NOTES, harbor.read),
    Harness.TAU_BENCH: Reader(
        Harness.TAU_BENCH,
        "τ-bench and τ²-bench",
        tau_bench.MAPPING,
        tau_bench.NOTES,
        tau_bench.read,
    ),
}


def convert(harness: Harness, paths: Sequence[str | Path], options: Options) -> Converted:
    """The run records of ``harness``'s logs at ``paths``, and the assumptions made."""
    return READERS[harness].read(paths, options)


def run_log(runs: Iterable[dict[str, object]]) -> list[bytes]:
    """The run log of ``runs``: one JSON object a line, UTF-8, every field present (the
    characters a terminal could act on written as ``\\u`` escapes: the same data)."""
    return [
        (json_visible(json.dumps(run, ensure_ascii=False)) + "\n").encode("utf-8") for run in runs
    ]
