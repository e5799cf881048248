"""Exact arithmetic helpers: every formula computes in ``Fraction`` and rounds at the edge."""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
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
    return _units(value.numerator, value.denominator, places)


def _units(numerator: int, denominator: int, places: int) -> int:
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
    return _units(value.numerator, value.denominator, places) / scale


def exact_sum(values: Iterable[Fraction | int]) -> Fraction:
    """``Σ values`` exactly, as integers over one common denominator: one division at the
    end instead of a ``Fraction`` (and its gcd) per addition.

    >>> exact_sum([Fraction(1, 2), Fraction(1, 3), 1]), exact_sum([])
    (Fraction(11, 6), Fraction(0, 1))
    """
    items = list(values)
    if len(items) == 1:
        return exact(items[0])  # a sum of one value is that value: nothing to reduce
    denominators = [value.denominator for value in items]
    common = math.lcm(*denominators)
    return Fraction(
        sum(
            [value.numerator * (common // d) for value, d in zip(items, denominators, strict=True)]
        ),
        common,
    )


def clamp(value: Fraction, low: Fraction, high: Fraction) -> Fraction:
    """``value`` limited to ``[low, high]``.

    >>> clamp(Fraction(120), Fraction(0), Fraction(100))
    Fraction(100, 1)
    """
    return max(low, min(high, value))


# --- Exact numbers as text, and back ------------------------------------------------------

_THOUSANDS = ","
# ASCII digits only: ``\d`` would read Arabic-Indic and other digits too.
_NUMERAL = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")
_DENOMINATOR = re.compile(r"[1-9][0-9]*")
_GROUPED = re.compile(r"-?[0-9]{1,3}(?:,[0-9]{3})*(?:\.[0-9]+)?")


def _decimal_places(value: Fraction) -> int | None:
    """How many decimals write ``value`` exactly; ``None`` if its expansion never ends
    (its denominator has a prime factor other than 2 and 5)."""
    denominator, counts = value.denominator, []
    for prime in (2, 5):
        count = 0
        while denominator % prime == 0:
            denominator //= prime
            count += 1
        counts.append(count)
    return max(counts) if denominator == 1 else None


def _fixed(value: Fraction, places: int) -> str:
    """``value`` (exact in ``places`` decimals, or rounded already) as a plain numeral."""
    units = value.numerator * 10**places // value.denominator
    sign, digits = ("-", str(-units)) if units < 0 else ("", str(units))
    if places == 0:
        return sign + digits
    digits = digits.rjust(places + 1, "0")
    return f"{sign}{digits[:-places]}.{digits[-places:]}"


def _group(text: str) -> str:
    """Thousands separators in the integer part of a plain decimal numeral."""
    sign, digits = ("-", text[1:]) if text.startswith("-") else ("", text)
    whole, dot, fraction = digits.partition(".")
    return f"{sign}{int(whole):,}{dot}{fraction}".replace(",", _THOUSANDS)


def number_text(
    value: int | Decimal | Fraction,
    *,
    places: int | None = None,
    max_places: int | None = None,
    as_written: bool = False,
    grouping: bool = False,
) -> str:
    """The one way an exact number is written as text, with named options for what
    really differs between callers:

    - by default the exact value: an integer, a terminating decimal without trailing
      zeros, or ``p/q`` (``2/3`` is never ``0.6667`` unless asked);
    - ``places``: rounded half up to exactly that many decimals (``0.6667``, ``0.50``);
    - ``max_places``: exact when that many decimals suffice, else rounded half up to them;
      trailing zeros dropped (``0.5``, ``0.6667``): a short label;
    - ``as_written``: a ``Decimal`` keeps the digits it was typed with (``0.40``), as a
      constant is shown beside its source line;
    - ``grouping``: thousands separators in a decimal numeral (``10,000``), for pages; data
      has none, and neither has a ``p/q``.

    Never an exponent, never ``-0``.

    >>> number_text(Fraction(2, 3)), number_text(Fraction(2, 3), places=4)
    ('2/3', '0.6667')
    >>> number_text(Fraction(1, 2), max_places=4), number_text(Fraction(2, 3), max_places=4)
    ('0.5', '0.6667')
    >>> number_text(Decimal("0.40")), number_text(Decimal("0.40"), as_written=True)
    ('0.4', '0.40')
    >>> number_text(10000), number_text(10000, grouping=True), number_text(Decimal("1E+2"))
    ('10000', '10,000', '100')
    """
    if isinstance(value, bool):
        raise TypeError("a boolean is not a number")
    if isinstance(value, Decimal) and not value.is_finite():
        raise ValueError(f"not a finite number: {value}")
    exact = Fraction(value)
    if places is not None:
        text = _fixed(Fraction(math.floor(exact * 10**places + Fraction(1, 2)), 10**places), places)
    elif as_written and isinstance(value, Decimal):
        exponent = value.as_tuple().exponent
        written = -exponent if isinstance(exponent, int) and exponent < 0 else 0
        text = _fixed(exact, written)
    else:
        needed = _decimal_places(exact)
        if max_places is not None and (needed is None or needed > max_places):
            rounded = number_text(exact, places=max_places, grouping=grouping)
            return rounded.rstrip("0").rstrip(".") if "." in rounded else rounded
        if needed is None:
            return f"{exact.numerator}/{exact.denominator}"
        text = _fixed(exact, needed)
    if text.startswith("-") and not any(c in "123456789" for c in text):
        text = text[1:]
    return _group(text) if grouping else text


def parse_number(text: str) -> Fraction:
    """The exact value of a numeral :func:`number_text` writes: an integer, a decimal or
    ``p/q``, with or without thousands separators; ``ValueError`` for anything else
    (exponents, spaces, non-ASCII digits, ``inf``).

    >>> parse_number("2/3"), parse_number("10,000"), parse_number("-0.125")
    (Fraction(2, 3), Fraction(10000, 1), Fraction(-1, 8))
    """
    plain = text.replace(_THOUSANDS, "")
    numerator, slash, denominator = plain.partition("/")
    if not _NUMERAL.fullmatch(numerator) or (slash and not _DENOMINATOR.fullmatch(denominator)):
        raise ValueError(f"not an exact number: {text!r} (an integer, a decimal or p/q)")
    if _THOUSANDS in text and not _GROUPED.fullmatch(text.split("/")[0]):
        raise ValueError(f"not an exact number: misplaced thousands separator in {text!r}")
    value = Fraction(Decimal(numerator))
    return value / int(denominator) if slash else value


def weighted_difference(weight: Fraction, x: Fraction, y: Fraction) -> float:
    """``weight·(x − y)`` correctly rounded to a float: one integer division, as
    ``float(Fraction)`` divides, without the two Fractions on the way.

    >>> weighted_difference(Fraction(3, 10), Fraction(90), Fraction(80))
    3.0
    """
    numerator = weight.numerator * (x.numerator * y.denominator - y.numerator * x.denominator)
    return numerator / (weight.denominator * x.denominator * y.denominator)
