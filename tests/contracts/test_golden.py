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
from scoring.bindings import Const, Uses
from scoring.formulas.outcome import Reading
from scoring.slopes import READINGS


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


def _constants_read(name: str) -> set[str]:
    """The constants (Python names) a formula's symbols bind, through the formulas it uses,
    and the curves its golden points read (:mod:`scoring.slopes`)."""
    formula = FORMULAS[name]
    found: set[str] = set()
    pending = list(formula.symbols.values())
    while pending:
        binding = pending.pop()
        if isinstance(binding, Const):
            found.add(binding.python_name)
        elif isinstance(binding, Uses):
            found |= _constants_read(binding.formula)
            pending += [bound for _, bound in binding.bound]
    curves = {"latency": "LATENCY_ANCHORS_MS", "cost": "COST_ANCHORS_USD"}
    reads = READINGS.get(name)
    for golden in formula.golden if reads else ():
        found |= {curves[r.curve] for r in reads(golden.inputs) if r.curve in curves}
    return found


def test_a_released_golden_evaluation_moves_only_with_its_formula_or_constants(
    live: Methodology,
) -> None:
    # An evaluation of the previous release that the live code still makes, under its name
    # and with its inputs, gives the same result unless the formula's LaTeX or the meaning
    # of its symbols changed, or a constant it reads changed value: a result that moves
    # under the same text and the same constants is a code-only change, which the release
    # refuses. (Golden points placed relative to the anchors move with them: the release's
    # diff shows those.)
    versions = sorted(
        (p.stem for p in SNAPSHOT_DIR.glob("[0-9]*.json")),
        key=lambda v: tuple(int(x) for x in v.split(".")),
    )
    older = [v for v in versions if v != live.methodology_version]
    released = read_snapshot(SNAPSHOT_DIR / f"{older[-1]}.json").methodology
    latex_then = {f.name: (f.latex, f.symbols) for f in released.formulas}
    latex_now = {f.name: (f.latex, f.symbols) for f in live.formulas}
    values_then = {c.python_name: c.value for c in released.constants}
    changed = {
        c.python_name
        for c in live.constants
        if c.python_name in values_then and values_then[c.python_name] != c.value
    } - {"METHODOLOGY_VERSION"}
    now = {g.name: g for g in live.golden}
    kept = [e for e in released.golden if e.name in now and now[e.name].inputs == e.inputs]
    assert kept, "no golden evaluation of the previous release is made again"
    for entry in kept:
        if now[entry.name].result == entry.result:
            continue
        formula = FORMULAS[entry.formula]
        moved_by = changed if formula.descriptive else changed & _constants_read(entry.formula)
        assert latex_now[entry.formula] != latex_then[entry.formula] or moved_by, entry.name


def test_the_constants_a_formula_reads_are_found() -> None:
    assert {"LATENCY_ANCHORS_MS", "COST_ANCHORS_USD"} <= _constants_read(
        "uncertainty.composite_gradient"
    )
    assert "LATENCY_ANCHORS_MS" in _constants_read("uncertainty.mean_moves")
    assert "LATENCY_ANCHORS_MS" not in _constants_read("radar.determinism")
