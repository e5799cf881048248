"""mkdocs-macros module of the methodology site (``module_name: docs/macros``).

The macros are grouped in modules by what they render (:data:`MACROS_BY_MODULE`). Each
module ``macros.<name>`` exposes ``MACROS``, a dict from the name a page calls to a function
whose first argument is the build's :class:`macros.site.Site`; :func:`define_env` builds the
one ``Site`` of the build, binds every function to it and registers it under its name.

At the start of every build, :func:`define_env` drops every ``scoring``, ``contracts`` and
``macros.*`` module from ``sys.modules`` and imports them again from this repository, so
that ``mkdocs serve`` shows an edited constant on the next rebuild without a restart (a
piecemeal ``importlib.reload`` would not do: ``scoring.registry`` refuses a formula that
registers twice).

If the live code cannot be imported (say, a half-typed edit in ``scoring/constants.py``),
every macro raises that error instead: each page shows it, ``mkdocs build --strict`` fails
on the warning, and ``mkdocs serve`` keeps serving until the code is fixed.

The files published beside the pages (``methodology.json``, downloads, sources) are written
by the mkdocs hook ``docs/hooks/publish.py``, not here.
"""

from __future__ import annotations

import functools
import importlib
import logging
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

LOG = logging.getLogger("mkdocs.plugins.macros.methodology")

#: Packages re-imported at the start of every build.
LIVE_PACKAGES = ("scoring", "contracts")

#: Every macro the pages may call, under the module of this package that renders it. This is
#: the one list of macro names: :func:`bind_macros` refuses a module whose ``MACROS`` differ
#: from its entry, the fallback for broken code registers every name, and
#: ``tests/site/test_macro_names.py`` checks it against the calls on the pages.
MACROS_BY_MODULE: dict[str, tuple[str, ...]] = {
    "constants": (
        "c",
        "code_value",
        "anchors",
        "weights_table",
        "constants_reference",
        "source_excerpt",
    ),
    "formulas": ("formula", "f", "formulas_reference"),
    "figures": ("plot", "radar_example"),
    "examples": ("ex", "ex_in", "example_table", "outcome_example", "pass_k_compare", "demo"),
    "commands": ("cli", "script", "tau_bench_table", "tau_bench_levels", "tau_bench_verdict"),
    "inputs": ("model_table", "status_table", "bad_input", "exit_table", "binary_kinds"),
    "versions": (
        "versions_table",
        "changelog",
        "version_changes",
        "live_drift",
        "check_demo",
        "next_version",
    ),
    "published": ("downloads", "snapshot_links"),
    "calculator": ("calculator",),
    "impact": ("version_impact",),
    "contract": ("drift_checks", "descriptive_formulas"),
}

#: Every macro name, in the order of :data:`MACROS_BY_MODULE`.
MACRO_NAMES: tuple[str, ...] = tuple(n for names in MACROS_BY_MODULE.values() for n in names)

#: The site of the current build (its work folder is removed after the build).
_SITE: Any = None


class MacroListError(LookupError):
    """A module's ``MACROS`` differ from what :data:`MACROS_BY_MODULE` lists for it."""


def module_macros(module_name: str) -> dict[str, Callable[..., str]]:
    """The ``MACROS`` of ``macros.<module_name>``, checked against :data:`MACROS_BY_MODULE`."""
    registered: dict[str, Callable[..., str]] = importlib.import_module(
        f"macros.{module_name}"
    ).MACROS
    listed = MACROS_BY_MODULE[module_name]
    missing = [name for name in listed if name not in registered]
    unlisted = [name for name in registered if name not in listed]
    if missing or unlisted:
        raise MacroListError(
            f"macros.{module_name}.MACROS does not match macros.MACROS_BY_MODULE"
            f"[{module_name!r}]: missing {missing}, not listed {unlisted}"
        )
    return registered


def bind_macros(site: Any) -> dict[str, Callable[..., str]]:
    """Every macro of every module, bound to ``site``, by the name the pages call; an
    unknown name in a call is shown in place (``macros.errors.in_place``)."""
    from macros.errors import in_place, known_names

    bound: dict[str, Callable[..., str]] = {}
    for module_name in MACROS_BY_MODULE:
        for name, function in module_macros(module_name).items():
            macro = functools.partial(function, site)
            functools.update_wrapper(macro, function)
            env = getattr(site, "env", None)
            bound[name] = in_place(macro, name, functools.partial(known_names, site), env)
    return bound


def purge_live_modules() -> list[str]:
    """Forget every live module (``scoring*``, ``contracts*``, ``macros.*``); return them."""
    dropped = [
        name
        for name in sys.modules
        if name in LIVE_PACKAGES
        or name.startswith(tuple(f"{p}." for p in LIVE_PACKAGES))
        or name.startswith("macros.")
    ]
    for name in dropped:
        del sys.modules[name]
    return dropped


def put_project_first(project_dir: str) -> None:
    """Import ``scoring`` and ``contracts`` from this checkout, whatever is installed."""
    project = str(Path(project_dir).resolve())
    sys.path[:] = [p for p in sys.path if p != project]
    sys.path.insert(0, project)


def define_env(env: Any) -> None:
    """Re-import the live code and register every macro (called once per build)."""
    global _SITE
    put_project_first(env.project_dir)
    # The plugin imports this package with docs/ on sys.path; Zensical's macros shim loads
    # this file by its path, so ``macros.*`` needs docs/ added here.
    docs = str(Path(__file__).resolve().parent.parent)
    if docs not in sys.path:
        sys.path.append(docs)
    purge_live_modules()
    # The error page: literal text, the failing line first (before any live code loads).
    importlib.import_module("macros.errors").install_error_page()
    writes_bytecode = sys.dont_write_bytecode
    # No .pyc writes under watched folders: each would trigger one more rebuild.
    sys.dont_write_bytecode = True
    try:
        site = importlib.import_module("macros.site").Site(env)
        for name, macro in bind_macros(site).items():
            env.macro(macro, name)
        env.variables["methodology_version"] = site.snapshot.methodology_version
        _SITE = site
    except Exception as error:
        _SITE = None
        _define_broken(env, error)
    finally:
        sys.dont_write_bytecode = writes_bytecode


def _define_broken(env: Any, error: Exception) -> None:
    from macros.errors import summary

    message = f"the live code cannot be loaded: {summary(error)}"
    LOG.warning("methodology macros: %s", message)

    def broken(*_args: Any, **_kwargs: Any) -> str:
        raise RuntimeError(message) from error

    for name in MACRO_NAMES:
        env.macro(broken, name)


def on_post_build(env: Any) -> None:
    """Remove the work folder of the build's commands (the site itself is written)."""
    if _SITE is not None:
        shutil.rmtree(_SITE.workdir, ignore_errors=True)
