"""The fast lane's cap on Hypothesis examples (``tests/conftest.py``): in a session run with
``-m "not slow"`` every property draws at most ``FAST_LANE_EXAMPLES``, also one defined and
run inside a test's body; in any other session each draws what it asks for."""

from __future__ import annotations

import pytest
from fast_lane import FAST_LANE, FAST_LANE_EXAMPLES
from hypothesis import given, settings, strategies as st

ASKED = 3 * FAST_LANE_EXAMPLES


def _expected(config: pytest.Config, asked: int) -> int:
    fast = config.getoption("markexpr", "") == FAST_LANE
    return min(asked, FAST_LANE_EXAMPLES) if fast else asked


def test_a_property_inside_a_test_draws_what_the_lane_allows(
    request: pytest.FixtureRequest,
) -> None:
    drawn: list[int] = []

    @settings(max_examples=ASKED, database=None, deadline=None)
    @given(st.integers())
    def check(value: int) -> None:
        drawn.append(value)

    check()
    assert len(drawn) == _expected(request.config, ASKED)


def test_fewer_examples_than_the_cap_are_left_alone(request: pytest.FixtureRequest) -> None:
    assert settings(max_examples=5).max_examples == 5
    assert settings(max_examples=ASKED).max_examples == _expected(request.config, ASKED)
