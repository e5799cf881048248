"""A broken invariant, made in a copy of the code, stops every path that would use it.

Each scenario edits ``scoring/constants.py`` in its own copy of the project (with the
methodology version bumped and a changelog entry added, so that ``contracts update`` would
otherwise record a new version), then runs there: ``scoring report`` and ``scoring outcome``
(exit 2, the constant and its line on stderr, nothing on stdout), ``contracts check``
(exit 1, the same named) and ``contracts update`` (refused, nothing written). A same-value
refactor passes all four. The site of a broken copy shows the error in place of the numbers.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from contract_builders import constant_set, curve_source, parse_python, python_in, set_constant
from serving import copy_project

import scoring.constants as C  # noqa: N812 - the module of constants
from contracts import store
from contracts.source import REPO_ROOT
from scoring.examples import EXAMPLES
from scoring.numeric import number_text

pytestmark = pytest.mark.slow

COPIED = ("scoring", "contracts", "pyproject.toml")
CONSTANTS = "scoring/constants.py"
NEW_VERSION = "9.0.0"
#: One outcome record, as the outcome worked examples write them.
OUTCOME_RECORD = dict(next(e for e in EXAMPLES if e.name.startswith("outcome.")).inputs["record"])


def _replace(old: str, new: str) -> Callable[[str], str]:
    def change(text: str) -> str:
        assert text.count(old) == 1, f"{old!r} occurs {text.count(old)} times"
        return text.replace(old, new)

    return change


def _set(name: str, expression: str) -> Callable[[str], str]:
    """Give the constant ``name`` the value ``expression`` (Python source), by its name."""
    return lambda text: constant_set(text, name, expression)


def _shown(value: Decimal | Fraction) -> str:
    return number_text(value, as_written=True)


# The scenarios' values, made from the live constants so that each breaks (or keeps) its
# rule whatever they are now.
_SUCCESS = C.COMPOSITE_WEIGHT_SUCCESS
_PAST_ONE = _SUCCESS + Decimal("0.10")
_WEIGHTS = (_PAST_ONE, C.COMPOSITE_WEIGHT_RELIABILITY, C.COMPOSITE_WEIGHT_COST)
_OFF_SCALE = C.SCORE_SCALE + C.SCORE_SCALE / 2
_HALF_FULL_USD = C.RADAR_COST_FULL_USD / 2
_SAME_SUCCESS = Fraction(_SUCCESS)


def _after_definition(name: str, addition: str) -> Callable[[str], str]:
    """Insert ``addition`` after the definition of ``name``."""

    def change(text: str) -> str:
        for node in parse_python(text).body:
            if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == name:
                lines = text.splitlines(keepends=True)
                end = node.end_lineno or node.lineno
                return "".join([*lines[:end], addition, *lines[end:]])
        raise KeyError(name)

    return change


@dataclass(frozen=True, slots=True)
class Scenario:
    """One edit of the constants, and the constant the refusal must name (``None``: the
    edit is harmless and everything passes)."""

    name: str
    change: Callable[[str], str]
    constant: str | None
    says: str = ""


SCENARIOS = (
    Scenario(
        "composite weight negative",
        _set("COMPOSITE_WEIGHT_SUCCESS", f'Decimal("-{_shown(_SUCCESS)}")'),
        "COMPOSITE_WEIGHT_SUCCESS",
        f"is -{_shown(_SUCCESS)}, outside [0, 1]",
    ),
    Scenario(
        "composite weights summing past 1",
        _set("COMPOSITE_WEIGHT_SUCCESS", f'Decimal("{_shown(_PAST_ONE)}")'),
        "COMPOSITE_WEIGHT_SUCCESS",
        f"sum to {' + '.join(_shown(w) for w in _WEIGHTS)} = {_shown(sum(_WEIGHTS))}, not 1",
    ),
    Scenario(
        "a latency anchor scoring past the scale",
        _set(
            "LATENCY_ANCHORS_MS",
            curve_source(
                [(C.LATENCY_ANCHORS_MS[0].x, _shown(_OFF_SCALE))]
                + [(a.x, a.score) for a in C.LATENCY_ANCHORS_MS[1:]]
            ),
        ),
        "LATENCY_ANCHORS_MS",
        f"scores {_shown(_OFF_SCALE)}, outside the scale [0, {_shown(C.SCORE_SCALE)}]",
    ),
    Scenario(
        "two constants with one stable name",
        _replace('"composite.weight.cost",', '"composite.weight.reliability",'),
        "COMPOSITE_WEIGHT_COST",
        "already the name of COMPOSITE_WEIGHT_RELIABILITY",
    ),
    Scenario(
        "a public constant without Meta",
        _after_definition("CONSISTENCY_MIN_RUNS", "\nRETRY_BUDGET_RUNS = 3\n"),
        "RETRY_BUDGET_RUNS",
        "is a public constant without a Meta",
    ),
    Scenario(
        "the cost axis's zero-score median below its full-score median",
        _set("RADAR_COST_ZERO_USD", f'Decimal("{_shown(_HALF_FULL_USD)}")'),
        "RADAR_COST_ZERO_USD",
        f"is {_shown(_HALF_FULL_USD)}, outside ({_shown(C.RADAR_COST_FULL_USD)}, ∞]",
    ),
    Scenario(
        "a same-value refactor and a comment",
        lambda text: _set(
            "COMPOSITE_WEIGHT_SUCCESS",
            f"Decimal({_SAME_SUCCESS.numerator}) / Decimal({_SAME_SUCCESS.denominator})",
        )(text.replace("# --- Headline composite", "# The composite (a comment).\n\n# ---", 1)),
        None,
    ),
)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What the four commands did in one copy."""

    root: Path
    runs: dict[str, tuple[int, str, str]]
    before: dict[str, bytes]
    after: dict[str, bytes]


def _snapshot_files(root: Path) -> dict[str, bytes]:
    folder = root / "contracts" / "snapshots"
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def _bump(root: Path) -> None:
    """Bump the copy's version and log it, so that an update would write a new snapshot."""
    set_constant(root, "METHODOLOGY_VERSION", f'"{NEW_VERSION}"')
    changelog = root / "contracts" / "CHANGELOG.md"
    log = changelog.read_text(encoding="utf-8")
    first = log.index("\n## ")
    entry = f"\n## {NEW_VERSION} (2099-12-31)\n\nA test release.\n"
    changelog.write_text(log[:first] + entry + log[first:], encoding="utf-8")


def _run_scenario(scenario: Scenario, root: Path) -> Outcome:
    copy_project(root, COPIED)
    path = root / CONSTANTS
    path.write_text(scenario.change(path.read_text(encoding="utf-8")), encoding="utf-8")
    _bump(root)
    records = root / "records.jsonl"
    records.write_text(json.dumps(OUTCOME_RECORD) + "\n", encoding="utf-8")
    before = _snapshot_files(root)
    corpus = sorted((root / "contracts" / "corpus").glob("*.jsonl"))[0]
    commands = {
        "report": ("-m", "scoring", "report", str(corpus)),
        "outcome": ("-m", "scoring", "outcome", str(records)),
        "check": ("-m", "contracts", "check"),
        "update": ("-m", "contracts", "update"),
    }
    runs = {}
    for key, args in commands.items():
        done = python_in(root, *args, timeout_s=300)
        runs[key] = (done.returncode, done.stdout, done.stderr)
    return Outcome(root, runs, before, _snapshot_files(root))


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    base = tmp_path_factory.mktemp("invariants")
    with ThreadPoolExecutor(max_workers=2) as pool:
        futures = {
            s.name: pool.submit(_run_scenario, s, base / f"copy{i}")
            for i, s in enumerate(SCENARIOS)
        }
        return {name: future.result() for name, future in futures.items()}


def _line_in_copy(root: Path, name: str) -> int:
    for node in parse_python((root / CONSTANTS).read_text(encoding="utf-8")).body:
        targets = [node.target] if isinstance(node, ast.AnnAssign) else []
        targets += node.targets if isinstance(node, ast.Assign) else []
        if any(getattr(t, "id", None) == name for t in targets):
            return node.lineno
    raise KeyError(name)


BROKEN = [s for s in SCENARIOS if s.constant is not None]


@dataclass(frozen=True, slots=True)
class Broken:
    """A scenario that breaks a constant, and what the four commands did in its copy."""

    scenario: Scenario
    outcome: Outcome

    def named(self) -> str:
        """How a failure names the broken constant: its file and line in the copy, then it."""
        line = _line_in_copy(self.outcome.root, self.scenario.constant or "")
        return f"{CONSTANTS}:{line}: {self.scenario.constant}: "

    def refused(self, command: str) -> str:
        """What the contracts ``command`` printed (stdout and stderr); it must have exited 1."""
        status, stdout, stderr = self.outcome.runs[command]
        assert status == 1, stdout + stderr
        return stdout + stderr


@pytest.fixture(params=BROKEN, ids=[s.name for s in BROKEN])
def broken(request: pytest.FixtureRequest, outcomes: dict[str, Outcome]) -> Broken:
    """Each scenario of :data:`BROKEN` with its outcome."""
    return Broken(request.param, outcomes[request.param.name])


@pytest.mark.parametrize("command", ["report", "outcome"])
def test_scoring_stops_naming_the_constant_and_its_line(broken: Broken, command: str) -> None:
    status, stdout, stderr = broken.outcome.runs[command]
    assert status == 2, stderr
    assert stdout == ""
    assert f"scoring {command}: the methodology is broken, not the input: " in stderr
    assert "the methodology breaks its own invariants" in stderr
    assert broken.named() in stderr
    assert broken.scenario.says in stderr
    assert "cannot write the output" not in stderr
    assert "Traceback" not in stderr


def test_the_check_fails_naming_the_constant(broken: Broken) -> None:
    text = broken.refused("check")
    assert "the live constants break the methodology's invariants" in text
    assert broken.named() in text
    assert broken.scenario.says in text


def test_the_update_refuses_and_writes_nothing(broken: Broken) -> None:
    text = broken.refused("update")
    assert "contracts update: REFUSED: " in text
    assert f"{broken.scenario.constant}: " in text
    root = broken.outcome.root
    assert broken.outcome.after == broken.outcome.before
    assert not (root / "contracts" / "snapshots" / f"{NEW_VERSION}.json").exists()


def test_a_same_value_refactor_passes_everywhere(outcomes: dict[str, Outcome]) -> None:
    outcome = outcomes["a same-value refactor and a comment"]
    for command in ("report", "outcome"):
        status, stdout, stderr = outcome.runs[command]
        assert (status, stderr) == (0, ""), command
        assert stdout
    status, stdout, stderr = outcome.runs["update"]
    assert status == 0, stdout + stderr
    written = store.read_lock(outcome.root / "contracts" / "snapshots" / store.LOCK_FILENAME)
    assert NEW_VERSION in written
    # The check of the copy before its update fails only for the unrecorded new version.
    status, stdout, stderr = outcome.runs["check"]
    assert "invariants" not in stdout + stderr


def test_the_scenarios_cover_every_case_of_the_issue() -> None:
    """A composite weight below 0, weights summing past 1, a latency anchor scoring past
    the scale, two constants with one stable name, a public constant without Meta, and one
    more."""
    assert len(BROKEN) >= 6
    assert REPO_ROOT.is_dir()
