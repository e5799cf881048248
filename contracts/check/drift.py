"""The drift check: the live methodology against the committed contracts.

The check is a list of named checks, :data:`CHECKS`, run in order by :func:`run_check`.
Each is a small function that takes the shared :class:`CheckContext` and returns its
:class:`Finding` list (lines to print, the exit status, and the file and line range to
blame, for annotations); a new check is one function and one line in :data:`CHECKS`, and
the table on the contract page is generated from it. :func:`run_check` returns a
:class:`CheckResult` (``ok``, the lines to print, the exit status, the findings). The
comparison of two snapshots, :func:`diff_snapshots`, lives in :mod:`contracts.check.diff` and is
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

from contracts.build import build_snapshot
from contracts.check.diff import (
    Difference,
    Kind,
    diff_snapshots,
    example_location,
    render_value,
)
from contracts.check.failure import describe_failure
from contracts.check.findings import Finding, finding
from contracts.check.invariants import invariant_lines
from contracts.check.snapshots import (
    check_new_current,
    check_released_current,
    edited_by_hand,
    file_line,
    plural,
    released_findings,
    schema_findings,
    temporary_file_findings,
    version_location,
)
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
    read_changelog,
    read_lock_entries,
    snapshot_path,
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
                **file_line(where),
            )
        ]
    return []


def check_released(context: CheckContext) -> list[Finding]:
    """Every released snapshot is present, readable, unedited and in the changelog."""
    found, context.snapshots = released_findings(
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
        read, entry = context.snapshots[current], context.released.get(current)
        edited = entry is not None and edited_by_hand(read, current, live, entry)
        return check_released_current(read, live, edited)
    if context.lock is not None and context.version_ok and current not in context.released:
        return check_new_current(live, context.directory, context.released, context.snapshots)
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
    every golden point, equals its code (:mod:`contracts.check.formulas`)."""
    from contracts.check.formulas import formula_problems

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
    return schema_findings(context.directory)


def check_temporary_files(context: CheckContext) -> list[Finding]:
    """No temporary file left by an update that was killed (none while an update runs)."""
    return temporary_file_findings(context.directory)


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


def run_check(
    *,
    live: Methodology | None = None,
    snapshot_dir: Path | None = None,
    changelog_path: Path | None = None,
    checks: list[Check] | None = None,
    verbose: bool = False,
) -> CheckResult:
    """Run every check of :data:`CHECKS` in order (or ``checks``) against the live
    methodology and the committed snapshots, lock, schema and changelog.

    The result's lines say the causes of any drift and what follows from them, counted
    (:mod:`contracts.check.causes`); with ``verbose``, every difference with its values, where it
    is defined and its fix. Arguments default to the live code and the committed files;
    tests pass others.
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
    return _finish(findings, verbose)


def _finish(findings: list[Finding], verbose: bool = False) -> CheckResult:
    if not findings:
        return CheckResult(True, 0, summary="contracts check: OK")
    exit_code = max(f.exit_code for f in findings)
    lines = [line for f in findings for line in f.shown(verbose)]
    differences = [d for f in findings for d in f.differences]
    summary = _summary(findings, exit_code, verbose)
    return CheckResult(False, exit_code, lines, differences, summary, findings)


def _summary(findings: list[Finding], exit_code: int, verbose: bool) -> str:
    """The last line: the causes and the differences that follow from them, as the
    reports listed them, and the other problems; with ``verbose``, the problems counted."""
    reports = [f.report for f in findings if f.report is not None]
    if verbose or not reports:
        return f"contracts check: FAILED ({plural(len(findings), 'problem')}, exit {exit_code})"
    causes = sum(len(r.explanation.causes) for r in reports)
    following = sum(r.explanation.following for r in reports)
    them = "it" if causes == 1 else "them"
    follows = plural(following, "difference") if following else "no differences"
    verb = "follows" if following == 1 else "follow"
    parts = [f"{plural(causes, 'cause')} and {follows} that {verb} from {them}"]
    others = [f for f in findings if f.report is None and f.shown()]
    if others:
        parts.append(plural(len(others), "other problem"))
    return f"contracts check: FAILED ({'; '.join(parts)}; exit {exit_code})"


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
