"""The committed contracts: one snapshot per methodology version, the lock, the changelog.

Files (all under ``contracts/``):

- ``snapshots/<version>.json``: the methodology of one version, pretty-printed (indent 2),
  keys sorted, lists in their built order, trailing newline. Its first key is
  ``"_generated"``, a note that the file is written by ``python -m contracts update``; the
  note is not methodology content: it is stripped on load and left out of the content
  hash.
- ``snapshots/methodology.schema.json``: the JSON Schema of a snapshot file, generated from
  :class:`contracts.model.SnapshotFile`.
- ``snapshots/released.json``: the lock. ``{"_generated": ..., "released": {version:
  {"sha256": ..., "content_sha256": ...}}}``: every released version with the SHA-256 of
  its snapshot file's bytes (what ``sha256sum`` prints: a released file is immutable byte
  for byte) and the SHA-256 of its canonical content (:func:`content_hash`: what tells a
  re-formatted copy of the same methodology from a different one). Released versions are
  immutable. A lock in the format before 1.1.0 (one content hash per version) is refused,
  naming the format it needs.
- ``CHANGELOG.md``: one section ``## <version> (<YYYY-MM-DD>)`` per version, newest first,
  with free markdown below it: what changed and why.

Every reader raises :class:`ContractsError`, whose message names the file and the rule;
nothing here prints. How the files are written (atomically, one update at a time) is
:mod:`contracts.filesystem`.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from contracts.canonical import (
    canonical_json as canonical_json,
    content_hash as content_hash,
    content_hash_of_text as content_hash_of_text,
    file_hash as file_hash,
    json_schema_text as json_schema_text,
    pretty_json as pretty_json,
    schema_text as schema_text,
    snapshot_content as snapshot_content,
    snapshot_hash as snapshot_hash,
    snapshot_text as snapshot_text,
)
from contracts.model import GENERATED_NOTE, Methodology
from contracts.source import display_path

CONTRACTS_DIR: Path = Path(__file__).resolve().parent
SNAPSHOT_DIR: Path = CONTRACTS_DIR / "snapshots"
SCHEMA_PATH: Path = SNAPSHOT_DIR / "methodology.schema.json"
LOCK_PATH: Path = SNAPSHOT_DIR / "released.json"
CHANGELOG_PATH: Path = CONTRACTS_DIR / "CHANGELOG.md"

SCHEMA_FILENAME = SCHEMA_PATH.name
LOCK_FILENAME = LOCK_PATH.name
UPDATE_COMMAND = "python -m contracts update"
#: The command that releases a change: the new version, its changelog entry and snapshot.
RELEASE_COMMAND = "python -m contracts release"
CHECK_COMMAND = "python -m contracts check"

#: Exit statuses: a contracts file missing, unreadable or malformed; a disagreement between
#: the code and the committed contracts; nothing wrong.
EXIT_UNUSABLE, EXIT_FAILED, EXIT_OK = 2, 1, 0

# ASCII digits only (``\d`` would also read Arabic-Indic and other Unicode digits).
_VERSION = re.compile(r"(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)")
_HEADING = re.compile(r"##(?!#)(.*)$")
_ENTRY_HEADING = re.compile(r"## (?P<version>\S+) \((?P<date>[^)]*)\)\s*$")
_FENCE = re.compile(r"(```|~~~)")
_LOCK_FIX = f"restore it from git; before the first release, {UPDATE_COMMAND} creates it"


class ContractsError(Exception):
    """A contracts file is missing, unreadable or breaks a rule; the message names both.

    ``exit_code`` is :data:`EXIT_UNUSABLE` (2) when the file cannot be used at all and
    :data:`EXIT_FAILED` (1) when it is readable but disagrees with the rules.
    """

    def __init__(self, message: str, *, exit_code: int = EXIT_UNUSABLE) -> None:
        super().__init__(message)
        self.exit_code = exit_code


@dataclass(frozen=True, slots=True)
class ChangelogEntry:
    """One ``## <version> (<date>)`` section of the changelog."""

    version: str
    date: str
    changes: str
    line: int


@dataclass(frozen=True, slots=True)
class Release:
    """A released methodology version: its changelog entry and its committed snapshot."""

    version: str
    date: str
    changes: str
    snapshot: Methodology


@dataclass(frozen=True, slots=True)
class SnapshotRead:
    """A snapshot file as read: the methodology, its raw content, its content hash
    (``sha256``) and the hash of its bytes (``file_sha256``)."""

    path: Path
    methodology: Methodology
    content: dict[str, Any]
    sha256: str
    file_sha256: str


@dataclass(frozen=True, slots=True)
class LockEntry:
    """What the lock records of one released version: the SHA-256 of its snapshot file's
    bytes, and of its canonical content."""

    sha256: str
    content_sha256: str

    def as_json(self) -> dict[str, str]:
        """The entry as the lock file writes it."""
        return {"sha256": self.sha256, "content_sha256": self.content_sha256}


# --- Paths and versions ---------------------------------------------------------------------


def version_key(version: str) -> tuple[int, int, int]:
    """Sort key of a ``MAJOR.MINOR.PATCH`` version; ``ValueError`` for anything else.

    >>> sorted(["1.10.0", "1.2.0", "1.0.1"], key=version_key)
    ['1.0.1', '1.2.0', '1.10.0']
    """
    match = _VERSION.fullmatch(version)
    if match is None:
        raise ValueError(
            f"methodology version {version!r} is not MAJOR.MINOR.PATCH "
            "(three non-negative integers, e.g. 1.2.0)"
        )
    major, minor, patch = (int(part) for part in match.groups())
    return major, minor, patch


class Part(StrEnum):
    """Which part of ``MAJOR.MINOR.PATCH`` a release bumps."""

    MAJOR = "major"
    MINOR = "minor"
    PATCH = "patch"


def bumped(version: str, part: Part) -> str:
    """``version`` with ``part`` raised by one and the parts after it reset.

    >>> bumped("1.3.0", Part.MINOR), bumped("1.3.2", Part.MAJOR), bumped("1.3.0", Part.PATCH)
    ('1.4.0', '2.0.0', '1.3.1')
    """
    major, minor, patch = version_key(version)
    if part is Part.MAJOR:
        return f"{major + 1}.0.0"
    if part is Part.MINOR:
        return f"{major}.{minor + 1}.0"
    return f"{major}.{minor}.{patch + 1}"


def is_version(text: str) -> bool:
    """Whether ``text`` is a ``MAJOR.MINOR.PATCH`` version.

    >>> is_version("1.0.0"), is_version("1.0"), is_version("v1.0.0")
    (True, False, False)
    """
    return _VERSION.fullmatch(text) is not None


def snapshot_path(version: str, directory: Path | None = None) -> Path:
    """Where the snapshot of ``version`` is committed."""
    return (SNAPSHOT_DIR if directory is None else directory) / f"{version}.json"


def snapshot_versions(directory: Path | None = None) -> list[str]:
    """Versions that have a snapshot file in ``directory``, oldest first."""
    folder = SNAPSHOT_DIR if directory is None else directory
    if not folder.is_dir():
        return []
    found = [p.name.removesuffix(".json") for p in folder.glob("*.json")]
    return sorted((v for v in found if is_version(v)), key=version_key)


# --- The schema and the lock (their canonical text: contracts.canonical) ---------------------


def schema_path(directory: Path | None = None) -> Path:
    """Where the JSON Schema of a snapshot file is committed."""
    return (SNAPSHOT_DIR if directory is None else directory) / SCHEMA_FILENAME


def schema_state(path: Path) -> str | None:
    """``None`` when the schema file at ``path`` is the generated one; else why not:
    ``"missing"`` (absent or unreadable) or ``"stale"`` (the snapshot model changed)."""
    try:
        committed = path.read_text(encoding="utf-8")
    except OSError:
        return "missing"
    return None if committed == schema_text() else "stale"


def lock_entry(methodology: Methodology) -> LockEntry:
    """What the lock records for ``methodology`` written as its committed snapshot file."""
    return LockEntry(
        file_hash(snapshot_text(methodology).encode("utf-8")), snapshot_hash(methodology)
    )


def lock_text(released: dict[str, LockEntry]) -> str:
    """The exact text of the lock file for ``released`` (version → its entry)."""
    ordered = {
        version: entry.as_json()
        for version, entry in sorted(released.items(), key=lambda item: version_key(item[0]))
    }
    return json.dumps({"_generated": GENERATED_NOTE, "released": ordered}, indent=2) + "\n"


# --- Reading ----------------------------------------------------------------------------------


def _read_text(path: Path, what: str, fix: str) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ContractsError(f"{display_path(path)}: {what} is missing; {fix}") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ContractsError(f"{display_path(path)}: {what} cannot be read: {error}") from None


def _parse_json(path: Path, text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise ContractsError(
            f"{display_path(path)}: {what} is not valid JSON (line {error.lineno}, "
            f"column {error.colno}: {error.msg})"
        ) from None


def _first_validation_error(error: ValidationError) -> str:
    first = error.errors()[0]
    where = ".".join(str(part) for part in first["loc"]) or "(top level)"
    more = error.error_count() - 1
    suffix = f" (and {more} more)" if more else ""
    return f"{where}: {first['msg']}{suffix}"


def _read_bytes(path: Path, what: str, fix: str) -> bytes:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise ContractsError(f"{display_path(path)}: {what} is missing; {fix}") from None
    except OSError as error:
        raise ContractsError(f"{display_path(path)}: {what} cannot be read: {error}") from None


def read_snapshot(path: Path) -> SnapshotRead:
    """Read and validate one snapshot file; its ``_generated`` note is stripped."""
    restore = f"restore it: git checkout -- {display_path(path)} (or run {UPDATE_COMMAND})"
    raw = _read_bytes(path, "snapshot", restore)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise ContractsError(f"{display_path(path)}: snapshot cannot be read: {error}") from None
    data = _parse_json(path, text, "snapshot")
    if not isinstance(data, dict):
        raise ContractsError(f"{display_path(path)}: snapshot must be a JSON object")
    note = data.pop("_generated", None)
    if note is not None and not isinstance(note, str):
        raise ContractsError(f"{display_path(path)}: snapshot field _generated must be a string")
    try:
        methodology = Methodology.model_validate(data)
    except ValidationError as error:
        raise ContractsError(
            f"{display_path(path)}: snapshot does not match the schema "
            f"({SCHEMA_FILENAME}): {_first_validation_error(error)}"
        ) from None
    return SnapshotRead(path, methodology, data, content_hash(data), file_hash(raw))


def load_snapshot(version: str, directory: Path | None = None) -> Methodology:
    """The committed snapshot of ``version``."""
    return read_snapshot(snapshot_path(version, directory)).methodology


_SHA256 = re.compile(r"[0-9a-f]{64}")
_LOCK_FORMAT = '{"released": {"<version>": {"sha256": "<hex>", "content_sha256": "<hex>"}}}'


def read_lock_entries(path: Path | None = None) -> dict[str, LockEntry]:
    """The lock: released version → its :class:`LockEntry`, oldest first."""
    lock = LOCK_PATH if path is None else path
    text = _read_text(lock, "lock of released versions", _LOCK_FIX)
    data = _parse_json(lock, text, "lock")
    released = data.get("released") if isinstance(data, dict) else None
    if not isinstance(released, dict):
        raise ContractsError(f"{display_path(lock)}: lock must be {_LOCK_FORMAT}")
    entries: dict[str, LockEntry] = {}
    for version, entry in released.items():
        if not is_version(version):
            raise ContractsError(
                f"{display_path(lock)}: {version!r} is not a MAJOR.MINOR.PATCH version"
            )
        if isinstance(entry, str):
            raise ContractsError(
                f"{display_path(lock)}: released.{version} is one hash, the lock format "
                f"before 1.1.0 (a hash of the content, not of the file); the lock records "
                f"{_LOCK_FORMAT}: restore it from git"
            )
        if not isinstance(entry, dict) or set(entry) != {"sha256", "content_sha256"}:
            raise ContractsError(
                f"{display_path(lock)}: released.{version} must be "
                '{"sha256": "<hex>", "content_sha256": "<hex>"}'
            )
        for key, digest in entry.items():
            if not (isinstance(digest, str) and _SHA256.fullmatch(digest)):
                raise ContractsError(
                    f"{display_path(lock)}: released.{version}.{key} must be 64 lowercase "
                    "hex digits"
                )
        entries[version] = LockEntry(entry["sha256"], entry["content_sha256"])
    return dict(sorted(entries.items(), key=lambda item: version_key(item[0])))


def read_lock(path: Path | None = None) -> dict[str, str]:
    """The lock: released version → SHA-256 of its snapshot file's bytes, oldest first."""
    return {version: entry.sha256 for version, entry in read_lock_entries(path).items()}


def parse_changelog(text: str, path: Path | None = None) -> dict[str, ChangelogEntry]:
    """Every ``## <version> (<YYYY-MM-DD>)`` section of a changelog, by version.

    Text before the first ``##`` heading is a preamble; ``###`` and deeper headings belong
    to the entry above them; fenced code blocks are skipped when looking for headings.

    >>> entries = parse_changelog("# Log\\n\\n## 1.0.0 (2026-11-29)\\n\\nFirst.\\n")
    >>> entries["1.0.0"].date, entries["1.0.0"].changes
    ('2026-11-29', 'First.')
    """
    name = display_path(CHANGELOG_PATH if path is None else path)
    rule = "a section heading must read '## <MAJOR.MINOR.PATCH> (<YYYY-MM-DD>)'"
    entries: dict[str, ChangelogEntry] = {}
    current: tuple[str, str, int] | None = None
    body: list[str] = []
    fence: str | None = None

    def close() -> None:
        if current is None:
            return
        version, day, line = current
        changes = "\n".join(body).strip()
        if not changes:
            raise ContractsError(
                f"{name}:{line}: the entry for {version} is empty; say what changed and why"
            )
        entries[version] = ChangelogEntry(version, day, changes, line)

    for number, line in enumerate(text.splitlines(), start=1):
        marker = _FENCE.match(line.lstrip())
        if marker:
            fence = None if fence == marker.group(1) else (fence or marker.group(1))
        if fence is None and _HEADING.match(line):
            match = _ENTRY_HEADING.match(line)
            if match is None or not is_version(match["version"]):
                raise ContractsError(f"{name}:{number}: {line.strip()!r}: {rule}")
            try:
                date.fromisoformat(match["date"])
            except ValueError:
                raise ContractsError(
                    f"{name}:{number}: {match['date']!r} is not a date: {rule}"
                ) from None
            if len(match["date"]) != len("YYYY-MM-DD"):
                raise ContractsError(f"{name}:{number}: {match['date']!r}: {rule}")
            close()
            if match["version"] in entries:
                first = entries[match["version"]].line
                raise ContractsError(
                    f"{name}:{number}: a second entry for {match['version']} "
                    f"(the first is on line {first}); one entry per version"
                )
            current, body = (match["version"], match["date"], number), []
        elif current is not None:
            body.append(line)
    close()
    return entries


def read_changelog(path: Path | None = None) -> dict[str, ChangelogEntry]:
    """The changelog's entries by version (see :func:`parse_changelog`)."""
    changelog = CHANGELOG_PATH if path is None else path
    text = _read_text(changelog, "changelog", "restore it from git")
    return parse_changelog(text, changelog)


# --- The site's API ---------------------------------------------------------------------------


def current_version() -> str:
    """The methodology version the live code declares (``METHODOLOGY_VERSION``)."""
    from scoring.constants import METHODOLOGY_VERSION

    return METHODOLOGY_VERSION


def load_current() -> Methodology:
    """The committed snapshot of the current methodology version.

    Raises :class:`ContractsError` if it is missing (run ``python -m contracts update``)
    or unreadable.
    """
    version = current_version()
    path = snapshot_path(version)
    if not path.exists():
        raise ContractsError(
            f"{display_path(path)}: no committed snapshot for the current methodology "
            f"version {version}; run {UPDATE_COMMAND}",
            exit_code=EXIT_FAILED,
        )
    return read_snapshot(path).methodology


def load_history() -> list[Release]:
    """Every released version, oldest first: its changelog entry and committed snapshot.

    The released versions are those in the lock. Raises :class:`ContractsError` if a
    released version has no snapshot file or no changelog entry, or a file is unreadable.
    """
    entries = read_changelog()
    history: list[Release] = []
    for version in read_lock():
        entry = entries.get(version)
        if entry is None:
            raise ContractsError(
                f"{display_path(CHANGELOG_PATH)}: no entry for released version {version}",
                exit_code=EXIT_FAILED,
            )
        snapshot = read_snapshot(snapshot_path(version)).methodology
        history.append(Release(version, entry.date, entry.changes, snapshot))
    return history
