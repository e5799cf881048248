"""The versions page: released methodology versions from the committed snapshots, what
changed between them, and whether the live code still matches the newest one."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from macros.markup import block, esc, markdown_block, table, value


def _value(data: Any, path: str = "") -> str:
    """A value of a difference; a formula's (its LaTeX, its symbols) is TeX shown on purpose."""
    from contracts.check import render_value

    tex = ' class="formula-tex"' if path.startswith("formulas[") else ""
    return f"<code{tex}>{esc(render_value(data))}</code>"


def differences_table(key: str, differences: list[Any], *, before: str, after: str) -> str:
    """A table of :class:`contracts.check.Difference` rows."""
    rows = [
        [
            f"<code>{esc(d.path)}</code>",
            "—" if d.kind == "added" else _value(d.committed, d.path),
            "—" if d.kind == "removed" else _value(d.live, d.path),
            esc(d.location or ""),
        ]
        for d in differences
    ]
    return table(key, ["What", before, after, "Defined at"], rows)


def releases_table(releases: list[Any], snapshot_href: dict[str, str]) -> str:
    """One row per released version, newest first, with the size of its snapshot."""
    rows = []
    for release in reversed(releases):
        snap = release.snapshot
        rows.append(
            [
                f'<a href="{esc(snapshot_href[release.version])}">{esc(release.version)}</a>',
                esc(release.date),
                esc(snap.zero_success_policy),
                esc(snap.outcome_score_version),
                str(len(snap.constants)),
                str(len(snap.formulas)),
            ]
        )
    return table(
        "versions:releases",
        [
            "Version",
            "Date",
            "Zero-success policy",
            "Outcome score",
            "Constants",
            "Formulas",
        ],
        rows,
        numeric=(4, 5),
    )


def changelog(releases: list[Any]) -> str:
    """Each release's changelog entry (its own Markdown), newest first, under a heading."""
    parts = []
    for release in reversed(releases):
        body = f"### {release.version} ({release.date})\n\n{release.changes}"
        parts.append(markdown_block(f"changelog:{release.version}", body))
    return "\n".join(parts)


def between_versions(releases: list[Any]) -> str:
    """What changed from each release to the next, as computed by the drift check's diff."""
    from contracts.check import diff_snapshots

    parts = []
    for older, newer in itertools.pairwise(releases):
        differences = diff_snapshots(older.snapshot, newer.snapshot)
        old_v = value(f"version:{older.version}", older.version)
        new_v = value(f"version:{newer.version}", newer.version)
        title = f"\n#### From {old_v} to {new_v}\n"
        parts.append(
            title
            + differences_table(
                f"versions:diff:{older.version}..{newer.version}",
                differences,
                before=esc(older.version),
                after=esc(newer.version),
            )
        )
    return "\n".join(parts)


def fewer_than_two(key: str, releases: Sequence[Any], missing: str) -> str | None:
    """The note that stands in place of a comparison of releases while only one is released
    (``missing`` says what is not there yet); None once there are two to compare."""
    if len(releases) >= 2:
        return None
    only = releases[0].version if releases else "none"
    return block(key, f"<p>Only one version is released so far ({esc(only)}): {missing}</p>")
