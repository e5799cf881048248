"""The note at the top of a page that shows an unreleased change.

Every number of the site is rendered from the live code, so a writer who edits a constant
under ``mkdocs serve`` sees the new numbers at once, and nothing on the page said they are
not the released ones (the versions page alone did). Here, after the macros have rendered a
page (``on_post_page_macros`` in ``macros``), the page gets a note under its title when it
shows something the live code changed since the newest released version, saying what
changed (the causes, as ``python -m contracts check`` words them: :mod:`contracts.check.causes`)
and how to release it.

Which pages: every value a macro writes carries its key (``data-mv``, see
:mod:`macros.markup`), and the keys name what the value was read from:
``constant:<name>`` (an inline constant, an anchor table, a curve's plot),
``source:<PYTHON_NAME>``, ``formula:<name>`` and ``formula-value:<name>(…)``,
``example:<name>/…``. A page shows a change when one of its keys names a changed constant,
a formula whose registration or golden evaluations changed, or a worked example whose
inputs or results changed. Besides: the reference table of every constant
(``reference:constants``) shows any constant; a command's output (``cli:``, ``script:``)
shows the report's numbers, which move when the reference corpus's scoreboard does; the
versions page's drift block (``versions:drift``) shows every change.

On a tree whose live code is the newest released snapshot nothing is added: the lock's
content hash of that version is compared with the live snapshot's before anything else.
The note logs nothing, so ``mkdocs build --strict`` of an unreleased change still builds (a
preview of it is the point of ``serve``); what fails on such a tree is ``python -m contracts
check``, which CI runs. Zensical's macros have no event after a page's macros: its pages go
without the note.
"""

from __future__ import annotations

import re
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING

from contracts.check.causes import Cause, changed_entries, explain
from contracts.check.diff import SCOREBOARD_KEY, diff_snapshots
from contracts.store import RELEASE_COMMAND, read_lock_entries, snapshot_hash, version_key
from macros.markup import block, esc

if TYPE_CHECKING:
    from macros.site import Site

#: The key of the note itself (a page's checks tell macro output by its key).
NOTE_KEY = "drift:page"
#: Every key a page's macros wrote.
_KEYS = re.compile(r'data-mv="([^"]*)"')
#: An entry named inside a key (a plot's key holds one after ``plot:``).
_NAMED = re.compile(
    r"(?:^|[:/])(?P<kind>constant|formula-value|formula|example|source):(?P<name>[^/(\s]+)"
)
#: Keys that show more than one entry: what they show, as ``(kind, name)``; ``*`` is any.
_WIDE = {
    "reference:constants": ("constant", "*"),
    "versions:drift": ("*", "*"),
}
#: Keys of a command's output that holds the scoring code's numbers (a report, a comparison,
#: the SQL with its constants, a script's): they move with the scoreboard of the corpus.
_COMMAND_PREFIXES = ("cli:report", "cli:compare", "cli:sql", "script:")
#: A Markdown title on the page's first line: the note goes under it.
_TITLE = re.compile(r"\A\s*# [^\n]*\n")


@dataclass(frozen=True, slots=True)
class Drift:
    """How the live code differs from the newest released version: the version, the
    causes (as the check says them) and the entries the differences touch."""

    version: str
    causes: tuple[Cause, ...]
    changed: frozenset[tuple[str, str]]


_DRIFTS: weakref.WeakKeyDictionary[Site, Drift | None] = weakref.WeakKeyDictionary()


def drift(site: Site) -> Drift | None:
    """The build's drift from the newest released version, or ``None`` when the live code
    is that version's snapshot (worked out once per build)."""
    if site in _DRIFTS:
        return _DRIFTS[site]
    found: Drift | None = None
    lock = read_lock_entries()
    newest = max(lock, key=version_key) if lock else None
    if newest is not None and lock[newest].content_sha256 != snapshot_hash(site.snapshot):
        release = next(r for r in site.history() if r.version == newest)
        differences = diff_snapshots(release.snapshot, site.snapshot)
        explained = explain(release.snapshot, site.snapshot, differences)
        changed = changed_entries(differences, release.snapshot, site.snapshot)
        if differences:
            found = Drift(newest, explained.causes, frozenset(changed))
    _DRIFTS[site] = found
    return found


def shown_entries(markdown: str, python_names: dict[str, str]) -> set[tuple[str, str]]:
    """What a rendered page shows, as ``(kind, name)``, read from its values' keys (see the
    module's docstring); ``python_names`` maps a constant's Python name to its name."""
    shown: set[tuple[str, str]] = set()
    for key in _KEYS.findall(markdown):
        if key in _WIDE:
            shown.add(_WIDE[key])
        if key.startswith(_COMMAND_PREFIXES):
            shown.add((SCOREBOARD_KEY, ""))
        for match in _NAMED.finditer(key):
            kind, name = match["kind"], match["name"]
            if kind == "source":
                kind, name = "constant", python_names.get(name, name)
            shown.add(("formula" if kind == "formula-value" else kind, name))
    return shown


def touches(shown: set[tuple[str, str]], changed: frozenset[tuple[str, str]]) -> bool:
    """Whether a page that shows ``shown`` shows one of the ``changed`` entries."""
    if ("*", "*") in shown and changed:
        return True
    kinds = {kind for kind, name in shown if name == "*"}
    return any(entry in shown or entry[0] in kinds for entry in changed)


def note(site: Site, found: Drift) -> str:
    """The note: what changed since the released version, and how to release it."""
    plural = "s" if len(found.causes) > 1 else ""
    items = "".join(f"<li>{esc(' '.join(cause.lines()))}</li>" for cause in found.causes)
    versions = site.rel("versions.html")
    body = (
        f'<p class="admonition-title">Unreleased change{plural}</p>'
        f"<p>This page shows the live code, which differs from released version "
        f"{esc(found.version)}:</p><ul>{items}</ul>"
        f'<p>Not yet released: run <code>{esc(RELEASE_COMMAND)} --note "…"</code> '
        "(<code>python -m contracts check</code> says the same; "
        f'<a href="{esc(versions)}">Versions</a>).</p>'
    )
    return block(NOTE_KEY, f'<div class="admonition warning">{body}</div>')


def with_note(site: Site, markdown: str) -> str:
    """``markdown`` (a page the macros rendered) with the note under its title when it shows
    an unreleased change; unchanged otherwise."""
    found = drift(site)
    if found is None:
        return markdown
    python_names = {entry.python_name: entry.name for entry in site.snapshot.constants}
    if not touches(shown_entries(markdown, python_names), found.changed):
        return markdown
    title = _TITLE.match(markdown)
    at = title.end() if title else 0
    return f"{markdown[:at]}{note(site, found)}\n{markdown[at:]}"
