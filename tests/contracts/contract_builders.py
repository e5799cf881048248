"""Builders shared by the contracts tests: edited copies of a snapshot, changelog entries."""

from __future__ import annotations

from pathlib import Path

import contracts.check
from contracts.build import locate
from contracts.model import Methodology
from scoring.constants import METHODOLOGY_VERSION

#: The version of the committed contracts the tests start from: the current (newest
#: released) one, which the live code is checked against.
VERSION = METHODOLOGY_VERSION


def with_constant(snapshot: Methodology, name: str, value: object) -> Methodology:
    """A copy of ``snapshot`` whose constant ``name`` has ``value``."""
    constants = [
        entry.model_copy(update={"value": value}) if entry.name == name else entry
        for entry in snapshot.constants
    ]
    return snapshot.model_copy(update={"constants": constants})


def bumped_to(snapshot: Methodology, version: str) -> Methodology:
    """A copy of ``snapshot`` that claims methodology ``version``."""
    new = with_constant(snapshot, "methodology.version", version)
    return new.model_copy(update={"methodology_version": version})


def add_entry(changelog: Path, version: str) -> None:
    """Put a changelog entry for ``version`` above the one of ``VERSION``."""
    text = changelog.read_text(encoding="utf-8")
    head, rest = text.split(f"\n## {VERSION} (", 1)
    entry = f"\n## {version} (2026-12-01)\n\nCost weighs less.\n"
    changelog.write_text(f"{head}{entry}\n## {VERSION} ({rest}", encoding="utf-8")


def line_of(snapshot: Methodology, name: str) -> int:
    """The line where constant ``name`` is defined."""
    return locate(snapshot.constant(name).defined_in)


def check_text(result: contracts.check.CheckResult) -> str:
    """What the check prints for ``result``."""
    return "\n".join(result.lines())
