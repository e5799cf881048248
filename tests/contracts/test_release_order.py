"""The release history's order (``contracts.release_order``): versions newest first, no
date running backwards, and nothing before the first release."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from contracts.check.drift import run_check
from contracts.release_order import FIRST_RELEASE
from contracts.store import LOCK_FILENAME, content_hash, parse_changelog

_ORDER_WORDS = ("newest first", "run backwards", "first release")


def _order_lines(snapshots: Path, changelog: Path) -> list[str]:
    # The live code may differ from the newest snapshot in this branch: the order
    # problems are told by their words, whatever else the check reports.
    result = run_check(snapshot_dir=snapshots, changelog_path=changelog)
    return [p for p in result.problems if any(w in p for w in _ORDER_WORDS)]


def _sections(text: str) -> tuple[str, list[str]]:
    parts = re.split(r"(?m)^(?=## )", text)
    return parts[0], parts[1:]


def test_the_committed_history_is_in_order(files: tuple[Path, Path]) -> None:
    assert _order_lines(*files) == []
    entries = list(parse_changelog(files[1].read_text(encoding="utf-8")).values())
    assert entries[-1].version == FIRST_RELEASE


def test_a_harmless_edit_keeps_it_in_order(files: tuple[Path, Path]) -> None:
    snapshots, changelog = files
    changelog.write_text(changelog.read_text(encoding="utf-8") + "\nOne more line.\n")
    assert _order_lines(snapshots, changelog) == []


def test_versions_out_of_order_are_refused(files: tuple[Path, Path]) -> None:
    snapshots, changelog = files
    preamble, sections = _sections(changelog.read_text(encoding="utf-8"))
    changelog.write_text(preamble + "".join(reversed(sections)), encoding="utf-8")
    lines = [p for p in _order_lines(snapshots, changelog) if "newest first" in p]
    assert lines
    assert "is below 1.0.0" in lines[0]


def test_dates_running_backwards_are_refused(files: tuple[Path, Path]) -> None:
    snapshots, changelog = files
    text = changelog.read_text(encoding="utf-8")
    newest = re.search(r"(?m)^## (\S+) \((\S+)\)", text)
    assert newest is not None
    changelog.write_text(text.replace(newest[0], f"## {newest[1]} (2026-01-01)", 1))
    (line,) = _order_lines(snapshots, changelog)
    assert "dates must not run backwards" in line


def test_a_forged_older_release_is_refused(files: tuple[Path, Path]) -> None:
    snapshots, changelog = files
    first = json.loads((snapshots / f"{FIRST_RELEASE}.json").read_text(encoding="utf-8"))
    first["methodology_version"] = "0.9.0"
    forged = (json.dumps(first, indent=2, ensure_ascii=False) + "\n").encode()
    (snapshots / "0.9.0.json").write_bytes(forged)
    lock_path = snapshots / LOCK_FILENAME
    lock = json.loads(lock_path.read_text(encoding="utf-8"))
    first.pop("_generated", None)
    entry = {"sha256": hashlib.sha256(forged).hexdigest(), "content_sha256": content_hash(first)}
    lock["released"] = {"0.9.0": entry} | lock["released"]
    lock_path.write_text(json.dumps(lock, indent=2) + "\n", encoding="utf-8")
    changelog.write_text(
        changelog.read_text(encoding="utf-8") + "\n## 0.9.0 (2026-11-01)\n\nA forged release.\n"
    )
    lines = _order_lines(snapshots, changelog)
    assert any(
        LOCK_FILENAME in line and "0.9.0 is older than the first release" in line for line in lines
    )
    assert any(
        "CHANGELOG" in line and "0.9.0 is older than the first release" in line for line in lines
    )
    assert not run_check(snapshot_dir=snapshots, changelog_path=changelog).ok


def test_a_history_that_does_not_start_at_the_first_release_is_refused(
    files: tuple[Path, Path],
) -> None:
    snapshots, changelog = files
    preamble, sections = _sections(changelog.read_text(encoding="utf-8"))
    changelog.write_text(preamble + "".join(sections[:-1]), encoding="utf-8")
    lines = _order_lines(snapshots, changelog)
    assert any("the history starts with the first release" in line for line in lines)
