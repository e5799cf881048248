"""The one formatting vocabulary of the pages: every code a page may pass as ``fmt`` to a
macro that writes a value (``c``, ``code_value``, ``ex``, ``ex_in``, ``f``), what it writes,
and an example rendered by the code itself (the table on "How the docs stay true").

A value is a constant of ``scoring`` (``Decimal``, ``int``, ``str``, a tuple, a mapping) or a
result of the snapshot (``{"exact": "170/3", ...}``, a number, a string, ``None``); every
code takes both where it makes sense, and refuses what it cannot write, naming the code.
All numbers go through :func:`scoring.numeric.number_text`, with the page options
(thousands grouped).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from fractions import Fraction
from typing import Any

import scoring.constants as C  # noqa: N812 - the module of constants, named as in contracts
from macros.markup import esc, exact_text, joined, ms, percent, plain, table, usd
from scoring.numeric import parse_number

#: What a format writes: the text, and whether it is shown as code.
Written = tuple[str, bool]


class FormatError(ValueError):
    """A format code that does not exist, or cannot write the value it was given."""


def number(value: Any) -> Fraction:
    """The exact value of a constant, a snapshot result or a numeral string."""
    if isinstance(value, bool) or value is None:
        raise FormatError(f"{value!r} is not a number")
    if isinstance(value, Mapping) and "exact" in value:
        return parse_number(str(value["exact"]))
    if isinstance(value, float):
        return Fraction(repr(value))
    if isinstance(value, str):
        try:
            return parse_number(value)
        except ValueError:
            raise FormatError(f"{value!r} is not a number") from None
    if isinstance(value, int | Decimal | Fraction):
        return Fraction(value)
    raise FormatError(f"a {type(value).__name__} is not a number")


def _written(value: Any) -> Decimal | int | Fraction:
    """A number with the digits it was written with: a ``Decimal`` as typed, a float's
    shortest decimal, an exact result as its exact decimal when it has one."""
    if isinstance(value, Decimal | int) and not isinstance(value, bool):
        return value
    if isinstance(value, float):
        return Decimal(repr(value))
    exact = number(value)
    if exact.denominator == 1:
        return exact.numerator
    try:
        return Decimal(exact_text(exact).replace(",", ""))
    except InvalidOperation:
        return exact


def published_places(key: str) -> int | None:
    """How the report rounds a result called ``key`` (``None``: not rounded)."""
    tail = key.rsplit(".", 1)[-1]
    if tail in ("success_rate", "consistency") or tail.startswith("pass^"):
        return C.FRACTION_DECIMALS
    if tail in ("tasks", "zero_success_floor"):
        return None
    return C.SCORE_DECIMALS


def _rounded(value: Any, places: int | None) -> str:
    exact = number(value)
    return exact_text(exact) if places is None else plain(exact, places)


def _plain(value: Any, _key: str) -> Written:
    if isinstance(value, str):
        return value, False
    written = _written(value)
    return (plain(written) if not isinstance(written, Fraction) else exact_text(written)), False


def _items(value: Any) -> list[str]:
    if not isinstance(value, tuple | list):
        raise FormatError(f"a {type(value).__name__} is not a list")
    return [plain(i) if isinstance(i, int) and not isinstance(i, bool) else str(i) for i in value]


@dataclass(frozen=True, slots=True)
class Format:
    """One code of the vocabulary: what it writes, an example value, and the writer."""

    code: str
    writes: str
    example: Any
    write: Callable[[Any, str], Written]


def _places(places: int, what: str) -> Format:
    return Format(
        str(places),
        f"rounded half up to {places} decimal{'' if places == 1 else 's'} ({what})",
        Fraction(2, 3),
        lambda v, _k: (_rounded(v, places), False),
    )


#: Every format code, in the order of the table. ``"0"`` to ``"9"`` round to that many
#: decimals; the named ones are below.
FORMATS: dict[str, Format] = {
    f.code: f
    for f in (
        Format(
            "plain",
            "a number as written (a constant keeps its digits), thousands grouped; text as is",
            Decimal("10000.50"),
            _plain,
        ),
        Format(
            "exact",
            "the exact value: an integer, a terminating decimal without trailing zeros, or p/q",
            Fraction(170, 3),
            lambda v, _k: (exact_text(number(v)), False),
        ),
        Format(
            "published",
            "rounded as the report publishes the result named by the key (a score to "
            "the score decimals, a fraction to the fraction decimals)",
            Fraction(170, 3),
            lambda v, k: (_rounded(v, published_places(k)), False),
        ),
        Format(
            "score",
            "rounded half up to the decimals of a score",
            Fraction(170, 3),
            lambda v, _k: (_rounded(v, C.SCORE_DECIMALS), False),
        ),
        Format(
            "fraction",
            "rounded half up to the decimals of a fraction",
            Fraction(2, 3),
            lambda v, _k: (_rounded(v, C.FRACTION_DECIMALS), False),
        ),
        Format(
            "reason",
            "rounded half up to the decimals of an outcome's reason text",
            Fraction(2, 3),
            lambda v, _k: (_rounded(v, C.REASON_DECIMALS), False),
        ),
        Format(
            "pct",
            "a fraction as an exact percentage",
            Decimal("0.40"),
            lambda v, _k: (percent(number(v)), False),
        ),
        Format(
            "usd",
            "an amount in US dollars, as written",
            Decimal("0.010"),
            lambda v, _k: (usd(_written(v)), False),
        ),
        Format(
            "ms",
            "a duration in milliseconds, as written",
            Decimal("10000"),
            lambda v, _k: (ms(_written(v)), False),
        ),
        Format(
            "range",
            "the scale from 0 to the number",
            Decimal("100"),
            lambda v, _k: (f"0–{plain(_written(v))}", False),
        ),
        Format("text", "a string in running text", "v1", lambda v, _k: (str(v), False)),
        Format("code", "the value as code", "v1", lambda v, _k: (str(v), True)),
        Format(
            "chain",
            "a list as code, its items joined by arrows",
            ("objectives", "judged"),
            lambda v, _k: (" → ".join(_items(v)), True),
        ),
        Format(
            "count",
            "how many items a list or mapping holds",
            (1, 3, 5),
            lambda v, _k: (str(len(v)), False),
        ),
        Format(
            "list",
            "a list in words, the last item after “and”",
            (1, 3, 5),
            lambda v, _k: (joined(_items(v), "and"), False),
        ),
        Format(
            "or",
            "a list in words, the last item after “or”",
            (1, 3, 5),
            lambda v, _k: (joined(_items(v), "or"), False),
        ),
    )
}
# Rounding to a given number of decimals, "0" to "9".
_DIGITS_MAX = 9
FORMATS.update({str(n): _places(n, "any number") for n in range(_DIGITS_MAX + 1)})


def render(value: Any, code: str, key: str = "") -> Written:
    """``value`` written with the format ``code`` (``key``: the result's name, for
    ``published``). ``None`` and booleans are JSON words, as code; a string that is not a
    number is code too, unless ``plain`` or ``text`` writes it."""
    entry = FORMATS.get(code)
    if entry is None:
        known = ", ".join(c for c in FORMATS if not c.isdigit())
        raise FormatError(f"unknown format {code!r}; the codes are {known}, or 0–{_DIGITS_MAX}")
    if value is None:
        return "null", True
    if isinstance(value, bool):
        return ("true" if value else "false"), True
    if isinstance(value, str) and code not in ("plain", "text", "code"):
        try:
            value = Decimal(value)
        except InvalidOperation:
            return value, True
    try:
        return entry.write(value, key)
    except (FormatError, TypeError, ValueError, ArithmeticError) as error:
        raise FormatError(f"format {code!r} cannot write {value!r}: {error}") from None


def format_codes(site: object) -> str:
    """The table of every format code, each with an example written by the code itself.

    (``site`` is the build's ``Site``, unused: :mod:`macros.site` imports this module.)
    """
    rows = []
    for entry in FORMATS.values():
        if entry.code.isdigit() and entry.code != "0":
            continue
        digits = entry.code == "0"
        code = f"0 … {_DIGITS_MAX}" if digits else entry.code
        # The row of the digits shows one of them at work: two decimals.
        shown, as_code = render(entry.example, "2" if digits else entry.code, "composite.score")
        example_in = (
            entry.example if not isinstance(entry.example, Fraction) else str(entry.example)
        )
        written = f"<code>{esc(shown)}</code>" if as_code else esc(shown)
        writes = "rounded half up to that many decimals" if entry.code == "0" else entry.writes
        rows.append(
            [f"<code>{esc(code)}</code>", esc(writes), f"<code>{esc(example_in)}</code>", written]
        )
    return table("format-codes", ["Code", "Writes", "Value", "Written"], rows)


#: The macros this module renders (see ``macros.MACROS_BY_MODULE``).
MACROS: dict[str, Callable[..., str]] = {"format_codes": format_codes}
