"""Reading JSON Lines strictly: what pydantic's JSON parser lets through and we do not.

- A key repeated in one object (at any depth) is bad input: JSON parsers keep the last
  value, so ``{"latency_ms": -1, "latency_ms": 5}`` would hide a bad value behind a good
  one. :func:`repeated_keys` finds every repeat, with its path.
- A UTF-8 byte-order mark before the first line is skipped (:func:`without_bom`).
- A repeated ``run_id`` is found by :mod:`scoring.report.run_ids`, for both readers.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from itertools import chain
from typing import Any, TypeVar

from pydantic import ValidationError

from scoring.errors import Problem, ProblemLog, field_path, problems_from

T = TypeVar("T")

UTF8_BOM = b"\xef\xbb\xbf"

# The rule named when a key is repeated.
REPEATED_KEY_RULE = "repeated key: a JSON object must name each key once [duplicate_key]"


class _Pairs(list[tuple[str, Any]]):
    """An object's members as written, repeats included (the decoder's object hook)."""

    __slots__ = ()


# Numbers are kept as their text: only the structure matters here, and converting a long
# integer could fail (Python refuses to convert more than 4300 digits).
_DECODER = json.JSONDecoder(
    object_pairs_hook=_Pairs, parse_int=str, parse_float=str, parse_constant=str
)


class _RepeatedKeyError(Exception):
    """Raised by the screening decoder at the first object with a repeated key."""


def _screen_object(pairs: list[tuple[str, Any]]) -> None:
    if len(dict(pairs)) != len(pairs):
        raise _RepeatedKeyError
    # None: the screen keeps no values, it only looks for a repeat.


# A first, cheap pass: numbers and objects are not built, the first repeat stops it.
_SCREEN = json.JSONDecoder(
    object_pairs_hook=_screen_object, parse_int=len, parse_float=len, parse_constant=len
)


def repeated_keys(text: bytes | str) -> list[tuple[str | int, ...]]:
    """The path of every repeated key in one JSON text.

    Each object's repeats are listed, in the order written, before those of the objects
    inside it (depth first). A key repeated three times in one object is listed twice. The text
    is expected to be valid JSON (already read once by the validator); anything the
    decoder cannot read has no repeats to report.

    >>> repeated_keys(b'{"a": 1, "b": [{"c": 1, "c": 2}], "a": 3}')
    [('a',), ('b', 0, 'c')]
    """
    decoded = text.decode("utf-8") if isinstance(text, bytes) else text
    try:
        _SCREEN.decode(decoded)
        return []  # the common case: nothing repeated, found in C but for one call per object
    except _RepeatedKeyError:
        pass
    except (ValueError, RecursionError):
        return []
    document = _DECODER.decode(decoded)
    found: list[tuple[str | int, ...]] = []
    # Depth first, children in document order; pydantic's parser refuses deep nesting
    # before this runs, but an explicit stack keeps it safe on any input.
    stack: list[tuple[tuple[str | int, ...], Any]] = [((), document)]
    while stack:
        path, node = stack.pop()
        children: list[tuple[tuple[str | int, ...], Any]] = []
        if isinstance(node, _Pairs):
            seen: set[str] = set()
            for key, value in node:
                if key in seen:
                    found.append((*path, key))
                seen.add(key)
                children.append(((*path, key), value))
        elif isinstance(node, list):
            children = [((*path, index), value) for index, value in enumerate(node)]
        stack += reversed(children)
    return found


def repeated_key_problems(text: bytes, line: int) -> list[Problem]:
    """One problem per repeated key of a line, naming its path."""
    return [Problem(line, field_path(path), REPEATED_KEY_RULE) for path in repeated_keys(text)]


def validate_line(
    validate: Callable[[bytes], T], line: bytes, number: int
) -> tuple[T | None, list[Problem]]:
    """Validate one line: the model, or ``None`` and the problems that name why.

    A line with a repeated key is ambiguous (which value was meant?): its repeats are its
    only problems, whatever the last values would give.
    """
    try:
        model: T | None = validate(line)
        problems: list[Problem] = []
    except ValidationError as error:
        problems = problems_from(error, number)
        if any(e["type"] == "json_invalid" for e in error.errors(include_url=False)):
            return None, problems
        model = None
    repeated = repeated_key_problems(line, number)
    if repeated:
        return None, repeated
    return model, problems


def valid_lines(
    validate: Callable[[bytes], T], lines: Iterable[bytes], first: int, log: ProblemLog
) -> Iterator[tuple[int, T]]:
    """``(line number, model)`` of every line that validates, numbered from ``first``.

    Blank lines are skipped; the problems of a line that does not validate go to ``log``
    (before the next line is read), and the line is passed over.
    """
    for number, line in enumerate(lines, first):
        if not line.strip():
            continue
        model, problems = validate_line(validate, line, number)
        if model is None:
            log.extend(problems)
        else:
            yield number, model


def without_bom(lines: Iterable[bytes]) -> Iterator[bytes]:
    """The lines, with a UTF-8 byte-order mark at the very start removed."""
    lines = iter(lines)
    for first in lines:
        first = first.removeprefix(UTF8_BOM)
        return chain((first,), lines)
    return iter(())


def file_bytes(source: object) -> int | None:
    """The size of the regular file ``source`` reads, if it is one (not a pipe, a terminal
    or an iterable of lines), and not empty."""
    try:
        status = os.fstat(source.fileno())  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):
        return None
    return status.st_size if stat.S_ISREG(status.st_mode) and status.st_size else None
