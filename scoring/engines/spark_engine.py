"""The Spark engine: the statistics computed by ``statistics.sql`` translated for Spark SQL.

Local mode by default, a cluster by its master URL (``--spark-master`` or
``$SCORING_SPARK_MASTER``). Inputs: a JSON Lines log (plain or gzip, by its name's
``.gz``) proven clean, a Parquet file, or a table name of the session's catalog (which must
carry the ``input_order`` column: a table has no row order).

The JVM writes its logs to stderr: it is started with its stdout and stderr pointed at
``/dev/null``, so that the command prints what ``--engine python`` prints, nothing more.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scoring.engines.assemble import agent_stats
from scoring.engines.dialects import materialized_steps, query
from scoring.engines.proof import Proof
from scoring.engines.sql import Dialect, Query
from scoring.engines.tables import (
    INPUT_ORDER,
    Casts,
    Checks,
    ColumnKind,
    TableUnfitError,
    json_lines,
    runs_select,
)
from scoring.report.read import read_stats
from scoring.report.stats import AgentStats

# pyspark is the `spark` extra: imported where a Spark session is used, so that the package
# (and its doctests) import without it.
if TYPE_CHECKING:
    from pyspark.sql import DataFrame, SparkSession

# The JSON Lines schema, as Spark's DDL.
_JSON_SCHEMA = (
    "run_id STRING, agent_id STRING, task_id STRING, status STRING, success BOOLEAN, "
    "latency_ms DOUBLE, cost_usd DOUBLE, steps BIGINT, finished_at STRING"
)
_INTEGERS = frozenset({"TINYINT", "SMALLINT", "INT", "BIGINT"})
#: Spark's names of the table contract's types (as ``DataFrame.dtypes`` writes them).
CASTS = Casts(
    accepted={
        ColumnKind.TEXT: frozenset({"STRING"}),
        ColumnKind.BOOLEAN: frozenset({"BOOLEAN"}),
        ColumnKind.NUMBER: frozenset({"DOUBLE"}) | _INTEGERS,
        ColumnKind.INTEGER: _INTEGERS,
        ColumnKind.INSTANT: frozenset({"TIMESTAMP", "TIMESTAMP_NTZ"}),
    },
    target={
        ColumnKind.TEXT: "STRING",
        ColumnKind.BOOLEAN: "BOOLEAN",
        ColumnKind.NUMBER: "DOUBLE",
        ColumnKind.INTEGER: "BIGINT",
        ColumnKind.INSTANT: "STRING",
    },
    instant_text="date_format({column}, \"yyyy-MM-dd'T'HH:mm:ss.SSSSSS'Z'\")",
)
# Spark's hidden column of a Parquet row's position in its file.
_ROW_INDEX = "_metadata.row_index"
_FILE_PATH = "_metadata.file_path"
_FILE_ORDER = "file_row_index"
# The session's settings: UTC (a timestamp's text is read and written in it), small
# shuffles on a cluster (a report has thousands of agents, not billions; local mode has
# one a core, see session), no web UI, quiet logs.
_SETTINGS = {
    "spark.sql.session.timeZone": "UTC",
    "spark.sql.shuffle.partitions": "8",
    "spark.ui.enabled": "false",
    "spark.sql.ansi.enabled": "true",
    "spark.driver.extraJavaOptions": "-Dlog4j2.level=ERROR",
}
_APP_NAME = "scoring"
# How a local master's URL begins (``local``, ``local[4]``, ``local[*]``).
_LOCAL = "local"


@contextmanager
def _quiet_descriptors() -> Iterator[None]:
    """stdout and stderr pointed at /dev/null while the JVM starts (it inherits them)."""
    saved = [os.dup(1), os.dup(2)]
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        yield
    finally:
        os.dup2(saved[0], 1)
        os.dup2(saved[1], 2)
        for fd in (*saved, devnull):
            os.close(fd)


@contextmanager
def session(master: str) -> Iterator[SparkSession]:
    """A Spark session on ``master``: the active one if there is one (left running), else
    a new one, stopped at the end."""
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None:
        yield active
        return
    builder = SparkSession.builder.master(master).appName(_APP_NAME)
    for key, value in _SETTINGS.items():
        builder = builder.config(key, value)
    with _quiet_descriptors():
        spark = builder.getOrCreate()
        spark.sparkContext.setLogLevel("ERROR")
    if master.startswith(_LOCAL):
        # In local mode a shuffle partition beyond the cores only queues as one more task
        # of every stage (the statistics query has many): one partition per core cuts a
        # small log's job (the corpus's 987 runs on 2 cores: about 4 s at 8 partitions,
        # 2.2 s at 1); more cores, as many partitions.
        parallelism = spark.sparkContext.defaultParallelism
        spark.conf.set("spark.sql.shuffle.partitions", str(parallelism))
        # Whole-stage code generation compiles each stage's Java before it runs: seconds of
        # CPU for a report's many small stages, more than it saves on them. Interpreted,
        # the same values (only the plan's execution changes).
        spark.conf.set("spark.sql.codegen.wholeStage", "false")
        # Adaptive execution plans each stage again once the one before it has run: for a
        # report's many small stages the planning costs more than it finds (the corpus on
        # 2 cores: about 2.8 s a computation with it, 2.4 s without; the same values).
        spark.conf.set("spark.sql.adaptive.enabled", "false")
    try:
        yield spark
    finally:
        spark.stop()


def _checks(spark: SparkSession) -> Checks:
    row = spark.sql(query(Query.CHECKS, Dialect.SPARK)).collect()[0]
    return Checks(*row)


def statistics_of(spark: SparkSession) -> list[AgentStats]:
    """The statistics query over the view ``runs``, its materialized expressions first: each
    computed once and kept as a view of its name (Spark would inline it everywhere it is
    read: on the corpus, 149 shuffles and 31 reads of the input become 42 and 2, and the
    query takes half the time), the views dropped at the end. Kept by a local checkpoint,
    not a cache: a cached plan is matched to a later one by its result, which Spark never
    assumes for the input order's ``monotonically_increasing_id``. (A local checkpoint
    lives in the executors' block stores, as a cache does.)"""
    steps, rest = materialized_steps(Query.STATISTICS, Dialect.SPARK)
    try:
        for name, step in steps:
            spark.sql(step).localCheckpoint(eager=True).createOrReplaceTempView(name)
        return agent_stats(spark.sql(rest).collect())
    finally:
        for name, _ in steps:
            spark.catalog.dropTempView(name)


def json_stats(spark: SparkSession, path: Path, proof: Proof) -> list[AgentStats] | None:
    """The stats of a proven-clean JSON Lines log; ``None`` where Spark reads it otherwise
    than the proof did, or fails on it (a gzip file must end in ``.gz`` for Spark)."""
    from pyspark.sql.functions import monotonically_increasing_id

    try:
        frame = (
            spark.read.schema(_JSON_SCHEMA)
            .option("mode", "FAILFAST")
            .json(str(path))
            .withColumn(INPUT_ORDER, monotonically_increasing_id())
        )
        frame.createOrReplaceTempView("runs")
        checks = _checks(spark)
        if checks.runs != proof.runs or not checks.clean:
            return None
        return statistics_of(spark)
    except Exception:  # any failure of the JVM: the Python reader reads the log
        return None


def _relation_stats(spark: SparkSession, frame: DataFrame, order: str) -> list[AgentStats]:
    types = {name: kind.upper() for name, kind in frame.dtypes}
    frame.createOrReplaceTempView("given_runs")
    try:
        select = runs_select(types, order, "given_runs", CASTS)
    except TableUnfitError:
        select = None
    if select is not None:
        spark.sql(select).createOrReplaceTempView("runs")
        if _checks(spark).clean:
            return statistics_of(spark)
    names = [name for name in types if name != order]
    instants = CASTS.accepted[ColumnKind.INSTANT]
    listed = [
        CASTS.instant_text.format(column=f"`{name}`") if types[name] in instants else f"`{name}`"
        for name in names
    ]
    rows = spark.sql(
        f"SELECT {', '.join(listed)} FROM given_runs ORDER BY `{order}`"
    ).toLocalIterator()
    return read_stats(json_lines(_values(rows), names, frozenset()))


def _values(rows: Iterator[Any]) -> Iterator[tuple[Any, ...]]:
    for row in rows:
        yield tuple(row)


def table_stats(spark: SparkSession, path: Path) -> list[AgentStats]:
    """The stats of a Parquet log (its order ``input_order``, else its rows' in the file);
    where a check fails, the Python reader's over its rows (which raises
    :class:`scoring.errors.InputError` naming each problem)."""
    frame = spark.read.parquet(str(path))
    if INPUT_ORDER not in frame.columns:
        # The files in order of their names (a folder of them, as Spark writes one), each in
        # its rows' order.
        from pyspark.sql import functions as spark_functions
        from pyspark.sql.window import Window

        order = Window.orderBy(spark_functions.col(_FILE_PATH), spark_functions.col(_ROW_INDEX))
        position = spark_functions.row_number().over(order)
        frame = frame.select("*", position.alias(_FILE_ORDER))
        return _relation_stats(spark, frame, _FILE_ORDER)
    return _relation_stats(spark, frame, INPUT_ORDER)


def named_table_stats(spark: SparkSession, name: str) -> list[AgentStats] | None:
    """The stats of the table ``name`` (with an ``input_order`` column); ``None`` if the
    catalog has no such table, or ``name`` cannot name one (the command then says it cannot
    read the path)."""
    from pyspark.errors import AnalysisException

    try:
        exists = spark.catalog.tableExists(name)
    except AnalysisException:  # not a table's name at all (a path that is not there)
        return None
    if not exists:
        return None
    frame = spark.table(name)
    if INPUT_ORDER not in frame.columns:
        return None
    return _relation_stats(spark, frame, INPUT_ORDER)
