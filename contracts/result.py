"""What a ``python -m contracts`` command returns, for :mod:`contracts.cli` to print.

The check and the update differ in what they found or did (the differences; the files
written) but are the same thing to the command line: whether the command succeeded, its exit
status, and the lines to print. This base holds that shared part, so the CLI prints both
one way.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass


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
