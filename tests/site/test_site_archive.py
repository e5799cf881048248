"""The zip of the whole built site: it opens, holds every file and page of the site under one
folder (not itself), its SHA-256 file matches, the versions page links both, and writing it
twice gives the same bytes whatever the files' times or the order they were written in."""

from __future__ import annotations

import hashlib
import os
import shutil
import zipfile
from pathlib import Path
from typing import Any

import pytest
from chromium_driver import LOCAL_PREFIXES, console_errors, load, requested_urls, wait_for
from support import import_macros, parse

from scoring.constants import METHODOLOGY_VERSION

archive = import_macros("macros.archive")


def _site_files(site: Path) -> set[str]:
    return {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}


def _zip_path(site: Path) -> Path:
    return site / "downloads" / f"methodology-site-{METHODOLOGY_VERSION}.zip"


def test_the_zip_opens_and_holds_every_file_of_the_site(site: Path) -> None:
    path = _zip_path(site)
    checksum = path.with_name(path.name + ".sha256")
    folder = f"methodology-site-{METHODOLOGY_VERSION}/"
    with zipfile.ZipFile(path) as opened:
        assert opened.testzip() is None
        names = opened.namelist()
        assert all(name.startswith(folder) for name in names)
        held = {name.removeprefix(folder) for name in names}
        expected = _site_files(site) - {path.relative_to(site).as_posix()}
        expected -= {checksum.relative_to(site).as_posix()}
        assert held == expected
        pages = {p.relative_to(site).as_posix() for p in site.glob("*.html")}
        assert {"index.html", "versions.html", "composite.html"} <= pages <= held
        for page in sorted(pages):
            assert opened.read(folder + page) == (site / page).read_bytes(), page
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    assert checksum.read_text(encoding="utf-8") == f"{digest}  {path.name}\n"


def test_the_versions_page_links_the_zip_and_its_checksum(site: Path) -> None:
    page = parse(site / "versions.html", site)
    hrefs = {n.attrs.get("href") for n in page.root.walk() if n.tag == "a"}
    name = _zip_path(site).name
    assert {f"downloads/{name}", f"downloads/{name}.sha256"} <= hrefs


def _small_site(root: Path) -> Path:
    site = root / "site"
    (site / "search").mkdir(parents=True)
    (site / "index.html").write_text("<p>home</p>\n", encoding="utf-8")
    (site / "search" / "search_index.js").write_text("var x = 1;\n", encoding="utf-8")
    (site / "downloads").mkdir()
    (site / "downloads" / "sample.jsonl").write_text("{}\n", encoding="utf-8")
    return site


def test_two_builds_give_the_same_bytes(tmp_path: Path) -> None:
    first = _small_site(tmp_path / "a")
    one = archive.write_site_zip(first, "9.9.9").read_bytes()
    # The same files written in another order, at other times, with another mode.
    second = tmp_path / "b" / "site"
    (second / "downloads").mkdir(parents=True)
    (second / "downloads" / "sample.jsonl").write_text("{}\n", encoding="utf-8")
    (second / "search").mkdir()
    (second / "search" / "search_index.js").write_text("var x = 1;\n", encoding="utf-8")
    (second / "index.html").write_text("<p>home</p>\n", encoding="utf-8")
    for path in second.rglob("*"):
        os.utime(path, (1_900_000_000, 1_900_000_000))
    (second / "index.html").chmod(0o600)
    two = archive.write_site_zip(second, "9.9.9").read_bytes()
    assert one == two
    # Written again over itself: the old zip and checksum are not taken in.
    assert archive.write_site_zip(second, "9.9.9").read_bytes() == two


def test_a_changed_page_changes_the_zip(tmp_path: Path) -> None:
    site = _small_site(tmp_path)
    before = archive.write_site_zip(site, "9.9.9").read_bytes()
    (site / "index.html").write_text("<p>home!</p>\n", encoding="utf-8")
    assert archive.write_site_zip(site, "9.9.9").read_bytes() != before


def test_the_zip_never_holds_a_zip_of_the_site(tmp_path: Path) -> None:
    site = _small_site(tmp_path)
    archive.write_site_zip(site, "1.0.0")  # an older version's zip left in the folder
    path = archive.write_site_zip(site, "1.0.1")
    with zipfile.ZipFile(path) as opened:
        names = opened.namelist()
    assert sorted(names) == [
        "methodology-site-1.0.1/downloads/sample.jsonl",
        "methodology-site-1.0.1/index.html",
        "methodology-site-1.0.1/search/search_index.js",
    ]
    assert not [p for p in (site / "downloads").iterdir() if p.suffix == ".tmp"]


def test_a_failed_write_leaves_no_zip(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = _small_site(tmp_path)

    def fail(*_args: object, **_kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(zipfile.ZipFile, "writestr", fail)
    with pytest.raises(OSError, match="disk full"):
        archive.write_site_zip(site, "9.9.9")
    assert sorted(p.name for p in (site / "downloads").iterdir()) == ["sample.jsonl"]


def test_the_zip_reads_back_after_a_copy(tmp_path: Path) -> None:
    """Unzipped, the folder is the site again, byte for byte."""
    site = _small_site(tmp_path)
    path = archive.write_site_zip(site, "9.9.9")
    out = tmp_path / "out"
    with zipfile.ZipFile(path) as opened:
        opened.extractall(out)
    copy = out / "methodology-site-9.9.9"
    expected = _site_files(site) - {"downloads/" + path.name, "downloads/" + path.name + ".sha256"}
    assert _site_files(copy) == expected
    for name in expected:
        assert (copy / name).read_bytes() == (site / name).read_bytes()
    shutil.rmtree(out)


@pytest.mark.slow
def test_the_unzipped_site_reads_offline(site: Path, tmp_path: Path, chromium: Any) -> None:
    """Unzipped anywhere and opened from the file system: the pages load without an error
    or a request off the machine, and search finds a word."""
    with zipfile.ZipFile(_zip_path(site)) as opened:
        opened.extractall(tmp_path)
    home = tmp_path / f"methodology-site-{METHODOLOGY_VERSION}" / "index.html"
    load(chromium, home.as_uri())
    box = chromium.find_element("css selector", "input.md-search__input")
    box.click()
    box.send_keys("consistency")
    assert wait_for(chromium, "return document.querySelectorAll('.md-search-result__item').length")
    assert console_errors(chromium) == []
    assert [
        u for u in requested_urls(chromium) if not u.startswith((*LOCAL_PREFIXES, "file:"))
    ] == []
