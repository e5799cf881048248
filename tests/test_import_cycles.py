"""No import cycle among the project's modules, counting every import statement: those at
the top of a module, those inside functions and those under ``if TYPE_CHECKING`` (a lazy
import hides a cycle, it does not end it).

The graph is read from the source with :mod:`ast`, so nothing is imported to draw it. Modules
are named as they are imported: ``scoring.*`` and ``contracts.*`` from the repository root,
``macros.*`` from ``docs/`` (mkdocs-macros puts ``docs/`` on the path) and the hook
``docs/hooks/publish.py`` as ``hooks.publish``.
"""

from __future__ import annotations

import ast
import functools
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

from contracts.source import REPO_ROOT as ROOT

#: (folder under the root, the import prefix its modules have)
PACKAGES = (
    ("scoring", "scoring"),
    ("contracts", "contracts"),
    ("docs/macros", "macros"),
    ("docs/hooks", "hooks"),
)


def project_modules(root: Path) -> dict[str, Path]:
    """Every module of the packages, by its import name."""
    modules: dict[str, Path] = {}
    for folder, prefix in PACKAGES:
        base = root / folder
        for path in sorted(base.rglob("*.py")):
            parts = list(path.relative_to(base).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join([prefix, *parts])] = path
    return modules


def _imported(
    node: ast.AST, module: str, is_package: bool, modules: frozenset[str]
) -> Iterator[str]:
    """The project modules an import statement imports: for ``from a import b``, ``a.b``
    when it is a module, else ``a`` (the package's own ``__init__`` that the import runs
    first is not counted: a package importing its submodules is not a cycle)."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            package = module.split(".") if is_package else module.split(".")[:-1]
            base = package[: len(package) - node.level + 1]
            source = ".".join([*base, node.module] if node.module else base)
        else:
            source = node.module or ""
        for alias in node.names:
            yield f"{source}.{alias.name}" if f"{source}.{alias.name}" in modules else source


def import_graph(root: Path, edited: Mapping[Path, str] | None = None) -> dict[str, set[str]]:
    """Module → the project modules it imports, anywhere in its source; ``edited`` gives
    the text of some files instead of what is on disk (a spoiled copy without copying)."""
    modules = project_modules(root)
    names = frozenset(modules)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        text = (edited or {}).get(path)
        source = path.read_text(encoding="utf-8") if text is None else text
        graph[name] = set(_module_imports(name, path.name == "__init__.py", source, names))
    return graph


@functools.cache
def _module_imports(
    name: str, is_package: bool, source: str, modules: frozenset[str]
) -> frozenset[str]:
    """The project modules ``source`` (module ``name``) imports. Cached by the text: every
    test here reads the same hundred files, and parsing them is the file's whole cost; a
    spoiled file is new text, parsed afresh."""
    tree = ast.parse(source, filename=name)
    return frozenset(
        imported
        for node in ast.walk(tree)
        for imported in _imported(node, name, is_package, modules)
        if imported in modules and imported != name
    )


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected group of two or more modules (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    def visit(node: str) -> None:
        nonlocal counter
        index[node] = low[node] = counter
        counter += 1
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def test_there_is_no_import_cycle() -> None:
    assert cycles(import_graph(ROOT)) == []


def test_the_graph_sees_lazy_and_type_checking_imports() -> None:
    graph = import_graph(ROOT)
    assert "scoring.constants" in graph["scoring.formulas.composite"]
    # docs/macros/published.py imports ``Site`` for its annotations only.
    assert "macros.site" in graph["macros.published"]


def _with(file: str, text: str) -> dict[Path, str]:
    """The repository's graph input with ``file`` (repository-relative) read as ``text``."""
    return {ROOT / file: text}


@pytest.mark.parametrize(
    ("file", "line", "expected"),
    [
        # A lazy import inside a function closes a cycle as surely as one at the top.
        (
            "contracts/store.py",
            "\ndef _late() -> None:\n    from contracts.check.drift import run_check  # noqa\n",
            ["contracts.check.drift", "contracts.store"],
        ),
        # An import for annotations only is a cycle too.
        (
            "scoring/numeric.py",
            "\nfrom typing import TYPE_CHECKING\n"
            "if TYPE_CHECKING:\n    import scoring.formulas.curves\n",
            ["scoring.formulas.curves", "scoring.numeric"],
        ),
    ],
)
def test_a_cycle_in_a_copy_is_found(file: str, line: str, expected: list[str]) -> None:
    spoiled = (ROOT / file).read_text(encoding="utf-8") + line
    found = cycles(import_graph(ROOT, _with(file, spoiled)))
    assert any(set(expected) <= set(group) for group in found), found


def test_a_comment_in_a_copy_keeps_it_acyclic() -> None:
    store = ROOT / "contracts" / "store.py"
    commented = "# from contracts.check.drift import run_check\n" + store.read_text("utf-8")
    assert cycles(import_graph(ROOT, _with("contracts/store.py", commented))) == []
