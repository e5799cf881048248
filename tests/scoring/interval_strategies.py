"""Hypothesis strategies for the interval formulas of ``scoring.intervals.variance`` (1.1.0).

``test_registry.FORMULA_ARGUMENTS`` takes ``INTERVAL_FORMULA_ARGUMENTS``: the arguments of
every interval formula that states a range, within its documented domain.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st


@st.composite
def task_sums(draw: st.DrawFn, max_tasks: int = 12, max_runs: int = 6) -> list[tuple[int, int]]:
    """(runs n_t, sum of 0/1 values c_t) for 2 to ``max_tasks`` tasks."""
    found = []
    for _ in range(draw(st.integers(2, max_tasks))):
        runs = draw(st.integers(1, max_runs))
        found.append((runs, draw(st.integers(0, runs))))
    return found


@st.composite
def fractional_task_sums(draw: st.DrawFn) -> list[tuple[int, Any]]:
    """(runs n_t, sum of values in [0, 1]) for 2 to 12 tasks: any value, not only 0 or 1."""
    found = []
    for _ in range(draw(st.integers(2, 12))):
        runs = draw(st.integers(1, 6))
        values = draw(
            st.lists(st.fractions(0, 1, max_denominator=1000), min_size=runs, max_size=runs)
        )
        found.append((runs, sum(values)))
    return found


INTERVAL_FORMULA_ARGUMENTS: dict[str, st.SearchStrategy[tuple[Any, ...]]] = {
    "uncertainty.clustered_variance": st.tuples(st.one_of(task_sums(), fractional_task_sums())),
    # The t factor at the default level, over every number of tasks an interval can have.
    "uncertainty.t_factor": st.tuples(st.integers(2, 10**6)),
    "quantiles.beta_quantile": st.tuples(
        st.floats(0, 1),
        st.floats(1e-3, 1e4, allow_nan=False),
        st.floats(1e-3, 1e4, allow_nan=False),
    ),
}
