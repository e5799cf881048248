"""What a ``python -m contracts`` command returns, for :mod:`contracts.cli` to print.

The check, the update, the impact, the README check and the verify differ in what they found
or did (the differences; the files written; a table; a verdict) but are the same thing to
the command line: whether the command succeeded, its exit status, and the lines to print.
:class:`CommandResult` holds that shared part, so the CLI prints them all one way; the five
results are declared here side by side.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from contracts.check.diff import Difference
    from contracts.check.findings import Finding


@dataclass(frozen=True, slots=True)
class CommandResult(ABC):
    """Whether the command succeeded (``ok``), its exit status and its printed lines.

    The lines go to stdout when ``ok``, to stderr otherwise. Subclasses are frozen
    dataclasses that add what their command found or did, after these two fields.
    """

    ok: bool
    exit_code: int

    @abstractmethod
    def output(self) -> list[str]:
        """Every line the command prints, in order."""


@dataclass(frozen=True, slots=True)
class CheckResult(CommandResult):
    """The outcome of the check: ``problems`` are the lines to print (empty when ``ok``);
    ``findings`` the same problems one by one, each with the check that found it and the
    file and lines to blame (for annotations)."""

    problems: list[str] = field(default_factory=list)
    differences: list[Difference] = field(default_factory=list)
    summary: str = ""
    findings: list[Finding] = field(default_factory=list)

    def lines(self) -> list[str]:
        """Everything the CLI prints: the problems, then the one-line summary."""
        return [*self.problems, self.summary] if self.summary else list(self.problems)

    def output(self) -> list[str]:
        return self.lines()


@dataclass(frozen=True, slots=True)
class UpdateResult(CommandResult):
    """What the update did (``lines``) or why it refused; ``written`` lists changed files."""

    lines: list[str] = field(default_factory=list)
    written: list[Path] = field(default_factory=list)

    def output(self) -> list[str]:
        return list(self.lines)


@dataclass(frozen=True, slots=True)
class ImpactResult(CommandResult):
    """What ``impact`` prints (``text`` on stdout, or one error line on stderr)."""

    text: str

    def output(self) -> list[str]:
        """The table or the JSON document, or the one error line."""
        return [self.text]


@dataclass(frozen=True, slots=True)
class ReadmeResult(CommandResult):
    """What ``python -m contracts readme`` found or did: the lines to print."""

    lines: list[str] = field(default_factory=list)

    def output(self) -> list[str]:
        return list(self.lines)


@dataclass(frozen=True, slots=True)
class VerifyResult(CommandResult):
    """The verdict of ``python -m contracts verify`` on one file: the one line to print."""

    line: str = ""

    def output(self) -> list[str]:
        return [self.line]
