"""The one SQL source of the statistics, and its translation into each dialect.

Two queries, written once in DuckDB's dialect beside this module: ``checks.sql`` (the input
rules of :class:`scoring.models.RunRecord` over a typed relation ``runs``, as counts) and
``statistics.sql`` (everything :class:`scoring.stats.AgentStats` holds, per agent and
task). The methodology's numbers are written into them from :mod:`scoring.constants` and
:mod:`scoring.reading` when they are rendered (:func:`source`), never typed in the SQL.

Every other dialect is sqlglot's translation of that source (:func:`query`), corrected by
the project's own rules where sqlglot writes what the target does not run
(:data:`DIALECT_RULES`): a rule is a rewrite of sqlglot's tree, so the query a dialect gets
is always the DuckDB source's tree with those nodes replaced.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from enum import StrEnum
from importlib.resources import files
from typing import ClassVar

import sqlglot
from sqlglot import exp
from sqlglot.dialects.duckdb import DuckDB
from sqlglot.helper import seq_get

from scoring.constants import RADAR_WINDOW_RUNS
from scoring.reading import CALENDAR_PATTERN

#: The largest finite double: a value above it (Infinity) or unordered (NaN) breaks the
#: input rule "a finite number".
LARGEST_DOUBLE = sys.float_info.max


#: Sums are of integers in 10⁻⁹ units: 9 fraction digits, as ``NUMERIC`` holds them.
UNITS_PER_ONE = 10**9
#: A double holds every integer below 2⁵³ exactly: units below it, and the 10⁹ they are
#: divided by, are exact doubles, so their IEEE quotient is the correctly rounded decimal.
EXACT_UNITS_LIMIT = 2**53
#: Decimals of at most 15 significant digits (a double's ``DBL_DIG``) are each the shortest
#: decimal of a distinct double: the one a double is read back as.
EXACT_SIGNIFICANT_DIGITS = 15


class Dialect(StrEnum):
    """The SQL dialects ``scoring sql`` prints (the source is DuckDB's)."""

    DUCKDB = "duckdb"
    SPARK = "spark"
    TRINO = "trino"
    BIGQUERY = "bigquery"


class Query(StrEnum):
    """The queries of the source, by the file each is written in."""

    CHECKS = "checks"
    STATISTICS = "statistics"


def _calendar() -> str:
    # Anchored at the very end of the text: ``$`` matches before a final newline in Java's
    # regular expressions (Spark), ``\z`` in every dialect's only at the end.
    return CALENDAR_PATTERN.removesuffix("$") + r"\z"


def source(query: Query) -> str:
    """The DuckDB source of ``query`` with the methodology's numbers written in."""
    text = files(__package__).joinpath(f"{query.value}.sql").read_text(encoding="utf-8")
    return text.format(
        window_runs=RADAR_WINDOW_RUNS,
        largest_double=repr(LARGEST_DOUBLE),
        calendar=_calendar(),
        units_per_one=UNITS_PER_ONE,
        exact_units_limit=EXACT_UNITS_LIMIT,
        fifteen_digits=10**EXACT_SIGNIFICANT_DIGITS,
        candidate_limit=EXACT_UNITS_LIMIT // UNITS_PER_ONE,
    )


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


def _bignumeric_hugeint(node: exp.Expr) -> exp.Expr:
    # BigQuery's integers of 38 digits are its BIGNUMERIC (NUMERIC holds 29).
    if isinstance(node, exp.DataType) and node.is_type(exp.DataType.Type.INT128):
        return exp.DataType.build("BIGNUMERIC", dialect="bigquery")
    return node


def _filtered_lists(node: exp.Expr) -> exp.Expr:
    # BigQuery has no FILTER clause: a list of the values that meet the condition is the
    # list of IF(condition, value, NULL) without its nulls (what sqlglot writes, as a rule,
    # so that the query reads back as this tree).
    if isinstance(node, exp.Filter) and isinstance(node.this, exp.ArrayAgg):
        condition = node.expression.this
        chosen = exp.If(this=condition.copy(), true=node.this.this.copy(), false=exp.Null())
        return exp.IgnoreNulls(this=exp.ArrayAgg(this=chosen))
    return node


def _microsecond_instants(node: exp.Expr) -> exp.Expr:
    # Trino's TIMESTAMP WITH TIME ZONE keeps milliseconds unless told otherwise.
    if isinstance(node, exp.DataType) and node.is_type(exp.DataType.Type.TIMESTAMPTZ):
        return exp.DataType.build("TIMESTAMP(6) WITH TIME ZONE", dialect="trino")
    return node


#: The project's corrections of sqlglot's translation, per dialect: each a rewrite of one
#: node of the parsed source (``Expression.transform``). DuckDB's own parsing is corrected
#: in :class:`_DuckDB`.
DIALECT_RULES: dict[Dialect, tuple[Callable[[exp.Expr], exp.Expr], ...]] = {
    Dialect.DUCKDB: (),
    Dialect.SPARK: (_no_materialized, _decimal_hugeint),
    Dialect.TRINO: (_no_materialized, _decimal_hugeint, _microsecond_instants),
    Dialect.BIGQUERY: (_no_materialized, _bignumeric_hugeint, _filtered_lists),
}


def tree(query: Query) -> exp.Expr:
    """The parsed DuckDB source of ``query``."""
    parsed: exp.Expr = sqlglot.parse_one(source(query), read=_DuckDB)
    return parsed


def translated_tree(which: Query, dialect: Dialect) -> exp.Expr:
    """The source's tree with ``dialect``'s rules applied: what the dialect's query reads
    back as."""
    parsed = tree(which)
    for rule in DIALECT_RULES[dialect]:
        parsed = parsed.transform(rule)
    return parsed


def query(which: Query, dialect: Dialect) -> str:
    """``which`` in ``dialect``: the source itself for DuckDB, else sqlglot's translation
    with :data:`DIALECT_RULES` applied."""
    if dialect is Dialect.DUCKDB:
        return source(which)
    return translated_tree(which, dialect).sql(dialect=dialect.value, pretty=True)
