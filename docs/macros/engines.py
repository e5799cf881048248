"""The page "Scores where your runs are": the table contract of the engines, rendered from
``scoring.engines.tables`` and the engines' type names (the SQL itself is printed by
``python -m scoring sql``, run while the site is built, through the ``cli`` macro)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from macros.markup import esc, table

if TYPE_CHECKING:
    from macros.site import Site

# What each kind of column holds, in words (the types are the engines' own names).
_HOLDS = {
    "text": "a string",
    "boolean": "true, false or null",
    "number": "a number",
    "integer": "a whole number",
    "instant": "an RFC 3339 string, or a timestamp (UTC without a zone)",
}


def _types(names: frozenset[str]) -> str:
    return ", ".join(f"<code>{esc(name)}</code>" for name in sorted(names))


def table_contract(site: Site) -> str:
    """The columns of the relation ``runs``: what each holds, which DuckDB and Spark types
    it may have, whether it is required; then the input-order column."""
    from scoring.engines.tables import INPUT_ORDER, REQUIRED_COLUMNS, RUN_COLUMNS, ColumnKind

    casts = {}
    try:
        from scoring.engines.duckdb_engine import CASTS as DUCKDB_CASTS

        casts["DuckDB"] = DUCKDB_CASTS
    except ImportError:  # the duckdb extra is not installed where the site is built
        pass
    try:
        from scoring.engines.spark_engine import CASTS as SPARK_CASTS

        casts["Spark"] = SPARK_CASTS
    except ImportError:  # nor the spark extra
        pass
    rows = []
    for name, kind in RUN_COLUMNS.items():
        accepted = [
            _types(
                engine_casts.accepted[kind]
                | (engine_casts.accepted[ColumnKind.TEXT] if kind is ColumnKind.INSTANT else set())
            )
            for engine_casts in casts.values()
        ]
        required = "required" if name in REQUIRED_COLUMNS else "may be left out (null)"
        rows.append([f"<code>{esc(name)}</code>", esc(_HOLDS[kind.value]), *accepted, required])
    rows.append(
        [
            f"<code>{esc(INPUT_ORDER)}</code>",
            "unique whole numbers: the input order",
            *[_types(c.accepted[ColumnKind.INTEGER]) for c in casts.values()],
            "a table: required; a Parquet file: its rows' order when left out",
        ]
    )
    headers = ["column", "holds", *(f"{engine} types" for engine in casts), "rule"]
    return table("engines:table-contract", headers, rows)


MACROS: dict[str, Callable[..., str]] = {"table_contract": table_contract}
