"""The bindings of a formula's symbols: how each symbol of a registered formula's LaTeX is
tied to a value, so that the drift check can evaluate the LaTeX at a golden point
(:mod:`scoring.registry` re-exports every name here; register formulas through it).

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
"""

from __future__ import annotations

from dataclasses import dataclass


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
    """Which rows of a :class:`Rows` set count: ``column >= constant`` (``column >=
    max(constant, argument)`` when an ``argument`` raises the bar, as pass^k's level ``k``
    does), or the rows whose value is not ``None`` (``column`` ``"value"``, ``constant``
    ``None``)."""

    column: str
    constant: str | None
    argument: str | None = None

    def describe(self) -> str:
        if self.constant is None:
            return f"rows whose {self.column} is not None"
        if self.argument is not None:
            return f"rows with {self.column} >= max({self.constant}, argument {self.argument})"
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


def at_least(column_name: str, constant: str, *, argument: str | None = None) -> Keep:
    """Keep the rows whose ``column_name`` is at least the constant ``constant``, or at
    least the larger of it and the argument ``argument`` when one is named."""
    return Keep(column_name, constant, argument)


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
