"""The checks of the committed snapshots, for :mod:`contracts.check.drift`: a released snapshot
is byte for byte what its lock records, the current one is what the live code builds (or,
before its release, what ``update`` would write), no update left temporary files, and the
JSON Schema is current. Each returns the :class:`~contracts.check.findings.Finding` list the
check prints.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from contracts.check.causes import Report, explain
from contracts.check.diff import (
    SCOREBOARD_KEY,
    Difference,
    diff_snapshots,
    is_scoreboard,
    render_difference,
    where_defined,
)
from contracts.check.findings import Finding, finding
from contracts.comparison import Impact, compare_snapshots
from contracts.filesystem import temporary_files, text_at_head, update_running
from contracts.impact import IMPACT_COMMAND, corpus_summary, summary_lines
from contracts.model import Methodology
from contracts.source import display_path
from contracts.store import (
    CHANGELOG_PATH,
    EXIT_FAILED,
    LOCK_FILENAME,
    RELEASE_COMMAND,
    UPDATE_COMMAND,
    ChangelogEntry,
    ContractsError,
    LockEntry,
    SnapshotRead,
    file_hash,
    lock_entry,
    read_snapshot,
    schema_path,
    schema_state,
    snapshot_hash,
    snapshot_path,
    snapshot_text,
    version_key,
)


def file_line(location: str | None) -> dict[str, Any]:
    """``file=`` and ``line=`` of a ``file:line`` location (empty when unknown)."""
    if not location or ":" not in location:
        return {"file": location} if location else {}
    file, _, line = location.rpartition(":")
    return {"file": file, "line": int(line), "end_line": int(line)} if line.isdigit() else {}


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
        f'run: {RELEASE_COMMAND} --note "what changed and why" (it bumps METHODOLOGY_VERSION, '
        f"{version_location(live)}, and writes the {display_path(CHANGELOG_PATH)} entry)"
    )


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
        return [f"  {SCOREBOARD_KEY}: {_first_record(live)}; {UPDATE_COMMAND} records it"]
    count = plural(len(mine), "value")
    return [f"  {SCOREBOARD_KEY}: {count} of the reference corpus differ;"] + [
        f"  {line}" for line in summary_lines(impact)
    ]


def _first_record(live: Methodology) -> str:
    """A scoreboard no released version recorded: how many agents and corpus files."""
    boards = live.scoreboard or []
    agents = sum(len(board.agents) for board in boards)
    return (
        f"recorded for the first time ({plural(agents, 'agent')} in "
        f"{plural(len(boards), 'corpus file')})"
    )


def _scoreboard_brief(impact: Impact | None, live: Methodology) -> list[str]:
    """The scoreboard's group in a few lines: each corpus file whose scores move, and
    where every agent is listed."""
    if impact is None:
        return [_first_record(live)]
    moved = [
        corpus
        for corpus in impact.corpus
        if corpus in impact.corpus_changed
        or any(a.moved or a.delta or a.committed != a.live for a in impact.of(corpus))
    ]
    return [*(corpus_summary(impact, c) for c in moved), f"every agent: {IMPACT_COMMAND}"]


def _document_lines(committed: Methodology, live: Methodology) -> list[str]:
    """The generated blocks of the README and the contributors' guide that show the change
    (their text rendered from the two snapshots differs), a line per file."""
    from contracts.readme import COMMAND, DOCUMENTS, parse_blocks
    from contracts.readme_blocks import RENDERERS

    lines = []
    for path in DOCUMENTS:
        where = display_path(path)
        try:
            blocks = parse_blocks(path.read_text(encoding="utf-8"), where)
        except (OSError, UnicodeDecodeError, ContractsError):
            continue  # no such file here, or the README check reports it
        shown = []
        for block in blocks:
            try:
                if RENDERERS[block.name](committed) != RENDERERS[block.name](live):
                    shown.append(block.name)
            except (KeyError, ValueError, TypeError):
                continue  # an older snapshot lacks what the block renders: nothing to compare
        if shown:
            names = ", ".join(f"'{name}'" for name in dict.fromkeys(shown))
            one = len(shown) == 1
            said = (
                f"the generated block{'' if one else 's'} {names} show{'s' if one else ''} the "
                f"change; {COMMAND} --update rewrites {'it' if one else 'them'}"
            )
            lines.append(f"{where}: {said}")
    return lines


def _report(
    header: str,
    committed: Methodology,
    live: Methodology,
    differences: list[Difference],
    impact: Impact | None,
    fix: str,
    edited: str | None = None,
) -> Report:
    explanation = explain(
        committed,
        live,
        differences,
        edited=edited,
        scoreboard=_scoreboard_brief(impact, live),
        extra=_document_lines(committed, live) if edited is None else (),
    )
    more = f"every difference, value by value: {CHECK_COMMAND} --verbose"
    return Report(header, explanation, fix, more)


#: The drift check's command, for its own advice.
CHECK_COMMAND = "python -m contracts check"


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def released_findings(
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
            message = _hash_mismatch(read, version, entry, directory, live)
            # An edited snapshot of the current version differs from the live code too: the
            # check's report of those differences names this edit as their cause.
            reported = version == live.methodology_version and edited_by_hand(
                read, version, live, entry
            )
            found.append(finding(EXIT_FAILED, message, brief=() if reported else None))
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


def edited_by_hand(read: SnapshotRead, version: str, live: Methodology, entry: LockEntry) -> bool:
    """Whether the snapshot file ``read`` of released ``version`` was edited (its bytes are
    not the lock's and nothing vouches for them) into something the live code does not build."""
    return (
        read.file_sha256 != entry.sha256
        and _snapshot_intact(read, version, live, entry) is None
        and read.sha256 != snapshot_hash(live)
    )


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


def temporary_file_findings(directory: Path) -> list[Finding]:
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


def schema_findings(directory: Path) -> list[Finding]:
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


def check_released_current(
    committed: SnapshotRead, live: Methodology, edited: bool = False
) -> list[Finding]:
    """The live code against the snapshot of its own, released, version. ``edited``: that
    snapshot's bytes are not those the lock records, and the differences stem from it."""
    differences = diff_snapshots(committed.methodology, live)
    if not differences:
        return []
    version = live.methodology_version
    path = display_path(committed.path)
    fix = f'{RELEASE_COMMAND} --note "what changed and why" (or revert the change)'
    lines = [
        f"{path}: the live methodology differs from the committed "
        f"snapshot of version {version} ({plural(len(differences), 'difference')}):"
    ]
    for difference in differences:
        if not is_scoreboard(difference):
            lines += render_difference(difference, fix)
    lines += _scoreboard_lines(differences, committed.methodology, live)
    impact = compare_snapshots(committed.methodology, live)
    header = f"{path}: the live methodology differs from released version {version}:"
    if edited:
        advice = f"restore the released snapshot: git checkout -- {path}, then run the check again"
    else:
        advice = f"to publish the change, {_bump_advice(live)} (or revert the change)"
    report = _report(
        header, committed.methodology, live, differences, impact, advice, path if edited else None
    )
    return [
        finding(
            EXIT_FAILED,
            *lines,
            differences=tuple(differences),
            impact=impact,
            brief=tuple(report.lines()),
            report=report,
        ),
        finding(
            EXIT_FAILED,
            f"version {version} is released and its snapshot is immutable: to publish this "
            f"change, {_bump_advice(live)}",
            **file_line(version_location(live)),
            brief=(),
        ),
    ]


def check_new_current(
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
                **file_line(version_location(live)),
            )
        )
    differences: list[Difference] = []
    impact: Impact | None = None
    lines = [
        f"{display_path(path)}: the snapshot of methodology version {version} {state}; "
        f"run {UPDATE_COMMAND}"
    ]
    brief: tuple[str, ...] | None = None
    report: Report | None = None
    if newest is not None and newest in snapshots:
        differences = diff_snapshots(snapshots[newest].methodology, live)
        impact = compare_snapshots(snapshots[newest].methodology, live)
        report = _report(
            f"{lines[0]}; it will record these changes since released version {newest}:",
            snapshots[newest].methodology,
            live,
            differences,
            impact,
            f"run {UPDATE_COMMAND} (with a changelog entry for {version})",
        )
        brief = tuple(report.lines())
        lines.append(
            f"changes since released version {newest} ({plural(len(differences), 'difference')}),"
            f" which {UPDATE_COMMAND} will record:"
        )
        for difference in differences:
            if not is_scoreboard(difference):
                lines += render_difference(difference, UPDATE_COMMAND)
        lines += _scoreboard_lines(differences, snapshots[newest].methodology, live)
    found.append(
        finding(
            EXIT_FAILED,
            *lines,
            differences=tuple(differences),
            blocking=False,
            impact=impact,
            brief=brief,
            report=report,
        )
    )
    return found
