"""Mutation self-test of the drift check, on temporary copies of the project.

Each scenario copies ``scoring/``, ``contracts/`` and ``pyproject.toml`` to its own folder,
edits the copy, and runs ``python -m contracts check`` there as a subprocess (the copy
first on ``PYTHONPATH``). Every constant of ``scoring.constants`` is perturbed, a few to a
copy, and the failing check must name each as a cause of its own; a changed formula, an
edited released snapshot, a lost changelog entry and a corrupt file must fail; harmless
edits must pass. The scenarios run in parallel (one subprocess per core) in a module
fixture; each test reads its result.
"""

from __future__ import annotations

import ast
import json
import os
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

import pytest
from contract_builders import parse_python, python_in
from serving import copy_project

from contracts.source import REPO_ROOT, definitions
from scoring.constants import METHODOLOGY_VERSION, constants

# Dozens of subprocesses on copies of the project: as slow as building the site.
pytestmark = pytest.mark.slow

COPIED = ("scoring", "contracts", "pyproject.toml")
#: The snapshot of the current (newest released) version: the live code is checked against it.
SNAPSHOT = Path(f"contracts/snapshots/{METHODOLOGY_VERSION}.json")
CONSTANTS = tuple(constants())


@dataclass(frozen=True, slots=True)
class Run:
    """One command run in a copy."""

    args: tuple[str, ...]
    returncode: int
    output: str


def make_copy(root: Path) -> Path:
    """A copy of the project's code and contracts (no caches) at ``root``."""
    return copy_project(root, COPIED)


def run_in(root: Path, *args: str) -> Run:
    """``python ARGS`` in ``root`` with ``root`` first on the import path."""
    done = python_in(root, *args, timeout_s=120)
    return Run(args, done.returncode, done.stdout + done.stderr)


def check(root: Path) -> Run:
    """``python -m contracts check`` in ``root``."""
    return run_in(root, "-m", "contracts", "check")


def edit(root: Path, relative: str, change: Callable[[str], str]) -> None:
    """Rewrite one file of the copy; the change must change something."""
    path = root / relative
    before = path.read_text(encoding="utf-8")
    after = change(before)
    if after == before:
        raise ValueError(f"the edit of {relative} changed nothing")
    path.write_text(after, encoding="utf-8")


def replace_once(old: str, new: str) -> Callable[[str], str]:
    """An edit that replaces the single occurrence of ``old``."""

    def change(text: str) -> str:
        if text.count(old) != 1:
            raise ValueError(f"{old!r} occurs {text.count(old)} times, not once")
        return text.replace(old, new)

    return change


def perturbed_literal(value: object) -> str:
    """Source text of a literal changed a little: a number up by one step, a string
    extended. Decimal strings keep their order (0.40 → 0.401, 500 → 501), so curves stay
    increasing and every formula still computes."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise TypeError(f"no perturbation for {value!r}")
    if isinstance(value, int):
        return str(value + 1)
    try:
        number = Decimal(value)
    except InvalidOperation:
        return json.dumps(value + "x")
    text = f"{value}1" if "." in value else str(number + 1)
    return json.dumps(text)


def perturb_constant(source: str, python_name: str) -> str:
    """``source`` with the first literal in the value of ``python_name``'s assignment
    changed (see :func:`perturbed_literal`); the annotation and its Meta are left alone."""
    tree = parse_python(source)
    for node in tree.body:
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and node.target.id == python_name
            and node.value is not None
        ):
            literals = [
                n
                for n in ast.walk(node.value)
                if isinstance(n, ast.Constant) and isinstance(n.value, int | str)
            ]
            first = min(literals, key=lambda n: (n.lineno, n.col_offset))
            lines = source.splitlines(keepends=True)
            line = lines[first.lineno - 1]
            start, end = first.col_offset, first.end_col_offset
            lines[first.lineno - 1] = line[:start] + perturbed_literal(first.value) + line[end:]
            return "".join(lines)
    raise LookupError(f"no annotated assignment of {python_name} in scoring/constants.py")


# --- Scenarios -------------------------------------------------------------------------------


Edit = tuple[str, Callable[[str], str]]  # (a file of the copy, the change to its text)


def _edits_then_check(*edits: Edit) -> Callable[[Path], list[Run]]:
    """A scenario: make the edits in the copy, then run the check once."""

    def scenario(root: Path) -> list[Run]:
        for relative, change in edits:
            edit(root, relative, change)
        return [check(root)]

    return scenario


def _constant_perturbed(python_name: str) -> Edit:
    return "scoring/constants.py", lambda text: perturb_constant(text, python_name)


def _probe(root: Path) -> list[Run]:
    code = "import contracts, scoring; print(scoring.__file__); print(contracts.__file__)"
    return [run_in(root, "-c", code), check(root)]


def _success_weight_045(text: str) -> str:
    """The committed snapshot with the success weight changed, re-serialised as written."""
    data = json.loads(text)
    for entry in data["constants"]:
        if entry["name"] == "composite.weight.success":
            entry["value"] = 0.45
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _drop_changelog_1_0_0(text: str) -> str:
    return re.sub(r"^## 1\.0\.0 \(.*?(?=^## |\Z)", "", text, flags=re.M | re.S)


def _bump_flow(root: Path) -> list[Run]:
    """The writer's workflow: change a constant, see the check fail, bump, log, update."""
    runs: list[Run] = []
    cost = """Meta(
        "composite.weight.cost",
        "fraction",
        "Weight of the cost score in the headline composite.",
    ),
] = Decimal("0.30")"""
    edit(root, "scoring/constants.py", replace_once(cost, cost.replace("0.30", "0.25")))
    edit(root, "scoring/constants.py", replace_once('] = Decimal("0.40")', '] = Decimal("0.45")'))
    runs.append(check(root))
    runs.append(run_in(root, "-m", "contracts", "update"))
    edit(root, "scoring/constants.py", replace_once(f'] = "{METHODOLOGY_VERSION}"', '] = "2.0.0"'))
    runs.append(check(root))
    runs.append(run_in(root, "-m", "contracts", "update"))
    edit(
        root,
        "contracts/CHANGELOG.md",
        replace_once(
            f"\n## {METHODOLOGY_VERSION} (",
            "\n## 2.0.0 (2099-12-31)\n\nCost weight 0.30 → 0.25, success 0.40 → 0.45.\n"
            f"\n## {METHODOLOGY_VERSION} (",
        ),
    )
    runs.append(run_in(root, "-m", "contracts", "update"))
    runs.append(check(root))
    return runs


#: Constants perturbed together in one copy: the check names every changed constant as a
#: cause of its own, so a few to a copy prove what one to a copy would, with a fraction of the
#: checks (each is a process of about half a second). The version alone: a version that is
#: not one any more is reported before any cause.
CONSTANTS_A_COPY = 4
_VERSION = "METHODOLOGY_VERSION"
_OTHERS = [c.python_name for c in CONSTANTS if c.python_name != _VERSION]
CONSTANT_GROUPS = [
    (_VERSION,),
    *(tuple(_OTHERS[i : i + CONSTANTS_A_COPY]) for i in range(0, len(_OTHERS), CONSTANTS_A_COPY)),
]
#: The scenario that perturbs each constant.
PERTURBED_IN = {name: f"constants:{','.join(g)}" for g in CONSTANT_GROUPS for name in g}


SCENARIOS: dict[str, Callable[[Path], list[Run]]] = {
    **{
        f"constants:{','.join(group)}": _edits_then_check(
            *(_constant_perturbed(name) for name in group)
        )
        for group in CONSTANT_GROUPS
    },
    "probe": _probe,
    "latency_anchor": _edits_then_check(
        ("scoring/constants.py", replace_once('("2000", "80")', '("2500", "80")'))
    ),
    "edited_snapshot": _edits_then_check((str(SNAPSHOT), _success_weight_045)),
    "formula": _edits_then_check(
        (
            "scoring/formulas/composite.py",
            replace_once(
                "return 1 - 4 * rate * (1 - rate)",
                "return 1 - 2 * rate * (1 - rate)",
            ),
        )
    ),
    "no_changelog_entry": _edits_then_check(("contracts/CHANGELOG.md", _drop_changelog_1_0_0)),
    "corrupt_snapshot": _edits_then_check((str(SNAPSHOT), lambda text: text[: len(text) // 2])),
    "corrupt_lock": _edits_then_check(
        ("contracts/snapshots/released.json", lambda text: text.replace("{", "[", 1))
    ),
    "stale_schema": _edits_then_check(
        (
            "contracts/snapshots/methodology.schema.json",
            replace_once('"title": "Methodology snapshot file"', '"title": "Old title"'),
        )
    ),
    "harmless_comment": _edits_then_check(
        ("scoring/constants.py", lambda text: "# A harmless comment.\n" + text)
    ),
    "harmless_reformat": _edits_then_check(
        (
            "scoring/formulas/composite.py",
            replace_once(
                "    return 1 - 4 * rate * (1 - rate)\n",
                "    # Spelled out on three lines: the same value.\n"
                "    return (\n        1\n        - 4 * rate * (1 - rate)\n    )\n",
            ),
        ),
        (
            "scoring/formulas/curves.py",
            lambda text: text.replace("\n\n\n@formula(", "\n\n\n\n@formula("),
        ),
    ),
    "bump_flow": _bump_flow,
}


Results = dict[str, tuple[Path, list[Run]]]


@pytest.fixture(scope="module")
def results(tmp_path_factory: pytest.TempPathFactory) -> Results:
    """Every scenario, run in parallel, each in its own copy; a scenario that could not be
    set up records its error, raised again by the tests that read it."""
    base = tmp_path_factory.mktemp("mutations")

    def run(name: str) -> tuple[str, tuple[Path, list[Run]] | Exception]:
        root = make_copy(base / re.sub(r"\W", "_", name))
        try:
            return name, (root, SCENARIOS[name](root))
        except Exception as error:
            return name, error

    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        return dict(pool.map(run, SCENARIOS))


def _get(results: Results, name: str) -> tuple[Path, list[Run]]:
    outcome = results[name]
    if isinstance(outcome, Exception):
        raise outcome
    return outcome


def _only(results: Results, name: str) -> Run:
    [single] = _get(results, name)[1]
    return single


# --- Tests -----------------------------------------------------------------------------------


def test_every_constant_is_covered() -> None:
    assert len(CONSTANTS) >= 31
    source = (REPO_ROOT / "scoring/constants.py").read_text(encoding="utf-8")
    for info in CONSTANTS:
        assert perturb_constant(source, info.python_name) != source


def test_the_copy_is_what_the_subprocess_imports(results: Results) -> None:
    root, (probe, baseline) = _get(results, "probe")
    scoring_file, contracts_file = probe.output.split()
    assert scoring_file.startswith(str(root)), scoring_file
    assert contracts_file.startswith(str(root)), contracts_file
    assert (baseline.returncode, baseline.output) == (0, "contracts check: OK\n")


#: The check's report of differences: a cause line, a group's count, its last line.
_CAUSE = re.compile(r"^cause(?: \d+ of \d+)?: (?P<text>.*)$", re.M)
_GROUP = re.compile(r"^  [a-z][^:]*: (?P<count>\d+) differences?\b", re.M)
_SUMMARY = re.compile(
    r"^contracts check: FAILED \((?P<causes>\d+) causes? and (?P<following>\d+|no) "
    r"differences? that follows? from (?:it|them)(?P<others>; \d+ other problems?)?; exit 1\)$",
    re.M,
)


def report_counts(output: str) -> tuple[list[str], int, int]:
    """The cause lines of the check's output, the sum of its groups' counts and the count of
    differences its summary line gives."""
    summary = _SUMMARY.search(output)
    assert summary is not None, output
    following = 0 if summary["following"] == "no" else int(summary["following"])
    listed = sum(int(group["count"]) for group in _GROUP.finditer(output))
    causes = [cause["text"] for cause in _CAUSE.finditer(output)]
    assert len(causes) == int(summary["causes"]), output
    return causes, listed, following


def defined_line(python_name: str) -> int:
    """The line where ``python_name`` is defined in the (unedited) scoring/constants.py."""
    return definitions(REPO_ROOT / "scoring" / "constants.py")[python_name].first


@pytest.mark.parametrize("info", CONSTANTS, ids=lambda info: info.meta.name)
def test_perturbing_a_constant_fails_and_names_it(results: Results, info: object) -> None:
    run = _only(results, PERTURBED_IN[info.python_name])
    assert run.returncode == 1, run.output
    assert "Traceback" not in run.output
    if info.meta.name == "methodology.version":  # not a version any more: said as such
        assert f"constants[{info.meta.name}].value: methodology version " in run.output
        return
    causes, listed, following = report_counts(run.output)
    # Its own cause: the constant's name and, exactly, its Python name (INTERVAL_Z is not
    # INTERVAL_Z_POWER) where it is defined.
    own = [
        cause
        for cause in causes
        if cause.startswith(f"constant {info.meta.name}")
        and f"({info.python_name}, defined at scoring/constants.py:" in cause
    ]
    assert len(own) == 1, run.output
    assert listed == following


def test_every_constant_is_perturbed_in_exactly_one_copy() -> None:
    perturbed = [name for group in CONSTANT_GROUPS for name in group]
    assert sorted(perturbed) == sorted(c.python_name for c in CONSTANTS)
    assert len(CONSTANT_GROUPS) < len(CONSTANTS)  # grouped: fewer checks than constants


def test_one_changed_anchor_is_one_cause_in_a_few_lines(results: Results) -> None:
    """The 2000 ms anchor of the latency curve moved to 2500: one cause, on the second line
    (the first says what was compared), what follows counted, one fix, in at most 25 lines."""
    run = _only(results, "latency_anchor")
    assert run.returncode == 1, run.output
    lines = run.output.splitlines()
    assert len(lines) <= 25, run.output
    line = defined_line("LATENCY_ANCHORS_MS")
    assert lines[:2] == [
        f"{SNAPSHOT}: the live methodology differs from released version {METHODOLOGY_VERSION}:",
        "cause: constant composite.latency_anchors_ms[1].x 2000 → 2500 (LATENCY_ANCHORS_MS, "
        f"defined at scoring/constants.py:{line})",
    ]
    assert len([line for line in lines if line.startswith("fix: ")]) == 1
    assert "fix: " not in run.output.replace("\nfix: ", "\n", 1)  # the old per-path fixes
    causes, listed, following = report_counts(run.output)
    assert (len(causes), listed) == (1, following)
    for group in ("golden evaluations", "worked examples", "scoreboard of the reference corpus"):
        assert f"\n  {group}: " in run.output, run.output


COMPOSITE_PY = REPO_ROOT / "scoring" / "formulas" / "composite.py"


def test_a_changed_formula_fails(results: Results) -> None:
    run = _only(results, "formula")
    assert run.returncode == 1, run.output
    causes, listed, following = report_counts(run.output)
    assert causes == [
        "formula composite.outcome_consistency gives other results at 2 golden points with "
        "the same inputs: its code changed (defined at scoring/formulas/composite.py:"
        f"{definitions(COMPOSITE_PY)['outcome_consistency'].first})"
    ]
    assert listed == following
    assert "      composite.outcome_consistency@p=1/4,n=5 result: 0.25 → 0.625" in run.output
    assert "  worked examples: " in run.output
    assert "constants[" not in run.output


def test_an_edited_released_snapshot_fails(results: Results) -> None:
    run = _only(results, "edited_snapshot")
    assert run.returncode == 1, run.output
    causes, listed, following = report_counts(run.output)
    assert causes == [f"{SNAPSHOT} was edited by hand: its bytes are not those the lock records"]
    assert "      composite.weight.success value: 0.45 → 0.4\n" in run.output
    assert f"fix: restore the released snapshot: git checkout -- {SNAPSHOT}," in run.output
    assert (listed, following) == (1, 1)


def test_a_missing_changelog_entry_fails(results: Results) -> None:
    run = _only(results, "no_changelog_entry")
    assert run.returncode == 1, run.output
    assert "contracts/CHANGELOG.md: no entry for released version 1.0.0" in run.output


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("corrupt_snapshot", f"{SNAPSHOT}: snapshot is not valid JSON (line "),
        ("corrupt_lock", "contracts/snapshots/released.json: lock is not valid JSON (line 2"),
    ],
)
def test_a_corrupt_file_is_named_without_a_traceback(
    results: Results, name: str, message: str
) -> None:
    run = _only(results, name)
    assert run.returncode == 2, run.output
    assert message in run.output
    assert "Traceback" not in run.output


def test_a_stale_schema_fails(results: Results) -> None:
    run = _only(results, "stale_schema")
    assert run.returncode == 1, run.output
    assert "methodology.schema.json: the JSON Schema is stale" in run.output


@pytest.mark.parametrize("name", ["harmless_comment", "harmless_reformat"])
def test_a_harmless_edit_passes(results: Results, name: str) -> None:
    run = _only(results, name)
    assert (run.returncode, run.output) == (0, "contracts check: OK\n")


def test_the_bump_workflow(results: Results) -> None:
    root, runs = _get(results, "bump_flow")
    drift, refused, missing, no_entry, update, passed = runs
    assert drift.returncode == 1
    # Two weights changed (so that they still sum to 1): two causes, the rest counted.
    causes, listed, following = report_counts(drift.output)
    assert [cause.split(" (")[0] for cause in causes] == [
        "constant composite.weight.success 0.4 → 0.45",
        "constant composite.weight.cost 0.3 → 0.25",
    ]
    assert listed == following > 0
    assert len(drift.output.splitlines()) <= 25, drift.output
    assert refused.returncode == 1
    assert f"contracts update: REFUSED: version {METHODOLOGY_VERSION} is released" in refused.output
    assert missing.returncode == 1
    assert "contracts/snapshots/2.0.0.json: the snapshot of methodology version 2.0.0 is " in (
        missing.output
    )
    assert "no entry for methodology version 2.0.0" in missing.output
    assert no_entry.returncode == 1
    assert "REFUSED: contracts/CHANGELOG.md: no entry for methodology version 2.0.0" in (
        no_entry.output
    )
    assert update.returncode == 0, update.output
    assert "wrote contracts/snapshots/2.0.0.json (methodology 2.0.0)" in update.output
    assert (passed.returncode, passed.output) == (0, "contracts check: OK\n")
    assert (root / SNAPSHOT).read_bytes() == (REPO_ROOT / SNAPSHOT).read_bytes()
    lock = json.loads((root / "contracts/snapshots/released.json").read_text(encoding="utf-8"))
    released = json.loads((REPO_ROOT / "contracts/snapshots/released.json").read_text())
    assert list(lock["released"]) == [*released["released"], "2.0.0"]
