"""``serving.Served``: a save the server's watcher missed (made before it was armed) is saved
again until the page shows it, and a save the server has logged is not.

A stand-in server: ``http.server`` over a folder, and a watcher thread that, like mkdocs'
polling observer, takes its first look at the file only once it is armed, so a save made
before then is never seen. The test arms it after the first save, by an event: that save
is missed for certain, whatever the machine's speed.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
import serving
from serving import LOG_NAME, Served, ServeError


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


class _Running:
    """A process that is still running (``Served`` polls it to see the server alive)."""

    def poll(self) -> None:
        return None


class _Watcher(threading.Thread):
    """Copies ``source`` to ``page`` each time its modification time changes after the
    first look, taken once ``armed`` is set (then ``looked`` is set); logs each copy when
    ``logs`` is true."""

    def __init__(self, source: Path, page: Path, log: Path, *, logs: bool) -> None:
        super().__init__(daemon=True)
        self.source, self.page, self.log, self.logs = source, page, log, logs
        self.armed, self.looked, self.stop = threading.Event(), threading.Event(), threading.Event()
        self.copies = 0

    def run(self) -> None:
        self.armed.wait()
        seen = self.source.stat().st_mtime_ns
        self.looked.set()
        while not self.stop.wait(0.01):
            now = self.source.stat().st_mtime_ns
            if now != seen:
                seen = now
                # As a server does: the rebuild logged, then the page written (a test that
                # sees the page sees the log line and the count).
                if self.logs:
                    with self.log.open("a") as log:
                        log.write("Build started\n")
                self.copies += 1
                self.page.write_bytes(self.source.read_bytes())


@pytest.fixture
def site(tmp_path: Path) -> Iterator[tuple[Served, Path, Path]]:
    served_folder = tmp_path / "site"
    served_folder.mkdir()
    (served_folder / "page.html").write_text("before", encoding="utf-8")
    (tmp_path / LOG_NAME).write_text("", encoding="utf-8")
    source = tmp_path / "page.md"
    source.write_text("before", encoding="utf-8")
    handler = partial(_Quiet, directory=str(served_folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        yield Served(tmp_path, _Running(), base), source, served_folder / "page.html"  # type: ignore[arg-type]
    finally:
        server.shutdown()
        server.server_close()


def _watch(site: tuple[Served, Path, Path], *, logs: bool) -> _Watcher:
    served, source, page = site
    return _Watcher(source, page, served.project / LOG_NAME, logs=logs)


def test_a_missed_save_is_saved_again_until_it_shows(
    site: tuple[Served, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(serving, "RESAVE_S", 0.1)
    served, source, _ = site
    watcher = _watch(site, logs=False)
    watcher.start()
    served.save(source, "after")
    watcher.armed.set()  # armed after the save: the save itself is never seen
    try:
        served.wait_for("page.html", "^after$", limit_s=30)
    finally:
        watcher.stop.set()
    assert watcher.copies >= 1


def test_without_saving_again_the_missed_save_never_shows(
    site: tuple[Served, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The case above fails without the second save: the test can fail."""
    monkeypatch.setattr(serving, "RESAVE_S", 0.1)
    monkeypatch.setattr(Served, "_save_again", lambda self: None)
    served, source, _ = site
    watcher = _watch(site, logs=False)
    watcher.start()
    served.save(source, "after")
    watcher.armed.set()
    try:
        with pytest.raises(ServeError, match="did not show"):
            served.wait_for("page.html", "^after$", limit_s=1)
    finally:
        watcher.stop.set()
    assert watcher.copies == 0


def test_a_save_the_server_logged_is_not_saved_again(
    site: tuple[Served, Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The server logged a rebuild after the save (it saw it): waiting for a page that never
    shows the pattern saves nothing again, so a slow rebuild is not queued twice. (Other lines
    in the log are no rebuild: the log grows by one before the save.)"""
    monkeypatch.setattr(serving, "RESAVE_S", 0.1)
    served, source, _ = site
    watcher = _watch(site, logs=True)
    watcher.armed.set()
    watcher.start()
    watcher.looked.wait()  # its first look taken: the saves below are seen
    source.write_text("first", encoding="utf-8")
    served.wait_for("page.html", "^first$", limit_s=30)
    with (served.project / LOG_NAME).open("a") as log:
        log.write("INFO - a request\n")
    served.save(source, "second")
    served.wait_for("page.html", "^second$", limit_s=30)
    copies = watcher.copies
    with pytest.raises(ServeError, match="did not show"):
        served.wait_for("page.html", "never", limit_s=1)
    watcher.stop.set()
    watcher.join()
    assert watcher.copies == copies
