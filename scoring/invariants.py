"""What the methodology guarantees about its own constants, written once, as data.

Each :class:`Invariant` is a stable name, the guarantee in words (shown on the site, "What
the methodology guarantees") and a rule over the live constants of
:mod:`scoring.constants` that yields what breaks it. :func:`check_methodology` runs them
all and raises :class:`scoring.errors.MethodologyError`, each breach naming the constant and
the line that defines it: ``scoring report`` and ``scoring outcome`` stop on it (exit 2),
``contracts check`` fails on it, ``contracts update`` refuses, and the site shows it in
place of the numbers.

A new constant with a range of its own gets a line in :data:`INVARIANTS` (a scale, a window,
a gate or a floor: :func:`within`); one without a ``Meta`` is itself a breach.
"""

from __future__ import annotations

import ast
import inspect
import itertools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from types import ModuleType
from typing import Any

import scoring.constants as C  # noqa: N812 - the module of constants, named as in contracts
from scoring.constants import Anchor, Axis
from scoring.errors import Breach, MethodologyError
from scoring.numeric import number_text

#: What a rule yields: the Python name of the constant at fault and what is wrong with it.
Finding = tuple[str, str]
Rule = Callable[[ModuleType], Iterator[Finding]]

# The bounds of a fraction and of a weight: mathematical, not methodology choices.
_ZERO = Fraction(0)
_TWO = Fraction(2)
_ONE = Fraction(1)
# A rounding margin must stay far below the finest published step (10^-4).
_MILLIONTH = Fraction(1, 10**6)


@dataclass(frozen=True, slots=True)
class Invariant:
    """One guarantee of the methodology: a stable name, the sentence a reader sees, the
    constants it reads (Python names; empty for a rule over all of them) and its rule."""

    name: str
    guarantee: str
    constants: tuple[str, ...]
    rule: Rule


def _value(module: ModuleType, name: str) -> Any:
    return getattr(module, name)


def _number(value: Any) -> Fraction | None:
    if isinstance(value, bool) or not isinstance(value, int | Decimal | Fraction):
        return None
    if isinstance(value, Decimal) and not value.is_finite():
        return None
    return Fraction(value)


def _shown(value: Any) -> str:
    """A constant's value as typed (``0.40``), anything else as Python writes it."""
    if isinstance(value, Decimal) and value.is_finite():
        return number_text(value, as_written=True)
    if isinstance(value, Fraction):
        return number_text(value)
    return repr(value)


def _interval(low: Fraction | None, high: Fraction | None, open_low: bool) -> str:
    left = "(" if open_low else "["
    lo = "-∞" if low is None else number_text(low)
    hi = "∞" if high is None else number_text(high)
    return f"{left}{lo}, {hi}]"


def within(
    *names: str,
    low: Fraction | str | None = None,
    high: Fraction | str | None = None,
    open_low: bool = False,
    integer: bool = False,
) -> Rule:
    """A rule: each constant named is a number in ``[low, high]`` (``(low, high]`` with
    ``open_low``); a bound given as a string is the value of that constant, read live."""

    def bound(module: ModuleType, value: Fraction | str | None) -> Fraction | None:
        return _number(_value(module, value)) if isinstance(value, str) else value

    def rule(module: ModuleType) -> Iterator[Finding]:
        lo, hi = bound(module, low), bound(module, high)
        for name in names:
            raw = _value(module, name)
            number = _number(raw)
            if number is None or (integer and not isinstance(raw, int)):
                kind = "an integer" if integer else "a finite number"
                yield name, f"is {_shown(raw)}, not {kind}"
                continue
            below = lo is not None and (number <= lo if open_low else number < lo)
            if below or (hi is not None and number > hi):
                where = _interval(lo, hi, open_low)
                named = [b for b in (low, high) if isinstance(b, str)]
                of = f" ({', '.join(named)} read live)" if named else ""
                yield name, f"is {_shown(raw)}, outside {where}{of}"

    return rule


def weights_sum_to_one(*names: str) -> Rule:
    """A rule: each weight in [0, 1], and the weights sum to exactly 1."""
    each = within(*names, low=_ZERO, high=_ONE)

    def rule(module: ModuleType) -> Iterator[Finding]:
        yield from each(module)
        numbers = [_number(_value(module, name)) for name in names]
        if all(n is not None for n in numbers):
            total = sum(n for n in numbers if n is not None)
            if total != 1:
                values = [_value(module, name) for name in names]
                exact = sum(values) if all(isinstance(v, Decimal) for v in values) else total
                shown = " + ".join(_shown(v) for v in values)
                others = " and ".join(names[1:])
                yield (
                    names[0],
                    f"with {others}, the weights sum to {shown} = {_shown(exact)}, not 1",
                )

    return rule


def anchors_increasing(name: str) -> Rule:
    """A rule: a curve's anchors strictly increase in x, and each score lies on the scale."""

    def rule(module: ModuleType) -> Iterator[Finding]:
        anchors = _value(module, name)
        scale = Fraction(module.SCORE_SCALE)
        if not anchors or not all(isinstance(a, Anchor) for a in anchors):
            yield name, "must be a non-empty tuple of Anchor"
            return
        for index, anchor in enumerate(anchors):
            if not _ZERO <= Fraction(anchor.score) <= scale:
                yield (
                    name,
                    (
                        f"anchor {index} (x {_shown(anchor.x)}) scores {_shown(anchor.score)}, "
                        f"outside the scale [0, {number_text(scale)}] (SCORE_SCALE)"
                    ),
                )
        for index, (left, right) in enumerate(itertools.pairwise(anchors), start=1):
            if not left.x < right.x:
                yield (
                    name,
                    (
                        f"anchor {index} has x {_shown(right.x)}, not above the x "
                        f"{_shown(left.x)} of anchor {index - 1}: anchors must strictly "
                        "increase in x"
                    ),
                )

    return rule


def radar_weights(name: str) -> Rule:
    """A rule: one default weight per radar axis, each at least 0, with a positive sum."""

    def rule(module: ModuleType) -> Iterator[Finding]:
        weights: Mapping[Any, Any] = _value(module, name)
        if set(weights) != set(Axis):
            missing = [a.value for a in Axis if a not in weights]
            extra = [str(k) for k in weights if k not in set(Axis)]
            yield name, f"must weigh every radar axis once (missing {missing}, unknown {extra})"
        for axis, weight in weights.items():
            number = _number(weight)
            if number is None or number < 0:
                yield name, f"the weight of {axis} is {_shown(weight)}; weights must be ≥ 0"
        numbers = [_number(w) for w in weights.values()]
        if all(n is not None for n in numbers) and sum(n for n in numbers if n is not None) <= 0:
            yield name, "the default weights sum to 0; their sum must be positive"

    return rule


def increasing_levels(name: str) -> Rule:
    """A rule: a tuple of levels that are integers ≥ 1, strictly increasing."""

    def rule(module: ModuleType) -> Iterator[Finding]:
        levels = _value(module, name)
        if not levels or not all(isinstance(k, int) and not isinstance(k, bool) for k in levels):
            yield name, f"is {levels!r}; it must be a non-empty tuple of integers"
            return
        if levels[0] < 1:
            yield name, f"starts at {levels[0]}; a level is at least 1"
        if any(b <= a for a, b in itertools.pairwise(levels)):
            yield name, f"is {levels!r}; the levels must strictly increase"

    return rule


def unique_stable_names(module: ModuleType) -> Iterator[Finding]:
    """A rule: no two constants share a stable (``Meta``) name."""
    seen: dict[str, str] = {}
    for info in module.constants():
        first = seen.setdefault(info.meta.name, info.python_name)
        if first != info.python_name:
            yield (
                info.python_name,
                (f"has the stable name {info.meta.name!r}, already the name of {first}"),
            )


def every_constant_documented(module: ModuleType) -> Iterator[Finding]:
    """A rule: every public module-level name the module assigns carries a ``Meta``."""
    documented = {info.python_name for info in module.constants()}
    for name in _assignment_lines(module):
        if not name.startswith("_") and name not in documented:
            yield (
                name,
                (
                    "is a public constant without a Meta (annotate it Annotated[type, Meta(name, "
                    "unit, description)], or make it private with a leading underscore)"
                ),
            )


def _assignment_lines(module: ModuleType) -> dict[str, int]:
    """Every name assigned at the top level of ``module``'s source, and its first line.

    (The repository's locator is :mod:`contracts.source`; ``scoring`` imports nothing from
    ``contracts``, so this one reads the module of constants itself.)
    """
    path = inspect.getsourcefile(module)
    if path is None:
        return {}
    lines: dict[str, int] = {}
    for node in ast.parse(Path(path).read_text(encoding="utf-8")).body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.Assign):
            targets = node.targets
        for target in targets:
            if isinstance(target, ast.Name):
                lines.setdefault(target.id, node.lineno)
    return lines


#: Every guarantee, in the order the site lists them.
INVARIANTS: tuple[Invariant, ...] = (
    Invariant(
        "composite.weights",
        "The composite weights each lie in [0, 1] and sum to exactly 1.",
        ("COMPOSITE_WEIGHT_SUCCESS", "COMPOSITE_WEIGHT_RELIABILITY", "COMPOSITE_WEIGHT_COST"),
        weights_sum_to_one(
            "COMPOSITE_WEIGHT_SUCCESS", "COMPOSITE_WEIGHT_RELIABILITY", "COMPOSITE_WEIGHT_COST"
        ),
    ),
    Invariant(
        "composite.latency_anchors",
        "The latency curve's anchors strictly increase in milliseconds and score within the scale.",
        ("LATENCY_ANCHORS_MS",),
        anchors_increasing("LATENCY_ANCHORS_MS"),
    ),
    Invariant(
        "composite.cost_anchors",
        "The cost curve's anchors strictly increase in dollars and score within the scale.",
        ("COST_ANCHORS_USD",),
        anchors_increasing("COST_ANCHORS_USD"),
    ),
    Invariant(
        "radar.default_weights",
        "The radar's default weights cover every axis once, are each at least 0 and have a "
        "positive sum.",
        ("RADAR_DEFAULT_WEIGHTS",),
        radar_weights("RADAR_DEFAULT_WEIGHTS"),
    ),
    Invariant(
        "scale.positive",
        "The top of the score scale is above 0.",
        ("SCORE_SCALE",),
        within("SCORE_SCALE", low=_ZERO, open_low=True),
    ),
    Invariant(
        "rounding.decimals",
        "Every number of decimals is a whole number, at least 0.",
        ("SCORE_DECIMALS", "FRACTION_DECIMALS", "REASON_DECIMALS"),
        within("SCORE_DECIMALS", "FRACTION_DECIMALS", "REASON_DECIMALS", low=_ZERO, integer=True),
    ),
    Invariant(
        "fractions.unit_interval",
        "The neutral consistency and the recoverable floor are fractions in [0, 1].",
        ("NEUTRAL_CONSISTENCY", "RECOVERABLE_FLOOR"),
        within("NEUTRAL_CONSISTENCY", "RECOVERABLE_FLOOR", low=_ZERO, high=_ONE),
    ),
    Invariant(
        "gates.at_least_one",
        "Every evidence gate and the radar window count at least one run or outcome.",
        (
            "CONSISTENCY_MIN_RUNS",
            "RADAR_WINDOW_RUNS",
            "REPEATABILITY_MIN_OUTCOMES",
        ),
        within(
            "CONSISTENCY_MIN_RUNS",
            "RADAR_WINDOW_RUNS",
            "REPEATABILITY_MIN_OUTCOMES",
            low=_ONE,
            integer=True,
        ),
    ),
    Invariant(
        "radar.gates_within_window",
        "The radar's gates (runs with a latency, known outcomes per task) lie between one "
        "and the window, so that an axis can be shown at all.",
        ("RADAR_LATENCY_MIN_RUNS", "ROBUSTNESS_MIN_OUTCOMES", "RADAR_WINDOW_RUNS"),
        within(
            "RADAR_LATENCY_MIN_RUNS",
            "ROBUSTNESS_MIN_OUTCOMES",
            low=_ONE,
            high="RADAR_WINDOW_RUNS",
            integer=True,
        ),
    ),
    Invariant(
        "radar.latency_steps",
        "The latency axis starts losing points at or above 0 ms, and its step and its "
        "points per step are above 0.",
        ("RADAR_LATENCY_FULL_MS", "RADAR_LATENCY_STEP_MS", "RADAR_LATENCY_POINTS_PER_STEP"),
        lambda m: itertools.chain(
            within("RADAR_LATENCY_FULL_MS", low=_ZERO)(m),
            within(
                "RADAR_LATENCY_STEP_MS", "RADAR_LATENCY_POINTS_PER_STEP", low=_ZERO, open_low=True
            )(m),
        ),
    ),
    Invariant(
        "radar.cost_range",
        "The cost axis's full-score median is at least 0 and below its zero-score median.",
        ("RADAR_COST_FULL_USD", "RADAR_COST_ZERO_USD"),
        lambda m: itertools.chain(
            within("RADAR_COST_FULL_USD", low=_ZERO)(m),
            within("RADAR_COST_ZERO_USD", low="RADAR_COST_FULL_USD", open_low=True)(m),
        ),
    ),
    Invariant(
        "radar.tool_steps",
        "The free steps are a whole number at least 0, and each extra step costs more than "
        "0 points.",
        ("RADAR_STEPS_FREE", "RADAR_POINTS_PER_EXTRA_STEP"),
        lambda m: itertools.chain(
            within("RADAR_STEPS_FREE", low=_ZERO, integer=True)(m),
            within("RADAR_POINTS_PER_EXTRA_STEP", low=_ZERO, open_low=True)(m),
        ),
    ),
    Invariant(
        "repeatability.levels",
        "The pass^k levels are whole numbers from one up, strictly increasing.",
        ("PASS_K_LEVELS",),
        increasing_levels("PASS_K_LEVELS"),
    ),
    Invariant(
        "outcome.check_weight",
        "The default weight of a verification entry is above 0.",
        ("DEFAULT_CHECK_WEIGHT",),
        within("DEFAULT_CHECK_WEIGHT", low=_ZERO, open_low=True),
    ),
    Invariant(
        "intervals.levels",
        "The intervals' level and the planner's power are fractions above 0 and at most 1.",
        ("INTERVAL_LEVEL", "INTERVAL_POWER"),
        within("INTERVAL_LEVEL", "INTERVAL_POWER", low=_ZERO, high=_ONE, open_low=True),
    ),
    Invariant(
        "intervals.min_tasks",
        "An interval needs a whole number of distinct tasks, at least two: the clustered "
        "variance divides by T - 1.",
        ("INTERVAL_MIN_TASKS",),
        within("INTERVAL_MIN_TASKS", low=_TWO, integer=True),
    ),
    Invariant(
        "intervals.bound_margin",
        "The margin past which a numerically computed bound is rounded outwards is positive "
        "and below a millionth: above the quantiles' own error (1e-12), far below the finest "
        "rounding step of an interval (four decimals).",
        ("INTERVAL_BOUND_MARGIN",),
        within("INTERVAL_BOUND_MARGIN", low=_ZERO, high=_MILLIONTH, open_low=True),
    ),
    Invariant(
        "constants.unique_names",
        "No two constants share a stable name.",
        (),
        unique_stable_names,
    ),
    Invariant(
        "constants.documented",
        "Every public constant carries its Meta: a stable name, a unit and a description.",
        (),
        every_constant_documented,
    ),
)


def breaches(module: ModuleType = C) -> list[Breach]:
    """Every breach of every invariant by the live constants of ``module``, in order."""
    lines = _assignment_lines(module)
    # As the snapshot writes it, without a root to resolve against: ``scoring/constants.py``.
    file = module.__name__.replace(".", "/") + ".py"
    found: list[Breach] = []
    for invariant in INVARIANTS:
        try:
            findings = list(invariant.rule(module))
        except (AttributeError, TypeError, ValueError, ArithmeticError) as error:
            # A constant removed, renamed or of another type: the rule cannot be read.
            name = invariant.constants[0] if invariant.constants else "scoring.constants"
            findings = [(name, f"cannot be checked: {type(error).__name__}: {error}")]
        for name, rule in findings:
            found.append(Breach(file, lines.get(name, 0), name, rule, invariant.name))
    return found


def check_methodology(module: ModuleType = C) -> None:
    """Raise :class:`MethodologyError` if any invariant is broken; else return.

    >>> check_methodology()
    """
    found = breaches(module)
    if found:
        raise MethodologyError(found)
