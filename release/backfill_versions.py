"""Publish, once, the pages of the versions released before the versioned site existed.

Methodology 1.0.0 and 1.0.1 were released before the site was published with mike
(``docs/versions.md``, "The pages of every version"); from 1.1.0 on, the workflow deploys
each release from its tag. This script builds each released version that the ``gh-pages``
branch does not hold yet from its release commit, with mike, as a version that is already
old: its pages carry the banner "These pages describe an older version of the methodology"
in the page itself (``extra.older_version``, docs/overrides/main.html), and the theme's
version selector.

The commit of a version is found in git's history: the commit that released it (the one
that added ``contracts/snapshots/<version>.json``), or, when that commit had no site yet
(1.0.0 was released before the site was written), the newest commit before the next
release, where the code was still that version. Each commit is checked: its lock records
the version and its ``METHODOLOGY_VERSION`` is the version. The build runs in a temporary
git worktree of that commit with this checkout's theme overrides, and mike commits it to
``gh-pages``; nothing in the working copy changes.

    python release/backfill_versions.py            # every released version not deployed yet
    python release/backfill_versions.py 1.0.0      # only these
    python release/backfill_versions.py --push     # and push gh-pages to origin
    python release/backfill_versions.py --dry-run  # print the commits it would build from

Exit 0 when done (or nothing to do); 2 naming the version and the reason when a commit
cannot be found or checked, or a build fails.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCK = "contracts/snapshots/released.json"
SNAPSHOT = "contracts/snapshots/{version}.json"
CONSTANTS = "scoring/constants.py"
OVERRIDES = ROOT / "docs" / "overrides"
BRANCH = "gh-pages"
_VERSION_LINE = re.compile(r'^\] = "(?P<version>\d+\.\d+\.\d+)"$', re.MULTILINE)


class BackfillError(Exception):
    """A version whose commit cannot be found or checked, or whose build failed."""


def git(*args: str, cwd: Path = ROOT, check: bool = True) -> str:
    """The output of ``git ARGS`` in ``cwd``."""
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    if check and done.returncode != 0:
        raise BackfillError(f"git {' '.join(args)}: {done.stderr.strip()}")
    return done.stdout if done.returncode == 0 else ""


def version_key(version: str) -> tuple[int, ...]:
    """Sort key of ``MAJOR.MINOR.PATCH``."""
    return tuple(int(part) for part in version.split("."))


def released_versions() -> list[str]:
    """The versions in the lock of this checkout, oldest first."""
    lock = json.loads((ROOT / LOCK).read_text(encoding="utf-8"))
    return sorted(lock["released"], key=version_key)


def current_version() -> str:
    """``METHODOLOGY_VERSION`` of this checkout."""
    match = _VERSION_LINE.search((ROOT / CONSTANTS).read_text(encoding="utf-8"))
    if match is None:
        raise BackfillError(f"{CONSTANTS}: no METHODOLOGY_VERSION assignment found")
    return match["version"]


def deployed_versions() -> set[str]:
    """The versions ``gh-pages`` holds (its ``versions.json``), none without the branch."""
    text = git("show", f"{BRANCH}:versions.json", check=False)
    return {entry["version"] for entry in json.loads(text)} if text else set()


def release_commit(version: str) -> str:
    """The commit that added the version's snapshot (the oldest, if it was re-added)."""
    path = SNAPSHOT.format(version=version)
    added = git("log", "--diff-filter=A", "--format=%H", "--reverse", "HEAD", "--", path).split()
    if not added:
        raise BackfillError(f"{version}: no commit adds {path} (a shallow clone? fetch all)")
    return added[0]


def _has(commit: str, path: str) -> bool:
    """Whether ``path`` exists at ``commit``."""
    done = subprocess.run(
        ["git", "cat-file", "-e", f"{commit}:{path}"], cwd=ROOT, capture_output=True, check=False
    )
    return done.returncode == 0


def pages_commit(version: str, versions: list[str]) -> str:
    """The commit to build ``version``'s pages from (see the module's docstring), checked."""
    commit = release_commit(version)
    if not _has(commit, "mkdocs.yml"):
        later = [v for v in versions if version_key(v) > version_key(version)]
        if not later:
            raise BackfillError(f"{version}: its release commit {commit[:12]} has no site")
        commit = git("rev-parse", f"{release_commit(later[0])}^").strip()
        if not _has(commit, "mkdocs.yml"):
            raise BackfillError(f"{version}: no commit of this version has a site")
    lock = json.loads(git("show", f"{commit}:{LOCK}"))
    if version not in lock["released"]:
        raise BackfillError(f"{version}: the lock at {commit[:12]} does not record it")
    match = _VERSION_LINE.search(git("show", f"{commit}:{CONSTANTS}"))
    if match is None or match["version"] != version:
        found = match["version"] if match else "none"
        raise BackfillError(f"{version}: METHODOLOGY_VERSION at {commit[:12]} is {found}")
    return commit


def as_older_version(config: str, overrides: Path) -> str:
    """The text of an old ``mkdocs.yml`` with the theme overrides of this checkout, the
    version selector and the banner of an older version.

    >>> print(as_older_version("theme:\\n  name: material\\nextra:\\n  a: 1\\n", Path("/o")))
    theme:
      custom_dir: /o
      name: material
    extra:
      older_version: true
      version:
        provider: mike
      a: 1
    <BLANKLINE>
    """
    for key, lines in (
        ("theme", [f"  custom_dir: {overrides}"]),
        ("extra", ["  older_version: true", "  version:", "    provider: mike"]),
    ):
        pattern = re.compile(rf"^{key}:[ \t]*\n", re.MULTILINE)
        if not pattern.search(config):
            raise BackfillError(f"mkdocs.yml has no top-level '{key}:' mapping to extend")
        config = pattern.sub(lambda m, ls=lines: m.group() + "\n".join(ls) + "\n", config, 1)
    return config


def build(version: str, commit: str, push: bool) -> None:
    """Build ``version`` from ``commit`` in a temporary worktree and deploy it with mike."""
    env = dict(os.environ)
    # mike runs `mkdocs build` by name: the tools of this interpreter's environment.
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    with tempfile.TemporaryDirectory(prefix=f"pages-{version}-") as folder:
        tree = Path(folder) / "tree"
        git("worktree", "add", "--detach", str(tree), commit)
        try:
            config = tree / "mkdocs.yml"
            old = config.read_text(encoding="utf-8")
            config.write_text(as_older_version(old, OVERRIDES), encoding="utf-8")
            command = [str(Path(sys.executable).parent / "mike"), "deploy", version]
            command += ["--push"] if push else []
            message = f"Pages of methodology {version}, built from {commit[:12]}"
            command += ["--message", message]
            done = subprocess.run(command, cwd=tree, env=env, check=False)
            if done.returncode != 0:
                raise BackfillError(f"{version}: mike deploy exited {done.returncode}")
        finally:
            git("worktree", "remove", "--force", str(tree), check=False)


def main(argv: list[str] | None = None) -> int:
    """Find each version's commit, then build and deploy it (see the module's docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("versions", nargs="*", metavar="VERSION")
    parser.add_argument("--push", action="store_true", help="push gh-pages to origin")
    parser.add_argument("--dry-run", action="store_true", help="only print the commits")
    args = parser.parse_args(argv)
    try:
        versions = released_versions()
        current = current_version()
        older = [v for v in versions if v != current]
        wanted = args.versions or [v for v in older if v not in deployed_versions()]
        unknown = [v for v in wanted if v not in versions]
        if unknown:
            raise BackfillError(f"not released (not in {LOCK}): {', '.join(unknown)}")
        if current in wanted:
            raise BackfillError(
                f"{current} is the current version: the release step deploys it as "
                "'latest' (docs/versions.md), not as an older version"
            )
        plan = [(version, pages_commit(version, versions)) for version in wanted]
        for version, commit in plan:
            subject = git("log", "-1", "--format=%s", commit).strip()
            print(f"{version}: pages from {commit[:12]} ({subject})")
        if not args.dry_run:
            for version, commit in plan:
                build(version, commit, args.push)
    except BackfillError as error:
        print(f"backfill_versions: {error}", file=sys.stderr)
        return 2
    if not plan:
        print("backfill_versions: every released version is deployed already")
    return 0


if __name__ == "__main__":
    sys.exit(main())
