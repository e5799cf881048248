"""Which version's constants the coverage figures were measured on
(``contracts/coverage_record.py``): the committed record speaks of the committed figures, a
release that changes a constant they depend on makes them the earlier version's figures
(named on the page, ``tests/site/test_coverage_measured.py``), and figures written after the
record are the live code's.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from contract_builders import bumped_to, with_constant

from contracts import coverage_record as record
from contracts.model import Methodology
from contracts.store import read_lock


def _released_after(live: Methodology, **constants: object) -> Methodology:
    """``live`` released as the next version with ``constants`` (dotted names, ``_`` for
    ``.``) changed."""
    major, minor, _ = (int(p) for p in live.methodology_version.split("."))
    changed = bumped_to(live, f"{major}.{minor + 1}.0")
    for name, value in constants.items():
        changed = with_constant(changed, name.replace("__", "."), value)
    return changed


def test_the_committed_record_speaks_of_the_committed_figures() -> None:
    found = record.read_record()
    assert found is not None
    assert found["figures_sha256"] == record.figures_sha256()
    assert found["measured_on"] in read_lock()
    assert record.RECORD_PATH.read_text(encoding="utf-8") == record.record_text(
        found["measured_on"], found["figures_sha256"]
    )


@pytest.fixture
def measured_now(tmp_path: Path, live: Methodology) -> tuple[Path, Path]:
    """A copy of the figures, and a record that they were measured on the live version."""
    figures, path = tmp_path / "coverage.json", tmp_path / "measured.json"
    shutil.copy2(record.FIGURES_PATH, figures)
    text = record.record_text(live.methodology_version, record.figures_sha256(figures))
    path.write_text(text, encoding="utf-8")
    return figures, path


def _state(later: Methodology, paths: tuple[Path, Path]) -> record.Measured:
    figures, path = paths
    return record.coverage_state(later, figures_path=figures, record_path=path)


def test_the_live_constants_are_the_ones_the_figures_were_measured_on(
    live: Methodology, measured_now: tuple[Path, Path]
) -> None:
    assert _state(live, measured_now) == record.Measured(
        live.methodology_version, live.methodology_version, ()
    )


def test_a_changed_anchor_makes_them_the_earlier_version_s_figures(
    live: Methodology, measured_now: tuple[Path, Path]
) -> None:
    anchors = [
        {"x": a["x"] * 60, "score": a["score"]}
        for a in live.constant("composite.latency_anchors_ms").value
    ]
    later = _released_after(live, composite__latency_anchors_ms=anchors)
    state = _state(later, measured_now)
    assert state.version == live.methodology_version
    assert state.live_version == later.methodology_version
    assert state.changed == ("composite.latency_anchors_ms",)


def test_a_constant_they_do_not_read_leaves_them_the_live_figures(
    live: Methodology, measured_now: tuple[Path, Path]
) -> None:
    later = _released_after(live, radar__cost__full_score_usd=0.02)
    assert "radar.cost.full_score_usd" not in record.DEPENDS_ON
    assert _state(later, measured_now).changed == ()


def test_figures_written_after_the_record_are_the_live_code_s(
    live: Methodology, measured_now: tuple[Path, Path]
) -> None:
    figures, _ = measured_now
    later = _released_after(live, composite__weight__cost=0.25)
    assert _state(later, measured_now).changed == ("composite.weight.cost",)
    figures.write_text(figures.read_text(encoding="utf-8") + " ", encoding="utf-8")
    rerun = _state(later, measured_now)
    assert (rerun.version, rerun.changed) == (later.methodology_version, ())


def test_a_record_without_its_fields_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "measured.json"
    path.write_text('{"measured_on": "1.0.0"}', encoding="utf-8")
    with pytest.raises(record.ContractsError, match="must hold measured_on"):
        record.read_record(path)
    assert record.read_record(tmp_path / "absent.json") is None
