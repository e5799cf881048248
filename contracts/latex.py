"""A small evaluator for the LaTeX of the registered formulas.

It reads the very string the page renders and computes it, so that the drift check can
hold the typeset formula equal to the code (``contracts.formulas``). Why an evaluator
rather than one declaration that yields both the LaTeX and an expression: what must be
proven is the text a reader sees, and that text is already written, released and tuned for
typesetting (spacing, ``\\left``/``\\right``, words in ``\\text``); generating it from
an expression tree would change every page and still leave the generator to be trusted,
while an evaluator checks the rendered string itself and needs only the bindings of its
symbols beside it.

It knows the subset the formulas use, and refuses anything else with a :class:`LatexError`
that names what it did not understand:

- numbers, single letters, ``\\mathrm{…}``, ``\\text{…}``, ``\\tilde{…}``, ``\\overline{…}``
  and Greek letters as names, with subscripts and superscripts (``n_{\\min}``, ``x_{i+1}``,
  ``\\mathrm{pass}^k``);
- ``+ - = < > \\le \\ge``, ``\\cdot``, implicit products (``4p(1 - p)``), powers;
- ``\\dfrac``, ``\\sqrt``, ``\\binom``, ``\\max``, ``\\operatorname{clamp}_{[lo,hi]}``,
  ``|T|`` (the size of a set, or an absolute value);
- ``\\sum_{t \\in T}``, a set ``\\{t : condition\\}`` defined after ``,\\quad``;
- ``\\begin{cases} value & condition \\\\ … \\end{cases}``, the first row whose condition
  holds (a condition may range over an index: ``x_i < x \\le x_{i+1}``).

Spacing (``\\,``, ``\\!``, ``\\ ``, ``\\quad``) and ``\\left``/``\\right`` are ignored; the
left-hand side up to the first ``=`` is the formula's name and is not evaluated.

Values are exact (:class:`fractions.Fraction`) except where a square root is not: that
one is a :class:`decimal.Decimal` to :data:`SQRT_DIGITS` significant digits, and so is
whatever is computed from it. A division by zero, a mean over an empty set or an input that
is ``None`` makes the value *undefined* (:class:`Undefined`), which is what the code's
``None`` stands for.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Context, Decimal
from fractions import Fraction
from typing import Any

#: Significant digits of an irrational square root (far beyond a float's 17).
SQRT_DIGITS = 40
_CONTEXT = Context(prec=SQRT_DIGITS + 10)

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
_GREEK = {
    r"\alpha", r"\beta", r"\gamma", r"\delta", r"\Delta", r"\epsilon", r"\lambda", r"\mu",
    r"\phi", r"\sigma", r"\tau", r"\theta", r"\rho", r"\nu", r"\Sigma",
}  # fmt: skip
_COMPARE = {"<": "<", ">": ">", "=": "=", r"\le": "<=", r"\leq": "<=", r"\ge": ">=", r"\geq": ">="}
#: Conditions joined in words: ``x < x_1 \\text{ or } x > x_m``.
_JOINS = {r"\text{ or }": "or", r"\text{ and }": "and"}
#: Accents written ``\hat p`` or ``\hat{p}``: one name each, spelled with braces.
_ACCENTS = (r"\hat", r"\bar")
_TOKEN = re.compile(
    r"\s+|\\\\|\\[a-zA-Z]+|\\[,!;: {}]|[0-9]+(?:\.[0-9]+)?|[a-zA-Z]'*|[-+=<>^_{}()\[\]|,:&]"
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
                if match is None or not (match.group().isalpha() or match.group() in _GREEK):
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
        elif text.rstrip("'").isalpha() or text in _GREEK:  # f' is a name of its own
            tokens.append(Token("name", text))
        elif text.startswith("\\") and text not in (r"\{", r"\}", "\\\\"):
            tokens.append(Token("cmd", text))
        else:
            tokens.append(Token("op", text))
    return tokens


# --- Syntax tree ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Node:
    """One node of the syntax tree: ``kind`` and its ``parts``."""

    kind: str
    parts: tuple[Any, ...]


def _node(kind: str, *parts: Any) -> Node:
    return Node(kind, parts)


def _source(tokens: Sequence[Token]) -> str:
    """The canonical spelling of a run of tokens (a symbol's subscript, say)."""
    return "".join(t.text for t in tokens)


_OPENS = {"(", "{", "[", r"\{", r"\begin{cases}", r"\lceil"}
_CLOSES = {")", "}", "]", r"\}", r"\end{cases}", r"\rceil"}


def _split_at(tokens: Sequence[Token], marks: tuple[str, ...]) -> list[list[Token]]:
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


def _split_statements(tokens: Sequence[Token]) -> list[list[Token]]:
    return [part for part in _split_at(tokens, (",", ";")) if part]


def _relation(tokens: Sequence[Token], relations: tuple[str, ...] = ("=", r"\in")) -> int | None:
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


@dataclass(frozen=True, slots=True)
class Definition:
    """A symbol a later statement defines: its parameters (none for a plain symbol)."""

    parameters: tuple[str, ...]
    body: Node


@dataclass(slots=True)
class Statements:
    """A formula's parsed statements (see :meth:`_Parser.formula`)."""

    body: Node
    sides: tuple[Node, ...]
    sets: dict[str, Node] = field(default_factory=dict)
    definitions: dict[str, Definition] = field(default_factory=dict)
    guards: list[Node] = field(default_factory=list)
    results: list[Node] = field(default_factory=list)


class _Parser:
    def __init__(self, tokens: list[Token], source: str) -> None:
        self.tokens = tokens
        self.at = 0
        self.source = source
        # Inside |…|, a bar closes the group instead of opening a new one.
        self.in_bars = 0

    # helpers
    def peek(self, offset: int = 0) -> Token | None:
        index = self.at + offset
        return self.tokens[index] if index < len(self.tokens) else None

    def is_op(self, *texts: str) -> bool:
        token = self.peek()
        return token is not None and token.kind in ("op", "cmd") and token.text in texts

    def take(self) -> Token:
        token = self.peek()
        if token is None:
            raise LatexError(f"unexpected end of {self.source!r}")
        self.at += 1
        return token

    def expect(self, text: str) -> None:
        token = self.take()
        if token.text != text:
            raise LatexError(f"expected {text!r}, found {token.text!r} in {self.source!r}")

    def group_tokens(self) -> list[Token]:
        """The tokens of a ``{…}`` group, or the single next token."""
        if not self.is_op("{"):
            return [self.take()]
        self.take()
        depth, found = 1, list[Token]()
        while True:
            token = self.take()
            if token.text == "{" and token.kind == "op":
                depth += 1
            elif token.text == "}" and token.kind == "op":
                depth -= 1
                if depth == 0:
                    return found
            found.append(token)

    def sub_parse(self, tokens: list[Token], rule: Callable[[_Parser], Node]) -> Node:
        inner = _Parser(tokens, self.source)
        node = rule(inner)
        if inner.peek() is not None:
            raise LatexError(f"unexpected {inner.peek().text!r} in {self.source!r}")  # type: ignore[union-attr]
        return node

    # grammar
    def formula(self) -> Statements:
        """The statements of a formula, split at the commas of its outer level: the first
        (``name = value [= value …]`` or ``name \\in value``) is the result; each later one
        defines a set (``T = \\{t : …\\}``), a symbol (``p_B = p_A - \\delta``), a function
        (``V(\\hat p) = …``), or states a domain (``T \\ge 10``: undefined where it fails)."""
        statements = _split_statements(self.tokens)
        first, *rest = statements
        relation = _relation(first)
        if relation is None:
            raise LatexError(f"no '=' in {self.source!r}: a formula names what it defines")
        sides = [
            self.sub_parse(side, _Parser.expression)
            for side in _split_at(first[relation + 1 :], ("=",))
        ]
        found = Statements(sides[0], tuple(sides[1:]))
        for statement in rest:
            self.statement(statement, found)
        return found

    def statement(self, tokens: list[Token], found: Statements) -> None:
        relation = _relation(tokens, relations=("=",))
        if relation is None:
            found.guards.append(self.sub_parse(tokens, lambda p: p.condition(stop="")))
            return
        lhs, rhs = tokens[:relation], tokens[relation + 1 :]
        if rhs and rhs[0].text == r"\{":
            inner = _Parser(rhs, self.source)
            inner.expect(r"\{")
            variable = inner.take().text
            inner.expect(":")
            condition = inner.condition(stop=r"\}")
            inner.expect(r"\}")
            if inner.peek() is not None:
                raise LatexError(f"unexpected {inner.peek().text!r} in {self.source!r}")  # type: ignore[union-attr]
            name = self.sub_parse(lhs, _Parser.symbol)
            found.sets[name.parts[0]] = _node("setdef", variable, condition)
            return
        body = self.sub_parse(rhs, _Parser.expression)
        try:
            target = self.sub_parse(lhs, _Parser.expression)
        except LatexError:  # no symbol (∂S/∂λ): one more result, named for the reader
            found.results.append(body)
            return
        if target.kind == "sym":
            found.definitions[symbol_key(*target.parts)] = Definition((), body)
        elif target.kind == "apply" and all(a.kind == "sym" for a in target.parts[1]):
            parameters = tuple(symbol_key(*a.parts) for a in target.parts[1])
            found.definitions[symbol_key(*target.parts[0].parts)] = Definition(parameters, body)
        else:
            raise LatexError(
                f"cannot tell which symbol {_source(lhs)!r} defines, in {self.source!r}"
            )

    def expression(self) -> Node:
        node = self.term()
        while self.is_op("+", "-", r"\pm"):
            operator = self.take().text
            kind = {"+": "add", "-": "sub"}.get(operator, "pm")
            node = _node(kind, node, self.term())
        return node

    def _starts_factor(self) -> bool:
        token = self.peek()
        if token is None:
            return False
        if token.kind in ("num", "name", "text"):
            return token.text not in _JOINS
        if token.kind == "cmd":
            return token.text in (
                r"\dfrac", r"\frac", r"\tfrac", r"\sqrt", r"\binom", r"\max", r"\sum",
                r"\begin{cases}", r"\operatorname{clamp}", r"\min", r"\lceil",
            ) or token.text in _GREEK  # fmt: skip
        return token.text == "(" or (token.text == "|" and not self.in_bars)

    def term(self) -> Node:
        node = self.unary()
        while True:
            if self.is_op(r"\cdot", r"\times"):
                self.take()
                node = _node("mul", node, self.unary())
            elif self._starts_factor():
                node = _node("mul", node, self.unary())
            else:
                return node

    def unary(self) -> Node:
        if self.is_op("-"):
            self.take()
            return _node("neg", self.unary())
        return self.power()

    def power(self) -> Node:
        node = self.primary()
        if self.is_op("^") and node.kind != "sym":
            self.take()
            exponent = self.sub_parse(self.group_tokens(), _Parser.expression)
            node = _node("pow", node, exponent)
        return node

    def primary(self) -> Node:
        token = self.peek()
        if token is None:
            raise LatexError(f"unexpected end of {self.source!r}")
        if token.kind == "num":
            self.take()
            return _node("num", Fraction(token.text))
        if token.kind in ("name", "text") or (token.kind == "cmd" and token.text in _GREEK):
            node = self.symbol()
            if self.is_op("("):
                self.take()
                arguments = [self.expression()]
                while self.is_op(","):
                    self.take()
                    arguments.append(self.expression())
                self.expect(")")
                return _node("apply", node, tuple(arguments))
            return node
        text = token.text
        if text == "(":
            self.take()
            inner = self.expression()
            self.expect(")")
            return inner
        if text == "|":
            self.take()
            self.in_bars += 1
            inner = self.expression()
            self.in_bars -= 1
            self.expect("|")
            return _node("abs", inner)
        if text in (r"\dfrac", r"\frac", r"\tfrac", r"\binom"):
            self.take()
            top = self.sub_parse(self.group_tokens(), _Parser.expression)
            bottom = self.sub_parse(self.group_tokens(), _Parser.expression)
            return _node("div" if text != r"\binom" else "binom", top, bottom)
        if text == r"\sqrt":
            self.take()
            return _node("sqrt", self.sub_parse(self.group_tokens(), _Parser.expression))
        if text in (r"\max", r"\min"):
            self.take()
            self.expect("(")
            arguments = [self.expression()]
            while self.is_op(","):
                self.take()
                arguments.append(self.expression())
            self.expect(")")
            return _node(text[1:], tuple(arguments))
        if text == r"\lceil":
            self.take()
            inner = self.expression()
            self.expect(r"\rceil")
            return _node("ceil", inner)
        if text == r"\{":
            # A set written in place: {b : S_b > S_a}, the rows of b for which it holds.
            self.take()
            variable = self.take().text
            self.expect(":")
            condition = self.condition(stop=r"\}")
            self.expect(r"\}")
            return _node("setof", variable, condition)
        if text == r"\operatorname{clamp}":
            self.take()
            self.expect("_")
            bounds = self.group_tokens()
            interval = _Parser(bounds, self.source)
            interval.expect("[")
            low = interval.expression()
            interval.expect(",")
            high = interval.expression()
            interval.expect("]")
            self.expect("(")
            value = self.expression()
            self.expect(")")
            return _node("clamp", low, high, value)
        if text == r"\sum":
            self.take()
            self.expect("_")
            over = _Parser(self.group_tokens(), self.source)
            variable = over.take().text
            if over.peek() is None:  # \sum_{t}: every row t stands for
                return _node("sumall", variable, self.term())
            if over.is_op("="):  # \sum_{t=1}^{T}: rows 1 to T of those t stands for
                over.take()
                lower = over.expression()
                self.expect("^")
                upper = self.sub_parse(self.group_tokens(), _Parser.expression)
                return _node("sumrange", variable, lower, upper, self.term())
            over.expect(r"\in")
            domain = over.symbol()
            body = self.term()
            return _node("sum", variable, domain, body)
        if text == r"\begin{cases}":
            self.take()
            cases = []
            while True:
                value = self.expression()
                self.expect("&")
                condition = self.condition(stop="\\\\")
                cases.append((value, condition))
                if self.is_op("\\\\"):
                    self.take()
                    continue
                self.expect(r"\end{cases}")
                return _node("cases", tuple(cases))
        if token.kind == "cmd" and text in _GREEK:
            return self.symbol()
        raise LatexError(f"the evaluator does not know {text!r} (in {self.source!r})")

    def symbol(self) -> Node:
        """A name with its subscript and superscript, spelled canonically."""
        token = self.take()
        if token.kind not in ("name", "text") and token.text not in _GREEK:
            raise LatexError(f"expected a name, found {token.text!r} in {self.source!r}")
        base = token.text
        subscript: list[Token] | None = None
        superscript: list[Token] | None = None
        while self.is_op("_", "^"):
            mark = self.take().text
            if mark == "_":
                subscript = self.group_tokens()
            else:
                superscript = self.group_tokens()
        return _node("sym", base, subscript, superscript)

    def condition(self, stop: str) -> Node:
        token = self.peek()
        if token is not None and token.kind == "text" and token.text.startswith(r"\text"):
            self.take()
            return _node("prose", token.text)
        terms = [self.expression()]
        operators = []
        while self.peek() is not None and self.peek().text in _COMPARE:  # type: ignore[union-attr]
            operators.append(_COMPARE[self.take().text])
            terms.append(self.expression())
        if not operators:
            raise LatexError(f"a condition needs a comparison, in {self.source!r}")
        found = _node("compare", tuple(terms), tuple(operators))
        joined = self.peek()
        if joined is not None and joined.text in _JOINS:
            self.take()
            return _node(_JOINS[joined.text], found, self.condition(stop))
        return found


def symbol_key(
    base: str, subscript: Sequence[Token] | None, superscript: Sequence[Token] | None
) -> str:
    """A symbol's canonical spelling: ``n_{\\min}``, ``x_{i+1}``, ``\\mathrm{pass}^{k}``."""
    key = base
    if subscript is not None:
        key += "_{" + _source(subscript) + "}"
    if superscript is not None:
        key += "^{" + _source(superscript) + "}"
    return key


@functools.lru_cache(maxsize=1024)
def canonical_symbol(written: str) -> str:
    """The canonical spelling of a symbol as a registration writes it.

    >>> canonical_symbol(r"n_{\\min}"), canonical_symbol("n_t"), canonical_symbol(r"\\tilde{t}")
    ('n_{\\\\min}', 'n_{t}', '\\\\tilde{t}')
    """
    if written.endswith("_") and "_" not in written[:-1].replace(r"\_", ""):
        return canonical_symbol(written[:-1]) + "_"
    parser = _Parser(tokenize(written), written)
    node = parser.symbol()
    if parser.peek() is not None:
        raise LatexError(f"{written!r} is not one symbol")
    return symbol_key(*node.parts)


@dataclass(frozen=True, slots=True)
class Parsed:
    """A formula's LaTeX as a tree: its value, the other sides of its chain of ``=`` (each
    must agree with it), the sets, symbols and functions later statements define, and the
    domain its guards state."""

    body: Node
    sets: Mapping[str, Node]
    sides: tuple[Node, ...] = ()
    definitions: Mapping[str, Definition] = field(default_factory=dict)
    guards: tuple[Node, ...] = ()
    results: tuple[Node, ...] = ()


@functools.lru_cache(maxsize=256)
def parse(latex: str) -> Parsed:
    """Parse a formula's LaTeX (everything after the first ``=`` at the outer level)."""
    found = _Parser(tokenize(latex), latex).formula()
    return Parsed(
        found.body,
        found.sets,
        found.sides,
        found.definitions,
        tuple(found.guards),
        tuple(found.results),
    )


def script_symbols(tokens: Sequence[Token]) -> Node:
    """A subscript or superscript as an expression (``i+1`` of ``x_{i+1}``); a name that is
    no expression (``\\min`` of ``n_{\\min}``) is the number 0."""
    return _subexpression(list(tokens), "", lenient=True)


# --- Evaluation -------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Element:
    """The current row of a bound variable (``t`` in ``\\sum_{t \\in T}``)."""

    values: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class IndexRange:
    """The values an index may take; a ``cases`` row picks the first that satisfies it."""

    values: tuple[int, ...]


class Scope:
    """What each symbol stands for: ``resolve(key)`` gives the value of a whole symbol
    (``n_{\\min}``), ``family(base)`` a list or a row-wise function for ``x_`` forms."""

    def __init__(
        self,
        resolve: Callable[[str, Mapping[str, Any]], Any],
        has: Callable[[str], bool],
        is_index: Callable[[str], bool] = lambda key: False,
    ) -> None:
        self.resolve = resolve
        self.has = has
        self.is_index = is_index


def _number(value: Any) -> Number:
    if value is None:
        raise Undefined("an input is None")
    if isinstance(value, bool):
        return Fraction(int(value))
    if isinstance(value, Fraction | Decimal):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(value)
    raise LatexError(f"not a number: {value!r}")


def _both(left: Number, right: Number) -> tuple[Number, Number]:
    if isinstance(left, Decimal) or isinstance(right, Decimal):
        return _decimal(left), _decimal(right)
    return left, right


def _decimal(value: Number) -> Decimal:
    if isinstance(value, Decimal):
        return value
    return _CONTEXT.divide(Decimal(value.numerator), Decimal(value.denominator))


def _sqrt(value: Number) -> Number:
    if value < 0:
        raise Undefined("the square root of a negative number")
    if isinstance(value, Fraction):
        top, bottom = math.isqrt(value.numerator), math.isqrt(value.denominator)
        if top * top == value.numerator and bottom * bottom == value.denominator:
            return Fraction(top, bottom)
    return _decimal(value).sqrt(_CONTEXT)


def _arith(kind: str, left: Number, right: Number) -> Number:
    a, b = _both(left, right)
    if kind == "add":
        return a + b  # type: ignore[operator]
    if kind == "sub":
        return a - b  # type: ignore[operator]
    if kind == "mul":
        return a * b  # type: ignore[operator]
    if b == 0:
        raise Undefined("a division by zero")
    return a / b  # type: ignore[operator]


def _compare(operator: str, left: Number, right: Number) -> bool:
    a, b = _both(left, right)
    if operator == "<":
        return a < b
    if operator == "<=":
        return a <= b
    if operator == ">":
        return a > b
    if operator == ">=":
        return a >= b
    return a == b


class Evaluator:
    """Evaluates a parsed formula in a :class:`Scope`."""

    def __init__(self, parsed: Parsed, scope: Scope, name: str) -> None:
        self.parsed = parsed
        self.scope = scope
        self.name = name

    def value(self, env: Mapping[str, Any] | None = None) -> Number | Span:
        """The formula's value (raises :class:`Undefined` where it has none): its guards
        hold, and every side of its chain of ``=`` agrees with the first."""
        env = {} if env is None else env
        for guard in self.parsed.guards:
            if not self.holds(guard, env):
                raise Undefined(f"the domain {_spell(guard)} does not hold")
        found = _result(self.eval(self.parsed.body, env))
        for number, side in enumerate(self.parsed.sides, start=2):
            other = _result(self.eval(side, env))
            if not _same(found, other):
                raise SidesDisagree(
                    f"{self.name}: the sides of its chain of '=' disagree: side 1 gives "
                    f"{_shown(found)}, side {number} gives {_shown(other)}"
                )
        if self.parsed.results:  # several results (a gradient): a tuple of them, in order
            return (found, *(_result(self.eval(r, env)) for r in self.parsed.results))  # type: ignore[return-value]
        return found

    def lookup(self, node: Node, env: Mapping[str, Any]) -> Any:
        """The value of a symbol; an input number becomes exact (a constant's ``Decimal``
        and a float input are the rationals they write)."""
        found = self._lookup(node, env)
        key = symbol_key(*node.parts)
        if key in env or key in self.parsed.definitions:
            return found
        if isinstance(found, Decimal | float) or (
            isinstance(found, int) and not isinstance(found, bool)
        ):
            return Fraction(found)
        return found

    def _lookup(self, node: Node, env: Mapping[str, Any]) -> Any:
        base, subscript, superscript = node.parts
        key = symbol_key(base, subscript, superscript)
        if key in env:
            return env[key]
        if key in self.parsed.definitions:
            return self.define(key, env)
        if superscript is not None and not self.scope.has(key):
            value = self.lookup(_node("sym", base, subscript, None), env)
            exponent = _subexpression(superscript, self.name)
            return _power(_number(value), _number(self.eval(exponent, env)))
        if key in self.parsed.sets:
            return self.define_set(key, env)
        if self.scope.has(key):
            return self.scope.resolve(key, env)
        if subscript is not None and self.scope.has(base + "_"):
            family = self.scope.resolve(base + "_", env)
            where = self.eval(_subexpression(list(subscript), self.name), env)
            position = _number(where)
            if (
                not isinstance(position, Fraction)
                or position.denominator != 1
                or not 1 <= position <= len(family)
            ):
                raise LatexError(f"{self.name}: {key} is outside 1 … {len(family)}")
            return family[int(position) - 1]
        raise LatexError(f"{self.name}: the symbol {key} is bound to nothing")

    def each(self, variable: str) -> list[Any]:
        """The value for each row of ``variable`` (``\\mathrm{rank}_a``: one per agent
        ``a``), each an :class:`Undefined` where it has none."""
        found: list[Any] = []
        for element in self.rows_of(variable, {}):
            try:
                found.append(self.value({variable: element}))
            except Undefined as undefined:
                found.append(undefined)
        return found

    def define(self, key: str, env: Mapping[str, Any]) -> Any:
        """A symbol a later statement defines, evaluated where it is read (``U_t`` in the
        row of ``t``); a function (``V(\\hat p)``) is returned to be applied."""
        definition = self.parsed.definitions[key]
        if not definition.parameters:
            return self.eval(definition.body, env)

        def apply(*values: Any) -> Any:
            if len(values) != len(definition.parameters):
                raise LatexError(
                    f"{self.name}: {key} takes {len(definition.parameters)} values, "
                    f"given {len(values)}"
                )
            return self.eval(
                definition.body, {**env, **dict(zip(definition.parameters, values, strict=True))}
            )

        return apply

    def rows_of(self, variable: str, env: Mapping[str, Any]) -> list[Element]:
        """The rows a sum's or a set's variable ranges over (it must be bound to rows)."""
        if not self.scope.has(variable):
            raise LatexError(f"{self.name}: {variable} ranges over nothing: bind it to rows")
        domain = self.scope.resolve(variable, env)
        if not isinstance(domain, list):
            raise LatexError(f"{self.name}: {variable} must be bound to rows")
        return domain

    def define_set(self, key: str, env: Mapping[str, Any]) -> list[Element]:
        definition = self.parsed.sets[key]
        variable, condition = definition.parts
        domain = self.scope.resolve(variable, env)
        if not isinstance(domain, list):
            raise LatexError(f"{self.name}: {variable} must be bound to rows")
        return [element for element in domain if self.holds(condition, {**env, variable: element})]

    def holds(self, condition: Node, env: Mapping[str, Any]) -> bool:
        if condition.kind in ("or", "and"):
            first, second = condition.parts
            if condition.kind == "or":
                return self.holds(first, env) or self.holds(second, env)
            return self.holds(first, env) and self.holds(second, env)
        if condition.kind == "prose":
            raise LatexError(
                f"{self.name}: the condition {condition.parts[0]} is prose; "
                "mark the formula descriptive"
            )
        terms, operators = condition.parts
        values = [_number(self.eval(term, env)) for term in terms]
        return all(_compare(op, values[i], values[i + 1]) for i, op in enumerate(operators))

    def indices(self, node: Node, env: Mapping[str, Any]) -> list[str]:
        """The index symbols (bound to an :class:`IndexRange`) a condition reads."""
        found: list[str] = []

        def walk(item: Any) -> None:
            if isinstance(item, Node):
                if item.kind == "sym":
                    key = symbol_key(*item.parts)
                    if key not in env and self.scope.is_index(key) and key not in found:
                        found.append(key)
                    for tokens in item.parts[1:]:
                        if tokens:
                            walk(_subexpression(list(tokens), self.name, lenient=True))
                for part in item.parts:
                    walk(part)
            elif isinstance(item, tuple):
                for part in item:
                    walk(part)

        walk(node)
        return found

    def choose(self, condition: Node, env: Mapping[str, Any]) -> dict[str, Any] | None:
        """The environment in which ``condition`` holds (an index tried in order), or None."""
        free = self.indices(condition, env)
        if not free:
            return dict(env) if self.holds(condition, env) else None

        def tries(names: list[str], current: dict[str, Any]) -> Iterator[dict[str, Any]]:
            if not names:
                yield current
                return
            first, *rest = names
            for value in self.scope.resolve(first, current).values:
                yield from tries(rest, {**current, first: Fraction(value)})

        for candidate in tries(free, dict(env)):
            if self.holds(condition, candidate):
                return candidate
        return None

    def eval(self, node: Node, env: Mapping[str, Any]) -> Any:
        kind, parts = node.kind, node.parts
        if kind == "num":
            return parts[0]
        if kind == "sym":
            return self.lookup(node, env)
        if kind in ("add", "sub", "div", "mul"):
            left, right = self.eval(parts[0], env), self.eval(parts[1], env)
            if isinstance(left, Span) or isinstance(right, Span):
                return _span_arith(kind, left, right, self.name)
            return _arith(kind, _number(left), _number(right))
        if kind == "pm":
            centre, half = _number(self.eval(parts[0], env)), _number(self.eval(parts[1], env))
            low, high = _arith("sub", centre, half), _arith("add", centre, half)
            return Span(low, high) if _compare("<=", low, high) else Span(high, low)
        if kind == "ceil":
            inner = _number(self.eval(parts[0], env))
            return Fraction(math.ceil(inner))
        if kind == "setof":
            variable, condition = parts
            return [
                element
                for element in self.rows_of(variable, env)
                if self.holds(condition, {**env, variable: element})
            ]
        if kind in ("sumrange", "sumall"):
            variable, body = parts[0], parts[-1]
            elements = self.rows_of(variable, env)
            if kind == "sumrange":
                low, high = (_number(self.eval(part, env)) for part in parts[1:3])
                if not (_whole(low) and _whole(high)) or not low >= 1 or high > len(elements):
                    raise LatexError(
                        f"{self.name}: the sum runs over {variable} = {_shown(low)} … "
                        f"{_shown(high)}, but {variable} has rows 1 … {len(elements)}"
                    )
                elements = elements[int(low) - 1 : int(high)]
            total: Number = Fraction(0)
            for element in elements:
                total = _arith("add", total, _number(self.eval(body, {**env, variable: element})))
            return total
        if kind == "neg":
            return -_number(self.eval(parts[0], env))
        if kind == "pow":
            return _power(_number(self.eval(parts[0], env)), _number(self.eval(parts[1], env)))
        if kind == "apply":
            function = self.lookup(parts[0], env)
            arguments = [self.eval(a, env) for a in parts[1]]
            if callable(function):
                return function(*arguments)
            if len(arguments) != 1:
                raise LatexError(f"{self.name}: {symbol_key(*parts[0].parts)} is not a function")
            return _arith("mul", _number(function), _number(arguments[0]))
        if kind == "abs":
            inner = self.eval(parts[0], env)
            if isinstance(inner, list):
                return Fraction(len(inner))
            return abs(_number(inner))
        if kind == "binom":
            top, bottom = _number(self.eval(parts[0], env)), _number(self.eval(parts[1], env))
            if not (isinstance(top, Fraction) and isinstance(bottom, Fraction)):
                raise LatexError(f"{self.name}: a binomial of non-integers")
            if top.denominator != 1 or bottom.denominator != 1:
                raise LatexError(f"{self.name}: a binomial of non-integers")
            return Fraction(math.comb(int(top), int(bottom)))
        if kind == "sqrt":
            return _sqrt(_number(self.eval(parts[0], env)))
        if kind in ("max", "min"):
            values = [_number(self.eval(a, env)) for a in parts[0]]
            best = values[0]
            for value in values[1:]:
                if _compare(">" if kind == "max" else "<", value, best):
                    best = value
            return best
        if kind == "clamp":
            low, high = _number(self.eval(parts[0], env)), _number(self.eval(parts[1], env))
            value = _number(self.eval(parts[2], env))
            if _compare("<", value, low):
                return low
            if _compare(">", value, high):
                return high
            return value
        if kind == "sum":
            variable, domain, body = parts
            elements = self.eval(domain, env)
            if isinstance(elements, Element):  # \sum_{i \in t}: the runs of the row t
                elements = self.rows_of(variable, env)
            if not isinstance(elements, list):
                raise LatexError(f"{self.name}: a sum over {symbol_key(*domain.parts)}, not a set")
            summed: Number = Fraction(0)
            for element in elements:
                summed = _arith("add", summed, _number(self.eval(body, {**env, variable: element})))
            return summed
        if kind == "cases":
            for value, condition in parts[0]:
                chosen = self.choose(condition, env)
                if chosen is not None:
                    return self.eval(value, chosen)
            raise Undefined("no case applies")
        raise LatexError(f"{self.name}: cannot evaluate {kind}")


def _whole(value: Number) -> bool:
    return isinstance(value, Fraction) and value.denominator == 1


#: Two sides of a chain that needs an irrational root agree to this many digits.
_SIDE_DIGITS = SQRT_DIGITS - 5


def _result(value: Any) -> Number | Span:
    return value if isinstance(value, Span) else _number(value)


def _close(left: Number, right: Number) -> bool:
    if isinstance(left, Fraction) and isinstance(right, Fraction):
        return left == right
    a, b = _decimal(left), _decimal(right)
    return abs(a - b) <= Decimal(10) ** -_SIDE_DIGITS * max(abs(a), abs(b), Decimal(1))


def _same(left: Number | Span, right: Number | Span) -> bool:
    if isinstance(left, Span) and isinstance(right, Span):
        return _close(left.low, right.low) and _close(left.high, right.high)
    if isinstance(left, Span) or isinstance(right, Span):
        return False
    return _close(left, right)


def _shown(value: Any) -> str:
    if isinstance(value, Span):
        return f"[{_shown(value.low)}, {_shown(value.high)}]"
    if isinstance(value, Decimal):
        return format(round(value, 20).normalize(), "f")
    return str(value)


def _spell(node: Node) -> str:
    """A guard as a reader would say it: ``T >= 10``."""
    if node.kind == "compare":
        terms, operators = node.parts
        text = _spell(terms[0])
        for operator, term in zip(operators, terms[1:], strict=True):
            text += f" {operator} {_spell(term)}"
        return text
    if node.kind == "sym":
        return symbol_key(*node.parts)
    if node.kind == "num":
        return str(node.parts[0])
    return node.kind


def _span_arith(kind: str, left: Any, right: Any, name: str) -> Span:
    """An interval shifted or scaled by a number (``100 \\cdot \\mathrm{Wilson}(…)``)."""
    if isinstance(left, Span) and isinstance(right, Span):
        raise LatexError(f"{name}: two intervals in one {kind}")
    if kind in ("mul", "add") and not isinstance(left, Span):
        left, right = right, left
    if not isinstance(left, Span) or kind not in ("add", "sub", "mul", "div"):
        raise LatexError(f"{name}: a number {kind} an interval")
    factor = _number(right)
    low, high = _arith(kind, left.low, factor), _arith(kind, left.high, factor)
    return Span(low, high) if _compare("<=", low, high) else Span(high, low)


def _power(base: Number, exponent: Number) -> Number:
    if isinstance(exponent, Fraction) and exponent.denominator == 1:
        if base == 0 and exponent < 0:
            raise Undefined("a division by zero")
        return base ** int(exponent)
    raise LatexError("only whole powers are evaluated")


@functools.lru_cache(maxsize=1024)
def _subexpression_cached(tokens: tuple[Token, ...], source: str, lenient: bool) -> Node:
    parser = _Parser(list(tokens), source)
    try:
        node = parser.expression()
        if parser.peek() is not None:
            raise LatexError(f"unexpected {parser.peek().text!r} in {source!r}")  # type: ignore[union-attr]
    except LatexError:
        if lenient:
            return _node("num", Fraction(0))
        raise
    return node


def _subexpression(tokens: Sequence[Token], source: str, *, lenient: bool = False) -> Node:
    """A run of tokens (a subscript) parsed as an expression; ``lenient``: a name that is
    not an expression (``\\min`` in ``n_{\\min}``) parses as nothing."""
    return _subexpression_cached(tuple(tokens), source, lenient)


def evaluate(latex: str, scope: Scope, name: str = "formula") -> Number | Span:
    """The value of ``latex`` with its symbols resolved by ``scope``.

    >>> values = {"p": Fraction(1, 4)}
    >>> scope = Scope(lambda key, env: values[key], lambda key: key in values)
    >>> evaluate(r"c = 1 - 4p(1 - p)", scope)
    Fraction(1, 4)
    """
    return Evaluator(parse(latex), scope, name).value()
