"""The report's published document (``report --format json``), small agents from their runs.

What ``python -m scoring report`` prints is rounded scores and unrounded medians, not the
exact values of :class:`scoring.report.Report`. An agent of at most
``SMALL_AGENT_RUNS`` runs, which the reading keeps as they are, is scored here straight
from them: the formulas of :mod:`scoring.fast_scores` on integer ratios, each published
value rounded from its ratio, no per-agent state and no ``Fraction`` on the way. So 20,000
agents of one run each cost about what 20,000 runs of one agent cost
(``benchmarks/bench_report.py``). Every other agent, and a small one this path leaves to
the exact one (a value that is not a whole number of 10^-9 units as written, enough tasks
for an interval, a negative weight), is scored by :mod:`scoring.report` and written by
:func:`scoring.serialize.agent_to_json`. Both paths write through the same parts of
:mod:`scoring.serialize`; ``tests/scoring/test_published.py`` proves the document equal to
``report_to_json(build_report(...))`` on random logs and on the edges.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from scoring import fast_scores
from scoring.constants import (
    FRACTION_DECIMALS,
    METHODOLOGY_VERSION,
    RADAR_LATENCY_MIN_RUNS,
    REPEATABILITY_MIN_OUTCOMES,
    SCORE_DECIMALS,
    Axis,
)
from scoring.fast_scores import Ratio
from scoring.forking import Helper, helpers_allowed
from scoring.numeric import Number, as_written, ratio_half_up, round_half_up
from scoring.radar import latency_axis
from scoring.report import (
    ReportBuilder,
    collector_paused,
    exact_profile_weights,
    few_tasks_intervals,
    ranking,
)
from scoring.report_cohort import FIXED_SCALE, units_of, whole_units
from scoring.report_input import TERMINAL, RunRow
from scoring.serialize import (
    agent_document,
    agent_json_ascii,
    agent_to_json,
    agents_json_ascii,
    composite_part,
    radar_part,
    repeatability_part,
    with_ranks,
)
from scoring.uncertainty import AgentIntervals, Interval

_COMPLETED, _FAILED, _TIMEOUT = TERMINAL
_NO_COMPOSITE: tuple[None, ...] = (None,) * 5
Parts = tuple[dict[str, Any], dict[str, Any], dict[str, Any]]


def publish(builder: ReportBuilder, weights: Mapping[Axis, Number] | None = None) -> dict[str, Any]:
    """``report_to_json(builder.finish(weights))``, the same document, small agents scored
    from their runs. The builder's small agents left to the exact path are accounted for
    on the way."""
    with collector_paused():
        return _publish(builder, weights)


def _publish(builder: ReportBuilder, weights: Mapping[Axis, Number] | None) -> dict[str, Any]:
    axis_weights = _axis_weights(weights)
    documents: list[dict[str, Any]] = []
    intervals: list[Interval | None] = []
    large = builder.large_agents()  # before a small agent left to the exact path joins them
    for agent_id, rows in list(builder.small_agents().items()):
        document, interval = _small_document(builder, agent_id, rows, weights, axis_weights)
        documents.append(document)
        intervals.append(interval)
    for agent_id in large:
        document, interval = _exact_document(builder, agent_id, weights)
        documents.append(document)
        intervals.append(interval)
    order, ranks, bounds = ranking(
        [document["composite"]["score"] for document in documents],
        [document["agent_id"] for document in documents],
        intervals,
    )
    ranked = [documents[i] for i in order]
    for document, rank, bound in zip(ranked, ranks, bounds, strict=True):
        document["rank"] = rank
        document["rank_upper_bound"] = bound
    return {"methodology_version": METHODOLOGY_VERSION, "agents": ranked}


# Small agents from this many on are published on two cores, where a second one is free:
# a forked helper (scoring.forking) writes the JSON of the later half. Below it the fork
# costs more than it saves.
PARALLEL_MIN_AGENTS = 2048

# An agent as publish_json places it: its id, published composite, exact composite
# interval (the rank bounds read them) and its JSON text, ranks null.
_Piece = tuple[str, float | None, Interval | None, bytes]


def publish_json(
    builder: ReportBuilder, weights: Mapping[Axis, Number] | None = None
) -> bytes | None:
    """``document_json_ascii(publish(builder, weights))``, the same bytes, written agent by
    agent: the JSON of many small agents on two cores. ``None`` where that is ``None`` (an
    agent msgspec would write otherwise than ``json.dumps``, or a character to escape);
    :func:`publish` still gives the document then."""
    with collector_paused():
        return _publish_json(builder, weights)


def _publish_json(builder: ReportBuilder, weights: Mapping[Axis, Number] | None) -> bytes | None:
    axis_weights = _axis_weights(weights)
    large = builder.large_agents()
    small = list(builder.small_agents().items())
    half = len(small)
    helper = None
    if half >= PARALLEL_MIN_AGENTS and helpers_allowed():
        half //= 2
        later_agents = small[half:]
        helper = Helper(lambda: _pieces(builder, later_agents, weights, axis_weights))
    try:
        pieces = _pieces(builder, small[:half], weights, axis_weights)
        if pieces is None:
            return None
        if helper is not None:
            later = helper.result()
            if later is None:  # the helper failed: its agents are written here
                later = _pieces(builder, small[half:], weights, axis_weights)
            if later is None:
                return None
            pieces += later
    finally:
        if helper is not None:
            helper.stop()
    for agent_id in large:
        document, interval = _exact_document(builder, agent_id, weights)
        text = agent_json_ascii(document)
        if text is None:
            return None
        pieces.append((agent_id, document["composite"]["score"], interval, text))
    order, ranks, bounds = ranking(
        [p[1] for p in pieces], [p[0] for p in pieces], [p[2] for p in pieces]
    )
    return agents_json_ascii(
        METHODOLOGY_VERSION,
        [
            with_ranks(pieces[i][3], rank, bound)
            for i, rank, bound in zip(order, ranks, bounds, strict=True)
        ],
    )


def _pieces(
    builder: ReportBuilder,
    agents: Sequence[tuple[str, Sequence[RunRow]]],
    weights: Mapping[Axis, Number] | None,
    axis_weights: Sequence[Ratio | None] | None,
) -> list[_Piece] | None:
    """The pieces of small agents; ``None`` if one has no :func:`agent_json_ascii` text."""
    pieces: list[_Piece] = []
    for agent_id, rows in agents:
        document, interval = _small_document(builder, agent_id, rows, weights, axis_weights)
        text = agent_json_ascii(document)
        if text is None:
            return None
        pieces.append((agent_id, document["composite"]["score"], interval, text))
    return pieces


def _axis_weights(weights: Mapping[Axis, Number] | None) -> list[Ratio | None] | None:
    """The profile's weights as ratios, by axis; ``None`` if one is negative (every agent
    then goes the exact way, which names the problem)."""
    exact = exact_profile_weights(weights)
    return None if exact is None else fast_scores.weight_ratios(exact)


def _small_document(
    builder: ReportBuilder,
    agent_id: str,
    rows: Sequence[RunRow],
    weights: Mapping[Axis, Number] | None,
    axis_weights: Sequence[Ratio | None] | None,
) -> tuple[dict[str, Any], Interval | None]:
    """A small agent's object (ranks ``None``) and exact composite interval: from its runs,
    or the exact way where :func:`small_parts` leaves it to that."""
    parts = None if axis_weights is None else small_parts(rows, axis_weights)
    if parts is None:
        return _exact_document(builder, agent_id, weights)
    return agent_document(agent_id, None, None, parts), None  # fewer tasks than an interval needs


def _exact_document(
    builder: ReportBuilder, agent_id: str, weights: Mapping[Axis, Number] | None
) -> tuple[dict[str, Any], Interval | None]:
    """An agent's object (ranks ``None``) and composite interval, scored the exact way."""
    agent = builder.score(agent_id, weights)
    return agent_to_json(agent), agent.intervals.composite


def small_parts(rows: Sequence[RunRow], weights: Sequence[Ratio | None]) -> Parts | None:
    """The composite, radar and repeatability parts of an agent of at most
    ``SMALL_AGENT_RUNS`` runs (every terminal one is in its radar window), from its runs;
    ``None`` where the exact path must score it. ``weights``: the profile's, by axis.

    The repeatability part is shared by the agents with the same per-task outcomes and
    interval counts (read, never changed: the document is written out as it is).
    """
    completed: list[RunRow] = []
    window: list[RunRow] = []
    # (passes, known outcomes) per task: the robustness axis's and, as (n, c), pass^k's.
    per_task: dict[str, list[int]] = {}
    for r in rows:
        status = r.status
        if status is _COMPLETED:
            completed.append(r)
        elif status is not _FAILED and status is not _TIMEOUT:
            continue
        window.append(r)
        success = r.success
        if success is not None:
            tally = per_task.get(r.task_id)
            if tally is None:
                per_task[r.task_id] = [1 if success else 0, 1]
            else:
                tally[0] += success
                tally[1] += 1
    cohort_tasks = len({r.task_id for r in completed}) if len(completed) > 1 else len(completed)
    tallies = list(per_task.values())
    outcomes = ((tallies[0][1], tallies[0][0]),) if len(tallies) == 1 else _outcomes(tallies)
    qualifying = 0
    if len(window) >= REPEATABILITY_MIN_OUTCOMES:
        qualifying = sum(1 for k, _ in outcomes if k >= REPEATABILITY_MIN_OUTCOMES)
    counts = (cohort_tasks, len(per_task), qualifying)
    found = few_tasks_intervals(counts)
    if found is None:
        return None  # enough tasks for an interval, or the first agent with these counts
    composite = _composite(completed, found)
    if composite is None:
        return None
    return (
        composite,
        _radar(window, per_task, weights, found),
        _repeatability_part(outcomes, counts),
    )


def _outcomes(tallies: list[list[int]]) -> tuple[tuple[int, int], ...]:
    """``(n, c)`` per task, sorted, of ``[passes, known]`` tallies."""
    return tuple(sorted([(k, p) for p, k in tallies]))


def _composite(completed: list[RunRow], intervals: AgentIntervals) -> dict[str, Any] | None:
    n = len(completed)
    if not n:
        return composite_part(_NO_COMPOSITE, 0, False, intervals)
    if n == 1:
        latency = units_of(completed[0].latency_ms)  # type: ignore[arg-type]
        cost = units_of(completed[0].cost_usd)  # type: ignore[arg-type]
    else:
        latency = whole_units([r.latency_ms for r in completed])  # type: ignore[misc]
        cost = whole_units([r.cost_usd for r in completed])  # type: ignore[misc]
    if latency is None or cost is None:
        return None  # a value beyond 10^-9 units: the exact sums
    successes = sum(1 for r in completed if r.success) if n > 1 else int(bool(completed[0].success))
    score, rate, consistency, latency_score, cost_score = fast_scores.composite_ratios(
        n, successes, (latency, FIXED_SCALE), (cost, FIXED_SCALE)
    )
    published = (
        ratio_half_up(score, SCORE_DECIMALS),
        ratio_half_up(rate, FRACTION_DECIMALS),
        ratio_half_up(consistency, FRACTION_DECIMALS),
        ratio_half_up(latency_score, SCORE_DECIMALS),
        ratio_half_up(cost_score, SCORE_DECIMALS),
    )
    return composite_part(published, n, successes == 0, intervals)


def _radar(
    window: list[RunRow],
    per_task: dict[str, list[int]],
    weights: Sequence[Ratio | None],
    intervals: AgentIntervals,
) -> dict[str, Any]:
    passes = known = 0
    for p, k in per_task.values():
        passes += p
        known += k
    latencies = [r.latency_ms for r in window if r.latency_ms is not None]
    median_latency = _median(latencies)
    latency = None
    if median_latency is not None and len(latencies) >= RADAR_LATENCY_MIN_RUNS:
        latency = latency_axis(Fraction(*median_latency), len(latencies))
    median_cost = _median([r.cost_usd for r in window if r.cost_usd is not None])
    median_steps = _median([r.steps for r in window if r.steps is not None])
    axes: list[Ratio | None] = [
        fast_scores.correctness_ratio(passes, known),
        None if latency is None else latency.as_integer_ratio(),
        None if median_cost is None else fast_scores.cost_axis_ratio(median_cost),
        None if median_steps is None else fast_scores.tool_efficiency_ratio(_number(median_steps)),
        fast_scores.robustness_ratio(tuple([(p, k) for p, k in per_task.values()])),
    ]
    profile = fast_scores.profile_ratio(zip(axes, weights, strict=True))
    return radar_part(
        [None if axis is None else ratio_half_up(axis, SCORE_DECIMALS) for axis in axes],
        None if profile is None else ratio_half_up(profile, SCORE_DECIMALS),
        len(window),
        None if median_latency is None else median_latency[0] / median_latency[1],
        intervals,
    )


def _number(value: Ratio) -> int | Fraction:
    """A ratio as an int when it is whole (a cache key equal to its ``Fraction``)."""
    whole, rest = divmod(value[0], value[1])
    return Fraction(*value) if rest else whole


def _median(values: list[float] | list[int]) -> Ratio | None:
    """The median of numbers, exact as written (an even count averages), as a ratio;
    ``None`` if there are none. Sorts ``values``."""
    if len(values) < 2:
        return _written(values[0]) if values else None
    values.sort()
    ordered = values
    middle = len(ordered) // 2
    if len(ordered) % 2:
        return _written(ordered[middle])
    (a, b), (c, d) = _written(ordered[middle - 1]), _written(ordered[middle])
    return a * d + c * b, 2 * b * d


def _written(value: float | int) -> Ratio:
    """A JSON number exactly as written, as a ratio (``scoring.numeric.as_written``)."""
    if type(value) is int:
        return value, 1
    units = units_of(value)
    if units is not None:
        return units, FIXED_SCALE
    return as_written(value).as_integer_ratio()


@functools.lru_cache(maxsize=1 << 12)
def _repeatability_part(
    tasks: tuple[tuple[int, int], ...], counts: tuple[int, int, int]
) -> dict[str, Any]:
    """The repeatability part of sorted ``(n, c)`` per task, with the (null) intervals of
    an agent with these counts of tasks (see ``few_tasks_intervals``)."""
    intervals = few_tasks_intervals(counts)
    if intervals is None:  # pragma: no cover - only called once they are known
        raise LookupError(counts)
    result = fast_scores.repeatability(tasks)
    published = {
        k: None if v is None else round_half_up(v, FRACTION_DECIMALS)
        for k, v in result.pass_hat.items()
    }
    return repeatability_part(published, result.tasks, intervals)


__all__ = ["publish", "publish_json", "small_parts"]
