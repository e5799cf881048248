"""The contract page's generated lists: the checks of the drift check, in the order they
run (``contracts.check.drift.CHECKS``), and the formulas marked descriptive, with their reasons
(``contracts.check.formulas``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from macros.markup import esc, table

if TYPE_CHECKING:
    from macros.site import Site


def drift_checks(site: Site) -> str:
    """The table of the drift check's checks: name, what it guards, the function."""
    from contracts.check.drift import CHECKS

    rows = [
        (
            f"<code>{esc(check.name)}</code>",
            esc(check.guards),
            f"<code>{esc(check.run.__module__)}.{esc(check.run.__name__)}</code>",
        )
        for check in CHECKS
    ]
    return table("drift-checks", ("Check", "What it guards", "Function"), rows)


def descriptive_formulas(site: Site) -> str:
    """The formulas whose LaTeX is prose by nature and so is not evaluated, with why."""
    from contracts.check.formulas import descriptive_formulas as marked

    rows = [
        (f"<code>{esc(name)}</code>", esc(title), esc(reason)) for name, title, reason in marked()
    ]
    return table("descriptive-formulas", ("Formula", "Title", "Why it is not evaluated"), rows)


#: The macros this module renders (see ``macros.MACROS_BY_MODULE``).
MACROS: dict[str, Callable[..., str]] = {
    "drift_checks": drift_checks,
    "descriptive_formulas": descriptive_formulas,
}
