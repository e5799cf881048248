"""Where the repository is, said on every page from one setting.

``repo_url`` of ``mkdocs.yml`` names it: the address in ``SITE_REPO_URL`` (CI sets it to the
repository it builds from, ``.github/workflows/site.yml``) or the default written there,
which ``[project.urls]`` of ``pyproject.toml`` repeats; ``repo_name`` (``SITE_REPO_NAME``)
is its owner and name, the end of that address, as the header shows it. Every page links
to it as a plain link (``docs/overrides/partials/source.html``: the theme's widget, marked
``data-md-component="source"``, would ask GitHub's API for stars on every view; that the
browser tests catch such a request is shown in ``test_browser.py``), each page's edit
button points into it, and the reproduce page clones it, rendered through a macro from the
same setting (a changed setting changes the command).
"""

from __future__ import annotations

import os
import re
import tomllib
from pathlib import Path

import pytest
import yaml
from support import ROOT, methodology_pages, parse, render_pages

#: ``repo_url: !ENV [SITE_REPO_URL, "<default>"]``, as mkdocs.yml writes it, and its name.
REPO_URL_LINE = re.compile(r'^repo_url: !ENV \[SITE_REPO_URL, "(?P<default>[^"]+)"\]$', re.M)
REPO_NAME_LINE = re.compile(r'^repo_name: !ENV \[SITE_REPO_NAME, "(?P<default>[^"]+)"\]$', re.M)
EDIT_URI_LINE = re.compile(r"^edit_uri: (?P<uri>\S+)$", re.M)
WORKFLOW = ROOT / ".github" / "workflows" / "site.yml"
#: What CI builds the site with: the repository of the run.
WORKFLOW_REPO = {
    "SITE_REPO_URL": "${{ github.server_url }}/${{ github.repository }}",
    "SITE_REPO_NAME": "${{ github.repository }}",
}


def default_repo_url() -> str:
    found = REPO_URL_LINE.search((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert found, "mkdocs.yml: no `repo_url: !ENV [SITE_REPO_URL, ...]` line"
    return found["default"]


def default_repo_name() -> str:
    found = REPO_NAME_LINE.search((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert found, "mkdocs.yml: no `repo_name: !ENV [SITE_REPO_NAME, ...]` line"
    return found["default"]


def built_repo_url() -> str:
    """The address a build in this environment links to."""
    return os.environ.get("SITE_REPO_URL") or default_repo_url()


def built_repo_name() -> str:
    return os.environ.get("SITE_REPO_NAME") or default_repo_name()


def test_the_name_is_the_end_of_the_address() -> None:
    assert default_repo_url().endswith("/" + default_repo_name())


def test_pyproject_repeats_the_default_address() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["urls"]["Source"] == default_repo_url()


def test_ci_builds_with_the_repository_it_runs_in() -> None:
    workflow = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    assert {k: workflow["env"][k] for k in WORKFLOW_REPO} == WORKFLOW_REPO


def test_every_page_links_the_repository_and_fetches_nothing_for_it(site: Path) -> None:
    url = built_repo_url()
    edit = EDIT_URI_LINE.search((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert edit, "mkdocs.yml: no edit_uri"
    problems = []
    for page in methodology_pages(site):
        links = page.root.find_all("a", cls="md-source")
        hrefs = [a.attrs.get("href") for a in links]
        if not links or set(hrefs) != {url}:
            problems.append(f"{page.name}: repository links {hrefs}, expected {url}")
        names = {" ".join(a.text().split()) for a in links}
        if names != {built_repo_name()}:
            problems.append(f"{page.name}: the repository is named {names}")
        widgets = [n for n in page.root.walk() if n.attrs.get("data-md-component") == "source"]
        if widgets:
            problems.append(f"{page.name}: the theme's repository widget (it calls GitHub's API)")
        source = f"{page.name.removesuffix('.html')}.md"
        edits = [a.attrs["href"] for a in page.root.find_all("a") if a.attrs.get("rel") == "edit"]
        if edits != [f"{url}/{edit['uri']}{source}"]:
            problems.append(f"{page.name}: edit links {edits}")
    assert not problems, "\n".join(problems)


def _clone_lines(page_html: Path) -> list[str]:
    page = parse(page_html, page_html.parent)
    blocks = [n for n in page.article.walk() if n.attrs.get("data-mv") == "repository:clone"]
    assert len(blocks) == 1, f"{page_html.name}: {len(blocks)} clone blocks"
    return blocks[0].text().strip().splitlines()


def test_the_reproduce_page_clones_the_repository(site: Path) -> None:
    url = built_repo_url()
    lines = _clone_lines(site / "reproduce.html")
    assert lines[:2] == [f"git clone {url}", f"cd {url.rsplit('/', 1)[-1]}"]
    page = parse(site / "reproduce.html", site)
    assert url in {a.attrs.get("href") for a in page.article.find_all("a", cls="repository")}


@pytest.mark.slow
def test_the_clone_command_follows_the_setting(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The reproduce page rendered with another SITE_REPO_URL clones that repository."""
    other = "https://git.example.org/a-fork/scoring-fork"
    monkeypatch.setenv("SITE_REPO_URL", other)
    result = render_pages(ROOT, tmp_path, ("reproduce.md",))
    assert result.returncode == 0, result.stdout + result.stderr
    assert _clone_lines(tmp_path / "reproduce.html")[:2] == [
        f"git clone {other}",
        "cd scoring-fork",
    ]
