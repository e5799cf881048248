"""One build of the site, under either generator: MkDocs with the mkdocs-macros plugin, or
Zensical (0.0.73) with its macros shim. What the two do differently, and how the macros
make up for it:

- **How often ``define_env`` runs.** mkdocs-macros calls it once per build, at
  ``on_config``; Zensical's shim once per page, on a fresh copy of ``docs/macros/__init__.py``.
  :func:`code_fingerprint` and the build's configuration object (a new one at every
  parse of ``mkdocs.yml``, under both) tell ``macros.define_env`` whether a page belongs to
  the build it already loaded the live code for, so that the live code is imported and
  the snapshot built once per build, not once per page.
- **Publishing.** MkDocs calls the macros module's ``on_post_build``; Zensical has no
  post-build event (nor ``hooks:``), so there the files are published when the first page
  of a build is rendered (Zensical empties ``site/`` when a build starts, before any page).
  Both call :func:`publish_or_warn`, which calls the one writer, ``macros.published.publish``.
- **Strict builds.** ``mkdocs build --strict`` fails on any warning, a macro error
  included. Zensical's ``--strict`` counts only its own checks (links, anchors): the shim
  logs a macro error and publishes the error page. :func:`fail_strict_builds` makes each
  such warning raise :class:`StrictBuildError` in ``zensical build --strict`` (the build
  stops, non-zero), and only print it under ``zensical serve``, which keeps running.
"""

from __future__ import annotations

import logging
import sys
import traceback
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

#: The names of the two generators, as :func:`generator` returns them.
MKDOCS = "mkdocs"
ZENSICAL = "zensical"

#: Where Zensical's macros shim logs a macro error (and then renders the error page).
ZENSICAL_MACROS_LOGGER = "zensical.extensions.macros"

#: ``zensical build`` options that take a value (the next argument, or attached).
_ZENSICAL_VALUE_OPTIONS = ("-f", "--config-file")


class StrictBuildError(RuntimeError):
    """A warning (a macro error, the live code not loading) in ``zensical build --strict``."""


def generator(env: Any) -> str:
    """``"zensical"`` when ``env`` is the environment of Zensical's macros shim, else
    ``"mkdocs"`` (the mkdocs-macros plugin)."""
    return ZENSICAL if type(env).__module__.startswith(ZENSICAL) else MKDOCS


def site_dir(env: Any) -> Path:
    """The folder this build writes the site to (absolute under MkDocs, and under
    ``mkdocs serve`` a temporary folder; relative to the project under Zensical)."""
    return Path(env.project_dir, env.conf["site_dir"])


def zensical_strict(argv: Sequence[str], config_strict: bool = False) -> bool:
    """Whether this process is ``zensical build`` in strict mode: ``--strict`` or ``-s``
    (alone or in a cluster such as ``-cs``) on its command line, or ``strict: true`` in
    the configuration. Zensical 0.0.73 passes its options to Rust only, so the command
    line is where Python can read them. ``zensical serve`` is never strict.

    >>> zensical_strict(["zensical", "build", "--strict"])
    True
    >>> zensical_strict(["zensical", "build", "-cs", "-f", "mkdocs.yml"])
    True
    >>> zensical_strict(["zensical", "build", "-f", "strict-s.yml"])
    False
    >>> zensical_strict(["zensical", "build"], config_strict=True)
    True
    >>> zensical_strict(["zensical", "serve", "--strict"])
    False
    """
    args = list(argv[1:])
    if not args or args[0] != "build":
        return False
    if config_strict:
        return True
    rest = iter(args[1:])
    for arg in rest:
        if arg == "--":
            break
        if arg == "--strict":
            return True
        if arg in _ZENSICAL_VALUE_OPTIONS:
            next(rest, None)  # the option's value
        elif arg.startswith("-") and not arg.startswith("--"):
            for at, flag in enumerate(arg[1:], start=1):
                if flag == "s":
                    return True
                if flag == "f":  # takes the rest of the cluster, or the next argument
                    if at == len(arg) - 1:
                        next(rest, None)
                    break
    return False


class _WarningHandler(logging.Handler):
    """Prints each warning as MkDocs would; in a strict Zensical build, raises it."""

    methodology_guard = True

    def __init__(self, strict: bool) -> None:
        super().__init__(logging.WARNING)
        self.strict = strict

    def emit(self, record: logging.LogRecord) -> None:
        message = record.getMessage()
        if self.strict:
            raise StrictBuildError(f"zensical build --strict: {message}")
        print(f"WARNING -  {message}", file=sys.stderr)


def fail_strict_builds(loggers: Iterable[str], strict: bool) -> None:
    """Route the warnings of ``loggers`` through :class:`_WarningHandler` (replacing one put
    there by an earlier build, so that each build's ``strict`` holds)."""
    for name in loggers:
        logger = logging.getLogger(name)
        for handler in [h for h in logger.handlers if getattr(h, "methodology_guard", False)]:
            logger.removeHandler(handler)
        logger.addHandler(_WarningHandler(strict))
        # Printed once, by the handler; not again by a handler of the root logger.
        logger.propagate = False


def code_fingerprint(folders: Iterable[Path]) -> tuple[tuple[str, int, int], ...]:
    """Path, modification time and size of every file under ``folders`` (caches left out):
    equal fingerprints mean the live code a build loaded is still what is on disk."""
    entries = []
    for folder in folders:
        for path in folder.rglob("*"):
            if "__pycache__" in path.parts or not path.is_file():
                continue
            stat = path.stat()
            entries.append((str(path), stat.st_mtime_ns, stat.st_size))
    return tuple(sorted(entries))


def publish_or_warn(target: Path, log: logging.Logger, snapshot: Any = None) -> bool:
    """Publish the files beside the pages into ``target`` (see ``macros.published``);
    when the live code cannot do it, log a warning (a strict build fails on it) and
    publish nothing. True when published. ``snapshot`` is the live snapshot the build's
    pages were rendered from, if it has one (else it is built here)."""
    writes_bytecode = sys.dont_write_bytecode
    # No .pyc writes under watched folders: each would trigger one more rebuild.
    sys.dont_write_bytecode = True
    try:
        from macros.published import publish

        publish(target, snapshot=snapshot)
    except Exception as error:
        summary = "".join(traceback.format_exception_only(error)).strip()
        log.warning("methodology macros: nothing published: %s", summary)
        return False
    finally:
        sys.dont_write_bytecode = writes_bytecode
    return True
