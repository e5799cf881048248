"""One exact-number formatter (``scoring.numeric.number_text``) behind every caller: the
formulas' LaTeX, the snapshot's data, the pages' markup, the plots' data tables and the
words check. The same value asked for with the same options prints the same everywhere,
and :func:`scoring.numeric.parse_number` reads back what it writes."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest
from hypothesis import given, settings, strategies as st
from support import import_macros

from contracts.build import exact_value
from contracts.check.claims import Explainer
from scoring.numeric import number_text, parse_number
from scoring.registry import tex_number

markup = import_macros("macros.markup")
plots = import_macros("macros.plots")

decimals = st.decimals(
    min_value=Decimal("-1e9"), max_value=Decimal("1e9"), allow_nan=False, places=6
)
fractions = st.fractions(max_denominator=10**6).filter(lambda f: abs(f) < 10**9)


@settings(max_examples=200, deadline=None)
@given(decimals)
def test_a_constant_prints_alike_in_latex_data_and_pages(value: Decimal) -> None:
    data = number_text(value)
    assert tex_number(value) == data  # the formula's LaTeX
    assert exact_value(Fraction(value)).exact == data  # the snapshot
    assert markup.trimmed(value) == number_text(value, grouping=True)  # a page
    assert markup.trimmed(value).replace(",", "") == data  # grouping is the one difference
    assert markup.plain(value) == number_text(value, as_written=True, grouping=True)
    assert parse_number(markup.plain(value)) == value


@settings(max_examples=200, deadline=None)
@given(fractions)
def test_a_result_prints_alike_in_data_pages_plots_and_messages(value: Fraction) -> None:
    data = exact_value(value).exact
    assert data == number_text(value)
    assert markup.exact_text(value) == number_text(value, grouping=True)
    assert markup.exact_text(value).replace(",", "") == data
    assert plots._value(value) == number_text(value, max_places=plots.DATA_TABLE_PLACES)
    assert Explainer("x", value, "run", frozenset(), "constant").show() == f"x = {data}"
    assert parse_number(data) == value
    assert parse_number(markup.exact_text(value)) == value


@pytest.mark.parametrize(
    ("value", "text"),
    [
        # Longer than Decimal's 28 digits of precision: exact, where the old formatter of
        # the snapshot raised InvalidOperation.
        (Fraction(1, 2**60), "0.000000000000000000867361737988403547205962240695953369140625"),
        (Fraction(-1, 3), "-1/3"),
        (Fraction(12345678, 7), "12345678/7"),  # p/q is never grouped
    ],
)
def test_exact_text_is_exact(value: Fraction, text: str) -> None:
    assert number_text(value) == text
    assert exact_value(value).exact == text
    assert parse_number(text) == value


@pytest.mark.parametrize(
    ("value", "places", "text"),
    [
        (Fraction(5, 100000), 4, "0.0001"),
        (Fraction(-1, 100000), 4, "0.0000"),
        (Fraction(1, 8), 2, "0.13"),
    ],
)
def test_places_round_half_up_without_minus_zero(value: Fraction, places: int, text: str) -> None:
    assert number_text(value, places=places) == text


def test_the_plot_table_rounds_like_everything_else() -> None:
    """Half up, exact: not the binary float's rounding (0.00005 is 0.0001, not 0)."""
    assert plots._value(Fraction(5, 100000)) == "0.0001"
    assert plots._value(Fraction(-1, 100000)) == "0"
    assert plots._value(Fraction(1, 2)) == "0.5"


@pytest.mark.parametrize("text", ["1e3", "1,00", " 1", "١", "inf", "1/0", "1/-2", "", "0x10"])
def test_parse_number_refuses_what_number_text_never_writes(text: str) -> None:
    with pytest.raises(ValueError, match="number"):
        parse_number(text)
