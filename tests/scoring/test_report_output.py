"""The per-task sums of the report's cohort: one run at a time and a batch agree."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from scoring.report.cohort import CohortSums

amounts = st.one_of(
    st.floats(min_value=0, max_value=1e30, allow_nan=False),
    st.sampled_from([0.0, 1e-7, 9.99e-5, 1e-4, 1e16, 2.5e17, 123.456]),
)


# --- per-agent shortcuts -----------------------------------------------------------------


@settings(max_examples=300)
@given(
    st.lists(
        st.tuples(
            st.sampled_from(["a", "b", "c"]),
            st.sampled_from([True, False, None]),
            amounts,
            amounts,
        ),
        min_size=1,
        max_size=12,
    )
)
def test_one_run_at_a_time_gives_the_batch_sums(
    runs: list[tuple[str, bool | None, float, float]],
) -> None:
    """``CohortSums.add`` of one run (its own shortcut) and of the whole batch agree."""
    batch, single = CohortSums(), CohortSums()
    batch.add(*map(list, zip(*runs, strict=True)))
    for task, success, latency, cost in runs:
        single.add([task], [success], [latency], [cost])
    assert single.tasks() == batch.tasks()
