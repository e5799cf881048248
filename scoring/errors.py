"""Input problems: each names the line, the field and the rule it broke.

Whatever the input, a message stays short and inert: an echoed name or value is cut to
``MAX_SHOWN_CHARS`` (saying its full length), and characters a terminal could act on
(controls, bidirectional overrides) are written as escapes, see :func:`visible`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from scoring.registry import ScoringError

# How many problems an error message lists before it only counts the rest.
MAX_LISTED_PROBLEMS = 20

# Characters of an echoed name or value shown before it is cut: a message names the
# problem, it does not copy the input (a 1 MB run_id stays a short line).
MAX_SHOWN_CHARS = 60

# What a terminal could interpret or reorder: C0 and C1 controls, DEL, line and paragraph
# separators, and the bidirectional marks, embeddings, overrides and isolates.
_UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]")
# The same, plus the backslash: in a table an escape must not be confused with its text.
_UNSAFE_OR_BACKSLASH = re.compile(_UNSAFE.pattern[:-1] + "\\\\]")
# Unpaired surrogates (from undecodable file names) are escaped too.
_SURROGATE = re.compile("[\ud800-\udfff]")
# In JSON text: the C0 controls are escaped by ``json.dumps`` already (and a raw newline is
# its indentation), so only the others.
_UNSAFE_IN_JSON = re.compile("[\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ud800-\udfff]")

# Rules checked on a whole object (a model validator): the input they see is the object,
# not the field they name, so it is not shown.
_WHOLE_OBJECT_RULES = frozenset({"required_for_status", "severity_required", "severity_forbidden"})


@dataclass(frozen=True, slots=True)
class Problem:
    """One problem in the input. ``line`` is 1-based; ``None`` for the input as a whole."""

    line: int | None
    field: str | None
    rule: str

    def __str__(self) -> str:
        where = "input" if self.line is None else f"line {self.line}"
        return f"{where}: {self.field}: {self.rule}" if self.field else f"{where}: {self.rule}"


class InputError(ScoringError):
    """The input cannot be scored. ``problems`` holds the first few, ``total`` counts all."""

    def __init__(self, problems: list[Problem], total: int | None = None) -> None:
        self.problems = problems
        self.total = len(problems) if total is None else total
        super().__init__(self.message())

    def message(self) -> str:
        """One line per listed problem, then a count of those not listed."""
        lines = [str(p) for p in self.problems]
        if self.total > len(self.problems):
            lines.append(f"... and {self.total - len(self.problems)} more problems")
        return "\n".join(lines)


def _escape(match: re.Match[str]) -> str:
    char = match.group()
    return "\\\\" if char == "\\" else repr(char)[1:-1]  # \\r, \\x1b, \\u202e as Python writes them


def inert(text: str) -> str:
    """``text`` with every character a terminal could act on escaped, backslashes kept:
    for messages, whose echoed values are escaped already (:func:`shown`).

    >>> inert("a\\x1b[2J\\\\b")
    'a\\\\x1b[2J\\\\b'
    """
    return _SURROGATE.sub(_escape, _UNSAFE.sub(_escape, text))


def visible(text: str) -> str:
    """``text`` with every character a terminal could act on written as an escape.

    Controls become ``\\x1b``, bidirectional overrides ``\\u202e``, and a backslash is
    doubled, so that what is shown can always be read back unambiguously.

    >>> print(visible("a\\x1b[2Jb\\\\c\\u202e"))
    a\\x1b[2Jb\\\\c\\u202e
    """
    text = _UNSAFE_OR_BACKSLASH.sub(_escape, text)
    return _SURROGATE.sub(_escape, text)


def json_visible(text: str) -> str:
    """JSON text (``ensure_ascii=False``) with the characters a terminal could act on
    written as ``\\uXXXX`` escapes: the same JSON data, safe to print.

    They can only occur inside strings (JSON's own syntax is ASCII), where a ``\\uXXXX``
    escape means the same character.

    >>> json_visible('["\\u202e"]'), json_visible('["\\x7f"]'), json_visible('["plain"]')
    ('["\\\\u202e"]', '["\\\\u007f"]', '["plain"]')
    """
    # Of those characters only DEL is ASCII, and whether a string is all ASCII is known
    # without reading it: most reports skip the scan of every character.
    if text.isascii() and "\x7f" not in text:
        return text
    return _UNSAFE_IN_JSON.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def cut(text: str, limit: int = MAX_SHOWN_CHARS) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was.

    >>> cut("x" * 100, 5)
    'xxxxx… (100 characters)'
    """
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


def shown_name(name: str) -> str:
    """A field name or path as echoed in a message: as it is when short and plain, else
    quoted like :func:`shown`.

    >>> shown_name("run_id"), shown_name("\\x1b[2J"), shown_name("")
    ('run_id', "'\\\\x1b[2J'", "''")
    """
    if name and len(name) <= MAX_SHOWN_CHARS and name.isprintable() and "'" not in name:
        return name
    return shown(name)


def _escaped(char: str) -> str:
    if char == "\\" or char == "'":
        return "\\" + char
    return char if char.isprintable() else repr(char)[1:-1]


def shown(value: object) -> str:
    """A value as echoed in a message: quoted, every non-printable character escaped
    (``\\x1b``, ``\\u202e``), at most about ``MAX_SHOWN_CHARS`` characters written, then
    ``…`` and the value's length.

    >>> shown("ok"), shown(3), shown("y" * 1000)[-24:], shown("\\x1b" * 100)[-27:]
    ("'ok'", '3', "yyyy'… (1000 characters)", "\\\\x1b\\\\x1b'… (100 characters)")
    """
    if not isinstance(value, str):
        return cut(visible_repr(value), MAX_SHOWN_CHARS)
    pieces: list[str] = []
    written = 0
    for char in value[:MAX_SHOWN_CHARS]:
        piece = _escaped(char)
        if written + len(piece) > MAX_SHOWN_CHARS:
            break
        pieces.append(piece)
        written += len(piece)
    text = "'" + "".join(pieces) + "'"
    if len(pieces) == len(value):
        return text
    return f"{text}… ({len(value)} characters)"


def visible_repr(value: object) -> str:
    """``repr`` with unpaired surrogates and bidirectional marks escaped as well."""
    return inert(repr(value))


def field_path(loc: tuple[int | str, ...]) -> str | None:
    """A dotted field path as echoed in a message (each part visible and cut)."""
    return ".".join(shown_name(str(part)) for part in loc) if loc else None


def problems_from(error: ValidationError, line: int) -> list[Problem]:
    """Turn a pydantic error into problems that name the line, the field and the rule."""
    problems = []
    for detail in error.errors(include_url=False):
        kind = detail["type"]
        loc = tuple(detail["loc"])
        ctx = detail.get("ctx") or {}
        if kind == "json_invalid":
            problems.append(Problem(line, None, _not_json(detail)))
            continue
        if kind == "model_type" and not loc:
            problems.append(Problem(line, None, "must be a JSON object"))
            continue
        if "field" in ctx:
            loc = (*loc, ctx["field"])
        rule = detail["msg"]
        if kind == "extra_forbidden":
            rule = "unknown field"
        elif kind == "missing":
            rule = "required field is missing"
        elif kind == "finite_number":
            rule = "must be a finite number (NaN and Infinity are refused)"
        elif "input" in detail and kind not in _WHOLE_OBJECT_RULES:
            rule = f"{rule} (got {shown(detail['input'])})"
        problems.append(Problem(line, field_path(loc), f"{rule} [{kind}]"))
    return problems


def _not_json(detail: ErrorDetails) -> str:
    raw = detail.get("input")
    if isinstance(raw, bytes):
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as error:
            return f"not UTF-8 text (byte {error.start + 1} cannot be decoded) [utf8]"
    return f"not valid JSON ({detail['msg']}) [json]"


class ProblemLog:
    """Collects problems while a whole input is read; keeps the first few, counts all."""

    def __init__(self, limit: int = MAX_LISTED_PROBLEMS) -> None:
        self.limit = limit
        self.listed: list[Problem] = []
        self.total = 0

    def add(self, problem: Problem) -> int | None:
        """Record one problem; its place among the listed ones (``None`` past the limit)."""
        self.total += 1
        if len(self.listed) >= self.limit:
            return None
        self.listed.append(problem)
        return len(self.listed) - 1

    def amend(self, index: int, problem: Problem) -> None:
        """Put ``problem`` in place of the listed problem at ``index`` (one said better once
        more of the input is known)."""
        self.listed[index] = problem

    def extend(self, problems: list[Problem]) -> None:
        """Record several problems."""
        for problem in problems:
            self.add(problem)

    def raise_if_any(self) -> None:
        """Raise :class:`InputError` if anything was recorded."""
        if self.total:
            raise InputError(self.listed, self.total)


@dataclass(frozen=True, slots=True)
class Breach:
    """One broken invariant of the methodology: the constant, where it is defined, what
    is wrong with it, and the invariant it breaks (its stable name)."""

    file: str
    line: int
    constant: str
    rule: str
    invariant: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.constant}: {self.rule} [{self.invariant}]"


class MethodologyError(ScoringError):
    """The methodology's own constants break one of its invariants
    (:data:`scoring.invariants.INVARIANTS`): nothing can be scored with them.

    Not bad input and not a failed write: the code is wrong, and each :class:`Breach`
    names the constant and its line.
    """

    def __init__(self, breaches: list[Breach]) -> None:
        self.breaches = breaches
        super().__init__(self.message())

    def message(self) -> str:
        """A heading line, then one line per breach."""
        count = len(self.breaches)
        head = (
            f"the methodology breaks its own invariants ({count} problem"
            f"{'' if count == 1 else 's'}); fix the constants:"
        )
        return "\n".join([head, *(f"  {breach}" for breach in self.breaches)])
