"""The drift check: the live methodology against the committed contracts.

The check is a list of named checks, :data:`CHECKS`, run in order by :func:`run_check`.
Each is a small function that takes the shared :class:`CheckContext` and returns its
:class:`Finding` list (lines to print, the exit status, and the file and line range to
blame, for annotations); a new check is one function and one line in :data:`CHECKS`, and
the table on the contract page is generated from it. :func:`run_check` returns a
:class:`CheckResult` (``ok``, the lines to print, the exit status, the findings). The
comparison of two snapshots, :func:`diff_snapshots`, lives in :mod:`contracts.diff` and is
importable from here too. Nothing here prints:
``python -m contracts check`` (:mod:`contracts.cli`) does.

Exit status: 0 when everything agrees; 1 when the code and the contracts disagree (drift,
an edited released snapshot, a missing snapshot or changelog entry, a stale schema); 2 when
a contracts file is missing or cannot be read or parsed (lock, changelog, a snapshot), or
the live methodology cannot be built at all.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from contracts.build import build_snapshot
from contracts.comparison import Impact, compare_snapshots
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
from contracts.findings import Finding, finding
from contracts.impact import summary_lines
from contracts.invariants import invariant_lines
from contracts.model import Methodology
from contracts.release_order import order_problems
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
    snapshot_text,
    snapshot_versions,
    version_key,
)

# --- Findings and the registry of checks -----------------------------------------------------


@dataclass
class CheckContext:
    """What the checks share, filled in as they run: the files they read and the live
    methodology. A check that finds the rest cannot run sets ``stop``."""

    directory: Path
    changelog_path: Path
    live: Methodology | None = None
    changelog: dict[str, ChangelogEntry] | None = None
    lock: dict[str, LockEntry] | None = None
    snapshots: dict[str, SnapshotRead] = field(default_factory=dict)
    version_ok: bool = True
    stop: bool = False

    @property
    def changelog_name(self) -> str:
        return display_path(self.changelog_path)

    @property
    def released(self) -> dict[str, LockEntry]:
        return self.lock or {}

    @property
    def methodology(self) -> Methodology:
        """The live methodology (every check after ``live`` may rely on it)."""
        if self.live is None:
            raise RuntimeError("the live methodology is not built yet")
        return self.live


@dataclass(frozen=True, slots=True)
class Check:
    """A named check of the drift check: what it guards, and the function that returns
    its findings for a :class:`CheckContext`."""

    name: str
    guards: str
    run: Callable[[CheckContext], list[Finding]]


def check_changelog(context: CheckContext) -> list[Finding]:
    """The changelog can be read and parsed."""
    try:
        context.changelog = read_changelog(context.changelog_path)
    except ContractsError as error:
        return [finding(error.exit_code, str(error), file=display_path(context.changelog_path))]
    return []


def check_lock(context: CheckContext) -> list[Finding]:
    """The lock of released versions can be read and parsed."""
    path = context.directory / LOCK_FILENAME
    try:
        context.lock = read_lock_entries(path)
    except ContractsError as error:
        return [finding(error.exit_code, str(error), file=display_path(path))]
    return []


def check_invariants(context: CheckContext) -> list[Finding]:
    """The live constants keep the methodology's invariants (:mod:`scoring.invariants`)."""
    lines = invariant_lines()
    return [finding(EXIT_FAILED, *lines, file="scoring/constants.py")] if lines else []


def check_release_order(context: CheckContext) -> list[Finding]:
    """The changelog's versions and dates run newest first, and the first release is the
    first entry of both the changelog and the lock (:mod:`contracts.release_order`)."""
    return [
        finding(EXIT_FAILED, problem, file=context.changelog_name)
        for problem in order_problems(
            context.changelog, context.lock, context.changelog_name, LOCK_FILENAME
        )
    ]


def check_live(context: CheckContext) -> list[Finding]:
    """The live methodology builds from ``scoring``; nothing else is checked if it does not."""
    if context.live is not None:
        return []
    try:
        context.live = build_live()
    except ContractsError as error:
        context.stop = True
        return [finding(error.exit_code, str(error))]
    return []


def check_version(context: CheckContext) -> list[Finding]:
    """``METHODOLOGY_VERSION`` is ``MAJOR.MINOR.PATCH``."""
    live = context.methodology
    try:
        version_key(live.methodology_version)
    except ValueError as error:
        context.version_ok = False
        where = version_location(live)
        return [
            finding(
                EXIT_FAILED,
                f"constants[methodology.version].value: {error} (defined at {where})",
                **_file_line(where),
            )
        ]
    return []


def check_released(context: CheckContext) -> list[Finding]:
    """Every released snapshot is present, readable, unedited and in the changelog."""
    found, context.snapshots = _check_released(
        context.released,
        context.directory,
        context.methodology,
        context.changelog,
        context.changelog_name,
    )
    return found


def check_unrecorded(context: CheckContext) -> list[Finding]:
    """No snapshot file of a version the lock does not record (other than the current one)."""
    if context.lock is None:
        return []
    found = []
    for version in snapshot_versions(context.directory):
        if version not in context.released and version != context.methodology.methodology_version:
            path = display_path(snapshot_path(version, context.directory))
            found.append(
                finding(
                    EXIT_FAILED,
                    f"{path}: version {version} is not recorded in "
                    f"{LOCK_FILENAME}; snapshots are written only by {UPDATE_COMMAND}",
                    file=path,
                )
            )
    return found


def check_current(context: CheckContext) -> list[Finding]:
    """The live methodology equals the snapshot of its version, or that version is new,
    newer than every released one, and its snapshot is still to be written."""
    live = context.methodology
    current = live.methodology_version
    if current in context.snapshots:
        return _check_released_current(context.snapshots[current], live)
    if context.lock is not None and context.version_ok and current not in context.released:
        return _check_new_current(live, context.directory, context.released, context.snapshots)
    return []


def check_changelog_entry(context: CheckContext) -> list[Finding]:
    """The current version has an entry in the changelog."""
    current = context.methodology.methodology_version
    if context.changelog is None or current in context.released or current in context.changelog:
        return []
    return [
        finding(
            EXIT_FAILED,
            f"{context.changelog_name}: no entry for methodology version {current}; add a "
            f"section '## {current} (<YYYY-MM-DD>)' saying what changed and why, then run "
            f"{UPDATE_COMMAND}",
            file=context.changelog_name,
        )
    ]


def check_formulas(context: CheckContext) -> list[Finding]:
    """Every formula has golden points, and each executable formula's LaTeX, evaluated at
    every golden point, equals its code (:mod:`contracts.formulas`)."""
    from contracts.formulas import formula_problems

    return [
        finding(
            EXIT_FAILED,
            problem.message,
            file=problem.file,
            line=problem.line,
            end_line=problem.end_line,
        )
        for problem in formula_problems()
    ]


def check_schema(context: CheckContext) -> list[Finding]:
    """The committed JSON Schemas (the snapshot's, the CLI output's) equal the generated ones."""
    return _check_schema(context.directory)


def check_temporary_files(context: CheckContext) -> list[Finding]:
    """No temporary file left by an update that was killed (none while an update runs)."""
    return _check_temporary_files(context.directory)


#: The drift check, in the order it runs: a new check is a function above and a line here.
CHECKS: list[Check] = [
    Check("changelog", "contracts/CHANGELOG.md can be read", check_changelog),
    Check("lock", "the lock of released versions can be read", check_lock),
    Check("invariants", "the constants keep the methodology's invariants", check_invariants),
    Check("live", "the live methodology builds from scoring", check_live),
    Check(
        "release-order",
        "changelog versions and dates in order; the first release first",
        check_release_order,
    ),
    Check("version", "METHODOLOGY_VERSION is MAJOR.MINOR.PATCH", check_version),
    Check("released", "released snapshots are present, unedited, in the changelog", check_released),
    Check("unrecorded", "no snapshot of a version the lock does not record", check_unrecorded),
    Check("current", "the live code equals the snapshot of its version", check_current),
    Check("changelog-entry", "the current version has a changelog entry", check_changelog_entry),
    Check("formulas", "each formula has golden points; its LaTeX equals its code", check_formulas),
    Check("schema", "the committed JSON Schemas are the generated ones", check_schema),
    Check("temporary-files", "no temporary file of an interrupted update", check_temporary_files),
]


def _file_line(location: str | None) -> dict[str, Any]:
    """``file=`` and ``line=`` of a ``file:line`` location (empty when unknown)."""
    if not location or ":" not in location:
        return {"file": location} if location else {}
    file, _, line = location.rpartition(":")
    return {"file": file, "line": int(line), "end_line": int(line)} if line.isdigit() else {}


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
    checks: list[Check] | None = None,
) -> CheckResult:
    """Run every check of :data:`CHECKS` in order (or ``checks``) against the live
    methodology and the committed snapshots, lock, schema and changelog.

    Arguments default to the live code and the committed files; tests pass others.
    """
    context = CheckContext(
        directory=SNAPSHOT_DIR if snapshot_dir is None else snapshot_dir,
        changelog_path=CHANGELOG_PATH if changelog_path is None else changelog_path,
        live=live,
    )
    findings: list[Finding] = []
    for check in CHECKS if checks is None else checks:
        findings += [replace(f, check=check.name) for f in check.run(context)]
        if context.stop:
            break
    return _finish(findings)


def _check_released(
    released: dict[str, LockEntry],
    directory: Path,
    live: Methodology,
    changelog: dict[str, ChangelogEntry] | None,
    changelog_name: str,
) -> tuple[list[Finding], dict[str, SnapshotRead]]:
    """Every released snapshot: present, readable, unedited, logged. Returns the findings
    and the snapshots read."""
    found: list[Finding] = []
    snapshots: dict[str, SnapshotRead] = {}
    for version, entry in released.items():
        path = snapshot_path(version, directory)
        shown = display_path(path)
        if not path.exists():
            found.append(
                finding(
                    EXIT_FAILED,
                    f"{shown}: the snapshot of released version {version} is "
                    f"missing; restore it: git checkout -- {shown}",
                    file=shown,
                )
            )
            continue
        try:
            read = read_snapshot(path)
        except ContractsError as error:
            found.append(finding(error.exit_code, str(error), file=shown))
            continue
        snapshots[version] = read
        if read.file_sha256 != entry.sha256:
            found.append(
                finding(EXIT_FAILED, _hash_mismatch(read, version, entry, directory, live))
            )
        elif read.sha256 != entry.content_sha256:
            lock_path = display_path(directory / LOCK_FILENAME)
            found.append(
                finding(
                    EXIT_FAILED,
                    f"{lock_path}: the content hash of released version {version} was "
                    f"changed: the snapshot's bytes match the lock, its content hash is "
                    f"{read.sha256[:12]}…, the lock says {entry.content_sha256[:12]}…; "
                    f"restore it: git checkout -- {lock_path}",
                    file=lock_path,
                )
            )
        if read.methodology.methodology_version != version:
            found.append(
                finding(
                    EXIT_FAILED,
                    f"{shown}: holds methodology_version "
                    f"{read.methodology.methodology_version!r}, not {version!r}",
                    file=shown,
                )
            )
        if changelog is not None and version not in changelog:
            found.append(
                finding(
                    EXIT_FAILED,
                    f"{changelog_name}: no entry for released version {version}; add a "
                    f"section '## {version} (<YYYY-MM-DD>)' saying what changed and why",
                    file=changelog_name,
                )
            )
    return found, snapshots


def _snapshot_intact(
    read: SnapshotRead, version: str, live: Methodology, entry: LockEntry
) -> str | None:
    """Why the snapshot file can be trusted, if it can: it holds the released content (the
    lock's content hash) written exactly as the update writes it, its bytes are the ones
    committed at git HEAD, or what the live code writes for the current version."""
    if read.sha256 == entry.content_sha256 and read.file_sha256 == file_hash(
        snapshot_text(read.methodology).encode("utf-8")
    ):
        return "the released content in the form the update writes"
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
    intact = _snapshot_intact(read, version, live, entry)
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


def _check_temporary_files(directory: Path) -> list[Finding]:
    """Temporary files of an update that was killed (none while an update runs)."""
    stray = temporary_files(directory)
    if not stray or update_running(directory):
        return []
    names = " ".join(display_path(p) for p in stray)
    return [
        finding(
            EXIT_FAILED,
            f"{display_path(directory)}: {len(stray)} temporary file(s) left by an interrupted "
            f"update: {names}; remove them (rm {names}) or run {UPDATE_COMMAND}, which does",
        )
    ]


def _check_schema(directory: Path) -> list[Finding]:
    """The committed JSON Schemas (the snapshot's, the CLI output's) equal the generated ones."""
    from contracts.output import stale_output_schemas

    found = [
        finding(EXIT_FAILED, f"{p}; run {UPDATE_COMMAND}") for p in stale_output_schemas(directory)
    ]
    schema = schema_path(directory)
    shown = display_path(schema)
    state = schema_state(schema)
    if state == "missing":
        found.append(
            finding(
                EXIT_FAILED,
                f"{shown}: the JSON Schema is missing; run {UPDATE_COMMAND}",
                file=shown,
            )
        )
    elif state == "stale":
        found.append(
            finding(
                EXIT_FAILED,
                f"{shown}: the JSON Schema is stale (the snapshot model "
                f"changed); run {UPDATE_COMMAND}",
                file=shown,
            )
        )
    return found


def _check_released_current(committed: SnapshotRead, live: Methodology) -> list[Finding]:
    differences = diff_snapshots(committed.methodology, live)
    if not differences:
        return []
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
    impact = compare_snapshots(committed.methodology, live)
    return [
        finding(EXIT_FAILED, *lines, differences=tuple(differences), impact=impact),
        finding(
            EXIT_FAILED,
            f"version {version} is released and its snapshot is immutable: to publish this "
            f"change, {_bump_advice(live)}",
            **_file_line(version_location(live)),
        ),
    ]


def _check_new_current(
    live: Methodology,
    directory: Path,
    released: dict[str, LockEntry],
    snapshots: dict[str, SnapshotRead],
) -> list[Finding]:
    version = live.methodology_version
    path = snapshot_path(version, directory)
    state = "is not recorded in the lock" if path.exists() else "is missing"
    newest = max(released, key=version_key) if released else None
    found: list[Finding] = []
    if newest is not None and version_key(version) < version_key(newest):
        found.append(
            finding(
                EXIT_FAILED,
                f"constants[methodology.version].value: {version} is older than the newest "
                f"released version {newest}; a new version must be newer "
                f"(defined at {version_location(live)})",
                **_file_line(version_location(live)),
            )
        )
    differences: list[Difference] = []
    impact: Impact | None = None
    lines = [
        f"{display_path(path)}: the snapshot of methodology version {version} {state}; "
        f"run {UPDATE_COMMAND}"
    ]
    if newest is not None and newest in snapshots:
        differences = diff_snapshots(snapshots[newest].methodology, live)
        impact = compare_snapshots(snapshots[newest].methodology, live)
        lines.append(
            f"changes since released version {newest} ({_plural(len(differences), 'difference')}),"
            f" which {UPDATE_COMMAND} will record:"
        )
        for difference in differences:
            if not is_scoreboard(difference):
                lines += render_difference(difference, UPDATE_COMMAND)
        lines += _scoreboard_lines(differences, snapshots[newest].methodology, live)
    found.append(
        finding(EXIT_FAILED, *lines, differences=tuple(differences), blocking=False, impact=impact)
    )
    return found


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


def _finish(findings: list[Finding]) -> CheckResult:
    if not findings:
        return CheckResult(True, 0, summary="contracts check: OK")
    exit_code = max(f.exit_code for f in findings)
    summary = f"contracts check: FAILED ({_plural(len(findings), 'problem')}, exit {exit_code})"
    lines = [line for f in findings for line in f.lines]
    differences = [d for f in findings for d in f.differences]
    return CheckResult(False, exit_code, lines, differences, summary, findings)


__all__ = [
    "CHECKS",
    "EXIT_FAILED",
    "EXIT_UNUSABLE",
    "Check",
    "CheckContext",
    "CheckResult",
    "Difference",
    "Finding",
    "Kind",
    "build_live",
    "diff_snapshots",
    "example_location",
    "render_value",
    "run_check",
    "version_location",
]
