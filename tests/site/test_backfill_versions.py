"""``release/backfill_versions.py`` in a clone of this repository: it finds the commit of each
version released before the versioned site from git's history, refuses the current version,
and deploys an older one with mike, its pages built from that commit with the banner of an
older version in the page itself.

Slow: a clone and a build of the site as it was.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from processes import run_captured
from support import ROOT

from contracts.store import read_lock
from scoring.constants import METHODOLOGY_VERSION

pytestmark = pytest.mark.slow

SCRIPT = "release/backfill_versions.py"
# What the clone runs is this working copy's (committed or not).
CURRENT_FILES = (SCRIPT, "docs/overrides")
_VERSION = re.compile(r'^\] = "(\d+\.\d+\.\d+)"$', re.MULTILINE)


def git(root: Path, *args: str) -> str:
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
    return done.stdout


def backfill(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MIKE_", "GIT_"))}
    env["NO_MKDOCS_2_WARNING"] = "1"
    return run_captured([sys.executable, SCRIPT, *args], cwd=root, env=env, timeout=900)


@pytest.fixture(scope="module")
def clone(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if git(ROOT, "rev-parse", "--is-shallow-repository").strip() == "true":
        pytest.skip("a shallow clone has no release commits to build from (fetch all)")
    root = tmp_path_factory.mktemp("backfill") / "repo"
    git(ROOT, "clone", "-q", str(ROOT), str(root))
    for name in CURRENT_FILES:
        source, target = ROOT / name, root / name
        if source.is_dir():
            shutil.rmtree(target, ignore_errors=True)
            shutil.copytree(source, target)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
    git(root, "config", "user.name", "Test")
    git(root, "config", "user.email", "test@example.invalid")
    return root


def _older() -> list[str]:
    return [v for v in read_lock() if v != METHODOLOGY_VERSION]


def test_the_commits_are_found_and_are_of_their_version(clone: Path) -> None:
    done = backfill(clone, "--dry-run")
    assert done.returncode == 0, done.stderr
    planned = dict(re.findall(r"^(\S+): pages from ([0-9a-f]{12}) ", done.stdout, re.MULTILINE))
    assert sorted(planned) == sorted(_older())
    for version, commit in planned.items():
        assert _VERSION.search(git(clone, "show", f"{commit}:scoring/constants.py"))[1] == version
        assert (
            version
            in json.loads(git(clone, "show", f"{commit}:contracts/snapshots/released.json"))[
                "released"
            ]
        )
        git(clone, "cat-file", "-e", f"{commit}:mkdocs.yml")


def test_the_current_version_is_refused(clone: Path) -> None:
    done = backfill(clone, METHODOLOGY_VERSION)
    assert done.returncode == 2
    assert f"{METHODOLOGY_VERSION} is the current version" in done.stderr
    assert git(clone, "branch", "--list", "gh-pages") == ""


def test_an_older_version_is_deployed_with_its_banner(clone: Path) -> None:
    version = _older()[0]
    done = backfill(clone, version)
    assert done.returncode == 0, done.stdout + done.stderr
    versions = json.loads(git(clone, "show", "gh-pages:versions.json"))
    assert [v["version"] for v in versions] == [version]
    page = git(clone, "show", f"gh-pages:{version}/composite.html")
    # In the page itself, not left to a script: it shows offline too.
    # (The theme's own "outdated" banner, next in the page, stays hidden without its script.)
    announce = page.split('data-md-component="announce"', 1)[1]
    announce = announce.split('data-md-component="outdated"', 1)[0]
    assert "not the current one" in announce
    assert '"provider": "mike"' in page
    subject = git(clone, "log", "-1", "--format=%s", "gh-pages")
    assert subject.startswith(f"Pages of methodology {version}, built from ")
    assert git(clone, "worktree", "list").count("\n") == 1  # its worktree is removed
    # Nothing else is deployed twice: a second run has nothing to do for it.
    again = backfill(clone, "--dry-run")
    assert f"{version}: pages from" not in again.stdout
