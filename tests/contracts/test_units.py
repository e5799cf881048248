"""Unit tests of the contracts building blocks: values, locations, the diff, the files."""

from __future__ import annotations

import json
import os
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from types import MappingProxyType

import pytest

import scoring.constants as C  # noqa: N812
from contracts import store
from contracts.build import REPO_ROOT, build_snapshot, exact_value, locate, to_json_value
from contracts.check import Difference, Kind, diff_snapshots, example_location, render_value
from contracts.model import Location, Methodology, SnapshotFile
from contracts.store import ContractsError, parse_changelog


@pytest.fixture(scope="module")
def live() -> Methodology:
    return build_snapshot()


def _with_constant(snapshot: Methodology, name: str, value: object) -> Methodology:
    constants = [
        entry.model_copy(update={"value": value}) if entry.name == name else entry
        for entry in snapshot.constants
    ]
    return snapshot.model_copy(update={"constants": constants})


# --- exact_value and to_json_value -----------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "exact"),
    [
        (Fraction(0), "0"),
        (Fraction(1), "1"),
        (Fraction(-3, 4), "-0.75"),
        (Fraction(1, 8), "0.125"),
        (Fraction(561, 10), "56.1"),
        (Fraction(100), "100"),
        (Fraction(2500), "2500"),
        (Fraction(1, 3), "1/3"),
        (Fraction(202, 3), "202/3"),
        (Fraction(1, 1024), "0.0009765625"),
        (Fraction(7, 6), "7/6"),
    ],
)
def test_exact_value_is_a_terminating_decimal_or_a_ratio(value: Fraction, exact: str) -> None:
    result = exact_value(value)
    assert result.exact == exact
    assert result.approx == float(value)
    assert Fraction(result.exact) == value


def test_to_json_value_covers_every_constant_type() -> None:
    assert to_json_value(Decimal("0.40")) == 0.4
    assert to_json_value(Decimal("100")) == 100
    assert isinstance(to_json_value(Decimal("100")), int)
    assert to_json_value(True) is True
    assert to_json_value(None) is None
    assert to_json_value("v1") == "v1"
    assert to_json_value(C.Axis.COST) == "cost"
    assert to_json_value(Fraction(2, 3)) == {"exact": "2/3", "approx": 2 / 3}
    assert to_json_value((1, 3, 5)) == [1, 3, 5]
    assert to_json_value(C.Anchor(Decimal("0.010"), Decimal("80"))) == {"x": 0.01, "score": 80}
    weights = MappingProxyType({C.Axis.COST: Decimal("0.20")})
    assert to_json_value(weights) == {"cost": 0.2}
    with pytest.raises(TypeError, match="no JSON form for complex"):
        to_json_value(1j)


def test_every_constant_round_trips_through_json(live: Methodology) -> None:
    for entry in live.constants:
        assert json.loads(json.dumps(entry.value)) == entry.value


# --- locate and example_location -------------------------------------------------------------


def test_locate_finds_the_assignment_line_of_every_constant(live: Methodology) -> None:
    lines = (REPO_ROOT / "scoring/constants.py").read_text(encoding="utf-8").splitlines()
    for entry in live.constants:
        line = locate(entry.defined_in)
        assert lines[line - 1].startswith(f"{entry.python_name}:"), entry.name


def test_locate_finds_the_decorator_line_of_every_formula(live: Methodology) -> None:
    for entry in live.formulas:
        line = locate(entry.defined_in)
        text = (REPO_ROOT / entry.defined_in.file).read_text(encoding="utf-8").splitlines()
        assert text[line - 1].startswith("@formula("), entry.name
        assert f'"{entry.name}"' in "\n".join(text[line - 1 : line + 1])


def test_locate_returns_zero_for_an_unknown_symbol_or_file() -> None:
    assert locate(Location(file="scoring/constants.py", symbol="NO_SUCH_NAME")) == 0
    assert locate(Location(file="scoring/missing.py", symbol="X")) == 0


def test_example_location_points_at_the_example_name() -> None:
    where = example_location("composite.typical")
    assert where is not None
    file, line = where.split(":")
    text = (REPO_ROOT / file).read_text(encoding="utf-8").splitlines()
    assert '"composite.typical"' in text[int(line) - 1]
    assert example_location("no.such.example") is None


# --- diff_snapshots --------------------------------------------------------------------------


def test_diff_of_a_snapshot_with_itself_is_empty(live: Methodology) -> None:
    assert diff_snapshots(live, live) == []


def test_diff_names_a_changed_constant_with_its_location(live: Methodology) -> None:
    changed = _with_constant(live, "composite.weight.cost", 0.25)
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
    changed = _with_constant(live, "composite.latency_anchors_ms", edited)
    [difference] = diff_snapshots(live, changed)
    assert difference.path == "constants[composite.latency_anchors_ms].value[1].score"
    assert (difference.committed, difference.live) == (80, 81)


def test_diff_tells_an_int_from_a_float(live: Methodology) -> None:
    changed = _with_constant(live, "rounding.score_decimals", 2.0)
    [difference] = diff_snapshots(live, changed)
    assert difference.path == "constants[rounding.score_decimals].value"


def test_diff_treats_an_exact_value_as_one_field(live: Methodology) -> None:
    golden = [
        g.model_copy(update={"result": {"exact": "1/3", "approx": 1 / 3}})
        if g.name == "composite.latency_score@2000"
        else g
        for g in live.golden
    ]
    [difference] = diff_snapshots(live, live.model_copy(update={"golden": golden}))
    assert difference.path == "golden[composite.latency_score@2000].result"
    assert difference.committed == {"exact": "80", "approx": 80.0}
    line = locate(live.formula("composite.latency_score").defined_in)
    assert difference.location == f"scoring/curves.py:{line}"


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


# --- files -----------------------------------------------------------------------------------


def test_version_key_rejects_anything_but_major_minor_patch() -> None:
    assert store.version_key("1.10.0") > store.version_key("1.9.3")
    for bad in ("1.0", "1.0.0-rc1", "v1.0.0", "01.0.0", ""):
        with pytest.raises(ValueError, match=r"MAJOR\.MINOR\.PATCH"):
            store.version_key(bad)


def test_parse_changelog_reads_entries_and_skips_fenced_headings() -> None:
    text = (
        "# Log\n\npreamble\n\n## 1.1.0 (2026-12-01)\n\nNew.\n\n### Detail\n\n```\n## not a"
        " heading\n```\n\n## 1.0.0 (2026-11-29)\n\nFirst.\n"
    )
    entries = parse_changelog(text, Path("CHANGELOG.md"))
    assert list(entries) == ["1.1.0", "1.0.0"]
    assert entries["1.1.0"].changes == "New.\n\n### Detail\n\n```\n## not a heading\n```"
    assert entries["1.0.0"].line == 15


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("## Unreleased\n\nx\n", r"CHANGELOG.md:1: '## Unreleased': a section heading must read"),
        ("## 1.0 (2026-11-29)\n\nx\n", r"CHANGELOG.md:1: .*MAJOR.MINOR.PATCH"),
        ("## 1.0.0 (2026-13-01)\n\nx\n", r"CHANGELOG.md:1: '2026-13-01' is not a date"),
        ("## 1.0.0 (2026-11-29)\n\n\n", r"CHANGELOG.md:1: the entry for 1.0.0 is empty"),
        (
            "## 1.0.0 (2026-11-29)\nx\n## 1.0.0 (2026-11-30)\ny\n",
            r"CHANGELOG.md:3: a second entry for 1.0.0 \(the first is on line 1\)",
        ),
    ],
)
def test_parse_changelog_names_the_line_and_the_rule(text: str, message: str) -> None:
    with pytest.raises(ContractsError, match=message):
        parse_changelog(text, Path("CHANGELOG.md"))


def test_committed_files_have_the_documented_form() -> None:
    for path in store.SNAPSHOT_DIR.glob("*.json"):
        text = path.read_text(encoding="utf-8")
        assert text.endswith("}\n"), path
        first = (
            '  "$comment": "Generated by' if path == store.SCHEMA_PATH else '  "_generated": "by'
        )
        assert text.splitlines()[1].startswith(first), path
    snapshot = store.snapshot_path("1.0.0").read_text(encoding="utf-8")
    assert snapshot == store.snapshot_text(
        store.read_snapshot(store.snapshot_path("1.0.0")).methodology
    )
    assert store.SCHEMA_PATH.read_text(encoding="utf-8") == store.schema_text()


def test_lock_records_the_hash_of_the_canonical_content() -> None:
    lock = store.read_lock()
    read = store.read_snapshot(store.snapshot_path("1.0.0"))
    assert (
        lock["1.0.0"] == read.sha256 == store.content_hash(store.snapshot_content(read.methodology))
    )


def test_schema_describes_the_snapshot_file() -> None:
    schema = json.loads(store.SCHEMA_PATH.read_text(encoding="utf-8"))
    assert schema["$schema"].endswith("2020-12/schema")
    assert schema["properties"]["_generated"]["default"] == store.GENERATED_NOTE
    assert set(schema["required"]) >= {"methodology_version", "constants", "golden"}
    file = json.loads(store.snapshot_path("1.0.0").read_text(encoding="utf-8"))
    SnapshotFile.model_validate(file)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", r"released.json: lock is not valid JSON \(line 1, column 1"),
        ("[]", r"released.json: lock must be"),
        ('{"released": {"1.0": "' + "a" * 64 + '"}}', r"'1.0' is not a MAJOR.MINOR.PATCH"),
        ('{"released": {"1.0.0": "abc"}}', r"the hash of 1.0.0 must be 64 lowercase hex"),
    ],
)
def test_read_lock_names_the_file_and_the_rule(tmp_path: Path, text: str, message: str) -> None:
    lock = tmp_path / "released.json"
    lock.write_text(text, encoding="utf-8")
    with pytest.raises(ContractsError, match=message):
        store.read_lock(lock)


def test_read_snapshot_names_the_schema_rule(tmp_path: Path) -> None:
    data = json.loads(store.snapshot_path("1.0.0").read_text(encoding="utf-8"))
    del data["golden"]
    path = tmp_path / "1.0.0.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(ContractsError, match=r"1.0.0.json: snapshot does not match the schema"):
        store.read_snapshot(path)


def test_write_atomic_replaces_whole_files_and_leaves_no_temporary(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    store.write_atomic(path, "one\n")
    store.write_atomic(path, "two\n")
    assert path.read_text(encoding="utf-8") == "two\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]
    assert path.stat().st_mode & 0o777 == 0o666 & ~_umask()


def test_write_atomic_keeps_the_old_file_when_the_write_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "out.json"
    path.write_text("old\n", encoding="utf-8")

    def broken(*_: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken)
    with pytest.raises(OSError, match="disk full"):
        store.write_atomic(path, "new\n")
    assert path.read_text(encoding="utf-8") == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"]


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_load_history_and_load_current() -> None:
    history = store.load_history()
    assert [release.version for release in history] == list(store.read_lock())
    first = history[0]
    assert (first.version, first.date) == ("1.0.0", "2026-11-29")
    assert "First published methodology" in first.changes
    assert first.snapshot.methodology_version == "1.0.0"
    current = store.load_current()
    assert current.methodology_version == C.METHODOLOGY_VERSION
    assert current == build_snapshot()
