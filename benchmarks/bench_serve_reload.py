"""How long until an edited constant shows on a page served by ``mkdocs serve``.

Copies what the site is built from (mkdocs.yml, docs/, scoring/, contracts/) to a
temporary folder, starts ``mkdocs serve`` there on 127.0.0.1 (a free port), edits the
composite's success weight in the copy's ``scoring/constants.py`` and polls the served page
until the new value appears. Prints one figure per edit and the median, in seconds, from
the moment the file is saved to the moment the page shows the value. The repository itself
is never edited.

    python benchmarks/bench_serve_reload.py [--edits N]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = "composite.html"
CONSTANT = "COMPOSITE_WEIGHT_SUCCESS"
KEY = "constant:composite.weight.success"
VALUES = ("0.45", "0.35", "0.40")
TIMEOUT = 60.0


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _fetch(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.read().decode("utf-8")
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return None


def _shown(html: str) -> str | None:
    match = re.search(rf'data-mv="{re.escape(KEY)}"[^>]*>([^<]+)<', html)
    return match.group(1) if match else None


def _set_constant(path: Path, value: str) -> None:
    text = path.read_text(encoding="utf-8")
    pattern = re.compile(rf'({CONSTANT}: Annotated\[.*?\] = Decimal\(")([^"]+)("\))', re.DOTALL)
    new, count = pattern.subn(rf"\g<1>{value}\g<3>", text)
    if count != 1:
        raise RuntimeError(f"{CONSTANT} not found in {path}")
    path.write_text(new, encoding="utf-8")


def _copy(dest: Path) -> Path:
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc")
    shutil.copy(ROOT / "mkdocs.yml", dest / "mkdocs.yml")
    for folder in ("docs", "scoring", "contracts"):
        shutil.copytree(ROOT / folder, dest / folder, ignore=ignore)
    return dest


def measure(edits: int) -> list[float]:
    """Seconds from each edit to the served page showing it."""
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as tmp:
        project = _copy(Path(tmp))
        port = _free_port()
        url = f"http://127.0.0.1:{port}/{PAGE}"
        env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
        log = (Path(tmp) / "serve.log").open("w")
        server = subprocess.Popen(
            [sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}"],
            cwd=project,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=env,
        )
        try:
            deadline = time.monotonic() + TIMEOUT
            html = None
            while html is None or _shown(html) is None:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError(f"mkdocs serve did not come up; see {log.name}")
                time.sleep(0.2)
                html = _fetch(url)
            # Let the watcher settle after the first build before the first edit.
            time.sleep(1.0)
            timings = []
            for value in (VALUES * edits)[:edits]:
                _set_constant(project / "scoring" / "constants.py", value)
                saved = time.monotonic()
                while True:
                    if time.monotonic() - saved > TIMEOUT:
                        raise RuntimeError(f"{value} never appeared on {url}")
                    page = _fetch(url)
                    if page is not None and _shown(page) == value:
                        break
                    time.sleep(0.05)
                timings.append(time.monotonic() - saved)
                time.sleep(1.0)
            return timings
        finally:
            server.terminate()
            try:
                server.wait(timeout=10)
            except subprocess.TimeoutExpired:
                server.kill()
            log.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=3, help="how many edits to time")
    args = parser.parse_args()
    timings = measure(args.edits)
    for number, seconds in enumerate(timings, start=1):
        print(f"edit {number}: {seconds:.2f} s")
    print(
        f"serve reload, edit to page: {statistics.median(timings):.2f} s (median of {len(timings)})"
    )


if __name__ == "__main__":
    main()
