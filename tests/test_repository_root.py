"""The repository root is defined once, in ``contracts/source.py``, and imported everywhere
else: a second definition is a second answer to "where is the project?" that can drift
(a file moved one folder down counts one parent too few)."""

from __future__ import annotations

import re
from pathlib import Path

from contracts.source import REPO_ROOT

#: An assignment of a root-like name from this file's own path.
DEFINITION = re.compile(
    r"^\s*_?(?:REPO_ROOT|ROOT|REPO)\s*(?::[^=]+)?=\s*(?:Path\(__file__\)|HERE\b).*$", re.MULTILINE
)
#: The one definition, and the files that must not import the project to find their root,
#: each with why.
ALLOWED = {
    "contracts/source.py": "the one definition",
    "release/backfill_versions.py": "runs inside clones of older commits, whose root is its own",
    "docs/fonts/build_math_font.py": "a standalone script of the font, run without the project",
}
FOLDERS = ("scoring", "contracts", "tests", "benchmarks", "docs", "release")


def definitions(root: Path = REPO_ROOT) -> dict[str, list[str]]:
    """Repository-relative file → its lines that define a root from its own path."""
    found: dict[str, list[str]] = {}
    for folder in FOLDERS:
        for path in sorted((root / folder).rglob("*.py")):
            lines = DEFINITION.findall(path.read_text(encoding="utf-8"))
            if lines:
                found[path.relative_to(root).as_posix()] = [line.strip() for line in lines]
    return found


def test_the_root_is_defined_once() -> None:
    extra = {f: lines for f, lines in definitions().items() if f not in ALLOWED}
    assert not extra, extra
    assert "contracts/source.py" in definitions()


def test_a_second_definition_is_found(tmp_path: Path) -> None:
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_x.py").write_text(
        "from pathlib import Path\nROOT = Path(__file__).resolve().parents[1]\n", "utf-8"
    )
    (tmp_path / "tests" / "test_y.py").write_text("# ROOT = Path(__file__) in a comment\n", "utf-8")
    assert definitions(tmp_path) == {
        "tests/test_x.py": ["ROOT = Path(__file__).resolve().parents[1]"]
    }
