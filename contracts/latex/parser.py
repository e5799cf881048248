"""The parser of the formulas' LaTeX: tokens (:mod:`contracts.latex.tokens`) into a syntax
tree of :class:`Node` objects, the definitions after ``,\\quad`` and the symbols each
formula binds (:func:`parse`). :mod:`contracts.latex.evaluator` evaluates the tree."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

# The tokenizer's private tables are the parser's too: one job split over two modules.
from contracts.latex.tokens import (
    COMPARISONS,
    GREEK_LETTERS,
    JOINS,
    LatexError,
    Token,
    relation_position,
    split_at,
    split_statements,
    symbol_key,
    token_spelling,
    tokenize,
)

# --- Syntax tree ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Node:
    """One node of the syntax tree: ``kind`` and its ``parts``."""

    kind: str
    parts: tuple[Any, ...]


def make_node(kind: str, *parts: Any) -> Node:
    return Node(kind, parts)


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
        statements = split_statements(self.tokens)
        first, *rest = statements
        relation = relation_position(first)
        if relation is None:
            raise LatexError(f"no '=' in {self.source!r}: a formula names what it defines")
        sides = [
            self.sub_parse(side, _Parser.expression)
            for side in split_at(first[relation + 1 :], ("=",))
        ]
        found = Statements(sides[0], tuple(sides[1:]))
        for statement in rest:
            self.statement(statement, found)
        return found

    def statement(self, tokens: list[Token], found: Statements) -> None:
        relation = relation_position(tokens, relations=("=",))
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
            found.sets[name.parts[0]] = make_node("setdef", variable, condition)
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
                f"cannot tell which symbol {token_spelling(lhs)!r} defines, in {self.source!r}"
            )

    def expression(self) -> Node:
        node = self.term()
        while self.is_op("+", "-", r"\pm"):
            operator = self.take().text
            kind = {"+": "add", "-": "sub"}.get(operator, "pm")
            node = make_node(kind, node, self.term())
        return node

    def _starts_factor(self) -> bool:
        token = self.peek()
        if token is None:
            return False
        if token.kind in ("num", "name", "text"):
            return token.text not in JOINS
        if token.kind == "cmd":
            return token.text in (
                r"\dfrac", r"\frac", r"\tfrac", r"\sqrt", r"\binom", r"\max", r"\sum",
                r"\begin{cases}", r"\operatorname{clamp}", r"\min", r"\lceil",
            ) or token.text in GREEK_LETTERS  # fmt: skip
        return token.text == "(" or (token.text == "|" and not self.in_bars)

    def term(self) -> Node:
        node = self.unary()
        while True:
            if self.is_op(r"\cdot", r"\times"):
                self.take()
                node = make_node("mul", node, self.unary())
            elif self._starts_factor():
                node = make_node("mul", node, self.unary())
            else:
                return node

    def unary(self) -> Node:
        if self.is_op("-"):
            self.take()
            return make_node("neg", self.unary())
        return self.power()

    def power(self) -> Node:
        node = self.primary()
        if self.is_op("^") and node.kind != "sym":
            self.take()
            exponent = self.sub_parse(self.group_tokens(), _Parser.expression)
            node = make_node("pow", node, exponent)
        return node

    def primary(self) -> Node:
        token = self.peek()
        if token is None:
            raise LatexError(f"unexpected end of {self.source!r}")
        if token.kind == "num":
            self.take()
            return make_node("num", Fraction(token.text))
        if token.kind in ("name", "text") or (token.kind == "cmd" and token.text in GREEK_LETTERS):
            node = self.symbol()
            if self.is_op("("):
                self.take()
                arguments = [self.expression()]
                while self.is_op(","):
                    self.take()
                    arguments.append(self.expression())
                self.expect(")")
                return make_node("apply", node, tuple(arguments))
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
            return make_node("abs", inner)
        if text in (r"\dfrac", r"\frac", r"\tfrac", r"\binom"):
            self.take()
            top = self.sub_parse(self.group_tokens(), _Parser.expression)
            bottom = self.sub_parse(self.group_tokens(), _Parser.expression)
            return make_node("div" if text != r"\binom" else "binom", top, bottom)
        if text == r"\sqrt":
            self.take()
            return make_node("sqrt", self.sub_parse(self.group_tokens(), _Parser.expression))
        if text in (r"\max", r"\min"):
            self.take()
            self.expect("(")
            arguments = [self.expression()]
            while self.is_op(","):
                self.take()
                arguments.append(self.expression())
            self.expect(")")
            return make_node(text[1:], tuple(arguments))
        if text == r"\lceil":
            self.take()
            inner = self.expression()
            self.expect(r"\rceil")
            return make_node("ceil", inner)
        if text == "[":
            # An interval written by its bounds, [low, high] (Clopper–Pearson's).
            self.take()
            low = self.expression()
            self.expect(",")
            high = self.expression()
            self.expect("]")
            return make_node("span", low, high)
        if text == r"\{":
            # A set written in place: {b : S_b > S_a}, the rows of b for which it holds.
            self.take()
            variable = self.take().text
            self.expect(":")
            condition = self.condition(stop=r"\}")
            self.expect(r"\}")
            return make_node("setof", variable, condition)
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
            return make_node("clamp", low, high, value)
        if text == r"\sum":
            self.take()
            self.expect("_")
            over = _Parser(self.group_tokens(), self.source)
            variable = over.take().text
            if over.peek() is None:  # \sum_{t}: every row t stands for
                return make_node("sumall", variable, self.term())
            if over.is_op("="):  # \sum_{t=1}^{T}: rows 1 to T of those t stands for
                over.take()
                lower = over.expression()
                self.expect("^")
                upper = self.sub_parse(self.group_tokens(), _Parser.expression)
                return make_node("sumrange", variable, lower, upper, self.term())
            over.expect(r"\in")
            domain = over.symbol()
            body = self.term()
            return make_node("sum", variable, domain, body)
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
                return make_node("cases", tuple(cases))
        if token.kind == "cmd" and text in GREEK_LETTERS:
            return self.symbol()
        raise LatexError(f"the evaluator does not know {text!r} (in {self.source!r})")

    def symbol(self) -> Node:
        """A name with its subscript and superscript, spelled canonically."""
        token = self.take()
        if token.kind not in ("name", "text") and token.text not in GREEK_LETTERS:
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
        return make_node("sym", base, subscript, superscript)

    def condition(self, stop: str) -> Node:
        token = self.peek()
        if token is not None and token.kind == "text" and token.text.startswith(r"\text"):
            self.take()
            return make_node("prose", token.text)
        terms = [self.expression()]
        operators = []
        while self.peek() is not None and self.peek().text in COMPARISONS:  # type: ignore[union-attr]
            operators.append(COMPARISONS[self.take().text])
            terms.append(self.expression())
        if not operators:
            raise LatexError(f"a condition needs a comparison, in {self.source!r}")
        found = make_node("compare", tuple(terms), tuple(operators))
        joined = self.peek()
        if joined is not None and joined.text in JOINS:
            self.take()
            return make_node(JOINS[joined.text], found, self.condition(stop))
        return found


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
    return subexpression(list(tokens), "", lenient=True)


@functools.lru_cache(maxsize=1024)
def _subexpression_cached(tokens: tuple[Token, ...], source: str, lenient: bool) -> Node:
    parser = _Parser(list(tokens), source)
    try:
        node = parser.expression()
        if parser.peek() is not None:
            raise LatexError(f"unexpected {parser.peek().text!r} in {source!r}")  # type: ignore[union-attr]
    except LatexError:
        if lenient:
            return make_node("num", Fraction(0))
        raise
    return node


def subexpression(tokens: Sequence[Token], source: str, *, lenient: bool = False) -> Node:
    """A run of tokens (a subscript) parsed as an expression; ``lenient``: a name that is
    not an expression (``\\min`` in ``n_{\\min}``) parses as nothing."""
    return _subexpression_cached(tuple(tokens), source, lenient)
