"""The "where" list under a displayed formula: each of its symbols, set as in the formula,
with what it stands for, generated from the formula's registry entry (its ``symbols``, as
the snapshot records them), so that no symbol of a formula is left undefined on the page
that shows it. A constant reads as its description and value, another formula as its title
(linked to its entry on the reference page), an input by its name in the code.

The list is folded under one line that names the symbols (a reader opens it for what they
stand for). A formula the registry describes in words (its ``symbols`` empty) gets none.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from macros.markup import BLOCK_CLASS, esc
from macros.mathml import to_mathml
from macros.site import anchor_id

if TYPE_CHECKING:
    from macros.site import Site

#: A constant's value longer than this (characters) is shortened; the reference has it all.
VALUE_CHARS = 32
_CONSTANT = re.compile(r"\bconstant ([A-Z][A-Z0-9_]+)")
_FORMULA = re.compile(r"^formula ([a-z_]+\.[a-z_^]+)")
_ARGUMENT = re.compile(r"\bargument (\w+)")
_CAPITAL = re.compile(r"\b[A-Z][A-Z0-9_]{3,}\b")


#: A mean's symbol, ``\overline{\mathrm{latency\_ms}}``: set as the word under a bar in
#: the text (a MathML overline alone, at the list's size, stops short of a long word).
_BARRED_WORD = re.compile(r"^\\overline\{\\mathrm\{(?P<word>[^{}]+)\}\}$")


def _symbol(latex: str) -> str:
    """The symbol as inline MathML; a sequence's stem (``x_``) gets its index, ``x_i``."""
    barred = _BARRED_WORD.match(latex)
    if barred:
        word = barred["word"].replace("\\_", "_")
        return f'<span class="where-bar">{esc(word)}</span>'
    tex = f"{latex}i" if latex.endswith("_") else latex
    try:
        # Set in the display style, as in the formula above (site.css sets it in the line):
        # an inline style draws an overline shorter than the word under it.
        return to_mathml(tex)
    except Exception:  # a symbol latex2mathml cannot set alone: shown as its TeX
        return f"<code>{esc(latex)}</code>"


def _short(text: str) -> str:
    return text if len(text) <= VALUE_CHARS else text[: VALUE_CHARS - 1] + "…"


def meaning(site: Site, text: str) -> str:
    """What a symbol stands for, for a reader: the registry's description with a constant
    named by its description and value, a formula by its title, an input in code type."""
    by_python = {c.python_name: c for c in site.snapshot.constants}
    formula = _FORMULA.match(text)
    if formula and formula[1] in {f.name for f in site.snapshot.formulas}:
        entry = site.snapshot.formula(formula[1])
        href = site.rel("reference.html") + "#" + anchor_id("formula", entry.name)
        return f'the {esc(entry.title.lower())} (<a href="{esc(href)}">{esc(entry.name)}</a>)'
    constant = _CONSTANT.search(text)
    if constant and constant[1] in by_python and text.startswith("constant "):
        c = by_python[constant[1]]
        description = c.description.rstrip(".")
        what = esc(description[0].lower() + description[1:])
        if isinstance(c.value, int | float) and not isinstance(c.value, bool):
            # As every page writes it, linked to the reference (macros.constants).
            from macros.constants import constant as written

            return f"{what}, {written(site, c.name)}"
        shown = _short(json.dumps(c.value, ensure_ascii=False))
        return f"{what}: <code>{esc(c.name)}</code> = {esc(shown)}"
    out = esc(text)
    out = _ARGUMENT.sub(lambda m: f"the input <code>{m[1]}</code>", out)
    named = {c.python_name: c.name for c in site.snapshot.constants}
    return _CAPITAL.sub(lambda m: f"<code>{named.get(m[0], m[0])}</code>", out)


def where(site: Site, name: str) -> str:
    """The list of a formula's symbols and their meanings ("" when it has none), folded
    under a line that names the symbols: a reader opens it for their meanings."""
    symbols = site.snapshot.formula(name).symbols or {}
    if not symbols:
        return ""
    shown = {latex: _symbol(latex) for latex in symbols}
    rows = "".join(
        f"<li>{shown[latex]}: {meaning(site, text)}</li>" for latex, text in symbols.items()
    )
    line = ", ".join(shown.values())
    return (
        f'\n<details class="{BLOCK_CLASS} formula-where" data-mv="{esc(f"formula-where:{name}")}">'
        f'<summary><span class="where-title">where</span> {line}</summary><ul>{rows}</ul>'
        "</details>\n"
    )
