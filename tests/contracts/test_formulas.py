"""The formulas' LaTeX held equal to their code (``contracts.check.formulas``), in process: every
registered formula agrees at every golden point; a code change the LaTeX does not show is
named with its formula, golden point and both values; a same-value refactor passes; a
registration that binds a symbol to nothing, or has no golden point, is refused."""

from __future__ import annotations

import dataclasses
import math
import shutil
from collections.abc import Callable
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from contracts.check.drift import CHECKS, run_check
from contracts.check.formulas import (
    FLOAT_RELATIVE_TOLERANCE,
    agree,
    check_formula,
    descriptive_formulas,
    formula_problems,
    latex_value,
)
from contracts.latex.evaluator import Undefined
from contracts.model import Methodology
from contracts.source import REPO_ROOT
from contracts.update import run_update
from scoring import FORMULAS
from scoring.constants import RADAR_POINTS_PER_EXTRA_STEP, RADAR_STEPS_FREE, RECOVERABLE_FLOOR
from scoring.numeric import clamp, exact
from scoring.registry import Formula, arg, point


def test_every_formula_agrees_with_its_latex_at_every_golden_point() -> None:
    assert formula_problems() == []


def test_the_latex_is_really_evaluated_at_each_point() -> None:
    # Not vacuous: every executable formula's LaTeX gives a value (or is undefined where the
    # code gives None) at each golden point, and at least one value is irrational.
    seen_undefined = seen_decimal = 0
    for formula in FORMULAS.values():
        if formula.descriptive is not None:
            continue
        for golden in formula.golden:
            try:
                result = latex_value(formula, golden.inputs)
            except Undefined:
                seen_undefined += 1
                assert formula.function(**golden.inputs) is None
                continue
            seen_decimal += isinstance(result, Decimal)
    assert seen_undefined >= 5
    assert seen_decimal >= 1


def _with(name: str, function: Callable[..., Any]) -> Formula:
    return dataclasses.replace(FORMULAS[name], function=function)


def _consistency_three(p: Any, completed_runs: int) -> Fraction:
    rate = exact(p)
    return Fraction(1) if completed_runs < 5 else 1 - 3 * rate * (1 - rate)


def _consistency_refactored(p: Any, completed_runs: int) -> Fraction:
    rate = exact(p)
    return Fraction(1) if completed_runs < 5 else (2 * rate - 1) ** 2


def _pass_ratio_power(n: int, c: int, k: int) -> Fraction:
    return Fraction(c, n) ** k


def _floor_squared(raw: Any) -> Fraction:
    floor = exact(RECOVERABLE_FLOOR) ** 2
    return floor + (1 - floor) * exact(raw)


def _determinism_linear(q: Any) -> Fraction:
    return abs(2 * exact(q) - 1)


def _tool_step_doubled(median_steps: Any) -> Fraction | None:
    if median_steps is None:
        return None
    extra = max(Fraction(0), exact(median_steps) - RADAR_STEPS_FREE)
    return clamp(100 - 2 * exact(RADAR_POINTS_PER_EXTRA_STEP) * extra, Fraction(0), Fraction(100))


def _score_without_root(c: Any, rec_v: Any) -> float:
    return float(exact(c) * exact(rec_v))


def _score_rounded(c: Any, rec_v: Any) -> float:
    # One part in a million off: far below a page's decimals, far above a float's precision.
    return math.sqrt(float(exact(c) * exact(rec_v))) * (1 + 1e-6)


MUTANTS = {
    "consistency 1 - 3p(1 - p)": (
        "composite.outcome_consistency",
        _consistency_three,
        "composite.outcome_consistency@p=1/4,n=5",
        "the LaTeX gives 1/4, the code 7/16",
    ),
    "pass^k as (c/n)^k": (
        "repeatability.pass_hat_k",
        _pass_ratio_power,
        "repeatability.pass_hat_k@n=5,c=4,k=3",
        "the LaTeX gives 2/5, the code 64/125",
    ),
    "recoverable floor squared": (
        "outcome.recoverable_floor",
        _floor_squared,
        "outcome.recoverable_floor@0",
        "the LaTeX gives 1/10, the code 1/100",
    ),
    "determinism |2q - 1|": (
        "radar.determinism",
        _determinism_linear,
        "radar.determinism@1/4",
        "the LaTeX gives 1/4, the code 1/2",
    ),
    "tool-efficiency step doubled": (
        "radar.tool_efficiency",
        _tool_step_doubled,
        "radar.tool_efficiency@4",
        "the LaTeX gives 90, the code 80",
    ),
    "outcome score without its square root": (
        "outcome.score",
        _score_without_root,
        "outcome.score@c=1,rec_v=16/25",
        "the LaTeX gives 4/5, the code 0.64",
    ),
    "outcome score off by one part in a million": (
        "outcome.score",
        _score_rounded,
        "outcome.score@c=1/2,rec_v=1",
        "the LaTeX gives 0.7071067811865475244,",
    ),
}


@pytest.mark.parametrize("mutant", sorted(MUTANTS))
def test_a_code_change_the_latex_does_not_show_is_named(mutant: str) -> None:
    name, function, golden, values = MUTANTS[mutant]
    messages = [p.message for p in check_formula(_with(name, function))]
    assert messages, f"{mutant} passed"
    mine = [m for m in messages if f"golden point {golden}:" in m]
    assert mine, messages
    assert f"formula {name} disagrees with its LaTeX" in mine[0]
    assert values in mine[0]


def test_a_refactor_that_computes_the_same_values_passes() -> None:
    assert check_formula(_with("composite.outcome_consistency", _consistency_refactored)) == []


def _latex_changed() -> Formula:
    """Determinism with its LaTeX changed and its code as it is."""
    return dataclasses.replace(FORMULAS["radar.determinism"], latex=r"d(q) = |2q - 1|")


def test_a_problem_carries_where_the_formula_is_defined() -> None:
    [first, *_] = check_formula(_latex_changed())
    assert first.formula == "radar.determinism"
    assert first.point == "radar.determinism@1/4"
    assert first.file == "scoring/formulas/radar.py"
    assert first.line is not None
    assert first.end_line is not None
    assert first.line < first.end_line
    source = REPO_ROOT / first.file
    assert "def determinism" in "".join(
        source.read_text(encoding="utf-8").splitlines(keepends=True)[
            first.line - 1 : first.end_line
        ]
    )


def _new_formula(**registration: Any) -> Formula:
    def halved(x: Fraction) -> Fraction:
        return x / 2

    defaults: dict[str, Any] = {
        "name": "test.halved",
        "title": "Half",
        "latex": r"h = \dfrac{x}{2}",
        "function": halved,
        "symbols": {"x": arg("x")},
        "golden": (point("1", x=Fraction(1)),),
    }
    return Formula(**{**defaults, **registration})


def test_a_new_formula_with_no_golden_point_is_refused_saying_what_to_add() -> None:
    assert check_formula(_new_formula()) == []
    [problem] = check_formula(_new_formula(golden=()))
    assert "formula test.halved has no golden evaluation" in problem.message
    assert "add golden=[point(" in problem.message


@pytest.mark.parametrize(
    ("registration", "message"),
    [
        ({"symbols": {}}, "the symbol x is bound to nothing: add it to symbols="),
        ({"symbols": {"x": arg("x"), "y": arg("x")}}, "binds y, which its LaTeX does not show"),
        ({"symbols": {"x": arg("z")}}, "binds x to the argument z, which it does not take"),
        ({"latex": r"h = \int x"}, "its LaTeX cannot be evaluated"),
        ({"descriptive": "prose"}, "is marked descriptive but binds 'x' to a value"),
    ],
)
def test_a_registration_that_binds_badly_is_refused(
    registration: dict[str, Any], message: str
) -> None:
    messages = [p.message for p in check_formula(_new_formula(**registration))]
    assert any(message in m for m in messages), messages


def test_the_codes_none_agrees_only_with_an_undefined_latex() -> None:
    undefined = Undefined("a division by zero")
    assert agree(None, undefined)
    assert not agree(None, Fraction(0))
    assert not agree(Fraction(0), undefined)
    assert agree(Fraction(1, 3), Fraction(1, 3))
    assert not agree(Fraction(1, 3), Fraction(333, 1000))
    root = Decimal(2).sqrt()
    assert agree(math.sqrt(2), root)
    assert not agree(math.sqrt(2) * (1 + 4 * float(FLOAT_RELATIVE_TOLERANCE)), root)


def test_the_descriptive_formulas_are_few_and_say_why() -> None:
    marked = descriptive_formulas()
    # Prose by nature (the outcome score's gate and source chains), matrix notation (the
    # interval formulas whose parts are proven one by one: the covariance, the composite's
    # moves, the paired differences) and the two numerical quantiles (held to published
    # tables): few, each with its reason.
    assert 1 <= len(marked) <= 11
    for name, title, reason in marked:
        assert name in FORMULAS
        assert title
        assert len(reason) > 20
        assert FORMULAS[name].golden, f"{name}: a descriptive formula still has golden points"


def test_the_drift_check_runs_the_formula_check(
    monkeypatch: pytest.MonkeyPatch, live: Methodology
) -> None:
    assert "formulas" in [check.name for check in CHECKS]
    monkeypatch.setitem(FORMULAS, "radar.determinism", _latex_changed())
    result = run_check(live=live)
    mine = [f for f in result.findings if f.check == "formulas"]
    assert mine
    assert not result.ok
    assert result.exit_code == 1
    assert "golden point radar.determinism@1/4" in mine[0].lines[0]
    assert (mine[0].file, mine[0].line is not None) == ("scoring/formulas/radar.py", True)


def test_update_refuses_and_writes_nothing(
    monkeypatch: pytest.MonkeyPatch, files: tuple[Path, Path], live: Methodology, tmp_path: Path
) -> None:
    snapshots, changelog = files
    before = {p.name: p.read_bytes() for p in snapshots.iterdir()}
    bumped = live.model_copy(update={"methodology_version": "99.0.0"})
    changelog.write_text(
        changelog.read_text(encoding="utf-8").replace(
            "\n## ", "\n## 99.0.0 (2099-12-31)\n\nA test.\n\n## ", 1
        ),
        encoding="utf-8",
    )
    monkeypatch.setitem(
        FORMULAS,
        "composite.outcome_consistency",
        _with("composite.outcome_consistency", _consistency_three),
    )
    result = run_update(live=bumped, snapshot_dir=snapshots, changelog_path=changelog)
    assert not result.ok
    assert result.exit_code == 1
    text = "\n".join(result.lines)
    assert "REFUSED" in text
    assert "nothing written" in text
    assert "golden point composite.outcome_consistency@p=1/4,n=5" in text
    assert {p.name: p.read_bytes() for p in snapshots.iterdir()} == before
    # The same update, with the code as it is, writes the new version.
    monkeypatch.undo()
    shutil.copy2(changelog, tmp_path / "kept.md")
    written = run_update(live=bumped, snapshot_dir=snapshots, changelog_path=changelog)
    assert written.ok, written.lines
    assert (snapshots / "99.0.0.json").exists()


def test_a_descriptive_formula_says_its_symbols_in_words_only() -> None:
    # Nothing evaluates a descriptive formula, so a binding to a value would be unchecked: it
    # is refused, and so is a symbol its LaTeX does not show.
    import dataclasses

    from contracts.check.registration import registration_problems
    from scoring.registry import arg, words

    described = FORMULAS["uncertainty.composite_interval"]
    assert described.descriptive is not None
    assert registration_problems(described) == []
    valued = dataclasses.replace(described, symbols={"T": arg("tasks")})
    assert any("say it with words()" in p for p in registration_problems(valued))
    absent = dataclasses.replace(described, symbols={"Q_z": words("not in the formula")})
    assert any("does not show it" in p for p in registration_problems(absent))
