"""One-line descriptions of a failure of the live code, for the exit-2 messages.

Kept apart from :mod:`contracts.build`, which imports ``scoring``: this module must work
exactly when ``scoring`` does not import.
"""

from __future__ import annotations

import traceback

from contracts.source import display_path, is_inside

# Characters of an error's own message kept in the one-line description.
_MESSAGE_MAX_CHARS = 300


def failure_location(error: BaseException) -> str | None:
    """``file:line`` in the repository where ``error`` arose, or ``None``.

    A syntax error names its own file and line (the traceback only shows the import that
    compiled it); any other error, the innermost frame inside the repository.
    """
    if isinstance(error, SyntaxError) and error.filename:
        return f"{display_path(error.filename)}:{error.lineno or 0}"
    frames = traceback.extract_tb(error.__traceback__)
    inside = [f for f in frames if is_inside(f.filename)]
    if not inside:
        return None
    return f"{display_path(inside[-1].filename)}:{inside[-1].lineno}"


def describe_failure(error: BaseException) -> str:
    """``at FILE:LINE: Type: message`` on one line (the message cut if long).

    >>> from contracts.source import REPO_ROOT
    >>> try:
    ...     compile("x = (", str(REPO_ROOT / "scoring" / "constants.py"), "exec")
    ... except SyntaxError as error:
    ...     print(describe_failure(error))
    at scoring/constants.py:1: SyntaxError: '(' was never closed
    """
    where = failure_location(error)
    text = (error.msg if isinstance(error, SyntaxError) else str(error)) or ""
    text = " ".join(text.split())
    if len(text) > _MESSAGE_MAX_CHARS:
        text = f"{text[:_MESSAGE_MAX_CHARS]}… ({len(text)} characters)"
    return f"at {where or 'an unknown line'}: {type(error).__name__}: {text}"
