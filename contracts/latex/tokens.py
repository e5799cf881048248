"""The tokens of the formulas' LaTeX (``contracts.latex.evaluator`` evaluates it): the numbers,
names, operators and groups :func:`tokenize` reads, the errors, and the number types shared by the
parser and the evaluator."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Context, Decimal
from fractions import Fraction

#: Significant digits of an irrational square root (far beyond a float's 17).
SQRT_DIGITS = 40
DECIMAL_CONTEXT = Context(prec=SQRT_DIGITS + 10)

Number = Fraction | Decimal


@dataclass(frozen=True, slots=True)
class Span:
    """An interval a formula's LaTeX gives (``a \\pm b``, ``\\mathrm{Wilson}(m, V)``): its
    bounds, unrounded."""

    low: Number
    high: Number


class LatexError(ValueError):
    """The LaTeX uses something the evaluator does not know, or a symbol is unbound."""


class SidesDisagree(LatexError):  # noqa: N818 - says what happened, like Undefined
    """Two sides of a chain of ``=`` give different values."""


class Undefined(Exception):  # noqa: N818 - a value, not an error: the code's None
    """The formula has no value here (a division by zero, an empty set, a ``None`` input)."""


# --- Tokens -----------------------------------------------------------------------------------

_SPACING = {r"\,", r"\!", r"\ ", r"\;", r"\:", r"\quad", r"\qquad", r"\left", r"\right"}
GREEK_LETTERS = {
    r"\alpha", r"\beta", r"\gamma", r"\delta", r"\Delta", r"\epsilon", r"\lambda", r"\mu",
    r"\phi", r"\sigma", r"\tau", r"\theta", r"\rho", r"\nu", r"\Sigma",
}  # fmt: skip
COMPARISONS = {
    "<": "<",
    ">": ">",
    "=": "=",
    r"\le": "<=",
    r"\leq": "<=",
    r"\ge": ">=",
    r"\geq": ">=",
}
#: Conditions joined in words: ``x < x_1 \\text{ or } x > x_m``.
JOINS = {r"\text{ or }": "or", r"\text{ and }": "and"}
#: Accents written ``\hat p`` or ``\hat{p}``: one name each, spelled with braces.
_ACCENTS = (r"\hat", r"\bar")
_TOKEN = re.compile(
    r"\s+|\\\\|\\[a-zA-Z]+|\\[,!;: {}]|[0-9]+(?:\.[0-9]+)?|[a-zA-Z]'*|[-+=<>^_{}()\[\]|,:&*]"
)


@dataclass(frozen=True, slots=True)
class Token:
    kind: str  # "num", "name", "op", "cmd", "text" (a \text{…} or \mathrm{…} name)
    text: str


def _braced(source: str, start: int) -> tuple[str, int]:
    """The text inside the brace group that opens at ``source[start]``, and the index after it."""
    if start >= len(source) or source[start] != "{":
        raise LatexError(f"expected '{{' at character {start} of {source!r}")
    depth = 0
    for position in range(start, len(source)):
        char = source[position]
        if char == "\\":
            continue
        if char == "{" and source[position - 1] != "\\":
            depth += 1
        elif char == "}" and source[position - 1] != "\\":
            depth -= 1
            if depth == 0:
                return source[start + 1 : position], position + 1
    raise LatexError(f"unbalanced braces in {source!r}")


def tokenize(source: str) -> list[Token]:
    """The tokens of ``source``; names written with a command are one token each.

    >>> [t.text for t in tokenize(r"\\mathrm{rec}_v = \\phi + 2x")]
    ['\\\\mathrm{rec}', '_', 'v', '=', '\\\\phi', '+', '2', 'x']
    """
    tokens: list[Token] = []
    position = 0
    while position < len(source):
        match = _TOKEN.match(source, position)
        if match is None:
            raise LatexError(f"unknown character {source[position]!r} in {source!r}")
        text = match.group()
        position = match.end()
        if text.isspace() or text in _SPACING:
            continue
        if text in _ACCENTS:
            while source[position : position + 1].isspace():
                position += 1
            if source[position : position + 1] == "{":
                inner, position = _braced(source, position)
            else:
                match = _TOKEN.match(source, position)
                if match is None or not (match.group().isalpha() or match.group() in GREEK_LETTERS):
                    raise LatexError(f"{text} needs a name after it, in {source!r}")
                inner, position = match.group(), match.end()
            tokens.append(Token("text", f"{text}{{{inner.strip()}}}"))
            continue
        if text in (r"\mathrm", r"\text", r"\tilde", r"\overline", r"\operatorname"):
            inner, position = _braced(source, position)
            if text == r"\operatorname":
                tokens.append(Token("cmd", f"\\operatorname{{{inner}}}"))
            else:
                tokens.append(Token("text", f"{text}{{{inner}}}"))
        elif text == r"\begin" or text == r"\end":
            inner, position = _braced(source, position)
            tokens.append(Token("cmd", f"{text}{{{inner}}}"))
        elif text[0].isdigit():
            tokens.append(Token("num", text))
        elif text.rstrip("'").isalpha() or text in GREEK_LETTERS:  # f' is a name of its own
            tokens.append(Token("name", text))
        elif text.startswith("\\") and text not in (r"\{", r"\}", "\\\\"):
            tokens.append(Token("cmd", text))
        else:
            tokens.append(Token("op", text))
    return tokens


def token_spelling(tokens: Sequence[Token]) -> str:
    """The canonical spelling of a run of tokens (a symbol's subscript, say)."""
    return "".join(t.text for t in tokens)


def symbol_key(
    base: str, subscript: Sequence[Token] | None, superscript: Sequence[Token] | None
) -> str:
    """A symbol's canonical spelling: ``n_{\\min}``, ``x_{i+1}``, ``\\mathrm{pass}^{k}``."""
    key = base
    if subscript is not None:
        key += "_{" + token_spelling(subscript) + "}"
    if superscript is not None:
        key += "^{" + token_spelling(superscript) + "}"
    return key


_OPENS = {"(", "{", "[", r"\{", r"\begin{cases}", r"\lceil"}
_CLOSES = {")", "}", "]", r"\}", r"\end{cases}", r"\rceil"}


def split_at(tokens: Sequence[Token], marks: tuple[str, ...]) -> list[list[Token]]:
    """``tokens`` cut at each of ``marks`` that stands at the outer level (no bracket open)."""
    parts: list[list[Token]] = [[]]
    depth = 0
    for token in tokens:
        if token.text in _OPENS and token.kind in ("op", "cmd"):
            depth += 1
        elif token.text in _CLOSES and token.kind in ("op", "cmd"):
            depth -= 1
        if depth == 0 and token.kind in ("op", "cmd") and token.text in marks:
            parts.append([])
            continue
        parts[-1].append(token)
    return parts


def split_statements(tokens: Sequence[Token]) -> list[list[Token]]:
    return [part for part in split_at(tokens, (",", ";")) if part]


def relation_position(
    tokens: Sequence[Token], relations: tuple[str, ...] = ("=", r"\in")
) -> int | None:
    """The position of the first ``=`` (or ``\\in``) at the outer level, or None."""
    depth = 0
    for position, token in enumerate(tokens):
        if token.text in _OPENS and token.kind in ("op", "cmd"):
            depth += 1
        elif token.text in _CLOSES and token.kind in ("op", "cmd"):
            depth -= 1
        elif depth == 0 and token.text in relations:
            return position
    return None
