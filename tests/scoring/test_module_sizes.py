"""Every module of ``scoring`` stays small enough to read (issue 26: none over 450 lines)."""

from __future__ import annotations

from pathlib import Path

from contracts.source import REPO_ROOT

MODULE_MAX_LINES = 450


def long_modules(package: Path, limit: int = MODULE_MAX_LINES) -> dict[str, int]:
    """The modules under ``package`` longer than ``limit`` lines, with their lengths."""
    found: dict[str, int] = {}
    for module in sorted(package.rglob("*.py")):
        lines = len(module.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            found[module.relative_to(package).as_posix()] = lines
    return found


def test_no_module_of_scoring_is_over_the_limit() -> None:
    package = REPO_ROOT / "scoring"
    assert len(list(package.rglob("*.py"))) > 40  # the package, not an empty folder
    assert long_modules(package) == {}


def test_a_module_one_line_over_the_limit_is_named(tmp_path: Path) -> None:
    (tmp_path / "engines").mkdir()
    (tmp_path / "short.py").write_text("x = 1\n" * MODULE_MAX_LINES, encoding="utf-8")
    (tmp_path / "engines" / "long.py").write_text(
        "x = 1\n" * (MODULE_MAX_LINES + 1), encoding="utf-8"
    )
    assert long_modules(tmp_path) == {"engines/long.py": MODULE_MAX_LINES + 1}
