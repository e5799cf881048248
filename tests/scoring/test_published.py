"""The published document (``scoring/published.py``) against the exact report.

``publish`` scores an agent of at most ``SMALL_AGENT_RUNS`` runs from its runs, in
integers, and leaves the others to the exact path: its document must equal
``report_to_json(build_report(...))`` on any log, with the rounding ties included, and the
small path must really be the one taken.
"""

from __future__ import annotations

import os
import random
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from builders import good_run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from report_logs import RANDOM_LOGS, random_log
from report_reference import to_lines

from scoring import Axis, build_report, report_to_json
from scoring import published as published_module
from scoring import serialize as serialize_module
from scoring import uncertainty as uncertainty_module
from scoring.composite import score_composite
from scoring.constants import SCORE_DECIMALS, SCORE_SCALE
from scoring.fast_scores import weight_ratios
from scoring.numeric import ratio_half_up, round_half_up
from scoring.published import publish, small_parts
from scoring.registry import ScoringError
from scoring.report import SMALL_AGENT_RUNS, ReportBuilder, exact_profile_weights, read_runs
from scoring.serialize import document_json_ascii, document_json_text, report_json_text

_SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _documents(
    records: list[dict[str, Any]], weights: dict[Axis, Any] | None = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    lines = to_lines(records)
    return publish(read_runs(lines), weights), report_to_json(build_report(lines, weights))


@_SETTINGS
@given(**RANDOM_LOGS)
def test_the_published_document_is_the_exact_one(
    seed: int, size: int, agents: int, tasks: int, minutes: int
) -> None:
    records = random_log(random.Random(seed), size, agents, tasks, minutes)
    published, exact = _documents(records)
    assert published == exact
    lines = to_lines(records)
    assert document_json_text(published) == report_json_text(build_report(lines))


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    weights=st.lists(st.sampled_from([0, 1, 2, Decimal("0.5"), Decimal("3.25")]), min_size=5),
)
def test_viewer_weights_publish_the_exact_profile(seed: int, weights: list[Any]) -> None:
    records = random_log(random.Random(seed), 120, 40, 4, 60)
    chosen = dict(zip(Axis, weights, strict=False))
    published, exact = _documents(records, chosen)
    assert published == exact


def test_a_negative_weight_is_refused_as_the_exact_report_refuses_it() -> None:
    records = [good_run(i, f"a{i}") for i in range(3)]
    weights = dict.fromkeys(Axis, 1) | {Axis.COST: -1}
    with pytest.raises(ScoringError) as exact:
        build_report(to_lines(records), weights)
    with pytest.raises(ScoringError) as published:
        publish(read_runs(to_lines(records)), weights)
    assert str(published.value) == str(exact.value)


def test_the_small_path_scores_every_small_agent_after_the_first_of_its_kind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Only the first agent with given task counts is scored exactly (it leaves the null
    intervals for the others): a small path that always gave up would pass the
    equality test above and be no faster."""
    exact_scores: list[str] = []
    score = ReportBuilder.score

    def counted(self: ReportBuilder, agent_id: str, weights: Any = None) -> Any:
        exact_scores.append(agent_id)
        return score(self, agent_id, weights)

    monkeypatch.setattr(ReportBuilder, "score", counted)
    records = [
        good_run(
            i, f"a{i}", latency_ms=300 + 7 * i, cost_usd=round(0.001 * (i % 90), 3), steps=i % 9
        )
        for i in range(300)
    ]
    published, exact = _documents(records)
    assert published == exact
    assert len(exact_scores) <= 1


def test_an_agent_over_the_small_limit_is_scored_exactly(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    monkeypatch.setattr(
        published_module, "small_parts", lambda rows, weights: calls.append(len(rows))
    )
    records = [good_run(i, "big", task_id=f"t{i % 3}") for i in range(SMALL_AGENT_RUNS + 1)]
    records += [good_run(1000 + i, "small") for i in range(SMALL_AGENT_RUNS)]
    publish(read_runs(to_lines(records)))
    assert calls == [SMALL_AGENT_RUNS]


@pytest.mark.parametrize(
    ("field", "value"),
    [("latency_ms", 1e-10), ("cost_usd", 1.0000000001e-3), ("latency_ms", 5e6 + 0.5)],
)
def test_a_value_beyond_the_fixed_point_goes_the_exact_way(field: str, value: float) -> None:
    records = [good_run(0, "warm"), good_run(1, "a", **{field: value})]
    builder = read_runs(to_lines(records))
    publish(read_runs(to_lines(records[:1])))  # the null intervals of one task are known
    weights = weight_ratios(exact_profile_weights(None) or {})
    assert small_parts(builder.small_agents()["warm"], weights) is not None
    assert small_parts(builder.small_agents()["a"], weights) is None
    published, exact = _documents(records)
    assert published == exact


@pytest.mark.parametrize("latency", [0, -0.0, 0.0, 10**6, 2**22, 4194304.5])
def test_edge_values_publish_as_the_exact_report(latency: float) -> None:
    records = [good_run(i, f"a{i}", latency_ms=latency, cost_usd=latency / 10**6) for i in range(4)]
    published, exact = _documents(records)
    assert published == exact
    assert document_json_text(published) == report_json_text(build_report(to_lines(records)))


def _tie() -> tuple[int, Decimal]:
    """A latency and a cost whose one-run composite lies exactly halfway between two
    published values (searched among costs of seven decimals, checked exactly)."""
    unit = Fraction(1, 10**SCORE_DECIMALS)
    for step in range(1, 20_000):
        cost = Decimal(step) / 10**7
        score = score_composite(1, 1, 500, cost).score
        assert score is not None
        if (score / unit) % 1 == Fraction(1, 2):
            return 500, cost
    raise AssertionError("no tie among the costs searched")


def test_a_rounding_tie_is_published_half_up_as_the_exact_report() -> None:
    latency, cost = _tie()
    records = [good_run(0, "warm"), good_run(1, "tie", latency_ms=latency, cost_usd=float(cost))]
    published, exact = _documents(records)
    assert published == exact
    shown = {a["agent_id"]: a["composite"]["score"] for a in published["agents"]}
    expected = score_composite(1, 1, latency, cost).score
    assert expected is not None
    assert shown["tie"] == round_half_up(expected, SCORE_DECIMALS)


def test_the_equality_check_catches_a_small_path_that_rounds_a_tie_down(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    latency, cost = _tie()
    records = [good_run(0, "warm"), good_run(1, "tie", latency_ms=latency, cost_usd=float(cost))]
    publish(read_runs(to_lines(records)))  # the null intervals are known: "tie" is small

    def half_down(value: tuple[int, int], places: int) -> float:
        scale = 10**places
        return -((-2 * value[0] * scale + value[1]) // (2 * value[1])) / scale

    monkeypatch.setattr(published_module, "ratio_half_up", half_down)
    published, exact = _documents(records)
    assert published != exact


@given(
    st.one_of(
        st.fractions(min_value=-SCORE_SCALE, max_value=SCORE_SCALE, max_denominator=10**9),
        st.integers(-(10**6), 10**6).map(lambda k: Fraction(2 * k + 1, 2 * 10**SCORE_DECIMALS)),
    ),
    st.integers(0, 6),
)
def test_ratio_half_up_is_round_half_up(value: Fraction, places: int) -> None:
    # Unreduced too: the small path rounds ratios as its integers leave them.
    for ratio in (
        (value.numerator, value.denominator),
        (3 * value.numerator, 3 * value.denominator),
    ):
        assert ratio_half_up(ratio, places) == round_half_up(value, places)


# --- the JSON text, agent by agent (publish_json), on one core or two --------------------


def _json_texts(lines: list[bytes], parallel: bool) -> tuple[bytes | None, bytes | None]:
    """publish_json of the log, and document_json_ascii of its published document."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(published_module, "PARALLEL_MIN_AGENTS", 1 if parallel else 10**9)
        patch.setattr(published_module, "helpers_allowed", lambda: parallel)
        text = published_module.publish_json(read_runs(lines))
    return text, document_json_ascii(publish(read_runs(lines)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    size=st.one_of(st.integers(0, 40), st.integers(200, 600)),
    agents=st.one_of(st.integers(1, 6), st.integers(20, 400)),
    parallel=st.booleans(),
)
def test_the_json_written_agent_by_agent_is_the_documents(
    seed: int, size: int, agents: int, parallel: bool
) -> None:
    records = random_log(random.Random(seed), size, agents, 6, 600)
    text, expected = _json_texts(to_lines(records), parallel)
    assert text == expected


def test_an_id_to_escape_leaves_the_json_to_the_document() -> None:
    lines = to_lines([good_run(1, "agent-é"), good_run(2, "b\x7f"), good_run(3, "plain")])
    text, expected = _json_texts(lines, parallel=True)
    assert text is None
    assert expected is None


def test_the_ranks_of_the_json_text_are_each_agents() -> None:
    """The comparison above can fail: ranks written in the wrong place are caught."""
    lines = to_lines([good_run(i, f"agent-{i}", success=i % 2 == 0) for i in range(8)])
    join = serialize_module.agents_json_ascii

    def swapped(version: str, agents: list[Any]) -> bytes:
        return join(version, [(text, bound, rank) for text, rank, bound in agents])

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(published_module, "agents_json_ascii", swapped)
        text, expected = _json_texts(lines, parallel=False)
    assert text != expected


@pytest.mark.parametrize("how", ["raises", "exits"])
def test_a_failed_helper_leaves_the_json_to_the_parent(how: str) -> None:
    records = random_log(random.Random(3), 300, 200, 6, 600)

    def broken(*args: Any) -> Any:
        if how == "exits":
            os._exit(3)
        raise RuntimeError("helper failed")

    pieces = published_module._pieces
    calls: list[int] = []

    def in_parent(*args: Any) -> Any:
        calls.append(os.getpid())
        return pieces(*args)

    with pytest.MonkeyPatch.context() as patch:
        # The helper breaks; the parent's own calls (its half, then the helper's) work.
        parent = os.getpid()
        patch.setattr(
            published_module,
            "_pieces",
            lambda *args: in_parent(*args) if os.getpid() == parent else broken(*args),
        )
        text, expected = _json_texts(to_lines(records), parallel=True)
    assert text == expected
    assert calls == [parent, parent]


_PUBLISHED = st.one_of(st.none(), st.integers(0, 10_000).map(lambda units: units / 100))


@settings(max_examples=200, deadline=None)
@given(
    agent_id=st.text(min_size=1, max_size=12),
    composite=st.tuples(
        st.lists(_PUBLISHED, min_size=5, max_size=5), st.integers(0, 32), st.booleans()
    ),
    radar=st.tuples(
        st.lists(_PUBLISHED, min_size=5, max_size=5),
        _PUBLISHED,
        st.integers(0, 32),
        st.one_of(st.none(), st.floats(0, 1e7, allow_nan=False), st.floats(1e15, 1e20)),
    ),
    levels=st.lists(st.sampled_from([1, 3, 5, 8]), min_size=1, max_size=3, unique=True),
)
def test_an_agent_written_from_its_values_is_its_documents_text(
    agent_id: str, composite: Any, radar: Any, levels: list[int]
) -> None:
    """The template text of small agents equals the text of the document they would have,
    for any values (and is None exactly where that is None)."""
    intervals = uncertainty_module.NO_INTERVALS
    repeatability = serialize_module.repeatability_part(
        dict.fromkeys(levels, 0.5), len(levels), intervals
    )
    parts = (
        serialize_module.composite_part(*composite, intervals),
        serialize_module.radar_part(*radar, intervals),
        repeatability,
    )
    expected = serialize_module.agent_json_ascii(
        serialize_module.agent_document(agent_id, None, None, parts)
    )
    found = serialize_module.small_agent_json_ascii(
        agent_id, intervals, composite, radar, repeatability
    )
    assert found == expected


def test_the_remembered_texts_are_emptied_when_full(monkeypatch: pytest.MonkeyPatch) -> None:
    """Agents of many different repeatability parts and intervals: the remembered texts
    are emptied and made again, the text stays the document's."""
    monkeypatch.setattr(serialize_module, "_REMEMBERED", 2)
    monkeypatch.setattr(serialize_module, "_TEMPLATES", {})
    monkeypatch.setattr(serialize_module, "_REPEATABILITY_TEXTS", {})
    records = random_log(random.Random(11), 600, 150, 9, 600)
    text, expected = _json_texts(to_lines(records), parallel=False)
    assert text == expected
    assert len(serialize_module._REPEATABILITY_TEXTS) <= 2
