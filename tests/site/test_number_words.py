"""Numbers written in words on the built pages: each claim is explained by a constant, a
derived value or a worked example (``contracts.check.words`` finds them, ``contracts.check.claims``
explains them), and the check fails on a page that states a false one.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from serving import copy_project
from support import (
    ALLOWED_NUMBER_WORDS,
    Page,
    methodology_pages,
    number_word_problems,
    render_pages,
    site_explainers,
    used_word_allowlist,
)

#: False sentences a writer could slip into a page (see scoring/constants.py for the truth).
FALSE_SENTENCES = (
    "Outcome consistency stays neutral until seven completed runs.",
    "Cost carries a third of the headline composite.",
    "The radar reads the latest fifty terminal runs.",
)
#: Ordinary sentences with number words that state no methodology number.
ORDINARY_SENTENCES = (
    "Runs are scored one at a time, each on its own, from the first anchor onwards.",
    "No one needs a single run more than once; the check is one-way.",
)


def test_every_number_word_on_the_pages_is_explained(site: Path, all_pages: list[Page]) -> None:
    items = site_explainers(site)
    problems = [problem for page in all_pages for problem in number_word_problems(page, items)]
    assert not problems, "\n".join(problems)


def test_number_word_allowlist_is_short_reasoned_and_used(all_pages: list[Page]) -> None:
    assert len(ALLOWED_NUMBER_WORDS) <= 5
    assert all(len(reason.split()) >= 5 for reason in ALLOWED_NUMBER_WORDS.values())
    unused = set(ALLOWED_NUMBER_WORDS) - used_word_allowlist(all_pages)
    assert not unused, f"number-word allowlist entries no page needs any more: {sorted(unused)}"


@pytest.mark.slow
def test_a_false_number_in_words_on_a_page_fails_and_ordinary_words_do_not(
    tmp_path: Path,
) -> None:
    project = copy_project(tmp_path / "project")
    page = project / "docs" / "composite.md"
    added = "\n\n" + " ".join(FALSE_SENTENCES + ORDINARY_SENTENCES) + "\n"
    page.write_text(page.read_text(encoding="utf-8") + added, encoding="utf-8")
    # Only the spoiled page, rendered through the macros (no theme, nothing published).
    site = project / "rendered"
    result = render_pages(project, site, ("composite.md",))
    assert result.returncode == 0, result.stdout + result.stderr
    spoiled = next(p for p in methodology_pages(site) if p.name == "composite.html")
    problems = number_word_problems(spoiled, site_explainers(site))
    assert len(problems) == len(FALSE_SENTENCES), "\n".join(problems)
    for sentence, problem in zip(FALSE_SENTENCES, problems, strict=True):
        assert problem.startswith("composite.html: ")
        assert sentence in problem
    assert "nearest constant: composite.consistency_min_runs = 5" in problems[0]
    assert "nearest constant: composite.weight.cost = 0.3" in problems[1]
    assert "nearest constant: radar.window_runs = 100" in problems[2]
