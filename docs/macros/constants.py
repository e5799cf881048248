"""Constants on the pages: an inline value linked to its reference entry, the anchor and
weight tables, the reference table of every constant, the source lines that define one, and
other values of the code (exit statuses, limits) that are not methodology constants."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import scoring.constants as C  # noqa: N812 - the module of constants, named as in contracts
from contracts.build import constant_location
from contracts.source import REPO_ROOT, definition_span, locate
from macros.markup import esc, markdown_block, ms, percent, plain, score_unit, table, usd, value
from macros.site import REFERENCE_PAGE, anchor_id

if TYPE_CHECKING:
    from macros.site import Site


def constant(site: Site, name: str, fmt: str = "plain", sub: str | None = None) -> str:
    """An inline constant, linked to its entry on the reference page."""
    info = site.infos[name]
    entry = site.entries[name]
    raw = info.value if sub is None else site.pick(info.value, str(sub))
    text, code = site.format(raw, fmt)
    line = locate(entry.defined_in)
    title = f"{name} ({entry.unit}), {entry.defined_in.file}:{line}"
    key = f"constant:{name}" + ("" if sub is None else f"/{sub}")
    href = f"{site.rel(REFERENCE_PAGE)}#{anchor_id('constant', name)}"
    return value(key, text, title=title, href=href, code=code)


def code_value(site: Site, dotted: str, fmt: str = "plain") -> str:
    """A module-level value of the code that is not a methodology constant
    (an exit status, a limit of the error report), e.g. ``scoring.cli.EXIT_BAD_INPUT``."""
    module, _, attribute = dotted.rpartition(".")
    raw = getattr(importlib.import_module(module), attribute)
    text, code = site.format(raw, fmt)
    return value(f"code:{dotted}", text, code=code, title=dotted)


def said(site: Site, dotted: str, *args: object) -> str:
    """What a function of the code says for ``args``, e.g. a reason the report gives
    (``scoring.formulas.repeatability.missing_reason``, 5): quoted as the report prints it."""
    module, _, attribute = dotted.rpartition(".")
    text = str(getattr(importlib.import_module(module), attribute)(*args))
    key = f"said:{dotted}({', '.join(map(repr, args))})"
    return value(key, f"“{text}”", title=dotted)


def anchors(site: Site, name: str) -> str:
    """The anchor table of a piecewise-linear curve."""
    anchors: Sequence[C.Anchor] = site.infos[name].value
    money = name.endswith("_usd")
    header = "Mean cost per completed run" if money else "Mean latency of completed runs"
    score = f"{'Cost' if money else 'Latency'} score ({score_unit()})"
    rows = [[usd(a.x) if money else ms(a.x), plain(a.score)] for a in anchors]
    return table(f"constant:{name}/table", [header, score], rows, numeric=(0, 1))


def weights_table(site: Site) -> str:
    """The radar's default weights, per axis."""
    rows = [
        [f"<code>{esc(axis)}</code>", percent(weight)]
        for axis, weight in C.RADAR_DEFAULT_WEIGHTS.items()
    ]
    return table(
        "constant:radar.default_weights/table", ["Axis", "Default weight"], rows, numeric=(1,)
    )


def source_excerpt(site: Site, python_name: str) -> str:
    """The lines of ``scoring/constants.py`` that define a constant, as they are now."""
    location = constant_location(python_name)
    span = definition_span(location)
    if span is None:
        raise KeyError(python_name)
    lines = (REPO_ROOT / location.file).read_text(encoding="utf-8").splitlines()
    text = "\n".join(lines[span.first - 1 : span.last])
    fence = f'```python linenums="{span.first}" title="{location.file}"'
    return markdown_block(f"source:{python_name}", f"{fence}\n{text}\n```")


def constants_reference(site: Site) -> str:
    rows = []
    for entry in site.snapshot.constants:
        info = site.infos[entry.name]
        rows.append(
            [
                f'<code id="{anchor_id("constant", entry.name)}">{esc(entry.name)}</code>'
                f"<br><small><code>{esc(entry.python_name)}</code></small>",
                "<br>".join(esc(part) for part in site.describe(info.value).split("; ")),
                f"{esc(entry.description)}<br><small>Unit: {esc(entry.unit)} · "
                f"{site.source_link(entry.defined_in)}</small>",
            ]
        )
    return table("reference:constants", ["Constant", "Value", "Meaning"], rows)


#: The macros this module renders (see ``macros.MACROS_BY_MODULE``).
MACROS: dict[str, Callable[..., str]] = {
    "c": constant,
    "code_value": code_value,
    "said": said,
    "anchors": anchors,
    "weights_table": weights_table,
    "constants_reference": constants_reference,
    "source_excerpt": source_excerpt,
}
