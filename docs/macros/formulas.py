"""Formulas on the pages: a formula as MathML with where it is defined, a formula evaluated
now on given arguments, and the reference list of every formula."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from macros.markup import FORMULA_CLASS, esc, value
from macros.mathml import tex_source, to_mathml
from macros.site import anchor_id
from macros.where import where
from scoring.numeric import parse_number

if TYPE_CHECKING:
    from macros.site import Site


def evaluate(site: Site, name: str, *args: Any, fmt: str = "exact") -> str:
    """A registered formula evaluated now; string arguments are exact numbers ("1/2")."""
    from scoring.registry import FORMULAS

    exact_args = [parse_number(a) if isinstance(a, str) else a for a in args]
    result = FORMULAS[name].function(*exact_args)
    text, code = site.show(None if result is None else Fraction(result), fmt, name)
    call = f"{name}({', '.join(str(a) for a in args)})"
    return value(f"formula-value:{call}", text, code=code, title=call)


def formula(site: Site, name: str) -> str:
    """A formula as MathML, with its title, where it is defined, its TeX and its symbols."""
    entry = site.snapshot.formula(name)
    caption = (
        f"{esc(entry.title)} · <code>{esc(entry.function)}</code> · "
        f"{site.source_link(entry.defined_in)}"
    )
    # The caption, the TeX and the symbols (each folded) share the line under the formula.
    return (
        f'\n<figure class="{FORMULA_CLASS}" data-mv="formula:{esc(name)}" '
        f'id="{anchor_id("formula", name)}">{to_mathml(entry.latex)}'
        f"<figcaption>{caption}</figcaption>{tex_source(entry.latex)}"
        f"{where(site, name).strip()}</figure>\n"
    )


def formulas_reference(site: Site) -> str:
    """Every formula of the snapshot, in its order, for the reference page."""
    return "\n".join(formula(site, entry.name) for entry in site.snapshot.formulas)


#: The macros this module renders (see ``macros.MACROS_BY_MODULE``).
MACROS: dict[str, Callable[..., str]] = {
    "formula": formula,
    "f": evaluate,
    "formulas_reference": formulas_reference,
}
