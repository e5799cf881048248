"""What a formula's registration must bind (:mod:`contracts.check.formulas` checks it before it
evaluates anything): every symbol of its LaTeX bound to an argument, a constant or another
symbol, every binding naming a symbol the LaTeX uses.
"""

from __future__ import annotations

import inspect
from typing import Any

from contracts.check.agreement import (
    FLOAT_RELATIVE_TOLERANCE as FLOAT_RELATIVE_TOLERANCE,
    agree as agree,
    show as show,
)
from contracts.latex.evaluator import (
    LatexError,
    Node,
    canonical_symbol,
    parse,
    script_symbols,
    symbol_key,
)
from scoring.registry import (
    Arg,
    Attribute,
    Binding,
    Const,
    Count,
    Entry,
    Formula,
    Index,
    Rows,
    SequenceOf,
    Total,
    Uses,
    Words,
)

#: A formula whose symbol ``a`` is bound to rows gives one value per row (``rank_a``).
EACH = "a"


def registration_problems(formula: Formula) -> list[str]:
    """What is wrong with a formula's bindings, before any point is evaluated: a symbol
    bound to nothing, a binding that names no symbol of the LaTeX, an argument the function
    does not take."""
    if formula.descriptive is not None:
        # Nothing evaluates a descriptive formula: its symbols are said for the reader, in
        # words or as a constant or another formula, and each must be one its LaTeX shows.
        problems = [
            f"is marked descriptive but binds {symbol!r} to a value: say it with words()"
            for symbol, binding in formula.symbols.items()
            if not isinstance(binding, Words | Const | Uses)
        ]
        problems += [
            f"says what {symbol!r} stands for, but its LaTeX does not show it"
            for symbol in formula.symbols
            if symbol not in formula.latex
        ]
        return problems
    try:
        parsed = parse(formula.latex)
        bound = {canonical_symbol(k): b for k, b in formula.symbols.items()}
    except LatexError as error:
        return [f"its LaTeX cannot be evaluated: {error}"]
    problems = []
    variables = _bound_variables(parsed)
    needed: list[str] = []
    used: set[str] = set()

    def visit(node: Any) -> None:
        if isinstance(node, tuple):
            for part in node:
                visit(part)
            return
        if not isinstance(node, Node):
            return
        if node.kind != "sym":
            for part in node.parts:
                visit(part)
            return
        base, subscript, superscript = node.parts
        key = symbol_key(base, subscript, superscript)
        if key in bound or key in variables or key in parsed.sets or key in parsed.definitions:
            used.add(key)
            return
        if superscript is not None:  # a power: the base and the exponent are read
            visit(_node_sym(base, subscript))
            visit(script_symbols(superscript))
            return
        if subscript is not None and f"{base}_" in bound:  # a family: x_{i+1}
            used.add(f"{base}_")
            visit(script_symbols(subscript))
            return
        if key not in needed:
            needed.append(key)

    visit(parsed.body)
    for side in (*parsed.sides, *parsed.results):
        visit(side)
    for guard in parsed.guards:
        visit(guard)
    for defined in parsed.definitions.values():
        visit(defined.body)
    for name, definition in parsed.sets.items():
        variable = definition.parts[0]
        if variable in bound:
            used.add(variable)
        else:
            problems.append(f"the set {name} ranges {variable} over nothing: bind {variable}")
        visit(definition)
    if isinstance(bound.get(EACH), Rows):
        used.add(EACH)
    for variable in variables:
        if variable in bound:
            used.add(variable)
    for key in needed:
        problems.append(f"the symbol {key} is bound to nothing: add it to symbols=")
    parameters = inspect.signature(formula.function).parameters
    for key, binding in bound.items():
        if key not in used:
            problems.append(f"binds {key}, which its LaTeX does not show")
        for name in _arguments_named(binding):
            if name not in parameters:
                problems.append(f"binds {key} to the argument {name}, which it does not take")
    return problems


def _node_sym(base: str, subscript: Any) -> Node:
    return Node("sym", (base, subscript, None))


def _bound_variables(parsed: Any) -> set[str]:
    """Variables a sum or a set introduces (``t`` of ``\\sum_{t \\in T}``) and the
    parameters of the functions a statement defines (``\\hat p`` of ``V(\\hat p)``)."""
    found: set[str] = set()
    for definition in parsed.definitions.values():
        found.update(definition.parameters)

    def walk(item: Any) -> None:
        kind = getattr(item, "kind", None)
        if kind in ("sum", "sumrange", "sumall", "setof"):
            found.add(item.parts[0])
        if kind is not None:
            for part in item.parts:
                walk(part)
        elif isinstance(item, tuple):
            for part in item:
                walk(part)

    walk(parsed.body)
    for part in (
        *parsed.sides,
        *parsed.results,
        *parsed.guards,
        *(d.body for d in parsed.definitions.values()),
    ):
        walk(part)
    return found


def _arguments_named(binding: Binding) -> list[str]:
    if isinstance(binding, Arg):
        names = [binding.name]
        if binding.unless_below is not None:
            names.append(binding.unless_below[0])
        return names
    if isinstance(binding, Rows | SequenceOf | Count | Index):
        return [binding.name]
    if isinstance(binding, Entry):
        return _arguments_named(binding.mapping)
    if isinstance(binding, Total):
        return _arguments_named(binding.over)
    if isinstance(binding, Attribute):
        return _arguments_named(binding.of)
    if isinstance(binding, Uses):
        return [n for _, b in binding.bound for n in _arguments_named(b)]
    return []
