"""A registry of every formula, each with its LaTeX written next to the function.

The site renders the LaTeX (to MathML, at build time) and the contracts snapshot records
it, so the formula a reader sees is owned by the code that computes it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from typing import ParamSpec, TypeVar

from scoring.numeric import number_text

P = ParamSpec("P")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Formula:
    """A registered formula: stable dotted name, LaTeX, title, and the function."""

    name: str
    title: str
    latex: str
    function: Callable[..., object]

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


def formula(name: str, *, title: str, latex: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Register ``function`` under ``name`` with its LaTeX."""

    def register(function: Callable[P, R]) -> Callable[P, R]:
        if name in FORMULAS:
            raise ScoringError(f"formula {name!r} is registered twice")
        FORMULAS[name] = Formula(name, title, latex, function)
        return function

    return register
