"""The files the site publishes beside its pages can be verified by a reader.

The released snapshots and the lock are published byte for byte as committed; a reader's
``python -m contracts verify`` accepts them and refuses an edited copy; the JSON Schemas
of the snapshot and of the CLI output are published and validate what they describe.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from support import built_site, parse

from contracts.output import OUTPUT_MODELS
from contracts.store import LOCK_FILENAME, LOCK_PATH, SNAPSHOT_DIR, read_lock, snapshot_path
from contracts.verify import verify_file


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return built_site(tmp_path_factory)


def test_released_snapshots_and_the_lock_are_published_byte_for_byte(site: Path) -> None:
    for version in read_lock():
        published = site / "versions" / f"{version}.json"
        assert published.read_bytes() == snapshot_path(version).read_bytes(), version
    assert (site / "versions" / LOCK_FILENAME).read_bytes() == LOCK_PATH.read_bytes()


def test_published_snapshots_verify_against_the_published_lock(site: Path) -> None:
    lock = site / "versions" / LOCK_FILENAME
    for version, digest in read_lock(lock).items():
        verdict = verify_file(site / "versions" / f"{version}.json", lock)
        assert (verdict.exit_code, verdict.line) == (0, f"OK {version} sha256 {digest}")
    live = json.loads((site / "methodology.json").read_text(encoding="utf-8"))
    if live["methodology_version"] in read_lock(lock):
        assert verify_file(site / "methodology.json", lock).exit_code == 0


def test_an_edited_published_snapshot_fails_verification(site: Path, tmp_path: Path) -> None:
    version = next(iter(read_lock()))
    text = (site / "versions" / f"{version}.json").read_text(encoding="utf-8")
    data = json.loads(text)
    weight = next(c for c in data["constants"] if c["name"] == "composite.weight.cost")
    weight["value"] = 0.35
    edited = tmp_path / f"{version}.json"
    edited.write_text(json.dumps(data, indent=2, sort_keys=True), encoding="utf-8")
    verdict = verify_file(edited, site / "versions" / LOCK_FILENAME)
    assert verdict.exit_code == 1
    assert f"expected sha256 {read_lock()[version]}" in verdict.line
    assert "actual sha256 " in verdict.line


def test_output_schemas_are_published_and_listed(site: Path) -> None:
    reference = parse(site / "reference.html", site)
    links = {a.attrs.get("href", "") for a in reference.root.find_all("a")}
    for name in OUTPUT_MODELS:
        assert (site / name).read_bytes() == (SNAPSHOT_DIR / name).read_bytes()
        assert name in links, f"{name} is not in the downloads table"
    assert f"versions/{LOCK_FILENAME}" in links


def test_published_snapshot_validates_against_published_schema(site: Path) -> None:
    schema = json.loads((site / "methodology.schema.json").read_text(encoding="utf-8"))
    data = json.loads((site / "methodology.json").read_text(encoding="utf-8"))
    jsonschema.validate(data, schema)
    data["constants"] = "none"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(data, schema)
