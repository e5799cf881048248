"""The canonical forms of the committed contracts: the text a snapshot or a JSON Schema is
committed as, and the hashes the lock records (of a file's bytes, and of its content with
the generated note left out). Pure functions of their input; :mod:`contracts.store` reads
and re-exports them.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel

from contracts.model import GENERATED_NOTE, Methodology, SnapshotFile


def canonical_json(data: Any) -> str:
    """The canonical text of JSON data: keys sorted, no spaces, non-ASCII kept.

    >>> canonical_json({"b": [1, 2.5], "a": "é"})
    '{"a":"é","b":[1,2.5]}'
    """
    return json.dumps(
        data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def file_hash(data: bytes) -> str:
    """SHA-256 (hex) of a file's bytes: what ``sha256sum`` prints and the lock records.

    >>> file_hash(b"")[:12]
    'e3b0c44298fc'
    """
    return hashlib.sha256(data).hexdigest()


def content_hash(data: Any) -> str:
    """SHA-256 (hex) of the canonical text of a snapshot's content (without the note)."""
    return hashlib.sha256(canonical_json(data).encode("utf-8")).hexdigest()


def snapshot_content(methodology: Methodology) -> dict[str, Any]:
    """The JSON content of a snapshot, as hashed and compared (no generated note).

    A snapshot without a scoreboard (released before 1.0.1) has no ``scoreboard`` key, so
    that its text and its hash stay what they were when it was released.
    """
    exclude = {"scoreboard"} if methodology.scoreboard is None else None
    return methodology.model_dump(mode="json", exclude=exclude)


def snapshot_hash(methodology: Methodology) -> str:
    """The content hash of ``methodology``'s snapshot: what the lock records for it."""
    return content_hash(snapshot_content(methodology))


def pretty_json(data: Any) -> str:
    """The committed file form: indent 2, keys sorted, non-ASCII kept, trailing newline."""
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False, allow_nan=False) + "\n"


def snapshot_text(methodology: Methodology) -> str:
    """The exact text of the committed snapshot file of ``methodology``."""
    return pretty_json({"_generated": GENERATED_NOTE, **snapshot_content(methodology)})


def json_schema_text(model: type[BaseModel]) -> str:
    """The exact text of a committed JSON Schema: the model's schema (by alias), its
    generated note and dialect first, in the committed file form. One writer for the
    snapshot's schema and the CLI output's (:mod:`contracts.output`)."""
    schema = {
        "$comment": f"Generated {GENERATED_NOTE}.",
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **model.model_json_schema(by_alias=True),
    }
    return pretty_json(schema)


def schema_text() -> str:
    """The exact text of the committed JSON Schema of a snapshot file."""
    return json_schema_text(SnapshotFile)


def content_hash_of_text(text: str) -> str | None:
    """The content hash of a snapshot file's text (note stripped); ``None`` if unreadable."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    data.pop("_generated", None)
    return content_hash(data)
