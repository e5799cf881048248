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

from contracts.source import REPO_ROOT

#: Every page of the site, from its Markdown source.
PAGES = sorted(p.with_suffix(".html").name for p in (REPO_ROOT / "docs").glob("*.md"))

#: False claims a writer could add to a page, each with what a true one would say (see
#: scoring/constants.py): weights, anchors and gates, in digits and in words.
FALSE_CLAIMS = (
    "The success weight is 50%.",  # 40%
    "The success weight is fifty per cent.",
    "The cost weight is forty per cent.",  # 30%: the success weight is 40%
    "Cost carries a third of the headline composite.",
    "Cost carries twice the weight of success.",
    "The latency score falls to zero at twenty thousand milliseconds.",  # 10,000 ms
    "The latency curve has five anchors.",  # four
    "Outcome consistency stays neutral until seven completed runs.",  # five
    "The radar reads the latest fifty terminal runs.",  # 100
    "An interval needs at least twenty distinct tasks.",  # ten
    "Repeatability needs seven outcomes of a task.",  # three
    "Published scores have three decimals.",  # two
    "The latency score falls to zero at eight seconds.",  # ten (10,000 ms)
    "The cost axis scores zero from twenty cents a run.",  # eleven (0.11 USD)
)
#: Sentences with number words that state no methodology number, and true claims.
ORDINARY_SENTENCES = (
    "Runs are scored one at a time, each on its own, from the first anchor onwards.",
    "No one needs a single run more than once; the check is one-way.",
    "The success weight is forty per cent and the cost weight thirty per cent.",
    "Success and cost together weigh seventy per cent of the composite.",
    "The latency score falls to zero at ten seconds, or ten thousand milliseconds.",
    "The cost axis scores zero from eleven cents a run.",
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
