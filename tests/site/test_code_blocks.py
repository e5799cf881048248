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
#: A block the skip directive leaves out (it would fail if it ran).
SKIPPED = '\n<!-- skip: next "a block this test marks as skipped" -->\n```sh\nexit 3\n```\n'


def _documents(tmp_path: Path, readme: str, page: str) -> Path:
    """A root holding only a README.md and a docs/index.md (the page's own text, which has no
    code block, then ``page``): the blocks that ``run_all`` runs are the ones written here.
    The real README's and pages' blocks are ``test_code_block_runs``'s, one test each;
    running them again here would only repeat those tests."""
    root = tmp_path / "documents"
    (root / "docs").mkdir(parents=True)
    (root / "README.md").write_text("# A README\n" + readme, encoding="utf-8")
    index = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    assert "```" not in index, "docs/index.md has code blocks: they would run here too"
    (root / "docs" / "index.md").write_text(index + page, encoding="utf-8")
    return root


def _fence_lines(lines: list[str], code: str) -> list[int]:
    """The line numbers Sybil names the blocks whose first line is ``code`` by: that of the
    opening fence, just above the code, or for a doctest that of its ``>>>`` line."""
    below = 1 if code.startswith(">>> ") else 0
    return [number + below for number, line in enumerate(lines) if line == code]


@pytest.mark.slow
def test_broken_blocks_fail_with_file_and_line_and_working_ones_do_not(tmp_path: Path) -> None:
    """One run over working, skipped and broken blocks side by side: only the broken fail,
    each with its file and line."""
    readme_tail = RUNS + SKIPPED + RAISES + WRONG_OUTPUT + BAD_SHELL + WRONG_CONSOLE
    root = _documents(tmp_path, readme_tail, RUNS + RAISES + TEMPLATED)
    folder = work_folder(tmp_path / "work")
    failures, ran, skipped = run_all(root, folder)
    readme = (root / "README.md").read_text(encoding="utf-8").splitlines()
    page = (root / "docs" / "index.md").read_text(encoding="utf-8").splitlines()
    broken = {
        f"README.md:{n}"
        for code in (
            "from scoring import no_such_function",
            ">>> 1 + 1",
            "python -m scoring report no-such-file.jsonl",
            "$ python -m contracts check",
        )
        for n in _fence_lines(readme, code)
    } | {
        f"docs/index.md:{n}"
        for code in ("from scoring import no_such_function", "print({{ 1 }})")
        for n in _fence_lines(page, code)
    }
    joined = "\n".join(failures)
    assert len(broken) == 6, broken
    # The working blocks (RUNS in both files) ran and did not fail; the marked one was skipped.
    assert {failure.split(": ", 1)[0] for failure in failures} == broken, joined
    assert ran == 6 + 4 + 1  # the broken, the working, and the skip marker itself
    assert skipped == 1
    assert len(failures) == 6, joined
    first_readme = readme.index("from scoring import no_such_function")
    first_page = page.index("from scoring import no_such_function")
    assert f"README.md:{first_readme}: " in joined
    assert "ImportError" in joined
    assert "no_such_function" in joined
    assert "Expected:\n    3\nGot:\n    2" in joined
    assert "exited 2" in joined
    assert "but the block shows:\ncontracts check: FAILED" in joined
    assert "not literal code" in joined
    assert any(f.startswith(f"docs/index.md:{first_page}: ") for f in failures), joined
