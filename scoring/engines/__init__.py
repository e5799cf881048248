"""Engines: the statistics of a run log computed where the runs are, in SQL.

``scoring report --engine duckdb|spark`` scores the :class:`~scoring.report.stats.AgentStats`
that an engine computes with the one SQL source (:mod:`scoring.engines.sql`), with the
same :func:`scoring.report.report_of` as the Python reader's. The contract: for every
input, the same stdout, stderr and exit status as ``--engine python``. It holds by
construction:

- a JSON Lines log (plain or gzip) is scored by the engine only once it is proven clean:
  by DuckDB itself (every value's JSON type in ``json_runs.sql``, the run rules in
  ``checks.sql``, with the bytes it cannot see counted in Python meanwhile:
  :func:`scoring.engines.proof.count_bytes`), or, for Spark and for a log whose bytes
  the counting cannot vouch for (an escape, a carriage return), by the Python reader's
  own validation (:func:`scoring.engines.proof.prove`) and ``checks.sql``; otherwise
  :func:`engine_stats` says so (``None``) and the log is read by the Python reader,
  which names every problem as it always does;
- a Parquet file or a table is checked by ``checks.sql`` (the run rules over typed
  columns); one that breaks a rule, or whose columns are not the table contract's
  (:mod:`scoring.engines.tables`), is handed to the Python reader as JSON Lines in its
  input order, so that "line N" is the N-th run in that order;
- every statistic is exact (integer sums in 10⁻⁹ units, the others as the engine's
  doubles read as written), so the one scorer scores the same numbers.
"""

from __future__ import annotations

import os
from enum import StrEnum
from pathlib import Path

from scoring.engines.tables import PARQUET_SUFFIX
from scoring.intervals.quantiles import load_special_functions
from scoring.report.byte_input import GZIP_MAGIC
from scoring.report.stats import AgentStats

#: The environment variable naming the Spark master (``--spark-master`` wins over it).
SPARK_MASTER_VARIABLE = "SCORING_SPARK_MASTER"
#: Spark's master when none is named: local mode, on every core of this machine.
SPARK_LOCAL_MASTER = "local[*]"
_PARQUET_MAGIC = b"PAR1"


class Engine(StrEnum):
    """Where ``scoring report`` computes the statistics."""

    PYTHON = "python"
    DUCKDB = "duckdb"
    SPARK = "spark"


class EngineMissingError(Exception):
    """The engine's extra is not installed."""

    def __init__(self, engine: Engine) -> None:
        super().__init__(
            f"the {engine.value} engine is not installed: "
            f'pip install "agent-scoring-methodology[{engine.value}]"'
        )


def spark_master(option: str | None) -> str:
    """The Spark master: the option, else the environment variable, else local mode."""
    return option or os.environ.get(SPARK_MASTER_VARIABLE) or SPARK_LOCAL_MASTER


def _has_magic(path: Path, magic: bytes) -> bool:
    """Whether the file at ``path`` starts with ``magic`` (``False`` if it cannot be read)."""
    try:
        with path.open("rb") as head:
            return head.read(len(magic)) == magic
    except OSError:
        return False


def _is_parquet(path: Path) -> bool:
    """A Parquet file, or a folder of them (as Spark writes one)."""
    if path.is_dir():
        return any(path.rglob(f"*{PARQUET_SUFFIX}"))
    return _has_magic(path, _PARQUET_MAGIC)


def engine_stats(engine: Engine, path: str, master: str | None = None) -> list[AgentStats] | None:
    """The stats of every agent of the log at ``path``, computed by ``engine``; ``None``
    where the Python reader must read it (not proven clean, not a file the engine reads).

    ``path`` is a JSON Lines file (plain or gzip), a Parquet file or a folder of them, or,
    for Spark, a table name. Raises :class:`scoring.errors.InputError` for a Parquet file
    or table that breaks a rule (the Python reader's messages), and
    :class:`EngineMissingError` without the extra.
    """
    from scoring.engines.proof import count_bytes, prove

    file = Path(path)
    if engine is Engine.PYTHON or path == "-":
        return None
    if engine is Engine.DUCKDB:
        try:
            from scoring.engines import duckdb_engine
        except ImportError:
            raise EngineMissingError(engine) from None
        if _is_parquet(file):
            return duckdb_engine.table_stats(file)
        if not file.is_file():
            return None  # the Python reader says why it cannot be read
        computing = duckdb_engine.JsonStats(file, _has_magic(file, GZIP_MAGIC))
        counts = count_bytes(file)
        if counts is not None:
            # While DuckDB reads: the scoring's one slow import (on a second core, free).
            load_special_functions()
            return computing.result(counts)
        # An escape, a carriage return, a binary head: the Python reader's validation says.
        proof = prove(file)
        if not proof.clean:
            computing.cancel()
            return None
        return computing.result(proof)
    try:
        from scoring.engines import spark_engine
    except ImportError:
        raise EngineMissingError(engine) from None
    with spark_engine.session(spark_master(master)) as spark:
        if _is_parquet(file):
            return spark_engine.table_stats(spark, file)
        if not file.exists():
            return spark_engine.named_table_stats(spark, path)
        proof = prove(file)
        return spark_engine.json_stats(spark, file, proof) if proof.clean else None
