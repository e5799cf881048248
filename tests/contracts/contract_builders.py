"""Builders shared by the contracts tests: edited copies of a snapshot, changelog entries,
scratch copies of the project and Python run in them."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import threading
from collections.abc import Sequence
from pathlib import Path

from forked_python import run_python

import contracts.check.drift
from contracts import store
from contracts.model import Methodology
from contracts.release import with_assignment
from contracts.source import locate
from contracts.update import UpdateResult, run_update
from scoring.constants import METHODOLOGY_VERSION

#: The version of the committed contracts the tests start from: the current (newest
#: released) one, which the live code is checked against.
VERSION = METHODOLOGY_VERSION


def with_constant(snapshot: Methodology, name: str, value: object) -> Methodology:
    """A copy of ``snapshot`` whose constant ``name`` has ``value``."""
    constants = [
        entry.model_copy(update={"value": value}) if entry.name == name else entry
        for entry in snapshot.constants
    ]
    return snapshot.model_copy(update={"constants": constants})


def bumped_to(snapshot: Methodology, version: str) -> Methodology:
    """A copy of ``snapshot`` that claims methodology ``version``."""
    new = with_constant(snapshot, "methodology.version", version)
    return new.model_copy(update={"methodology_version": version})


def add_entry(changelog: Path, version: str) -> None:
    """Put a changelog entry for ``version`` above the one of ``VERSION``."""
    text = changelog.read_text(encoding="utf-8")
    head, rest = text.split(f"\n## {VERSION} (", 1)
    # Dated as the entry below it: no date of the history runs backwards.
    dated = rest.split(")", 1)[0]
    entry = f"\n## {version} ({dated})\n\nCost weighs less.\n"
    changelog.write_text(f"{head}{entry}\n## {VERSION} ({rest}", encoding="utf-8")


def update_bumped(files: tuple[Path, Path], live: Methodology, version: str) -> UpdateResult:
    """``contracts update`` of the copy ``files`` (snapshots, changelog) with ``live`` bumped
    to ``version``, after a changelog entry for ``version``."""
    snapshots, changelog = files
    add_entry(changelog, version)
    return run_update(
        live=bumped_to(live, version), snapshot_dir=snapshots, changelog_path=changelog
    )


def line_of(snapshot: Methodology, name: str) -> int:
    """The line where constant ``name`` is defined."""
    return locate(snapshot.constant(name).defined_in)


def check_text(result: contracts.check.drift.CheckResult) -> str:
    """What the check prints for ``result``."""
    return "\n".join(result.lines())


def edit_snapshot(path: Path, keys: Sequence[str | int], value: object) -> None:
    """Set the field at ``keys`` (a path of names and indexes) in the snapshot file ``path``,
    written back as the store writes it, so that only that field differs."""
    data = json.loads(path.read_text(encoding="utf-8"))
    *parents, last = keys
    node = data
    for key in parents:
        node = node[key]
    node[last] = value
    path.write_text(store.pretty_json(data), encoding="utf-8")


def edit_lock(snapshots: Path, version: str, key: str, value: object) -> None:
    """Set the field ``key`` of the released ``version`` in the lock of the snapshots folder
    ``snapshots`` (written as ``json.dumps`` indents it, not as the store writes it)."""
    lock = snapshots / store.LOCK_FILENAME
    data = json.loads(lock.read_text(encoding="utf-8"))
    data["released"][version][key] = value
    lock.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def python_in(root: Path, *args: str, timeout_s: float = 600) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` in ``root``, with ``root`` first on the import path (so the copy's
    ``scoring`` and ``contracts`` are the ones imported); output captured as text. Forked
    from a process that has imported the heavy third-party libraries already
    (``tests/forked_python.py``): about half the time of a new interpreter."""
    env = {
        **os.environ,
        "PYTHONPATH": str(root),
        "PYTHONDONTWRITEBYTECODE": "1",
        "NO_MKDOCS_2_WARNING": "1",
    }
    return run_python(args, cwd=root, env=env, timeout=timeout_s)


#: ``ast.parse`` is not safe in two threads at once on CPython 3.11: its tree builder keeps
#: its recursion depth in state the threads share, and now and then raises "SystemError: AST
#: constructor recursion depth mismatch" (python/cpython#106905; seen in the suite, where
#: the scratch-copy scenarios edit their copies in a thread pool). One parse at a time.
_PARSING = threading.Lock()


def parse_python(source: str) -> ast.Module:
    """``ast.parse(source)``, one thread at a time (see :data:`_PARSING`)."""
    with _PARSING:
        return ast.parse(source)


def constant_set(source: str, name: str, expression: str) -> str:
    """``source`` (of ``scoring/constants.py``) with the constant ``name`` given the value
    ``expression`` (Python source): the named assignment is found by parsing the file and
    its value rewritten, whatever it reads now (never found by its literal text)."""
    with _PARSING:
        return with_assignment(source, name, expression)


def set_constant(root: Path, name: str, expression: str) -> None:
    """:func:`constant_set` on the copy ``root``'s ``scoring/constants.py``."""
    path = root / "scoring" / "constants.py"
    path.write_text(constant_set(path.read_text(encoding="utf-8"), name, expression), "utf-8")


def curve_source(anchors: Sequence[tuple[object, object]]) -> str:
    """The source of a curve constant with these ``(x, score)`` anchors, as written in
    ``scoring/constants.py``: ``_curve(("500", "100"), ...)``.

    >>> curve_source([("0.05", 100), ("5", 0)])
    '_curve(("0.05", "100"), ("5", "0"))'
    """
    return "_curve(" + ", ".join(f'("{x}", "{score}")' for x, score in anchors) + ")"
