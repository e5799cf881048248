"""A registry of every formula, each with its LaTeX, its symbols and its golden points
written next to the function.

The site renders the LaTeX (to MathML, at build time) and the contracts snapshot records
it, so the formula a reader sees is owned by the code that computes it. The drift check
(``contracts.check.formulas``) evaluates that very LaTeX at every golden point and requires it to
equal what the function returns, so the formula a reader sees is also the one that runs.

How to register a formula
-------------------------

Write a pure function in its module of ``scoring/`` and put :func:`formula` on it::

    @formula(
        "radar.determinism",                    # stable dotted name: the snapshot's key
        title="Task determinism",                # shown under the formula on the page
        latex=r"d(q) = (2q - 1)^2",              # what the page renders (constants filled in
                                                 # with tex_number, never typed)
        symbols={"q": arg("q")},                 # every symbol of the LaTeX, bound explicitly
        golden=(                                 # the golden points: anchors, edges, halfway
            point("0", q=Fraction(0)),           # points; each is evaluated by the code
            point("1/2", q=Fraction(1, 2)),      # and by the LaTeX, and the two must agree
            point("1", q=Fraction(1)),
        ),
    )
    def determinism(q: Number) -> Fraction:
        '''... a docstring with the formula, "Returns a value in [0, 1]" and a doctest ...'''

Symbols (the keys of ``symbols``) are written as in the LaTeX and each is bound to a
value: the bindings (:func:`arg`, :func:`const`, :func:`uses`, :func:`rows`, ...) are
:mod:`scoring.bindings`'s, re-exported here so that a formula's module imports one place.

A formula that is prose by nature (its LaTeX says "a catastrophic safeguard failed") is
registered with ``descriptive="why it cannot be evaluated"``; its symbols, if any, are only
said for the reader (:func:`words`, or :func:`const` and :func:`uses` for a constant or
another formula), since nothing evaluates them; its golden
points are still computed and recorded, so its code cannot change unnoticed. Keep these few:
they are listed on the contract page.

Golden points: ``point(label, **inputs)`` (the snapshot names it ``<formula>@<label>``);
:func:`scoring.formulas.curves.curve_points` gives a curve's anchors, halfway points and one point
beyond each end.
A formula with no golden point is refused by ``python -m contracts update``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, NotRequired, ParamSpec, TypedDict, TypeVar

from scoring.bindings import (
    Arg,
    Attribute,
    Binding,
    Column,
    Const,
    Count,
    Entry,
    Fixed,
    Index,
    Keep,
    Rows,
    Runs,
    SequenceOf,
    Total,
    Uses,
    Words,
    arg,
    at_least,
    attribute,
    column,
    const,
    count,
    entry,
    fixed,
    index,
    present,
    rows,
    runs_of,
    sequence,
    total,
    uses,
    words,
)
from scoring.numeric import number_text

#: The bindings are re-exported: a formula's module imports them from here.
__all__ = [
    "FORMULAS",
    "Arg",
    "Attribute",
    "Binding",
    "Column",
    "Const",
    "Count",
    "Entry",
    "Fixed",
    "Formula",
    "FormulaParts",
    "Index",
    "Keep",
    "Point",
    "Rows",
    "Runs",
    "ScoringError",
    "SequenceOf",
    "Total",
    "Uses",
    "Words",
    "arg",
    "at_least",
    "attribute",
    "column",
    "const",
    "count",
    "entry",
    "fixed",
    "formula",
    "index",
    "point",
    "present",
    "rows",
    "runs_of",
    "sequence",
    "tex_number",
    "total",
    "uses",
    "words",
]

P = ParamSpec("P")
R = TypeVar("R")


# --- Golden points ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Point:
    """One golden point: a label (``<formula>@<label>`` in the snapshot) and the inputs."""

    label: str
    inputs: Mapping[str, Any]


def point(label: str, **inputs: Any) -> Point:
    """A golden point called ``label`` with the function's keyword ``inputs``."""
    return Point(label, inputs)


# --- The registry -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Formula:
    """A registered formula: stable dotted name, LaTeX, title, the function, the bindings
    of its symbols, its golden points, and why it is descriptive (``None`` if it is not)."""

    name: str
    title: str
    latex: str
    function: Callable[..., object]
    symbols: Mapping[str, Binding] = field(default_factory=dict)
    golden: tuple[Point, ...] = ()
    descriptive: str | None = None

    @property
    def qualname(self) -> str:
        """Importable location of the function, e.g.
        ``scoring.formulas.curves.piecewise_linear``."""
        return f"{self.function.__module__}.{self.function.__qualname__}"


FORMULAS: dict[str, Formula] = {}


def tex_number(value: Decimal | int) -> str:
    """A constant as a LaTeX numeral, so that a formula shows the number the code holds:
    ``Decimal("100")`` is ``100``, ``Decimal("0.10")`` is ``0.1`` (no exponent, no sign
    of precision the reader would take for a different value).

    >>> tex_number(Decimal("100")), tex_number(Decimal("0.10")), tex_number(5)
    ('100', '0.1', '5')
    """
    return number_text(value)


class ScoringError(ValueError):
    """A formula was called outside its domain; the message names the rule."""


class FormulaParts(TypedDict):
    """The keyword arguments of :func:`formula`, for a helper that builds them alike for
    several formulas (each still registered by its own ``@formula("<name>", **parts)``)."""

    title: str
    latex: str
    symbols: NotRequired[Mapping[str, Binding] | None]
    golden: NotRequired[Sequence[Point]]
    descriptive: NotRequired[str | None]


def formula(
    name: str,
    *,
    title: str,
    latex: str,
    symbols: Mapping[str, Binding] | None = None,
    golden: Sequence[Point] = (),
    descriptive: str | None = None,
) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Register ``function`` under ``name`` with its LaTeX, the bindings of the LaTeX's
    symbols, its golden points and, for a formula that is prose by nature, why."""

    def register(function: Callable[P, R]) -> Callable[P, R]:
        if name in FORMULAS:
            raise ScoringError(f"formula {name!r} is registered twice")
        FORMULAS[name] = Formula(
            name, title, latex, function, dict(symbols or {}), tuple(golden), descriptive
        )
        return function

    return register
