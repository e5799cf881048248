"""A registry of every formula, each with its LaTeX, its symbols and its golden points
written next to the function.

The site renders the LaTeX (to MathML, at build time) and the contracts snapshot records
it, so the formula a reader sees is owned by the code that computes it. The drift check
(``contracts.formulas``) evaluates that very LaTeX at every golden point and requires it to
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

Symbols (the keys of ``symbols``) are written as in the LaTeX: ``"p"``, ``r"n_{\\min}"``,
``r"\\mathrm{consistency}"``, ``r"\\text{passes}"``, ``r"\\tilde{t}"``. Each is bound to
one of:

- :func:`arg`: an argument of the function (``default=`` a binding used when the golden
  point leaves it out; ``unless_below=(count_argument, "CONSTANT")``: undefined, as the
  code's ``None``, while that count is below the constant);
- :func:`const`: a constant of ``scoring.constants``, by its Python name;
- :func:`fixed`: a value the caller guarantees, with the reason (rare);
- :func:`uses`: another registered formula, called with positional ``parameters`` and the
  rest bound (``f_{\\mathrm{latency}}(x)`` is the curve on the latency anchors);
- for sums and sets: :func:`rows` (a list argument as a set of rows, with named
  ``columns``, optionally ``keep=at_least(column, "CONSTANT")`` or ``keep=present()``),
  :func:`column` (``n_t``: a column of the row that ``t`` ranges over; ``ratio=`` two
  columns divided), :func:`entry` (``w_a``: the row's key looked up in a mapping);
- :func:`total` (a column's sum, the rows' number, or a ratio of sums), :func:`runs_of`
  (the runs of a row, for ``\\sum_{i \\in t}``) and :func:`attribute` (``low`` of an
  interval);
- for indexed families (``x_i``, ``x_{i+1}``, ``s_m``): the key ``"x_"`` bound to
  :func:`sequence` (1-based), the index ``"i"`` to :func:`index` (the values it may take;
  a ``cases`` row whose condition holds for one of them is chosen) and ``"m"`` to
  :func:`count`.

A symbol of the LaTeX bound to nothing, a binding that names no symbol or an ``arg`` that
is not a parameter of the function is an error of the check, naming the formula.

A formula that is prose by nature (its LaTeX says "a catastrophic safeguard failed") is
registered with ``descriptive="why it cannot be evaluated"``; its symbols, if any, are only
said for the reader (:func:`words`, or :func:`const` and :func:`uses` for a constant or
another formula), since nothing evaluates them; its golden
points are still computed and recorded, so its code cannot change unnoticed. Keep these few:
they are listed on the contract page.

Golden points: ``point(label, **inputs)`` (the snapshot names it ``<formula>@<label>``);
:func:`scoring.curves.curve_points` gives a curve's anchors, halfway points and one point
beyond each end.
A formula with no golden point is refused by ``python -m contracts update``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, NotRequired, ParamSpec, TypedDict, TypeVar

from scoring.numeric import number_text

P = ParamSpec("P")
R = TypeVar("R")


# --- Bindings of a formula's symbols ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Arg:
    """A symbol bound to the function's argument ``name`` (see :func:`arg`)."""

    name: str
    default: Binding | None = None
    unless_below: tuple[str, str] | None = None

    def describe(self) -> str:
        """One line for the snapshot and the pages."""
        text = f"argument {self.name}"
        if self.default is not None:
            text += f" (default: {self.default.describe()})"
        if self.unless_below is not None:
            text += f", undefined while {self.unless_below[0]} < {self.unless_below[1]}"
        return text


@dataclass(frozen=True, slots=True)
class Const:
    """A symbol bound to the constant ``python_name`` of ``scoring.constants``."""

    python_name: str

    def describe(self) -> str:
        return f"constant {self.python_name}"


@dataclass(frozen=True, slots=True)
class Fixed:
    """A symbol bound to a value its callers guarantee, with the reason."""

    value: int
    reason: str

    def describe(self) -> str:
        return f"fixed at {self.value}: {self.reason}"


@dataclass(frozen=True, slots=True)
class Uses:
    """A symbol bound to another registered formula, applied to ``parameters`` in order;
    the formula's other arguments are bound by ``bound``."""

    formula: str
    parameters: tuple[str, ...]
    bound: tuple[tuple[str, Binding], ...] = ()

    def describe(self) -> str:
        rest = "".join(f", {name}={b.describe()}" for name, b in self.bound)
        return f"formula {self.formula}({', '.join(self.parameters)}{rest})"


@dataclass(frozen=True, slots=True)
class Keep:
    """Which rows of a :class:`Rows` set count: ``column >= constant``, or the rows whose
    value is not ``None`` (``column`` ``"value"``, ``constant`` ``None``)."""

    column: str
    constant: str | None

    def describe(self) -> str:
        if self.constant is None:
            return f"rows whose {self.column} is not None"
        return f"rows with {self.column} >= {self.constant}"


@dataclass(frozen=True, slots=True)
class Rows:
    """A set symbol bound to the rows of the argument ``name``: a sequence of tuples whose
    items are named ``columns``, or, for a mapping, rows ``(key, value)``."""

    name: str
    columns: tuple[str, ...]
    keep: Keep | None = None

    def describe(self) -> str:
        kept = f", {self.keep.describe()}" if self.keep is not None else ""
        return f"rows of argument {self.name} ({', '.join(self.columns)}){kept}"


@dataclass(frozen=True, slots=True)
class Column:
    """An element symbol (``n_t``): the column ``name`` of the row its subscript ranges
    over, or the column divided by the column ``ratio``."""

    name: str
    ratio: str | None = None

    def describe(self) -> str:
        return f"column {self.name}" + (f" / column {self.ratio}" if self.ratio else "")


@dataclass(frozen=True, slots=True)
class Entry:
    """An element symbol (``w_a``): the row's ``key`` looked up in ``mapping`` (0 when absent)."""

    mapping: Binding

    def describe(self) -> str:
        return f"the row's key in {self.mapping.describe()} (0 if absent)"


@dataclass(frozen=True, slots=True)
class SequenceOf:
    """An indexed family (``x_i``): the attribute ``attribute`` of the items of the
    argument ``name``, 1-based."""

    name: str
    attribute: str

    def describe(self) -> str:
        return f"{self.attribute} of the items of argument {self.name}, from 1"


@dataclass(frozen=True, slots=True)
class Count:
    """The number of items of the argument ``name``."""

    name: str

    def describe(self) -> str:
        return f"number of items of argument {self.name}"


@dataclass(frozen=True, slots=True)
class Index:
    """An index ranging over ``1 … len(name) − 1`` (the intervals between items)."""

    name: str

    def describe(self) -> str:
        return f"index 1 … (items of argument {self.name}) − 1"


@dataclass(frozen=True, slots=True)
class Total:
    """The sum of the column ``name`` over the rows of ``over`` (their number when ``name``
    is ``None``), divided by the sum of the column ``per`` when it is given (``v̄``)."""

    over: Rows
    name: str | None = None
    per: str | None = None

    def describe(self) -> str:
        what = f"sum of column {self.name}" if self.name else "number"
        text = f"{what} of the {self.over.describe()}"
        return text + (f" / sum of column {self.per}" if self.per else "")


@dataclass(frozen=True, slots=True)
class Runs:
    """The runs of the row that ``row`` ranges over (``i ∈ t``): its ``count`` runs, each at
    its row's mean ``total/count`` (a residual sum ``Σ_{i∈t} (v_i − v̄) = S_t − n_t·v̄``
    is the same for every split of ``S_t`` among the runs); a run's value is ``value``."""

    row: str
    count: str
    total: str

    def describe(self) -> str:
        return (
            f"the {self.count} runs of row {self.row}, each at its mean {self.total}/{self.count}"
        )


@dataclass(frozen=True, slots=True)
class Attribute:
    """The attribute ``name`` of what ``of`` binds (``None`` stays ``None``)."""

    of: Binding
    name: str

    def describe(self) -> str:
        return f"{self.name} of {self.of.describe()}"


@dataclass(frozen=True, slots=True)
class Words:
    """A symbol of a descriptive formula, said in words for the reader (see :func:`words`)."""

    text: str

    def describe(self) -> str:
        return self.text


Binding = (
    Arg
    | Const
    | Words
    | Fixed
    | Uses
    | Rows
    | Column
    | Entry
    | SequenceOf
    | Count
    | Index
    | Total
    | Runs
    | Attribute
)


def arg(
    name: str, *, default: Binding | None = None, unless_below: tuple[str, str] | None = None
) -> Arg:
    """Bind a symbol to the argument ``name`` of the function."""
    return Arg(name, default, unless_below)


def words(text: str) -> Words:
    """Say what a symbol of a *descriptive* formula stands for (its LaTeX is not evaluated,
    so nothing binds it to a value): the page lists it under the formula."""
    return Words(text)


def const(python_name: str) -> Const:
    """Bind a symbol to a constant of ``scoring.constants`` (its Python name)."""
    return Const(python_name)


def fixed(value: int, reason: str) -> Fixed:
    """Bind a symbol to a value the function's callers guarantee; say why."""
    return Fixed(value, reason)


def uses(name: str, *parameters: str, **bound: Binding) -> Uses:
    """Bind a symbol to the registered formula ``name``: ``f(a, b)`` in the LaTeX calls it
    with ``a, b`` as its ``parameters``; ``bound`` binds its other arguments."""
    return Uses(name, parameters, tuple(bound.items()))


def at_least(column_name: str, constant: str) -> Keep:
    """Keep the rows whose ``column_name`` is at least the constant ``constant``."""
    return Keep(column_name, constant)


def present() -> Keep:
    """Keep the rows of a mapping whose value is not ``None``."""
    return Keep("value", None)


def rows(name: str, *columns: str, keep: Keep | None = None) -> Rows:
    """Bind a set symbol (``T`` of ``\\sum_{t \\in T}``) to the rows of argument ``name``."""
    return Rows(name, columns, keep)


def column(name: str, *, ratio: str | None = None) -> Column:
    """Bind an element symbol (``n_t``) to a column of its row."""
    return Column(name, ratio)


def entry(mapping: Binding) -> Entry:
    """Bind an element symbol (``w_a``) to its row's key looked up in ``mapping``."""
    return Entry(mapping)


def sequence(name: str, attribute: str) -> SequenceOf:
    """Bind an indexed family (key ``"x_"``) to an attribute of a list argument's items."""
    return SequenceOf(name, attribute)


def count(name: str) -> Count:
    """Bind a symbol to the number of items of a list argument."""
    return Count(name)


def index(name: str) -> Index:
    """Bind an index symbol to ``1 … len(name) − 1``."""
    return Index(name)


def total(over: Rows, name: str | None = None, *, per: str | None = None) -> Total:
    """Bind a symbol to a column's sum over rows (``n = Σ_t n_t``), their number (``T``),
    or a ratio of two sums (``v̄ = Σ_t S_t / Σ_t n_t``)."""
    return Total(over, name, per)


def runs_of(row: str, count_column: str, total_column: str) -> Runs:
    """Bind the variable of ``\\sum_{i \\in t}`` to the runs of the row ``t``."""
    return Runs(row, count_column, total_column)


def attribute(of: Binding, name: str) -> Attribute:
    """Bind a symbol to an attribute (``low`` of an interval) of another binding's value."""
    return Attribute(of, name)


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
        """Importable location of the function, e.g. ``scoring.curves.piecewise_linear``."""
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
