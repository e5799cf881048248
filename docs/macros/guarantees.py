"""What the methodology guarantees: the table of its invariants (``scoring.invariants``),
and what every macro shows instead of a number when the live constants break one.

A broken invariant does not stop the build: every macro on a page is replaced by an error
admonition in place (the first on a page lists each breach with its line; later ones only
point to it), one warning is logged, so ``mkdocs build --strict`` fails, and ``mkdocs serve``
keeps serving and shows the error where the numbers would have been.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from macros.markup import esc, table
from macros.site import REFERENCE_PAGE, anchor_id

if TYPE_CHECKING:
    from macros.site import Site
    from scoring.errors import Breach

LOG = logging.getLogger("mkdocs.plugins.macros.methodology")

#: Class of the admonition that stands in for a macro's output when the methodology is broken.
BROKEN_CLASS = "admonition failure methodology-broken"


def guarantees(site: Site) -> str:
    """Every invariant of the methodology: its name, the guarantee and the constants it reads."""
    from scoring.invariants import INVARIANTS

    by_python = {info.python_name: info.meta.name for info in site.infos.values()}
    rows = []
    for invariant in INVARIANTS:
        names = [by_python.get(name, name) for name in invariant.constants]
        links = ", ".join(
            f'<a href="{esc(site.rel(REFERENCE_PAGE))}#{anchor_id("constant", n)}">'
            f"<code>{esc(n)}</code></a>"
            for n in names
        )
        rows.append(
            [f"<code>{esc(invariant.name)}</code>", esc(invariant.guarantee), links or "every one"]
        )
    return table("guarantees", ["Invariant", "Guarantee", "Constants"], rows)


def breach_admonition(breaches: list[Breach], *, first: bool) -> str:
    """The HTML that stands in for a macro's output while the methodology is broken."""
    title = "The methodology breaks its own invariants: no number is shown"
    if not first:
        return f'<span class="methodology-broken" title="{esc(title)}">(see the error above)</span>'
    items = "".join(f"<li><code>{esc(breach)}</code></li>" for breach in breaches)
    return (
        f'\n<div class="{BROKEN_CLASS}"><p class="admonition-title">{esc(title)}</p>'
        f"<ul>{items}</ul><p>Fix each constant named in <code>scoring/constants.py</code>; "
        "the page shows its numbers again on the next build.</p></div>\n"
    )


def define_broken_methodology(env: Any, names: tuple[str, ...], breaches: list[Breach]) -> None:
    """Register every macro name as the admonition of ``breaches`` (see the module)."""
    LOG.warning(
        "methodology macros: the live constants break the methodology's invariants: %s",
        "; ".join(str(b) for b in breaches),
    )
    shown_on: set[str] = set()

    def broken(*_args: Any, **_kwargs: Any) -> str:
        page = getattr(env, "page", None)
        key = page.url if page is not None else ""
        first = key not in shown_on
        shown_on.add(key)
        return breach_admonition(breaches, first=first)

    for name in names:
        env.macro(broken, name)


#: The macros this module renders (see ``macros.MACROS_BY_MODULE``).
MACROS: dict[str, Callable[..., str]] = {"guarantees": guarantees}
