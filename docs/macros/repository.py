"""Where the repository is: the clone command of the reproduce page, from ``repo_url`` of
``mkdocs.yml`` (the address CI builds from, or the default there), the setting the theme
links every page to."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from macros.markup import code_block, esc

if TYPE_CHECKING:
    from macros.site import Site

#: The setting of ``mkdocs.yml`` that names the repository.
REPO_SETTING = "repo_url"


def repository_url(site: Site) -> str:
    """The repository's address, as this build's configuration has it; an error that names
    the setting where it has none."""
    url = site.env.conf.get(REPO_SETTING)
    if not url:
        raise ValueError(f"mkdocs.yml: {REPO_SETTING} is not set; the site names no repository")
    return str(url).rstrip("/")


def folder_name(url: str) -> str:
    """The folder ``git clone`` makes of ``url``.

    >>> folder_name("https://github.com/owner/agent-scoring-methodology.git")
    'agent-scoring-methodology'
    """
    return url.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git")


def repository_link(site: Site) -> str:
    """The repository's address as a link."""
    url = repository_url(site)
    return f'<a class="repository" href="{esc(url)}"><code>{esc(url)}</code></a>'


def clone(site: Site) -> str:
    """The commands that clone the repository and install it in a virtual environment."""
    url = repository_url(site)
    commands = (
        f"git clone {url}\n"
        f"cd {folder_name(url)}\n"
        "python -m venv .venv\n"
        ".venv/bin/pip install -e .\n"
        "source .venv/bin/activate"
    )
    return code_block("repository:clone", commands, lang="sh")


#: The macros this module renders (see ``macros.MACROS_BY_MODULE``).
MACROS: dict[str, Callable[..., str]] = {
    "repository_link": repository_link,
    "clone": clone,
}
