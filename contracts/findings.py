"""A problem the drift check found (:class:`Finding`): the lines it prints, the exit status
it calls for and the place to blame. Apart from :mod:`contracts.check`, which makes them,
so that the results (:mod:`contracts.result`) can name the type without importing the check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from contracts.diff import Difference

if TYPE_CHECKING:
    from contracts.comparison import Impact


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem a check found: the lines to print, the exit status it calls for and, for
    annotations, the file and the line range where the drifting value is defined (``file``
    relative to the repository root; ``None`` when no one place is to blame).

    A finding made of snapshot differences carries them too; each names its own place
    (:attr:`contracts.diff.Difference.file`, ``line``). ``blocking`` says whether those
    differences fail the check themselves (the current version is released and the code
    moved from it) or are listed for information (what ``update`` will record); ``impact``
    is the impact on the reference corpus between the two snapshots compared, for the
    GitHub step summary (:mod:`contracts.annotations`).
    """

    exit_code: int
    lines: tuple[str, ...]
    differences: tuple[Difference, ...] = ()
    file: str | None = None
    line: int | None = None
    end_line: int | None = None
    check: str = ""
    blocking: bool = True
    impact: Impact | None = None


def finding(exit_code: int, *lines: str, **where: Any) -> Finding:
    """A :class:`Finding` of ``lines`` (``file=``, ``line=``, ``end_line=``, ``differences=``)."""
    return Finding(exit_code, lines, **where)
