"""A problem the drift check found (:class:`Finding`): the lines it prints, the exit status
it calls for and the place to blame. Apart from :mod:`contracts.check`, which makes them,
so that the results (:mod:`contracts.result`) can name the type without importing the check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from contracts.diff import Difference


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem a check found: the lines to print, the exit status it calls for and, for
    annotations, the file and the line range where the drifting value is defined (``file``
    relative to the repository root; ``None`` when no one place is to blame).

    A finding made of snapshot differences carries them too; each names its own place
    (:attr:`contracts.diff.Difference.file`, ``line``).
    """

    exit_code: int
    lines: tuple[str, ...]
    differences: tuple[Difference, ...] = ()
    file: str | None = None
    line: int | None = None
    end_line: int | None = None
    check: str = ""


def finding(exit_code: int, *lines: str, **where: Any) -> Finding:
    """A :class:`Finding` of ``lines`` (``file=``, ``line=``, ``end_line=``, ``differences=``)."""
    return Finding(exit_code, lines, **where)
