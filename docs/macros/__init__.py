"""mkdocs-macros module of the methodology site (``module_name: docs/macros``).

At the start of every build, :func:`define_env` drops every ``scoring``, ``contracts`` and
``macros.*`` module from ``sys.modules`` and imports them again from this repository, so
that ``mkdocs serve`` shows an edited constant on the next rebuild without a restart (a
piecemeal ``importlib.reload`` would not do: ``scoring.registry`` refuses a formula that
registers twice).

If the live code cannot be imported (say, a half-typed edit in ``scoring/constants.py``),
every macro raises that error instead: each page shows it, ``mkdocs build --strict`` fails
on the warning, and ``mkdocs serve`` keeps serving until the code is fixed.
"""

from __future__ import annotations

import importlib
import logging
import sys
import traceback
from pathlib import Path
from typing import Any

LOG = logging.getLogger("mkdocs.plugins.macros.methodology")

#: Packages re-imported at the start of every build.
LIVE_PACKAGES = ("scoring", "contracts")

#: Every macro the pages may call (kept in step with ``macros.site.MACROS`` by a test).
MACRO_NAMES = (
    "c",
    "formula",
    "f",
    "anchors",
    "plot",
    "radar_example",
    "ex",
    "ex_in",
    "example_table",
    "outcome_example",
    "weights_table",
    "cli",
    "script",
    "tau_bench_table",
    "tau_bench_levels",
    "tau_bench_verdict",
    "model_table",
    "status_table",
    "bad_input",
    "downloads",
    "demo",
    "pass_k_compare",
    "code_value",
    "source_excerpt",
    "next_version",
    "constants_reference",
    "formulas_reference",
    "versions_table",
    "changelog",
    "version_changes",
    "live_drift",
    "check_demo",
    "snapshot_links",
    "version_impact",
)


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


def _put_project_first(project_dir: str) -> None:
    """Import ``scoring`` and ``contracts`` from this checkout, whatever is installed."""
    project = str(Path(project_dir).resolve())
    sys.path[:] = [p for p in sys.path if p != project]
    sys.path.insert(0, project)


def define_env(env: Any) -> None:
    """Re-import the live code and register every macro (called once per build)."""
    _put_project_first(env.project_dir)
    purge_live_modules()
    writes_bytecode = sys.dont_write_bytecode
    # No .pyc writes under watched folders: each would trigger one more rebuild.
    sys.dont_write_bytecode = True
    try:
        site = importlib.import_module("macros.site")
        site.define_env(env)
    except Exception as error:
        _define_broken(env, error)
    finally:
        sys.dont_write_bytecode = writes_bytecode


def _define_broken(env: Any, error: Exception) -> None:
    summary = "".join(traceback.format_exception_only(error)).strip()
    frames = traceback.extract_tb(error.__traceback__)
    where = next(
        (
            f"{f.filename}:{f.lineno}"
            for f in reversed(frames)
            if any(f"/{p}/" in f.filename.replace("\\", "/") for p in LIVE_PACKAGES)
        ),
        "",
    )
    message = f"the live code cannot be loaded: {summary}" + (f" ({where})" if where else "")
    LOG.warning("methodology macros: %s", message)

    def broken(*_args: Any, **_kwargs: Any) -> str:
        raise RuntimeError(message)

    for name in MACRO_NAMES:
        env.macro(broken, name)


def on_post_build(env: Any) -> None:
    """Write the published JSON and the downloads next to the pages."""
    site = sys.modules.get("macros.site")
    if site is None or getattr(site, "SITE", None) is None:
        LOG.warning("methodology macros: nothing published, the live code did not load")
        return
    site.on_post_build(env)
