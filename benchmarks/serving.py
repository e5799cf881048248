"""``mkdocs serve`` (or ``zensical serve``) on a scratch copy of the project, and polling its
pages.

Shared by ``benchmarks/bench_serve_reload.py`` (which times an edit until the page shows it)
and ``tests/site/test_serve.py`` (which checks that the page does show it, and that serve
survives broken input). :func:`copy_project` is also every test's scratch copy of the
project. Only the standard library: the benchmark runs without pytest.
"""

from __future__ import annotations

import http.client
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from contracts.source import REPO_ROOT as ROOT

#: What the site is built from; a copy of these is a project ``mkdocs`` can build and serve.
PROJECT_FOLDERS = ("docs", "scoring", "contracts")
#: The documents whose generated blocks the drift check compares (the contract page shows
#: its output; a block reads pyproject.toml): a copy the site is built from has them, as a
#: clone does.
PROJECT_DOCUMENTS = ("README.md", "CONTRIBUTING.md", "pyproject.toml")

#: The build's caches (``docs/macros/disk_cache.py``): one folder a namespace (the MathML
#: of the formulas, the highlighted sources), each result filed by a hash of everything it
#: is computed from (its input, the code and the library versions that compute it), so a
#: result is used only where it would be computed the same. Zensical's own cache, files
#: beside those folders, is not copied: its tests build with and without it on purpose.
BUILD_CACHES = ".cache"

#: Seconds between two polls of a page: short, so a timing is not rounded up by much.
POLL_INTERVAL_S = 0.05

#: The server's log (stdout and stderr), in the project it serves.
LOG_NAME = "serve.log"

#: Seconds a saved edit may go unseen, with no rebuild logged, before it is saved again. A
#: server's file watcher is armed a moment after its first page shows (mkdocs' polling
#: observer takes its first snapshot in its own thread; zensical says nothing), and an edit
#: made before that is missed for good: saved again, it is seen. Not an ordering: a wait
#: ends when its page shows the edit, whenever that is; this bounds how long a missed save
#: stays missed. A server that has logged a rebuild since the save has seen it: it is not
#: saved again (a slow rebuild is not queued twice).
RESAVE_S = 2.0

#: A rebuild in the server's log: mkdocs writes the first line when its watcher sees a change,
#: zensical the second as each build starts (its first build's before the first page shows).
REBUILD_LOGGED = re.compile(r"Detected file changes|Build started")


class ServeError(RuntimeError):
    """``serve`` exited, or a page did not show what was awaited in time."""


def copy_project(
    dest: Path,
    parts: Sequence[str] = ("mkdocs.yml", *PROJECT_DOCUMENTS, *PROJECT_FOLDERS),
    pages: Sequence[str] | None = None,
) -> Path:
    """A copy in ``dest`` of the project's files and folders ``parts`` (repository-relative).
    The default is what the site is built from: mkdocs.yml, ``PROJECT_DOCUMENTS`` and
    ``PROJECT_FOLDERS``. The one scratch-copy helper of the benchmarks and the tests.

    Two caches come along, each of which checks what it keeps against what it was made
    from, so that a copy edited after this computes again exactly what its edits touch:
    the modules' bytecode (``__pycache__``: Python takes a module's compiled code only
    while its source has the size and modification time the code was compiled from, which
    the copy keeps until a test edits it), and, in a copy the site is built from, the
    build's caches (:data:`BUILD_CACHES`). A copy's first build or command is then as
    fast as a rebuild: compiling the live code and highlighting its sources were a second
    and more of each.

    With ``pages`` (names under docs/, such as ``radar.md``), a cut copy: only these pages
    are the site's, the others are stubs (:func:`cut_to_pages`)."""
    dest.mkdir(parents=True, exist_ok=True)
    for part in parts:
        source = ROOT / part
        if source.is_dir():
            shutil.copytree(source, dest / part)
        else:
            shutil.copy2(source, dest / part)
    caches = ROOT / BUILD_CACHES
    if "mkdocs.yml" in parts and caches.is_dir():
        for namespace in (path for path in caches.iterdir() if path.is_dir()):
            # A result another process is writing meanwhile is left out (it is computed).
            ignore = shutil.ignore_patterns("*.part")
            shutil.copytree(namespace, dest / BUILD_CACHES / namespace.name, ignore=ignore)
    if pages is not None:
        cut_to_pages(dest, pages)
    return dest


#: What a page the cut leaves out holds instead: its links from the kept pages resolve, so
#: a strict build of the copy warns of nothing a build of the whole site does not.
STUB_PAGE = "# {title}\n\nLeft out of this copy of the site.\n"


def cut_to_pages(project: Path, pages: Sequence[str]) -> None:
    """Keep ``pages`` (names under ``project``'s docs/) as they are and make every other page
    a stub (:data:`STUB_PAGE`): a build of the copy renders only these through the macros
    (the files the macros publish, the theme, the navigation and the hooks are the same), at
    a fraction of the cost of the whole site."""
    docs = project / "docs"
    missing = [page for page in pages if not (docs / page).is_file()]
    if missing:
        raise ValueError(f"no such pages in docs/: {missing}")
    for page in docs.glob("*.md"):
        if page.name not in pages:
            title = page.stem.replace("-", " ").capitalize()
            page.write_text(STUB_PAGE.format(title=title), encoding="utf-8")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Served:
    """A running ``serve`` of ``project`` at ``base`` (ends with a slash)."""

    project: Path
    process: subprocess.Popen[bytes]
    base: str
    #: The file :meth:`save` wrote last, and the rebuilds logged then: saved again while a
    #: wait does not see it and no rebuild is logged since.
    saved: tuple[Path, int] | None = None

    def save(self, path: Path, text: str) -> None:
        """Write ``text`` to ``path`` (UTF-8), an edit the next :meth:`wait_for` awaits."""
        path.write_text(text, encoding="utf-8")
        self.saved = (path, self._rebuilds())

    def _rebuilds(self) -> int:
        log = (self.project / LOG_NAME).read_text(encoding="utf-8", errors="replace")
        return len(REBUILD_LOGGED.findall(log))

    def _save_again(self) -> None:
        """Save the last saved file again, if the server has logged no rebuild since."""
        if self.saved is not None:
            path, rebuilds = self.saved
            if self._rebuilds() == rebuilds:
                path.write_bytes(path.read_bytes())

    def get(self, page: str) -> str | None:
        """The HTML of ``page``, or None while the server does not answer."""
        try:
            with urllib.request.urlopen(self.base + page, timeout=5) as response:
                return response.read().decode("utf-8")
        except (urllib.error.URLError, ConnectionError, TimeoutError, http.client.HTTPException):
            # Not up yet, or the page cut short while it is being written again.
            return None

    def wait_for(self, page: str, pattern: str, limit_s: float = 30.0) -> float:
        """Seconds until ``pattern`` (a regular expression) shows on ``page``; the file
        :meth:`save` wrote last is saved again each ``RESAVE_S`` it does not.

        Raises ``ServeError`` if the server exits or ``limit_s`` seconds pass first.
        """
        start = saved = time.monotonic()
        while time.monotonic() - start < limit_s:
            html = self.get(page)
            if html is not None and re.search(pattern, html):
                return time.monotonic() - start
            if self.process.poll() is not None:
                raise ServeError(f"serve exited while waiting for {pattern!r} on {page}")
            if time.monotonic() - saved >= RESAVE_S:
                self._save_again()
                saved = time.monotonic()
            time.sleep(POLL_INTERVAL_S)
        raise ServeError(f"{pattern!r} did not show on {page} within {limit_s} s")


#: The generators that can serve the site from the same mkdocs.yml.
GENERATORS = ("mkdocs", "zensical")


@contextmanager
def serve(
    project: Path,
    ready_page: str,
    ready_pattern: str,
    limit_s: float,
    generator: str = "mkdocs",
) -> Iterator[Served]:
    """Run ``mkdocs serve`` (or ``zensical serve``) in ``project`` until the block ends; its
    log is ``serve.log``.

    Yields once ``ready_pattern`` shows on ``ready_page``. Edit the project through
    :meth:`Served.save`: its watcher may not be armed yet (see ``RESAVE_S``).
    """
    if generator not in GENERATORS:
        raise ValueError(f"generator must be one of {GENERATORS}, not {generator!r}")
    port = free_port()
    with (project / LOG_NAME).open("wb") as log:
        process = subprocess.Popen(
            [sys.executable, "-m", generator, "serve", "-a", f"127.0.0.1:{port}"],
            cwd=project,
            stdout=log,
            stderr=subprocess.STDOUT,
            env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        )
        try:
            server = Served(project, process, f"http://127.0.0.1:{port}/")
            server.wait_for(ready_page, ready_pattern, limit_s)
            yield server
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
