"""The versions page: released methodology versions from the committed snapshots, what
changed between them, and whether the live code still matches the newest one."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from collections.abc import Sequence
from typing import Any

from macros.markup import block, esc, markdown_block, table, value

#: A value longer than this (in characters) is shortened in the full diff, the whole of it
#: one click away; in the summary, to this many.
FULL_DIFF_CHARS = 40
SUMMARY_CHARS = 48
#: A worked example with more changed results than this gets one summary line, not one each.
EXAMPLE_LINES = 3
ELLIPSIS = "…"
#: What a difference's path says it is about: a constant (or its value), a formula (or
#: one of its fields), a worked example, a golden point, a scoreboard entry.
_CONSTANT = re.compile(r"^constants\[(?P<name>[^\]]+)\](?:\.value)?$")
_FORMULA = re.compile(r"^formulas\[(?P<name>[^\]]+)\](?:\.(?P<field>\w+))?$")
_EXAMPLE = re.compile(r"^examples\[(?P<name>[^\]]+)\](?P<rest>.*)$")
#: The constant that is the version number (the heading of each comparison says it).
VERSION_NAME = "methodology.version"
#: Constants a reader looks for first, by a word of their name.
_HEADLINE_WORDS = (("weight", "Weight"), ("anchors", "Anchors"))


def _rendered(data: Any) -> str:
    from contracts.check.drift import render_value

    return render_value(data)


def _short(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def _tex_class(path: str) -> str:
    """The class of a code element holding TeX on purpose (a formula's field or symbol)."""
    return ' class="formula-tex"' if path.startswith("formulas[") else ""


#: Class of a value's path in a table of differences (site.css lets it wrap at its
#: <wbr> marks, where other names in a table stay whole).
PATH_CLASS = "path"


def _path(path: str) -> str:
    """A value's path (``formulas[uncertainty.wilson].symbols.z``) in code that may wrap
    after a dot or a closing bracket and before an opening one, so that a table of long
    paths fits the article."""
    marked = re.sub(r"([.\]])|(?=\[)", lambda m: (m.group(1) or "") + "\0", path)
    text = esc(marked).replace("\0", "<wbr>")
    tex = " formula-tex" if path.startswith("formulas[") else ""
    return f'<code class="{PATH_CLASS}{tex}">{text}</code>'


def _value(data: Any, path: str = "") -> str:
    """A value of a difference; a formula's (its LaTeX, its symbols) is TeX shown on purpose.
    A long one shows its start, and the whole of it in a fold (no script needed)."""
    text = _rendered(data)
    tex = _tex_class(path)
    if len(text) <= FULL_DIFF_CHARS:
        return f"<code{tex}>{esc(text)}</code>"
    return (
        f'<details class="long-value"><summary><code{tex}>'
        f"{esc(_short(text, FULL_DIFF_CHARS))}</code></summary>"
        f"<code{tex}>{esc(text)}</code></details>"
    )


def _shown(data: Any) -> str:
    """A value for the summary: a constant's own value, not its whole record."""
    if isinstance(data, dict) and "value" in data:
        data = data["value"]
    return esc(_short(_rendered(data), SUMMARY_CHARS))


def _line(label: str, what: str, difference: Any) -> str:
    """One short line of the summary: what, then old → new."""
    old, new = _shown(difference.committed), _shown(difference.live)
    return f"<li>{label} <code>{esc(what)}</code>: <code>{old}</code> → <code>{new}</code></li>"


def _grouped(label: str, items: list[str]) -> str:
    return f"<li>{label} ({len(items)}): {', '.join(items)}</li>"


def summary_lines(differences: list[Any]) -> list[str]:
    """What changed for a reader, one short line each: every weight and anchor, every other
    constant changed (those added or removed on one line, with their values), the formulas
    and worked examples added or removed (a line each kind), every formula retyped and
    worked result changed; the changes to the formulas' annotations, the golden points and
    the scoreboard counted. The version number itself is the heading's."""
    lines: dict[str, list[str]] = {"headline": [], "constant": [], "formula": [], "example": []}
    grouped: dict[tuple[str, str], list[str]] = {}
    counted: Counter[str] = Counter()
    changed_examples: dict[str, list[str]] = {}
    retyped: list[str] = []
    for d in differences:
        constant, formula = _CONSTANT.match(d.path), _FORMULA.match(d.path)
        example = _EXAMPLE.match(d.path)
        if d.path == "methodology_version" or (constant and constant["name"] == VERSION_NAME):
            continue
        # A whole formula or worked example added or removed (not one of its fields).
        whole = bool(formula and formula["field"] is None) or bool(example and not example["rest"])
        if constant:
            name = constant["name"]
            label = next((lab for word, lab in _HEADLINE_WORDS if word in name), None)
            if d.kind == "changed" or label:
                kind = "headline" if label else "constant"
                lines[kind].append(_line(label or "Constant", name, d))
            else:
                data = d.live if d.kind == "added" else d.committed
                item = f"<code>{esc(name)}</code> = <code>{_shown(data)}</code>"
                grouped.setdefault(("Constants", d.kind), []).append(item)
        elif whole and d.kind != "changed":
            what, name = (
                ("Formulas", formula["name"]) if formula else ("Worked examples", example["name"])
            )  # type: ignore[index]
            grouped.setdefault((what, d.kind), []).append(f"<code>{esc(name)}</code>")
        elif formula and formula["field"] == "latex":
            retyped.append(f"<code>{esc(formula['name'])}</code>")
        elif formula:
            counted[f"formula {formula['field']}"] += 1
        elif example:
            changed_examples.setdefault(example["name"], []).append(
                _line("Worked example", _short(example["name"] + example["rest"], SUMMARY_CHARS), d)
            )
        else:
            counted[d.path.split("[")[0].split(".")[0]] += 1
    for name, changed in changed_examples.items():
        # A few results of a worked example, line by line; many (a method changed), one line.
        if len(changed) <= EXAMPLE_LINES:
            lines["example"].extend(changed)
        else:
            lines["example"].append(
                f"<li>Worked example <code>{esc(name)}</code>: {len(changed)} results changed "
                "(in the full list)</li>"
            )
    if not lines["headline"]:
        lines["headline"].append("<li>Weights and anchors: none changed</li>")
    groups = [_grouped(f"{what} {kind}", items) for (what, kind), items in grouped.items()]
    if retyped:
        lines["formula"].append(f"<li>LaTeX changed ({len(retyped)}): {', '.join(retyped)}</li>")
    counts = [f"{count} to <code>{esc(what)}</code>" for what, count in sorted(counted.items())]
    # Every other change counted on one line: the full list below has each of them.
    extra = [f"<li>In the full list, changes: {', '.join(counts)}</li>"] if counts else []
    return [
        *lines["headline"],
        *lines["constant"],
        *groups,
        *lines["formula"],
        *lines["example"],
        *extra,
    ]


def differences_table(key: str, differences: list[Any], *, before: str, after: str) -> str:
    """A table of :class:`contracts.check.drift.Difference` rows."""
    rows = [
        [
            # A formula's path names its symbols as TeX (symbols.\mathrm{Wilson}): shown so.
            _path(d.path),
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
    """Each release's changelog entry (its own Markdown), newest first, each folded under its
    version and date (the summary of changes above says what a reader looks for first)."""
    parts = []
    for release in reversed(releases):
        body = (
            f'<details class="changelog-entry" markdown="1"><summary>{esc(release.version)} '
            f"({esc(release.date)})</summary>\n\n{release.changes}\n\n</details>"
        )
        parts.append(markdown_block(f"changelog:{release.version}", body))
    return "\n".join(parts)


def between_versions(releases: list[Any]) -> str:
    """What changed from each release to the next, as computed by the drift check's diff."""
    from contracts.check.drift import diff_snapshots

    parts = []
    pairs = list(itertools.pairwise(releases))
    for number, (older, newer) in enumerate(pairs, start=1):
        differences = diff_snapshots(older.snapshot, newer.snapshot)
        old_v = value(f"version:{older.version}", older.version)
        new_v = value(f"version:{newer.version}", newer.version)
        title = f"\n#### From {old_v} to {new_v}\n"
        key = f"versions:diff:{older.version}..{newer.version}"
        lines = summary_lines(differences)
        count = value(
            f"versions:diff-count:{older.version}..{newer.version}", str(len(differences))
        )
        full = differences_table(
            key, differences, before=esc(older.version), after=esc(newer.version)
        )
        summary = block(
            f"versions:summary:{older.version}..{newer.version}", f"<ul>{''.join(lines)}</ul>"
        )
        if number < len(pairs):
            # An older release's summary is folded (the newest stays open): the page stays
            # short as releases accumulate, and every line is still on it.
            summary = (
                '<details class="release-summary"><summary>What changed, line by line'
                f"</summary>\n{summary}\n</details>\n"
            )
        parts.append(
            title + summary + f'\n<details class="full-diff"><summary>All {count} differences, '
            f"value by value</summary>\n{full}\n</details>\n"
        )
    return "\n".join(parts)


def fewer_than_two(key: str, releases: Sequence[Any], missing: str) -> str | None:
    """The note that stands in place of a comparison of releases while only one is released
    (``missing`` says what is not there yet); None once there are two to compare."""
    if len(releases) >= 2:
        return None
    only = releases[0].version if releases else "none"
    return block(key, f"<p>Only one version is released so far ({esc(only)}): {missing}</p>")
