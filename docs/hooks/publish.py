"""mkdocs hook (``hooks:`` in mkdocs.yml): publish the methodology's files beside the pages.

After each build it writes ``methodology.json`` and its JSON Schema, the sample downloads,
the released snapshots under ``versions/`` and the highlighted sources under ``source/``
(see :func:`macros.published.publish`). It does not need the macros plugin: it imports the
live code itself, afresh at the start of every build, so that ``mkdocs serve`` publishes an
edited constant too. Were the live code broken, it logs a warning (``build --strict`` fails
on it) and publishes nothing; ``serve`` keeps running.

Run as a script, ``python docs/hooks/publish.py SITE_DIR`` writes the same files into a site
built by another generator (Zensical has no mkdocs hooks; see "How the docs stay true").
"""

from __future__ import annotations

import logging
import sys
import traceback
from pathlib import Path
from typing import Any

LOG = logging.getLogger("mkdocs.hooks.publish")


def on_config(config: Any) -> None:
    """Put the checkout (``scoring``, ``contracts``) and ``docs/`` (``macros``) first on
    ``sys.path`` and forget the live modules of the previous build."""
    _load_live_code(Path(config.config_file_path).parent, Path(config["docs_dir"]))


# Runs before the plugins (priority 0): the live code is dropped before the macros plugin
# imports it for this build, so both read the same, fresh modules. (What
# ``mkdocs.plugins.event_priority(100)`` sets, without importing mkdocs: the script below runs
# where only the live code is installed.)
on_config.mkdocs_priority = 100  # type: ignore[attr-defined]


def _load_live_code(project: Path, docs: Path) -> None:
    docs_path = str(docs.resolve())
    sys.path[:] = [p for p in sys.path if p != docs_path]
    sys.path.insert(0, docs_path)
    import macros

    macros.put_project_first(str(project))
    macros.purge_live_modules()


#: The mkdocs command of this process (``build``, ``serve``, ``gh-deploy``), from on_startup.
_COMMAND: list[str] = []


def on_startup(command: str, dirty: bool) -> None:
    """Remember the command: ``mkdocs serve`` does not write the zip of the site."""
    _COMMAND[:] = [command]


def on_post_build(config: Any) -> None:
    """Write the published files into the site folder (under ``mkdocs serve``, all but the
    zip of the whole site: the writer's loop does not wait for it)."""
    writes_bytecode = sys.dont_write_bytecode
    # No .pyc writes under watched folders: each would trigger one more rebuild.
    sys.dont_write_bytecode = True
    try:
        from macros.published import publish

        publish(Path(config["site_dir"]), site_zip=_COMMAND != ["serve"])
    except Exception as error:
        summary = "".join(traceback.format_exception_only(error)).strip()
        LOG.warning("nothing published: %s", summary)
    finally:
        sys.dont_write_bytecode = writes_bytecode


# After every plugin's post-build step: the theme's offline plugin writes
# search/search_index.js in its own (priority -100), and the zip of the site that publishing
# ends with (macros.archive) must hold it.
on_post_build.mkdocs_priority = -200  # type: ignore[attr-defined]


def main(argv: list[str]) -> int:
    """``python docs/hooks/publish.py SITE_DIR``: publish into an already built site."""
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print("usage: python docs/hooks/publish.py SITE_DIR (an existing folder)", file=sys.stderr)
        return 2
    here = Path(__file__).resolve().parent
    _load_live_code(here.parent.parent, here.parent)
    from macros.published import publish

    publish(Path(argv[0]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
