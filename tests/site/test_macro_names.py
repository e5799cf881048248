"""The one list of macro names (``macros.MACROS_BY_MODULE`` in ``docs/macros/__init__.py``)
against the modules that register the macros and against the calls on the pages.

- Every module of ``docs/macros`` that has ``MACROS`` is in the list, and its ``MACROS``
  hold exactly the names the list gives it; no name is listed twice.
- Every name a page calls is a registered macro (or a variable in :data:`PAGE_VARIABLES`);
  every registered macro is called on some page or named in :data:`UNUSED_ON_PAGES` with
  the reason.

Each check returns a list of problems; the tests below also feed it spoiled input (a copy
of the pages with an unknown or a missing call, a list that disagrees with a module) to show
that it can fail.
"""

from __future__ import annotations

import ast
import shutil
from collections.abc import Mapping
from pathlib import Path
from types import ModuleType, SimpleNamespace
from typing import Any

import jinja2
import jinja2.meta
import pytest
from mkdocs.utils.meta import get_data
from support import ROOT, import_macros

DOCS = ROOT / "docs"
MACROS_DIR = DOCS / "macros"

#: Registered macros that no page calls, each with the reason it is kept. Empty today.
UNUSED_ON_PAGES: dict[str, str] = {}

#: Names a page may use that are variables, not macros, with where they come from.
PAGE_VARIABLES: dict[str, str] = {
    "methodology_version": "set by macros.define_env from the live snapshot",
}


# --- the checks -------------------------------------------------------------------------------


def modules_with_macros(macros_dir: Path) -> set[str]:
    """Modules of the package that assign ``MACROS`` at their top level (read, not run)."""
    found = set()
    for path in macros_dir.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body:
            targets = (
                [node.target] if isinstance(node, ast.AnnAssign) else getattr(node, "targets", [])
            )
            if any(isinstance(t, ast.Name) and t.id == "MACROS" for t in targets):
                found.add(path.stem)
    return found - {"__init__"}


def list_problems(
    by_module: Mapping[str, tuple[str, ...]],
    registered: Mapping[str, Mapping[str, Any]],
    modules_on_disk: set[str],
) -> list[str]:
    """The list against each module's ``MACROS`` (``registered``: module -> its MACROS)."""
    problems = []
    seen: dict[str, str] = {}
    for module, names in by_module.items():
        for name in names:
            if name in seen:
                problems.append(f"{name!r} is listed under both {seen[name]} and {module}")
            seen[name] = module
        if module not in registered:
            problems.append(f"the list names module {module}, which has no MACROS")
            continue
        for name in sorted(set(names) - set(registered[module])):
            problems.append(f"{name!r} is listed under {module}, but {module} does not register it")
        for name in sorted(set(registered[module]) - set(names)):
            problems.append(f"{module} registers {name!r}, which the list does not name")
    for module in sorted(modules_on_disk - set(by_module)):
        problems.append(f"docs/macros/{module}.py has MACROS but is not in the list")
    return problems


def names_on_pages(docs_dir: Path) -> dict[str, set[str]]:
    """Every name the pages' templates use (macro or variable) -> the pages that use it."""
    parser = jinja2.Environment()
    used: dict[str, set[str]] = {}
    for page in sorted(docs_dir.rglob("*.md")):
        body, meta = get_data(page.read_text(encoding="utf-8"))
        if meta.get("render_macros") is False:
            continue
        for name in jinja2.meta.find_undeclared_variables(parser.parse(body)):
            used.setdefault(name, set()).add(page.relative_to(docs_dir).as_posix())
    return used


def page_problems(
    used: Mapping[str, set[str]],
    macro_names: tuple[str, ...],
    unused: Mapping[str, str],
    variables: Mapping[str, str],
) -> list[str]:
    """Calls on the pages against the registered names."""
    problems = [
        f"{', '.join(sorted(pages))} calls {name!r}, which no module registers"
        for name, pages in sorted(used.items())
        if name not in macro_names and name not in variables
    ]
    for name in macro_names:
        if name not in used and name not in unused:
            problems.append(f"{name!r} is registered but no page calls it (nor is it in UNUSED)")
        if name in used and name in unused:
            problems.append(f"{name!r} is listed as unused but {sorted(used[name])} call it")
    return problems


# --- the real package and pages ---------------------------------------------------------------


@pytest.fixture(scope="module")
def package() -> ModuleType:
    return import_macros("macros")


def _registered(package: ModuleType) -> dict[str, dict[str, Any]]:
    return {
        module: dict(import_macros(f"macros.{module}").MACROS)
        for module in modules_with_macros(MACROS_DIR)
    }


def test_the_list_matches_every_module(package: ModuleType) -> None:
    problems = list_problems(
        package.MACROS_BY_MODULE, _registered(package), modules_with_macros(MACROS_DIR)
    )
    assert problems == []
    # The flat list the fallback registers is the same names.
    assert sorted(package.MACRO_NAMES) == sorted(
        n for names in package.MACROS_BY_MODULE.values() for n in names
    )


def test_the_list_matches_the_pages(package: ModuleType) -> None:
    used = names_on_pages(DOCS)
    assert used, "no macro call found on the pages: the scan is broken"
    assert page_problems(used, package.MACRO_NAMES, UNUSED_ON_PAGES, PAGE_VARIABLES) == []


def test_every_module_binds_its_macros(package: ModuleType) -> None:
    site = object()  # binding does not call the macros
    bound = package.bind_macros(site)
    assert list(bound) == list(package.MACRO_NAMES)
    assert all(macro.__wrapped__.args == (site,) for macro in bound.values())


def test_the_fallback_registers_every_name(package: ModuleType) -> None:
    registered: dict[str, Any] = {}
    env = SimpleNamespace(macro=lambda function, name: registered.__setitem__(name, function))
    package._define_broken(env, SyntaxError("invalid syntax"))
    assert set(registered) == set(package.MACRO_NAMES)
    with pytest.raises(RuntimeError, match="the live code cannot be loaded"):
        registered["c"]("composite.weight.success")


# --- the checks can fail ----------------------------------------------------------------------


def test_an_unknown_call_on_a_page_is_found(package: ModuleType, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    shutil.copytree(DOCS, docs, ignore=shutil.ignore_patterns("macros", "hooks", "__pycache__"))
    page = docs / "radar.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n{{ weigths_table() }}\n", "utf-8")
    problems = page_problems(
        names_on_pages(docs), package.MACRO_NAMES, UNUSED_ON_PAGES, PAGE_VARIABLES
    )
    assert problems == ["radar.md calls 'weigths_table', which no module registers"]


def test_a_macro_no_page_calls_is_found(package: ModuleType, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    shutil.copytree(DOCS, docs, ignore=shutil.ignore_patterns("macros", "hooks", "__pycache__"))
    page = docs / "radar.md"
    page.write_text(page.read_text(encoding="utf-8").replace("{{ weights_table() }}", ""), "utf-8")
    used = names_on_pages(docs)
    problems = page_problems(used, package.MACRO_NAMES, UNUSED_ON_PAGES, PAGE_VARIABLES)
    assert problems == ["'weights_table' is registered but no page calls it (nor is it in UNUSED)"]
    # Listed as unused with a reason, it passes; listed so while a page calls it, it fails.
    reason = {"weights_table": "kept for a page being written"}
    assert page_problems(used, package.MACRO_NAMES, reason, PAGE_VARIABLES) == []
    assert page_problems(names_on_pages(DOCS), package.MACRO_NAMES, reason, PAGE_VARIABLES) == [
        "'weights_table' is listed as unused but ['radar.md'] call it"
    ]


def test_a_list_that_disagrees_with_a_module_is_found(package: ModuleType) -> None:
    registered = _registered(package)
    on_disk = modules_with_macros(MACROS_DIR)
    spoiled = dict(package.MACROS_BY_MODULE)
    spoiled["formulas"] = (*spoiled["formulas"], "formula_table")
    spoiled["figures"] = tuple(n for n in spoiled["figures"] if n != "plot")
    spoiled["versions"] = (*spoiled["versions"], "c")
    del spoiled["published"]
    assert list_problems(spoiled, registered, on_disk) == [
        "'formula_table' is listed under formulas, but formulas does not register it",
        "figures registers 'plot', which the list does not name",
        "'c' is listed under both constants and versions",
        "'c' is listed under versions, but versions does not register it",
        "docs/macros/published.py has MACROS but is not in the list",
    ]


def test_a_module_outside_the_list_is_found(package: ModuleType, tmp_path: Path) -> None:
    shutil.copytree(MACROS_DIR, tmp_path / "macros")
    (tmp_path / "macros" / "unlisted.py").write_text(
        'MACROS: dict[str, object] = {"term": print}\n', encoding="utf-8"
    )
    on_disk = modules_with_macros(tmp_path / "macros")
    assert list_problems(package.MACROS_BY_MODULE, _registered(package), on_disk) == [
        "docs/macros/unlisted.py has MACROS but is not in the list"
    ]


def test_a_build_refuses_a_module_that_disagrees(
    package: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    listed = tuple(n for n in package.MACROS_BY_MODULE["constants"] if n != "anchors")
    monkeypatch.setitem(package.MACROS_BY_MODULE, "constants", listed)
    with pytest.raises(package.MacroListError, match=r"constants.*not listed \['anchors'\]"):
        package.bind_macros(object())
