"""The drift check as a registry of named checks (``contracts.check.drift.CHECKS``): run in order,
each returning its findings; a new check is one function and one line; each finding says
which check made it and, where one place is to blame, its file and lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from contracts.check.drift import (
    CHECKS,
    Check,
    CheckContext,
    CheckResult,
    Finding,
    finding,
    run_check,
)
from contracts.model import Methodology
from contracts.source import REPO_ROOT
from contracts.store import LOCK_FILENAME, read_lock, read_snapshot, snapshot_path, version_key


@pytest.fixture
def live(files: tuple[Path, Path]) -> Methodology:
    """The newest released snapshot, standing for live code that matches it (so that these
    tests do not depend on whether the working tree has drifted)."""
    snapshots, _ = files
    newest = max(read_lock(snapshots / LOCK_FILENAME), key=version_key)
    return read_snapshot(snapshot_path(newest, snapshots)).methodology


def test_the_checks_have_unique_names_and_say_what_they_guard() -> None:
    names = [check.name for check in CHECKS]
    assert len(names) == len(set(names))
    # The others rely on what these read; the invariants come before the build, which a
    # broken constant may stop.
    assert names[:4] == ["changelog", "lock", "invariants", "live"]
    for check in CHECKS:
        assert check.guards.strip()
        assert check.run.__doc__, f"{check.name}: its function has no docstring"


def test_a_new_check_is_one_function_and_one_line(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files

    def check_always(context: CheckContext) -> list[Finding]:
        """A check that finds one problem in every snapshot folder."""
        return [finding(1, f"{context.directory.name}: always wrong", file="scoring/x.py")]

    checks = [*CHECKS, Check("always", "a test", check_always)]
    result = run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog, checks=checks)
    assert not result.ok
    assert result.exit_code == 1
    assert result.problems == ["snapshots: always wrong"]
    assert result.summary == "contracts check: FAILED (1 problem, exit 1)"
    [mine] = result.findings
    assert (mine.check, mine.file) == ("always", "scoring/x.py")
    # Without the line, the same folder passes.
    assert run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog).ok


def test_a_failing_live_build_stops_the_checks_after_it(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    ran: list[str] = []

    def spy(context: CheckContext) -> list[Finding]:
        """Records that it ran."""
        ran.append("spy")
        return []

    def broken(context: CheckContext) -> list[Finding]:
        """Stops the run, as check_live does when scoring cannot be built."""
        context.stop = True
        return [finding(2, "cannot build")]

    checks = [Check("broken", "a test", broken), Check("spy", "a test", spy)]
    result = run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog, checks=checks)
    assert (result.exit_code, result.problems, ran) == (2, ["cannot build"], [])


def test_drift_findings_carry_their_differences_with_file_and_line(
    cost_drift: CheckResult,
) -> None:
    result = cost_drift
    current = [f for f in result.findings if f.check == "current"]
    assert current
    [difference] = [d for f in current for d in f.differences if d.path.startswith("constants[")]
    assert difference.file == "scoring/constants.py"
    assert difference.line is not None
    source = REPO_ROOT / difference.file
    lines = source.read_text(encoding="utf-8").splitlines()
    assert lines[difference.line - 1].startswith("COMPOSITE_WEIGHT_COST")
    assert difference.end_line is not None
    assert difference.end_line > difference.line  # an annotated assignment spans lines
    assert lines[difference.end_line - 1].startswith("] = ")
    assert result.differences == [d for f in result.findings for d in f.differences]


def test_a_missing_changelog_entry_blames_the_changelog(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    text = changelog.read_text(encoding="utf-8")
    changelog.write_text(text.replace(f"## {live.methodology_version} (", "## 0.0.9 (", 1))
    result = run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog)
    mine = [f for f in result.findings if f.check == "released"]
    assert mine
    assert mine[0].file is not None
    assert mine[0].file.endswith("CHANGELOG.md")
