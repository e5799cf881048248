"""contracts.check.words and contracts.check.claims on sentences: what is a claim, what explains it.

Both sides are tested: false statements of the methodology in words fail, true ones pass,
and ordinary English with number words is not read as a claim at all.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from contracts.build import build_snapshot
from contracts.check.claims import Explainer, check_text, code_values, explain, explainers, nearest
from contracts.check.words import cardinal_words, find_claims, parse_cardinal
from scoring import constants as C  # noqa: N812 - the module of constants


@pytest.fixture(scope="module")
def items() -> list[Explainer]:
    return explainers(build_snapshot(), code_values())


def _words(n: int) -> str:
    return cardinal_words(n)


def _pct_words(weight: object) -> str:
    return f"{_words(int(Fraction(str(weight)) * 100))} per cent"


#: Sentences that state the methodology truly; each is built from the live constants.
TRUE = [
    f"Outcome consistency stays neutral until {_words(C.CONSISTENCY_MIN_RUNS)} completed runs.",
    f"The radar reads the latest {_words(C.RADAR_WINDOW_RUNS)} terminal runs.",
    f"One of the {_words(len(C.RADAR_DEFAULT_WEIGHTS))} axes is latency.",
    f"pass^k is published at {_words(len(C.PASS_K_LEVELS))} levels.",
    f"Scores are printed with {_words(C.SCORE_DECIMALS)} decimals.",
    f"Fractions are printed with {_words(C.FRACTION_DECIMALS)} decimal places.",
    f"Cost carries {_pct_words(C.COMPOSITE_WEIGHT_COST)} of the headline composite.",
    f"Success carries {_pct_words(C.COMPOSITE_WEIGHT_SUCCESS)} of the composite.",
    f"A task enters robustness with at least {_words(C.ROBUSTNESS_MIN_OUTCOMES)} known outcomes.",
    f"A task needs {_words(C.REPEATABILITY_MIN_OUTCOMES)} recorded outcomes for pass^k.",
    f"The latency axis waits for {_words(C.RADAR_LATENCY_MIN_RUNS)} window runs with a latency.",
    f"The latency curve has {_words(len(C.LATENCY_ANCHORS_MS))} anchors.",
    f"The cost curve has {_words(len(C.COST_ANCHORS_USD))} anchors.",
    f"Tool efficiency is full at {_words(C.RADAR_STEPS_FREE)} steps or fewer.",
]

#: False statements in words, and the constant the message must name as the nearest.
FALSE = [
    (
        "Outcome consistency stays neutral until seven completed runs.",
        "composite.consistency_min_runs",
    ),
    ("Cost carries a third of the headline composite.", "composite.weight.cost"),
    ("Cost carries two fifths of the headline composite.", "composite.weight.cost"),
    ("The radar reads the latest fifty terminal runs.", "radar.window_runs"),
    ("One of the six axes is latency.", "count(radar.default_weights)"),
    ("pass^k is published at four levels.", "count(repeatability.k_levels)"),
    ("Scores are printed with three decimals.", "rounding.score_decimals"),
    (
        "A task enters robustness with at least three known outcomes.",
        "radar.robustness.min_outcomes",
    ),
    (
        "The latency axis loses ten points for every hundred milliseconds.",
        "radar.latency.points_per_step",
    ),
    ("Each axis weighs a quarter of the profile.", None),
    ("The cost curve has four anchors.", "count(composite.cost_anchors_usd)"),
    ("Success weighs twice as much as cost in the composite.", None),
    ("The first ten problems are listed.", "scoring.errors.MAX_LISTED_PROBLEMS"),
    (
        "Outcome consistency stays neutral until twenty-five completed runs.",
        "composite.consistency_min_runs",
    ),
]

#: Ordinary English: number words that quantify nothing the methodology sets.
ORDINARY = [
    "Runs are scored one at a time.",
    "Each on its own, the check says little.",
    "At or below the first anchor the score is full.",
    "A single run can still fail its task.",
    "No one needs to read the code.",
    "The flow is one-way: scoring to contracts to docs.",
    "An agent that succeeds half the time is hard to rely on.",
    "Halves are rounded up.",
    "The report reads one run of one agent on one task per line.",
    "An agent with at least one success keeps the weighted formula.",
    "Between two adjacent anchors the score falls in a straight line.",
    "These two runs get the same score.",
    "Nothing on it is typed twice.",
    "The demonstration scores the same results three times: plain, quick and slow.",
    "The zero-success floor applies to the third task too.",
    "Four scores, four questions.",
    "It is the one number used for ranking.",
    "A median can fall halfway between two counts.",
    "The second task of the example above is compared.",
    "Both print tables for people.",
]


@pytest.mark.parametrize("sentence", TRUE)
def test_a_true_sentence_in_words_is_explained(sentence: str, items: list[Explainer]) -> None:
    claims = find_claims(sentence)
    assert claims, f"no claim found in {sentence!r}"
    assert check_text(sentence, items, "here") == []


@pytest.mark.parametrize(("sentence", "near"), FALSE)
def test_a_false_sentence_in_words_fails_naming_the_nearest(
    sentence: str, near: str | None, items: list[Explainer]
) -> None:
    problems = check_text(sentence, items, "page.html")
    assert len(problems) == 1, problems
    assert problems[0].startswith("page.html: number in words ")
    assert f"«{sentence}»" in problems[0]
    if near is not None:
        assert f"nearest constant: {near} = " in problems[0]


@pytest.mark.parametrize("sentence", ORDINARY)
def test_ordinary_language_is_not_a_claim(sentence: str) -> None:
    assert find_claims(sentence) == []


def test_kinds_values_and_nouns() -> None:
    [count] = find_claims("Until twenty-five completed runs.")
    assert (count.value, count.kind, count.noun, count.modifiers) == (
        25,
        "count",
        "run",
        ("completed",),
    )
    [share] = find_claims("It carries three quarters of the composite.")
    assert (share.value, share.kind, share.noun) == (Fraction(3, 4), "share", "composite")
    [pct] = find_claims("Forty per cent of the score.")
    assert (pct.value, pct.kind) == (Fraction(2, 5), "share")
    [times] = find_claims("It weighs three times the weight of cost.")
    assert (times.value, times.kind) == (3, "multiple")
    [big] = find_claims("The radar reads a hundred terminal runs.")
    assert big.value == 100


@pytest.mark.parametrize("n", [0, 1, 7, 13, 20, 21, 45, 99, 100, 101, 250, 1000, 2026, 999_999])
def test_cardinal_words_and_parse_cardinal_round_trip(n: int) -> None:
    assert parse_cardinal(cardinal_words(n).split()) == n


def test_example_values_explain_only_sentences_about_an_example(items: list[Explainer]) -> None:
    # The typical composite example has twelve completed runs; the evidence gate does not.
    about_example = find_claims("The first example has twelve completed runs.")[0]
    about_gate = find_claims("Consistency stays neutral until twelve completed runs.")[0]
    assert explain(about_example, items) is not None
    assert explain(about_gate, items) is None
    near = nearest(about_gate, items)
    assert near is not None
    assert near.name == "composite.consistency_min_runs"


def test_a_changed_constant_changes_the_verdict() -> None:
    # The same true sentence fails once the constant it states changes.
    snapshot = build_snapshot()
    changed = [
        e.model_copy(update={"value": 7}) if e.name == "composite.consistency_min_runs" else e
        for e in snapshot.constants
    ]
    moved = explainers(snapshot.model_copy(update={"constants": changed}))
    sentence = TRUE[0]
    assert check_text(sentence, explainers(snapshot), "x") == []
    assert check_text(sentence, moved, "x") != []
    assert check_text("Consistency stays neutral until seven completed runs.", moved, "x") == []
