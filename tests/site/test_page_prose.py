"""The written contract of every page, in the fast lane: its prose rendered through the
macros in-process (``rendered_pages.py``, no site built), then the checks the built site
gets (``support``): every numeral in the prose is macro output, every number in words is
explained by a constant, nothing is left unrendered, every formula is MathML whose numbers
are constants', every constant is shown somewhere, and no warning was logged.

A false claim added to a page's prose fails here: the last tests add such claims (a weight,
an anchor, a gate, in digits and in words) to a copy of a rendered page and expect each to
be reported, and ordinary sentences with number words not to be. The slow test at the end
adds one to a copy of a page's Markdown and renders it, the way a writer would.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from serving import copy_project
from support import (
    ALLOWED_NUMBER_WORDS,
    ALLOWED_NUMERALS,
    Page,
    explained_numerals,
    formula_numerals,
    formula_problems,
    methodology_pages,
    missing_constants,
    number_word_problems,
    parse,
    prose_numerals,
    render_pages,
    rendered_pages,
    site_explainers,
    snapshot_constant_names,
    template_leftovers,
    used_allowlist,
    used_word_allowlist,
)

import scoring.constants as C  # noqa: N812 - the module of constants
from contracts.check.words import cardinal_words
from contracts.source import REPO_ROOT

#: Every page of the site, from its Markdown source.
PAGES = sorted(p.with_suffix(".html").name for p in (REPO_ROOT / "docs").glob("*.md"))

#: The constants the claims below are made from, as whole numbers: a weight in per cent,
#: the last latency anchor in ms and in seconds, the cost axis's zero in cents.
_SUCCESS_PCT = int(C.COMPOSITE_WEIGHT_SUCCESS * 100)
_COST_PCT = int(C.COMPOSITE_WEIGHT_COST * 100)
_ZERO_MS = int(C.LATENCY_ANCHORS_MS[-1].x)
_ZERO_S = _ZERO_MS // 1000
_COST_AXIS_ZERO_CENTS = int(C.RADAR_COST_ZERO_USD * 100)
_in_words = cardinal_words

#: False claims a writer could add to a page, made from the live constants so that each
#: stays false whatever they are (see scoring/constants.py; with 1.0.0's constants each
#: comment says what a true one would say): weights, anchors and gates, in digits and in
#: words.
FALSE_CLAIMS = (
    f"The success weight is {_SUCCESS_PCT + 10}%.",  # 40%
    f"The success weight is {_in_words(_SUCCESS_PCT + 10)} per cent.",
    # 30%: the success weight is 40%
    f"The cost weight is {_in_words(_SUCCESS_PCT if _SUCCESS_PCT != _COST_PCT else 1)} per cent.",
    "Cost carries a third of the headline composite.",
    "Cost carries twice the weight of success.",
    # 10,000 ms
    f"The latency score falls to zero at {_in_words(_ZERO_MS + _ZERO_MS // 10)} milliseconds.",
    f"The latency curve has {_in_words(len(C.LATENCY_ANCHORS_MS) + 1)} anchors.",  # four
    # five
    f"Outcome consistency stays neutral until {_in_words(C.CONSISTENCY_MIN_RUNS + 2)} "
    "completed runs.",
    f"The radar reads the latest {_in_words(C.RADAR_WINDOW_RUNS // 2)} terminal runs.",  # 100
    f"An interval needs at least {_in_words(2 * C.INTERVAL_MIN_TASKS)} distinct tasks.",  # ten
    # three
    f"Repeatability needs {_in_words(C.REPEATABILITY_MIN_OUTCOMES + 4)} outcomes of a task.",
    f"Published scores have {_in_words(C.SCORE_DECIMALS + 1)} decimals.",  # two
    # ten (10,000 ms)
    f"The latency score falls to zero at {_in_words(max(_ZERO_S * 4 // 5, 1))} seconds.",
    # eleven (0.11 USD)
    f"The cost axis scores zero from {_in_words(2 * _COST_AXIS_ZERO_CENTS - 2)} cents a run.",
)
#: Sentences with number words that state no methodology number, and true claims.
ORDINARY_SENTENCES = (
    "Runs are scored one at a time, each on its own, from the first anchor onwards.",
    "No one needs a single run more than once; the check is one-way.",
    f"The success weight is {_in_words(_SUCCESS_PCT)} per cent and the cost weight "
    f"{_in_words(_COST_PCT)} per cent.",
    f"Success and cost together weigh {_in_words(_SUCCESS_PCT + _COST_PCT)} per cent of the "
    "composite.",
    f"The latency score falls to zero at {_in_words(_ZERO_S)} seconds, or "
    f"{_in_words(_ZERO_MS)} milliseconds.",
    f"The cost axis scores zero from {_in_words(_COST_AXIS_ZERO_CENTS)} cents a run.",
)


@pytest.fixture(scope="session")
def rendered(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return rendered_pages(tmp_path_factory)


@pytest.fixture(scope="session")
def prose_pages(rendered: Path) -> list[Page]:
    return methodology_pages(rendered)


def test_every_page_is_rendered_without_a_warning(rendered: Path, prose_pages: list[Page]) -> None:
    assert [p.name for p in prose_pages] == PAGES
    assert (rendered / "warnings.txt").read_text(encoding="utf-8") == ""


@pytest.mark.parametrize("name", PAGES)
def test_the_prose_states_no_number_the_code_does_not(
    name: str, rendered: Path, prose_pages: list[Page]
) -> None:
    page = next(p for p in prose_pages if p.name == name)
    problems = template_leftovers(page) + prose_numerals(page) + formula_problems(page)
    problems += number_word_problems(page, site_explainers(rendered))
    problems += formula_numerals(page, explained_numerals(rendered))
    assert not problems, "\n".join(problems)


def test_every_constant_is_shown_and_the_allowlists_are_used(
    rendered: Path, prose_pages: list[Page]
) -> None:
    assert missing_constants(prose_pages, snapshot_constant_names(rendered)) == []
    assert set(ALLOWED_NUMERALS) == used_allowlist(prose_pages)
    assert set(ALLOWED_NUMBER_WORDS) == used_word_allowlist(prose_pages)


def test_the_snapshot_rendered_is_the_committed_one(rendered: Path) -> None:
    from contracts.store import load_current, snapshot_content

    published = json.loads((rendered / "methodology.json").read_text(encoding="utf-8"))
    published.pop("_generated", None)
    assert published == snapshot_content(load_current())


def _spoiled(rendered: Path, tmp_path: Path, name: str, sentences: tuple[str, ...]) -> Page:
    """A copy of the rendered page ``name`` with one paragraph per sentence at its end."""
    html = (rendered / name).read_text(encoding="utf-8")
    added = "".join(f"<p>{sentence}</p>\n" for sentence in sentences)
    spoiled = tmp_path / name
    spoiled.write_text(html.replace("</article>", added + "</article>"), encoding="utf-8")
    return parse(spoiled, tmp_path)


def _claim_problems(page: Page, rendered: Path) -> list[str]:
    return prose_numerals(page) + number_word_problems(page, site_explainers(rendered))


@pytest.mark.parametrize("claim", FALSE_CLAIMS)
def test_a_false_claim_added_to_a_page_fails(claim: str, rendered: Path, tmp_path: Path) -> None:
    page = _spoiled(rendered, tmp_path, "composite.html", (claim,))
    problems = _claim_problems(page, rendered)
    assert len(problems) == 1, "\n".join(problems) or f"not reported: {claim}"
    assert problems[0].startswith("composite.html: ")


def test_ordinary_and_true_sentences_pass(rendered: Path, tmp_path: Path) -> None:
    page = _spoiled(rendered, tmp_path, "composite.html", ORDINARY_SENTENCES)
    assert _claim_problems(page, rendered) == []


@pytest.mark.slow
def test_a_false_claim_in_a_pages_markdown_fails_once_rendered(tmp_path: Path) -> None:
    """The way a writer would: a sentence added to ``docs/composite.md`` of a copy."""
    project = copy_project(tmp_path / "project")
    source = project / "docs" / "composite.md"
    source.write_text(
        source.read_text(encoding="utf-8") + f"\n\n{FALSE_CLAIMS[2]}\n", encoding="utf-8"
    )
    result = render_pages(project, tmp_path / "out", ("composite.md",))
    assert result.returncode == 0, result.stdout + result.stderr
    page = parse(tmp_path / "out" / "composite.html", tmp_path / "out")
    problems = _claim_problems(page, tmp_path / "out")
    assert len(problems) == 1, "\n".join(problems)
    assert FALSE_CLAIMS[2] in problems[0]
