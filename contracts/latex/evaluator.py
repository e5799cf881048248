"""A small evaluator for the LaTeX of the registered formulas.

It reads the very string the page renders and computes it, so that the drift check can
hold the typeset formula equal to the code (``contracts.check.formulas``). Why an evaluator
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

import math
from collections.abc import Callable, Iterator, Mapping
from decimal import Decimal
from fractions import Fraction
from typing import Any

# The evaluator uses the parser's and the arithmetic's helpers; the public names of all
# three are re-exported here (``from contracts.latex.evaluator import parse`` keeps working).
from contracts.latex.environment import ABSENT, Element, IndexRange, Reads, bound, same_input
from contracts.latex.numbers import (
    as_number,
    as_result,
    compare_numbers,
    is_whole,
    number_arithmetic,
    power,
    same_value,
    shown,
    span_arithmetic,
    square_root,
)
from contracts.latex.parser import (
    Node,
    Parsed,
    canonical_symbol,
    make_node,
    parse,
    script_symbols,
    subexpression,
)
from contracts.latex.tokens import (
    SQRT_DIGITS,
    LatexError,
    Number,
    SidesDisagree,
    Span,
    Undefined,
    symbol_key,
)

__all__ = [
    "SQRT_DIGITS",
    "Element",
    "Evaluator",
    "IndexRange",
    "LatexError",
    "Node",
    "Number",
    "Parsed",
    "Scope",
    "SidesDisagree",
    "Span",
    "Undefined",
    "canonical_symbol",
    "evaluate",
    "parse",
    "script_symbols",
    "symbol_key",
]


# --- Evaluation -------------------------------------------------------------------------------


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


class Evaluator:
    """Evaluates a parsed formula in a :class:`Scope`.

    A definition without parameters is evaluated where it is read, in the row of the sum
    that reads it (``U_t`` for each ``t``), and so may be read many times over with the same
    inputs: ``m`` inside the sum of ``V`` over 100 tasks is 10,000 evaluations of ``U_t``.
    Its value is kept with the names of the environment it read (noted by :class:`Reads`,
    every read of the evaluation included: the scope's too, which reads the environment
    it is given) and their values; a later read where each of those names has the same value
    (:func:`same_input`) is given the kept value. Bindings of a sum or a function's
    values over a noted environment are read through it (:func:`bound`), so a row the
    definition binds itself is not an input of it. A value that is a function is not kept
    (it would read the environment it was made in). Scope and definitions are fixed for an
    evaluator, so nothing else can change a definition's value."""

    def __init__(self, parsed: Parsed, scope: Scope, name: str) -> None:
        self.parsed = parsed
        self.scope = scope
        self.name = name
        self._kept: dict[str, list[tuple[tuple[tuple[str, Any], ...], Any]]] = {}

    def value(self, env: Mapping[str, Any] | None = None) -> Number | Span:
        """The formula's value (raises :class:`Undefined` where it has none): its guards
        hold, and every side of its chain of ``=`` agrees with the first."""
        env = {} if env is None else env
        for guard in self.parsed.guards:
            if not self.holds(guard, env):
                raise Undefined(f"the domain {_spell(guard)} does not hold")
        found = as_result(self.eval(self.parsed.body, env))
        for number, side in enumerate(self.parsed.sides, start=2):
            other = as_result(self.eval(side, env))
            if not same_value(found, other):
                raise SidesDisagree(
                    f"{self.name}: the sides of its chain of '=' disagree: side 1 gives "
                    f"{shown(found)}, side {number} gives {shown(other)}"
                )
        if self.parsed.results:  # several results (a gradient): a tuple of them, in order
            return (found, *(as_result(self.eval(r, env)) for r in self.parsed.results))  # type: ignore[return-value]
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
            value = self.lookup(make_node("sym", base, subscript, None), env)
            exponent = subexpression(superscript, self.name)
            return power(as_number(value), as_number(self.eval(exponent, env)))
        if key in self.parsed.sets:
            return self.define_set(key, env)
        if self.scope.has(key):
            return self.scope.resolve(key, env)
        if subscript is not None and self.scope.has(base + "_"):
            family = self.scope.resolve(base + "_", env)
            where = self.eval(subexpression(list(subscript), self.name), env)
            position = as_number(where)
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
            return self._kept_value(key, definition.body, env)

        def apply(*values: Any) -> Any:
            if len(values) != len(definition.parameters):
                raise LatexError(
                    f"{self.name}: {key} takes {len(definition.parameters)} values, "
                    f"given {len(values)}"
                )
            return self.eval(
                definition.body, bound(env, dict(zip(definition.parameters, values, strict=True)))
            )

        return apply

    def _kept_value(self, key: str, body: Node, env: Mapping[str, Any]) -> Any:
        """A parameterless definition's value in ``env``: kept, if it was found before from
        the same inputs (see the class's docstring). The check reads each input through
        ``env``, so a definition that reads this one reads its inputs too."""
        kept = self._kept.setdefault(key, [])
        for inputs, value in kept:
            if all(same_input(env.get(name, ABSENT), held) for name, held in inputs):
                return value
        reads = Reads(env)
        value = self.eval(body, reads)  # an exception is not kept: raised again each time
        if not callable(value):
            kept.append((tuple((n, env.get(n, ABSENT)) for n in sorted(reads.names)), value))
        return value

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
        return [
            element for element in domain if self.holds(condition, bound(env, {variable: element}))
        ]

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
        values = [as_number(self.eval(term, env)) for term in terms]
        return all(compare_numbers(op, values[i], values[i + 1]) for i, op in enumerate(operators))

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
                            walk(subexpression(list(tokens), self.name, lenient=True))
                for part in item.parts:
                    walk(part)
            elif isinstance(item, tuple):
                for part in item:
                    walk(part)

        walk(node)
        return found

    def choose(self, condition: Node, env: Mapping[str, Any]) -> Mapping[str, Any] | None:
        """The environment in which ``condition`` holds (an index tried in order), or None."""
        free = self.indices(condition, env)
        if not free:
            return env if self.holds(condition, env) else None

        def tries(names: list[str], current: Mapping[str, Any]) -> Iterator[Mapping[str, Any]]:
            if not names:
                yield current
                return
            first, *rest = names
            for value in self.scope.resolve(first, current).values:
                yield from tries(rest, bound(current, {first: Fraction(value)}))

        for candidate in tries(free, env):
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
                return span_arithmetic(kind, left, right, self.name)
            return number_arithmetic(kind, as_number(left), as_number(right))
        if kind == "pm":
            centre, half = as_number(self.eval(parts[0], env)), as_number(self.eval(parts[1], env))
            low, high = (
                number_arithmetic("sub", centre, half),
                number_arithmetic("add", centre, half),
            )
            return Span(low, high) if compare_numbers("<=", low, high) else Span(high, low)
        if kind == "span":
            low, high = (as_number(self.eval(part, env)) for part in parts)
            if not compare_numbers("<=", low, high):
                raise Undefined("an interval whose low bound exceeds its high bound")
            return Span(low, high)
        if kind == "ceil":
            inner = as_number(self.eval(parts[0], env))
            return Fraction(math.ceil(inner))
        if kind == "setof":
            variable, condition = parts
            return [
                element
                for element in self.rows_of(variable, env)
                if self.holds(condition, bound(env, {variable: element}))
            ]
        if kind in ("sumrange", "sumall"):
            variable, body = parts[0], parts[-1]
            elements = self.rows_of(variable, env)
            if kind == "sumrange":
                low, high = (as_number(self.eval(part, env)) for part in parts[1:3])
                if not (is_whole(low) and is_whole(high)) or not low >= 1 or high > len(elements):
                    raise LatexError(
                        f"{self.name}: the sum runs over {variable} = {shown(low)} … "
                        f"{shown(high)}, but {variable} has rows 1 … {len(elements)}"
                    )
                elements = elements[int(low) - 1 : int(high)]
            total: Number = Fraction(0)
            for element in elements:
                row = bound(env, {variable: element})
                total = number_arithmetic("add", total, as_number(self.eval(body, row)))
            return total
        if kind == "neg":
            return -as_number(self.eval(parts[0], env))
        if kind == "pow":
            return power(as_number(self.eval(parts[0], env)), as_number(self.eval(parts[1], env)))
        if kind == "apply":
            function = self.lookup(parts[0], env)
            arguments = [self.eval(a, env) for a in parts[1]]
            if callable(function):
                return function(*arguments)
            if len(arguments) != 1:
                raise LatexError(f"{self.name}: {symbol_key(*parts[0].parts)} is not a function")
            return number_arithmetic("mul", as_number(function), as_number(arguments[0]))
        if kind == "abs":
            inner = self.eval(parts[0], env)
            if isinstance(inner, list):
                return Fraction(len(inner))
            return abs(as_number(inner))
        if kind == "binom":
            top, bottom = as_number(self.eval(parts[0], env)), as_number(self.eval(parts[1], env))
            if not (isinstance(top, Fraction) and isinstance(bottom, Fraction)):
                raise LatexError(f"{self.name}: a binomial of non-integers")
            if top.denominator != 1 or bottom.denominator != 1:
                raise LatexError(f"{self.name}: a binomial of non-integers")
            return Fraction(math.comb(int(top), int(bottom)))
        if kind == "sqrt":
            return square_root(as_number(self.eval(parts[0], env)))
        if kind in ("max", "min"):
            values = [as_number(self.eval(a, env)) for a in parts[0]]
            best = values[0]
            for value in values[1:]:
                if compare_numbers(">" if kind == "max" else "<", value, best):
                    best = value
            return best
        if kind == "clamp":
            low, high = as_number(self.eval(parts[0], env)), as_number(self.eval(parts[1], env))
            value = as_number(self.eval(parts[2], env))
            if compare_numbers("<", value, low):
                return low
            if compare_numbers(">", value, high):
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
                row = bound(env, {variable: element})
                summed = number_arithmetic("add", summed, as_number(self.eval(body, row)))
            return summed
        if kind == "cases":
            for value, condition in parts[0]:
                chosen = self.choose(condition, env)
                if chosen is not None:
                    return self.eval(value, chosen)
            raise Undefined("no case applies")
        raise LatexError(f"{self.name}: cannot evaluate {kind}")


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


def evaluate(latex: str, scope: Scope, name: str = "formula") -> Number | Span:
    """The value of ``latex`` with its symbols resolved by ``scope``.

    >>> values = {"p": Fraction(1, 4)}
    >>> scope = Scope(lambda key, env: values[key], lambda key: key in values)
    >>> evaluate(r"c = 1 - 4p(1 - p)", scope)
    Fraction(1, 4)
    """
    return Evaluator(parse(latex), scope, name).value()
