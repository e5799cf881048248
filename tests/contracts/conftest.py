"""Fixtures of the contracts tests (plain builders are in ``contract_builders.py``)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from contract_builders import with_constant

from contracts import store
from contracts.build import build_snapshot
from contracts.check.drift import CheckResult, run_check
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


@pytest.fixture
def cost_drift(files: tuple[Path, Path], live: Methodology) -> CheckResult:
    """The check of a copy whose live cost weight (0.25) drifted from the released one."""
    snapshots, changelog = files
    drifted = with_constant(live, "composite.weight.cost", 0.25)
    return run_check(live=drifted, snapshot_dir=snapshots, changelog_path=changelog)
