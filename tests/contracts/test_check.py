"""The drift check (in-process, on copies of the committed files) and the diff it reports."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from contract_builders import (
    VERSION,
    add_entry,
    bumped_to,
    check_text,
    edit_snapshot,
    line_of,
    with_constant,
)

import contracts.check.drift
import contracts.update
from contracts import store
from contracts.check.drift import (
    CheckResult,
    Difference,
    Kind,
    diff_snapshots,
    render_value,
    run_check,
)
from contracts.model import Methodology
from contracts.source import locate

# --- check -----------------------------------------------------------------------------------


def test_check_passes_on_the_committed_contracts() -> None:
    result = run_check()
    assert (result.ok, result.problems, result.exit_code) == (True, [], 0)
    assert result.lines() == ["contracts check: OK"]


def test_check_passes_on_a_copy(files: tuple[Path, Path], live: Methodology) -> None:
    snapshots, changelog = files
    assert run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog).ok


def test_check_names_each_drift_and_asks_for_a_bump(
    cost_drift: CheckResult, live: Methodology
) -> None:
    result = cost_drift
    assert (result.ok, result.exit_code) == (False, 1)
    [difference] = result.differences
    assert difference.path == "constants[composite.weight.cost].value"
    assert (difference.committed, difference.live) == (0.3, 0.25)
    weight = line_of(live, "composite.weight.cost")
    assert difference.location == f"scoring/constants.py:{weight}"
    # The cause first, then one fix: the advice to bump is said once, by the fix.
    assert result.problems[1] == (
        "cause: constant composite.weight.cost 0.3 → 0.25 (COMPOSITE_WEIGHT_COST, defined at "
        f"scoring/constants.py:{weight})"
    )
    [fix] = [line for line in result.problems if line.startswith("fix: ")]
    assert "python -m contracts release --note" in fix
    assert not any("is released and its snapshot is immutable" in p for p in result.problems)
    assert result.summary == (
        "contracts check: FAILED (1 cause and no differences that follow from it; exit 1)"
    )


def test_check_verbose_lists_every_difference_as_before(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    drifted = with_constant(live, "composite.weight.cost", 0.25)
    result = run_check(live=drifted, snapshot_dir=snapshots, changelog_path=changelog, verbose=True)
    assert "  constants[composite.weight.cost].value" in result.problems
    assert "      committed: 0.3" in result.problems
    assert any("is released and its snapshot is immutable" in line for line in result.problems)
    assert not any(line.startswith("cause") for line in result.problems)
    assert result.summary == "contracts check: FAILED (2 problems, exit 1)"


def test_check_on_a_bumped_version_lists_what_update_will_record(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    bumped = bumped_to(with_constant(live, "composite.weight.cost", 0.25), "2.0.0")
    text = check_text(run_check(live=bumped, snapshot_dir=snapshots, changelog_path=changelog))
    assert (
        "2.0.0.json: the snapshot of methodology version 2.0.0 is missing; run python -m "
        f"contracts update; it will record these changes since released version {VERSION}:\n"
        f'cause 1 of 2: constant methodology.version "{VERSION}" → "2.0.0" (METHODOLOGY_VERSION, '
    ) in text
    assert "\ncause 2 of 2: constant composite.weight.cost 0.3 → 0.25 (COMPOSITE_WEIGHT_" in text
    assert "\nfix: run python -m contracts update (with a changelog entry for 2.0.0)\n" in text
    assert "no entry for methodology version 2.0.0" in text
    assert text.endswith(
        "(2 causes and no differences that follow from them; 1 other problem; exit 1)"
    )
    verbose = run_check(live=bumped, snapshot_dir=snapshots, changelog_path=changelog, verbose=True)
    text = check_text(verbose)
    assert (
        f"changes since released version {VERSION} (3 differences), which python -m contracts "
        "update" in text
    )
    assert "  constants[composite.weight.cost].value" in text
    assert "  methodology_version" in text
    add_entry(changelog, "2.0.0")
    text = check_text(run_check(live=bumped, snapshot_dir=snapshots, changelog_path=changelog))
    assert "no entry for methodology version 2.0.0" not in text
    assert "is missing; run python -m contracts update" in text


def test_check_rejects_a_version_older_than_the_released_ones(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    result = run_check(
        live=bumped_to(live, "0.9.0"), snapshot_dir=snapshots, changelog_path=changelog
    )
    assert f"0.9.0 is older than the newest released version {VERSION}" in check_text(result)
    result = run_check(
        live=bumped_to(live, "1.0"), snapshot_dir=snapshots, changelog_path=changelog
    )
    assert "constants[methodology.version].value: methodology version '1.0' is not" in check_text(
        result
    )


def test_check_catches_an_edited_released_snapshot(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    path = snapshots / f"{VERSION}.json"
    edit_snapshot(path, ("examples", 0, "title"), "A nicer title")
    result = run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog)
    assert result.exit_code == 1
    # The edit is the cause: not the code, which the advice to bump would blame.
    assert result.problems[1:3] == [
        f"cause: {path} was edited by hand: its bytes are not those the lock records",
        "what follows from it:",
    ]
    assert (
        f"fix: restore the released snapshot: git checkout -- {path}, then run the check again"
        in (result.problems)
    )
    assert "bump" not in check_text(result)
    verbose = run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog, verbose=True)
    assert f"{path}: released snapshot was edited: its sha256" in check_text(verbose)
    assert [d.path for d in result.differences] == ["examples[composite.typical].title"]


def test_check_catches_a_missing_or_unrecorded_snapshot(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    shutil.copy2(snapshots / f"{VERSION}.json", snapshots / "0.5.0.json")
    (snapshots / f"{VERSION}.json").unlink()
    text = check_text(run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog))
    assert f"the snapshot of released version {VERSION} is missing; restore it" in text
    assert "0.5.0.json: version 0.5.0 is not recorded in released.json" in text


def test_check_catches_a_missing_changelog_entry(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    changelog.write_text("# Methodology changelog\n", encoding="utf-8")
    result = run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog)
    assert result.exit_code == 1
    assert f"{changelog}: no entry for released version {VERSION}; add a section" in check_text(
        result
    )


def test_check_catches_a_stale_or_missing_schema(
    files: tuple[Path, Path], live: Methodology
) -> None:
    snapshots, changelog = files
    schema = snapshots / store.SCHEMA_FILENAME
    schema.write_text("{}\n", encoding="utf-8")
    result = run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog)
    assert result.problems == [
        f"{schema}: the JSON Schema is stale (the snapshot model changed); "
        "run python -m contracts update"
    ]
    schema.unlink()
    result = run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog)
    assert result.problems == [
        f"{schema}: the JSON Schema is missing; run python -m contracts update"
    ]


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        (f"{VERSION}.json", '{"constants": [', "snapshot is not valid JSON (line 1, column 16"),
        (f"{VERSION}.json", '{"methodology_version": "1.0.0"}', "does not match the schema"),
        ("released.json", "not json", "lock is not valid JSON (line 1, column 1"),
        ("released.json", None, "lock of released versions is missing"),
        ("CHANGELOG.md", "## 1.0.0\n", "'## 1.0.0': a section heading must read"),
        ("CHANGELOG.md", None, "changelog is missing; restore it from git"),
    ],
)
def test_check_names_an_unusable_file_and_exits_2(
    files: tuple[Path, Path], live: Methodology, name: str, content: str | None, message: str
) -> None:
    snapshots, changelog = files
    path = changelog if name == "CHANGELOG.md" else snapshots / name
    if content is None:
        path.unlink()
    else:
        path.write_text(content, encoding="utf-8")
    result = run_check(live=live, snapshot_dir=snapshots, changelog_path=changelog)
    assert (result.ok, result.exit_code) == (False, 2)
    assert any(line.startswith(f"{path}") and message in line for line in result.problems)


def test_check_turns_a_broken_build_into_a_message(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> Methodology:
        return 1 // 0  # type: ignore[return-value]

    monkeypatch.setattr(contracts.check.drift, "build_snapshot", broken)
    result = run_check()
    assert result.exit_code == 2
    [problem] = result.problems
    assert problem.startswith("cannot build the live methodology from scoring at tests/")
    assert problem.endswith("ZeroDivisionError: integer division or modulo by zero")


# --- diff_snapshots --------------------------------------------------------------------------


def test_diff_of_a_snapshot_with_itself_is_empty(live: Methodology) -> None:
    assert diff_snapshots(live, live) == []


def test_diff_names_a_changed_constant_with_its_location(live: Methodology) -> None:
    changed = with_constant(live, "composite.weight.cost", 0.25)
    line = locate(live.constant("composite.weight.cost").defined_in)
    assert diff_snapshots(live, changed) == [
        Difference(
            "constants[composite.weight.cost].value",
            0.3,
            0.25,
            f"scoring/constants.py:{line}",
        )
    ]


def test_diff_descends_into_anchor_lists(live: Methodology) -> None:
    anchors = live.constant("composite.latency_anchors_ms").value
    edited = [dict(anchor) for anchor in anchors]
    edited[1]["score"] = 81
    changed = with_constant(live, "composite.latency_anchors_ms", edited)
    [difference] = diff_snapshots(live, changed)
    assert difference.path == "constants[composite.latency_anchors_ms].value[1].score"
    assert (difference.committed, difference.live) == (80, 81)


def test_diff_tells_an_int_from_a_float(live: Methodology) -> None:
    changed = with_constant(live, "rounding.score_decimals", 2.0)
    [difference] = diff_snapshots(live, changed)
    assert difference.path == "constants[rounding.score_decimals].value"


def test_diff_treats_an_exact_value_as_one_field(live: Methodology) -> None:
    target = next(g for g in live.golden if g.formula == "composite.latency_score")
    golden = [
        g.model_copy(update={"result": {"exact": "1/3", "approx": 1 / 3}}) if g is target else g
        for g in live.golden
    ]
    [difference] = diff_snapshots(live, live.model_copy(update={"golden": golden}))
    assert difference.path == f"golden[{target.name}].result"
    assert difference.committed == target.result
    line = locate(live.formula("composite.latency_score").defined_in)
    assert difference.location == f"scoring/formulas/curves.py:{line}"


def test_diff_reports_added_removed_and_reordered_entries(live: Methodology) -> None:
    first, second, *rest = live.examples
    renamed = first.model_copy(update={"name": "composite.renamed"})
    changed = live.model_copy(update={"examples": [second, renamed, *rest]})
    differences = diff_snapshots(live, changed)
    assert [(d.path, d.kind) for d in differences] == [
        ("examples[composite.typical]", Kind.REMOVED),
        ("examples[composite.renamed]", Kind.ADDED),
    ]
    reordered = live.model_copy(update={"examples": [second, first, *rest]})
    [order] = diff_snapshots(live, reordered)
    assert order.path == "examples[*].order"
    assert order.committed[:2] == [first.name, second.name]


def test_diff_of_a_top_level_field_points_at_its_constant(live: Methodology) -> None:
    changed = live.model_copy(update={"outcome_score_version": "v2"})
    [difference] = diff_snapshots(live, changed)
    line = locate(live.constant("outcome.version").defined_in)
    assert difference == Difference(
        "outcome_score_version", "v1", "v2", f"scoring/constants.py:{line}"
    )


def test_render_value_cuts_long_values() -> None:
    text = render_value(list(range(200)))
    assert len(text) == 160
    assert text.endswith("…")
