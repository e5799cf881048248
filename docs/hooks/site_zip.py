"""mkdocs hook (``hooks:`` in mkdocs.yml): the zip of the whole built site, last of all.

The zip (:func:`macros.archive.write_site_zip`) must hold every file of the site, the theme's
own included (the offline plugin writes ``search/search_index.js`` in its post-build step,
at priority -100), so it runs after every plugin. ``mkdocs serve`` writes it too, after
each rebuild (about half a second), so that the pages' links to it work there as well.
Zensical has no hooks: ``zensical build`` writes it when its process ends
(``macros.zip_after_zensical_build``); ``python docs/hooks/site_zip.py site`` writes it by
hand (the theme files inside it are each generator's own, so the two zips differ there).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

#: The mkdocs command of this process (``build``, ``serve``, ``gh-deploy``), from on_startup.
_COMMAND: list[str] = []


def on_startup(command: str, dirty: bool) -> None:
    """Remember the command (for a reader of this hook: every command writes the zip)."""
    _COMMAND[:] = [command]


def on_post_build(config: Any) -> None:
    """Write the zip of the site into it: after a build, a mike deploy and each reload of
    ``mkdocs serve`` alike, so that no link to it is broken."""
    if not (Path(config["site_dir"]) / "methodology.json").exists():
        return  # nothing was published (broken live code): no zip of a broken site
    _write(Path(config["site_dir"]))


# After every plugin's post-build step (what ``mkdocs.plugins.event_priority(-200)`` sets,
# without importing mkdocs: the script below runs where only the live code is installed).
on_post_build.mkdocs_priority = -200  # type: ignore[attr-defined]


def _write(site_dir: Path) -> Path:
    docs = str(Path(__file__).resolve().parent.parent)
    if docs not in sys.path:
        sys.path.insert(0, docs)
    from macros.archive import write_site_zip

    return write_site_zip(site_dir)


def main(argv: list[str]) -> int:
    """``python docs/hooks/site_zip.py SITE_DIR``: zip an already built site."""
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print("usage: python docs/hooks/site_zip.py SITE_DIR (an existing folder)", file=sys.stderr)
        return 2
    project = str(Path(__file__).resolve().parent.parent.parent)
    if project not in sys.path:
        sys.path.insert(0, project)
    print(_write(Path(argv[0])))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
