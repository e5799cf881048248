"""The core of the site's macros: the :class:`Site` of one build, which every macro module
reads. It holds the live snapshot (built by ``contracts.build.build_snapshot`` from
``scoring``), the constants' metadata, links relative to the page being rendered, and the
number formats the macros share. The macros themselves live in the modules named in
``macros.MACROS_BY_MODULE``; each takes the :class:`Site` as its first argument.
Imported afresh at the start of every build (see ``macros``).
"""

from __future__ import annotations

import shutil
import tempfile
import weakref
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

import scoring.constants as C  # noqa: N812 - the module of constants, named as in contracts
from contracts.build import build_snapshot
from contracts.model import Location, Methodology
from contracts.source import locate
from macros.formats import number, render
from macros.layout import SOURCE_ANCHOR, SOURCE_DIR
from macros.markup import (
    code_block,
    esc,
    plain,
)
from macros.samples import sample_files

REFERENCE_PAGE = "reference.html"
#: Output longer than this many lines is folded away in a <details> element.
LONG_OUTPUT_LINES = 30


def anchor_id(kind: str, name: str) -> str:
    """The HTML id of a constant's or formula's entry on the reference page."""
    return f"{kind}-{name.replace('.', '-').replace('^', '')}"


def fraction(data: Any) -> Fraction | None:
    """An exact result of the snapshot (``{exact, approx}``), a number, or ``None``."""
    return None if data is None else number(data)


class Site:
    """The live methodology of one build and everything the macros derive from it."""

    def __init__(self, env: Any) -> None:
        self.env = env
        # Absolute under mkdocs; relative to the project under Zensical's macros shim.
        self.docs_dir = Path(env.project_dir, env.conf["docs_dir"]).resolve()
        self.snapshot: Methodology = build_snapshot()
        self.infos = {info.meta.name: info for info in C.constants()}
        self.entries = {entry.name: entry for entry in self.snapshot.constants}
        self.workdir = Path(tempfile.mkdtemp(prefix="methodology-site-"))
        # Removed after the build (``macros.on_post_build`` under MkDocs; under Zensical,
        # which has no such event, when the next build starts); also if the build stops
        # half-way, or at exit.
        weakref.finalize(self, shutil.rmtree, self.workdir, True)
        # The sample files, for the commands the pages run (the same files are published).
        self.files = sample_files()
        for name, text in self.files.items():
            (self.workdir / name).write_text(text, encoding="utf-8")
        self._history: list[Any] | None = None

    # --- links ------------------------------------------------------------------------------

    def rel(self, target: str) -> str:
        """``target`` (a path from the site root) relative to the page being rendered."""
        page = getattr(self.env, "page", None)
        depth = page.url.count("/") if page is not None else 0
        return "../" * depth + target

    def source_href(self, location: Location) -> tuple[str, int]:
        """Link to where ``location`` is defined now (the site's own copy of the source, so
        the line always matches this build and works offline), and its line."""
        line = locate(location)
        return self.rel(f"{SOURCE_DIR}/{location.file}.html") + f"#{SOURCE_ANCHOR}-{line}", line

    def source_link(self, location: Location) -> str:
        href, line = self.source_href(location)
        return f'<a class="source" href="{esc(href)}"><code>{esc(location.file)}:{line}</code></a>'

    # --- formats: constants and results as text ---------------------------------------------

    @staticmethod
    def pick(raw: Any, sub: str) -> Any:
        """A part of a constant: ``0.x``, ``-1.score``, ``correctness``, ``1``."""
        for part in sub.split("."):
            if isinstance(raw, Mapping):
                raw = next(v for k, v in raw.items() if str(k) == part)
            elif isinstance(raw, tuple | list):
                raw = raw[int(part)]
            else:
                raw = getattr(raw, part)
        return raw

    @staticmethod
    def format(raw: Any, fmt: str) -> tuple[str, bool]:
        """A constant (or part of one) as text, and whether it is code (see
        :data:`macros.formats.FORMATS`, the one vocabulary of format codes)."""
        return render(raw, fmt)

    def describe(self, raw: Any) -> str:
        """A whole constant in words, for the reference table."""
        if isinstance(raw, tuple) and raw and isinstance(raw[0], C.Anchor):
            return "; ".join(f"{plain(a.x)} → {plain(a.score)}" for a in raw)
        if isinstance(raw, Mapping):
            return ", ".join(f"{k} {plain(v)}" for k, v in raw.items())
        if isinstance(raw, tuple):
            return ", ".join(str(item) for item in raw)
        return self.format(raw, "plain")[0]

    @staticmethod
    def show(data: Any, fmt: str, key: str) -> tuple[str, bool]:
        """A result of the snapshot as text, and whether it is code; ``key`` names the
        result (for ``published``). The same codes as :meth:`format`."""
        return render(data, fmt, key)

    # --- released versions ------------------------------------------------------------------

    def history(self) -> list[Any]:
        """The released versions (committed snapshots), read once per build."""
        if self._history is None:
            from contracts.store import load_history

            self._history = load_history()
        return self._history


def output_block(key: str, text: str) -> str:
    """What a command printed, as a code block; folded away when it is long."""
    rendered = code_block(key + "/output", text, lang="text", title="output")
    lines = text.count("\n")
    if lines <= LONG_OUTPUT_LINES:
        return rendered
    return (
        f'\n<details class="output mv-block" data-mv="{esc(key)}/details" markdown>\n'
        f"<summary>Output ({lines} lines)</summary>\n{rendered}\n</details>\n"
    )
