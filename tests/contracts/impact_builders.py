"""Helpers of the impact tests (``test_impact.py``, ``test_reference_corpus.py``): the
reference corpus's files, scratch copies of the project and commands run in them, and the
report's composites and ranks as ``scoring report`` prints them.
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contract_builders import python_in
from serving import copy_project

from scoring.cli import run as scoring_run

COPIED = ("scoring", "contracts", "docs", "mkdocs.yml", "pyproject.toml")
SYNTHETIC = "contracts/corpus/synthetic-runs.jsonl"
TAU_BENCH = "contracts/corpus/tau-bench-gpt-4o-airline-runs.jsonl"


def make_copy(root: Path) -> Path:
    """A scratch copy of what the contracts and the site are built from."""
    return copy_project(root, COPIED)


@dataclass(frozen=True, slots=True)
class Done:
    """A finished command: exit status and its two streams."""

    code: int
    out: str
    err: str


def run_in(root: Path, *args: str) -> Done:
    """``python ARGS`` in ``root``, with ``root`` first on the import path."""
    done = python_in(root, *args)
    return Done(done.returncode, done.stdout, done.stderr)


def report_json(path: Path) -> dict[str, Any]:
    """``python -m scoring report PATH --format json`` of the code of this checkout."""
    out, err = io.StringIO(), io.StringIO()
    code = scoring_run(["report", str(path), "--format", "json"], stdout=out, stderr=err)
    assert code == 0, err.getvalue()
    return json.loads(out.getvalue())


def ranks_from_report(document: dict[str, Any]) -> dict[str, tuple[float | None, int | None]]:
    """Composite and rank of each agent, ranked here from the report's composites: 1 + the
    number of agents with a higher composite (equal composites share a rank), null without
    one. The report must list agents in that order."""
    scores = [a["composite"]["score"] for a in document["agents"]]
    known = [s for s in scores if s is not None]
    assert known == sorted(known, reverse=True), "the report lists agents by composite"
    assert all(s is None for s in scores[len(known) :]), "agents without a composite come last"
    return {
        a["agent_id"]: (s, None if s is None else 1 + sum(other > s for other in known))
        for a, s in zip(document["agents"], scores, strict=True)
    }
