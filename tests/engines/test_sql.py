"""``scoring sql --dialect``: the one SQL source, and sqlglot's translation of it that
reads back as the same query.

The round trip: each dialect's query, parsed by sqlglot in that dialect, is the tree of
the DuckDB source with the project's rules for the dialect applied
(``scoring.engines.sql.DIALECT_RULES``), and nothing else. sqlglot records how a dialect
spells a few things in flags of the nodes it reads (that ``LENGTH`` counts characters in
BigQuery, that a division is typed in Trino); they are not part of the query and are left
out of the comparison (:data:`_SPELLING_FLAGS`).
"""

from __future__ import annotations

import pytest
import sqlglot
from engine_logs import cli
from sqlglot import exp

from scoring.engines.dialects import query, translated_tree, tree
from scoring.engines.sql import Dialect, Query, source

# Flags sqlglot sets on what it reads in one dialect, which say how it was spelled there.
_SPELLING_FLAGS = frozenset({"binary", "typed", "safe", "zero_start"})
ROUND_TRIP_DIALECTS = (Dialect.TRINO, Dialect.BIGQUERY)


def _without_spelling(node: exp.Expr) -> exp.Expr:
    node = node.copy()
    for each in node.walk():
        for flag in _SPELLING_FLAGS & set(each.args):
            each.set(flag, None)
    return node


@pytest.mark.parametrize("dialect", ROUND_TRIP_DIALECTS, ids=str)
@pytest.mark.parametrize("which", list(Query), ids=str)
def test_the_dialects_read_back_as_the_source(dialect: Dialect, which: Query) -> None:
    text = query(which, dialect)
    assert text != source(which)
    read_back = sqlglot.parse_one(text, read=dialect.value)
    assert _without_spelling(read_back) == _without_spelling(translated_tree(which, dialect))


def test_the_duckdb_source_reads_back_as_itself() -> None:
    for which in Query:
        assert sqlglot.parse_one(query(which, Dialect.DUCKDB), read="duckdb") is not None
        assert tree(which) == translated_tree(which, Dialect.DUCKDB)


def test_the_rules_change_what_sqlglot_gets_wrong() -> None:
    spark = query(Query.STATISTICS, Dialect.SPARK)
    assert "UNIX_MICROS(" in spark  # DuckDB's EPOCH_US, which sqlglot passes through
    assert "DECIMAL(38, 0)" in spark  # HUGEINT, which sqlglot writes as INT128
    assert "INT128" not in spark
    assert "MATERIALIZED" not in spark
    assert "TIMESTAMP(6) WITH TIME ZONE" in query(Query.STATISTICS, Dialect.TRINO)


def test_the_numbers_come_from_the_constants() -> None:
    from scoring.constants import RADAR_WINDOW_RUNS

    assert f"recency <= {RADAR_WINDOW_RUNS}" in source(Query.STATISTICS)
    assert "{" not in source(Query.STATISTICS).replace("{3}", "").replace("{2}", "")


@pytest.mark.parametrize("dialect", list(Dialect), ids=str)
def test_scoring_sql_prints_both_queries(dialect: Dialect) -> None:
    code, out, err = cli(["sql", "--dialect", dialect.value])
    expected = "\n\n".join(query(q, dialect).rstrip().rstrip(";") + ";" for q in Query) + "\n"
    assert (code, out, err) == (0, expected, "")


def test_scoring_sql_defaults_to_the_source() -> None:
    assert cli(["sql"])[1].startswith(source(Query.CHECKS).rstrip())


def test_an_unknown_dialect_is_a_usage_error() -> None:
    code, out, err = cli(["sql", "--dialect", "oracle"])
    assert (code, out) == (2, "")
    assert "invalid choice: 'oracle'" in err
