"""When the code's value and the LaTeX's agree (:mod:`contracts.check.formulas` compares them at
every golden point), and how a value is shown in a message: exactly where both are exact,
to the float's precision where the code returns a float, a ``None`` with an undefined value.
"""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

from contracts.latex.evaluator import Number, Span, Undefined

#: Two floats agree when they differ by at most this share of their size: 2^-52, one unit
#: in the last place of a double (the precision at which a float result is published).
FLOAT_RELATIVE_TOLERANCE = Decimal(2) ** -52


def show(value: Any) -> str:
    """A value as a disagreement names it: ``3/4``, ``0.7071067811865476``, ``undefined``.

    >>> show(Fraction(3, 4)), show(None), show(Fraction(5)), show(0.5)
    ('3/4', 'None', '5', '0.5')
    """
    if isinstance(value, Undefined):
        return f"undefined ({value})"
    if isinstance(value, Span):
        return f"[{show(value.low)}, {show(value.high)}]"
    if isinstance(value, tuple):
        return "(" + ", ".join(show(v) for v in value) + ")"
    if isinstance(value, list):
        return "[" + ", ".join(show(v) for v in value) + "]"
    if hasattr(value, "low") and hasattr(value, "high"):
        return f"[{show(value.low)}, {show(value.high)}]"
    if isinstance(value, Decimal):
        return format(round(value, 20).normalize(), "f")
    if isinstance(value, Fraction):
        return str(value)
    return repr(value)


def _rounded_outwards(code: Decimal, latex: Number, upwards: bool) -> bool:
    """Whether ``code`` is ``latex`` rounded outwards at the code's own decimals."""
    if not isinstance(code, Decimal) or not code.is_finite():
        return False
    exact = Fraction(code)
    grid = Fraction(1, 10 ** max(0, -int(code.as_tuple().exponent)))
    value = latex if isinstance(latex, Fraction) else Fraction(latex)
    if upwards:
        return exact - grid < value <= exact
    return exact <= value < exact + grid


def agree(code: Any, latex: Number | Span | Undefined) -> bool:
    """Whether the code's result and the LaTeX's value are the same (see the module)."""
    if code is None or isinstance(latex, Undefined):
        return code is None and isinstance(latex, Undefined)
    if isinstance(latex, list):
        return (
            isinstance(code, list)
            and len(code) == len(latex)
            and all(agree(mine, theirs) for mine, theirs in zip(code, latex, strict=True))
        )
    if isinstance(latex, tuple):
        return (
            isinstance(code, tuple)
            and len(code) == len(latex)
            and all(agree(mine, theirs) for mine, theirs in zip(code, latex, strict=True))
        )
    if isinstance(latex, Span):
        low, high = getattr(code, "low", None), getattr(code, "high", None)
        return (
            isinstance(low, Decimal)
            and isinstance(high, Decimal)
            and _rounded_outwards(low, latex.low, upwards=False)
            and _rounded_outwards(high, latex.high, upwards=True)
        )
    if isinstance(code, bool) or not isinstance(code, int | Fraction | float):
        return False
    if isinstance(code, int | Fraction) and isinstance(latex, Fraction):
        return Fraction(code) == latex
    mine = (
        Decimal(code)
        if isinstance(code, float | int)
        else Decimal(code.numerator) / code.denominator
    )
    theirs = latex if isinstance(latex, Decimal) else Decimal(latex.numerator) / latex.denominator
    return abs(mine - theirs) <= FLOAT_RELATIVE_TOLERANCE * max(abs(mine), abs(theirs))
