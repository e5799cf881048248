"""Every executable formula's LaTeX, evaluated at every golden point, against its code.

For each registered formula (``scoring.registry.FORMULAS``) that is not marked descriptive,
the very LaTeX the page renders is evaluated by :mod:`contracts.latex.evaluator`, its symbols
resolved through the registration's bindings, and compared with what the function returns
on the same inputs. :func:`formula_problems` lists each disagreement (naming the formula,
the golden point, the LaTeX's value and the code's), each symbol bound to nothing, each
binding that names no symbol, each formula with no golden point, and each golden point or
worked example that reads a curve where it is flat (:mod:`scoring.slopes`); ``python -m
contracts check`` fails on them and ``python -m contracts update`` refuses to record them.

How values are compared: where both sides are exact (the code returns a ``Fraction`` or
an ``int`` and the LaTeX needs no irrational square root) they must be equal exactly.
Where a square root is irrational, the LaTeX's value is computed to
:data:`contracts.latex.evaluator.SQRT_DIGITS` significant digits, and where the code returns a float
(the outcome score is published as one), the two must agree to the float's precision: they
may differ by at most :data:`FLOAT_RELATIVE_TOLERANCE` of their size, one unit in the last
place of a double. The code's ``None`` agrees with an undefined LaTeX value (a division by
zero, a mean over an empty set, a gated input), and with nothing else.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import importlib
import inspect
from collections.abc import Callable, Hashable, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

import scoring.constants as C  # noqa: N812 - short alias for many constants
from contracts.check.agreement import (
    FLOAT_RELATIVE_TOLERANCE as FLOAT_RELATIVE_TOLERANCE,
    agree as agree,
    show as show,
)
from contracts.check.registration import (
    EACH as EACH,
    registration_problems as registration_problems,
)
from contracts.latex.evaluator import (
    Element,
    Evaluator,
    IndexRange,
    LatexError,
    Number,
    Scope,
    SidesDisagree,
    Span,
    Undefined,
    canonical_symbol,
    parse,
)
from scoring.registry import (
    FORMULAS,
    Arg,
    Attribute,
    Binding,
    Column,
    Const,
    Count,
    Entry,
    Fixed,
    Formula,
    Index,
    Keep,
    Rows,
    Runs,
    SequenceOf,
    Total,
    Uses,
)
from scoring.slopes import READINGS, flat_readings, flat_text


@dataclass(frozen=True, slots=True)
class FormulaProblem:
    """One reason a formula's LaTeX and code cannot be held equal.

    ``formula`` is its name, ``point`` the golden point's name (``None`` for a problem of
    the registration), ``message`` one line that says what and how to fix it; ``file`` and
    ``line``/``end_line`` where the formula is defined (for annotations).
    """

    formula: str
    point: str | None
    message: str
    file: str | None = None
    line: int | None = None
    end_line: int | None = None


def _constant(name: str) -> Any:
    if not hasattr(C, name):
        raise LatexError(f"binds the constant {name}, which scoring.constants does not define")
    return getattr(C, name)


def _variable_of(key: str) -> str:
    """The bound variable of an element symbol: ``t`` of ``n_{t}``."""
    _, _, subscript = key.partition("_{")
    return subscript[:-1] if subscript.endswith("}") else subscript


class _Bindings:
    """Resolves a formula's symbols for one golden point's inputs."""

    def __init__(self, formula: Formula, inputs: Mapping[str, Any]) -> None:
        self.formula = formula
        self.inputs = inputs
        self.parameters = _parameters(formula.function)
        self.symbols = {canonical_symbol(k): b for k, b in formula.symbols.items()}

    def argument(self, name: str, default: Binding | None = None) -> Any:
        if name not in self.parameters:
            raise LatexError(f"binds the argument {name}, which {self.formula.qualname} lacks")
        if name in self.inputs:
            value = self.inputs[name]
        elif self.parameters[name].default is not inspect.Parameter.empty:
            value = self.parameters[name].default
        else:
            raise LatexError(f"the golden point gives no value for the argument {name}")
        if value is None and default is not None:
            return self.value(default, "", {})
        return value

    def has(self, key: str) -> bool:
        return key in self.symbols

    def is_index(self, key: str) -> bool:
        return isinstance(self.symbols.get(key), Index)

    def resolve(self, key: str, env: Mapping[str, Any]) -> Any:
        return self.value(self.symbols[key], key, env)

    def value(self, binding: Binding, key: str, env: Mapping[str, Any]) -> Any:
        if isinstance(binding, Arg):
            value = self.argument(binding.name, binding.default)
            if binding.unless_below is not None:
                counted, minimum = binding.unless_below
                if self.argument(counted) < _constant(minimum):
                    raise Undefined(f"{counted} is below {minimum}")
            return value
        if isinstance(binding, Const):
            return _constant(binding.python_name)
        if isinstance(binding, Fixed):
            return Fraction(binding.value)
        if isinstance(binding, Uses):
            return self.call(binding, env)
        if isinstance(binding, Rows):
            return self.rows(binding)
        if isinstance(binding, Column):
            element = env.get(_variable_of(key))
            if not isinstance(element, Element):
                raise LatexError(f"{key} is read outside the sum or set over its rows")
            value = element.values[binding.name]
            if binding.ratio is not None:
                return Fraction(value, element.values[binding.ratio])
            return value
        if isinstance(binding, Entry):
            element = env.get(_variable_of(key))
            if not isinstance(element, Element):
                raise LatexError(f"{key} is read outside the sum or set over its rows")
            mapping = self.value(binding.mapping, key, env)
            return mapping.get(element.values["key"], 0)
        if isinstance(binding, SequenceOf):
            items = self.argument(binding.name)
            return [getattr(item, binding.attribute) for item in items]
        if isinstance(binding, Count):
            return Fraction(len(self.argument(binding.name)))
        if isinstance(binding, Index):
            return IndexRange(tuple(range(1, len(self.argument(binding.name)))))
        if isinstance(binding, Total):
            found = self.rows(binding.over)
            if binding.name is None:
                return Fraction(len(found))
            summed = sum((Fraction(e.values[binding.name]) for e in found), Fraction(0))
            if binding.per is None:
                return summed
            per = sum((Fraction(e.values[binding.per]) for e in found), Fraction(0))
            if per == 0:
                raise Undefined("a division by zero")
            return summed / per
        if isinstance(binding, Runs):
            element = env.get(binding.row)
            if not isinstance(element, Element):
                raise LatexError(f"{key} ranges over the runs of {binding.row}, read outside it")
            count = element.values[binding.count]
            mean = Fraction(element.values[binding.total]) / count
            return [Element({"value": mean}) for _ in range(count)]
        if isinstance(binding, Attribute):
            held = self.value(binding.of, key, env)
            return None if held is None else getattr(held, binding.name)
        raise LatexError(f"unknown binding {binding!r}")

    def rows(self, binding: Rows) -> list[Element]:
        given = self.argument(binding.name)
        items = list(given.items()) if isinstance(given, Mapping) else list(given)
        found = []
        for item in items:
            if len(binding.columns) == 1 and not isinstance(item, tuple | list):
                item = (item,)
            if len(item) != len(binding.columns):
                raise LatexError(f"a row of {binding.name} does not have {binding.columns}")
            element = Element(dict(zip(binding.columns, item, strict=True)))
            keep = binding.keep
            if keep is not None:
                held = element.values[keep.column]
                if keep.constant is None and held is None:
                    continue
                if keep.constant is not None and held < self.threshold(keep.constant, keep):
                    continue
            found.append(element)
        return found

    def threshold(self, constant: str, keep: Keep) -> Any:
        """The least value a row ``keep`` keeps holds: the ``constant``, or the larger of
        it and the argument that raises it."""
        bar = _constant(constant)
        if keep.argument is not None:
            bar = max(bar, self.argument(keep.argument))
        return bar

    def call(self, binding: Uses, env: Mapping[str, Any]) -> Callable[..., Number | Span]:
        other = FORMULAS.get(binding.formula)
        if other is None:
            raise LatexError(f"uses the formula {binding.formula}, which is not registered")
        fixed = {name: self.value(b, "", env) for name, b in binding.bound}

        def apply(*values: Any) -> Number | Span:
            if len(values) != len(binding.parameters):
                raise LatexError(f"{binding.formula} takes {len(binding.parameters)} values here")
            inputs = {**fixed, **dict(zip(binding.parameters, values, strict=True))}
            if other.descriptive is not None:
                # A descriptive formula has no LaTeX to evaluate (a numerical quantile): it
                # is applied by its code, which its golden points hold to published tables.
                found = other.function(**{k: _plain(v) for k, v in inputs.items()})
                return found  # type: ignore[return-value]
            memo = NESTED.get()
            key = None if memo is None else memo_key(other, inputs)
            if memo is None or key is None:
                return latex_value(other, inputs)
            if key not in memo:  # an exception is not kept: it is raised again each time
                memo[key] = latex_value(other, inputs)
            kept: Number | Span = memo[key]
            return kept

        return apply


@functools.lru_cache(maxsize=1024)
def _parameters(function: Callable[..., Any]) -> Mapping[str, inspect.Parameter]:
    """A function's parameters, looked up once per function object (a formula's golden
    points and every ``uses`` of it ask for them again)."""
    return inspect.signature(function).parameters


#: The values of the formulas another formula ``uses``, kept for one pass of the check:
#: a curve or pass^k at the same inputs is evaluated from its LaTeX once, not once per row
#: of every formula that reads it. Set by :func:`formula_problems` (and
#: :func:`check_formula` alone); ``None`` outside a pass, so nothing outlives one (a
#: formula swapped between two checks is evaluated anew).
NESTED: contextvars.ContextVar[dict[Hashable, Any] | None] = contextvars.ContextVar(
    "nested_formula_values", default=None
)


def _frozen(value: Any) -> Hashable:
    if isinstance(value, list | tuple):
        return (type(value).__name__, tuple(_frozen(item) for item in value))
    if isinstance(value, Mapping):
        return ("mapping", tuple(sorted((repr(k), _frozen(v)) for k, v in value.items())))
    hash(value)  # TypeError for anything else unhashable: not memoized
    return (type(value).__name__, value)


def memo_key(formula: Formula, inputs: Mapping[str, Any]) -> Hashable | None:
    """The key of one evaluation: the formula object, its LaTeX, and the inputs with their
    types (``1`` and ``1.0`` and ``Fraction(1)`` stay apart); ``None`` when an input cannot
    be a key."""
    try:
        frozen = tuple(sorted((name, _frozen(value)) for name, value in inputs.items()))
    except TypeError:
        return None
    return (id(formula), formula.latex, frozen)


@contextlib.contextmanager
def one_pass() -> Iterator[None]:
    if NESTED.get() is not None:  # already inside a pass: share its values
        yield
        return
    token = NESTED.set({})
    try:
        yield
    finally:
        NESTED.reset(token)


def _plain(value: Any) -> Any:
    """A value of the evaluator as code takes it: a float for an irrational decimal."""
    return float(value) if isinstance(value, Decimal) else value


def latex_value(formula: Formula, inputs: Mapping[str, Any]) -> Number | Span:
    """The value of ``formula``'s LaTeX on ``inputs`` (raises :class:`Undefined` where it has
    none, :class:`LatexError` where it cannot be evaluated)."""
    bindings = _Bindings(formula, inputs)
    scope = Scope(bindings.resolve, bindings.has, bindings.is_index)
    evaluator = Evaluator(parse(formula.latex), scope, formula.name)
    if isinstance(formula.symbols.get(EACH), Rows):  # one value per row of a: a list
        return evaluator.each(EACH)  # type: ignore[return-value]
    return evaluator.value()


def _where(formula: Formula) -> tuple[str | None, int | None, int | None]:
    try:
        lines, first = inspect.getsourcelines(formula.function)
        path = inspect.getsourcefile(formula.function)
    except (OSError, TypeError):
        return None, None, None
    from contracts.build import REPO_ROOT

    if path is None:
        return None, None, None
    try:
        shown = importlib.import_module("pathlib").Path(path).resolve().relative_to(REPO_ROOT)
    except ValueError:
        return path, first, first + len(lines) - 1
    return shown.as_posix(), first, first + len(lines) - 1


#: Stands for `` (file:line)`` in a message until the place is looked up.
_WHERE = "\x00where\x00"


def check_formula(formula: Formula) -> list[FormulaProblem]:
    """Every problem of one formula: its registration, then each golden point in turn."""
    with one_pass():
        return _check_formula(formula)


def _check_formula(formula: Formula) -> list[FormulaProblem]:
    located: list[tuple[str | None, int | None, int | None]] = []

    def problem(point: str | None, message: str) -> FormulaProblem:
        # Where the formula is defined is looked up only once there is a problem to place.
        if not located:
            located.append(_where(formula))
        file, line, end = located[0]
        place = f" ({file}:{line})" if file else ""
        return FormulaProblem(formula.name, point, message.replace(_WHERE, place), file, line, end)

    where = _WHERE
    if not formula.golden:
        return [
            problem(
                None,
                f"formula {formula.name} has no golden evaluation{where}: add golden=[point("
                f"'<label>', <argument>=<value>, ...), ...] to its @formula registration "
                "(its anchors, edges and halfway points)",
            )
        ]
    found = [
        problem(None, f"formula {formula.name}{where}: {text}")
        for text in registration_problems(formula)
    ]
    for golden in formula.golden:
        name = f"{formula.name}@{golden.label}"
        found += [
            problem(name, f"golden point {name} reads {flat_text(reading)}{where}; {_PLACE}")
            for reading in flat_readings(golden.inputs, formula.name)
        ]
    if found or formula.descriptive is not None:
        return found
    for golden in formula.golden:
        name = f"{formula.name}@{golden.label}"
        try:
            code: Any = formula.function(**golden.inputs)
        except Exception as error:  # the code fails where it has a golden point
            found.append(
                problem(
                    name,
                    f"formula {formula.name}, golden point {name}: the code "
                    f"raises {type(error).__name__}: {error}{where}",
                )
            )
            continue
        try:
            latex: Number | Span | Undefined = latex_value(formula, golden.inputs)
        except Undefined as undefined:
            latex = undefined
        except SidesDisagree as error:
            found.append(
                problem(
                    name,
                    f"formula {formula.name}, golden point {name}: its LaTeX disagrees with "
                    f"itself: {error}{where}; every side of a chain of '=' must be equal",
                )
            )
            continue
        except LatexError as error:
            found.append(
                problem(
                    name,
                    f"formula {formula.name}, golden point {name}: its "
                    f"LaTeX cannot be evaluated: {error}{where}",
                )
            )
            continue
        if not agree(code, latex):
            found.append(
                problem(
                    name,
                    f"formula {formula.name} disagrees with its LaTeX at golden point {name}: "
                    f"the LaTeX gives {show(latex)}, the code {show(code)}{where}; make the "
                    "code compute what the page shows, or change the LaTeX with it",
                )
            )
    return found


#: How a golden point or worked example on a flat is fixed.
_PLACE = (
    "place it on a sloped segment, relative to the anchors (scoring.formulas.curves.along), so "
    "that it pins the curve's term"
)


def formula_problems(formulas: Mapping[str, Formula] | None = None) -> list[FormulaProblem]:
    """Every problem of every registered formula, in registration order; for all of them
    (no ``formulas`` given), then every worked example that reads a curve where it is flat."""
    chosen = FORMULAS if formulas is None else formulas
    with one_pass():
        found = [p for formula in chosen.values() for p in check_formula(formula)]
    return found if formulas is not None else found + example_problems()


def example_problems() -> list[FormulaProblem]:
    """Each worked example (``scoring/examples.py``) that reads a curve where it is flat,
    and each name of :data:`scoring.slopes.READINGS` that is no formula and no example."""
    from contracts.check.diff import example_location
    from scoring.examples import EXAMPLES_BY_NAME

    found = []
    for example in EXAMPLES_BY_NAME.values():
        for reading in flat_readings(example.inputs, example.name):
            location = example_location(example.name) or "scoring/examples.py"
            file, _, line = location.rpartition(":")
            found.append(
                FormulaProblem(
                    example.name,
                    None,
                    f"worked example {example.name} reads {flat_text(reading)} ({location}); "
                    f"{_PLACE}",
                    file or location,
                    int(line) if line.isdigit() else None,
                    int(line) if line.isdigit() else None,
                )
            )
    for name in READINGS:
        if name not in FORMULAS and name not in EXAMPLES_BY_NAME:
            found.append(
                FormulaProblem(
                    name,
                    None,
                    f"scoring/slopes.py: READINGS names {name}, which is no registered formula "
                    "and no worked example; rename or remove it",
                    "scoring/slopes.py",
                )
            )
    return found


def descriptive_formulas() -> list[tuple[str, str, str]]:
    """``(name, title, reason)`` of each formula marked descriptive, in registration order."""
    return [(f.name, f.title, f.descriptive) for f in FORMULAS.values() if f.descriptive]
