"""The one SQL source of the statistics, and its translation into each dialect.

Two queries, written once in DuckDB's dialect beside this module: ``checks.sql`` (the input
rules of :class:`scoring.models.RunRecord` over a typed relation ``runs``, as counts) and
``statistics.sql`` (everything :class:`scoring.report.stats.AgentStats` holds, per agent and
task). The methodology's numbers are written into them from :mod:`scoring.constants` and
:mod:`scoring.report.read` when they are rendered (:func:`source`), never typed in the SQL.

Spark's is sqlglot's translation of that source
(:func:`scoring.engines.dialects.query`), corrected by
the project's own rules where sqlglot writes what the target does not run
(:data:`scoring.engines.dialects.DIALECT_RULES`): a rule is a rewrite of sqlglot's tree,
so the query a dialect gets is always the DuckDB source's tree with those nodes replaced.
sqlglot is imported only for a translation (its import takes longer than a small report).
"""

from __future__ import annotations

import sys
from enum import StrEnum
from importlib.resources import files

from scoring.constants import RADAR_WINDOW_RUNS
from scoring.report.read import CALENDAR_PATTERN

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
#: The equal parts of an agent's span of instants the radar window is first cut by (not a
#: methodology number: any count gives the same window; more cut a spread log closer).
WINDOW_PARTS = 1024


class Dialect(StrEnum):
    """The SQL dialects ``scoring sql`` prints (the source is DuckDB's): only those an
    engine runs in the tests (``tests/engines/``), so that every query printed is one that
    has run."""

    DUCKDB = "duckdb"
    SPARK = "spark"


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
        window_parts=WINDOW_PARTS,
        largest_double=repr(LARGEST_DOUBLE),
        calendar=_calendar(),
        units_per_one=UNITS_PER_ONE,
        exact_units_limit=EXACT_UNITS_LIMIT,
        fifteen_digits=10**EXACT_SIGNIFICANT_DIGITS,
        candidate_limit=EXACT_UNITS_LIMIT // UNITS_PER_ONE,
    )
