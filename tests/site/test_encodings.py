"""Every published page declares its encoding in its first bytes, so that a static host
that sends no charset (``python -m http.server``, many CDNs) shows ``0–100``, not
``0â€“100``."""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest

from contracts.source import REPO_ROOT as ROOT

# The HTML standard's prescan reads a <meta charset> only in the first 1024 bytes.
PRESCAN_BYTES = 1024
_DECLARED = re.compile(rb"<meta[^>]*charset=[\"']?utf-8", re.I)


def _declares_utf8(page: bytes) -> bool:
    return bool(_DECLARED.search(page[:PRESCAN_BYTES]))


def test_published_sources_declare_utf8(tmp_path: Path) -> None:
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        from macros.published import publish_sources
    finally:
        sys.path.remove(str(ROOT / "docs"))
    publish_sources(tmp_path)
    pages = sorted(tmp_path.rglob("*.html"))
    assert pages
    for page in pages:
        data = page.read_bytes()
        assert _declares_utf8(data), page
        assert b"charset=None" not in data
        data.decode("utf-8")


def test_the_guard_sees_a_missing_charset() -> None:
    assert not _declares_utf8(b'<meta http-equiv="content-type" content="text/html; charset=None">')
    assert _declares_utf8(b'<meta charset="utf-8">')


@pytest.mark.slow
def test_every_built_page_declares_utf8(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 10
    assert [
        p.relative_to(site).as_posix() for p in pages if not _declares_utf8(p.read_bytes())
    ] == []


@pytest.mark.slow
def test_chromium_reads_a_source_page_as_utf8(chromium: Any, base_url: str) -> None:
    # base_url is served by http.server, which sends text/html without a charset.
    from chromium_driver import load

    load(chromium, f"{base_url}source/scoring/errors.py.html")
    assert chromium.execute_script("return document.characterSet") == "UTF-8"
    text = chromium.execute_script("return document.body.innerText")
    assert "…" in text
    assert "â€¦" not in text


def _shown_as_text(site: Path) -> list[Path]:
    import mimetypes

    return [
        p
        for p in sorted(site.rglob("*"))
        if p.is_file()
        and (mimetypes.guess_type(p.name)[0] or "").startswith("text/")
        and mimetypes.guess_type(p.name)[0] not in ("text/html", "text/css", "text/javascript")
    ]


@pytest.mark.slow
def test_every_plain_text_file_declares_utf8(site: Path) -> None:
    files = _shown_as_text(site)
    assert any(not p.read_bytes().isascii() for p in files)  # there is something to check
    undeclared = [
        p.relative_to(site).as_posix()
        for p in files
        if not p.read_bytes().isascii() and not p.read_bytes().startswith(b"\xef\xbb\xbf")
    ]
    assert undeclared == []


@pytest.mark.slow
def test_chromium_reads_every_published_text_as_utf8(
    chromium: Any, base_url: str, site: Path
) -> None:
    # Served by http.server: text/plain and text/x-python without a charset.
    wrong = []
    for path in _shown_as_text(site):
        data = path.read_bytes()
        if data.isascii():
            continue
        chromium.get(base_url + path.relative_to(site).as_posix())
        if chromium.execute_script("return document.characterSet") != "UTF-8":
            wrong.append(path.name)
    assert wrong == []
