"""The one home of the repository's paths and source locations.

- :data:`REPO_ROOT`, found from this file alone: it must be known exactly when ``scoring``
  does not import (to name the line of a broken constant), so nothing here imports it.
- :func:`display_path` and :func:`repo_relative`: how a path is written in a message, a
  snapshot or a link.
- :func:`definitions` and :func:`locate`: the line where a module-level name is defined now,
  read from the source with :mod:`ast` (never from an import), so that a snapshot records a
  file and a symbol and its line is found live.

It imports nothing of the project but the snapshot's model (plain data), so that every
module of ``contracts`` and ``docs/macros`` can use it without an import cycle.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass
from pathlib import Path

from contracts.model import Location

#: The repository root (the folder that holds ``scoring/`` and ``contracts/``).
REPO_ROOT: Path = Path(__file__).resolve().parent.parent


@dataclass(frozen=True, slots=True)
class Span:
    """The lines (1-based, inclusive) of one definition: decorators included."""

    first: int
    last: int


def display_path(path: Path | str) -> str:
    """``path`` relative to the repository root when it lies inside it, else as given.

    >>> display_path(REPO_ROOT / "scoring" / "constants.py")
    'scoring/constants.py'
    >>> display_path("/elsewhere/x.json")
    '/elsewhere/x.json'
    """
    resolved = Path(path).resolve()
    try:
        return resolved.relative_to(REPO_ROOT).as_posix()
    except ValueError:
        return str(path)


def repo_relative(path: Path | str | None) -> str:
    """``path`` as a POSIX path from the repository root; ``ValueError`` if it is outside
    (or unknown: a function defined in no file)."""
    if path is None:
        raise ValueError("source file unknown")
    return Path(path).resolve().relative_to(REPO_ROOT).as_posix()


def is_inside(path: Path | str) -> bool:
    """Whether ``path`` (resolved, symbolic links followed) lies inside the repository."""
    return Path(path).resolve().is_relative_to(REPO_ROOT)


@functools.lru_cache(maxsize=64)
def _definitions(path: Path, mtime_ns: int) -> dict[str, Span]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    spans: dict[str, Span] = {}
    for node in tree.body:
        last = node.end_lineno or node.lineno
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            spans[node.target.id] = Span(node.lineno, last)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    spans[target.id] = Span(node.lineno, last)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            first = node.decorator_list[0].lineno if node.decorator_list else node.lineno
            spans[node.name] = Span(first, last)
    return spans


def definitions(path: Path) -> dict[str, Span]:
    """Every module-level name ``path`` defines (assignments, functions, classes) and its
    lines, as the file reads now (cached while the file is unchanged).

    Raises ``OSError``, ``SyntaxError`` or ``UnicodeDecodeError`` for a file that cannot be
    read or parsed.
    """
    return _definitions(path, path.stat().st_mtime_ns)


def definition_span(location: Location) -> Span | None:
    """The lines of ``location``'s symbol now; ``None`` if it is not found.

    Only a regular file inside the repository is read (a symbolic link out of it is not);
    a file that cannot be read or parsed has no span. A dotted symbol (``Class.method``)
    is found by its first part.
    """
    path = (REPO_ROOT / location.file).resolve()
    if not path.is_relative_to(REPO_ROOT):
        return None
    try:
        if not path.is_file():
            return None
        spans = definitions(path)
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError, RecursionError):
        return None
    return spans.get(location.symbol.split(".")[0])


def definition_end(file: str, first: int) -> int | None:
    """The last line of the top-level definition of the repository file ``file`` that
    starts on line ``first`` (an assignment, a decorated function); ``None`` if none does
    or the file cannot be read."""
    path = REPO_ROOT / file
    try:
        spans = definitions(path) if path.resolve().is_relative_to(REPO_ROOT) else {}
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError, RecursionError):
        return None
    return next((span.last for span in spans.values() if span.first == first), None)


def locate(location: Location) -> int:
    """The line where ``location``'s symbol is defined now (1-based); 0 if not found.

    >>> locate(Location(file="contracts/source.py", symbol="REPO_ROOT")) > 0
    True
    """
    span = definition_span(location)
    return 0 if span is None else span.first


@functools.lru_cache(maxsize=8)
def _string_lines(path: Path, mtime_ns: int) -> dict[str, int]:
    lines: dict[str, int] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            lines.setdefault(node.value, node.lineno)
    return lines


def string_line(file: str, text: str) -> int:
    """The first line of the repository file ``file`` that holds the string literal
    ``text`` (how a worked example is found by its name); 0 if none or unreadable."""
    path = REPO_ROOT / file
    try:
        return _string_lines(path, path.stat().st_mtime_ns).get(text, 0)
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError, RecursionError):
        return 0


@functools.lru_cache(maxsize=64)
def _references(path: Path, mtime_ns: int) -> dict[str, frozenset[str]]:
    found: dict[str, frozenset[str]] = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            names = {
                n.id if isinstance(n, ast.Name) else n.attr
                for statement in node.body
                for n in ast.walk(statement)
                if isinstance(n, ast.Name | ast.Attribute)
            }
            found[node.name] = found.get(node.name, frozenset()) | frozenset(names)
    return found


def function_references(folder: str) -> dict[str, frozenset[str]]:
    """Every function defined under the repository folder ``folder`` (``scoring``), by its
    bare name, and the names its body refers to (a call ``f(...)``, ``module.f(...)``):
    enough to tell that one function may call another. Functions of the same name are
    merged, so the answer errs towards "may call". Files that cannot be read or parsed are
    left out."""
    merged: dict[str, frozenset[str]] = {}
    for path in sorted((REPO_ROOT / folder).rglob("*.py")):
        try:
            found = _references(path, path.stat().st_mtime_ns)
        except (OSError, SyntaxError, UnicodeDecodeError, ValueError, RecursionError):
            continue
        for name, names in found.items():
            merged[name] = merged.get(name, frozenset()) | names
    return merged


def may_call(references: dict[str, frozenset[str]], caller: str, callee: str) -> bool:
    """Whether the function ``caller`` may call ``callee``, directly or through other
    functions of ``references`` (:func:`function_references`)."""
    seen, todo = {caller}, [caller]
    while todo:
        for name in references.get(todo.pop(), frozenset()):
            if name == callee:
                return True
            if name in references and name not in seen:
                seen.add(name)
                todo.append(name)
    return False
