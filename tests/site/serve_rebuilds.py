"""Builds of a project as ``mkdocs serve`` makes them, in one process, without the server:
what ``tests/site/test_serve_reload.py`` compares.

    python serve_rebuilds.py OUT [FILE=NEW ...]   (run in the project's root)

Builds the site into ``OUT/0`` as serve's first build does (the configuration read afresh,
the serve address as ``site_url``, the plugins told the command is ``serve``); then, for
each ``FILE=NEW``, replaces the project's ``FILE`` (relative to the root) with the file
``NEW`` and rebuilds, as serve does after a save, into ``OUT/1``, ``OUT/2``... Prints, as
JSON, the pages each rebuild converted again, from the log of ``docs/hooks/serve_reload.py``.
Run in a process of its own: the macros import the project's ``scoring`` and ``contracts``
afresh, which a test process must not do to its own.
"""

from __future__ import annotations

import json
import logging
import re
import shutil
import sys
from pathlib import Path

from mkdocs.commands.build import build
from mkdocs.config import load_config

#: What ``mkdocs serve`` sets as ``site_url`` (its address; any will do: it is not fetched).
SERVE_URL = "http://127.0.0.1:8000/"
#: The hook's line about a rebuild's pages.
CONVERTED = re.compile(r"Converted \d+ of \d+ pages again [^:]*: (?P<pages>.*)")


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def main(argv: list[str]) -> int:
    out, edits = Path(argv[0]), [arg.split("=", 1) for arg in argv[1:]]
    lines = _Lines()
    logger = logging.getLogger("mkdocs")
    logger.addHandler(lines)
    logger.setLevel(logging.INFO)
    converted: list[list[str]] = []
    first = None
    for step in range(len(edits) + 1):
        if step:
            target, new = edits[step - 1]
            shutil.copyfile(new, target)
        config = load_config(config_file="mkdocs.yml", site_dir=str(out / str(step)))
        config.site_url = SERVE_URL
        if first is None:
            first = config
            config.plugins.on_startup(command="serve", dirty=False)
        lines.messages.clear()
        build(config, serve_url=SERVE_URL)
        if step:
            found = [m for m in map(CONVERTED.search, lines.messages) if m]
            pages = found[-1]["pages"] if found else ""
            converted.append([] if pages == "none" else pages.split(", "))
    assert first is not None
    first.plugins.on_shutdown()  # the last zip written
    print(json.dumps(converted))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
