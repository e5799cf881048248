"""The built site, made to work wherever it is put: at a host's root, under a sub-path (a
GitHub project page, ``https://host/project/``) or opened from the file system.

The theme writes the pages with relative URLs, which work anywhere, but its ``404.html``
with root-absolute ones (``/assets/...``): a host serves that page for any missing URL, at
any depth, so no relative URL is right for every one. :func:`portable_404` makes its URLs
relative to the site's root and puts, right after its charset, a script that finds that root
from the address: the longest trailing run of folders of the missing URL that is a folder
of this site (``/project/source/scoring/x.html`` is under ``/project/``, for the site has
``source/scoring/``), else the missing URL's own folder (a page mistyped at the top level,
or ``404.html`` opened as a file). It writes a ``<base>`` there, and sets the theme's
``base`` to it. Nothing is fetched to find it (the site works offline).

A plain static host (``python -m http.server``, many CDNs) sends ``text/plain`` or
``text/x-python`` with no charset, and the browser then guesses (Chromium: windows-1252,
``Ï„-bench`` for ``τ-bench``). Such a file has no place to declare its encoding but a
byte-order mark, which browsers obey before anything else: :func:`declare_text_encoding`
starts each non-ASCII one with the UTF-8 mark. (Pages declare it in a ``<meta>``; JSON is
UTF-8 by its standard, RFC 8259, and read so; scripts and stylesheets are read in the
encoding of the page that loads them.)

The sitemap protocol takes absolute URLs only; without ``site_url`` the theme writes one
with no URL in it. :func:`drop_empty_sitemap` removes that rather than publish a sitemap
that says the site has no pages (with ``site_url`` set, the sitemap lists every page).
"""

from __future__ import annotations

import json
import mimetypes
import re
from pathlib import Path

NOT_FOUND_PAGE = "404.html"
SITEMAPS = ("sitemap.xml", "sitemap.xml.gz")

# The theme's configuration block, read by its script: {"base": "/", ...}.
_CONFIG = re.compile(r'(<script id="__config" type="application/json">)(.*?)(</script>)', re.S)
_ATTRIBUTE = re.compile(r'\b(href|src|action)="([^"]*)"')
# The script goes right after the charset (which must stay in the first 1024 bytes) and
# before the first URL of the page.
_CHARSET = re.compile(r"<meta charset=[^>]*>", re.I)

# Runs first in the head: finds the site's root from the address and writes <base> there.
_FIND_ROOT = """<script>(function () {
  var folders = new Set(%s);
  var parts = location.pathname.split("/").slice(1, -1);
  var root = parts.length;
  for (var start = 0; start < parts.length; start++) {
    if (folders.has(parts.slice(start).join("/"))) { root = start; break; }
  }
  var base = "/" + parts.slice(0, root).map(function (p) { return p + "/"; }).join("");
  document.write('<base href="' + base.replace(/"/g, "%%22") + '">');
})();</script>"""
# Runs right after the theme's configuration block, before the theme's script reads it.
_SET_BASE = """<script>(function () {
  var node = document.getElementById("__config");
  var config = JSON.parse(node.textContent);
  config.base = document.baseURI.replace(/[^/]*$/, "");
  if (config.search) config.search = new URL(config.search, config.base).href;
  node.textContent = JSON.stringify(config);
})();</script>"""


def _folders(site_dir: Path) -> list[str]:
    """Every folder of the site, relative to its root, the root itself as ``""``."""
    folders = [p.relative_to(site_dir).as_posix() for p in site_dir.rglob("*") if p.is_dir()]
    return ["", *sorted(folders)]


def _relative(value: str, base: str) -> str:
    """A URL relative to the site's root, for one written root-absolute from ``base``."""
    if value.startswith("//") or not value.startswith(base):
        return value
    rest = value[len(base) :]
    return rest or "./"


def portable_404(site_dir: Path) -> bool:
    """Make ``404.html`` work at any depth under any sub-path and from ``file://`` (see the
    module). Returns whether there was a page to change; running it twice changes nothing
    more."""
    path = site_dir / NOT_FOUND_PAGE
    if not path.is_file():
        return False
    page = path.read_text(encoding="utf-8")
    config = _CONFIG.search(page)
    charset = _CHARSET.search(page)
    if config is None or charset is None:
        return False
    data = json.loads(config.group(2))
    base = data.get("base", "/")
    if not base.startswith("/"):
        return True  # already relative: done before
    base = base.rstrip("/") + "/"
    data["base"] = "."
    if isinstance(data.get("search"), str):
        data["search"] = _relative(data["search"], base)
    body = f"{config.group(1)}{json.dumps(data)}{config.group(3)}{_SET_BASE}"
    page = page[: config.start()] + body + page[config.end() :]
    page = _ATTRIBUTE.sub(lambda m: f'{m[1]}="{_relative(m[2], base)}"', page)
    find_root = _FIND_ROOT % json.dumps(_folders(site_dir))
    charset = _CHARSET.search(page)
    assert charset is not None  # found above, before the URLs changed
    page = page[: charset.end()] + find_root + page[charset.end() :]
    path.write_text(page, encoding="utf-8")
    return True


def drop_empty_sitemap(site_dir: Path) -> bool:
    """Remove a sitemap that lists no URL (see the module); whether one was removed."""
    sitemap = site_dir / SITEMAPS[0]
    if not sitemap.is_file() or "<url>" in sitemap.read_text(encoding="utf-8"):
        return False
    for name in SITEMAPS:
        (site_dir / name).unlink(missing_ok=True)
    return True


UTF8_BOM = b"\xef\xbb\xbf"
# Text types a browser shows as they are, with no page to declare their encoding.
_SHOWN_AS_TEXT = re.compile(r"text/(?!html$|css$|javascript$)")


def declare_text_encoding(site_dir: Path) -> list[Path]:
    """Start every non-ASCII plain-text file of the site with the UTF-8 byte-order mark
    (see the module); the files changed."""
    changed = []
    for path in sorted(site_dir.rglob("*")):
        kind, _ = mimetypes.guess_type(path.name)
        if not path.is_file() or kind is None or not _SHOWN_AS_TEXT.match(kind):
            continue
        data = path.read_bytes()
        if data.startswith(UTF8_BOM) or data.isascii():
            continue
        data.decode("utf-8")  # a file in another encoding would be a mistake to mark
        path.write_bytes(UTF8_BOM + data)
        changed.append(path)
    return changed
