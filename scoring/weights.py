"""The viewer weights of the radar profile (``--weights``): parsed and bounded."""

from __future__ import annotations

import re
from decimal import Decimal

from scoring.constants import Axis
from scoring.errors import InputError, Problem, shown

# Bounds on --weights, so that any argument is answered at once: a weight is plain
# decimal digits with an optional exponent (1e999999999 would take minutes of exact
# arithmetic, and Decimal would also read "1_0" or Arabic-Indic digits).
WEIGHT_MAX_CHARS = 40
WEIGHT_MAX_EXPONENT = 100
WEIGHTS_MAX_CHARS = 1000
_WEIGHT = re.compile(
    r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE](?P<exponent>[+-]?[0-9]+))?", re.ASCII
)
_SPACE = " \t"


def _weights_error(rule: str) -> InputError:
    return InputError([Problem(None, "--weights", rule)])


def parse_weights(text: str) -> dict[Axis, Decimal]:
    """Parse ``axis=weight,...`` viewer weights; unnamed axes weigh 0.

    A weight is written with ASCII digits (``2``, ``0.5``, ``1e-3``), at most
    ``WEIGHT_MAX_CHARS`` characters, its exponent within ±``WEIGHT_MAX_EXPONENT``; an axis
    is named once. Raises :class:`InputError` naming the rule.

    >>> parse_weights("correctness=3,cost=1")[Axis.COST]
    Decimal('1')
    """
    if len(text) > WEIGHTS_MAX_CHARS:
        raise _weights_error(f"{len(text)} characters; at most {WEIGHTS_MAX_CHARS}")
    weights = dict.fromkeys(Axis, Decimal(0))
    named: set[str] = set()
    names = ", ".join(a.value for a in Axis)
    for part in text.split(","):
        name, sep, number = part.partition("=")
        name, number = name.strip(_SPACE), number.strip(_SPACE)
        if not sep or name not in Axis.__members__.values():
            raise _weights_error(
                f"{shown(part.strip(_SPACE))}: expected AXIS=WEIGHT, AXIS one of {names}"
            )
        if name in named:
            raise _weights_error(f"{name}: axis given twice")
        named.add(name)
        match = _WEIGHT.fullmatch(number)
        exponent = match and match["exponent"]
        if (
            match is None
            or len(number) > WEIGHT_MAX_CHARS
            or (exponent and abs(int(exponent)) > WEIGHT_MAX_EXPONENT)
        ):
            raise _weights_error(
                f"{name}: weight must be a finite number >= 0 (got {shown(number)}): "
                f"ASCII digits, at most {WEIGHT_MAX_CHARS} characters, an exponent within "
                f"±{WEIGHT_MAX_EXPONENT}"
            )
        weights[Axis(name)] = Decimal(number)
    if not any(weights.values()):
        raise _weights_error("at least one weight must be above 0")
    return weights
