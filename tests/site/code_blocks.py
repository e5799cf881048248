"""Support for running the code blocks of README.md and docs/*.md (with Sybil).

What runs, in a work folder that holds a copy of the project (a git repository, so that a
block may run ``git diff``) and the inputs the blocks name (``runs.jsonl``,
``records.jsonl``: the site's sample run log and outcome records; ``methodology.json``: the
live snapshot as the site publishes it):

- ```` ```python ````: executed; blocks of one file share a namespace, as for a reader who
  follows along; a block written as a doctest (``>>>``) must print what it shows;
- ```` ```sh ```` / ```` ```bash ````: run by bash with ``-e -o pipefail``; must exit 0;
- ```` ```console ````: each ``$ command`` is run and its output (stdout and stderr) must
  match the lines below it; a line ending in ``...`` matches any rest of line, a line that
  is only ``...`` any number of lines.

A block that cannot run is marked just before it with ``<!-- skip: next "reason" -->``
(Sybil's skip directive) and is reported by pytest as skipped, with the reason. In docs/*.md
a runnable block must be literal code: the pages are Jinja templates, so a block with
``{{`` or ``{%`` fails and asks to be written literally or marked (commands shown on the
site with their output are produced by the ``cli``/``script`` macros, which run them while
the site is built, so a broken one already fails ``mkdocs build --strict``).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from serving import copy_project
from support import ROOT, import_macros
from sybil import Document, Example, Sybil
from sybil.evaluators.python import PythonEvaluator
from sybil.parsers.markdown import CodeBlockParser, PythonCodeBlockParser, SkipParser

#: The Markdown files whose code blocks run.
DOCUMENTS = ("README.md", "CONTRIBUTING.md", "docs/*.md")
#: What the work folder holds of the project.
PROJECT_PARTS = (
    "scoring",
    "contracts",
    "docs",
    "mkdocs.yml",
    "pyproject.toml",
    "README.md",
    "CONTRIBUTING.md",
)
SHELL_TIMEOUT_S = 120


class BlockFailedError(AssertionError):
    """A code block raised, exited non-zero or printed something else than it shows."""


def work_folder(dest: Path) -> Path:
    """A folder for the blocks to run in: the project copied, the inputs they name."""
    copy_project(dest, PROJECT_PARTS)
    samples = import_macros("macros.samples")
    (dest / "runs.jsonl").write_text(samples.jsonl(samples.sample_runs()), encoding="utf-8")
    (dest / "records.jsonl").write_text(samples.jsonl(samples.sample_outcomes()), encoding="utf-8")
    import_macros("macros.published").write_snapshot(dest / "methodology.json")
    if shutil.which("git"):
        env = {**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.invalid"}
        env |= {"GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.invalid"}
        for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "blocks"]):
            subprocess.run(["git", *command], cwd=dest, env=env, check=True, timeout=60)
    # The README's commands call the venv's executables (`.venv/bin/scoring`), as after the
    # install command: the venv of this very run stands for it (not committed: untracked).
    (dest / ".venv").symlink_to(Path(sys.prefix), target_is_directory=True)
    return dest


def _environment() -> dict[str, str]:
    """``python`` and ``scoring`` on PATH are this interpreter's (the project's venv)."""
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", "")}
    env.pop("PYTHONPATH", None)
    return env


def _where(example: Example) -> str:
    path = Path(example.path)
    name = f"docs/{path.name}" if path.parent.name == "docs" else path.name
    return f"{name}:{example.line}"


def _templated(example: Example) -> None:
    path = Path(example.path)
    source = str(example.parsed)
    if path.parent.name == "docs" and ("{{" in source or "{%" in source):
        raise BlockFailedError(
            f"{_where(example)}: a code block of a page with Jinja syntax is not literal code; "
            'write it literally or mark it <!-- skip: next "reason" -->'
        )


def shell(command: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``command`` with bash; on a timeout its whole process group is ended."""
    with subprocess.Popen(
        ["bash", "-e", "-o", "pipefail", "-c", command],
        cwd=cwd,
        env=_environment(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    ) as process:
        try:
            out, err = process.communicate(timeout=SHELL_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            out, err = process.communicate()
            err += f"\n(ended after {SHELL_TIMEOUT_S} s)"
        return subprocess.CompletedProcess(process.args, process.returncode, out, err)


def _matches(expected: list[str], actual: list[str]) -> bool:
    """Line by line; ``x...`` matches any line starting with x; ``...`` any lines."""
    if not expected:
        return not actual
    head, rest = expected[0], expected[1:]
    if head == "...":
        return any(_matches(rest, actual[i:]) for i in range(len(actual) + 1))
    if not actual:
        return False
    line = actual[0]
    ok = line.startswith(head[:-3]) if head.endswith("...") else line == head
    return ok and _matches(rest, actual[1:])


class Runner:
    """Evaluators bound to a work folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.python = PythonEvaluator()

    def run_python(self, example: Example) -> str | None:
        _templated(example)
        try:
            return self.python(example)
        except Exception as error:
            raise BlockFailedError(
                f"{_where(example)}: the Python block raised {type(error).__name__}: {error}"
            ) from error

    def evaluate(self, example: Example) -> None:
        """Evaluate one example (a block or a skip marker) in the work folder."""
        with contextlib.chdir(self.folder):
            example.evaluate()

    def run_sh(self, example: Example) -> None:
        _templated(example)
        result = shell(str(example.parsed), self.folder)
        if result.returncode != 0:
            raise BlockFailedError(
                f"{_where(example)}: the shell block exited {result.returncode}\n"
                f"{result.stdout[-2000:]}{result.stderr[-2000:]}"
            )

    def run_console(self, example: Example) -> None:
        _templated(example)
        for command, expected in console_steps(str(example.parsed)):
            result = shell(command, self.folder)
            actual = (result.stdout + result.stderr).rstrip("\n").splitlines()
            actual = [line.rstrip() for line in actual]
            if result.returncode != 0 or not _matches(expected, actual):
                raise BlockFailedError(
                    f"{_where(example)}: $ {command} (exit {result.returncode}) printed:\n"
                    + "\n".join(actual)
                    + "\nbut the block shows:\n"
                    + "\n".join(expected)
                )


def console_steps(source: str) -> list[tuple[str, list[str]]]:
    """(command, expected output lines) of each ``$`` line of a console block.

    >>> console_steps("$ echo hi\\nhi\\n$ true\\n")
    [('echo hi', ['hi']), ('true', [])]
    """
    steps: list[tuple[str, list[str]]] = []
    for line in source.splitlines():
        if line.startswith("$ "):
            steps.append((line[2:].strip(), []))
        elif steps:
            steps[-1][1].append(line.rstrip())
    for _, expected in steps:
        while expected and not expected[-1]:
            expected.pop()
    return steps


def make_sybil(runner: Runner, root: Path = ROOT) -> Sybil:
    """The Sybil set-up for the code blocks of ``root``'s README and pages."""
    evaluators: dict[str, Callable[[Example], object]] = {
        "sh": runner.run_sh,
        "bash": runner.run_sh,
        "console": runner.run_console,
    }
    parsers: list[Callable[[Document], object]] = [SkipParser(), PythonBlocks(runner.run_python)]
    parsers += [CodeBlockParser(lang, evaluator) for lang, evaluator in evaluators.items()]
    return Sybil(parsers=parsers, path=str(root), patterns=list(DOCUMENTS))


class PythonBlocks(PythonCodeBlockParser):
    """Python blocks: doctests as Sybil runs them, plain blocks through ``evaluator`` (which
    names the file and line when a block raises)."""

    def __init__(self, evaluator: Callable[[Example], str | None]) -> None:
        super().__init__()
        self.codeblock_parser = CodeBlockParser("python", evaluator)


def documents(root: Path = ROOT) -> list[Path]:
    """The Markdown files whose blocks run, README first."""
    found = [root / "README.md", *sorted((root / "docs").glob("*.md"))]
    return [path for path in found if path.exists()]


def examples(sybil: Sybil, root: Path = ROOT) -> list[tuple[str, Document, Example]]:
    """(id, document, example) of every block and skip marker, in file order."""
    found = []
    for path in documents(root):
        document = sybil.parse(path)
        for example in document.examples():
            found.append((f"{path.relative_to(root).as_posix()}:{example.line}", document, example))
    return found


def run_all(root: Path, folder: Path) -> tuple[list[str], int, int]:
    """Run every block of ``root``'s documents: (failures, blocks run, blocks skipped)."""
    from unittest import SkipTest

    runner = Runner(folder)
    sybil = make_sybil(runner, root)
    failures, ran, skipped = [], 0, 0
    for name, _, example in examples(sybil, root):
        try:
            runner.evaluate(example)
        except SkipTest:
            skipped += 1
            continue
        except Exception as error:
            message = str(error)
            failures.append(message if message.startswith(name) else f"{name}: {message}")
        ran += 1
    return failures, ran, skipped
