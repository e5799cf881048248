"""Packaging: every third-party import is declared, in the group that installs it.

`pip install agent-scoring-methodology` must give a working library (`scoring`, `contracts`)
and nothing more; the site's tools come with the ``docs`` extra, the test tools with ``dev``
(which includes ``docs``). Each folder may import from:

- ``scoring/``, ``contracts/``: the core dependencies;
- ``scoring/engines/``: core and the engines' extras (``duckdb``, ``spark``), which it
  imports only when an engine is asked for;
- ``scoring/harnesses/``: core and the ``inspect`` extra, imported only when an Inspect
  log is read;
- ``docs/``: core and ``docs``;
- ``tests/``, ``benchmarks/``: core, ``docs`` and ``dev``.

The imports are read with :mod:`ast` (function-level and optional imports included) and
mapped to distributions through the installed metadata, so the dev environment must have
every extra installed, as the README's command does.
"""

from __future__ import annotations

import ast
import importlib.metadata
import re
import subprocess
import sys
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pytest
from processes import run_captured

from scoring.report.write import COMPOSITE_TITLE

# Packaging is not in a writer's loop, and several of these tests start fresh interpreters.
pytestmark = pytest.mark.slow

from contracts.source import REPO_ROOT  # noqa: E402 - the one root

# ``macros`` is the site's own package (docs/macros), which tests import from docs/.
FIRST_PARTY = frozenset({"scoring", "contracts", "macros"})
TYPED_PACKAGES = ("scoring", "contracts")
# The engines of ``scoring report --engine``: the one folder of the library that may import
# an extra (see the module docstring).
ENGINES = "scoring/engines"
# The readers of harness logs (``scoring report --from``): the ``inspect`` extra, imported
# only when an Inspect log is read.
HARNESSES = "scoring/harnesses"
#: The folders of the library that may import an extra, each checked on its own.
OPTIONAL_FOLDERS = (ENGINES, HARNESSES)


def normalize(distribution: str) -> str:
    """A distribution name as PEP 503 compares them (``Pygments`` == ``pygments``)."""
    return re.sub(r"[-_.]+", "-", distribution).lower()


def requirement_name(requirement: str) -> str:
    """The distribution a requirement string names (``"mkdocs>=1.6,<2"`` -> ``mkdocs``)."""
    match = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", requirement)
    if match is None:
        raise ValueError(f"not a requirement: {requirement!r}")
    return normalize(match.group(1))


@dataclass(frozen=True)
class Declared:
    """The distributions pyproject.toml declares, by group, with ``dev``'s self-reference
    to ``docs`` resolved (``agent-scoring-methodology[docs]``)."""

    core: frozenset[str]
    docs: frozenset[str]
    dev: frozenset[str]
    engines: frozenset[str] = frozenset()
    harnesses: frozenset[str] = frozenset()


def declared(pyproject: Path) -> Declared:
    project = tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]
    own = normalize(project["name"])
    extras: dict[str, list[str]] = project.get("optional-dependencies", {})

    def group(requirements: Iterable[str], seen: frozenset[str]) -> set[str]:
        names: set[str] = set()
        for requirement in requirements:
            name = requirement_name(requirement)
            if name != own:
                names.add(name)
                continue
            # A self-reference pulls in the extras it names.
            included = re.search(r"\[([^\]]*)\]", requirement)
            for extra in included.group(1).split(",") if included else []:
                extra = extra.strip()
                if extra not in seen:
                    names |= group(extras.get(extra, []), seen | {extra})
        return names

    return Declared(
        core=frozenset(group(project.get("dependencies", []), frozenset())),
        docs=frozenset(group(extras.get("docs", []), frozenset({"docs"}))),
        dev=frozenset(group(extras.get("dev", []), frozenset({"dev"}))),
        engines=frozenset(
            group([*extras.get("duckdb", []), *extras.get("spark", [])], frozenset())
        ),
        harnesses=frozenset(group(extras.get("inspect", []), frozenset())),
    )


def allowed_for(folder: str, groups: Declared) -> frozenset[str]:
    """The distributions code in ``folder`` may import from (see the module docstring)."""
    if folder in ("scoring", "contracts"):
        return groups.core
    if folder == ENGINES:
        return groups.core | groups.engines
    if folder == HARNESSES:
        return groups.core | groups.harnesses
    if folder == "docs":
        return groups.core | groups.docs
    return groups.core | groups.docs | groups.dev | groups.engines


@dataclass(frozen=True)
class Import:
    """One top-level module imported by a file, at a line."""

    module: str
    path: Path
    line: int

    def where(self, root: Path) -> str:
        return f"{self.path.relative_to(root)}:{self.line}"


def imports(path: Path) -> list[Import]:
    """Every absolute import in a file, at any depth (in functions, in ``try`` blocks)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found: list[Import] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [Import(a.name.partition(".")[0], path, node.lineno) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append(Import(node.module.partition(".")[0], path, node.lineno))
    return found


def pythonpath_folders(root: Path) -> tuple[Path, ...]:
    """The folders pytest puts on ``sys.path`` (``[tool.pytest.ini_options] pythonpath``)."""
    pyproject = root / "pyproject.toml"
    if not pyproject.is_file():
        return ()
    config = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    options = config.get("tool", {}).get("pytest", {}).get("ini_options", {})
    return tuple(root / entry for entry in options.get("pythonpath", []))


def is_local(module: str, path: Path, folder: Path, extra: tuple[Path, ...] = ()) -> bool:
    """A module that sits beside the file or in a parent folder up to ``folder`` (how
    ``docs/macros`` and ``tests/site/support.py`` are imported), or, for the tests, in a
    folder of pytest's ``pythonpath`` (``extra``)."""
    if any((directory / f"{module}.py").is_file() for directory in extra):
        return True
    for directory in (path.parent, *path.parent.parents):
        if (directory / f"{module}.py").is_file() or (directory / module).is_dir():
            return True
        if directory == folder:
            return False
    return False


def undeclared(folder: Path, allowed: frozenset[str], root: Path) -> list[str]:
    """One line per third-party import in ``folder`` whose distribution is not in
    ``allowed``: the file and line, the module and the distribution that provides it."""
    providers = importlib.metadata.packages_distributions()
    extra = pythonpath_folders(root) if folder == root / "tests" else ()
    problems: list[str] = []
    optional = [root / name for name in OPTIONAL_FOLDERS]
    for path in sorted(folder.rglob("*.py")):
        if any(folder != own and own in path.parents for own in optional):
            continue  # checked on its own, with its extras
        for found in imports(path):
            module = found.module
            if (
                module in sys.stdlib_module_names
                or module in FIRST_PARTY
                or is_local(module, path, folder, extra)
            ):
                continue
            distributions = {normalize(d) for d in providers.get(module, [])}
            if not distributions and normalize(module) in allowed:
                continue  # an extra that is not installed here (pyspark): declared by its name
            if not distributions:
                problems.append(
                    f"{found.where(root)}: imports {module}, which no installed "
                    "distribution provides; declare it in pyproject.toml"
                )
            elif not distributions & allowed:
                problems.append(
                    f"{found.where(root)}: imports {module} (distribution "
                    f"{', '.join(sorted(distributions))}), which is not declared for "
                    f"{folder.relative_to(root)}/"
                )
    return problems


FOLDERS = ("scoring", ENGINES, HARNESSES, "contracts", "docs", "tests", "benchmarks")


@pytest.fixture(scope="module")
def groups() -> Declared:
    return declared(REPO_ROOT / "pyproject.toml")


@pytest.mark.parametrize("folder", FOLDERS)
def test_every_third_party_import_is_declared_in_its_group(folder: str, groups: Declared) -> None:
    problems = undeclared(REPO_ROOT / folder, allowed_for(folder, groups), REPO_ROOT)
    assert problems == []


def test_core_dependencies_are_exactly_what_the_library_imports(groups: Declared) -> None:
    """Nothing extra in a core install: each core dependency is imported by the library."""
    providers = importlib.metadata.packages_distributions()
    used = {
        normalize(distribution)
        for folder in ("scoring", "contracts")
        for path in (REPO_ROOT / folder).rglob("*.py")
        for found in imports(path)
        for distribution in providers.get(found.module, [])
        if found.module not in FIRST_PARTY
    }
    # an engine extra: scoring/engines only; the inspect extra: scoring/harnesses only
    assert groups.core == used - groups.engines - groups.harnesses


def test_dev_includes_docs_so_one_install_serves_both(groups: Declared) -> None:
    assert groups.docs
    assert groups.docs <= groups.dev
    assert "mkdocs" in groups.docs
    assert "mkdocs" not in groups.core


# --- The check can fail ----------------------------------------------------------------------


def _spoiled_folder(tmp_path: Path, name: str, source: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    (folder / "module.py").write_text(source, encoding="utf-8")
    return folder


def test_a_site_tool_imported_by_the_library_is_reported(tmp_path: Path, groups: Declared) -> None:
    folder = _spoiled_folder(tmp_path, "scoring", "def f():\n    import mkdocs\n")
    assert undeclared(folder, allowed_for("scoring", groups), tmp_path) == [
        "scoring/module.py:2: imports mkdocs (distribution mkdocs), which is not declared "
        "for scoring/"
    ]
    # The same import is fine in docs/, where the docs extra is allowed.
    docs = _spoiled_folder(tmp_path, "docs", "import mkdocs\n")
    assert undeclared(docs, allowed_for("docs", groups), tmp_path) == []


def test_an_undeclared_transitive_dependency_is_reported(tmp_path: Path, groups: Declared) -> None:
    # typing_extensions is installed (pydantic needs it) but this project does not declare it.
    assert "typing-extensions" not in groups.core | groups.docs | groups.dev
    folder = _spoiled_folder(
        tmp_path, "tests", "try:\n    import typing_extensions\nexcept Exception:\n    pass\n"
    )
    [problem] = undeclared(folder, allowed_for("tests", groups), tmp_path)
    assert problem.startswith("tests/module.py:2: imports typing_extensions")


def test_an_unknown_module_is_reported(tmp_path: Path, groups: Declared) -> None:
    folder = _spoiled_folder(tmp_path, "benchmarks", "from no_such_module_here import x\n")
    [problem] = undeclared(folder, allowed_for("benchmarks", groups), tmp_path)
    assert "imports no_such_module_here, which no installed distribution provides" in problem


def test_a_module_on_pytests_pythonpath_is_local_to_the_tests_only(
    tmp_path: Path, groups: Declared
) -> None:
    folder = _spoiled_folder(tmp_path, "tests", "import shared_helper\n")
    (tmp_path / "bench").mkdir()
    (tmp_path / "bench" / "shared_helper.py").write_text("", encoding="utf-8")
    # Without the pythonpath entry the import is an unknown module ...
    [problem] = undeclared(folder, allowed_for("tests", groups), tmp_path)
    assert "imports shared_helper, which no installed distribution provides" in problem
    # ... with it, a local one, as pytest sees it.
    config = '[tool.pytest.ini_options]\npythonpath = ["bench"]\n'
    (tmp_path / "pyproject.toml").write_text(config, encoding="utf-8")
    assert undeclared(folder, allowed_for("tests", groups), tmp_path) == []


def test_a_declaration_removed_from_pyproject_is_reported(tmp_path: Path) -> None:
    """A copy of pyproject.toml without pygments: the docs macros that highlight source fail."""
    text = (REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8")
    spoiled = re.sub(r'^\s*"pygments[^\n]*\n', "", text, flags=re.MULTILINE | re.IGNORECASE)
    assert spoiled != text
    (tmp_path / "pyproject.toml").write_text(spoiled, encoding="utf-8")
    problems = undeclared(
        REPO_ROOT / "docs", allowed_for("docs", declared(tmp_path / "pyproject.toml")), REPO_ROOT
    )
    assert problems
    assert all("imports pygments (distribution pygments)" in line for line in problems)


def test_dev_self_reference_is_resolved(tmp_path: Path) -> None:
    """Without the self-reference, dev no longer includes the site tools."""
    text = (REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8")
    spoiled = text.replace('"agent-scoring-methodology[docs]",', "")
    assert spoiled != text
    (tmp_path / "pyproject.toml").write_text(spoiled, encoding="utf-8")
    without = declared(tmp_path / "pyproject.toml")
    assert without.docs
    assert not without.docs & without.dev


# --- A core install runs without the site and test tools -------------------------------------


def _closure(names: Iterable[str]) -> set[str]:
    """Installed distributions reachable from ``names`` through their requirements (extras'
    requirements left out)."""
    seen: set[str] = set()
    todo = [normalize(n) for n in names]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        try:
            requirements = importlib.metadata.requires(name) or []
        except importlib.metadata.PackageNotFoundError:
            continue
        seen.add(name)
        todo += [requirement_name(r) for r in requirements if "extra ==" not in r]
    return seen


def _blocked_modules(groups: Declared) -> set[str]:
    """Top-level modules of every distribution a core install does not bring."""
    own = normalize("agent-scoring-methodology")
    extra_only = _closure(groups.docs | groups.dev) - _closure(groups.core) - {own}
    return {
        module
        for module, distributions in importlib.metadata.packages_distributions().items()
        if {normalize(d) for d in distributions} & extra_only
        and module not in FIRST_PARTY
        and not module.startswith("_")
    }


_HARNESS = """
import importlib, pkgutil, sys, tempfile, pathlib
from importlib.abc import MetaPathFinder

BLOCKED = frozenset({blocked!r})

class Block(MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"blocked: {{name}} is not in a core install", name=name)
        return None

sys.meta_path.insert(0, Block())
{body}
"""

_LIBRARY_RUN = """
import scoring, contracts
from scoring.cli import run
from contracts.cli import main

for package in (scoring, contracts):
    for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
        # __main__ runs the command line; an engine's runner (scoring.engines.*_engine)
        # needs its extra.
        if not info.name.endswith((".__main__", "_engine")):
            importlib.import_module(info.name)
runs = pathlib.Path(tempfile.mkdtemp()) / "runs.jsonl"
runs.write_text(
    "".join(
        '{"run_id": "r%d", "agent_id": "a", "task_id": "t%d", "status": "completed", '
        '"success": %s, "latency_ms": 1000, "cost_usd": 0.01, "steps": 3, '
        '"finished_at": "2026-01-01T00:00:0%dZ"}\\n' % (i, i, "true" if i % 2 else "false", i)
        for i in range(4)
    )
)
report = run(["report", str(runs)], stdin=sys.stdin.buffer, stdout=sys.stdout, stderr=sys.stderr)
print("report exit", report)
print("check exit", main(["check"]))
loaded = sorted({name.partition(".")[0] for name in sys.modules} & BLOCKED)
print("loaded", loaded)
"""


def _run_harness(blocked: set[str], body: str) -> subprocess.CompletedProcess[str]:
    code = _HARNESS.format(blocked=sorted(blocked), body=body)
    return run_captured([sys.executable, "-c", code], cwd=REPO_ROOT, timeout=300)


def test_the_library_runs_without_the_site_and_test_tools(groups: Declared) -> None:
    """Every module of scoring and contracts imports, and ``scoring report`` and
    ``contracts check`` succeed, with every docs/dev-only distribution made unimportable."""
    blocked = _blocked_modules(groups)
    assert {"mkdocs", "pygments", "latex2mathml", "pytest", "mypy"} <= blocked
    result = _run_harness(blocked, _LIBRARY_RUN)
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert COMPOSITE_TITLE in lines
    assert lines[-4:] == ["report exit 0", "contracts check: OK", "check exit 0", "loaded []"]


_INSPECT_MISSING = """
import io
from scoring.cli import run

err = io.StringIO()
status = run(["report", "--from", "inspect", "log.eval"], stdout=io.StringIO(), stderr=err)
print("exit", status)
print(err.getvalue().splitlines()[-1])
print("loaded", sorted({name.partition(".")[0] for name in sys.modules} & BLOCKED))
"""


def test_inspect_logs_without_the_extra_ask_for_it(groups: Declared) -> None:
    """Without inspect_ai, ``--from inspect`` is a usage error that names the extra."""
    blocked = _blocked_modules(groups)
    assert "inspect_ai" in blocked
    result = _run_harness(blocked, _INSPECT_MISSING)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == [
        "exit 2",
        'scoring report: error: --from inspect needs inspect_ai: pip install -e ".[inspect]"',
        "loaded []",
    ]


def test_the_harness_blocks_a_site_tool(groups: Declared) -> None:
    result = _run_harness(_blocked_modules(groups), "import pygments")
    assert result.returncode != 0
    assert "blocked: pygments is not in a core install" in result.stderr


# --- Licence and typing markers --------------------------------------------------------------


def test_licence_metadata_matches_the_licence_file_and_the_site() -> None:
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    spdx = project["license"]
    assert isinstance(spdx, str)  # a PEP 639 SPDX expression, not the old {text = ...} table
    for licence_file in project["license-files"]:
        first_line = (REPO_ROOT / licence_file).read_text(encoding="utf-8").splitlines()[0]
        assert first_line == f"{spdx} License"
    assert f"{spdx} licence" in (REPO_ROOT / "mkdocs.yml").read_text(encoding="utf-8")


@pytest.mark.parametrize("package", TYPED_PACKAGES)
def test_typed_packages_ship_py_typed(package: str) -> None:
    config = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert (REPO_ROOT / package / "py.typed").is_file()
    assert "py.typed" in config["tool"]["setuptools"]["package-data"][package]
    assert package in config["tool"]["mypy"]["files"]
