"""mkdocs hook (``hooks:`` in mkdocs.yml): the zip of the whole built site, last of all.

The zip (:func:`macros.archive.write_site_zip`) must hold every file of the site, the theme's
own included (the offline plugin writes ``search/search_index.js`` in its post-build step,
at priority -100), so it runs after every plugin. ``mkdocs serve`` writes it too, after
each rebuild, so that the pages' links to it work there as well: in a thread of its own,
so that the rebuilt pages show without waiting for it (a quarter of a second of CPU),
the zip a moment after them; the next rebuild waits for it before it starts.
Zensical has no hooks: ``zensical build`` writes it when its process ends
(``macros.zip_after_zensical_build``); ``python docs/hooks/site_zip.py site`` writes it by
hand (the theme files inside it are each generator's own, so the two zips differ there).
"""

from __future__ import annotations

import logging
import sys
import threading
from pathlib import Path
from typing import Any

LOG = logging.getLogger("mkdocs.hooks.site_zip")

#: The mkdocs command of this process (``build``, ``serve``, ``gh-deploy``), from on_startup.
_COMMAND: list[str] = []
#: Under serve, the thread writing the zip of the last rebuild.
_WRITING: list[threading.Thread] = []


def on_startup(command: str, dirty: bool) -> None:
    """Remember the command: ``mkdocs serve`` writes the zip in the background."""
    _COMMAND[:] = [command]


def on_post_build(config: Any) -> None:
    """Write the zip of the site into it: after a build, a mike deploy and each reload of
    ``mkdocs serve`` alike, so that no link to it is broken."""
    if not (Path(config["site_dir"]) / "methodology.json").exists():
        return  # nothing was published (broken live code): no zip of a broken site
    if _COMMAND != ["serve"]:
        _write(Path(config["site_dir"]))
        return
    writing = threading.Thread(
        target=_write_or_warn, args=(Path(config["site_dir"]),), name="site zip", daemon=True
    )
    _WRITING[:] = [writing]
    writing.start()


# After every plugin's post-build step (what ``mkdocs.plugins.event_priority(-200)`` sets,
# without importing mkdocs: the script below runs where only the live code is installed).
on_post_build.mkdocs_priority = -200  # type: ignore[attr-defined]


def on_config(config: Any) -> None:
    """Under serve, a rebuild starts once the previous one's zip is written: the macros
    import the live code afresh and the build empties the site's folder."""
    _wait_for_zip()


# Before the macros' (which import the live code afresh when a build starts).
on_config.mkdocs_priority = 100  # type: ignore[attr-defined]


def on_shutdown() -> None:
    """``mkdocs serve`` stops: the zip being written is finished before its folder goes."""
    _wait_for_zip()


def _wait_for_zip() -> None:
    for writing in _WRITING:
        writing.join()
    _WRITING.clear()


def _write_or_warn(site_dir: Path) -> None:
    try:
        _write(site_dir)
    except Exception as error:  # a thread of serve: say so, the pages stand
        LOG.warning("the site zip was not written: %s", error)


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
