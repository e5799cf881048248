"""The pages' prose rendered through the macros in-process, without building the site.

``python tests/site/rendered_pages.py DEST [PAGE.md ...]`` (run from a project's root) loads
``mkdocs.yml`` with its plugins, as ``mkdocs build`` does, and for each page of ``docs/``
runs the same events a build runs on it (the macros render its template, Markdown turns it
into HTML) but no theme, no search index and nothing published: ``DEST/<page>.html`` is
the page's article alone. ``DEST/methodology.json`` is the snapshot the site would publish,
and ``DEST/warnings.txt`` every warning logged (a strict build fails on any).

It runs in a process of its own: the macros re-import ``scoring`` and ``contracts`` from the
project (``docs/macros/__init__.py``), which a test process must not see happen under it.
:func:`rendered_pages` renders this repository once per test session for every worker.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

#: The element the checks of ``support`` read a page's content from.
ARTICLE = '<article class="md-content__inner md-typeset">\n{content}\n</article>\n'
WARNINGS = "warnings.txt"
SNAPSHOT = "methodology.json"


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(f"{record.levelname}: {record.getMessage()}")


def render(project: Path, dest: Path, only: list[str]) -> int:
    """Render the pages of ``project`` (all of them, or the ``only`` ones) into ``dest``."""
    os.environ["NO_MKDOCS_2_WARNING"] = "1"
    os.chdir(project)  # the snippets' base path is relative to the working folder
    collected = _Collect()
    logging.getLogger("mkdocs").addHandler(collected)
    from mkdocs.config import load_config
    from mkdocs.structure.files import get_files
    from mkdocs.structure.nav import get_navigation

    config = load_config(str(project / "mkdocs.yml"))
    config.plugins.on_startup(command="build", dirty=False)
    config = config.plugins.on_config(config)
    files = config.plugins.on_files(get_files(config), config=config)
    nav = config.plugins.on_nav(get_navigation(files, config), config=config, files=files)
    del nav  # the events need it built; the pages are read from the files
    dest.mkdir(parents=True, exist_ok=True)
    for file in files.documentation_pages():
        if only and file.src_uri not in only:
            continue
        page = file.page
        if page is None:
            continue
        config.plugins.on_pre_page(page, config=config, files=files)
        page.read_source(config)
        page.markdown = config.plugins.on_page_markdown(
            page.markdown or "", page=page, config=config, files=files
        )
        page.render(config, files)
        content = config.plugins.on_page_content(
            page.content or "", page=page, config=config, files=files
        )
        target = dest / Path(file.src_uri).with_suffix(".html")
        target.write_text(ARTICLE.format(content=content), encoding="utf-8")
    # The snapshot as the site publishes it, from the live code the macros loaded.
    sys.path.insert(0, str(project / "docs"))
    import macros.published

    macros.published.write_snapshot(dest / SNAPSHOT)
    (dest / WARNINGS).write_text("".join(f"{line}\n" for line in collected.lines), "utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(render(Path.cwd(), Path(sys.argv[1]).resolve(), sys.argv[2:]))
