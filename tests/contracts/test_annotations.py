"""The GitHub style of ``contracts check`` and ``contracts readme --check``: workflow
commands parsed back (level, file, lines, message) as the runner reads them, and the step
summary's tables checked against the impact JSON.

The parser here is written from GitHub's rules for workflow commands, not from
:mod:`contracts.annotations`: ``::LEVEL key=value,…::MESSAGE``, where a message carries
``%25``, ``%0D``, ``%0A`` for ``%``, CR, LF and a property value also ``%3A``, ``%2C`` for
``:`` and ``,``.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from contract_builders import add_entry, bumped_to, python_in, with_constant
from forked_python import run_python
from serving import copy_project

from contracts import annotations, store, workflow_commands
from contracts.build import REPO_ROOT
from contracts.check.drift import Finding, run_check
from contracts.model import Methodology
from contracts.result import CheckResult, ReadmeResult

# Out of the fast lane: how the check speaks to GitHub (annotations, the step summary), each
# case a check of a copy in a subprocess; the check itself stays there (test_check.py).
pytestmark = pytest.mark.slow

COPIED = ("scoring", "contracts", "pyproject.toml", "README.md")
_COMMAND = re.compile(r"::(?P<level>[a-z]+)(?: (?P<properties>[^:]*))?::(?P<message>.*)")


@dataclass(frozen=True)
class Parsed:
    level: str
    properties: dict[str, str]
    message: str

    @property
    def file(self) -> str | None:
        return self.properties.get("file")

    def lines(self) -> tuple[int, int] | None:
        if "line" not in self.properties:
            return None
        first = int(self.properties["line"])
        return first, int(self.properties.get("endLine", first))


def _unescape_message(text: str) -> str:
    # %25 last: "%250A" is a literal "%0A", not a line break.
    return text.replace("%0D", "\r").replace("%0A", "\n").replace("%25", "%")


def _unescape_property(text: str) -> str:
    for escaped, plain in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ",")):
        text = text.replace(escaped, plain)
    return text.replace("%25", "%")


def parse_commands(output: str) -> list[Parsed]:
    """Every workflow command in ``output`` (other lines are the plain text)."""
    found = []
    for line in output.splitlines():
        match = _COMMAND.fullmatch(line)
        if not match:
            assert not line.startswith("::"), f"malformed workflow command: {line!r}"
            continue
        properties = {}
        for pair in (match["properties"] or "").split(","):
            if pair:
                key, _, value = pair.partition("=")
                properties[key] = _unescape_property(value)
        found.append(Parsed(match["level"], properties, _unescape_message(match["message"])))
    return found


def run_github(
    root: Path, *args: str, summary: Path | None = None, actions: bool = True
) -> subprocess.CompletedProcess[str]:
    """``python -m contracts ARGS`` in the copy ``root``, as a GitHub Actions step runs it
    (``GITHUB_ACTIONS=true``, a step summary file) or, ``actions=False``, outside one."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GITHUB_")}
    env.update(PYTHONPATH=str(root), PYTHONDONTWRITEBYTECODE="1")
    if actions:
        env["GITHUB_ACTIONS"] = "true"
    if summary is not None:
        env["GITHUB_STEP_SUMMARY"] = str(summary)
    return run_python(["-m", "contracts", *args], cwd=root, env=env, timeout=300)


#: The version a copy is released as when its code drifts from the committed snapshot (the
#: methodology between two releases): the tests start from a copy whose check passes.
SCRATCH_VERSION = "99.0.0"


def released_copy(root: Path) -> Path:
    """A copy of the project whose ``contracts check`` passes: as it is, or, when the code
    has moved on from the newest release (as between two releases), with that code
    released as :data:`SCRATCH_VERSION` in the copy."""
    copy_project(root, COPIED)
    if run_github(root, "check", actions=False).returncode == 0:
        return root
    constants = root / "scoring" / "constants.py"
    source = constants.read_text(encoding="utf-8")
    _, last = _definition_lines(source, "METHODOLOGY_VERSION")
    lines = source.splitlines(keepends=True)
    lines[last - 1] = f'] = "{SCRATCH_VERSION}"\n'
    constants.write_text("".join(lines), encoding="utf-8")
    add_entry(root / "contracts" / "CHANGELOG.md", SCRATCH_VERSION)
    for args in (("update",), ("readme", "--update"), ("check",)):
        done = run_github(root, *args, actions=False)
        assert done.returncode == 0, f"{args}: {done.stdout}{done.stderr}"
    return root


def _definition_lines(source: str, python_name: str) -> tuple[int, int]:
    """First and last line of ``NAME: Annotated[...] = value`` in ``source``, by reading it."""
    lines = source.splitlines()
    first = next(i for i, line in enumerate(lines, 1) if line.startswith(f"{python_name}:"))
    last = next(i for i, line in enumerate(lines[first - 1 :], first) if line.startswith("] = "))
    return first, last


# --- Escaping ---------------------------------------------------------------------------------


def test_escapes_round_trip_and_cannot_start_a_second_command() -> None:
    message = "100% sure\r\nline two ::error::injected %0A literal"
    title = "a:b,c %25 d\ne"
    command = workflow_commands.Annotation(
        workflow_commands.Level.ERROR, title, message, "dir,x/a:b.py", 3, 4
    ).command()
    assert "\n" not in command
    assert "\r" not in command
    (parsed,) = parse_commands(command)
    assert parsed.level == "error"
    assert parsed.message == message
    assert parsed.properties == {
        "file": "dir,x/a:b.py",
        "line": "3",
        "endLine": "4",
        "title": title,
    }


# --- The drift check on a spoiled copy ---------------------------------------------------------


@pytest.fixture(scope="module")
def spoiled(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A copy whose success weight moved from 0.40 to 0.45 (and the cost weight from 0.30 to
    0.25, so that the weights still sum to 1: the invariants hold), checked as a GitHub step,
    with the impact JSON of the same copy."""
    root = released_copy(tmp_path_factory.mktemp("spoiled"))
    constants = root / "scoring" / "constants.py"
    source = constants.read_text(encoding="utf-8")
    first, last = _definition_lines(source, "COMPOSITE_WEIGHT_SUCCESS")
    lines = source.splitlines(keepends=True)
    assert lines[last - 1] == '] = Decimal("0.40")\n'
    lines[last - 1] = '] = Decimal("0.45")\n'
    _, cost_last = _definition_lines(source, "COMPOSITE_WEIGHT_COST")
    assert lines[cost_last - 1] == '] = Decimal("0.30")\n'
    lines[cost_last - 1] = '] = Decimal("0.25")\n'
    constants.write_text("".join(lines), encoding="utf-8")
    summary = root / "summary.md"
    done = run_github(root, "check", "--format", "github", summary=summary)
    verbose = run_github(root, "check", "--verbose", actions=False)
    impact = python_in(root, "-m", "contracts", "impact", "--format", "json", timeout_s=300)
    assert impact.returncode == 0, impact.stderr
    return {
        "done": done,
        "verbose": verbose,
        "range": (first, last),
        "summary": summary.read_text(encoding="utf-8"),
        "impact": json.loads(impact.stdout),
    }


def _listed_paths(text: str) -> list[str]:
    """The difference paths the plain text of ``check --verbose`` lists (a path line, then
    its committed value)."""
    lines = text.splitlines()
    return [
        line.strip()
        for line, after in itertools.pairwise(lines)
        if line.startswith("  ") and not line.startswith("   ") and "committed:" in after
    ]


def test_spoiled_copy_one_error_per_difference_at_its_lines(spoiled: dict[str, Any]) -> None:
    done = spoiled["done"]
    assert done.returncode == 1, done.stderr
    commands = parse_commands(done.stdout)
    errors = [c for c in commands if c.level == "error"]
    drift = [c for c in errors if c.properties["title"].startswith("drift: ")]
    # The plain text says the causes; the annotations are every difference, as --verbose
    # lists them.
    assert _listed_paths(done.stderr) == []
    listed = _listed_paths(spoiled["verbose"].stderr)
    assert listed, spoiled["verbose"].stderr
    assert [c.properties["title"].removeprefix("drift: ") for c in drift] == listed

    weight = next(c for c in drift if "constants[composite.weight.success].value" in c.message)
    assert weight.file == "scoring/constants.py"
    assert weight.lines() == spoiled["range"]
    assert "committed: 0.4\n" in weight.message
    assert "live: 0.45\n" in weight.message

    # Every other listed difference points into the file and lines it names as "defined".
    for command in drift:
        defined = re.search(r"defined: (\S+):(\d+)", command.message)
        assert defined, command.message
        span = command.lines()
        assert command.file == defined[1]
        assert span is not None
        assert span[0] <= int(defined[2]) <= span[1]

    # The other finding: the released version must be bumped, at METHODOLOGY_VERSION.
    (bump,) = [c for c in errors if c not in drift]
    assert bump.file == "scoring/constants.py"
    assert "METHODOLOGY_VERSION" in bump.message
    # The impact is a warning per corpus file it moves, not an error.
    warnings = [c for c in commands if c.level == "warning"]
    assert warnings
    assert all(c.file and c.file.startswith("contracts/corpus/") for c in warnings)


def _tables(markdown: str) -> dict[str, list[dict[str, str]]]:
    """Each Markdown table of ``markdown`` under the last ``####`` heading before it."""
    tables: dict[str, list[dict[str, str]]] = {}
    heading, header = "", None
    for line in markdown.splitlines():
        if line.startswith("#"):
            heading, header = line.lstrip("# ").strip("`"), None
        elif line.startswith("|") and header is None:
            header = [c.strip() for c in line.strip("|").split("|")]
            tables[heading] = []
        elif line.startswith("|---"):
            continue
        elif line.startswith("|") and header is not None:
            cells = [c.strip().strip("`") for c in line.strip("|").split(" | ")]
            tables[heading].append(dict(zip(header, cells, strict=True)))
        else:
            header = None
    return tables


def _bullets(markdown: str, corpus: str) -> dict[str, str]:
    section = markdown.split(f"#### `{corpus}`", 1)[1].split("\n#", 1)[0]
    found = re.findall(r"^- ([^:]+): (.*)$", section, flags=re.MULTILINE)
    return dict(found)


def test_step_summary_matches_the_impact_json(spoiled: dict[str, Any]) -> None:
    summary, impact = spoiled["summary"], spoiled["impact"]
    assert isinstance(summary, str)
    assert isinstance(impact, dict)
    assert "contracts check: FAILED" in summary
    tables = _tables(summary)
    differences = next(rows for name, rows in tables.items() if name.startswith("Differences"))
    weight = next(
        r for r in differences if r["path"] == "constants[composite.weight.success].value"
    )
    assert (weight["committed"], weight["live"]) == ("0.4", "0.45")

    moved_somewhere = False
    for corpus in impact["corpus"]:
        expected = impact["summary"][corpus]
        bullets = _bullets(summary, corpus)
        assert bullets["rank changes"].startswith(f"{len(expected['rank_changed'])} of ")
        largest = bullets["largest change of composite"].split()[0]
        if expected["max_abs_delta"] is None:  # no composite on either side (1.3.0)
            assert largest == "—"
        else:
            assert float(largest) == pytest.approx(expected["max_abs_delta"], abs=1e-9)
        tau = impact["kendall_tau"][corpus]
        shown = bullets["Kendall's τ-b"]
        assert (
            (shown == "undefined") if tau is None else float(shown) == pytest.approx(tau, abs=5e-5)
        )
        rows = tables.get(corpus, [])
        assert [r["agent"] for r in rows] == expected["rank_changed"]
        agents = {a["agent_id"]: a for a in impact["agents"] if a["corpus"] == corpus}
        for row in rows:
            agent = agents[row["agent"]]
            moved_somewhere = True
            assert int(row["rank was"]) == agent["committed"]["rank"]
            assert int(row["rank now"]) == agent["live"]["rank"]
            assert int(row["places"]) == agent["rank_change"]
            assert float(row["composite was"]) == agent["committed"]["composite"]
            assert float(row["now"]) == agent["live"]["composite"]
            assert float(row["Δ"]) == pytest.approx(agent["delta"], abs=1e-9)
    assert moved_somewhere, "the spoiled weight should move a rank in the reference corpus"


def test_within_the_noise_is_shown_when_the_impact_json_carries_it(
    spoiled: dict[str, Any],
) -> None:
    impact = json.loads(json.dumps(spoiled["impact"]))
    # The live impact carries the field (from 1.1.0): the column is there.
    assert all("within_noise" in a for a in impact["agents"])
    assert "within the noise" in "\n".join(annotations.impact_markdown(impact))
    # An impact without it (a release before the intervals): no column.
    stripped = json.loads(json.dumps(impact))
    for agent in stripped["agents"]:
        del agent["within_noise"]
        agent["swaps"] = []  # nor the paired comparisons of 1.2.0
    assert "within the noise" not in "\n".join(annotations.impact_markdown(stripped))
    marks = {}
    for index, agent in enumerate(a for a in impact["agents"] if a["rank_change"]):
        agent["within_noise"] = [True, False, None][index % 3]
        marks[agent["agent_id"]] = ["yes", "no", "—"][index % 3]
    tables = _tables("\n".join(annotations.impact_markdown(impact)))
    rows = [row for rows in tables.values() for row in rows]
    assert rows
    assert {r["agent"]: r["within the noise"] for r in rows} == marks


def test_each_swapped_pair_is_listed_once_with_its_paired_verdict(
    spoiled: dict[str, Any],
) -> None:
    """The summary lists every pair of agents that changed order, once, with the difference
    of their composites, its interval and the verdict of the document's swap."""
    impact = json.loads(json.dumps(spoiled["impact"]))
    markdown = "\n".join(annotations.impact_markdown(impact))
    pairs = {
        frozenset((a["agent_id"], s["partner"])): s for a in impact["agents"] for s in a["swaps"]
    }
    assert pairs, "the spoiled weight should swap a pair in the reference corpus"
    listed = [line for line in markdown.splitlines() if line.startswith("- `") and " − " in line]
    assert len(listed) == len(pairs)
    for line in listed:
        a, b = re.findall(r"`([^`]+)`", line)[:2]
        swap = pairs[frozenset((a, b))]
        if swap["verdict"] is None:
            assert f"no paired comparison ({swap['reason']})" in line
            continue
        assert f"on {swap['shared_tasks']} shared tasks" in line
        assert line.endswith(f"`{swap['ahead']}` ahead" if swap["ahead"] else swap["verdict"])
    # The numbers come from the document: a shared-task count changed there changes the line.
    for a in impact["agents"]:
        for swap in a["swaps"]:
            swap["shared_tasks"] = (swap["shared_tasks"] or 0) + 1
    assert "\n".join(annotations.impact_markdown(impact)) != markdown
    # Without swaps (a release before the paired comparison) there is no list.
    for a in impact["agents"]:
        a["swaps"] = []
    assert " shared tasks: " not in "\n".join(annotations.impact_markdown(impact))


def test_harmless_edit_and_plain_text_outside_github(tmp_path: Path) -> None:
    root = released_copy(tmp_path / "copy")
    constants = root / "scoring" / "constants.py"
    text = constants.read_text(encoding="utf-8")
    constants.write_text(text.replace("\n\n", "\n\n# a harmless comment\n", 1), encoding="utf-8")
    summary = tmp_path / "summary.md"
    done = run_github(root, "check", summary=summary)  # no --format: GITHUB_ACTIONS says so
    assert done.returncode == 0, done.stderr
    assert parse_commands(done.stdout) == []
    assert "contracts check: OK" in summary.read_text(encoding="utf-8")

    plain = run_github(root, "check", summary=tmp_path / "unused.md", actions=False)
    assert (plain.returncode, plain.stdout) == (0, "contracts check: OK\n")
    assert not (tmp_path / "unused.md").exists()


def test_spoiled_copy_text_and_summary_say_the_two_causes(spoiled: dict[str, Any]) -> None:
    """The text before the annotations, and the step summary, group the differences as the
    check does outside GitHub: the two weights are the causes, the rest is counted."""
    text = spoiled["done"].stderr.splitlines()
    assert text[1].startswith("cause 1 of 2: constant composite.weight.success 0.4 → 0.45 (")
    assert text[2].startswith("cause 2 of 2: constant composite.weight.cost 0.3 → 0.25 (")
    assert len([line for line in text if line.startswith("fix: ")]) == 1
    assert len(text) <= 25, "\n".join(text)
    summary = spoiled["summary"]
    assert "- **Cause 1 of 2:** constant composite.weight.success 0.4 → 0.45 (" in summary
    assert "- **Cause 2 of 2:** constant composite.weight.cost 0.3 → 0.25 (" in summary
    assert "  - golden evaluations: " in summary
    assert summary.count("- **Fix:** ") == 1
    # Every difference is still there, folded away under the causes.
    every = re.search(r"<summary>Every difference \((\d+)\)</summary>", summary)
    assert every is not None
    assert int(every[1]) == len(_listed_paths(spoiled["verbose"].stderr)) + int(
        re.search(r"scoreboard of the reference corpus: (\d+) differences", summary)[1]  # type: ignore[index]
    )


# --- In process: what is not blocking, and the README ------------------------------------------


def test_changes_to_be_recorded_are_warnings(live: Methodology, files: tuple[Path, Path]) -> None:
    """A bumped version without its snapshot: the missing snapshot is the error; the
    changes since the release, which ``update`` will record, are warnings at their lines."""
    snapshots, changelog = files
    add_entry(changelog, "9.0.0")
    edited = bumped_to(with_constant(live, "composite.weight.cost", 0.35), "9.0.0")
    result = run_check(live=edited, snapshot_dir=snapshots, changelog_path=changelog)
    found = annotations.check_annotations(result)
    errors = [a for a in found if a.level is workflow_commands.Level.ERROR]
    assert [a.file for a in errors] == [store.display_path(snapshots / "9.0.0.json")]
    cost = next(a for a in found if a.title == "drift: constants[composite.weight.cost].value")
    assert cost.level is workflow_commands.Level.WARNING
    assert cost.file == "scoring/constants.py"
    assert "committed: 0.3\n" in cost.message
    assert "live: 0.35\n" in cost.message


def test_readme_problems_at_their_lines(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "copy", COPIED)
    readme = root / "README.md"
    text = readme.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    start = next(i for i, line in enumerate(lines, 1) if "contracts readme: scores" in line)
    end = next(i for i, line in enumerate(lines[start:], start + 1) if "end generated" in line)
    stale = next(i for i in range(start, end) if "success" in lines[i])
    lines[stale] = lines[stale].replace("success", "succes", 1)
    prose = next(i for i, line in enumerate(lines, 1) if line.startswith("Every constant"))
    lines[prose - 1] = "Seven hundred agents. " + lines[prose - 1]
    readme.write_text("".join(lines), encoding="utf-8")

    done = run_github(root, "readme", "--check", "--format", "github", summary=tmp_path / "s.md")
    assert done.returncode == 1, done.stderr
    by_line = {c.lines(): c for c in parse_commands(done.stdout)}
    assert set(by_line) == {(start, end), (prose, prose)}
    assert all(c.level == "error" and c.file == "README.md" for c in by_line.values())
    assert "stale" in by_line[start, end].message
    summary = (tmp_path / "s.md").read_text(encoding="utf-8")
    where = [row["where"] for row in _tables(summary)["python -m contracts readme --check"]]
    assert where == [f"README.md:{start}", f"README.md:{prose}"]


def test_readme_ok_has_no_annotation() -> None:
    result = ReadmeResult(True, 0, ["contracts readme: OK; 7 generated blocks up to date"])
    assert annotations.readme_annotations(result) == []
    assert "contracts readme: OK" in annotations.readme_summary(result)


def test_live_code_that_cannot_be_imported_is_annotated_at_its_line(tmp_path: Path) -> None:
    root = copy_project(tmp_path / "copy", COPIED)
    constants = root / "scoring" / "constants.py"
    lines = constants.read_text(encoding="utf-8").splitlines(keepends=True)
    broken = next(i for i, line in enumerate(lines, 1) if line.startswith("COMPOSITE_WEIGHT_COST"))
    lines[broken - 1] = "COMPOSITE_WEIGHT_COST: Annotated[ = (\n"
    constants.write_text("".join(lines), encoding="utf-8")
    with pytest.raises(SyntaxError) as raised:
        compile("".join(lines), str(constants), "exec")
    reported = raised.value.lineno  # where Python places the error, at or after the edit
    assert reported is not None
    assert reported >= broken
    for args in (("check",), ("readme", "--check")):
        done = run_github(root, *args)
        assert done.returncode == 2, done.stderr
        (command,) = parse_commands(done.stdout)
        assert command.level == "error"
        assert command.file == "scoring/constants.py"
        assert command.lines() == (reported, reported)
        assert "cannot import the live methodology" in command.message


def test_a_finding_that_names_its_place_is_annotated_there() -> None:
    named = Finding(1, ("contracts/CHANGELOG.md: a problem",), file="contracts/CHANGELOG.md")
    ranged = Finding(1, ("somewhere: a problem",), file="scoring/constants.py", line=3, end_line=5)
    source = (REPO_ROOT / "scoring" / "constants.py").read_text(encoding="utf-8")
    first, last = _definition_lines(source, "COMPOSITE_WEIGHT_SUCCESS")
    told = Finding(2, (f"constants[x].value: bad (defined at scoring/constants.py:{first})",))
    result = CheckResult(False, 2, [], [], "contracts check: FAILED", [named, ranged, told])
    found = [(a.file, a.line, a.end_line) for a in annotations.check_annotations(result)]
    assert found[:2] == [("contracts/CHANGELOG.md", None, None), ("scoring/constants.py", 3, 5)]
    # Read from the message: the statement that starts at that line, to its last line.
    assert found[2] == ("scoring/constants.py", first, last)
