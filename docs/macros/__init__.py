"""mkdocs-macros module of the methodology site (``module_name: docs/macros``), also loaded
by Zensical's macros shim.

The macros are grouped in modules by what they render (:data:`MACROS_BY_MODULE`). Each
module ``macros.<name>`` exposes ``MACROS``, a dict from the name a page calls to a function
whose first argument is the build's :class:`macros.site.Site`; :func:`define_env` builds the
one ``Site`` of the build, binds every function to it and registers it under its name.

mkdocs-macros calls :func:`define_env` once per build; Zensical's shim calls it once per
page, each time on a fresh copy of this file, which hands over to this package as imported
once (``macros``). The first call of a build (a new configuration object, or live code
changed on disk) drops every ``scoring``, ``contracts`` and ``macros.*`` module from
``sys.modules`` and imports them again from this repository, so that ``serve`` shows an
edited constant on the next rebuild without a restart (a piecemeal ``importlib.reload``
would not do: ``scoring.registry`` refuses a formula that registers twice); the other pages
of the build reuse that ``Site`` (see ``macros.builds``).

If the live code cannot be imported (say, a half-typed edit in ``scoring/constants.py``),
every macro raises that error instead: each page shows it, a strict build fails on the
warning, and ``serve`` keeps serving until the code is fixed.

Under MkDocs, a page that shows a change of the live code not yet released says so at its
top (:func:`on_post_page_macros`, ``macros.drift``).

The files published beside the pages (``methodology.json``, downloads, sources) are written
by ``macros.published.publish``, called from here: under MkDocs after the build
(:func:`on_post_build`), under Zensical, which has no such event, when the build starts. The
zip of the whole site, which must come after every other file, is written by the MkDocs hook
``docs/hooks/site_zip.py`` (after a Zensical build: ``python docs/hooks/site_zip.py site``).
"""

from __future__ import annotations

import atexit
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
        "said",
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
    "archive": ("site_archive",),
    "versioned": ("version_pages", "deploy_command"),
    "calculator": ("calculator",),
    "impact": ("version_impact",),
    "guarantees": ("guarantees",),
    "formats": ("format_codes",),
    "engines": ("table_contract",),
    "contract": ("drift_checks", "descriptive_formulas"),
    "glossary": ("glossary_terms",),
    "uncertainty": (
        "runs_needed_table",
        "interval_leaderboard",
        "interval_value",
        "cohort_table",
        "paired_tasks_table",
        "paired_table",
    ),
    "coverage": (
        "coverage_map",
        "coverage_notes",
        "clopper_pearson_reach",
        "coverage_target",
        "noise_at_ceiling",
    ),
    "harnesses": ("harness_mapping", "harness_notes", "harness_cli", "tau2_example"),
    "repository": ("repository_link", "clone"),
}

#: Every macro name, in the order of :data:`MACROS_BY_MODULE`.
MACRO_NAMES: tuple[str, ...] = tuple(n for names in MACROS_BY_MODULE.values() for n in names)

#: The live code the current build loaded (its work folder is removed after the build).
_BUILD: _Build | None = None


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
    """Register every macro on ``env``; the first call of a build loads the live code."""
    # The plugin imports this package with docs/ on sys.path; Zensical's macros shim loads
    # this file by its path, so ``macros.*`` needs docs/ added here.
    docs = str(Path(__file__).resolve().parent.parent)
    if docs not in sys.path:
        sys.path.append(docs)
    if __name__ != "macros":
        # A copy Zensical's shim loaded for one page: the package keeps the build.
        importlib.import_module("macros").define_env(env)
        return
    global _BUILD
    if _BUILD is None or not _BUILD.current(env):
        _BUILD = _Build.start(env)
    _BUILD.register(env)


class _Build:
    """The live code as one build loaded it: its ``Site`` and bound macros, or the error
    that kept it from loading."""

    def __init__(self, env: Any) -> None:
        self.conf = env.conf
        self.generator = "mkdocs"
        self.fingerprint: tuple[Any, ...] = ()
        self.site: Any = None
        self.macros: dict[str, Callable[..., Any]] = {}
        self.version: str | None = None
        self.env: Any = None  # the latest page's env (MkDocs: one for the build)

    @property
    def page(self) -> Any:
        """The page being rendered (a macro registered on the build asks for it)."""
        return getattr(self.env, "page", None)

    def current(self, env: Any) -> bool:
        """Whether ``env`` is a page of this build and the live code is unchanged."""
        builds = sys.modules.get("macros.builds")
        return (
            env.conf is self.conf
            and builds is not None
            and builds.code_fingerprint(_live_folders(env)) == self.fingerprint
        )

    @classmethod
    def start(cls, env: Any) -> _Build:
        """Re-import the live code and build the ``Site``; under Zensical, publish."""
        if _BUILD is not None and _BUILD.site is not None:
            shutil.rmtree(_BUILD.site.workdir, ignore_errors=True)
        build = cls(env)
        put_project_first(env.project_dir)
        purge_live_modules()
        writes_bytecode = sys.dont_write_bytecode
        # No .pyc writes under watched folders: each would trigger one more rebuild.
        sys.dont_write_bytecode = True
        try:
            # Standard library only, so that it loads whatever state the live code is in.
            builds = importlib.import_module("macros.builds")
            build.generator = builds.generator(env)
            build.fingerprint = builds.code_fingerprint(_live_folders(env))
            if build.generator == builds.ZENSICAL:
                strict = builds.zensical_strict(sys.argv, bool(env.conf.get("strict")))
                builds.fail_strict_builds((builds.ZENSICAL_MACROS_LOGGER, LOG.name), strict)
            # The error page: literal text, the failing line first (before any live code loads).
            importlib.import_module("macros.errors").install_error_page()
            try:
                found = importlib.import_module("scoring.invariants").breaches()
                if found:
                    # Wrong numbers are worse than none: every macro shows the breaches instead.
                    guarantees = importlib.import_module("macros.guarantees")
                    guarantees.define_broken_methodology(build, MACRO_NAMES, found)
                    return build
                site = importlib.import_module("macros.site").Site(env)
                build.macros = bind_macros(site)
                build.version = site.snapshot.methodology_version
                build.site = site
            except Exception as error:
                _define_broken(build, error)  # registers on the build, for every page
            if build.generator == builds.ZENSICAL:
                snapshot = None if build.site is None else build.site.snapshot
                builds.publish_or_warn(builds.site_dir(env), LOG, snapshot)
                if sys.argv[1:2] == ["build"]:
                    zip_after_zensical_build(builds.site_dir(env).resolve())
        finally:
            sys.dont_write_bytecode = writes_bytecode
        return build

    def macro(self, function: Callable[..., Any], name: str) -> None:
        """Keep ``function`` to register under ``name`` on each page (as ``env.macro``)."""
        self.macros[name] = function

    def register(self, env: Any) -> None:
        """Register the build's macros on ``env`` (under Zensical, a new one per page)."""
        self.env = env
        if self.site is not None:
            self.site.env = env  # links are made relative to env's page
        for name, macro in self.macros.items():
            env.macro(macro, name)
        if self.version is not None:
            env.variables["methodology_version"] = self.version


#: The site folders a Zensical build will zip when its process ends (each registered once).
_ZIP_AT_EXIT: set[Path] = set()


def zip_after_zensical_build(site_dir: Path) -> None:
    """Zip the site once ``zensical build`` has written its last page: the process ends
    right after the build (Zensical runs no Python after its last page, and has no hooks),
    so the zip is written at exit, as the MkDocs hook writes it after the build."""
    if site_dir in _ZIP_AT_EXIT:
        return
    _ZIP_AT_EXIT.add(site_dir)

    def write() -> None:
        if not (site_dir / "methodology.json").exists():
            return  # nothing was published (broken live code): no zip of a broken site
        try:
            importlib.import_module("macros.archive").write_site_zip(site_dir)
        except Exception as error:  # at exit: say so, the build's pages stand
            print(f"methodology macros: the site zip was not written: {error}", file=sys.stderr)

    atexit.register(write)


def _live_folders(env: Any) -> list[Path]:
    """The folders whose files the build's ``Site`` and modules are loaded from."""
    project = Path(env.project_dir)
    return [*(project / p for p in LIVE_PACKAGES), Path(__file__).resolve().parent]


def _define_broken(env: Any, error: Exception) -> None:
    from macros.errors import summary

    message = f"the live code cannot be loaded: {summary(error)}"
    LOG.warning("methodology macros: %s", message)

    def broken(*_args: Any, **_kwargs: Any) -> str:
        raise RuntimeError(message) from error

    for name in MACRO_NAMES:
        env.macro(broken, name)


def on_post_page_macros(env: Any) -> None:
    """MkDocs, after the macros rendered a page: a page that shows a change not yet released
    says so under its title (``macros.drift``; nothing on a tree whose code is the newest
    released snapshot). Zensical's macros have no such event: its pages go without the note.
    A failure here is a warning (a strict build fails on it), never the end of ``serve``."""
    if _BUILD is None or _BUILD.site is None:
        return  # the live code did not load: every macro shows that error already
    try:
        drift = importlib.import_module("macros.drift")
        env.markdown = drift.with_note(_BUILD.site, env.markdown)
    except Exception as error:
        LOG.warning("methodology macros: no note of unreleased changes on this page: %s", error)


def on_post_build(env: Any) -> None:
    """MkDocs, after the build: publish the files beside the pages, then remove the work
    folder of the build's commands. (Zensical never calls this: see :func:`define_env`.)"""
    publish_or_warn = importlib.import_module("macros.builds").publish_or_warn
    # The snapshot the pages were rendered from, not built a second time.
    snapshot = None if _BUILD is None or _BUILD.site is None else _BUILD.site.snapshot
    publish_or_warn(Path(env.conf["site_dir"]), LOG, snapshot)
    if _BUILD is not None and _BUILD.site is not None:
        shutil.rmtree(_BUILD.site.workdir, ignore_errors=True)
