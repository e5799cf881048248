"""A problem the drift check found (:class:`Finding`): the lines it prints, the exit status
it calls for and the place to blame. Apart from :mod:`contracts.check.drift`, which makes them,
so that the results (:mod:`contracts.result`) can name the type without importing the check.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from contracts.check.diff import Difference

if TYPE_CHECKING:
    from contracts.check.causes import Report
    from contracts.comparison import Impact


@dataclass(frozen=True, slots=True)
class Finding:
    """One problem a check found: the lines to print, the exit status it calls for and, for
    annotations, the file and the line range where the drifting value is defined (``file``
    relative to the repository root; ``None`` when no one place is to blame).

    A finding made of snapshot differences carries them too; each names its own place
    (:attr:`contracts.check.diff.Difference.file`, ``line``). ``blocking`` says whether those
    differences fail the check themselves (the current version is released and the code
    moved from it) or are listed for information (what ``update`` will record); ``impact``
    is the impact on the reference corpus between the two snapshots compared, for the
    GitHub step summary (:mod:`contracts.annotations`).

    ``lines`` are what ``check --verbose`` prints (every difference); the check prints
    ``brief`` instead when it is given: for differences, ``report`` (their causes and what
    follows from them, :mod:`contracts.check.causes`); ``()`` for a finding another one already
    says (the advice to bump the version, which is the report's fix line).
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
    brief: tuple[str, ...] | None = None
    report: Report | None = None

    def shown(self, verbose: bool = False) -> tuple[str, ...]:
        """The lines the check prints for this finding (all of them when ``verbose``)."""
        return self.lines if verbose or self.brief is None else self.brief


def finding(exit_code: int, *lines: str, **where: Any) -> Finding:
    """A :class:`Finding` of ``lines`` (``file=``, ``line=``, ``end_line=``, ``differences=``)."""
    return Finding(exit_code, lines, **where)
