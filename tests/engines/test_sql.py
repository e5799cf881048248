"""``scoring sql --dialect``: the one SQL source, and sqlglot's translation of it into the
dialects an engine runs in these tests (DuckDB's and Spark's: ``test_duckdb_engine.py``,
``test_spark_engine.py``); no other dialect is offered."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlglot
from engine_logs import TIES_RUNS, clean_log, cli, write

from scoring.engines.dialects import materialized_steps, query, translated_tree, tree
from scoring.engines.sql import Dialect, Query, source


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


def test_only_the_dialects_an_engine_runs_are_offered() -> None:
    assert [d.value for d in Dialect] == ["duckdb", "spark"]


@pytest.mark.parametrize("name", ["trino", "bigquery", "oracle"])
def test_a_dialect_not_offered_is_a_usage_error_naming_those_offered(name: str) -> None:
    code, out, err = cli(["sql", "--dialect", name])
    assert (code, out) == (2, "")
    # Python 3.12.8 and 3.13.1 stopped quoting argparse's choices; 3.11 (CI) quotes them.
    offered = {"'duckdb', 'spark'", "duckdb, spark"}
    assert err in {
        "usage: scoring sql [-h] [--dialect {duckdb,spark}]\n"
        f"scoring sql: error: argument --dialect: invalid choice: '{name}' "
        f"(choose from {choices})\n"
        for choices in offered
    }


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
