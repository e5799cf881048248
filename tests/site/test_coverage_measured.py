"""The uncertainty page says which version's constants the coverage figures were measured
on, and, after a release that changed one they depend on, that they are that version's
figures, naming what changed and the command that measures them again
(``macros.coverage.measured_note``)."""

from __future__ import annotations

from types import SimpleNamespace

from support import import_macros

from contracts.build import build_snapshot
from contracts.coverage_record import SIMULATE_COMMAND, coverage_state
from contracts.store import Part, bumped

coverage = import_macros("macros.coverage")


def test_the_page_names_the_version_the_figures_were_measured_on() -> None:
    live = build_snapshot()
    state = coverage_state(live)
    note = coverage.measured_note(SimpleNamespace(snapshot=live))
    if not state.changed:
        assert note == f"<p>Measured on the constants of methodology {state.version}.</p>"
    else:  # a release changed what they depend on: see the test below
        assert all(name in note for name in state.changed)


def test_after_a_release_that_changes_an_anchor_the_page_marks_them() -> None:
    live = build_snapshot()
    version = bumped(live.methodology_version, Part.MINOR)
    constants = [
        entry.model_copy(update={"value": version})
        if entry.name == "methodology.version"
        else entry.model_copy(update={"value": [{**a, "x": a["x"] * 60} for a in entry.value]})
        if entry.name == "composite.latency_anchors_ms"
        else entry
        for entry in live.constants
    ]
    later = live.model_copy(update={"methodology_version": version, "constants": constants})
    note = coverage.measured_note(SimpleNamespace(snapshot=later))
    measured = coverage_state(live).version
    assert note.startswith(
        f'<p class="coverage-measured"><strong>Measured on the constants of methodology '
        f"{measured}, not on those of {version}</strong>: {version} changed "
        "<code>composite.latency_anchors_ms</code>"
    )
    assert SIMULATE_COMMAND in note
