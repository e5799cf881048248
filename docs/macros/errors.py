"""What a writer sees when a page cannot be rendered as written.

- An unknown name in a macro call (``{{ c("composite.wieght.cost") }}``) is an error in
  place: the macro's spot on the page says what is unknown and the closest names known
  (``difflib``), the rest of the page renders, and a warning is logged, so that
  ``mkdocs build --strict`` still fails (:func:`in_place`).
- Any other error replaces the page with literal text (:func:`error_page`): the failing file
  and line first, then the page, then the traceback, all escaped and preformatted, so that
  nothing of it is read as Markdown (``__init__`` is not bold, ``_File_`` is not italic).
"""

from __future__ import annotations

import difflib
import functools
import html
import logging
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

LOG = logging.getLogger("mkdocs.plugins.macros.methodology")

#: The words an error on a page starts with (the site tests look for them).
ERROR_TITLE = "Macro Rendering Error"
# How many close names are suggested, and how close (difflib's ratio) they must be.
SUGGESTIONS = 3
SUGGESTION_CUTOFF = 0.6

from contracts.source import REPO_ROOT  # noqa: E402 - the one root


def _shown(filename: str) -> str:
    path = Path(filename).resolve()
    return path.relative_to(REPO_ROOT).as_posix() if path.is_relative_to(REPO_ROOT) else str(path)


def failure_location(error: BaseException) -> str | None:
    """``file:line`` where ``error`` arose: a syntax error's own file and line (its
    traceback only shows the import that compiled it), else the innermost frame inside the
    repository.

    >>> try:
    ...     compile("x = (", str(REPO_ROOT / "scoring" / "constants.py"), "exec")
    ... except SyntaxError as error:
    ...     failure_location(error)
    'scoring/constants.py:1'
    """
    if isinstance(error, SyntaxError) and error.filename:
        return f"{_shown(error.filename)}:{error.lineno or 0}"
    frames = traceback.extract_tb(error.__traceback__)
    inside = [f for f in frames if Path(f.filename).resolve().is_relative_to(REPO_ROOT)]
    return f"{_shown(inside[-1].filename)}:{inside[-1].lineno}" if inside else None


def summary(error: BaseException) -> str:
    """``file:line: Type: message``, the place first.

    >>> summary(ValueError("bad"))
    'ValueError: bad'
    """
    if isinstance(error, SyntaxError):  # its own text repeats the file and line
        text = f"{type(error).__name__}: {error.msg}"
    else:
        text = "".join(traceback.format_exception_only(error)).strip()
    where = failure_location(error)
    return f"{where}: {text}" if where else text


def _root_cause(error: BaseException) -> BaseException:
    while error.__cause__ is not None:
        error = error.__cause__
    return error


def error_page(error: BaseException, page: str | None) -> str:
    """The page shown instead of one that failed: literal text, the failing place first (of
    the error it was raised from, if any), then the page, then the traceback.

    >>> print(error_page(ValueError("a __b__ <c>"), "docs/x.md").splitlines()[2])
    <pre><code>ValueError: a __b__ &lt;c&gt;
    """
    root = _root_cause(error)
    lines = [summary(root)]
    if root is not error:
        lines.append("".join(traceback.format_exception_only(error)).strip())
    if page:
        lines.append(f"on the page {page}")
    trace = "".join(traceback.format_exception(error)).rstrip()
    text = html.escape("\n".join(lines) + "\n\n" + trace, quote=False)
    return (
        f'<div class="macro-error" role="alert">\n'
        f"<p><strong>{ERROR_TITLE}</strong></p>\n"
        f"<pre><code>{text}</code></pre>\n"
        f"</div>\n"
    )


def install_error_page() -> None:
    """Make mkdocs-macros show :func:`error_page` instead of its Markdown error page."""
    try:
        from jinja2 import TemplateSyntaxError
        from mkdocs_macros import errors
    except ImportError:  # another renderer (Zensical's shim): it has its own page
        return

    def _page(error: Exception, markdown: str, page: Any) -> str:
        source = getattr(getattr(page, "file", None), "src_path", None)
        if isinstance(error, TemplateSyntaxError) and error.lineno:
            source = f"{source}:{error.lineno}"
        return error_page(error, source)

    errors.format_error.register(Exception)(_page)
    errors.format_error.register(TemplateSyntaxError)(_page)


def unknown_name(name: object, known: Iterable[str]) -> str:
    """What a writer is told of an unknown name: it, and the closest names known.

    >>> unknown_name("composite.wieght.cost", ["composite.weight.cost", "radar.window"])
    "unknown name 'composite.wieght.cost'; did you mean 'composite.weight.cost'?"
    """
    text = f"unknown name {name!r}"
    close = difflib.get_close_matches(str(name), sorted(set(known)), SUGGESTIONS, SUGGESTION_CUTOFF)
    if close:
        text += "; did you mean " + " or ".join(repr(c) for c in close) + "?"
    return text


def in_place(
    macro: Callable[..., str], name: str, known: Callable[[], Iterable[str]], env: Any
) -> Callable[..., str]:
    """``macro``, whose unknown name (a ``KeyError`` of one of its arguments) is shown in
    its place and logged as a warning, instead of failing the whole page."""

    @functools.wraps(macro)
    def rendered(*args: Any, **kwargs: Any) -> str:
        try:
            return macro(*args, **kwargs)
        except KeyError as error:
            missing = error.args[0] if error.args else None
            if missing not in (*args, *kwargs.values()):
                raise  # not a name the page wrote: a real error
            call = f"{name}({', '.join(repr(a) for a in (*args, *kwargs.values()))})"
            page = getattr(getattr(getattr(env, "page", None), "file", None), "src_path", "")
            message = f"{call}: {unknown_name(missing, known())}"
            LOG.warning("%s%s", f"{page}: " if page else "", message)
            return (
                f'<span class="macro-error" role="alert"><strong>{ERROR_TITLE}</strong>: '
                f"<code>{html.escape(message, quote=False)}</code></span>"
            )

    return rendered


def known_names(site: Any) -> list[str]:
    """Every name a page may pass to a macro: constants (dotted and Python), formulas,
    worked examples and their keys, plots."""
    from macros.figures import PLOTS

    snapshot = site.snapshot
    names = [e.name for e in snapshot.constants] + [e.python_name for e in snapshot.constants]
    names += [f.name for f in snapshot.formulas]
    for example in snapshot.examples:
        names.append(example.name)
        for part in (example.inputs, example.result):
            if isinstance(part, dict):
                names += [str(key) for key in part]
    return names + list(PLOTS)
