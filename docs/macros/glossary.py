"""The glossary page: every term of ``docs/includes/glossary.md`` (the abbreviations every
page carries, marked on the pages by ``docs/javascripts/glossary.js``), its definition, and
the pages that use it, each a link.

A term's anchor is ``term-`` and its name in lower case, every run of other characters a
hyphen: the same rule as ``glossary.js``, whose note under a tapped term links here.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from macros.markup import block, esc

if TYPE_CHECKING:
    from macros.site import Site

#: The glossary, as the pages' Markdown auto-appends it (mkdocs.yml, pymdownx.snippets).
GLOSSARY = Path("docs") / "includes" / "glossary.md"
_ENTRY = re.compile(r"^\*\[(?P<term>[^\]]+)\]:\s*(?P<definition>.+)$")
_NOT_IN_ANCHOR = re.compile(r"[^a-z0-9\u00c0-\u024f\u0370-\u03ff]+")
#: Signs that tell two terms apart (pass^k, pass@k), spelled out in an anchor.
_SIGNS = {"^": "-hat-", "@": "-at-"}
#: The page this module renders, left out of "where it is used".
PAGE = "glossary.md"


def entries(project: Path) -> list[tuple[str, str]]:
    """The glossary's terms and definitions, in its order."""
    found = []
    for line in (project / GLOSSARY).read_text(encoding="utf-8").splitlines():
        match = _ENTRY.match(line.strip())
        if match:
            found.append((match["term"], match["definition"]))
    return found


def anchor(term: str) -> str:
    """The id of a term's row.

    >>> anchor("Kendall's τ-b"), anchor("pass^k"), anchor("pass@k")
    ('term-kendall-s-τ-b', 'term-pass-hat-k', 'term-pass-at-k')
    """
    text = term.lower()
    for sign, word in _SIGNS.items():
        text = text.replace(sign, word)
    return "term-" + _NOT_IN_ANCHOR.sub("-", text).strip("-")


def nav_titles(nav: object) -> dict[str, str]:
    """Page file → its title in the navigation (``nav`` of mkdocs.yml, nested)."""
    found: dict[str, str] = {}
    if isinstance(nav, list):
        for item in nav:
            found |= nav_titles(item)
    elif isinstance(nav, dict) and isinstance(nav.get("title"), str):
        # Zensical hands the macros its own form of the same nav: one dict per entry, with
        # its title, its file and any children, where MkDocs keeps `{title: file}`.
        target = next(
            (nav[k] for k in ("url", "file", "path") if isinstance(nav.get(k), str)), None
        )
        if target is not None:
            found[target] = nav["title"]
        for value in nav.values():
            if isinstance(value, list):
                found |= nav_titles(value)
    elif isinstance(nav, dict):
        for title, target in nav.items():
            if isinstance(target, str):
                found[target] = str(title)
            else:
                found |= nav_titles(target)
    return found


def uses(project: Path, term: str, titles: dict[str, str]) -> list[tuple[str, str]]:
    """The pages whose Markdown uses ``term`` as a word (as the abbr extension matches it),
    as (page file, its title in the navigation), in file order."""
    pattern = re.compile(rf"\b{re.escape(term)}\b")
    pages = []
    for path in sorted((project / "docs").glob("*.md")):
        if path.name == PAGE:
            continue
        text = path.read_text(encoding="utf-8")
        if pattern.search(text):
            pages.append((path.name, titles.get(path.name, path.stem)))
    return pages


def glossary_terms(site: Site) -> str:
    """The glossary as a definition list: each term, what it means, where it is used."""
    env = getattr(site, "env", None)
    project = Path(env.project_dir) if env is not None else Path.cwd()
    titles = nav_titles(env.conf.get("nav") if env is not None else None)
    items = []
    for term, definition in entries(project):
        links = ", ".join(
            f'<a href="{esc(site.rel(page.removesuffix(".md") + ".html"))}">{esc(title)}</a>'
            for page, title in uses(project, term, titles)
        )
        where = f'<p class="gloss-uses">Used on: {links}.</p>' if links else ""
        items.append(
            f'<dt id="{esc(anchor(term))}">{esc(term)}</dt><dd><p>{esc(definition)}</p>{where}</dd>'
        )
    return block("glossary:terms", f'<dl class="glossary">{"".join(items)}</dl>')


#: The macros of this module (see ``macros.MACROS_BY_MODULE``).
MACROS: dict[str, Callable[..., str]] = {"glossary_terms": glossary_terms}
