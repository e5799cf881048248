"""The drift check and the README check as a GitHub Actions job shows them: one workflow
command per finding (an annotation at the file and lines where the drifting value is
defined) and a Markdown step summary (each difference in a table, and the impact on the
reference corpus).

``python -m contracts check --format github`` (the default when ``GITHUB_ACTIONS`` is
``true``) prints, after the plain text, the commands of :func:`check_annotations`; with
``GITHUB_STEP_SUMMARY`` set it appends :func:`check_summary` to that file. ``contracts
readme --check`` does the same with :func:`readme_annotations` and :func:`readme_summary`.
Nothing here prints: :mod:`contracts.cli` does.

The commands themselves (escapes, levels, the step summary file) are
:mod:`contracts.workflow_commands`.

Levels: ``error`` for what fails the check on its own (a drifting value of a released
version, a missing snapshot, a stale README block); ``warning`` for what is listed for the
reviewer but does not block by itself: the impact on the corpus (it follows from the
changes annotated as errors), and the changes since the last release that ``update`` will
record once the version is bumped.
"""

from __future__ import annotations

import ast
import functools
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from contracts.build import REPO_ROOT
from contracts.check.causes import Report
from contracts.check.diff import Difference, Kind, is_scoreboard, render_value
from contracts.check.drift import Finding
from contracts.impact import PAIRS_TITLE, corpus_summary, impact_to_json
from contracts.result import CheckResult, ReadmeResult
from contracts.store import UPDATE_COMMAND
from contracts.workflow_commands import Annotation, Level

CHECK_COMMAND = "python -m contracts check"
README_COMMAND = "python -m contracts readme --check"


# --- Where a value is defined: the lines of its statement -------------------------------------

_LOCATION = re.compile(r"(?P<file>[\w./-]+\.(?:py|md|json|jsonl|toml|yml)):(?P<line>\d+)\b")
_LEADING_PATH = re.compile(r"^(?P<file>/?[\w.-]+(?:/[\w.-]+)*\.[A-Za-z]+)(?::(?P<line>\d+))?: ")


@functools.lru_cache(maxsize=16)
def _statements(path: Path, mtime_ns: int) -> tuple[tuple[int, int, bool], ...]:
    """(first line, last line, is top level) of the top-level statements of ``path`` (a
    decorated definition starts at its first decorator) and of every call in it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    spans: list[tuple[int, int, bool]] = []
    for node in tree.body:
        first = node.lineno
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            first = min([first, *(d.lineno for d in node.decorator_list)])
        spans.append((first, node.end_lineno or node.lineno, True))
    for call in ast.walk(tree):
        if isinstance(call, ast.Call):
            spans.append((call.lineno, call.end_lineno or call.lineno, False))
    return tuple(spans)


def line_range(file: str, line: int) -> tuple[int, int]:
    """The lines of what is defined at ``file:line``: the top-level statement that starts
    there (a constant's whole annotated assignment, a formula's function with its
    decorator), else the innermost call around it (a worked example's entry), else the
    line alone. A file that cannot be read or parsed gives the line alone."""
    path = (REPO_ROOT / file).resolve()
    if path.suffix != ".py" or not path.is_relative_to(REPO_ROOT):
        return line, line
    try:
        spans = _statements(path, path.stat().st_mtime_ns)
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError, RecursionError):
        return line, line
    for first, last, top in spans:
        if top and first == line:
            return first, last
    calls = [(last - first, first, last) for first, last, top in spans if not top]
    around = [span for span in calls if span[1] <= line <= span[2]]
    if around:
        _, first, last = min(around)
        return first, last
    return line, line


def _located(location: str | None) -> tuple[str | None, int | None, int | None]:
    """(file, first line, last line) of a ``file:line`` location (or a bare file)."""
    if not location:
        return None, None, None
    file, _, number = location.rpartition(":")
    if not file or not number.isdigit():
        return location, None, None
    first, last = line_range(file, int(number))
    return file, first, last


def _where(text: str) -> tuple[str | None, int | None, int | None]:
    """The file (and line) a problem's message names: a leading ``path:`` or
    ``path:line:``, else the first ``file.py:line`` in it."""
    leading = _LEADING_PATH.match(text)
    if leading:
        line = leading["line"]
        return leading["file"], int(line) if line else None, int(line) if line else None
    inside = _LOCATION.search(text)
    if inside:
        return _located(f"{inside['file']}:{inside['line']}")
    return None, None, None


# --- The drift check --------------------------------------------------------------------------


def _side(difference: Difference, committed: bool) -> str:
    absent = Kind.ADDED if committed else Kind.REMOVED
    if difference.kind == absent:
        return "(absent)"
    return render_value(difference.committed if committed else difference.live)


_BLOCKING_FIX = (
    f"bump METHODOLOGY_VERSION, add a CHANGELOG entry, then run {UPDATE_COMMAND} "
    "(or revert the change)"
)


def _difference_annotation(difference: Difference, finding: Finding) -> Annotation:
    file, line, end = _located(difference.location)
    level = Level.ERROR if finding.blocking else Level.WARNING
    fix = _BLOCKING_FIX if finding.blocking else f"{UPDATE_COMMAND} records this change"
    message = "\n".join(
        [
            f"{difference.path} ({difference.kind})",
            f"committed: {_side(difference, committed=True)}",
            f"live: {_side(difference, committed=False)}",
            f"defined: {difference.location or '(unknown)'}",
            f"fix: {fix}",
            finding.lines[0] if finding.lines else "",
        ]
    ).rstrip("\n")
    return Annotation(level, f"drift: {difference.path}", message, file, line, end)


def _impact_annotations(finding: Finding) -> Iterator[Annotation]:
    """A warning per corpus file whose ranks or composites move (not blocking: it follows
    from the changes annotated beside it)."""
    impact = finding.impact
    if impact is None:
        return
    for corpus in impact.corpus:
        agents = impact.of(corpus)
        moves = corpus in impact.corpus_changed or any(
            a.moved or a.delta or a.committed != a.live for a in agents
        )
        if moves:
            message = f"{corpus_summary(impact, corpus)}\nevery agent: python -m contracts impact"
            yield Annotation(Level.WARNING, f"impact on {corpus}", message, corpus)


def _finding_annotation(finding: Finding) -> Annotation:
    """The finding as one annotation, at the file (and line) its first line names."""
    text = finding.lines[0] if finding.lines else "(no message)"
    file, line, end = _where(text)
    if finding.file is not None:  # the check named the place itself
        file, line, end = finding.file, finding.line, finding.end_line or finding.line
        if line is not None:  # to the end of the statement that starts there
            end = max(end or line, line_range(file, line)[1])
    return Annotation(Level.ERROR, "contracts check", "\n".join(finding.lines), file, line, end)


def check_annotations(result: CheckResult) -> list[Annotation]:
    """One annotation per finding of the check: each listed difference at its definition
    (an error when it blocks, a warning when ``update`` is yet to record it), each other
    problem where it names, and a warning per corpus file the change moves."""
    found: list[Annotation] = []
    for finding in result.findings:
        listed = [d for d in finding.differences if not is_scoreboard(d)]
        if not (finding.blocking and listed):
            found.append(_finding_annotation(finding))
        found += [_difference_annotation(d, finding) for d in listed]
        found += _impact_annotations(finding)
    return found


# --- The step summary -------------------------------------------------------------------------


def cell(text: str) -> str:
    """Text for a Markdown table cell: one line, ``|`` escaped.

    >>> cell("a|b\\nc")
    'a\\\\|b c'
    """
    return " ".join(text.split()).replace("|", "\\|")


def code(text: str) -> str:
    """Text as a code span in a table cell (a run of backticks longer than any inside it).

    >>> code("0.3"), code("a`b")
    ('`0.3`', '`` a`b ``')
    """
    text = cell(text)
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    padded = f" {text} " if "`" in text else text
    return f"{fence}{padded}{fence}"


def _table(headers: list[str], rows: Iterable[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


def _places() -> int:
    from scoring.constants import SCORE_DECIMALS

    return SCORE_DECIMALS


def _number(value: float | int | None, places: int | None = None, sign: bool = False) -> str:
    if value is None:
        return "—"
    text = f"{value:.{places}f}" if places is not None else str(value)
    return f"+{text}" if sign and value > 0 else text


def _noise(value: Any) -> str:
    return "—" if value is None else ("yes" if value else "no")


def _largest(value: float | None, agents: Mapping[str, Any], places: int) -> str:
    """The largest |Δ composite| and the first agent whose composite moved by it."""
    if value is None:
        return "—"
    agent = next(
        (a for a in agents.values() if a["delta"] is not None and abs(a["delta"]) == value), None
    )
    if agent is None:
        return _number(value, places)
    before = _number(agent["committed"]["composite"], places)
    after = _number(agent["live"]["composite"], places)
    return f"{_number(value, places)} ({code(agent['agent_id'])}, {before} → {after})"


def impact_markdown(document: Mapping[str, Any]) -> list[str]:
    """The impact (the ``contracts impact --format json`` document) as Markdown: per corpus
    file its rank changes in a table, the largest change of composite and Kendall's τ-b;
    a column "within the noise" when the document marks rank changes so, and each pair of
    agents that changed order with the paired comparison of their composites."""
    places = _places()
    lines = [
        f"### Impact on the reference corpus (committed {document['committed_version']} → "
        f"live {document['live_version']})",
    ]
    agents = document["agents"]
    noise = any("within_noise" in a for a in agents)
    for corpus in document["corpus"]:
        summary = document["summary"][corpus]
        tau = document["kendall_tau"].get(corpus)
        mine = {a["agent_id"]: a for a in agents if a["corpus"] == corpus}
        lines += [
            "",
            f"#### `{corpus}`",
            "",
            f"- rank changes: {len(summary['rank_changed'])} of the {summary['agents']} agents",
            f"- largest change of composite: {_largest(summary['max_abs_delta'], mine, places)}",
            f"- Kendall's τ-b: {'undefined' if tau is None else f'{tau:.4f}'}",
        ]
        if corpus in document["corpus_changed"]:
            lines.append("- the corpus file itself changed")
        moved = [mine[agent] for agent in summary["rank_changed"]]
        if not moved:
            continue
        headers = ["agent", "rank was", "rank now", "places", "composite was", "now", "Δ"]
        rows = []
        for a in moved:
            before, after = a["committed"] or {}, a["live"] or {}
            row = [
                code(a["agent_id"]),
                _number(before.get("rank")),
                _number(after.get("rank")),
                _number(a["rank_change"], sign=True),
                _number(before.get("composite"), places),
                _number(after.get("composite"), places),
                _number(a["delta"], places, sign=True),
            ]
            if noise:
                row.append(_noise(a.get("within_noise")))
            rows.append(row)
        lines += ["", *_table(headers + (["within the noise"] if noise else []), rows)]
        pairs = _pair_lines(moved, places)
        if pairs:
            lines += ["", f"{PAIRS_TITLE}:", "", *(f"- {pair}" for pair in pairs)]
    return lines


def _pair_lines(moved: Iterable[Mapping[str, Any]], places: int) -> list[str]:
    """Each pair of agents that changed order, once (the first agent as the document lists
    it), as ``contracts impact`` says it: ``a − b = +1.50 [-0.80, 3.80] on 24 shared tasks:
    b ahead``, or why there is no comparison. Empty for a document without swaps (a
    release before the paired comparison)."""
    seen: set[frozenset[str]] = set()
    found = []
    for agent in moved:
        for swap in agent.get("swaps") or ():
            key = frozenset((agent["agent_id"], swap["partner"]))
            if key in seen:
                continue
            seen.add(key)
            names = f"{code(agent['agent_id'])} − {code(swap['partner'])}"
            interval = swap["interval"]
            if swap["verdict"] is None or interval is None or swap["difference"] is None:
                found.append(f"{names}: no paired comparison ({swap['reason']})")
                continue
            said = swap["verdict"] if swap["ahead"] is None else f"{code(swap['ahead'])} ahead"
            bounds = f"[{interval['low']:.{places}f}, {interval['high']:.{places}f}]"
            found.append(
                f"{names} = {_number(swap['difference'], places, sign=True)} {bounds} on "
                f"{swap['shared_tasks']} shared tasks: {said}"
            )
    return found


def _inline(text: str) -> str:
    """Text on one line, for a list item (a ``|`` needs no escape outside a table)."""
    return " ".join(text.split())


def _inline_code(text: str) -> str:
    """Text as a code span in a list item."""
    text = _inline(text)
    fence = "`" * (max((len(run) for run in re.findall("`+", text)), default=0) + 1)
    return f"{fence}{f' {text} ' if '`' in text else text}{fence}"


def report_markdown(report: Report) -> list[str]:
    """A report of differences as the check prints it, in Markdown: the causes, what follows
    from them (each group with its count and examples), the fix."""
    lines = [_inline(report.header), ""]
    causes = report.explanation.causes
    for number, cause in enumerate(causes, start=1):
        label = "Cause" if len(causes) == 1 else f"Cause {number} of {len(causes)}"
        lines.append(f"- **{label}:** {_inline(' '.join(cause.lines()))}")
    groups = report.explanation.groups
    if groups or report.explanation.extra:
        lines.append("- **What follows:**")
        for group in groups:
            head, *examples = group.lines()
            shown = f"{_inline(head)} {'; '.join(_inline_code(e) for e in examples)}"
            lines.append(f"  - {shown.rstrip()}")
        lines += [f"  - {_inline(line)}" for line in report.explanation.extra]
    lines.append(f"- **Fix:** {_inline(report.fix)}")
    return lines


def check_summary(result: CheckResult) -> str:
    """The step summary of the check: verdict, the causes of the differences and what
    follows from them (every difference folded away under them), other problems, impact."""
    lines = [f"## `{CHECK_COMMAND}`", "", result.summary or "contracts check: OK"]
    if result.ok:
        return "\n".join(lines) + "\n"
    for finding in result.findings:
        listed = [d for d in finding.differences if not is_scoreboard(d)]
        if not finding.differences:
            continue
        state = "fail the check" if finding.blocking else f"to be recorded by `{UPDATE_COMMAND}`"
        lines += ["", f"### Differences ({state})", ""]
        if finding.report is not None:
            lines += report_markdown(finding.report)
        else:
            lines.append(cell(finding.lines[0]))
        every = len(finding.differences)
        lines += ["", f"<details><summary>Every difference ({every})</summary>", ""]
        rows = [
            [
                code(d.path),
                d.kind,
                code(_side(d, committed=True)),
                code(_side(d, committed=False)),
                code(d.location) if d.location else "—",
            ]
            for d in listed
        ]
        lines += _table(["path", "kind", "committed", "live", "defined at"], rows)
        counted = len(finding.differences) - len(listed)
        if counted:
            lines += ["", f"and {counted} values of the reference corpus's scoreboard (below)."]
        lines += ["", "</details>"]
        if finding.impact is not None:
            lines += ["", *impact_markdown(impact_to_json(finding.impact))]
    others = [f for f in result.findings if not f.differences and f.shown()]
    if others:
        lines += ["", "### Other problems", ""]
        lines += [f"- {cell(' '.join(f.lines))}" for f in others]
    return "\n".join(lines) + "\n"


# --- The README check -------------------------------------------------------------------------

_README_PREFIX = "contracts readme: "


def _readme_block_end(file: str, line: int) -> int:
    """The end marker's line of the generated block that starts at ``file:line``."""
    from contracts.readme import parse_blocks

    try:
        text = (REPO_ROOT / file).read_text(encoding="utf-8")
        blocks = parse_blocks(text, file)
    except Exception:  # the check reported the file already; the line alone will do
        return line
    return next((b.end for b in blocks if b.start == line), line)


def readme_problems(result: ReadmeResult) -> list[str]:
    """The problem lines of the README check (its closing count and verdict left out)."""
    if result.ok:
        return []
    lines = list(result.lines)
    if result.exit_code == 1 and lines and not _LEADING_PATH.match(lines[-1]):
        lines = lines[:-1]  # "contracts readme: N problem(s)"
    return [line.removeprefix(_README_PREFIX) for line in lines]


def readme_annotations(result: ReadmeResult) -> list[Annotation]:
    """An error per README problem, at its line (a stale block: from marker to marker)."""
    found = []
    for problem in readme_problems(result):
        file, line, _ = _where(problem)
        end = line
        if file is not None and line is not None and "generated block" in problem:
            end = _readme_block_end(file, line)
        match = _LEADING_PATH.match(problem)
        message = problem[match.end() :] if match else problem
        found.append(Annotation(Level.ERROR, "contracts readme", message, file, line, end))
    return found


def readme_summary(result: ReadmeResult) -> str:
    """The step summary of the README check: its verdict and each problem at its line."""
    verdict = result.lines[-1] if result.lines else ""
    lines = [f"## `{README_COMMAND}`", "", cell(verdict)]
    problems = readme_problems(result)
    if problems:
        rows = []
        for problem in problems:
            match = _LEADING_PATH.match(problem)
            where = f"{match['file']}:{match['line']}" if match and match["line"] else "—"
            rows.append([code(where), cell(problem[match.end() :] if match else problem)])
        lines += ["", *_table(["where", "problem"], rows)]
    return "\n".join(lines) + "\n"


# --- For the command line ---------------------------------------------------------------------


def github_lines(result: CheckResult | ReadmeResult) -> list[str]:
    """The workflow commands for a result of ``check`` or ``readme``."""
    if isinstance(result, CheckResult):
        return [a.command() for a in check_annotations(result)]
    return [a.command() for a in readme_annotations(result)]


def summary_text(result: CheckResult | ReadmeResult) -> str:
    """The step summary for a result of ``check`` or ``readme``."""
    if isinstance(result, CheckResult):
        return check_summary(result)
    return readme_summary(result)
