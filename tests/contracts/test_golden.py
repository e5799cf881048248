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
    # Moving the golden points beside the formulas added points and changed no released one:
    # every evaluation of 1.0.1 is still there, under its name, with its inputs and result.
    released = read_snapshot(SNAPSHOT_DIR / "1.0.1.json").methodology
    now = {g.name: g for g in live.golden}
    for entry in released.golden:
        assert entry.name in now, entry.name
        assert (now[entry.name].inputs, now[entry.name].result) == (entry.inputs, entry.result)
