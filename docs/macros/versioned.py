"""The pages of every released version, as mike publishes them.

mike keeps one folder per version on the ``gh-pages`` branch (``1.0.1/``, ``1.1.0/``, …),
an alias ``latest/`` for the current release and ``versions.json`` for the theme's version
selector. A page built by mike (``MIKE_DOCS_VERSION`` set) links each released version's
pages as the sibling folder; any other build holds one version only and says where the
others are published instead of linking to folders it does not have.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import TYPE_CHECKING

from macros.markup import block, esc, table

if TYPE_CHECKING:
    from macros.site import Site

#: Set by mike to the version it is building (as in ``docs/hooks/versions.py``).
MIKE_VERSION_VARIABLE = "MIKE_DOCS_VERSION"
#: The alias the release step moves to each new release (``mike deploy … latest``).
LATEST_ALIAS = "latest"
#: How a version is released to the versioned site, from its release commit; the second
#: line makes the site's root open the current release (needed once, kept after).
DEPLOY_COMMAND = (
    f"mike deploy --push --update-aliases {{version}} {LATEST_ALIAS}\n"
    f"mike set-default --push {LATEST_ALIAS}"
)


def built_version() -> str | None:
    """The version mike is building, or ``None`` outside mike."""
    return os.environ.get(MIKE_VERSION_VARIABLE) or None


def version_pages(site: Site) -> str:
    """Each released version with a link to its pages (under mike), newest first."""
    building = built_version()
    releases = list(reversed(site.history()))
    rows = []
    for release in releases:
        folder = f"{release.version}/"
        if building is None:
            pages = f"<code>{esc(folder)}</code>"
        else:
            href = site.rel(f"../{release.version}/index.html")
            pages = f'<a href="{esc(href)}">pages of {esc(release.version)}</a>'
            if release.version == building:
                pages += " (these pages)"
        rows.append([f"<code>{esc(release.version)}</code>", pages])
    listing = table("versions:pages/table", ["Version", "Pages"], rows)
    if building is None:
        intro = (
            "<p>This copy (a plain build, <code>mkdocs serve</code> or the zip) holds one "
            "version's pages; the published site keeps every release's in the folder named "
            f"below, <code>{LATEST_ALIAS}/</code> the current one.</p>"
        )
    else:
        latest = site.rel(f"../{LATEST_ALIAS}/index.html")
        intro = (
            f"<p>These pages are version <code>{esc(building)}</code> of the versioned site. "
            f'The current release is always at <a href="{esc(latest)}"><code>{LATEST_ALIAS}/'
            "</code></a>; the version selector in the header switches between them.</p>"
        )
    return block("versions:pages", intro) + listing


def deploy_command(site: Site) -> str:
    """The command that publishes the current version's pages (run from its release commit)."""
    command = DEPLOY_COMMAND.format(version=site.snapshot.methodology_version)
    return block("versions:deploy", f"<pre><code>{esc(command)}</code></pre>")


#: The macros this module renders (see ``macros.MACROS_BY_MODULE``).
MACROS: dict[str, Callable[..., str]] = {
    "version_pages": version_pages,
    "deploy_command": deploy_command,
}
