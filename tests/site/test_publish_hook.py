"""The publish hook (docs/hooks/publish.py) writes the published files without the macros
plugin: in a copy of the project whose mkdocs.yml has no macros plugin, and as a script
after another generator's build. Broken live code publishes nothing and fails a strict
build; bad usage of the script exits with status 2 and a usage line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from serving import copy_project
from support import ROOT, mkdocs_build

from contracts.build import build_snapshot
from contracts.store import snapshot_text

HOOK = Path("docs") / "hooks" / "publish.py"
PUBLISHED = ("methodology.json", "methodology.schema.json", "downloads", "versions", "source")


def _without_macros_plugin(project: Path) -> None:
    config = project / "mkdocs.yml"
    text = config.read_text(encoding="utf-8")
    start = text.index("  - macros:")
    end = text.index("\nmarkdown_extensions:")
    config.write_text(text[:start] + text[end:], encoding="utf-8")
    assert (
        "macros"
        not in config.read_text(encoding="utf-8")
        .split("plugins:")[1]
        .split("markdown_extensions:")[0]
    )


@pytest.fixture
def project(tmp_path: Path) -> Path:
    project = copy_project(tmp_path / "project")
    _without_macros_plugin(project)
    return project


@pytest.mark.slow  # builds a copy of the site
def test_the_hook_publishes_without_the_macros_plugin(project: Path, tmp_path: Path) -> None:
    result = mkdocs_build(project, tmp_path / "site", strict=False)
    assert result.returncode == 0, result.stderr
    site = tmp_path / "site"
    assert all((site / name).exists() for name in PUBLISHED)
    # In the committed file form (a site built from a release publishes its bytes).
    assert (site / "methodology.json").read_text(encoding="utf-8") == snapshot_text(
        build_snapshot()
    )
    # The pages were not rendered (no plugin), so the macro calls are still there.
    assert "{{ c(" in (site / "composite.html").read_text(encoding="utf-8")


@pytest.mark.slow  # builds a copy of the site
def test_broken_live_code_publishes_nothing(project: Path, tmp_path: Path) -> None:
    constants = project / "scoring" / "constants.py"
    text = constants.read_text(encoding="utf-8")
    constants.write_text(text.replace("SCORE_DECIMALS: Annotated[", "SCORE_DECIMALS: ((", 1))
    result = mkdocs_build(project, tmp_path / "site", strict=True)
    assert result.returncode != 0
    warning = result.stderr[result.stderr.index("nothing published:") :]
    assert "scoring/constants.py" in warning
    assert "SyntaxError" in warning
    assert "Traceback" not in result.stderr
    assert not (tmp_path / "site" / "methodology.json").exists()


def test_the_script_publishes_into_a_built_site(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / HOOK), str(tmp_path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert all((tmp_path / name).exists() for name in PUBLISHED)
    sources = {p.relative_to(tmp_path / "source").as_posix() for p in tmp_path.rglob("*.html")}
    assert "scoring/constants.py.html" in sources


@pytest.mark.parametrize("args", [[], ["no-such-folder"], ["a", "b"]])
def test_the_script_refuses_bad_usage(args: list[str], tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / HOOK), *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert result.returncode == 2
    assert result.stderr.startswith("usage: python docs/hooks/publish.py SITE_DIR")
    assert "Traceback" not in result.stderr
    assert list(tmp_path.iterdir()) == []
