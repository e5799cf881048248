"""sqlglot's translation of the SQL source (:mod:`scoring.engines.sql`) into each dialect,
and the project's own rules for what sqlglot gets wrong.

Each rule rewrites one kind of node of the parsed source; a dialect's query is the
source's tree with its rules applied, written by sqlglot. A dialect is offered only where
an engine of it runs the query in the tests (DuckDB, Spark): a translation that merely
reads back as the same tree proves nothing about what the target runs.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import ClassVar

import sqlglot
from sqlglot import exp
from sqlglot.dialects.duckdb import DuckDB
from sqlglot.helper import seq_get

from scoring.engines.sql import Dialect, Query, source


class _DuckDB(DuckDB):
    """DuckDB as sqlglot reads it, and EPOCH_US as what it is: microseconds since the
    epoch (sqlglot keeps it as an unknown function, which no other dialect has)."""

    class Parser(DuckDB.Parser):  # type: ignore[valid-type, misc]  # sqlglot: untyped base
        FUNCTIONS: ClassVar = {
            **DuckDB.Parser.FUNCTIONS,
            "EPOCH_US": lambda args: exp.UnixMicros(this=seq_get(args, 0)),
        }


def _no_materialized(node: exp.Expr) -> exp.Expr:
    # DuckDB's MATERIALIZED hint on a common table expression: the others have no such word.
    if isinstance(node, exp.CTE) and node.args.get("materialized"):
        node = node.copy()
        node.set("materialized", None)
    return node


def _decimal_hugeint(node: exp.Expr) -> exp.Expr:
    # DuckDB's HUGEINT (sqlglot writes INT128, which they lack): a 38-digit integer.
    if isinstance(node, exp.DataType) and node.is_type(exp.DataType.Type.INT128):
        return exp.DataType.build("DECIMAL(38, 0)")
    return node


#: The project's corrections of sqlglot's translation, per dialect: each a rewrite of one
#: node of the parsed source (``Expression.transform``). DuckDB's own parsing is corrected
#: in :class:`_DuckDB`.
DIALECT_RULES: dict[Dialect, tuple[Callable[[exp.Expr], exp.Expr], ...]] = {
    Dialect.DUCKDB: (),
    Dialect.SPARK: (_no_materialized, _decimal_hugeint),
}


def tree(query: Query) -> exp.Expr:
    """The parsed DuckDB source of ``query``."""
    parsed: exp.Expr = sqlglot.parse_one(source(query), read=_DuckDB)
    return parsed


def translated_tree(which: Query, dialect: Dialect) -> exp.Expr:
    """The source's tree with ``dialect``'s rules applied: what the dialect's query reads
    back as."""
    return _ruled(tree(which), dialect)


def _ruled(parsed: exp.Expr, dialect: Dialect) -> exp.Expr:
    for rule in DIALECT_RULES[dialect]:
        parsed = parsed.transform(rule)
    return parsed


def _written(parsed: exp.Expr, dialect: Dialect) -> str:
    return _ruled(parsed, dialect).sql(dialect=dialect.value, pretty=True)


def translated(which: Query, dialect: Dialect) -> str:
    """``which`` in ``dialect``: sqlglot's translation of the source with
    :data:`DIALECT_RULES` applied."""
    return _written(tree(which), dialect)


def query(which: Query, dialect: Dialect) -> str:
    """``which`` in ``dialect``: the source itself for DuckDB, else :func:`translated`."""
    return source(which) if dialect is Dialect.DUCKDB else translated(which, dialect)


@cache
def materialized_steps(which: Query, dialect: Dialect) -> tuple[tuple[tuple[str, str], ...], str]:
    """``which`` in ``dialect`` in steps, for an engine that inlines every common table
    expression where it is read (Spark does: the statistics query's plan then reads its
    input 31 times through 149 shuffles). Each expression the source marks
    ``MATERIALIZED``, in order, is a query of its own, to be run once and kept as a view of
    its name; the last query reads those views. The same tree as :func:`translated`'s,
    cut at its materialized expressions: together the steps compute the same rows."""
    parsed = tree(which)
    clause = parsed.args.get("with_")
    expressions = [] if clause is None else list(clause.expressions)
    steps: list[tuple[str, str]] = []
    plain: list[exp.CTE] = []
    for expression in expressions:
        if expression.args.get("materialized"):
            body = expression.this.copy()
            if plain:
                body.set("with_", exp.With(expressions=[c.copy() for c in plain]))
            steps.append((expression.alias, _written(body, dialect)))
        else:
            plain.append(expression)
    rest = parsed.copy()
    rest.set("with_", exp.With(expressions=[c.copy() for c in plain]) if plain else None)
    return tuple(steps), _written(rest, dialect)
