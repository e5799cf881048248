"""The drift check: the live methodology against the committed contracts.

:func:`run_check` returns a :class:`CheckResult` (``ok``, the lines to print, the exit
status). The comparison of two snapshots, :func:`diff_snapshots`, lives in
:mod:`contracts.diff` and is importable from here too. Nothing here prints:
``python -m contracts check`` (:mod:`contracts.cli`) does.

Exit status: 0 when everything agrees; 1 when the code and the contracts disagree (drift,
an edited released snapshot, a missing snapshot or changelog entry, a stale schema); 2 when
a contracts file is missing or cannot be read or parsed (lock, changelog, a snapshot), or
the live methodology cannot be built at all.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from contracts.build import build_snapshot
from contracts.comparison import compare_snapshots
from contracts.diff import (
    SCOREBOARD_KEY,
    Difference,
    Kind,
    diff_snapshots,
    example_location,
    is_scoreboard,
    render_difference,
    render_value,
    where_defined,
)
from contracts.failure import describe_failure
from contracts.filesystem import temporary_files, text_at_head, update_running
from contracts.impact import summary_lines
from contracts.invariants import invariant_lines
from contracts.model import Methodology
from contracts.result import CheckResult
from contracts.source import display_path
from contracts.store import (
    CHANGELOG_PATH,
    EXIT_FAILED,
    EXIT_UNUSABLE,
    LOCK_FILENAME,
    SNAPSHOT_DIR,
    UPDATE_COMMAND,
    ChangelogEntry,
    ContractsError,
    LockEntry,
    SnapshotRead,
    file_hash,
    lock_entry,
    read_changelog,
    read_lock_entries,
    read_snapshot,
    schema_path,
    schema_state,
    snapshot_path,
    snapshot_versions,
    version_key,
)

# --- The check --------------------------------------------------------------------------------


@dataclass
class _Report:
    lines: list[str] = field(default_factory=list)
    exit_code: int = 0
    differences: list[Difference] = field(default_factory=list)
    count: int = 0

    def add(self, exit_code: int, *lines: str) -> None:
        self.lines += lines
        self.exit_code = max(self.exit_code, exit_code)
        self.count += 1


def build_live() -> Methodology:
    """:func:`build_snapshot`, any failure turned into a :class:`ContractsError` (exit 2)
    that names the error and the line of ``scoring`` where it was raised."""
    try:
        return build_snapshot()
    except ContractsError:
        raise  # already names the file and the rule (e.g. an unreadable corpus)
    except Exception as error:
        raise ContractsError(
            f"cannot build the live methodology from scoring {describe_failure(error)}"
        ) from None


def version_location(live: Methodology) -> str:
    """``file:line`` where ``METHODOLOGY_VERSION`` is defined now."""
    try:
        return (
            where_defined(live.constant("methodology.version").defined_in) or "scoring/constants.py"
        )
    except KeyError:
        return "scoring/constants.py"


def _bump_advice(live: Methodology) -> str:
    return (
        f"bump METHODOLOGY_VERSION ({version_location(live)}), add a "
        f"'## <new version> (<YYYY-MM-DD>)' entry to {display_path(CHANGELOG_PATH)}, "
        f"then run: {UPDATE_COMMAND}"
    )


def run_check(
    *,
    live: Methodology | None = None,
    snapshot_dir: Path | None = None,
    changelog_path: Path | None = None,
) -> CheckResult:
    """Check the live methodology against the committed snapshots, lock, schema, changelog.

    Arguments default to the live code and the committed files; tests pass others.
    """
    directory = SNAPSHOT_DIR if snapshot_dir is None else snapshot_dir
    report = _Report()

    changelog: dict[str, ChangelogEntry] | None
    try:
        changelog = read_changelog(CHANGELOG_PATH if changelog_path is None else changelog_path)
    except ContractsError as error:
        report.add(error.exit_code, str(error))
        changelog = None
    changelog_name = display_path(CHANGELOG_PATH if changelog_path is None else changelog_path)

    lock: dict[str, LockEntry] | None
    try:
        lock = read_lock_entries(directory / LOCK_FILENAME)
    except ContractsError as error:
        report.add(error.exit_code, str(error))
        lock = None

    _check_invariants(report)

    if live is None:
        try:
            live = build_live()
        except ContractsError as error:
            report.add(error.exit_code, str(error))
            return _finish(report)

    current = live.methodology_version
    version_ok = True
    try:
        version_key(current)
    except ValueError as error:
        version_ok = False
        report.add(
            EXIT_FAILED,
            f"constants[methodology.version].value: {error} (defined at {version_location(live)})",
        )

    released = lock or {}
    snapshots = _check_released(report, released, directory, live, changelog, changelog_name)

    if lock is not None:
        for version in snapshot_versions(directory):
            if version not in released and version != current:
                path = snapshot_path(version, directory)
                report.add(
                    EXIT_FAILED,
                    f"{display_path(path)}: version {version} is not recorded in "
                    f"{LOCK_FILENAME}; snapshots are written only by {UPDATE_COMMAND}",
                )

    if current in snapshots:
        _check_released_current(report, snapshots[current], live)
    elif lock is not None and version_ok and current not in released:
        _check_new_current(report, live, directory, released, snapshots)

    if changelog is not None and current not in released and current not in changelog:
        report.add(
            EXIT_FAILED,
            f"{changelog_name}: no entry for methodology version {current}; add a section "
            f"'## {current} (<YYYY-MM-DD>)' saying what changed and why, then run "
            f"{UPDATE_COMMAND}",
        )

    _check_schema(report, directory)
    _check_temporary_files(report, directory)
    return _finish(report)


def _check_invariants(report: _Report) -> None:
    """The methodology's own invariants (:mod:`scoring.invariants`) hold for the live code."""
    lines = invariant_lines()
    if lines:
        report.add(EXIT_FAILED, *lines)


def _check_released(
    report: _Report,
    released: dict[str, LockEntry],
    directory: Path,
    live: Methodology,
    changelog: dict[str, ChangelogEntry] | None,
    changelog_name: str,
) -> dict[str, SnapshotRead]:
    """Every released snapshot: present, readable, unedited, logged. Returns those read."""
    snapshots: dict[str, SnapshotRead] = {}
    for version, entry in released.items():
        path = snapshot_path(version, directory)
        if not path.exists():
            report.add(
                EXIT_FAILED,
                f"{display_path(path)}: the snapshot of released version {version} is "
                f"missing; restore it: git checkout -- {display_path(path)}",
            )
            continue
        try:
            read = read_snapshot(path)
        except ContractsError as error:
            report.add(error.exit_code, str(error))
            continue
        snapshots[version] = read
        if read.file_sha256 != entry.sha256:
            report.add(EXIT_FAILED, _hash_mismatch(read, version, entry, directory, live))
        elif read.sha256 != entry.content_sha256:
            lock_path = display_path(directory / LOCK_FILENAME)
            report.add(
                EXIT_FAILED,
                f"{lock_path}: the content hash of released version {version} was changed: "
                f"the snapshot's bytes match the lock, its content hash is "
                f"{read.sha256[:12]}…, the lock says {entry.content_sha256[:12]}…; restore "
                f"it: git checkout -- {lock_path}",
            )
        if read.methodology.methodology_version != version:
            report.add(
                EXIT_FAILED,
                f"{display_path(path)}: holds methodology_version "
                f"{read.methodology.methodology_version!r}, not {version!r}",
            )
        if changelog is not None and version not in changelog:
            report.add(
                EXIT_FAILED,
                f"{changelog_name}: no entry for released version {version}; add a section "
                f"'## {version} (<YYYY-MM-DD>)' saying what changed and why",
            )
    return snapshots


def _snapshot_intact(read: SnapshotRead, version: str, live: Methodology) -> str | None:
    """Why the snapshot file can be trusted, if it can: its bytes are the ones committed at
    git HEAD, or what the live code writes for the current version."""
    committed = text_at_head(read.path)
    if committed is not None:
        same = file_hash(committed.encode("utf-8")) == read.file_sha256
        return "as committed at git HEAD" if same else None
    if version == live.methodology_version and lock_entry(live).sha256 == read.file_sha256:
        return "what the live code writes"
    return None


def _hash_mismatch(
    read: SnapshotRead, version: str, entry: LockEntry, directory: Path, live: Methodology
) -> str:
    """A released snapshot whose bytes differ from the lock's hash: say which file is
    wrong when it can be told, the lock or the snapshot, and whether the snapshot was only
    re-formatted (the same content in other bytes)."""
    path, lock_path = display_path(read.path), display_path(directory / LOCK_FILENAME)
    hashes = f"{read.file_sha256[:12]}… (sha256 of the snapshot file) vs {entry.sha256[:12]}… "
    intact = _snapshot_intact(read, version, live)
    if intact is not None:
        return (
            f"{lock_path}: hash mismatch in the lock for released version {version}: "
            f"{hashes}(recorded in the lock); the snapshot {path} is {intact}, so the lock's "
            f"hash was changed: restore it: git checkout -- {lock_path}"
        )
    restore = f"git checkout -- {path}"
    if version == live.methodology_version:
        restore += f" (or, if the live code is unchanged, {UPDATE_COMMAND})"
    if read.sha256 == entry.content_sha256:
        return (
            f"{path}: released snapshot was re-formatted: same content, different bytes "
            f"({hashes}recorded in {LOCK_FILENAME}); a released snapshot is immutable byte "
            f"for byte, restore it: {restore}"
        )
    return (
        f"{path}: released snapshot was edited: its sha256 {read.file_sha256[:12]}… "
        f"differs from {entry.sha256[:12]}… recorded in {LOCK_FILENAME}, and so does its "
        f"content; released snapshots are immutable, restore it: {restore} (if the "
        f"snapshot is right and the lock was edited instead: git checkout -- {lock_path})"
    )


def _check_temporary_files(report: _Report, directory: Path) -> None:
    """Temporary files of an update that was killed (none while an update runs)."""
    stray = temporary_files(directory)
    if not stray or update_running(directory):
        return
    names = " ".join(display_path(p) for p in stray)
    report.add(
        EXIT_FAILED,
        f"{display_path(directory)}: {len(stray)} temporary file(s) left by an interrupted "
        f"update: {names}; remove them (rm {names}) or run {UPDATE_COMMAND}, which does",
    )


def _check_schema(report: _Report, directory: Path) -> None:
    """The committed JSON Schemas (the snapshot's, the CLI output's) equal the generated ones."""
    from contracts.output import stale_output_schemas

    for problem in stale_output_schemas(directory):
        report.add(EXIT_FAILED, f"{problem}; run {UPDATE_COMMAND}")
    schema = schema_path(directory)
    state = schema_state(schema)
    if state == "missing":
        report.add(
            EXIT_FAILED, f"{display_path(schema)}: the JSON Schema is missing; run {UPDATE_COMMAND}"
        )
    elif state == "stale":
        report.add(
            EXIT_FAILED,
            f"{display_path(schema)}: the JSON Schema is stale (the snapshot model "
            f"changed); run {UPDATE_COMMAND}",
        )


def _check_released_current(report: _Report, committed: SnapshotRead, live: Methodology) -> None:
    differences = diff_snapshots(committed.methodology, live)
    if not differences:
        return
    version = live.methodology_version
    fix = (
        f"{UPDATE_COMMAND}, after bumping METHODOLOGY_VERSION and adding a CHANGELOG entry "
        "(or revert the change)"
    )
    lines = [
        f"{display_path(committed.path)}: the live methodology differs from the committed "
        f"snapshot of version {version} ({_plural(len(differences), 'difference')}):"
    ]
    for difference in differences:
        if not is_scoreboard(difference):
            lines += render_difference(difference, fix)
    lines += _scoreboard_lines(differences, committed.methodology, live)
    report.differences += differences
    report.add(EXIT_FAILED, *lines)
    report.add(
        EXIT_FAILED,
        f"version {version} is released and its snapshot is immutable: to publish this "
        f"change, {_bump_advice(live)}",
    )


def _check_new_current(
    report: _Report,
    live: Methodology,
    directory: Path,
    released: dict[str, LockEntry],
    snapshots: dict[str, SnapshotRead],
) -> None:
    version = live.methodology_version
    path = snapshot_path(version, directory)
    state = "is not recorded in the lock" if path.exists() else "is missing"
    newest = max(released, key=version_key) if released else None
    if newest is not None and version_key(version) < version_key(newest):
        report.add(
            EXIT_FAILED,
            f"constants[methodology.version].value: {version} is older than the newest "
            f"released version {newest}; a new version must be newer "
            f"(defined at {version_location(live)})",
        )
    lines = [
        f"{display_path(path)}: the snapshot of methodology version {version} {state}; "
        f"run {UPDATE_COMMAND}"
    ]
    if newest is not None and newest in snapshots:
        differences = diff_snapshots(snapshots[newest].methodology, live)
        report.differences += differences
        lines.append(
            f"changes since released version {newest} ({_plural(len(differences), 'difference')}),"
            f" which {UPDATE_COMMAND} will record:"
        )
        for difference in differences:
            if not is_scoreboard(difference):
                lines += render_difference(difference, UPDATE_COMMAND)
        lines += _scoreboard_lines(differences, snapshots[newest].methodology, live)
    report.add(EXIT_FAILED, *lines)


def _scoreboard_lines(
    differences: list[Difference], committed: Methodology, live: Methodology
) -> list[str]:
    """The scoreboard's differences as one count and the impact summary (every value is
    listed by ``python -m contracts impact``)."""
    mine = [d for d in differences if is_scoreboard(d)]
    if not mine:
        return []
    impact = compare_snapshots(committed, live)
    if impact is None:
        boards = live.scoreboard or []
        agents = sum(len(board.agents) for board in boards)
        return [
            f"  {SCOREBOARD_KEY}: recorded for the first time ({_plural(agents, 'agent')} in "
            f"{_plural(len(boards), 'corpus file')}); {UPDATE_COMMAND} records it"
        ]
    count = _plural(len(mine), "value")
    return [f"  {SCOREBOARD_KEY}: {count} of the reference corpus differ;"] + [
        f"  {line}" for line in summary_lines(impact)
    ]


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _finish(report: _Report) -> CheckResult:
    if report.exit_code == 0:
        return CheckResult(True, 0, summary="contracts check: OK")
    summary = (
        f"contracts check: FAILED ({_plural(report.count, 'problem')}, exit {report.exit_code})"
    )
    return CheckResult(False, report.exit_code, report.lines, report.differences, summary)


__all__ = [
    "EXIT_FAILED",
    "EXIT_UNUSABLE",
    "CheckResult",
    "Difference",
    "Kind",
    "build_live",
    "diff_snapshots",
    "example_location",
    "render_value",
    "run_check",
    "version_location",
]
