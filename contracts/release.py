"""``python -m contracts release --note TEXT``: a writer's change of the methodology, released
in one command.

What CONTRIBUTING.md's "How to change a constant" did in eight steps, done at once on the
live code as it stands:

- the new version is the newest released one bumped (``--major``, ``--minor``, the
  default, or ``--patch``); ``METHODOLOGY_VERSION`` in ``scoring/constants.py`` is rewritten
  in place (its one string literal, found with :mod:`ast`; nothing else of the file moves);
- ``contracts/CHANGELOG.md`` gets the entry ``## <version> (<date>)``: the note, then the
  impact on the reference corpus as the check computes it
  (:func:`contracts.impact.suggested_entry`);
- the snapshot of the new version, the lock and the JSON Schemas are what ``contracts
  update`` writes (:mod:`contracts.update`), and the generated blocks of the README and
  CONTRIBUTING.md what ``contracts readme --update`` writes (:mod:`contracts.readme`);
- the coverage figures keep the version whose constants they were measured on
  (:mod:`contracts.coverage_record`): when the release changes one they depend on, it says
  so, and the uncertainty page marks them until the simulation measures them again.

It refuses, exit 2 and nothing written, when nothing changed since the newest release, when
the constants break an invariant (:mod:`contracts.check.invariants`), when a formula's code
disagrees with its LaTeX or a golden point sits where its curve is flat
(:func:`contracts.check.formulas.formula_problems`, as the update does), when
``METHODOLOGY_VERSION`` is not the newest released version, or when the history or the
README would not pass their checks afterwards.

Every file is computed before the first is written; they are then written one by one,
each atomically (:func:`contracts.filesystem.write_atomic`), the lock last, under the
update lock. Any failure on the way (an error, Ctrl-C, SIGTERM) puts back every file
already written, so a release is all or nothing.
"""

from __future__ import annotations

import ast
import contextlib
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from contracts.check.diff import Difference, diff_snapshots, is_scoreboard, render_value
from contracts.check.drift import build_live
from contracts.check.invariants import invariant_lines
from contracts.comparison import compare_snapshots
from contracts.filesystem import UPDATE_LOCK_WAIT_SECONDS, update_lock, write_atomic
from contracts.impact import suggested_entry, summary_lines
from contracts.model import Methodology
from contracts.release_order import order_problems
from contracts.result import UpdateResult
from contracts.source import REPO_ROOT, display_path
from contracts.store import (
    CHANGELOG_PATH,
    EXIT_UNUSABLE,
    LOCK_FILENAME,
    RELEASE_COMMAND,
    SNAPSHOT_DIR,
    ContractsError,
    Part,
    bumped,
    lock_entry,
    lock_text,
    parse_changelog,
    read_lock_entries,
    read_snapshot,
    schema_path,
    schema_text,
    snapshot_path,
    snapshot_text,
    version_key,
)

#: Every refusal exits 2: nothing was written, and the message says what to fix first.
EXIT_REFUSED = EXIT_UNUSABLE
#: The constant a release bumps, and the file that defines it.
VERSION_NAME = "METHODOLOGY_VERSION"
CONSTANTS_PATH: Path = REPO_ROOT / "scoring" / "constants.py"
#: How many changed names of one part of the snapshot the summary lists before counting.
_LISTED = 6


def with_assignment(source: str, name: str, value: str, path: str = "scoring/constants.py") -> str:
    """``source`` with the value of the module-level assignment ``name = ...`` (annotated or
    not) replaced by the Python expression ``value``; every other character stays.

    >>> with_assignment('A: int = 1  # one\\nB = "x"\\n', "B", '"y"')
    'A: int = 1  # one\\nB = "y"\\n'
    """
    for node in ast.parse(source).body:
        target: ast.expr | None = node.target if isinstance(node, ast.AnnAssign) else None
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        if not (isinstance(target, ast.Name) and target.id == name):
            continue
        expression = getattr(node, "value", None)
        if expression is None or expression.end_lineno is None:
            break
        lines = source.splitlines(keepends=True)
        offsets = [0]
        for line in lines:
            offsets.append(offsets[-1] + len(line))
        # ast columns count UTF-8 bytes: turn them into character offsets of their line.
        start = offsets[expression.lineno - 1] + _characters(
            lines[expression.lineno - 1], expression.col_offset
        )
        end = offsets[expression.end_lineno - 1] + _characters(
            lines[expression.end_lineno - 1], expression.end_col_offset or 0
        )
        return source[:start] + value + source[end:]
    raise ContractsError(f"{path}: no assignment of {name} found", exit_code=EXIT_REFUSED)


def _characters(line: str, byte_offset: int) -> int:
    return len(line.encode("utf-8")[:byte_offset].decode("utf-8"))


def with_version(live: Methodology, version: str) -> Methodology:
    """``live`` as the code builds it once ``METHODOLOGY_VERSION`` reads ``version``: the
    version is the only place the snapshot holds it (its field and its constant)."""
    constants = [
        entry.model_copy(update={"value": version})
        if entry.name == "methodology.version"
        else entry
        for entry in live.constants
    ]
    return live.model_copy(update={"methodology_version": version, "constants": constants})


def with_entry(changelog: str, entry: str) -> str:
    """``changelog`` with ``entry`` inserted above its first ``## `` section (newest first).

    >>> with_entry("# Log\\n\\n## 1.0.0 (2026-11-29)\\n\\nFirst.\\n", "## 1.1.0 (d)\\n\\nX.")
    '# Log\\n\\n## 1.1.0 (d)\\n\\nX.\\n\\n## 1.0.0 (2026-11-29)\\n\\nFirst.\\n'
    """
    lines = changelog.splitlines(keepends=True)
    at = next((i for i, line in enumerate(lines) if line.startswith("## ")), len(lines))
    block = entry.rstrip("\n") + "\n\n"
    return "".join([*lines[:at], block, *lines[at:]])


@dataclass(frozen=True, slots=True)
class Planned:
    """One file a release writes: where, its new text, and what the review line says."""

    path: Path
    text: str
    what: str


def _refused(message: str) -> UpdateResult:
    return UpdateResult(False, EXIT_REFUSED, [f"contracts release: REFUSED: {message}"])


def run_release(
    note: str,
    part: Part = Part.MINOR,
    *,
    today: date | None = None,
    snapshot_dir: Path | None = None,
    changelog_path: Path | None = None,
    constants_path: Path | None = None,
    documents: tuple[Path, ...] | None = None,
    coverage: tuple[Path, Path] | None = None,
    lock_wait_seconds: float = UPDATE_LOCK_WAIT_SECONDS,
) -> UpdateResult:
    """Release the live methodology as the next version (see the module's rules).

    Arguments default to the committed files; tests pass copies.
    """
    directory = SNAPSHOT_DIR if snapshot_dir is None else snapshot_dir
    changelog = CHANGELOG_PATH if changelog_path is None else changelog_path
    constants = CONSTANTS_PATH if constants_path is None else constants_path
    if not note.strip():
        return _refused("--note is empty; say what changed and why")
    broken = invariant_lines()
    if broken:
        return _refused("\n".join(broken))
    try:
        live = build_live()
        _refuse_broken_formulas()
        with update_lock(directory, lock_wait_seconds):
            base, new, plan, lines = _plan(
                note, part, today or date.today(), live, directory, changelog
            )
            plan.insert(0, _version_file(constants, new.methodology_version))
            plan += _documents(documents, new)
            found, said = _coverage(coverage, directory, new, base)
            plan += found
            lines[-1:-1] = said
            plan = _write_all(plan)
    except ContractsError as error:
        return _refused(str(error))
    written = [f"wrote {display_path(p.path)} ({p.what})" for p in plan]
    review = lines.pop()
    return UpdateResult(
        True,
        0,
        [*lines, *written, f"contracts release: OK; review the change: {review}"],
        [p.path for p in plan],
    )


def _refuse_broken_formulas() -> None:
    from contracts.check.formulas import formula_problems

    problems = formula_problems()
    if problems:
        count = f"{len(problems)} formula problem{'' if len(problems) == 1 else 's'}"
        raise ContractsError(
            f"{count}, nothing written:\n" + "\n".join(f"  {p.message}" for p in problems),
            exit_code=EXIT_REFUSED,
        )


def _plan(
    note: str, part: Part, today: date, live: Methodology, directory: Path, changelog_path: Path
) -> tuple[str, Methodology, list[Planned], list[str]]:
    """The version released after and the released methodology; the changelog, the
    snapshot, the schemas and the lock it writes (the constants file, the documents and the
    coverage record are added by the caller); and the lines that say what changed, the last
    one the review command."""
    released = read_lock_entries(directory / LOCK_FILENAME)
    if not released:
        raise ContractsError(
            f"{display_path(directory / LOCK_FILENAME)}: no released version to release after",
            exit_code=EXIT_REFUSED,
        )
    base = max(released, key=version_key)
    current = live.methodology_version
    if current != base:
        raise ContractsError(
            f"METHODOLOGY_VERSION is {current}, not the newest released version {base}: "
            f"{RELEASE_COMMAND} bumps it itself; set it back to {base} (or, for a version "
            "bumped by hand with its changelog entry, run python -m contracts update)",
            exit_code=EXIT_REFUSED,
        )
    committed = read_snapshot(snapshot_path(base, directory)).methodology
    if not diff_snapshots(committed, live):
        raise ContractsError(
            f"nothing to release: the live methodology equals the snapshot of {base} "
            f"({display_path(snapshot_path(base, directory))})",
            exit_code=EXIT_REFUSED,
        )
    version = bumped(base, part)
    new = with_version(live, version)
    impact = compare_snapshots(committed, new)
    entry = suggested_entry(impact, version, today, note=note.strip())
    old_log = changelog_path.read_text(encoding="utf-8")
    new_log = with_entry(old_log, entry)
    entries = parse_changelog(new_log, changelog_path)
    if list(entries)[:1] != [version] or entries[version].changes.count(note.strip()) != 1:
        raise ContractsError(
            f"the note would not stay one entry of {display_path(changelog_path)} (a line "
            "starting with '## ' in it starts another); reword it",
            exit_code=EXIT_REFUSED,
        )
    order = order_problems(entries, released, display_path(changelog_path), LOCK_FILENAME)
    if order:
        raise ContractsError("\n".join(order), exit_code=EXIT_REFUSED)
    snapshot = snapshot_path(version, directory)
    plan = [
        Planned(changelog_path, new_log, f"## {version} ({today.isoformat()})"),
        Planned(snapshot, snapshot_text(new), f"methodology {version}"),
    ]
    from contracts.output import OUTPUT_MODELS, output_schema_text

    schemas = [(schema_path(directory), schema_text())] + [
        (directory / name, output_schema_text(model)) for name, model in OUTPUT_MODELS.items()
    ]
    for path, text in schemas:
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            plan.append(Planned(path, text, "JSON Schema"))
    entry_of_new = lock_entry(new)
    plan.append(
        Planned(
            directory / LOCK_FILENAME,
            lock_text({**released, version: entry_of_new}),
            f"{version} recorded, sha256 {entry_of_new.sha256[:12]}…",
        )
    )
    lines = [f"contracts release: {base} → {version} ({part.value})"]
    lines += summary_of(committed, live)
    if impact is not None:
        lines += summary_lines(impact)
    review = (
        f"git diff; git diff --no-index {display_path(snapshot_path(base, directory))} "
        f"{display_path(snapshot)}"
    )
    return base, new, plan, [*lines, review]


def _version_file(constants: Path, version: str) -> Planned:
    """``scoring/constants.py`` with ``METHODOLOGY_VERSION`` set to ``version``."""
    source = constants.read_text(encoding="utf-8")
    shown = display_path(constants)
    text = with_assignment(source, VERSION_NAME, f'"{version}"', shown)
    if text.count(f'"{version}"') != source.count(f'"{version}"') + 1:
        raise ContractsError(f"{shown}: {VERSION_NAME} could not be set", exit_code=EXIT_REFUSED)
    return Planned(constants, text, f'{VERSION_NAME} = "{version}"')


def _coverage(
    paths: tuple[Path, Path] | None, directory: Path, new: Methodology, base: str
) -> tuple[list[Planned], list[str]]:
    """The record of the version whose constants the coverage figures were measured on
    (:mod:`contracts.coverage_record`), and what the release says of them: the constants
    they depend on that it changes, which the uncertainty page names beside the figures
    until the simulation measures them again."""
    from contracts.coverage_record import (
        FIGURES_PATH,
        RECORD_PATH,
        SIMULATE_COMMAND,
        changed_constants,
        figures_sha256,
        measured_version,
        read_record,
        record_text,
    )

    figures, record = paths if paths is not None else (FIGURES_PATH, RECORD_PATH)
    digest = figures_sha256(figures)
    measured = measured_version(base, read_record(record), digest)
    text = record_text(measured, digest)
    current = record.read_text(encoding="utf-8") if record.exists() else None
    plan = [Planned(record, text, f"figures measured on {measured}")] if text != current else []
    changed = changed_constants(read_snapshot(snapshot_path(measured, directory)).methodology, new)
    if not changed:
        return plan, []
    return plan, [
        f"coverage figures ({display_path(figures)}): measured on the constants of {measured}; "
        f"{new.methodology_version} changes {', '.join(changed)}, which they depend on: "
        f"docs/uncertainty.md says so beside them until {SIMULATE_COMMAND} measures them again"
    ]


def _documents(documents: tuple[Path, ...] | None, new: Methodology) -> list[Planned]:
    """The README and CONTRIBUTING.md with their generated blocks rendered from the
    released methodology; refused when their prose would fail ``contracts readme --check``."""
    from contracts.readme import DOCUMENTS, README_PATH, number_problems, render

    chosen = documents if documents is not None else DOCUMENTS
    planned: list[Planned] = []
    problems: list[str] = []
    for path in chosen:
        if not path.exists() and path != README_PATH:
            continue
        text = path.read_text(encoding="utf-8")
        fresh = render(text, new)
        problems += number_problems(fresh, new, display_path(path))
        if fresh != text:
            planned.append(Planned(path, fresh, "generated blocks"))
    if problems:
        raise ContractsError(
            "the README's prose would fail python -m contracts readme --check:\n"
            + "\n".join(f"  {p}" for p in problems),
            exit_code=EXIT_REFUSED,
        )
    return planned


def summary_of(committed: Methodology, live: Methodology) -> list[str]:
    """The differences from ``committed`` to ``live`` in a few lines: each changed constant
    with both values, then per part of the snapshot (formulas, golden points, examples, the
    scoreboard) how many entries changed, naming the first few."""
    differences = diff_snapshots(committed, live)
    lines = [
        f"changes since {committed.methodology_version} ({len(differences)} differences, "
        + ", ".join(
            f"{n} {kind}" for kind, n in sorted(Counter(d.kind for d in differences).items())
        )
        + "):"
    ]
    sections: dict[str, list[str]] = {}
    for difference in differences:
        section, name = _section(difference)
        names = sections.setdefault(section, [])
        if name not in names:
            names.append(name)
    for name in sections.pop("constants", []):
        before, after = (_constant_value(m, name) for m in (committed, live))
        lines.append(f"  constant {name}: {before} → {after}")
    for section, names in sections.items():
        shown = ", ".join(names[:_LISTED]) + (", …" if len(names) > _LISTED else "")
        lines.append(f"  {section}: {len(names)} changed ({shown})")
    return lines


def _constant_value(methodology: Methodology, name: str) -> str:
    try:
        return render_value(methodology.constant(name).value)
    except KeyError:
        return "(absent)"


def _section(difference: Difference) -> tuple[str, str]:
    """The part of the snapshot a difference is in, and the name of its entry there."""
    path = difference.path
    if is_scoreboard(difference):
        return "scoreboard", path.split("]", 1)[0].split("[", 1)[-1]
    head, _, rest = path.partition("[")
    if rest:
        return head, rest.split("]", 1)[0]
    return head.split(".", 1)[0], head


@contextlib.contextmanager
def _restoring(paths: list[Path]) -> Iterator[None]:
    """Put every file of ``paths`` back as it was (or remove it if it was absent) when the
    block is left by any exception, Ctrl-C included."""
    before = {path: path.read_text(encoding="utf-8") if path.exists() else None for path in paths}
    try:
        yield
    except BaseException:
        for path, text in before.items():
            with contextlib.suppress(OSError):
                if text is None:
                    path.unlink(missing_ok=True)
                elif path.read_text(encoding="utf-8") != text:
                    write_atomic(path, text)
        raise


def _write_all(plan: list[Planned]) -> list[Planned]:
    """Write every planned file, the lock last, all or nothing; the files in the order
    written."""
    lock = [p for p in plan if p.path.name == LOCK_FILENAME]
    ordered = [p for p in plan if p.path.name != LOCK_FILENAME] + lock
    with _restoring([p.path for p in ordered]):
        for planned in ordered:
            write_atomic(planned.path, planned.text)
    return ordered
