"""The order of the release history: the changelog's versions and dates, and its start.

- Entries go newest first: each version is above every older one, and no date runs
  backwards (an entry is dated on or after the one below it).
- The history starts at :data:`FIRST_RELEASE`: the last entry of the changelog and the
  oldest version in the lock are that version, and nothing is below it. A hand-forged
  older release (a snapshot, a lock entry and a changelog entry for 0.9.0) is refused.

The first release is anchored to a constant of the code rather than to the git history:
the check runs where there is no history (a source archive, a shallow CI clone), and moving
the start of the history then takes a reviewed change of this file, not three edited data
files that agree with each other.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping

from contracts.store import ChangelogEntry, version_key

#: The first released methodology version (1.0.0, published 2026-11-29).
FIRST_RELEASE = "1.0.0"


def order_problems(
    changelog: Mapping[str, ChangelogEntry] | None,
    lock: Mapping[str, object] | None,
    changelog_name: str,
    lock_name: str,
) -> list[str]:
    """What breaks the order of the history, one line per problem (none: in order).

    ``changelog`` holds the entries in the order written (as
    :func:`contracts.store.parse_changelog` returns them).

    >>> from contracts.store import ChangelogEntry as E
    >>> log = {"1.0.0": E("1.0.0", "2026-11-29", "x", 3), "1.0.1": E("1.0.1", "2026-12-01", "y", 9)}
    >>> order_problems(log, {}, "CHANGELOG.md", "released.json")[0]
    'CHANGELOG.md:9: 1.0.1 is below 1.0.0 (line 3): entries go newest first'
    """
    problems: list[str] = []
    entries = list((changelog or {}).values())
    for above, below in itertools.pairwise(entries):
        where = f"{changelog_name}:{below.line}"
        if version_key(below.version) >= version_key(above.version):
            problems.append(
                f"{where}: {below.version} is below {above.version} (line {above.line}): "
                "entries go newest first"
            )
        elif below.date > above.date:
            problems.append(
                f"{where}: {below.version} is dated {below.date}, after {above.version} above "
                f"it ({above.date}): dates must not run backwards"
            )
    first = version_key(FIRST_RELEASE)
    for entry in entries:
        if version_key(entry.version) < first:
            problems.append(
                f"{changelog_name}:{entry.line}: {entry.version} is older than the first "
                f"release, {FIRST_RELEASE} (contracts/release_order.py): remove the entry"
            )
    if (
        entries
        and version_key(entries[-1].version) >= first
        and entries[-1].version != FIRST_RELEASE
    ):
        problems.append(
            f"{changelog_name}:{entries[-1].line}: the last entry is {entries[-1].version}; "
            f"the history starts with the first release, {FIRST_RELEASE}"
        )
    released = sorted(lock or {}, key=version_key)
    for version in released:
        if version_key(version) < first:
            problems.append(
                f"{lock_name}: {version} is older than the first release, {FIRST_RELEASE} "
                "(contracts/release_order.py): a release cannot be added before it"
            )
    if released and version_key(released[0]) > first:
        problems.append(f"{lock_name}: the first release, {FIRST_RELEASE}, is missing")
    return problems
