"""HTML that marks macro output, and number formats.

Every value a macro writes is wrapped in an element that says so: ``<span class="mv"
data-mv="constant:composite.weight.success">0.40</span>`` for a value in running text,
``<div class="mv-block" data-mv="...">`` around a table or a code block, ``<figure
class="formula">`` around a formula and ``<figure class="plot">`` around a plot. The checks
on the built pages (``tests/site/test_html.py``) tell macro output from prose this way.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Sequence
from decimal import Decimal
from fractions import Fraction

from scoring.numeric import number_text

#: Class of a value in running text.
VALUE_CLASS = "mv"
#: Class of a block (table, code block, list, changelog) written by a macro.
BLOCK_CLASS = "mv-block"
#: Class of a formula (MathML) and of a plot (SVG).
FORMULA_CLASS = "formula"
PLOT_CLASS = "plot"

Number = int | Decimal | Fraction


def esc(text: object) -> str:
    """``text`` escaped for HTML text and attribute values."""
    return html.escape(str(text), quote=True)


def value(
    key: str, text: str, *, title: str | None = None, href: str | None = None, code: bool = False
) -> str:
    """One marked value in running text; a link when ``href`` is given."""
    attrs = f' class="{VALUE_CLASS}" data-mv="{esc(key)}"'
    if title:
        attrs += f' title="{esc(title)}"'
    inner = f"<code>{esc(text)}</code>" if code else esc(text)
    if href:
        return f'<a{attrs} href="{esc(href)}">{inner}</a>'
    return f"<span{attrs}>{inner}</span>"


def block(key: str, inner_html: str, *, extra_class: str = "") -> str:
    """A marked block of HTML (on one line, so that Markdown leaves it alone)."""
    classes = f"{BLOCK_CLASS} {extra_class}".strip()
    return f'\n<div class="{classes}" data-mv="{esc(key)}">{inner_html}</div>\n'


def markdown_block(key: str, markdown: str, *, extra_class: str = "") -> str:
    """A marked block whose content is Markdown (rendered through ``md_in_html``)."""
    classes = f"{BLOCK_CLASS} {extra_class}".strip()
    return f'\n<div class="{classes}" data-mv="{esc(key)}" markdown>\n\n{markdown}\n\n</div>\n'


def code_block(key: str, text: str, *, lang: str = "text", title: str | None = None) -> str:
    """A marked, highlighted code block (the theme adds a copy button)."""
    fence = "```"
    while fence in text:
        fence += "`"
    options = f' title="{title}"' if title else ""
    return markdown_block(key, f"{fence}{lang}{options}\n{text.rstrip()}\n{fence}")


def table(
    key: str,
    headers: Sequence[str],
    rows: Iterable[Sequence[str]],
    *,
    numeric: Sequence[int] = (),
    caption: str | None = None,
) -> str:
    """A marked HTML table; cells are HTML already (escape text with :func:`esc`).

    Columns listed in ``numeric`` are right-aligned.
    """

    def cell(tag: str, i: int, content: str) -> str:
        align = ' class="num" align="right"' if i in numeric else ""
        return f"<{tag}{align}>{content}</{tag}>"

    head = "".join(cell("th", i, h) for i, h in enumerate(headers))
    body = "".join(
        "<tr>" + "".join(cell("td", i, c) for i, c in enumerate(row)) + "</tr>" for row in rows
    )
    cap = f"<caption>{caption}</caption>" if caption else ""
    return block(key, f"<table>{cap}<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>")


def score_unit() -> str:
    """What a column of scores holds, for its header: ``0–100 score`` (the scale's maximum
    from the code), so that a latency or cost score is not read as ms or USD."""
    from scoring.constants import SCORE_SCALE

    return f"0–{number_text(SCORE_SCALE)} score"


# --- Number formats -------------------------------------------------------------------------
# Every one is scoring.numeric.number_text with the options of a page: thousands grouped.


def plain(number: Number, places: int | None = None, *, grouping: bool = True) -> str:
    """A number as people write it: ``10,000``, ``0.40``, ``93.33`` (``places`` rounds half up).

    A ``Decimal`` keeps the digits it was written with unless ``places`` is given; a
    fraction that is not whole needs ``places``.
    """
    if places is None and isinstance(number, Fraction) and number.denominator != 1:
        raise ValueError(f"{number} needs a number of places")
    return number_text(number, places=places, as_written=True, grouping=grouping)


def trimmed(number: Number) -> str:
    """A decimal without trailing zeros: ``Decimal('40.00')`` → ``40``."""
    return number_text(number, grouping=True)


def percent(fraction: Number) -> str:
    """A fraction as a percentage: ``0.40`` → ``40%``."""
    return f"{exact_text(Fraction(fraction) * 100)}%"


def usd(amount: Number) -> str:
    """An amount in US dollars: ``0.001`` → ``$0.001``."""
    return f"${plain(amount)}"


def ms(amount: Number) -> str:
    """A duration in milliseconds: ``10000`` → ``10,000 ms``."""
    return f"{plain(amount)} ms"


def exact_text(value: Fraction) -> str:
    """The exact value of a fraction: an integer, a terminating decimal, or ``p/q``."""
    return number_text(value, grouping=True)


def joined(items: Sequence[str], last: str = "and") -> str:
    """``a, b and c``."""
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"
