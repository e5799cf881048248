"""Every command of the README runs as written, after the install command.

The code-block test (``test_code_blocks.py``) runs the README's blocks in a work folder that
holds a copy of the project and the venv (``.venv``, as the install command leaves it). The
blocks it skips because they take long are run here, verbatim and in the README's order, in
such a folder; only the blocks that never end or that would recurse stay out (serving, this
test suite itself, publishing), each named by its skip reason.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from code_blocks import shell, work_folder

from contracts.source import REPO_ROOT

pytestmark = pytest.mark.slow

#: A skip marker, then the fenced shell block right after it.
SKIPPED_BLOCK = re.compile(
    r'<!-- skip: next "(?P<reason>[^"]+)" -->\n```(?:sh|bash)\n(?P<body>.*?)```', re.DOTALL
)
#: Skip reasons of blocks that run here (the others never end, recurse or publish).
RUN_HERE = "test_readme_commands.py"


def skipped_blocks(text: str) -> list[tuple[str, str]]:
    """(reason, commands) of each skipped shell block of ``text``.

    >>> skipped_blocks('<!-- skip: next "why" -->\\n```sh\\nls\\n```\\n')
    [('why', 'ls\\n')]
    """
    return [(m["reason"], m["body"]) for m in SKIPPED_BLOCK.finditer(text)]


def test_every_skipped_block_is_run_here_or_cannot_run() -> None:
    reasons = [reason for reason, _ in skipped_blocks(REPO_ROOT.joinpath("README.md").read_text())]
    assert any(RUN_HERE in reason for reason in reasons)
    never = ("serves until stopped", "runs this very test suite", "publishes")
    assert all(RUN_HERE in r or any(n in r for n in never) for r in reasons), reasons


def test_the_long_blocks_run_verbatim_after_the_install(tmp_path: Path) -> None:
    folder = work_folder(tmp_path / "work")
    readme = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [body for reason, body in skipped_blocks(readme) if RUN_HERE in reason]
    assert blocks
    for body in blocks:
        result = shell(body, folder)
        assert result.returncode == 0, f"{body}\n{result.stdout[-2000:]}{result.stderr[-2000:]}"
        assert "Traceback" not in result.stderr
    assert (folder / "site" / "downloads" / "sample-runs.jsonl").is_file()
