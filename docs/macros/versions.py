"""Versions and history: the released versions (the committed snapshots), the changelog, what
changed between the two newest versions, whether the live code still matches the newest one,
what the drift check prints, and the version a change would need next. The tables themselves
are drawn by :mod:`macros.history`."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from decimal import Decimal
from typing import TYPE_CHECKING

import scoring.constants as C  # noqa: N812 - the module of constants, named as in contracts
from macros import history
from macros.markup import block, code_block, esc, value
from macros.published import VERSIONS_DIR
from macros.site import output_block

if TYPE_CHECKING:
    from contracts.check.drift import Check, CheckContext
    from contracts.check.findings import Finding
    from macros.site import Site


def next_version(site: Site) -> str:
    """The current version with its minor part bumped (what a new constant would need)."""
    major, minor, _ = (int(p) for p in C.METHODOLOGY_VERSION.split("."))
    text = f"{major}.{minor + 1}.0"
    return value("version:next", text, code=True)


def versions_table(site: Site) -> str:
    """Every released version, with its date, its changes and its snapshot file."""
    hrefs = {r.version: site.rel(f"{VERSIONS_DIR}/{r.version}.json") for r in site.history()}
    return history.releases_table(site.history(), hrefs)


def changelog(site: Site) -> str:
    """The changelog, newest version first."""
    return history.changelog(site.history())


def version_changes(site: Site) -> str:
    """What changed between the two newest released versions."""
    releases = site.history()
    note = history.fewer_than_two("versions:diff", releases, "there is nothing to compare yet.")
    if note is not None:
        return note
    return history.between_versions(releases)


def live_drift(site: Site) -> str:
    """Does the code this page was built from match the newest released snapshot?"""
    from contracts.check.drift import diff_snapshots

    releases = site.history()
    newest = releases[-1]
    differences = diff_snapshots(newest.snapshot, site.snapshot)
    version = esc(site.snapshot.methodology_version)
    if not differences:
        body = (
            f'<p class="admonition-title">In step</p><p>Built from code whose methodology '
            f"({version}) is the committed snapshot of {esc(newest.version)}.</p>"
        )
        return block("versions:drift", f'<div class="admonition success">{body}</div>')
    body = (
        f'<p class="admonition-title">Unreleased changes</p><p>This site was built '
        f"from code (version {version}) that differs from the committed snapshot of "
        f"version {esc(newest.version)} in {len(differences)} places. "
        "<code>python -m contracts check</code> fails until the change is released.</p>"
    )
    diff = history.differences_table(
        "versions:drift/table", differences, before=esc(newest.version), after="this build"
    )
    lines = "".join(history.summary_lines(differences))
    folded = (
        f'\n<details class="full-diff"><summary>The differences, value by value</summary>'
        f"\n{diff}\n</details>\n"
    )
    return (
        block("versions:drift", f'<div class="admonition warning">{body}<ul>{lines}</ul></div>')
        + folded
    )


def check_demo(site: Site, constant: str = "composite.weight.success", delta: str = "0.05") -> str:
    """What the drift check prints now, and what it would print after an edit."""
    from contracts.check.drift import CHECKS, run_check

    # The formula check reads the code (each formula's LaTeX against its implementation),
    # not the snapshot checked: the two runs share its findings instead of each working
    # them out (a fifth of a run).
    checks = [_once(check) if check.name == "formulas" else check for check in CHECKS]
    now = run_check(live=site.snapshot, checks=checks)
    changed = []
    for entry in site.snapshot.constants:
        if entry.name == constant:
            new = float(Decimal(repr(entry.value)) + Decimal(delta))
            entry = entry.model_copy(update={"value": new})
        changed.append(entry)
    edited = site.snapshot.model_copy(update={"constants": changed})
    after = run_check(live=edited, checks=checks)
    return (
        code_block("check:now/command", "python -m contracts check", lang="sh")
        + output_block("check:now", "\n".join(now.lines()) + f"\n(exit status {now.exit_code})\n")
        + block(
            "check:edited/intro",
            f"<p>The same check, had <code>{esc(constant)}</code> been edited to "
            f"<code>{esc(new)}</code> without a new version:</p>",
        )
        + output_block(
            "check:edited", "\n".join(after.lines()) + f"\n(exit status {after.exit_code})\n"
        )
    )


def _once(check: Check) -> Check:
    """``check``, its findings worked out at its first run and returned again after."""
    found: list[Finding] = []
    ran = False

    def run(context: CheckContext) -> list[Finding]:
        nonlocal ran
        if not ran:
            found.extend(check.run(context))
            ran = True
        return list(found)

    return dataclasses.replace(check, run=run)


#: The macros this module renders (see ``macros.MACROS_BY_MODULE``).
MACROS: dict[str, Callable[..., str]] = {
    "versions_table": versions_table,
    "changelog": changelog,
    "version_changes": version_changes,
    "live_drift": live_drift,
    "check_demo": check_demo,
    "next_version": next_version,
}
