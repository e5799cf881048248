"""Exact arithmetic helpers: every formula computes in ``Fraction`` and rounds at the edge."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

Number = int | float | Decimal | Fraction


def exact(value: Number) -> Fraction:
    """The exact rational value of ``value`` (a float keeps its binary value).

    >>> exact(Decimal("0.40"))
    Fraction(2, 5)
    """
    if type(value) is Fraction:
        return value  # immutable: the same value, without Fraction's type checks
    return Fraction(value)


def as_written(value: float | int) -> Fraction:
    """The exact value of a JSON number as it was written: the shortest decimal of a float.

    JSON parsers hand over binary floats; ``repr`` recovers the decimal the input wrote
    (for up to 17 significant digits), so ``0.6`` counts as 6/10, not as the nearest double.

    >>> as_written(0.6), Fraction(0.6) == Fraction(3, 5)
    (Fraction(3, 5), False)
    """
    if isinstance(value, int):
        return Fraction(value)
    # Decimal reads the shortest decimal in C, exactly; Fraction's own parser of a string
    # is a regular expression and several int conversions in Python.
    return Fraction(*Decimal(repr(value)).as_integer_ratio())


def decimal_half_up(value: Fraction, places: int) -> Decimal:
    """``value`` rounded to ``places`` decimals, halves rounded up (towards +infinity).

    >>> decimal_half_up(Fraction(1, 8), 2), decimal_half_up(Fraction(2, 3), 3)
    (Decimal('0.13'), Decimal('0.667'))
    """
    return Decimal(half_up_units(value, places)).scaleb(-places)


def half_up_units(value: Fraction, places: int) -> int:
    """``floor(value · 10^places + 1/2)``: the rounded value in units of ``10^-places``.

    In integers, for ``value = n/d`` with ``d > 0``: ``floor((2·n·10^places + d) / (2·d))``,
    the same number without a ``Fraction`` built on the way (tests/scoring/
    test_report_speed.py checks it against the ``Fraction`` form, halves included).

    >>> half_up_units(Fraction(1, 8), 2), half_up_units(Fraction(-1, 8), 2)
    (13, -12)
    """
    numerator, denominator = value.numerator, value.denominator
    scale: int = 10**places
    return (2 * numerator * scale + denominator) // (2 * denominator)


def round_half_up(value: Fraction, places: int) -> float:
    """``decimal_half_up`` as a float, for output at the edge.

    The units divided by ``10^places`` as integers: Python divides integers correctly
    rounded, as ``float(Decimal)`` converts, so both give the nearest float.

    >>> round_half_up(Fraction(1, 8), 2)
    0.13
    """
    scale: int = 10**places
    return half_up_units(value, places) / scale


def clamp(value: Fraction, low: Fraction, high: Fraction) -> Fraction:
    """``value`` limited to ``[low, high]``.

    >>> clamp(Fraction(120), Fraction(0), Fraction(100))
    Fraction(100, 1)
    """
    return max(low, min(high, value))


def median(values: list[Fraction]) -> Fraction:
    """Median of a non-empty list; an even count takes the mean of the two middle values.

    >>> median([Fraction(1), Fraction(4), Fraction(2), Fraction(3)])
    Fraction(5, 2)
    """
    ordered = sorted(values)
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return ordered[middle]
    return (ordered[middle - 1] + ordered[middle]) / 2
