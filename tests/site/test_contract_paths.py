"""The "Where things live" section of docs/contract.md names files and folders of this
repository, and names defined in them; each must exist, or a writer following the page is
sent nowhere. The table of checks before it names the test files that run each check; each
of those must exist too."""

from __future__ import annotations

import re
from pathlib import Path

from support import ROOT

PAGE = ROOT / "docs" / "contract.md"
SECTION = "## Where things live"
#: The table of checks and the test files that run them.
CHECKS_SECTION = "## The checks, and what runs them"

#: A code span that names a path: it has a slash or a file suffix we use.
PATH = re.compile(r"`([\w./-]+(?:/|\.py|\.yml|\.md))`")
#: Names the section says are defined in a given file.
DEFINED_IN = {
    "Site": "docs/macros/site.py",
    "MACROS_BY_MODULE": "docs/macros/__init__.py",
    "PLOTS": "docs/macros/figures.py",
    "formula": "scoring/registry.py",
}


def section(text: str, heading: str = SECTION) -> str:
    """The text of the section, up to the next heading of the same level."""
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    return text[start : end if end != -1 else len(text)]


def missing_paths(text: str, root: Path, heading: str = SECTION) -> list[str]:
    """Paths named in the section that do not exist under ``root``."""
    named = PATH.findall(section(text, heading))
    return [p for p in named if not (root / p.rstrip("/")).exists()]


def missing_names(text: str, root: Path) -> list[str]:
    """Names the section uses that are not defined where :data:`DEFINED_IN` says."""
    body = section(text)
    problems = []
    for name, path in DEFINED_IN.items():
        if f"`{name}`" not in body:
            problems.append(f"{name} is no longer named in the section: update DEFINED_IN")
            continue
        source = (root / path).read_text(encoding="utf-8")
        if not re.search(rf"^(?:class |def )?{re.escape(name)}\b", source, re.MULTILINE):
            problems.append(f"{name} is not defined at the top level of {path}")
    return problems


def test_every_path_in_the_section_exists() -> None:
    text = PAGE.read_text(encoding="utf-8")
    assert len(PATH.findall(section(text))) >= len(DEFINED_IN)
    assert missing_paths(text, ROOT) == []


def test_every_name_in_the_section_is_defined_where_it_says() -> None:
    assert missing_names(PAGE.read_text(encoding="utf-8"), ROOT) == []


def test_a_moved_file_is_found() -> None:
    text = PAGE.read_text(encoding="utf-8").replace(
        "`docs/macros/figures.py`", "`docs/macros/graphs.py`"
    )
    assert missing_paths(text, ROOT) == ["docs/macros/graphs.py"]


def test_a_renamed_name_is_found(tmp_path: Path) -> None:
    for path in DEFINED_IN.values():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        source = (ROOT / path).read_text(encoding="utf-8")
        (tmp_path / path).write_text(source.replace("PLOTS", "FIGURES"), encoding="utf-8")
    problems = missing_names(PAGE.read_text(encoding="utf-8"), tmp_path)
    assert problems == ["PLOTS is not defined at the top level of docs/macros/figures.py"]


def test_every_test_file_in_the_table_of_checks_exists() -> None:
    text = PAGE.read_text(encoding="utf-8")
    named = PATH.findall(section(text, CHECKS_SECTION))
    assert sum(p.startswith("tests/") for p in named) >= len(DEFINED_IN)
    assert missing_paths(text, ROOT, CHECKS_SECTION) == []


def test_a_renamed_test_file_in_the_table_of_checks_is_found() -> None:
    text = PAGE.read_text(encoding="utf-8").replace(
        "`tests/site/test_typesetting.py`", "`tests/site/test_layout.py`"
    )
    assert missing_paths(text, ROOT, CHECKS_SECTION) == ["tests/site/test_layout.py"]
