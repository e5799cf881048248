"""Fixtures of the contracts tests (plain builders are in ``contract_builders.py``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from contracts import store
from contracts.build import build_snapshot
from contracts.model import Methodology


@pytest.fixture(scope="module")
def live() -> Methodology:
    """The snapshot built from the code as it is."""
    return build_snapshot()


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of the committed snapshots folder and changelog."""
    snapshots = tmp_path / "snapshots"
    shutil.copytree(store.SNAPSHOT_DIR, snapshots)
    changelog = tmp_path / "CHANGELOG.md"
    shutil.copy2(store.CHANGELOG_PATH, changelog)
    return snapshots, changelog
