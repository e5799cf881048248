"""Every code block of README.md and docs/*.md runs (see ``code_blocks`` for the rules).

One test per block, named ``<file>:<line>``: a block that raises, exits non-zero or no
longer prints what it shows fails with its file and line; a block marked
``<!-- skip: next "reason" -->`` is reported as skipped with its reason (``pytest -rs``).
The last tests spoil a copy of the project and show that each rule can fail.
"""

from __future__ import annotations

from pathlib import Path
from unittest import SkipTest

import pytest
from code_blocks import Runner, examples, make_sybil, run_all, work_folder
from support import ROOT

_RUNNER: list[Runner] = []


def _runner() -> Runner:
    # The Runner is bound to the session's work folder when the first block runs.
    if not _RUNNER:
        raise RuntimeError("work folder not set up")
    return _RUNNER[0]


class _Late:
    """Evaluators that look the runner up when called (collection comes before fixtures)."""

    def run_python(self, example):  # type: ignore[no-untyped-def]
        return _runner().run_python(example)

    def run_sh(self, example):  # type: ignore[no-untyped-def]
        return _runner().run_sh(example)

    def run_console(self, example):  # type: ignore[no-untyped-def]
        return _runner().run_console(example)


BLOCKS = examples(make_sybil(_Late()))  # type: ignore[arg-type]


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = work_folder(tmp_path_factory.mktemp("blocks") / "work")
    _RUNNER[:] = [Runner(path)]
    return path


def _lane(name: str) -> tuple[pytest.MarkDecorator, ...]:
    # The README's blocks are the written contract of the fast lane (a newcomer runs them);
    # the pages' blocks run in the full suite (their prose is checked in the fast lane).
    return () if name.startswith("README.md:") else (pytest.mark.slow,)


@pytest.mark.parametrize(
    ("name", "example"),
    [pytest.param(n, e, marks=_lane(n), id=n) for n, _, e in BLOCKS],
)
def test_code_block_runs(name: str, example: object, folder: Path) -> None:
    try:
        _runner().evaluate(example)  # type: ignore[arg-type]
    except SkipTest as skip:
        pytest.skip(f"{name}: {skip}")


def test_the_readme_and_the_pages_have_blocks_that_run_and_few_skipped() -> None:
    names = [name for name, _, _ in BLOCKS]
    assert any(n.startswith("README.md:") for n in names)
    assert any(n.startswith("docs/") for n in names)
    markers = [
        line
        for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.startswith("<!-- skip:")
    ]
    assert markers, "no block is marked as skipped: the count below would say nothing"
    assert all('next "' in m and len(m.split('"')[1].split()) >= 3 for m in markers), markers
    assert len(markers) <= 6, f"{len(markers)} skipped blocks: {markers}"


RAISES = "\n```python\nfrom scoring import no_such_function\n```\n"
WRONG_OUTPUT = "\n```python\n>>> 1 + 1\n3\n```\n"
BAD_SHELL = "\n```sh\npython -m scoring report no-such-file.jsonl\n```\n"
WRONG_CONSOLE = "\n```console\n$ python -m contracts check\ncontracts check: FAILED\n```\n"
RUNS = (
    "\n```python\nfrom scoring import build_report\n```\n\n```sh\npython -m contracts check\n```\n"
)
TEMPLATED = "\n```python\nprint({{ 1 }})\n```\n"


def _spoiled_copy(tmp_path: Path, readme_tail: str, page_tail: str) -> tuple[Path, Path]:
    folder = work_folder(tmp_path / "work")
    for path, tail in (
        (folder / "README.md", readme_tail),
        (folder / "docs" / "index.md", page_tail),
    ):
        path.write_text(path.read_text(encoding="utf-8") + tail, encoding="utf-8")
    return folder, folder


@pytest.mark.slow
def test_broken_blocks_fail_with_file_and_line_and_working_ones_do_not(tmp_path: Path) -> None:
    clean_root, clean_folder = _spoiled_copy(tmp_path / "clean", RUNS, RUNS)
    failures, ran, skipped = run_all(clean_root, clean_folder)
    assert not failures, "\n".join(failures)
    assert ran > 0
    assert skipped > 0

    readme_tail = RAISES + WRONG_OUTPUT + BAD_SHELL + WRONG_CONSOLE
    root, folder = _spoiled_copy(tmp_path / "spoiled", readme_tail, RAISES + TEMPLATED)
    failures, _, _ = run_all(root, folder)
    readme = (root / "README.md").read_text(encoding="utf-8").splitlines()
    page = (root / "docs" / "index.md").read_text(encoding="utf-8").splitlines()
    # Sybil names a block by the line of its opening fence, just above the code.
    first_readme = readme.index("from scoring import no_such_function")
    first_page = page.index("from scoring import no_such_function")
    joined = "\n".join(failures)
    assert len(failures) == 6, joined
    assert f"README.md:{first_readme}: " in joined
    assert "ImportError" in joined
    assert "no_such_function" in joined
    assert "Expected:\n    3\nGot:\n    2" in joined
    assert "exited 2" in joined
    assert "but the block shows:\ncontracts check: FAILED" in joined
    assert "not literal code" in joined
    assert any(f.startswith(f"docs/index.md:{first_page}: ") for f in failures), joined
