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

from pathlib import Path

import pytest
import sqlglot
from engine_logs import TIES_RUNS, clean_log, cli, write
from sqlglot import exp

from scoring.engines.dialects import materialized_steps, query, translated_tree, tree
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


@pytest.mark.parametrize("ties", [False, True], ids=["spread", "ties"])
def test_the_materialized_steps_compute_what_the_one_query_does(tmp_path: Path, ties: bool) -> None:
    """Spark runs the statistics query in steps (``materialized_steps``: each MATERIALIZED
    expression kept as a view, then the rest). In DuckDB, over the same runs, the steps give
    the rows of the one query, and read the views: a spoiled view changes them."""
    import duckdb

    from scoring.engines import duckdb_engine

    log = write(tmp_path / "runs.jsonl", clean_log(3, 3 * TIES_RUNS, 4, ties=ties))
    con = duckdb.connect(":memory:")
    con.execute("SET TimeZone = 'UTC'")
    con.execute(duckdb_engine.json_runs_sql(log, gzip=False))
    whole = con.execute(query(Query.STATISTICS, Dialect.DUCKDB)).fetchall()
    steps, rest = materialized_steps(Query.STATISTICS, Dialect.DUCKDB)
    assert [name for name, _ in steps] == ["terminal", "parted", "latest"]
    for name, step in steps:
        con.execute(f"CREATE TEMP TABLE {name} AS {step}")
    assert whole
    assert con.execute(rest).fetchall() == whole
    # Spoiled (each agent's newest run left out of its window), the rest reads the views.
    con.execute("DELETE FROM latest WHERE recency = 1")
    assert con.execute(rest).fetchall() != whole
