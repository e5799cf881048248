"""The whole built site as one zip, for reading offline, and its SHA-256 beside it.

:func:`write_site_zip` is the last step of publishing (it must see every other file, the
published ones included): ``macros.published.publish`` calls it once the other files are
written, so it runs wherever publishing runs (the mkdocs hook ``docs/hooks/publish.py``
after each build, or ``python docs/hooks/publish.py SITE_DIR`` after another generator),
except under ``mkdocs serve``, whose reloads do not wait for it. Under MkDocs it must come
after the theme's offline plugin, which writes ``search/search_index.js`` in its own
post-build step (priority -100): the hook's runs at -200.
It writes ``downloads/methodology-site-<version>.zip`` and ``….zip.sha256`` (the format
``sha256sum -c`` reads). The zip holds every file of the site under one folder,
``methodology-site-<version>/``, except itself and its checksum (a file cannot hold its own
hash, and a zip cannot hold itself); ``index.html`` in that folder opens the site from
``file://`` (the site is built for that: relative links, search as a script, no fetch).

Two builds of the same site give the same bytes: names sorted, one fixed timestamp and
one file mode for every entry, one compression level. The versions page links both files
(:func:`site_archive`).
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from macros.markup import block, esc

if TYPE_CHECKING:
    from macros.site import Site

#: The folder the zip is written to, beside the other downloads.
ARCHIVE_DIR = "downloads"
ARCHIVE_STEM = "methodology-site"
CHECKSUM_SUFFIX = ".sha256"
#: Every entry's timestamp: 1980-01-01 00:00, the earliest the zip format can record, so
#: that no build time (or file time) gets into the bytes.
ZIP_TIMESTAMP = (1980, 1, 1, 0, 0, 0)
#: Every entry's Unix mode: a regular file, readable by all (how the site is served).
ZIP_FILE_MODE = 0o100644
#: The zip's "made by" system: Unix, so that the mode above is what unzip applies.
_UNIX = 3
#: zlib's default level: measured on this site, level 9 took 2.5 times as long (1.1 s
#: against 0.44 s, medians of 3) for a zip 1.3% smaller; every build and serve reload pays it.
ZIP_COMPRESSLEVEL = 6


def archive_name(version: str) -> str:
    """The zip's file name for ``version``.

    >>> archive_name("1.0.1")
    'methodology-site-1.0.1.zip'
    """
    return f"{ARCHIVE_STEM}-{version}.zip"


def _is_archive(relative: str) -> bool:
    """Whether a site file is a zip of the site or its checksum (any version's)."""
    folder, _, name = relative.rpartition("/")
    return (
        folder == ARCHIVE_DIR
        and name.startswith(f"{ARCHIVE_STEM}-")
        and name.endswith((".zip", f".zip{CHECKSUM_SUFFIX}", ".zip.tmp"))
    )


def site_files(site_dir: Path) -> list[str]:
    """Every file of the built site, as sorted POSIX paths, archives left out."""
    names = []
    for folder, _, files in os.walk(site_dir):
        for name in files:
            relative = (Path(folder) / name).relative_to(site_dir).as_posix()
            if not _is_archive(relative):
                names.append(relative)
    return sorted(names)


def write_site_zip(site_dir: Path, version: str | None = None) -> Path:
    """Write the zip of ``site_dir`` (and its ``.sha256``) into its ``downloads/``; return
    the zip's path. ``version`` names it; by default the live methodology's version.

    The zip is written to a temporary file and renamed into place, so a failed build leaves
    no half-written zip.
    """
    if version is None:
        from scoring.constants import METHODOLOGY_VERSION

        version = METHODOLOGY_VERSION
    name = archive_name(version)
    folder = f"{ARCHIVE_STEM}-{version}"
    target_dir = site_dir / ARCHIVE_DIR
    target_dir.mkdir(parents=True, exist_ok=True)
    target = target_dir / name
    files = site_files(site_dir)
    handle, temporary = tempfile.mkstemp(prefix=f"{name}.", suffix=".tmp", dir=target_dir)
    os.close(handle)
    try:
        with zipfile.ZipFile(temporary, "w") as archive:
            for relative in files:
                entry = zipfile.ZipInfo(f"{folder}/{relative}", date_time=ZIP_TIMESTAMP)
                entry.compress_type = zipfile.ZIP_DEFLATED
                entry.create_system = _UNIX
                entry.external_attr = ZIP_FILE_MODE << 16
                data = (site_dir / relative).read_bytes()
                archive.writestr(entry, data, compresslevel=ZIP_COMPRESSLEVEL)
        os.replace(temporary, target)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    digest = hashlib.sha256(target.read_bytes()).hexdigest()
    checksum = target_dir / f"{name}{CHECKSUM_SUFFIX}"
    checksum.write_text(f"{digest}  {name}\n", encoding="utf-8")
    return target


# --- macros ----------------------------------------------------------------------------------


def site_archive(site: Site) -> str:
    """Links to this build's zip and to its SHA-256, and how to check and open it."""
    version = site.snapshot.methodology_version
    name = archive_name(version)
    checksum = f"{name}{CHECKSUM_SUFFIX}"
    zip_link = f'<a href="{esc(site.rel(f"{ARCHIVE_DIR}/{name}"))}"><code>{esc(name)}</code></a>'
    sum_href = esc(site.rel(f"{ARCHIVE_DIR}/{checksum}"))
    sum_link = f'<a href="{sum_href}"><code>{esc(checksum)}</code></a>'
    body = (
        f"<p>The whole site as built here, every page and download, in one zip: {zip_link}; "
        f"its SHA-256 beside it: {sum_link}. Check it with <code>sha256sum -c "
        f"{esc(checksum)}</code> in the folder of both, unzip it, and open "
        f"<code>{esc(ARCHIVE_STEM)}-{esc(version)}/index.html</code> in a browser: the "
        "pages, the search and the calculators work without a network.</p>"
    )
    return block("archive:site", body)


#: The macros this module renders (see ``macros.MACROS_BY_MODULE``).
MACROS: dict[str, Callable[..., str]] = {"site_archive": site_archive}
