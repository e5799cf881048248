"""The markup every calculator widget is built from: its fields, its result table, the
section that holds it (hidden until the script starts it, with a ``<noscript>`` note), and
the JSON a widget or a page carries for its script. The widgets themselves are
:mod:`macros.calculator`'s (the scores) and :mod:`macros.interval_calculators`'s (the
planner and the intervals)."""

from __future__ import annotations

import json
from typing import Any, Protocol

from contracts.model import Methodology
from macros.markup import block, esc

NOSCRIPT = (
    '<noscript><p class="calc-noscript">The calculator here needs JavaScript. '
    "Everything above it is computed at build time and reads the same without it.</p>"
    "</noscript>"
)


class SiteLike(Protocol):
    """What the calculators need from the build's site object."""

    snapshot: Methodology

    def rel(self, target: str) -> str:
        """``target`` (a path from the site root) relative to the page being rendered."""
        ...


def script_json(data: Any) -> str:
    """JSON safe to place inside a ``<script>`` element (no ``</script>``, no ``<!--``)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def input_field(widget: str, name: str, label: str, attrs: str, hint: str = "") -> str:
    ident = f"calc-{widget}-{name.replace('_', '-')}"
    hint_html = f'<span class="calc-hint" id="{ident}-hint">{esc(hint)}</span>' if hint else ""
    described = f' aria-describedby="{ident}-hint"' if hint else ""
    return (
        f'<div class="calc-field"><label for="{ident}">{esc(label)}</label>'
        f'<input id="{ident}" name="{esc(name)}" {attrs}{described}>{hint_html}</div>'
    )


def results_table(widget: str, rows: list[tuple[str, str]]) -> str:
    cells = "".join(
        f'<tr><th scope="row">{esc(label)}</th><td class="num" data-out="{esc(key)}">—</td></tr>'
        for key, label in rows
    )
    return (
        f'<table class="calc-out" aria-live="polite"><caption>Result</caption>'
        f"<tbody>{cells}</tbody></table>"
        f'<p class="calc-note" id="calc-{widget}-note" hidden></p>'
        f'<p class="calc-error" role="alert" id="calc-{widget}-error" hidden></p>'
    )


def widget_section(kind: str, title: str, inner: str, data: Any = None) -> str:
    payload = (
        f'<script type="application/json" class="calc-data">{script_json(data)}</script>'
        if data is not None
        else ""
    )
    body = (
        f'<section class="calc" data-calculator="{kind}" aria-label="{esc(title)}" hidden>'
        f'<p class="calc-title">{esc(title)}</p>{inner}{payload}</section>'
    )
    return block(f"calculator:{kind}", body) + NOSCRIPT + "\n"


#: Every number is typed as text: a browser's number input gives a script "" for what it
#: cannot read ("3e", "1e400"), which a calculator would take for an empty field; the
#: calculators read the text and refuse it by their one rule (docs/javascripts/fields.js).
_TEXT_INPUT = 'type="text" autocomplete="off" spellcheck="false"'


def decimal_field(widget: str, name: str, label: str, start: object, hint: str = "") -> str:
    attrs = f'{_TEXT_INPUT} inputmode="decimal" value="{esc(start)}"'
    return input_field(widget, name, label, attrs, hint)


def whole_field(widget: str, name: str, label: str, start: int) -> str:
    attrs = f'{_TEXT_INPUT} inputmode="numeric" value="{start}"'
    return input_field(widget, name, label, attrs)
