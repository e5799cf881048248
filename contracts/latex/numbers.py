"""Exact arithmetic of the LaTeX evaluator: fractions where the value is rational, decimals
to :data:`~contracts.latex.tokens.SQRT_DIGITS` digits past an irrational square root, and
intervals (:class:`~contracts.latex.tokens.Span`) shifted or scaled by a number."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from typing import Any

from contracts.latex.tokens import DECIMAL_CONTEXT, SQRT_DIGITS, LatexError, Number, Span, Undefined


def as_number(value: Any) -> Number:
    if value is None:
        raise Undefined("an input is None")
    if isinstance(value, bool):
        return Fraction(int(value))
    if isinstance(value, Fraction | Decimal):
        return value
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(value)
    raise LatexError(f"not a number: {value!r}")


def _both(left: Number, right: Number) -> tuple[Number, Number]:
    if isinstance(left, Decimal) or isinstance(right, Decimal):
        return _decimal(left), _decimal(right)
    return left, right


def _decimal(value: Number) -> Decimal:
    if isinstance(value, Decimal):
        return value
    return DECIMAL_CONTEXT.divide(Decimal(value.numerator), Decimal(value.denominator))


def square_root(value: Number) -> Number:
    if value < 0:
        raise Undefined("the square root of a negative number")
    if isinstance(value, Fraction):
        top, bottom = math.isqrt(value.numerator), math.isqrt(value.denominator)
        if top * top == value.numerator and bottom * bottom == value.denominator:
            return Fraction(top, bottom)
    return _decimal(value).sqrt(DECIMAL_CONTEXT)


def number_arithmetic(kind: str, left: Number, right: Number) -> Number:
    a, b = _both(left, right)
    if kind == "add":
        return a + b  # type: ignore[operator]
    if kind == "sub":
        return a - b  # type: ignore[operator]
    if kind == "mul":
        return a * b  # type: ignore[operator]
    if b == 0:
        raise Undefined("a division by zero")
    return a / b  # type: ignore[operator]


def compare_numbers(operator: str, left: Number, right: Number) -> bool:
    a, b = _both(left, right)
    if operator == "<":
        return a < b
    if operator == "<=":
        return a <= b
    if operator == ">":
        return a > b
    if operator == ">=":
        return a >= b
    return a == b


def is_whole(value: Number) -> bool:
    return isinstance(value, Fraction) and value.denominator == 1


#: Two sides of a chain that needs an irrational root agree to this many digits.
_SIDE_DIGITS = SQRT_DIGITS - 5


def as_result(value: Any) -> Number | Span:
    return value if isinstance(value, Span) else as_number(value)


def _close(left: Number, right: Number) -> bool:
    if isinstance(left, Fraction) and isinstance(right, Fraction):
        return left == right
    a, b = _decimal(left), _decimal(right)
    return abs(a - b) <= Decimal(10) ** -_SIDE_DIGITS * max(abs(a), abs(b), Decimal(1))


def same_value(left: Number | Span, right: Number | Span) -> bool:
    if isinstance(left, Span) and isinstance(right, Span):
        return _close(left.low, right.low) and _close(left.high, right.high)
    if isinstance(left, Span) or isinstance(right, Span):
        return False
    return _close(left, right)


def shown(value: Any) -> str:
    if isinstance(value, Span):
        return f"[{shown(value.low)}, {shown(value.high)}]"
    if isinstance(value, Decimal):
        return format(round(value, 20).normalize(), "f")
    return str(value)


def span_arithmetic(kind: str, left: Any, right: Any, name: str) -> Span:
    """An interval shifted or scaled by a number (``100 \\cdot \\mathrm{Wilson}(…)``)."""
    if isinstance(left, Span) and isinstance(right, Span):
        raise LatexError(f"{name}: two intervals in one {kind}")
    if kind in ("mul", "add") and not isinstance(left, Span):
        left, right = right, left
    if not isinstance(left, Span) or kind not in ("add", "sub", "mul", "div"):
        raise LatexError(f"{name}: a number {kind} an interval")
    factor = as_number(right)
    low, high = (
        number_arithmetic(kind, left.low, factor),
        number_arithmetic(kind, left.high, factor),
    )
    return Span(low, high) if compare_numbers("<=", low, high) else Span(high, low)


def power(base: Number, exponent: Number) -> Number:
    if isinstance(exponent, Fraction) and exponent.denominator == 1:
        if base == 0 and exponent < 0:
            raise Undefined("a division by zero")
        return base ** int(exponent)
    raise LatexError("only whole powers are evaluated")
