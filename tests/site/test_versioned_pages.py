"""Versioned pages with mike, in a scratch git repository holding a copy of the project:
two versions deployed, the version selector's ``versions.json`` lists both (the newer as
``latest``), each version's pages turn the selector on and carry the "older version"
banner, the versions page links each version's pages to folders that exist, and the root
opens ``latest``. A plain build has no selector (nothing to fetch); the hook is what
removes it.

Each deployment is a build of the site: slow. The copy is cut to the pages the tests read
(:data:`PAGES`; ``serving.cut_to_pages`` makes the others stubs): a deployment renders
those through the macros, not every page.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from chromium_driver import console_errors, load, serve, wait_for
from processes import run_captured
from serving import copy_project
from session_folders import inputs_hash, shared_folder
from support import built_site

pytestmark = pytest.mark.slow

COPIED = ("mkdocs.yml", "docs", "scoring", "contracts", "pyproject.toml")
#: The pages the tests read (the others are stubs in the deployed copy).
PAGES = ("index.md", "composite.md", "versions.md")
MIKE = Path(sys.executable).parent / "mike"
#: The theme's version setting where mike builds (mkdocs.yml): no banner on latest or dev.
SELECTOR = {"provider": "mike", "default": ["latest", "dev"]}
_CONFIG = re.compile(r'<script id="__config" type="application/json">(.*?)</script>', re.DOTALL)


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MIKE_", "GIT_"))}
    # mike runs `mkdocs build` by name.
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["NO_MKDOCS_2_WARNING"] = "1"
    return env


def run(root: Path, *command: str) -> str:
    done = run_captured(command, cwd=root, env=_env(), timeout=600)
    assert done.returncode == 0, f"{' '.join(command)}:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def git(root: Path, *args: str) -> str:
    return run(root, "git", *args)


def shown(root: Path, path: str) -> str:
    """A file of the gh-pages branch."""
    return git(root, "show", f"gh-pages:{path}")


def page_config(html: str) -> dict[str, Any]:
    match = _CONFIG.search(html)
    assert match, "no theme configuration in the page"
    config: dict[str, Any] = json.loads(match.group(1))
    return config


def _deploy(root: Path) -> None:
    """In ``root``: a git repository with the project, 1.0.0 deployed, then 1.0.1 as latest
    and default."""
    if not MIKE.exists():
        pytest.fail(f"mike is not installed beside {sys.executable} (the docs extra pins it)")
    copy_project(root, COPIED, pages=PAGES)
    git(root, "init", "-q", "-b", "main")
    git(root, "config", "user.name", "Test")
    git(root, "config", "user.email", "test@example.invalid")
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", "the project")
    run(root, str(MIKE), "deploy", "1.0.0", "latest")
    index = root / "docs" / "index.md"
    index.write_text(index.read_text(encoding="utf-8") + "\nA later release.\n", encoding="utf-8")
    git(root, "commit", "-q", "-am", "a later release")
    run(root, str(MIKE), "deploy", "--update-aliases", "1.0.1", "latest")
    run(root, str(MIKE), "set-default", "latest")


@pytest.fixture(scope="module")
def deployed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The repository of :func:`_deploy`, made once per session for every worker (the
    browser's test runs on another worker than the others); the tests only read it."""
    return shared_folder(tmp_path_factory, "versioned", _deploy, inputs_hash(COPIED))


def test_versions_json_lists_both_versions(deployed: Path) -> None:
    versions = json.loads(shown(deployed, "versions.json"))
    assert [(v["version"], v["aliases"]) for v in versions] == [
        ("1.0.1", ["latest"]),
        ("1.0.0", []),
    ]
    listed = set(git(deployed, "ls-tree", "--name-only", "gh-pages").split())
    assert {"1.0.0", "1.0.1", "latest", "index.html", "versions.json"} <= listed
    assert "latest/" in shown(deployed, "index.html")  # the root opens the current release


def test_each_version_turns_the_selector_on_with_the_older_version_banner(deployed: Path) -> None:
    for version in ("1.0.0", "1.0.1"):
        html = shown(deployed, f"{version}/composite.html")
        assert page_config(html)["version"] == SELECTOR
        # The theme's script shows it where versions.json says the page is not "latest".
        banner = html.split('data-md-component="outdated"', 1)[1].split("</aside>", 1)[0]
        assert "not the current one" in banner
        assert 'href="./../index.html"' in banner
    assert "A later release." in shown(deployed, "1.0.1/index.html")
    assert "A later release." not in shown(deployed, "1.0.0/index.html")


def test_the_versions_page_links_pages_that_exist(deployed: Path) -> None:
    html = shown(deployed, "1.0.1/versions.html")
    links = set(re.findall(r'href="\.\./([^"#]+)"', html))
    assert {"latest/index.html"} <= links
    released = [v["version"] for v in json.loads(shown(deployed, "versions.json"))]
    published = set(git(deployed, "ls-tree", "-r", "--name-only", "gh-pages").split())
    for version in json.loads((deployed / "contracts/snapshots/released.json").read_text())[
        "released"
    ]:
        assert f"{version}/index.html" in links
        if version in released:
            assert f"{version}/index.html" in published
    # Each deployed version carries the zip of its own pages.
    assert any(re.fullmatch(r"1\.0\.1/downloads/methodology-site-.*\.zip", p) for p in published)


def test_a_plain_build_has_no_selector_and_the_hook_is_why(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    # The plain build is the session's build of this repository (the project mike deployed).
    plain = built_site(tmp_path_factory)
    assert page_config((plain / "index.html").read_text())["version"] is None
    # With the hook's condition met (as under mike), the same build turns the selector on
    # (of a copy cut to the page read: the hook sets the theme's configuration, every page's).
    project = copy_project(tmp_path / "project", pages=("index.md",))
    env = {**_env(), "MIKE_DOCS_VERSION": "9.9.9"}
    command = [sys.executable, "-m", "mkdocs", "build", "-q", "-d", str(tmp_path / "as-mike")]
    subprocess.run(command, cwd=project, env=env, check=True, timeout=600)
    config = page_config((tmp_path / "as-mike" / "index.html").read_text())
    assert config["version"] == SELECTOR


def _export(root: Path, target: Path) -> Path:
    """The gh-pages tree as files (its aliases as the symbolic links mike made)."""
    target.mkdir()
    archive = subprocess.run(
        ["git", "archive", "gh-pages"], cwd=root, capture_output=True, check=True, timeout=120
    )
    subprocess.run(["tar", "-x", "-C", str(target)], input=archive.stdout, check=True)
    return target


def test_in_the_browser_the_selector_lists_both_and_the_older_says_so(
    deployed: Path, tmp_path: Path, chromium: Any
) -> None:
    with serve(_export(deployed, tmp_path / "gh-pages")) as base:
        links = "Array.from(document.querySelectorAll('.md-version__link'))"
        versions = f"const v = {links}.map(a => a.textContent.trim()); return v.length ? v : null"
        banner = "const el = document.querySelector('[data-md-component=outdated]');"
        banner += " return el && !el.hidden ? el.textContent : '';"

        load(chromium, f"{base}1.0.0/composite.html")
        assert wait_for(chromium, versions) == ["1.0.1", "1.0.0"]
        assert "not the current one" in wait_for(chromium, banner)
        link = chromium.find_element("css selector", "[data-md-component=outdated] a")
        assert link.get_attribute("href") == f"{base}index.html"
        assert console_errors(chromium) == []

        # The current release: the same selector, no banner (a new tab: the theme keeps
        # its verdict for the session).
        chromium.switch_to.new_window("tab")
        try:
            load(chromium, f"{base}latest/composite.html")
            assert wait_for(chromium, versions) == ["1.0.1", "1.0.0"]
            assert chromium.execute_script(banner) == ""
            assert console_errors(chromium) == []
        finally:
            chromium.close()
            chromium.switch_to.window(chromium.window_handles[0])
