"""Exact interval bounds: the surd ``a + b·√q`` (:class:`Surd`), an :class:`Interval`
rounded outwards from two of them, and why an interval is missing (:func:`interval_reason`).

Every interval quantity is a ``Fraction`` up to the one square root of a bound; a bound is
kept as ``a + b·√q`` with rational ``a``, ``b`` and ``q``, and rounded outwards exactly (the
low bound down, the high bound up) at the score's own decimals: two on the 0–100 scale, four
for a fraction; then clipped to the scale. ``z`` is the binary value of the float
``statistics.NormalDist(0, 1).inv_cdf((1 + level) / 2)`` (:data:`scoring.constants.INTERVAL_Z`),
taken exactly.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from scoring.constants import INTERVAL_MIN_TASKS, INTERVAL_Z, INTERVAL_Z_POWER
from scoring.numeric import Number, exact
from scoring.registry import ScoringError

_ZERO = Fraction(0)


def rational(value: Number) -> int | Fraction:
    """``value`` as an exact rational, without rebuilding an ``int`` or a ``Fraction``."""
    return value if isinstance(value, int | Fraction) else exact(value)


#: ``z`` and ``z_power`` as exact rationals (the binary value of each float).
Z = Fraction(INTERVAL_Z)
Z_POWER = Fraction(INTERVAL_Z_POWER)


# --- Exact bounds -------------------------------------------------------------------------


def _floor_surd(a: Fraction, b: Fraction, q: Fraction) -> int:
    """``⌊a + b·√q⌋`` exactly (``q ≥ 0``), with integer square roots only.

    >>> _floor_surd(Fraction(0), Fraction(1), Fraction(2)), _floor_surd(Fraction(3), -1, 4)
    (1, 1)
    """
    if b == 0 or q == 0:
        return math.floor(a)
    r = b * b * q  # a + sign·√r
    positive = b > 0
    root = Fraction(math.isqrt(r.numerator * r.denominator), r.denominator)  # √r − 1/den < root
    guess = math.floor(a + root if positive else a - root)

    def at_most(m: int) -> bool:  # m ≤ a + sign·√r
        gap = m - a
        if positive:
            return gap <= 0 or gap * gap <= r
        return gap <= 0 and gap * gap >= r

    # |root − √r| < 1, so the floor is within one of the guess.
    for candidate in (guess + 1, guess, guess - 1):
        if at_most(candidate):
            return candidate
    raise AssertionError("unreachable: the floor lies within one of the guess")


# The float shortcut of Surd: its error bound per unit of magnitude (2^-50 would do; 2^-40
# leaves room), an absolute floor for values near 0, and the magnitude beyond which the
# exact path is taken (every published bound is far below it).
_ESTIMATE_SLACK = 2.0**-40
_TINY = 2.0**-1000
_ESTIMATE_LIMIT = 2.0**60


@dataclass(frozen=True, slots=True)
class Surd:
    """The exact real ``a + b·√q`` (rational ``a``, ``b``, ``q ≥ 0``): an interval bound.

    Sums, rational multiples and products of two surds with the same ``q`` stay exact.

    >>> x = Surd(Fraction(1), Fraction(1), Fraction(2))   # 1 + √2
    >>> x.floor(2), x.ceil(2), (x * x).floor(3)            # (1 + √2)² = 3 + 2√2
    (Decimal('2.41'), Decimal('2.42'), Decimal('5.828'))
    """

    a: Fraction
    b: Fraction = _ZERO
    q: Fraction = _ZERO

    def __post_init__(self) -> None:
        if self.q < 0:
            raise ScoringError("the radicand of a bound must not be negative")

    def __add__(self, other: Surd | Fraction | int) -> Surd:
        if isinstance(other, Surd):
            if other.b and self.b and other.q != self.q:
                raise ScoringError("surds with different radicands do not add exactly")
            q = self.q if self.b else other.q
            return Surd(self.a + other.a, self.b + other.b, q)
        return Surd(self.a + other, self.b, self.q)

    def __mul__(self, other: Surd | Fraction | int) -> Surd:
        if isinstance(other, Surd):
            if other.b and self.b and other.q != self.q:
                raise ScoringError("surds with different radicands do not multiply exactly")
            q = self.q if self.b else other.q
            return Surd(
                self.a * other.a + self.b * other.b * q, self.a * other.b + self.b * other.a, q
            )
        return Surd(self.a * other, self.b * other, self.q)

    __radd__ = __add__
    __rmul__ = __mul__

    def _estimate(self) -> tuple[float, float] | None:
        """A float near the value and a bound on its error, or ``None`` (out of range).

        ``float`` of a ``Fraction`` is correctly rounded, and so are ``sqrt``, the product
        and the sum: four roundings, each within 2^-53 of its result, so the error stays
        below ``2^-50·(|a| + |b·√q|)`` (``_ESTIMATE_SLACK`` is far more).
        """
        try:
            a, root = float(self.a), float(self.b) * math.sqrt(self.q)
        except OverflowError:
            return None
        size = abs(a) + abs(root)
        if not size < _ESTIMATE_LIMIT:
            return None
        return a + root, size * _ESTIMATE_SLACK + _TINY

    def sign(self) -> int:
        """-1, 0 or 1: the sign of the value, decided exactly (a float when it is clear)."""
        estimate = self._estimate()
        if estimate is not None and abs(estimate[0]) > estimate[1]:
            return 1 if estimate[0] > 0 else -1
        a, r = self.a, self.b * self.b * self.q
        if r == 0 or (a >= 0 and self.b >= 0) or (a <= 0 and self.b <= 0):
            both = a if a else self.b if r else _ZERO
            return (both > 0) - (both < 0)
        # a and b·√q have opposite signs: the larger square wins.
        bigger = (a * a > r) - (a * a < r)
        return bigger if a > 0 else -bigger

    def _units_floor(self, places: int) -> int:
        """``⌊value·10^places⌋``: from the float when it is clearly between two integers,
        else with integer square roots."""
        scale: int = 10**places
        estimate = self._estimate()
        if estimate is not None:
            # The product adds one more rounding, well within the slack.
            value, error = estimate[0] * float(scale), estimate[1] * float(scale)
            below = math.floor(value)
            if below < value - error and value + error < below + 1:
                return below
        return _floor_surd(self.a * scale, self.b * scale, self.q)

    def floor(self, places: int) -> Decimal:
        """The value rounded down at ``places`` decimals, exactly."""
        return Decimal(self._units_floor(places)).scaleb(-places)

    def ceil(self, places: int) -> Decimal:
        """The value rounded up at ``places`` decimals, exactly."""
        return Decimal(-(self * -1)._units_floor(places)).scaleb(-places)

    def clipped(self, low: Fraction, high: Fraction) -> Surd:
        """The value limited to ``[low, high]`` (decided exactly)."""
        if (self + -low).sign() < 0:
            return Surd(low)
        if (self + -high).sign() > 0:
            return Surd(high)
        return self

    def __float__(self) -> float:
        return float(self.a) + float(self.b) * math.sqrt(self.q)


@dataclass(frozen=True, slots=True)
class Interval:
    """A published interval: bounds rounded outwards at the score's decimals, on its scale.

    ``low`` and ``high`` are exact decimals (``Decimal``); JSON shows them as numbers.
    """

    low: Decimal
    high: Decimal


def outwards(low: Surd, high: Surd, places: int, top: Fraction) -> Interval:
    """The interval ``[low, high]`` rounded outwards at ``places`` and clipped to ``[0, top]``.

    Rounding down then clipping at 0 is clipping then rounding (0 and ``top`` lie on the
    grid of ``places`` decimals), so the order does not matter.

    >>> outwards(Surd(Fraction(1, 3)), Surd(Fraction(2, 3)), 2, Fraction(1))
    Interval(low=Decimal('0.33'), high=Decimal('0.67'))
    """
    grid = Decimal(1).scaleb(-places)
    zero, ceiling = (
        Decimal(0).quantize(grid),
        (Decimal(top.numerator) / top.denominator).quantize(grid),
    )
    return Interval(max(low.floor(places), zero), min(high.ceil(places), ceiling))


@functools.lru_cache(maxsize=1024)
def interval_reason(tasks: int, kind: str = "distinct tasks") -> str | None:
    """Why an interval is ``null`` with ``tasks`` tasks of the ``kind`` it counts (distinct
    tasks of its cohort; for pass^k, qualifying tasks), or ``None`` when it has enough.

    >>> interval_reason(3)
    'fewer than 10 distinct tasks (3)'
    >>> interval_reason(12) is None
    True
    """
    if tasks >= INTERVAL_MIN_TASKS:
        return None
    return f"fewer than {INTERVAL_MIN_TASKS} {kind} ({tasks})"
