"""Which version's constants the committed coverage figures were measured on.

The coverage simulation (``contracts/coverage/simulate.py``) scores simulated agents with
the live code, so its figures hold for the constants they were measured on: the anchors and
weights behind the composite and its truth, the intervals' level, minimum and rounding, the
pass^k levels, the radar's window (:data:`DEPENDS_ON`). Re-running it takes tens of minutes,
so a release that changes one of those constants does not: the figures stay, and the page
says they were measured on the earlier version's constants, naming what changed, until
``python contracts/coverage/simulate.py --update`` measures them again.

The record is ``contracts/coverage/measured.json``: the version whose constants the figures
were measured on, and the SHA-256 of the figures file it speaks of. ``python -m contracts
release`` writes it. Figures written after the record (the file's hash differs) were
measured by the simulation on the live code: they hold for the live constants. The record
is data, not code of the simulation, so writing it leaves the simulation's fingerprint as it
is.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from contracts.model import Methodology
from contracts.source import display_path
from contracts.store import CONTRACTS_DIR, ContractsError, load_snapshot

COVERAGE_DIR: Path = CONTRACTS_DIR / "coverage"
FIGURES_PATH: Path = COVERAGE_DIR / "coverage.json"
RECORD_PATH: Path = COVERAGE_DIR / "measured.json"
SIMULATE_COMMAND = "python contracts/coverage/simulate.py --update"
_GENERATED = (
    "by python -m contracts release: the version whose constants contracts/coverage/"
    "coverage.json was measured on (do not edit)"
)

#: The constants (as the snapshot names them) that the simulated scores, their truths and
#: their intervals read: a change of one makes the figures the earlier constants' figures.
DEPENDS_ON: tuple[str, ...] = (
    "scale.score_max",
    "rounding.score_decimals",
    "rounding.fraction_decimals",
    "composite.weight.success",
    "composite.weight.reliability",
    "composite.weight.cost",
    "composite.latency_anchors_ms",
    "composite.cost_anchors_usd",
    "composite.consistency_min_runs",
    "composite.neutral_consistency",
    "composite.zero_success_policy",
    "radar.window_runs",
    "repeatability.min_outcomes",
    "repeatability.k_levels",
    "interval.level",
    "interval.min_tasks",
    "interval.bound_margin",
)


@dataclass(frozen=True, slots=True)
class Measured:
    """The committed figures against the live methodology: the version whose constants they
    were measured on, the live version, and the constants of :data:`DEPENDS_ON` whose values
    differ between the two (none: the figures hold for the live constants)."""

    version: str
    live_version: str
    changed: tuple[str, ...]


def figures_sha256(path: Path = FIGURES_PATH) -> str:
    """The SHA-256 of the committed figures file's bytes."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError as error:
        raise ContractsError(f"{display_path(path)}: the coverage figures: {error}") from None


def read_record(path: Path = RECORD_PATH) -> dict[str, Any] | None:
    """The record, or ``None`` when there is none yet."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as error:
        raise ContractsError(f"{display_path(path)}: cannot be read: {error}") from None
    if not (
        isinstance(data, dict)
        and isinstance(data.get("measured_on"), str)
        and isinstance(data.get("figures_sha256"), str)
    ):
        raise ContractsError(
            f"{display_path(path)}: must hold measured_on (a version) and figures_sha256"
        )
    return data


def measured_version(live_version: str, record: dict[str, Any] | None, figures_hash: str) -> str:
    """The version whose constants the figures were measured on: the record's, when it
    speaks of these figures; else the live one (the figures were written after the record,
    by the simulation on the live code).

    >>> measured_version("1.4.0", {"measured_on": "1.3.0", "figures_sha256": "ab"}, "ab")
    '1.3.0'
    >>> measured_version("1.4.0", {"measured_on": "1.3.0", "figures_sha256": "ab"}, "cd")
    '1.4.0'
    """
    if record is not None and record["figures_sha256"] == figures_hash:
        return str(record["measured_on"])
    return live_version


def changed_constants(measured: Methodology, live: Methodology) -> tuple[str, ...]:
    """The constants of :data:`DEPENDS_ON` whose values differ between two snapshots (one
    absent from a snapshot counts as changed)."""
    values = [
        {entry.name: entry.value for entry in m.constants if entry.name in DEPENDS_ON}
        for m in (measured, live)
    ]
    return tuple(
        name for name in DEPENDS_ON if values[0].get(name, ...) != values[1].get(name, ...)
    )


def coverage_state(
    live: Methodology,
    *,
    record_path: Path = RECORD_PATH,
    figures_path: Path = FIGURES_PATH,
    snapshot_dir: Path | None = None,
) -> Measured:
    """The committed figures against ``live`` (see :class:`Measured`)."""
    current = live.methodology_version
    version = measured_version(current, read_record(record_path), figures_sha256(figures_path))
    if version == current:
        return Measured(version, current, ())
    return Measured(version, current, changed_constants(load_snapshot(version, snapshot_dir), live))


def record_text(version: str, figures_hash: str) -> str:
    """The exact text of the record."""
    data = {"generated": _GENERATED, "measured_on": version, "figures_sha256": figures_hash}
    return json.dumps(data, indent=2) + "\n"
