"""Exact arithmetic (``scoring.numeric``): sums equal the decimals as written."""

from __future__ import annotations

from decimal import Decimal, localcontext
from fractions import Fraction

from hypothesis import given, settings, strategies as st

from scoring.report.cohort import CohortSums

# --- exact sums as written --------------------------------------------------------------------


floats_as_logged = st.one_of(
    st.floats(min_value=0, max_value=1e308, allow_nan=False, allow_infinity=False),
    st.floats(min_value=0, max_value=2**23, allow_nan=False),
    st.decimals(min_value=0, max_value=10**7, places=9, allow_nan=False).map(float),
    st.integers(0, 2**40).map(lambda i: i / 2**18),
)


@settings(max_examples=200, deadline=None)
@given(st.lists(floats_as_logged, max_size=40))
def test_exact_sums_equal_the_decimals_as_written(values: list[float]) -> None:
    # The report's sums (scoring.report.cohort) take a fixed-point short cut; they must
    # equal Σ Decimal(repr(x)), per task and in total.
    with localcontext() as context:
        context.prec = 2000
        expected = sum((Decimal(repr(v)) for v in values), Decimal(0))
    sums = CohortSums()
    tasks = [f"t{i % 3}" for i in range(len(values))]
    sums.add(tasks, [True] * len(values), values, values)
    assert sum(task[3] for task in sums.tasks()) == Fraction(expected)
    assert sum(task[4] for task in sums.tasks()) == Fraction(expected)
