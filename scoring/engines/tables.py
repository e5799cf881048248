"""The table contract of the engines: the relation ``runs`` the SQL reads.

A Parquet file or a table holds one run a row, in these columns (names as in the JSON
Lines log; a column left out is null in every row, as a key left out of a line is):

==============  =====================================  ====================================
column          type                                   rule
==============  =====================================  ====================================
run_id          string                                 required, unique
agent_id        string                                 required
task_id         string                                 required
status          string                                 queued, running, completed, failed,
                                                       timeout
success         boolean                                null: unknown
latency_ms      double (or an integer type)            ≥ 0; required on completed runs
cost_usd        double (or an integer type)            ≥ 0; required on completed runs
steps           an integer type                        ≥ 0
finished_at     string (RFC 3339) or timestamp with    required on terminal runs
                time zone
input_order     an integer type                        unique; the input order
==============  =====================================  ====================================

A timestamp without a time zone is taken as UTC. ``input_order`` is the log's order:
among runs that finish at one instant a later one is newer, and an error's "line N" is
the N-th run in that order. A Parquet file may leave it out: its rows' order in the file
is then the input order. A table (which has no row order) must carry it.

A relation with any other column, or a column of another type, is not scored by the
engine: its rows are handed to the Python reader as JSON Lines, in input order
(:func:`json_lines`), which names every problem as it would in the log.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping, Sequence
from datetime import UTC, datetime
from decimal import Decimal
from enum import StrEnum
from typing import Any, NamedTuple

#: The input-order column.
INPUT_ORDER = "input_order"
#: The files of a folder of Parquet (its input order: by file name, then by row).
PARQUET_SUFFIX = ".parquet"


class ColumnKind(StrEnum):
    """What a column of the contract holds."""

    TEXT = "text"
    BOOLEAN = "boolean"
    NUMBER = "number"
    INTEGER = "integer"
    INSTANT = "instant"


#: The run columns, in the order the SQL selects them, and what each holds.
RUN_COLUMNS: dict[str, ColumnKind] = {
    "run_id": ColumnKind.TEXT,
    "agent_id": ColumnKind.TEXT,
    "task_id": ColumnKind.TEXT,
    "status": ColumnKind.TEXT,
    "success": ColumnKind.BOOLEAN,
    "latency_ms": ColumnKind.NUMBER,
    "cost_usd": ColumnKind.NUMBER,
    "steps": ColumnKind.INTEGER,
    "finished_at": ColumnKind.INSTANT,
}
#: Columns that must be there (the others may be left out).
REQUIRED_COLUMNS = ("run_id", "agent_id", "task_id", "status")


class TableUnfitError(Exception):
    """The relation's columns are not the table contract's."""


class Checks(NamedTuple):
    """The one row of ``checks.sql``."""

    runs: int
    repeated_run_ids: int
    repeated_orders: int
    broken_runs: int | None

    @property
    def clean(self) -> bool:
        """Whether every rule holds and there is a run to score."""
        return (
            self.runs > 0
            and not self.repeated_run_ids
            and not self.repeated_orders
            and not self.broken_runs
        )


class Casts(NamedTuple):
    """How an engine names the types of the contract, and writes its conversions."""

    #: The engine's type names (upper case) each kind accepts.
    accepted: Mapping[ColumnKind, frozenset[str]]
    #: The engine's name of each type the SQL reads a kind as.
    target: Mapping[ColumnKind, str]
    #: An instant's text, RFC 3339 in UTC, from a timestamp with time zone: a format with
    #: ``{column}``.
    instant_text: str


def _kind(types: Mapping[str, str], name: str, casts: Casts) -> ColumnKind | None:
    kind = RUN_COLUMNS[name]
    found = types[name].upper()
    if found in casts.accepted[kind]:
        return kind
    if kind is ColumnKind.INSTANT and found in casts.accepted[ColumnKind.TEXT]:
        return ColumnKind.TEXT
    return None


def runs_select(types: Mapping[str, str], order: str, source: str, casts: Casts) -> str:
    """The ``SELECT`` of the relation ``runs`` over ``source`` whose columns have ``types``
    (name: the engine's type), its input order the column ``order``; raises
    :class:`TableUnfitError` when a column is unknown or of another type, or a required one is
    missing."""
    known = {*RUN_COLUMNS, order}
    if any(name not in known for name in types) or any(n not in types for n in REQUIRED_COLUMNS):
        raise TableUnfitError
    selected = [f"{order} AS {INPUT_ORDER}"]
    for name, kind in RUN_COLUMNS.items():
        if name not in types:
            selected.append(f"CAST(NULL AS {casts.target[kind]}) AS {name}")
            continue
        found = _kind(types, name, casts)
        if found is None:
            raise TableUnfitError
        if found is ColumnKind.INSTANT:
            selected.append(f"{casts.instant_text.format(column=name)} AS {name}")
        else:
            target = casts.target[ColumnKind.TEXT if kind is ColumnKind.INSTANT else kind]
            selected.append(f"CAST({name} AS {target}) AS {name}")
    return f"SELECT {', '.join(selected)} FROM {source}"


# Columns of whole numbers by the contract.
_WHOLE_NUMBERS = frozenset(n for n, kind in RUN_COLUMNS.items() if kind is ColumnKind.INTEGER)


def _json_value(value: object, is_json: bool, whole: bool) -> object:
    if is_json and isinstance(value, str):
        return json.loads(value)  # a JSON column: the value as the log wrote it
    if whole and isinstance(value, float) and value.is_integer():
        # A whole number in a column of doubles where the contract wants an integer
        # (``steps`` made a double by one 3.5): as the log most likely wrote it.
        return int(value)
    if isinstance(value, Decimal):
        return float(value) if value != value.to_integral_value() else int(value)
    if isinstance(value, datetime):
        # A timestamp without a time zone is taken as UTC (as the SQL takes it).
        aware = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
        return aware.astimezone(UTC).isoformat().replace("+00:00", "Z")
    return value


def json_lines(
    rows: Iterable[Sequence[Any]], names: Sequence[str], json_columns: frozenset[str]
) -> Iterator[bytes]:
    """Each row as a JSON Lines record of its columns ``names``, a null column left out
    (as a key a line leaves out), a column of JSON text (``json_columns``) as the value it
    writes: what the Python reader reads a relation as."""
    for row in rows:
        record = {
            name: _json_value(value, name in json_columns, name in _WHOLE_NUMBERS)
            for name, value in zip(names, row, strict=True)
            if value is not None
        }
        # NaN and Infinity written as JSON's extension (json.dumps's default), so that the
        # reader names them as the finite-number rule.
        text = json.dumps(record, ensure_ascii=False, allow_nan=True)
        yield text.encode("utf-8", "surrogatepass") + b"\n"
