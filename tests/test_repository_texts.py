"""The repository speaks of the project only, and its modules keep their private names and
say what they hold.

Three rules, checked on every tracked file (and a fourth on every module):

- **No citation of a file outside the repository.** A clone has only what is tracked: a
  relative path that climbs out of the repository, or a source document kept beside it,
  is a citation nobody can follow. The site's pages are the methodology's specification;
  code, tests and docstrings cite a page (``docs/uncertainty.md``) or a public paper.
- **No history of how the project was built.** Working notes (a numbered session or issue,
  a machine's home or scratch folder) mean nothing to a reader of the repository. A
  measured figure names the commit and the machine it was measured on instead.
- **No private name crosses a module boundary.** A name with a leading underscore is read
  only in the module that defines it; what another module needs is public, documented and
  typed like the rest of the interface.
- **Every module says what it holds**: a module of ``scoring/``, ``contracts/`` or
  ``docs/macros/`` opens with a docstring whose first line names its content.

Each rule is shown to fail on text written to break it, and to let ordinary text through.
"""

from __future__ import annotations

import ast
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from contracts.source import REPO_ROOT

#: Files read as text (a binary file or a data log cites nothing).
TEXT_SUFFIXES = frozenset(
    {".py", ".md", ".yml", ".yaml", ".toml", ".js", ".css", ".html", ".txt", ".sql", ".cfg"}
)
#: Source documents of the methodology that are not in the repository: their content is
#: on the site's pages, which are what the project cites.
OUTSIDE_DOCUMENTS = re.compile(
    r"decisions\.md|methodology-page\.txt|outcome-score-pr\.txt|\.\./s[h]ared\b"
)
#: Working notes: a numbered session or issue, or a machine's own folders.
HISTORY = re.compile(
    r"\b[Ss]ession (?:\d+|\d+'s)\b|\bsessions \d+\b|\b[Ii]ssue #?\d+\b|\(#\d{1,4}\)"
    r"|(?<![\w.])/w[o]rk/|/r[o]ot/|/tmp/pytest-o[f]-|\bwt-[a-z]+\b|\bthe lea[d]'s\b"
)
#: Files that may use a word the patterns match for another meaning, with the reason.
HISTORY_ALLOWED: dict[str, str] = {}
#: Files that may write a path above the root, with the reason.
OUTSIDE_ALLOWED = {
    "tests/contracts/test_contract_faults.py": "hostile paths fed to the tooling, refused",
}

_RELATIVE_PATH = re.compile(r"(?:(?<=[\s(`'\"])|^)((?:\.\./)+[\w.\-/]+)")


def tracked_text_files() -> list[Path]:
    """Every tracked file with a text suffix."""
    names = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO_ROOT, capture_output=True, check=True
    ).stdout.decode("utf-8")
    return [
        REPO_ROOT / name
        for name in names.split("\0")
        if name and Path(name).suffix in TEXT_SUFFIXES and (REPO_ROOT / name).is_file()
    ]


def outside_citations(path: Path, text: str) -> list[str]:
    """Each line of ``text`` (the file at ``path``) that cites a file outside the repository:
    a named source document, or a relative path that climbs above the repository's root."""
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        if OUTSIDE_DOCUMENTS.search(line):
            found.append(f"{number}: {line.strip()}")
            continue
        for match in _RELATIVE_PATH.finditer(line):
            target = (path.parent / match.group(1)).resolve()
            if not target.is_relative_to(REPO_ROOT):
                found.append(f"{number}: {line.strip()}")
                break
    return found


def history_lines(text: str) -> list[str]:
    """Each line of ``text`` that tells how the project was built."""
    return [
        f"{number}: {line.strip()}"
        for number, line in enumerate(text.splitlines(), start=1)
        if HISTORY.search(line)
    ]


@dataclass(frozen=True, slots=True)
class Crossing:
    """A private name of one module read in another."""

    path: str
    line: int
    what: str


def private_crossings(path: str, source: str, local_modules: set[str]) -> list[Crossing]:
    """The private names ``source`` (the module at ``path``) imports from, or reads on,
    another module of the project (``local_modules``: the project's module names)."""
    tree = ast.parse(source)
    modules: set[str] = set()
    found: list[Crossing] = []

    def private(name: str) -> bool:
        return name.startswith("_") and not name.startswith("__")

    def ours(module: str) -> bool:
        return module.split(".")[0] in local_modules

    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if not ours(node.module):
                continue
            for alias in node.names:
                if private(alias.name):
                    found.append(Crossing(path, node.lineno, f"{node.module}.{alias.name}"))
                elif alias.asname is not None and private(alias.asname):
                    # Another module's public name made private here: two names for one
                    # thing, and the reader of this module cannot tell it is borrowed.
                    what = f"{node.module}.{alias.name} as {alias.asname}"
                    found.append(Crossing(path, node.lineno, what))
                else:
                    modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if ours(alias.name):
                    modules.add((alias.asname or alias.name).split(".")[0])
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr):
            base = node.value
            while isinstance(base, ast.Attribute):
                base = base.value
            if isinstance(base, ast.Name) and base.id in modules:
                found.append(Crossing(path, node.lineno, ast.unparse(node)))
    return found


def python_files() -> list[Path]:
    return [p for p in tracked_text_files() if p.suffix == ".py"]


def local_module_names(paths: list[Path]) -> set[str]:
    """The project's packages and every module's own name (tests import their helpers by
    name, from the folders on ``pythonpath``)."""
    return {"scoring", "contracts", "macros"} | {p.stem for p in paths}


# --- the rules on the repository -------------------------------------------------------------


def test_no_file_cites_a_file_outside_the_repository() -> None:
    problems = {
        str(path.relative_to(REPO_ROOT)): lines
        for path in tracked_text_files()
        if str(path.relative_to(REPO_ROOT)) not in OUTSIDE_ALLOWED
        and (lines := outside_citations(path, path.read_text(encoding="utf-8", errors="replace")))
    }
    assert not problems, problems


def test_no_file_tells_how_the_project_was_built() -> None:
    problems = {
        name: lines
        for path in tracked_text_files()
        if (name := str(path.relative_to(REPO_ROOT))) not in HISTORY_ALLOWED
        and (lines := history_lines(path.read_text(encoding="utf-8", errors="replace")))
    }
    assert not problems, problems


def test_no_private_name_crosses_a_module_boundary() -> None:
    paths = python_files()
    local = local_module_names(paths)
    crossings = [
        crossing
        for path in paths
        for crossing in private_crossings(
            str(path.relative_to(REPO_ROOT)), path.read_text(encoding="utf-8"), local
        )
    ]
    assert not crossings, "\n".join(f"{c.path}:{c.line}: {c.what}" for c in crossings)


# --- each rule can fail, and lets ordinary text through ---------------------------------------


#: Words the examples are written with, filled in when a test runs, so that this file holds
#: no line the rules refuse.
WORDS = {
    "shared": "shared",
    "decisions": "decisions" + ".md",
    "page": "methodology-page" + ".txt",
    "up": "/".join([".."] * 3),
    "copy": "wt" + "-scorer",
    "session": "session",
    "issue": "issue",
    "work": "work",
    "scratch": "pytest-of-root",
}


@pytest.mark.parametrize(
    "line",
    [
        "See ../{shared}/spec/{decisions} for the rule.",
        "# {decisions}, section Uncertainty",
        "the {page} says so",
        "data = Path('{up}/outside/file.json')",
    ],
)
def test_an_outside_citation_is_found(line: str) -> None:
    line = line.format(**WORDS)
    assert outside_citations(REPO_ROOT / "tests" / "x.py", f"ok\n{line}\n") == [f"2: {line}"]


@pytest.mark.parametrize(
    "line",
    [
        "See docs/uncertainty.md for the rule.",
        "[the glossary](../glossary.md)",  # a page beside another page's folder
        "from . import sibling",
    ],
)
def test_a_citation_inside_the_repository_passes(line: str) -> None:
    assert outside_citations(REPO_ROOT / "docs" / "examples" / "x.md", line) == []


@pytest.mark.parametrize(
    "line",
    [
        "Measured in {session} 17 on its final code.",
        "{session} 16's code, same machine",
        "the targets of {issue} 26",
        "Faults of the tooling (#{number}).",
        "python bench.py --baseline /{work}/base",
        "a copy in ../{copy}",
        "kept in /tmp/{scratch}/pytest-7/",
    ],
)
def test_a_history_line_is_found(line: str) -> None:
    line = line.format(number=12, **WORDS)
    assert history_lines(f"ok\n{line}\n") == [f"2: {line}"]


@pytest.mark.parametrize(
    "line",
    [
        "The test session builds the site once (tests/session_folders.py).",
        "Measured at commit 1a2b3c4 on a 2-core machine.",
        "An issue with a log is reported with its line.",
        "color: #333;",
    ],
)
def test_ordinary_text_is_not_history(line: str) -> None:
    assert history_lines(line) == []


def test_a_private_import_and_a_private_read_are_found() -> None:
    source = (
        "from scoring.intervals.moves import _means, cohort_means\n"
        "import scoring.intervals.rates as rates\n"
        "x = rates._pooled(1)\n"
        "from json import _private_of_the_stdlib\n"
        "from scoring.intervals.rate_bounds import pooled as _pooled\n"
    )
    found = private_crossings("m.py", source, {"scoring"})
    assert [(c.line, c.what) for c in found] == [
        (1, "scoring.intervals.moves._means"),
        (5, "scoring.intervals.rate_bounds.pooled as _pooled"),
        (3, "rates._pooled"),
    ]


def test_public_names_and_a_modules_own_private_names_pass() -> None:
    source = (
        "from scoring.intervals.moves import cohort_means\n_own = 1\nprint(_own, cohort_means)\n"
    )
    assert private_crossings("m.py", source, {"scoring"}) == []


#: The packages whose modules a reader navigates by what they hold.
DOCUMENTED_PACKAGES = ("scoring", "contracts", "docs/macros")


def module_summary(source: str) -> str | None:
    """The first line of a module's docstring, or ``None`` if it has none (or an empty one)."""
    docstring = ast.get_docstring(ast.parse(source))
    first = docstring.strip().splitlines()[0].strip() if docstring and docstring.strip() else ""
    return first or None


def test_every_module_says_what_it_holds() -> None:
    """Each module of ``scoring/``, ``contracts/`` and ``docs/macros/`` (packages' own
    ``__init__`` included) opens with a docstring whose first line says what it holds."""
    missing = [
        path.relative_to(REPO_ROOT).as_posix()
        for path in python_files()
        if path.relative_to(REPO_ROOT).as_posix().startswith(DOCUMENTED_PACKAGES)
        and module_summary(path.read_text(encoding="utf-8")) is None
    ]
    assert missing == [], f"modules without a docstring saying what they hold: {missing}"


@pytest.mark.parametrize(
    "source", ["", "import os\n", '"""   """\nx = 1\n', "# a comment\nx = 1\n"]
)
def test_a_module_without_a_summary_is_found(source: str) -> None:
    assert module_summary(source) is None


def test_a_module_with_a_summary_passes() -> None:
    assert module_summary('"""The curves.\n\nMore."""\n') == "The curves."
