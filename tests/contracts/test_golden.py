"""The snapshot's golden evaluations are built from the golden points each formula's
registration carries: one evaluation per point, named ``<formula>@<label>``, every formula of
the snapshot with at least one, the result computed by the live code."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

from contracts.build import golden_evaluations, to_json_value
from contracts.model import Methodology
from contracts.store import SNAPSHOT_DIR, read_snapshot
from scoring import FORMULAS, OutcomeRecord
from scoring.outcome import Reading


def test_the_golden_list_is_the_registrations_points(live: Methodology) -> None:
    expected = [f"{f.name}@{p.label}" for f in FORMULAS.values() for p in f.golden]
    assert [g.name for g in live.golden] == expected
    assert [g.name for g in golden_evaluations()] == expected
    duplicates = [name for name, n in Counter(expected).items() if n > 1]
    assert not duplicates


def test_every_formula_of_the_snapshot_has_golden_evaluations(live: Methodology) -> None:
    covered = {g.formula for g in live.golden}
    assert covered == {f.name for f in live.formulas}


def test_each_result_is_what_the_code_computes_on_the_inputs(live: Methodology) -> None:
    by_name = {g.name: g for g in live.golden}
    for formula in FORMULAS.values():
        for golden in formula.golden:
            entry = by_name[f"{formula.name}@{golden.label}"]
            assert entry.result == to_json_value(formula.function(**golden.inputs))
            assert entry.inputs == {k: to_json_value(v) for k, v in golden.inputs.items()}


def test_records_and_readings_are_recorded_as_json() -> None:
    record = OutcomeRecord.model_validate_json('{"run_id": "r", "judged": {"checklist": 0.5}}')
    assert to_json_value(record) == {
        "run_id": "r",
        "verification": [],
        "judged": {"checklist": 0.5},
    }
    reading = Reading(Fraction(1, 2), "judged.checklist")
    assert to_json_value(reading) == {
        "value": {"exact": "0.5", "approx": 0.5},
        "source": "judged.checklist",
        "withheld_by": None,
    }


def test_the_released_golden_evaluations_are_kept(live: Methodology) -> None:
    # Every evaluation of the previous release is still there, under its name and with its
    # inputs; its result changes only where the formula's LaTeX or the meaning of its
    # symbols changed with it (a result that moves under the same text is a code-only
    # change, which the release refuses).
    versions = sorted(
        (p.stem for p in SNAPSHOT_DIR.glob("[0-9]*.json")),
        key=lambda v: tuple(int(x) for x in v.split(".")),
    )
    older = [v for v in versions if v != live.methodology_version]
    released = read_snapshot(SNAPSHOT_DIR / f"{older[-1]}.json").methodology
    latex_then = {f.name: (f.latex, f.symbols) for f in released.formulas}
    latex_now = {f.name: (f.latex, f.symbols) for f in live.formulas}
    now = {g.name: g for g in live.golden}
    for entry in released.golden:
        assert entry.name in now, entry.name
        assert now[entry.name].inputs == entry.inputs, entry.name
        if now[entry.name].result != entry.result:
            assert latex_now[entry.formula] != latex_then[entry.formula], entry.name
