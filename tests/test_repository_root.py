"""The repository root is defined once, in ``contracts/source.py``, and imported everywhere
else: a second definition is a second answer to "where is the project?" that can drift
(a file moved one folder down counts one parent too few).

A definition is any climb from a file's own path to the root or above it, named or not:
``ROOT = Path(__file__).resolve().parents[1]``, ``Path(__file__).parents[2] / "docs"``
inline, or ``HERE.parent.parent`` where ``HERE`` is the file's folder. A climb that stays
inside the repository (a module's own folder) is not one.
"""

from __future__ import annotations

import re
from pathlib import Path

from contracts.source import REPO_ROOT

# ``Path(__file__)``, resolved or not, then ``.parent`` repeated or ``.parents[k]``.
_FROM_FILE = r"Path\(__file__\)(?:\.resolve\(\))?"
_CLIMB = r"(?P<climb>(?:\.parent\b)+|\.parents\[(?P<index>\d+)\])"
#: A name bound to a path climbed from the file's own (``HERE = Path(__file__).parent``).
ANCHOR = re.compile(
    r"^[ \t]*(?P<name>[A-Za-z_]\w*)[ \t]*(?::[^=\n]+)?=[ \t]*" + _FROM_FILE + _CLIMB + r"?[ \t]*$",
    re.MULTILINE,
)
#: The one definition, and the files that must find their root from their own path, each
#: with why.
ALLOWED = {
    "contracts/source.py": "the one definition",
    "release/backfill_versions.py": "runs inside clones of older commits, whose root is its own",
    "docs/fonts/build_math_font.py": "a standalone script of the font, run without the project",
    "contracts/coverage/simulate.py": (
        "run as a script in scratch copies of the project, whose code must win over the "
        "installed one"
    ),
    "docs/hooks/site_zip.py": "run as a script by path, before the project is importable",
    "tests/test_repository_root.py": "the climbs this test looks for, written as its examples",
}
FOLDERS = ("scoring", "contracts", "tests", "benchmarks", "docs", "release")


def _levels(match: re.Match[str]) -> int:
    """How many folders a climb goes up (``.parent`` one, ``.parents[k]`` ``k + 1``)."""
    if match.group("climb") is None:
        return 0
    if match.group("index") is not None:
        return int(match.group("index")) + 1
    return match.group("climb").count(".parent")


def _code(line: str) -> str:
    """A line without its comment (a whole-line comment is no code at all)."""
    return "" if line.lstrip().startswith("#") else line.split("  #", 1)[0]


def root_climbs(path: Path, root: Path) -> list[str]:
    """The lines of the file at ``path`` that climb from its own path to ``root`` or above."""
    code = "\n".join(_code(line) for line in path.read_text(encoding="utf-8").splitlines())
    anchors = {m.group("name"): _levels(m) for m in ANCHOR.finditer(code)}
    names = "|".join(re.escape(name) for name in anchors)
    start = _FROM_FILE if not names else f"(?:{_FROM_FILE}|\\b(?P<anchor>{names}))"
    found: list[str] = []
    for line in code.splitlines():
        for m in re.finditer(start + _CLIMB, line):
            anchor = m.groupdict().get("anchor")
            up = _levels(m) + (anchors[anchor] if anchor else 0)
            reached = path.parents[up - 1] if up <= len(path.parents) else Path(path.anchor)
            if reached == root or reached in root.parents:
                found.append(line.strip())
                break
    return found


def definitions(root: Path = REPO_ROOT) -> dict[str, list[str]]:
    """Repository-relative file → its lines that climb from its own path to the root."""
    found: dict[str, list[str]] = {}
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            lines = root_climbs(path, root)
            if lines:
                found[path.relative_to(root).as_posix()] = lines
    return found


def test_the_root_is_defined_once() -> None:
    every = definitions()
    extra = {f: lines for f, lines in every.items() if f not in ALLOWED}
    assert not extra, extra
    assert "contracts/source.py" in every
    # Each allowed file still climbs (else its entry is stale and would hide a new one).
    assert set(ALLOWED) <= set(every), set(ALLOWED) - set(every)


def test_every_kind_of_climb_is_found_and_a_climb_inside_is_not(tmp_path: Path) -> None:
    (tmp_path / "tests" / "site").mkdir(parents=True)
    (tmp_path / "docs" / "fonts").mkdir(parents=True)
    files = {
        "tests/test_x.py": "from pathlib import Path\nROOT = Path(__file__).resolve().parents[1]\n",
        "tests/site/test_inline.py": 'DOCS = Path(__file__).parents[2] / "docs"\n',
        "tests/site/test_parent.py": "UP = Path(__file__).parent.parent.parent.parent\n",
        "docs/fonts/anchored.py": (
            "HERE = Path(__file__).resolve().parent\nROOT = HERE.parent.parent\n"
        ),
        "docs/fonts/inside.py": 'HERE = Path(__file__).parent\nFONT = HERE / "math.woff2"\n',
        "tests/site/test_own.py": 'DATA = Path(__file__).parent / "data"\n',
        "tests/test_y.py": (
            "# ROOT = Path(__file__).parents[1] in a comment\n"
            "x = 1  # Path(__file__).parents[1] after code\n"
        ),
    }
    for name, text in files.items():
        (tmp_path / name).write_text(text, "utf-8")
    assert definitions(tmp_path) == {
        "docs/fonts/anchored.py": ["ROOT = HERE.parent.parent"],
        "tests/site/test_inline.py": ['DOCS = Path(__file__).parents[2] / "docs"'],
        "tests/site/test_parent.py": ["UP = Path(__file__).parent.parent.parent.parent"],
        "tests/test_x.py": ["ROOT = Path(__file__).resolve().parents[1]"],
    }
