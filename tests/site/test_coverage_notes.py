"""The coverage notes' explanation of the figures above the ceiling (``macros.coverage``):
the exact coverage of Clopper–Pearson on independent runs, computed by the function the
report uses, and said only where a Clopper–Pearson score misses its upper target and the
method alone explains it; and the page's reason for the ceiling, computed the same way."""

from __future__ import annotations

import copy
import math
import re
import sys
from fractions import Fraction
from typing import Any

import pytest
from support import ROOT

from contracts.coverage import targets
from scoring.intervals.rates import clopper_pearson_interval

sys.path.insert(0, str(ROOT / "docs"))
from macros import coverage
from macros.markup import plain


@pytest.mark.parametrize(
    ("theta", "runs"),
    [(Fraction(1, 2), 10), (Fraction(95, 100), 100), (Fraction(1, 20), 100), (Fraction(1, 3), 7)],
)
def test_clopper_pearson_covers_at_least_its_level_on_independent_runs(
    theta: Fraction, runs: int
) -> None:
    """At an integer size Clopper–Pearson is exact: its coverage is never below the level
    (and the sum is a probability)."""
    found = coverage.exact_coverage(theta, runs)
    assert Fraction(95, 100) <= found <= 1


def test_the_exact_coverage_is_the_binomial_sum_over_the_intervals_that_hold_theta() -> None:
    theta, runs = Fraction(95, 100), 100
    holds = [
        x
        for x in range(runs + 1)
        if clopper_pearson_interval(Fraction(x, runs), float(runs)).low
        <= theta
        <= clopper_pearson_interval(Fraction(x, runs), float(runs)).high
    ]
    pmf = [math.comb(runs, x) * theta**x * (1 - theta) ** (runs - x) for x in range(runs + 1)]
    assert coverage.exact_coverage(theta, runs) == sum(pmf[x] for x in holds)
    assert 0 < len(holds) < runs + 1  # some counts miss: the sum is not the whole mass
    # Both θ·n and (1 − θ)·n are 5: above the level, and under the ceiling, which leaves
    # the method's own excess alone there.
    assert (
        Fraction(95, 100)
        < coverage.exact_coverage(theta, runs)
        < Fraction(repr(targets.TARGET_HIGH))
    )


def _data() -> dict[str, Any]:
    return copy.deepcopy(coverage.coverage_data())


def test_the_note_names_each_case_of_the_committed_figures() -> None:
    data = _data()
    note = coverage.ceiling_note(data)
    above = [
        (row, score)
        for row in data["cells"]
        for score in ("success_rate", "correctness", "pass^1")
        if row["scores"][score]["high"] is not None
        and row["scores"][score]["coverage"] > row["scores"][score]["high"]
        and coverage.exact_coverage(
            Fraction(repr(row["mean_success"])), coverage.runs_read(data, row, score)[0]
        )
        > Fraction(repr(row["scores"][score]["high"]))
    ]
    if not above:
        assert note == ""
        return
    for row, score in above:
        runs, words = coverage.runs_read(data, row, score)
        theta = Fraction(repr(row["mean_success"]))
        assert f"θ = {plain(theta, 2)} with n = {runs} ({words})" in note.replace("&#x27;", "'")


def test_no_note_when_no_clopper_pearson_figure_is_above_its_ceiling() -> None:
    data = _data()
    for row in data["cells"]:
        for score in ("success_rate", "correctness", "pass^1"):
            figure = row["scores"][score]
            if figure["high"] is not None:
                figure["coverage"] = min(figure["coverage"], figure["high"])
    assert coverage.ceiling_note(data) == ""


def test_one_figure_above_the_ceiling_brings_its_case() -> None:
    data = _data()
    for row in data["cells"]:
        for figure in row["scores"].values():
            if figure["high"] is not None:
                figure["coverage"] = min(figure["coverage"], figure["high"])
    row = next(r for r in data["cells"] if r["tasks"] == 30 and r["mean_success"] == 0.99)
    row["scores"]["success_rate"]["high"] = 0.98
    row["scores"]["success_rate"]["coverage"] = 0.99
    # Clopper–Pearson alone covers 98.6% there, above a ceiling of 98%: the note says so.
    note = coverage.ceiling_note(data)
    assert "θ = 0.99 with n = 195 (30 tasks of 6.5 runs)" in note
    assert note.startswith("<p>Why the success rate goes above the ceiling")
    assert "radar" not in note
    # Under a ceiling of 99% the method alone stays below it: a miss the note leaves alone.
    row["scores"]["success_rate"]["high"] = 0.99
    row["scores"]["success_rate"]["coverage"] = 0.995
    assert coverage.ceiling_note(data) == ""


def _number(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


def test_the_targets_the_page_names_are_the_rule_s() -> None:
    assert _number(coverage.coverage_target(None, "high")) == "99%"
    assert _number(coverage.coverage_target(None, "upper_rule_min")) == "5"
    assert coverage.coverage_data()["targets"]["high"] == targets.TARGET_HIGH
    assert coverage.coverage_data()["targets"]["upper_rule_min"] == targets.UPPER_RULE_MIN


def test_the_page_s_reason_for_the_ceiling_holds() -> None:
    """docs/uncertainty.md: at the grid's own truths and sizes, Clopper–Pearson on ideal data
    stays under the ceiling where both counts reach the bound, with room for a figure's
    Monte Carlo error, and goes above it where one does not (so no ceiling is set there)."""
    high = Fraction(repr(targets.TARGET_HIGH))
    above = Fraction(_number(coverage.clopper_pearson_reach(None, "above")).rstrip("%")) / 100
    below = Fraction(_number(coverage.clopper_pearson_reach(None, "below")).rstrip("%")) / 100
    noise = Fraction(_number(coverage.noise_at_ceiling(None)).lstrip("±")) / 100
    assert above + noise < high < below
    with pytest.raises(ValueError, match="side must be above or below"):
        coverage.clopper_pearson_reach(None, "sideways")
