"""The scoreboard of the reference corpus: every ``contracts/corpus/*.jsonl`` run log scored
by the live code, as ``python -m scoring report --format json`` publishes it.

Each released snapshot records it (``Methodology.scoreboard``), so that a release says what
it does to the agents being ranked, and a changed corpus file (its SHA-256 is recorded) is a
methodology-visible change like a changed constant. Readers raise
:class:`contracts.store.ContractsError` (exit 2) naming the file, the line and the rule.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from contracts.model import CorpusScoreboard, ScoreboardAgent
from contracts.source import display_path
from contracts.store import CONTRACTS_DIR, ContractsError
from scoring.errors import InputError
from scoring.report import build_report
from scoring.report.write import report_to_json

CORPUS_DIR: Path = CONTRACTS_DIR / "corpus"
CORPUS_PATTERN = "*.jsonl"


def corpus_paths(directory: Path | None = None) -> list[Path]:
    """The corpus files, sorted by name (every ``*.jsonl`` of ``contracts/corpus/``)."""
    folder = CORPUS_DIR if directory is None else directory
    return sorted(folder.glob(CORPUS_PATTERN), key=lambda p: p.name)


def scoreboard_of_report(path: str, sha256: str, document: dict[str, Any]) -> CorpusScoreboard:
    """A corpus scoreboard from a ``report --format json`` document."""
    agents = document["agents"]
    return CorpusScoreboard(
        path=path,
        sha256=sha256,
        agents=[
            ScoreboardAgent(
                agent_id=a["agent_id"],
                rank=a["rank"],  # the report's own competition rank
                composite=a["composite"]["score"],
                profile=a["radar"]["profile"],
                pass_hat_k={k: v for k, v in a["repeatability"].items() if k.startswith("pass^")},
                # From 1.1.0 the report publishes the composite's interval (null below the
                # task minimum); a report without the field records none.
                interval=a["composite"].get("interval"),
                rank_upper_bound=a.get("rank_upper_bound"),
            )
            for a in agents
        ],
    )


def score_corpus(path: Path) -> CorpusScoreboard:
    """Score one corpus file with the live code."""
    name = display_path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        reason = error.strerror or str(error)
        raise ContractsError(f"{name}: cannot read the reference corpus file: {reason}") from None
    try:
        report = build_report(data.splitlines(keepends=True))
    except InputError as error:
        first = error.message().splitlines()[0].strip()
        more = error.total - 1
        suffix = f" (and {more} more problems)" if more > 0 else ""
        raise ContractsError(
            f"{name}: the reference corpus is not a valid run log: {first}{suffix}; "
            "regenerate it: python contracts/corpus/make_corpus.py"
        ) from None
    except UnicodeDecodeError as error:
        raise ContractsError(f"{name}: the reference corpus is not UTF-8 text: {error}") from None
    return scoreboard_of_report(name, hashlib.sha256(data).hexdigest(), report_to_json(report))


def build_scoreboard(directory: Path | None = None) -> list[CorpusScoreboard]:
    """Every corpus file scored by the live code, in file-name order."""
    folder = CORPUS_DIR if directory is None else directory
    paths = corpus_paths(folder)
    if not paths:
        raise ContractsError(
            f"{display_path(folder)}: no reference corpus ({CORPUS_PATTERN}); restore it: "
            f"git checkout -- {display_path(folder)}"
        )
    return [score_corpus(path) for path in paths]
