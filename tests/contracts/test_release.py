"""``python -m contracts release``: a writer's change of the methodology in one command.

A scratch copy of the project has its anchors edited (by name) and is released: the version
is bumped in place, the changelog entry, the snapshot, the lock and the README's blocks are
written, and ``contracts check`` then passes. In-process, on copies of the committed files:
the refusals (nothing changed, a broken invariant, a formula that disagrees with its LaTeX,
a note that would break the changelog, a version already bumped) write nothing, and a
release interrupted half-way puts back every file it wrote.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from datetime import date
from decimal import Decimal
from pathlib import Path

import pytest
from contract_builders import VERSION, curve_source, python_in, set_constant, with_constant
from serving import copy_project

import contracts.release
import scoring.constants as C  # noqa: N812 - the module of constants
from contracts import coverage_record, store
from contracts.cli import main
from contracts.model import Methodology
from contracts.release import run_release, with_assignment
from contracts.source import REPO_ROOT
from contracts.store import Part, bumped
from scoring.registry import FORMULAS

NEXT = bumped(VERSION, Part.MINOR)
#: A date on or after every entry of the changelog (the history's dates never run back).
DAY = max(date.fromisoformat(e.date) for e in store.read_changelog().values())


def _long_running(anchors: tuple[C.Anchor, ...], factor: int) -> str:
    """The curve's anchors moved ``factor`` times further out: the same shape (the same
    scores, in the same order), for agents that take minutes and cost dollars."""
    return curve_source([(anchor.x * factor, anchor.score) for anchor in anchors])


# --- A writer's change, in a copy of the project ---------------------------------------------


@pytest.fixture(scope="module")
def released(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A copy whose latency and cost anchors were edited, then released; its release output."""
    root = copy_project(
        tmp_path_factory.mktemp("release"),
        ("scoring", "contracts", "pyproject.toml", "README.md", "CONTRIBUTING.md"),
    )
    set_constant(root, "LATENCY_ANCHORS_MS", _long_running(C.LATENCY_ANCHORS_MS, 60))
    set_constant(root, "COST_ANCHORS_USD", _long_running(C.COST_ANCHORS_USD, 50))
    done = python_in(
        root, "-m", "contracts", "release", "--note", "Anchors for long-running agents."
    )
    assert done.returncode == 0, done.stderr
    return root, done.stdout


def test_an_anchor_edit_is_released_and_then_checks_ok(released: tuple[Path, str]) -> None:
    root, _ = released
    check = python_in(root, "-m", "contracts", "check")
    assert (check.returncode, check.stdout) == (0, "contracts check: OK\n"), check.stderr
    readme = python_in(root, "-m", "contracts", "readme", "--check")
    assert readme.returncode == 0, readme.stdout + readme.stderr


def test_the_release_writes_what_the_eight_steps_did(released: tuple[Path, str]) -> None:
    root, out = released
    constants = (root / "scoring" / "constants.py").read_text(encoding="utf-8")
    before = (REPO_ROOT / "scoring" / "constants.py").read_text(encoding="utf-8")
    # The version's one literal changed in place: one line differs for it.
    changed = [
        (old, new)
        for old, new in zip(before.splitlines(), constants.splitlines(), strict=True)
        if old != new
    ]
    assert (f'] = "{VERSION}"', f'] = "{NEXT}"') in changed
    changelog = store.read_changelog(root / "contracts" / "CHANGELOG.md")
    assert next(iter(changelog)) == NEXT
    assert changelog[NEXT].date == date.today().isoformat()
    assert changelog[NEXT].changes.startswith("Anchors for long-running agents.")
    assert f"Impact on the reference corpus against {VERSION}" in changelog[NEXT].changes
    snapshots = root / "contracts" / "snapshots"
    assert store.read_snapshot(snapshots / f"{NEXT}.json").methodology.methodology_version == NEXT
    assert NEXT in store.read_lock(snapshots / store.LOCK_FILENAME)
    contributing = (root / "CONTRIBUTING.md").read_text(encoding="utf-8")
    assert f"contracts/snapshots/{NEXT}.json" in contributing
    # What it prints for review: the versions, each changed constant, the files.
    assert out.startswith(f"contracts release: {VERSION} → {NEXT} (minor)\n")
    assert "  constant composite.latency_anchors_ms: " in out
    assert "  constant composite.cost_anchors_usd: " in out
    for written in ("scoring/constants.py", "contracts/CHANGELOG.md", f"{NEXT}.json"):
        assert f"wrote {written}" in out or f"/{written} (" in out
    assert out.rstrip().splitlines()[-1].startswith("contracts release: OK; review the change")


def test_the_version_literal_is_rewritten_in_place() -> None:
    source = 'A: Annotated[\n    str,\n    Meta("a", "b", "c"),\n] = "1.3.0"  # kept\nB = 1\n'
    assert with_assignment(source, "A", '"1.4.0"') == source.replace("1.3.0", "1.4.0")
    assert with_assignment(source, "B", "2").endswith("B = 2\n")
    with pytest.raises(store.ContractsError, match="no assignment of C"):
        with_assignment(source, "C", "3")


# --- In-process, on copies of the committed files --------------------------------------------


@pytest.fixture
def project(tmp_path: Path) -> dict[str, Path]:
    """Copies of every file a release writes."""
    snapshots = tmp_path / "snapshots"
    shutil.copytree(store.SNAPSHOT_DIR, snapshots)
    found = {"snapshots": snapshots}
    for name, source in (
        ("changelog", store.CHANGELOG_PATH),
        ("constants", REPO_ROOT / "scoring" / "constants.py"),
        ("readme", REPO_ROOT / "README.md"),
        ("contributing", REPO_ROOT / "CONTRIBUTING.md"),
        ("figures", coverage_record.FIGURES_PATH),
        ("measured", coverage_record.RECORD_PATH),
    ):
        found[name] = tmp_path / source.name
        shutil.copy2(source, found[name])
    # The figures measured on the current version's constants.
    found["measured"].write_text(
        coverage_record.record_text(VERSION, coverage_record.figures_sha256(found["figures"])),
        encoding="utf-8",
    )
    return found


def _release(project: dict[str, Path], part: Part = Part.MINOR, note: str = "Cost weighs less."):
    return run_release(
        note,
        part,
        today=DAY,
        snapshot_dir=project["snapshots"],
        changelog_path=project["changelog"],
        constants_path=project["constants"],
        documents=(project["readme"], project["contributing"]),
        coverage=(project["figures"], project["measured"]),
    )


def _files(project: dict[str, Path]) -> dict[str, bytes]:
    paths = [p for p in project.values() if p.is_file()]
    paths += sorted(project["snapshots"].iterdir())
    return {p.name: p.read_bytes() for p in paths}


@pytest.fixture
def drifted(monkeypatch: pytest.MonkeyPatch, live: Methodology) -> Methodology:
    """The live methodology with the cost weight moved, as the release builds it."""
    moved = with_constant(live, "composite.weight.cost", 0.25)
    monkeypatch.setattr(contracts.release, "build_live", lambda: moved)
    return moved


@pytest.mark.parametrize(("part", "version"), [(p, bumped(VERSION, p)) for p in Part])
def test_a_release_of_each_part(
    project: dict[str, Path], drifted: Methodology, part: Part, version: str
) -> None:
    result = _release(project, part)
    assert result.ok, result.lines
    assert (project["snapshots"] / f"{version}.json").is_file()
    assert f'] = "{version}"' in project["constants"].read_text(encoding="utf-8")
    lock = json.loads((project["snapshots"] / store.LOCK_FILENAME).read_text(encoding="utf-8"))
    assert list(lock["released"])[-1] == version
    assert "  constant composite.weight.cost: 0.3 → 0.25" in result.lines
    # The coverage figures read the cost weight: the release says they are the earlier
    # version's, and the record keeps the version they were measured on.
    said = next(line for line in result.lines if line.startswith("coverage figures"))
    assert (
        f"measured on the constants of {VERSION}; {version} changes composite.weight.cost" in said
    )
    measured = json.loads(project["measured"].read_text(encoding="utf-8"))
    assert measured["measured_on"] == VERSION


def test_nothing_changed_is_refused_and_nothing_written(project: dict[str, Path]) -> None:
    before = _files(project)
    result = _release(project)
    assert (result.ok, result.exit_code) == (False, 2)
    assert result.lines[0].startswith(
        f"contracts release: REFUSED: nothing to release: the live methodology equals the "
        f"snapshot of {VERSION}"
    )
    assert _files(project) == before


def test_a_broken_invariant_is_refused_and_nothing_written(
    project: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(C, "COMPOSITE_WEIGHT_SUCCESS", Decimal("0.50"))
    before = _files(project)
    result = _release(project)
    assert (result.ok, result.exit_code) == (False, 2)
    assert "COMPOSITE_WEIGHT_SUCCESS" in "\n".join(result.lines)
    assert _files(project) == before


def test_a_formula_that_disagrees_with_its_latex_is_refused(
    project: dict[str, Path], drifted: Methodology, monkeypatch: pytest.MonkeyPatch
) -> None:
    determinism = FORMULAS["radar.determinism"]
    wrong = dataclasses.replace(determinism, function=lambda q: 1 - determinism.function(q))
    monkeypatch.setitem(FORMULAS, "radar.determinism", wrong)
    before = _files(project)
    result = _release(project)
    assert (result.ok, result.exit_code) == (False, 2)
    assert "formula radar.determinism disagrees with its LaTeX" in "\n".join(result.lines)
    assert _files(project) == before


@pytest.mark.parametrize(
    ("note", "says"),
    [
        ("  ", "--note is empty"),
        ("Cost weighs less.\n\n## 9.9.9 (2026-01-01)\n\nMore.", "would not stay one entry"),
    ],
)
def test_a_note_that_is_no_entry_is_refused(
    project: dict[str, Path], drifted: Methodology, note: str, says: str
) -> None:
    before = _files(project)
    result = _release(project, note=note)
    assert (result.ok, result.exit_code) == (False, 2)
    assert says in result.lines[0]
    assert _files(project) == before


def test_a_version_bumped_by_hand_is_refused(
    project: dict[str, Path], drifted: Methodology, monkeypatch: pytest.MonkeyPatch
) -> None:
    by_hand = with_constant(drifted, "methodology.version", NEXT).model_copy(
        update={"methodology_version": NEXT}
    )
    monkeypatch.setattr(contracts.release, "build_live", lambda: by_hand)
    before = _files(project)
    result = _release(project)
    assert (result.ok, result.exit_code) == (False, 2)
    assert f"METHODOLOGY_VERSION is {NEXT}, not the newest released version" in result.lines[0]
    assert _files(project) == before


def test_an_interrupted_release_puts_every_file_back(
    project: dict[str, Path], drifted: Methodology, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _files(project)
    writes: list[Path] = []
    write = contracts.release.write_atomic

    def interrupted(path: Path, text: str) -> None:
        if len(writes) == 3:  # the constants, the changelog and the snapshot are written
            writes.append(path)
            raise KeyboardInterrupt("SIGTERM")
        writes.append(path)  # and, after the interrupt, the files put back
        write(path, text)

    monkeypatch.setattr(contracts.release, "write_atomic", interrupted)
    with pytest.raises(KeyboardInterrupt):
        _release(project)
    names = ["constants.py", "CHANGELOG.md", f"{NEXT}.json"]
    assert [p.name for p in writes[:3]] == names
    assert _files(project) == before


def test_the_command_line_reads_the_part_and_the_date(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple[str, Part, date | None]] = []

    def fake(note: str, part: Part, *, today: date | None = None):
        calls.append((note, part, today))
        return contracts.release.UpdateResult(True, 0, ["done"])

    monkeypatch.setattr(contracts.release, "run_release", fake)
    assert main(["release", "--note", "n"]) == 0
    assert main(["release", "--note", "n", "--patch", "--date", "2027-01-02"]) == 0
    assert main(["release", "--note", "n", "--major"]) == 0
    assert calls == [
        ("n", Part.MINOR, None),
        ("n", Part.PATCH, date(2027, 1, 2)),
        ("n", Part.MAJOR, None),
    ]
    with pytest.raises(SystemExit):
        main(["release", "--note", "n", "--major", "--patch"])
