"""The DuckDB engine: the statistics of a run log computed by ``statistics.sql`` in DuckDB.

Inputs: a JSON Lines log (plain or gzip), read and proven clean by DuckDB itself
(``json_runs.sql`` and ``checks.sql``), with the bytes it cannot see
counted in Python meanwhile (:func:`scoring.engines.proof.count_bytes`); or a Parquet file
with the table contract (:mod:`scoring.engines.tables`), its input order the
``input_order`` column or, without one, the order of its rows in the file.
"""

from __future__ import annotations

import contextlib
import tempfile
import threading
from collections.abc import Iterator
from importlib.resources import files
from pathlib import Path
from typing import Any, NamedTuple

import duckdb

from scoring.engines.assemble import agent_stats
from scoring.engines.proof import ByteCounts, Proof
from scoring.engines.sql import Query, source
from scoring.engines.tables import (
    INPUT_ORDER,
    PARQUET_SUFFIX,
    RUN_COLUMNS,
    Casts,
    Checks,
    ColumnKind,
    TableUnfitError,
    json_lines,
    runs_select,
)
from scoring.report.read import read_stats
from scoring.report.stats import AgentStats

_INTEGERS = frozenset(
    {
        "TINYINT",
        "SMALLINT",
        "INTEGER",
        "BIGINT",
        "UTINYINT",
        "USMALLINT",
        "UINTEGER",
        "UBIGINT",
        "HUGEINT",
    }
)
#: DuckDB's names of the table contract's types.
CASTS = Casts(
    accepted={
        ColumnKind.TEXT: frozenset({"VARCHAR"}),
        ColumnKind.BOOLEAN: frozenset({"BOOLEAN"}),
        ColumnKind.NUMBER: frozenset({"DOUBLE"}) | _INTEGERS,
        ColumnKind.INTEGER: _INTEGERS,
        ColumnKind.INSTANT: frozenset({"TIMESTAMP WITH TIME ZONE", "TIMESTAMP"}),
    },
    target={
        ColumnKind.TEXT: "VARCHAR",
        ColumnKind.BOOLEAN: "BOOLEAN",
        ColumnKind.NUMBER: "DOUBLE",
        ColumnKind.INTEGER: "BIGINT",
        ColumnKind.INSTANT: "VARCHAR",
    },
    instant_text="strftime(CAST({column} AS TIMESTAMP), '%Y-%m-%dT%H:%M:%S.%fZ')",
)
#: What DuckDB keeps in memory before it spills to a temporary folder (the window's sort
#: of 10M runs would take more): the whole command then stays under 2 GiB.
DUCKDB_MEMORY_LIMIT_MIB = 1024
#: DuckDB's threads for a JSON Lines log: one, which writes its rows in the file's order
#: (see JsonStats._run).
JSON_THREADS = 1
# The column read_parquet adds: the row's position in the file.
_FILE_ROW = "file_row_number"
# Rows fetched from DuckDB at a time when a table is handed to the Python reader.
_FETCH_ROWS = 65536
# The run's keys, as a DuckDB list, in the order the reading of a JSON Lines log expects them.
_KEYS = "[" + ", ".join(f"'{name}'" for name in RUN_COLUMNS) + "]"
# What json_runs.sql counts beside checks.sql: the lines whose values are not of their
# types, and the commas a clean log writes: between the keys of each line, and inside its
# strings (looked for in the few that hold one).
_STRINGS = [n for n, kind in RUN_COLUMNS.items() if kind in (ColumnKind.TEXT, ColumnKind.INSTANT)]
_STRING_COMMAS = " + ".join(
    f"CASE WHEN contains({name}, ',') THEN strlen({name}) - strlen(replace({name}, ',', '')) "
    "ELSE 0 END"
    for name in _STRINGS
)
_JSON_CHECKS = (
    "SELECT checks.runs, checks.repeated_run_ids, 0, checks.broken_runs, typed.* "
    "FROM ({checks}) AS checks, "
    "(SELECT COUNT(*) FILTER (WHERE NOT typed), "
    f"SUM(keys - 1 + COALESCE({_STRING_COMMAS}, 0)) FROM runs) AS typed"
)
# The input order of a JSON Lines log is the line's position, unique by construction: its
# count of repeats is not computed (DuckDB would, for a column the query does not select:
# a tenth of a second on 1M runs).
_REPEATED_ORDERS = "COUNT(*) - COUNT(DISTINCT input_order) AS repeated_orders"


def _json_checks() -> str:
    """``checks.sql`` and the counts of ``json_runs.sql``, for a JSON Lines log."""
    checks = source(Query.CHECKS)
    if _REPEATED_ORDERS not in checks:
        raise ValueError(f"checks.sql no longer counts repeated orders as {_REPEATED_ORDERS!r}")
    return _JSON_CHECKS.format(checks=checks.replace(_REPEATED_ORDERS, "0 AS repeated_orders"))


def _connect(spill: Path) -> duckdb.DuckDBPyConnection:
    """An in-memory database that spills to the folder ``spill`` past
    ``DUCKDB_MEMORY_LIMIT_MIB``, its timestamps in UTC (``CASTS.instant_text``), silent."""
    con = duckdb.connect(":memory:")
    # No progress bar: a query that runs for seconds would draw one on stderr, which must
    # be what --engine python writes.
    con.execute("SET enable_progress_bar = false")
    con.execute("SET TimeZone = 'UTC'")
    con.execute(f"SET memory_limit = '{DUCKDB_MEMORY_LIMIT_MIB}MiB'")
    con.execute(f"SET temp_directory = {_sql_text(str(spill))}")
    return con


def _sql_text(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"


def _checks(con: duckdb.DuckDBPyConnection) -> Checks:
    row = con.execute(source(Query.CHECKS)).fetchone()
    if row is None:
        raise duckdb.InvalidInputException("the checks returned no row")
    return Checks(*row)


def _statistics(con: duckdb.DuckDBPyConnection) -> list[AgentStats]:
    return agent_stats(con.execute(source(Query.STATISTICS)).fetchall())


def json_runs_sql(path: Path, gzip: bool) -> str:
    """``json_runs.sql`` over the JSON Lines log at ``path``."""
    compression = "gzip" if gzip else "uncompressed"
    reader = (
        f"read_json({_sql_text(str(path))}, format = 'newline_delimited', "
        f"compression = '{compression}', records = false, "
        "columns = {m: 'MAP(VARCHAR, JSON)'})"
    )
    text = files(__package__).joinpath("json_runs.sql").read_text(encoding="utf-8")
    return text.replace("{keys}", _KEYS).replace("{reader}", reader)


class _JsonOutcome(NamedTuple):
    checks: Checks
    commas: int  # the commas of a clean log of these runs
    rows: list[Any]


class JsonStats:
    """The stats of a JSON Lines log read and checked by DuckDB in a thread of its own,
    while the caller counts its bytes (DuckDB runs outside the GIL).

    :meth:`result` gives them once the bytes are counted (or, where the counting cannot
    tell, the Python reader's validation has proven the log clean), if every check held
    (``None`` if one did not, or DuckDB failed on the log: a line it cannot read);
    :meth:`cancel` stops DuckDB when the log is not clean, and nothing it computed is
    used.
    """

    def __init__(self, path: Path, gzip: bool) -> None:
        self._spill = tempfile.TemporaryDirectory(prefix="scoring-duckdb-")
        self._con = _connect(Path(self._spill.name))
        self._outcome: _JsonOutcome | None = None
        self._thread = threading.Thread(target=self._run, args=(path, gzip), daemon=True)
        self._thread.start()

    def _run(self, path: Path, gzip: bool) -> None:
        con = self._con
        try:
            # The input order is the line's position: the rows of a table written in the
            # scan's order, on one thread (json_runs.sql). On a busy machine a second
            # DuckDB thread also cost more CPU time and wall time than one
            # (benchmarks/bench_engines.py); the caller counts the bytes meanwhile.
            con.execute("SET preserve_insertion_order = true")
            con.execute(f"SET threads = {JSON_THREADS}")
            con.execute(json_runs_sql(path, gzip))
            row = con.execute(_json_checks()).fetchone()
            if row is None:
                return
            checks, (untyped, commas) = Checks(*row[:4]), row[4:]
            if not checks.clean or untyped:
                return
            # Only DuckDB's rows here: they are read as stats once the bytes are counted.
            rows = con.execute(source(Query.STATISTICS)).fetchall()
            self._outcome = _JsonOutcome(checks, int(commas), rows)
        except duckdb.Error:
            self._outcome = None
        finally:
            con.close()
            self._spill.cleanup()

    def result(self, counts: ByteCounts | Proof) -> list[AgentStats] | None:
        """The stats, if DuckDB read one run a line of the ``counts``, and the lines'
        commas are all between their keys or inside their strings (none trailing); or, for
        a log the Python reader's validation has proven clean, as many runs as the
        ``proof`` counted."""
        self._thread.join()
        outcome = self._outcome
        if outcome is None:
            return None
        if isinstance(counts, Proof):
            agrees = outcome.checks.runs == counts.runs
        else:
            agrees = (outcome.checks.runs, outcome.commas) == (counts.lines, counts.commas)
        return agent_stats(outcome.rows) if agrees else None

    def cancel(self) -> None:
        """Stop DuckDB (the log is not clean) and wait for its thread."""
        if self._thread.is_alive():
            with contextlib.suppress(duckdb.Error):  # already closed: the thread has ended
                self._con.interrupt()
        self._thread.join()


def table_stats(path: Path) -> list[AgentStats]:
    """The stats of a Parquet log. Where its columns are not the contract's or a check
    fails, its rows are read by the Python reader, as JSON Lines in input order, which
    raises :class:`scoring.errors.InputError` naming each problem (or scores them)."""
    with (
        tempfile.TemporaryDirectory(prefix="scoring-duckdb-") as spill,
        _connect(Path(spill)) as con,
    ):
        scan = f"read_parquet({_sql_text(str(path))}, file_row_number = true)"
        if path.is_dir():
            # A folder of Parquet files: in order of their names, each in its rows' order.
            files = _sql_text(str(path / "**" / f"*{PARQUET_SUFFIX}"))
            scan = (
                f"(SELECT * EXCLUDE (filename, {_FILE_ROW}), row_number() OVER "
                f"(ORDER BY filename, {_FILE_ROW}) AS {_FILE_ROW} FROM read_parquet({files}, "
                f"file_row_number = true, filename = true))"
            )
        described = con.execute(f"DESCRIBE SELECT * FROM {scan}").fetchall()
        types = {str(row[0]): str(row[1]) for row in described}
        order = INPUT_ORDER if INPUT_ORDER in types else _FILE_ROW
        columns = {name: kind for name, kind in types.items() if name not in (order, _FILE_ROW)}
        try:
            select = runs_select({**columns, order: types[order]}, order, scan, CASTS)
        except TableUnfitError:
            select = None
        if select is not None:
            con.execute(f"CREATE TEMP VIEW runs AS {select}")
            if _checks(con).clean:
                return _statistics(con)
        names = list(columns)
        json_columns = frozenset(n for n, kind in columns.items() if kind.upper() == "JSON")
        listed = ", ".join('"' + name.replace('"', '""') + '"' for name in names)
        result = con.execute(f"SELECT {listed} FROM {scan} ORDER BY {order}")
        if list(json_columns) == names and len(names) == 1:
            # One column of JSON: each row is a whole line of the log (what DuckDB makes of
            # a log whose lines are not all objects), read as that line.
            return read_stats(f"{row[0]}\n".encode() for row in _batches(result))
        return read_stats(json_lines(_batches(result), names, json_columns))


def _batches(result: duckdb.DuckDBPyConnection) -> Iterator[tuple[Any, ...]]:
    while batch := result.fetchmany(_FETCH_ROWS):
        yield from batch
