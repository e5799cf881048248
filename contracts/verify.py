"""``python -m contracts verify FILE``: is a downloaded snapshot the one that was released?

The lock (``contracts/snapshots/released.json``, also published on the site as
``versions/released.json``) records, for each released snapshot, the SHA-256 of the file's
bytes (what ``sha256sum`` prints) and the SHA-256 of its canonical content (the JSON
without its ``_generated`` note, keys sorted, no spaces: :func:`contracts.store.content_hash`).
The committed file, the site's byte-for-byte copy of it and the live ``methodology.json`` of
a site built from that release are the same bytes.

Exit 0 and ``OK <version> sha256 <hash>`` only when the file's bytes are the released ones;
1 when they are not: ``SAME CONTENT, DIFFERENT BYTES`` for a re-formatted copy of the
released methodology, ``MISMATCH`` when the content differs too (both hashes named), or when
its version was never released; 2 when the file cannot be read or is not a methodology
snapshot.
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import ValidationError

from contracts.model import Methodology
from contracts.result import VerifyResult
from contracts.store import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_UNUSABLE,
    LOCK_PATH,
    ContractsError,
    content_hash,
    file_hash,
    read_lock_entries,
)


def _verdict(exit_code: int, line: str) -> VerifyResult:
    return VerifyResult(exit_code == EXIT_OK, exit_code, line)


def verify_file(path: Path, lock_path: Path | None = None) -> VerifyResult:
    """Check the snapshot at ``path`` against the lock (the committed one by default)."""
    lock = LOCK_PATH if lock_path is None else lock_path
    name = str(path)
    try:
        raw = path.read_bytes()
    except OSError as error:
        return _verdict(EXIT_UNUSABLE, f"{name}: cannot be read: {error.strerror or error}")
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as error:
        return _verdict(EXIT_UNUSABLE, f"{name}: not UTF-8 text (byte {error.start})")
    except json.JSONDecodeError as error:
        return _verdict(
            EXIT_UNUSABLE,
            f"{name}: not JSON (line {error.lineno}, column {error.colno}: {error.msg})",
        )
    if not isinstance(data, dict):
        return _verdict(EXIT_UNUSABLE, f"{name}: a snapshot is a JSON object")
    data.pop("_generated", None)
    try:
        version = Methodology.model_validate(data).methodology_version
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "(top level)"
        return _verdict(
            EXIT_UNUSABLE, f"{name}: not a methodology snapshot: {where}: {first['msg']}"
        )
    try:
        released = read_lock_entries(lock)
    except ContractsError as error:
        return _verdict(error.exit_code, str(error))
    actual = file_hash(raw)
    entry = released.get(version)
    if entry is None:
        known = ", ".join(released) or "none"
        return _verdict(
            EXIT_FAILED, f"{name}: version {version} was never released (released: {known})"
        )
    if actual == entry.sha256:
        return _verdict(EXIT_OK, f"OK {version} sha256 {actual}")
    if content_hash(data) == entry.content_sha256:
        return _verdict(
            EXIT_FAILED,
            f"{name}: SAME CONTENT, DIFFERENT BYTES {version}: expected sha256 "
            f"{entry.sha256} (the lock), actual sha256 {actual}; the file holds the released "
            "methodology re-formatted, not the released file byte for byte",
        )
    return _verdict(
        EXIT_FAILED,
        f"{name}: MISMATCH {version}: expected sha256 {entry.sha256} (the lock), "
        f"actual sha256 {actual}; the file is not the released snapshot",
    )
