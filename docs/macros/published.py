"""Files published beside the pages: the live methodology snapshot and its JSON Schema, the
JSON Schemas of the CLI output, sample inputs, the measured coverage of the intervals (as
committed, and as CSV), the released snapshots with the lock (byte for
byte as committed, so that ``python -m contracts verify`` can check a download) and
highlighted copies of the ``scoring`` and
``contracts`` sources (each line anchored, so that the pages can link to where a constant or
formula is defined and the link works offline).

:func:`publish` is their one writer: the macros module calls it once per build, under
either generator (``macros.builds.publish_or_warn``: after the build under MkDocs, when the
build starts under Zensical). The macros of this module link to the files and list them.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from macros import archive, disk_cache, samples
from macros.coverage import COVERAGE_CSV, COVERAGE_JSON, coverage_files
from macros.layout import (
    DOWNLOADS,
    SCHEMA_FILE,
    SNAPSHOT_FILE,
    SOURCE_ANCHOR,
    SOURCE_DIR,
    SOURCE_PACKAGES,
    VERSIONS_DIR,
)
from macros.markup import esc, table
from macros.portable import declare_text_encoding, drop_empty_sitemap, portable_404
from macros.samples import sample_files

if TYPE_CHECKING:
    from contracts.model import Methodology
    from macros.site import Site


# --- macros ----------------------------------------------------------------------------------


def snapshot_links(site: Site) -> str:
    """Links to the published snapshot and its JSON Schema."""
    snap = f'<a href="{esc(site.rel(SNAPSHOT_FILE))}"><code>{SNAPSHOT_FILE}</code></a>'
    schema = f'<a href="{esc(site.rel(SCHEMA_FILE))}"><code>{SCHEMA_FILE}</code></a>'
    return f"{snap} (its JSON Schema: {schema})"


def downloads(site: Site) -> str:
    """Every file published beside the pages, with what it holds."""
    entries = [
        (SNAPSHOT_FILE, "the live methodology snapshot this site was built from"),
        (SCHEMA_FILE, "its JSON Schema"),
        *((name, f"JSON Schema of {name.split('.')[0]} --format json") for name in _output()),
        (f"{DOWNLOADS}/{samples.RUNS_FILE}", "a sample run log (input of report)"),
        (f"{DOWNLOADS}/{samples.OUTCOMES_FILE}", "sample outcome records (input of outcome)"),
        (f"{DOWNLOADS}/{samples.BAD_RUNS_FILE}", "a run log with two problems"),
        ("data/tau-bench-gpt-4o-airline.jsonl", "τ-bench trials of gpt-4o, airline domain"),
        ("data/tau-bench-LICENSE.txt", "τ-bench's licence (MIT)"),
        ("examples/report_api.py", "the report from Python"),
        ("examples/outcome_api.py", "an outcome score from Python"),
        ("examples/tau_bench.py", "pass^k on the τ-bench data"),
        (f"{DOWNLOADS}/{COVERAGE_JSON}", "the measured coverage of the intervals"),
        (f"{DOWNLOADS}/{COVERAGE_CSV}", "the same coverage figures, one line a figure"),
    ]
    entries += [
        (f"{VERSIONS_DIR}/{r.version}.json", f"committed snapshot of version {r.version}")
        for r in site.history()
    ]
    entries.append((f"{VERSIONS_DIR}/{_lock_name()}", "SHA-256 of each released snapshot (lock)"))
    zipped = f"{archive.ARCHIVE_DIR}/{archive.archive_name(site.snapshot.methodology_version)}"
    entries.append((zipped, "the whole site, to read offline"))
    entries.append((zipped + archive.CHECKSUM_SUFFIX, "the zip's SHA-256 (sha256sum -c reads it)"))
    rows = [
        [f'<a href="{esc(site.rel(path))}"><code>{esc(path)}</code></a>', esc(what)]
        for path, what in entries
    ]
    return table("downloads", ["File", "What it holds"], rows)


# --- publishing ------------------------------------------------------------------------------


#: The encoding of every published file, declared in each HTML page.
PUBLISHED_ENCODING = "utf-8"


def write_snapshot(path: Path, snapshot: Methodology | None = None) -> None:
    """Write the live snapshot as the site publishes it (``methodology.json``): in the form
    of a committed snapshot file, so that a site built from a released version publishes
    that release's bytes, which ``python -m contracts verify`` accepts. ``snapshot`` is the
    live snapshot if the caller has built it (the build's pages were rendered from it);
    else it is built here."""
    from contracts.build import build_snapshot
    from contracts.store import snapshot_text

    live = build_snapshot() if snapshot is None else snapshot
    path.write_text(snapshot_text(live), encoding="utf-8")


def publish(site_dir: Path, *, site_zip: bool = False, snapshot: Methodology | None = None) -> None:
    """Write the snapshot, its schema, the samples, the released snapshots and the sources,
    all computed now from the live code (the snapshot: ``snapshot``, the one the build's
    pages show, when given); then, with ``site_zip``, the zip of the whole site
    (``mkdocs serve`` leaves it out: every reload would wait for it)."""
    from contracts import store
    from contracts.store import load_history
    from scoring.invariants import check_methodology

    check_methodology()  # a methodology that breaks its own rules publishes nothing
    site_dir.mkdir(parents=True, exist_ok=True)
    write_snapshot(site_dir / SNAPSHOT_FILE, snapshot)
    # The schema of a snapshot file, as `contracts update` commits it: it accepts the live
    # methodology.json and the released snapshots alike (they carry a `_generated` note).
    (site_dir / SCHEMA_FILE).write_text(store.schema_text(), encoding="utf-8")
    downloads = site_dir / DOWNLOADS
    downloads.mkdir(exist_ok=True)
    for name, text in sample_files().items():
        (downloads / name).write_text(text, encoding="utf-8")
    for name, data in coverage_files().items():
        (downloads / name).write_bytes(data)
    versions = site_dir / VERSIONS_DIR
    versions.mkdir(exist_ok=True)
    # Byte for byte as committed: a reader checks them with python -m contracts verify.
    for release in load_history():
        shutil.copyfile(store.snapshot_path(release.version), versions / f"{release.version}.json")
    shutil.copyfile(store.LOCK_PATH, versions / store.LOCK_FILENAME)
    for name in _output():
        shutil.copyfile(store.SNAPSHOT_DIR / name, site_dir / name)
    publish_sources(site_dir / SOURCE_DIR)
    # The theme's own files, made to work under any sub-path and from file:// too.
    portable_404(site_dir)
    drop_empty_sitemap(site_dir)
    declare_text_encoding(site_dir)
    # Last: the zip of the whole site holds every file written above.
    if site_zip:
        archive.write_site_zip(site_dir)


def _output() -> list[str]:
    """File names of the committed JSON Schemas of the CLI output."""
    from contracts.output import OUTPUT_MODELS

    return list(OUTPUT_MODELS)


def _lock_name() -> str:
    from contracts.store import LOCK_FILENAME

    return LOCK_FILENAME


def publish_sources(target: Path) -> None:
    """Write a highlighted page, lines anchored, for every Python file of the packages."""
    import pygments

    from contracts.source import REPO_ROOT

    # Kept between builds, by the text, Pygments' version and this module's own source (how
    # the page is written): a rebuild under serve highlights only what changed (every file
    # through Pygments took about a third of a build).
    writer = (pygments.__version__, Path(__file__).read_text(encoding="utf-8"))
    for package in SOURCE_PACKAGES:
        for path in sorted((REPO_ROOT / package).rglob("*.py")):
            relative = path.relative_to(REPO_ROOT).as_posix()
            text = path.read_text(encoding="utf-8")
            out = target / f"{relative}.html"
            out.parent.mkdir(parents=True, exist_ok=True)
            key = (*writer, relative, text)
            out.write_bytes(
                disk_cache.cached("sources", key, lambda r=relative, t=text: _highlight(r, t))
            )


def _highlight(relative: str, text: str) -> bytes:
    from pygments import highlight
    from pygments.formatters import HtmlFormatter
    from pygments.lexers import PythonLexer

    formatter = HtmlFormatter(
        full=True,
        linenos="inline",
        lineanchors=SOURCE_ANCHOR,
        anchorlinenos=True,
        noclasses=True,
        title=f"{relative} (the source this site was built from)",
        # Declared in the page (charset=utf-8, not Pygments' default "None"): a static host
        # that sends no charset (python -m http.server) would otherwise leave the browser to
        # guess, and it shows 0â€“100 for 0–100.
        encoding=PUBLISHED_ENCODING,
    )
    page: bytes = highlight(text, PythonLexer(), formatter)
    # No icon of its own: without this the browser asks the host's root for /favicon.ico,
    # outside the site when it is served under a sub-path.
    return page.replace(b"<head>", b'<head>\n  <link rel="icon" href="data:,">', 1)


#: The macros this module renders (see ``macros.MACROS_BY_MODULE``).
MACROS: dict[str, Callable[..., str]] = {
    "downloads": downloads,
    "snapshot_links": snapshot_links,
}
