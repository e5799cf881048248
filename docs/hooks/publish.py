"""mkdocs hook (``hooks:`` in mkdocs.yml): publish the methodology's files beside the pages.

After each build it writes ``methodology.json`` and its JSON Schema, the sample downloads,
the released snapshots under ``versions/`` and the highlighted sources under ``source/``
(see :func:`macros.published.publish`). It does not need the macros plugin: it imports the
live code itself, afresh at the start of every build, so that ``mkdocs serve`` publishes an
edited constant too. Were the live code broken, it logs a warning (``build --strict`` fails
on it) and publishes nothing; ``serve`` keeps running.
"""

from __future__ import annotations

import logging
import sys
import traceback
from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority

LOG = logging.getLogger("mkdocs.hooks.publish")


# Runs before the plugins (priority 0): the live code is dropped before the macros plugin
# imports it for this build, so both read the same, fresh modules.
@event_priority(100)
def on_config(config: Any) -> None:
    """Put the checkout (``scoring``, ``contracts``) and ``docs/`` (``macros``) first on
    ``sys.path`` and forget the live modules of the previous build."""
    docs = str(Path(config["docs_dir"]).resolve())
    sys.path[:] = [p for p in sys.path if p != docs]
    sys.path.insert(0, docs)
    import macros

    macros.put_project_first(str(Path(config.config_file_path).resolve().parent))
    macros.purge_live_modules()


def on_post_build(config: Any) -> None:
    """Write the published files into the site folder."""
    writes_bytecode = sys.dont_write_bytecode
    # No .pyc writes under watched folders: each would trigger one more rebuild.
    sys.dont_write_bytecode = True
    try:
        from macros.published import publish

        publish(Path(config["site_dir"]))
    except Exception as error:
        summary = "".join(traceback.format_exception_only(error)).strip()
        LOG.warning("nothing published, the live code cannot be loaded: %s", summary)
    finally:
        sys.dont_write_bytecode = writes_bytecode
