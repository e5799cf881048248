"""``python -m contracts update``: record the live methodology as the current version.

Rules:

- The current version is ``METHODOLOGY_VERSION``; it must be ``MAJOR.MINOR.PATCH`` and have
  an entry in ``contracts/CHANGELOG.md``.
- A version that is already released (in the lock) is immutable: if the live content
  differs, the update refuses and asks for a version bump. If it is equal, the snapshot
  file is rewritten only when its text differs (this restores an edited file).
- A new version must be newer than every released one; its snapshot is written, older
  snapshots are left untouched, and it is recorded in the lock.
- ``--amend`` re-records the newest released version when git shows that this version is
  not yet in the committed lock (``HEAD``): for iterating on a change before committing it.
- The JSON Schema is rewritten when stale. Every write is atomic (temporary file, rename);
  the lock is written last.
- One update at a time (an inter-process lock on the snapshot folder); temporary files of
  an update that was killed are removed by the next one.
- A methodology whose formulas disagree with their LaTeX at a golden point, or that has a
  formula with no golden point, is refused before anything is written.
"""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

from contracts.check.diff import diff_snapshots
from contracts.check.drift import build_live, version_location
from contracts.check.invariants import invariant_lines
from contracts.comparison import impact_since_release
from contracts.filesystem import (
    UPDATE_LOCK_WAIT_SECONDS,
    temporary_files,
    text_at_head,
    update_lock,
    work_tree_top,
    write_atomic,
)
from contracts.impact import suggestion_lines, summary_lines
from contracts.model import Methodology
from contracts.result import UpdateResult
from contracts.source import display_path
from contracts.store import (
    CHANGELOG_PATH,
    CHECK_COMMAND,
    EXIT_FAILED,
    EXIT_UNUSABLE,
    LOCK_FILENAME,
    RELEASE_COMMAND,
    SNAPSHOT_DIR,
    ContractsError,
    LockEntry,
    lock_entry,
    lock_text,
    read_changelog,
    read_lock_entries,
    read_snapshot,
    schema_path,
    schema_state,
    schema_text,
    snapshot_path,
    snapshot_text,
    snapshot_versions,
    version_key,
)


def _refused(message: str, exit_code: int = EXIT_FAILED) -> ContractsError:
    return ContractsError(message, exit_code=exit_code)


def _refuse_broken_formulas() -> None:
    """Refuse, before anything is written, a methodology whose formulas disagree with their
    LaTeX or lack golden points (:mod:`contracts.check.formulas`)."""
    from contracts.check.formulas import formula_problems

    problems = formula_problems()
    if problems:
        count = f"{len(problems)} formula problem{'' if len(problems) == 1 else 's'}"
        raise _refused(
            f"{count}, nothing written:\n" + "\n".join(f"  {p.message}" for p in problems)
        )


def _released_at_head(lock_path: Path) -> dict[str, str] | None:
    """The lock as committed at git ``HEAD`` (empty if not committed yet); ``None`` when git
    cannot tell (no git, not a repository)."""
    text = text_at_head(lock_path)
    if text is None:
        return {} if work_tree_top(lock_path) is not None else None
    try:
        released = json.loads(text)["released"]
    except (ValueError, KeyError, TypeError):
        return None
    return released if isinstance(released, dict) else None


def _read_lock_or_bootstrap(directory: Path) -> dict[str, LockEntry]:
    lock_path = directory / LOCK_FILENAME
    if lock_path.exists():
        return read_lock_entries(lock_path)
    existing = snapshot_versions(directory)
    if existing:
        raise _refused(
            f"{display_path(lock_path)}: the lock is missing but snapshots exist "
            f"({', '.join(existing)}); restore it: git checkout -- {display_path(lock_path)}",
            EXIT_UNUSABLE,
        )
    return {}


def _refuse_released(
    live: Methodology, directory: Path, released: dict[str, LockEntry], amend: bool
) -> None:
    version = live.methodology_version
    path = snapshot_path(version, directory)
    try:
        found = len(diff_snapshots(read_snapshot(path).methodology, live))
        count = f"{found} difference{'' if found == 1 else 's'}"
    except ContractsError:
        count = "its snapshot file is unreadable"
    if amend:
        newest = max(released, key=version_key)
        at_head = _released_at_head(directory / LOCK_FILENAME)
        if at_head is None:
            reason = "git cannot tell whether it was committed (amend needs a git work tree)"
        elif version in at_head:
            reason = f"it is released in the committed {LOCK_FILENAME} (git HEAD)"
        elif version != newest:
            reason = f"it is not the newest version ({newest})"
        else:
            return
        raise _refused(f"cannot amend version {version}: {reason}")
    raise _refused(
        f"version {version} is released (recorded in {LOCK_FILENAME}) and the live "
        f"methodology differs from its snapshot ({count}; run {CHECK_COMMAND} to list "
        f"them). Released snapshots are immutable: run {RELEASE_COMMAND} --note "
        f'"what changed and why" (it bumps METHODOLOGY_VERSION, {version_location(live)}, '
        f"and writes the {display_path(CHANGELOG_PATH)} entry)"
    )


def run_update(
    *,
    amend: bool = False,
    live: Methodology | None = None,
    snapshot_dir: Path | None = None,
    changelog_path: Path | None = None,
    lock_wait_seconds: float = UPDATE_LOCK_WAIT_SECONDS,
) -> UpdateResult:
    """Write the current version's snapshot, the schema and the lock (see module rules).

    One update at a time: it holds the folder's lock (:func:`contracts.filesystem.update_lock`)
    from reading the lock file to writing it, so that two updates never both start from
    the same list of released versions. Under the lock, temporary files left by an update
    that was killed are removed (none can belong to a running one).
    """
    directory = SNAPSHOT_DIR if snapshot_dir is None else snapshot_dir
    changelog = CHANGELOG_PATH if changelog_path is None else changelog_path
    broken = invariant_lines()
    if broken:
        # Nothing is written: a methodology that breaks its own rules is never recorded.
        return UpdateResult(
            False, EXIT_FAILED, [f"contracts update: REFUSED: {broken[0]}", *broken[1:]]
        )
    try:
        if live is None:
            live = build_live()  # before the lock: building takes the longest
        _refuse_broken_formulas()
        with update_lock(directory, lock_wait_seconds):
            cleaned = _remove_stale_temporary_files(directory)
            result = _update(amend, live, directory, changelog)
        return UpdateResult(result.ok, result.exit_code, [*cleaned, *result.lines], result.written)
    except ContractsError as error:
        return UpdateResult(False, error.exit_code, [f"contracts update: REFUSED: {error}"])


def _remove_stale_temporary_files(directory: Path) -> list[str]:
    lines = []
    for path in temporary_files(directory):
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        lines.append(f"removed {display_path(path)} (left by an interrupted update)")
    return lines


def _update(amend: bool, live: Methodology, directory: Path, changelog_path: Path) -> UpdateResult:
    version = live.methodology_version
    try:
        version_key(version)
    except ValueError as error:
        raise _refused(f"{error} (METHODOLOGY_VERSION, {version_location(live)})") from None

    entries = read_changelog(changelog_path)
    if version not in entries:
        suggestion = "\n".join(suggestion_lines(live, directory))
        raise _refused(
            f"{display_path(changelog_path)}: no entry for methodology version {version}; "
            f"add a section '## {version} (<YYYY-MM-DD>)' saying what changed and why\n"
            f"{suggestion}"
        )
    released = _read_lock_or_bootstrap(directory)

    review = f"git diff -- {display_path(directory)} {display_path(changelog_path)}"
    text = snapshot_text(live)
    entry = lock_entry(live)
    path = snapshot_path(version, directory)
    lines: list[str] = []
    written: list[Path] = []
    record = False

    if version in released:
        if released[version].content_sha256 != entry.content_sha256:
            _refuse_released(live, directory, released, amend)
            lines.append(f"amending unreleased version {version} (not in git HEAD's lock)")
            record = True
        current_text = path.read_text(encoding="utf-8") if path.exists() else None
        if current_text != text:
            write_atomic(path, text)
            written.append(path)
            what = "amended" if record else "restored"
            lines.append(f"{what} {display_path(path)} (methodology {version})")
    else:
        newer = [v for v in released if version_key(v) >= version_key(version)]
        if newer:
            raise _refused(
                f"version {version} is not newer than released version "
                f"{max(newer, key=version_key)}; bump METHODOLOGY_VERSION "
                f"({version_location(live)}) above every released version"
            )
        write_atomic(path, text)
        written.append(path)
        record = True
        lines.append(f"wrote {display_path(path)} (methodology {version})")
        impact = impact_since_release(live, directory)
        if impact is not None:
            lines += summary_lines(impact)
        if released:
            previous = display_path(snapshot_path(max(released, key=version_key), directory))
            review = f"git diff --no-index {previous} {display_path(path)}"

    schema = schema_path(directory)
    if schema_state(schema) is not None:
        write_atomic(schema, schema_text())
        written.append(schema)
        lines.append(f"wrote {display_path(schema)}")
    from contracts.output import write_output_schemas

    for output_schema in write_output_schemas(directory):
        written.append(output_schema)
        lines.append(f"wrote {display_path(output_schema)}")

    if record:
        released = {**released, version: entry}
        lock_path = directory / LOCK_FILENAME
        write_atomic(lock_path, lock_text(released))
        written.append(lock_path)
        lines.append(
            f"recorded {version} in {display_path(lock_path)} (sha256 {entry.sha256[:12]}…)"
        )

    if written:
        lines.append(f"contracts update: OK; review the change: {review}")
    else:
        lines.append(f"contracts update: OK; version {version} is up to date, nothing written")
    return UpdateResult(True, 0, lines, written)
