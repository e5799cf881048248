"""Folders made once per test session and shared by every pytest-xdist worker.

The suite runs on several workers (``-n auto`` in pyproject.toml), each a process of its
own; a site built in one worker's memory would be built again in the other. A shared
folder lives under the session's temporary root (the parent of each worker's base
temporary folder), named by what it is and a hash of its inputs; the first worker that asks
makes it under a file lock, the others wait for the lock and find it made. A made folder is
never changed afterwards: a test that spoils a site copies it first.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest
from filelock import FileLock

from contracts.source import REPO_ROOT

#: What a build of the site reads: a change to any of them is another site.
SITE_INPUTS = ("mkdocs.yml", "pyproject.toml", "docs", "scoring", "contracts")
_SKIPPED_PARTS = frozenset({"__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache"})
#: The file beside a made folder that says it was made completely (the folder alone might
#: be what a worker killed half-way left behind).
_DONE_SUFFIX = ".done"


def session_root(factory: pytest.TempPathFactory) -> Path:
    """The temporary root every worker of this session shares (the session's own base
    folder when the run has no workers)."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


def inputs_hash(parts: Iterable[str] = SITE_INPUTS, root: Path = REPO_ROOT) -> str:
    """A hash of the names and bytes of every file under ``parts`` of ``root`` (caches left
    out), the first 16 hex digits.

    >>> len(inputs_hash(["pyproject.toml"]))
    16
    """
    digest = hashlib.sha256()
    for part in parts:
        top = root / part
        files = [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file())
        for path in files:
            if _SKIPPED_PARTS.intersection(path.relative_to(root).parts):
                continue
            digest.update(path.relative_to(root).as_posix().encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def shared_folder(
    factory: pytest.TempPathFactory, name: str, make: Callable[[Path], None], key: str
) -> Path:
    """The folder ``<name>-<key>`` of the session root, made by ``make(folder)`` once for
    all workers. ``make`` fails the test (``pytest.fail``) when it cannot; the next worker
    that asks tries again."""
    root = session_root(factory)
    folder = root / f"{name}-{key}"
    done = folder.with_name(folder.name + _DONE_SUFFIX)
    with FileLock(str(folder.with_name(folder.name + ".lock"))):
        if not done.exists():
            if folder.exists():
                shutil.rmtree(folder)
            make(folder)
            done.write_text(name, encoding="utf-8")
    return folder
