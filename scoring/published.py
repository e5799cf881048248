"""The report's published document (``report --format json``), small agents from their runs.

What ``python -m scoring report`` prints is rounded scores and unrounded medians, not the
exact values of :class:`scoring.report.Report`. An agent of at most
``SMALL_AGENT_RUNS`` runs, which the reading keeps as they are, is scored here straight
from them, no per-agent state and no ``Fraction`` on the way: the values that come from
counts on integer ratios (remembered), the continuous ones (composite score, latency and
cost scores, cost axis, profile) in floats whose distance from the exact value
:mod:`scoring.fast_scores` bounds. A value is rounded from its float only where every
number within the bound rounds alike (:func:`scoring.numeric.float_half_up`); near a tie
(costs written with a few decimals put the cost axis on one often) the exact ratios are
rounded. So 20,000 agents of one run each cost about what 20,000 runs of one agent cost
(``benchmarks/bench_report.py``). Every other agent, and a small one this path leaves to
the exact one (a value that is not a whole number of 10^-9 units as written, enough tasks
for an interval, a negative weight), is scored by :mod:`scoring.report` and written by
:func:`scoring.serialize.agent_to_json`. Both paths write through the same parts of
:mod:`scoring.serialize`; ``tests/scoring/test_published.py`` proves the document equal to
``report_to_json(build_report(...))`` on random logs and on the edges,
``tests/scoring/test_fast_floats.py`` each float bound against exact arithmetic.

:func:`publish_json` writes the document's text agent by agent; many small agents are
written on two cores where a second one is free (a forked helper writes the later half).
"""

from __future__ import annotations

import functools
from array import array
from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import accumulate
from typing import Any, NamedTuple, TypeVar

from scoring import fast_scores
from scoring.constants import (
    FRACTION_DECIMALS,
    METHODOLOGY_VERSION,
    RADAR_LATENCY_MIN_RUNS,
    REPEATABILITY_MIN_OUTCOMES,
    SCORE_DECIMALS,
    SCORE_SCALE,
    Axis,
)
from scoring.fast_scores import Ratio
from scoring.forking import Helper, helpers_allowed
from scoring.numeric import (
    UNIT_ROUNDOFF,
    Number,
    as_written,
    float_half_up,
    ratio_half_up,
    round_half_up,
)
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
    AgentText,
    CompositeValues,
    RadarValues,
    agent_document,
    agent_json_ascii,
    agent_to_json,
    agents_json_ascii,
    composite_part,
    radar_part,
    repeatability_part,
    small_agent_json_ascii,
)
from scoring.uncertainty import AgentIntervals, Interval

_COMPLETED, _FAILED, _TIMEOUT = TERMINAL
T = TypeVar("T", int, float)
_NO_COMPOSITE: tuple[None, ...] = (None,) * 5
Parts = tuple[dict[str, Any], dict[str, Any], dict[str, Any]]


class SmallValues(NamedTuple):
    """A small agent's published values, as :func:`small_values` finds them: its (null)
    intervals, the composite's and the radar's values (the arguments of
    ``serialize.composite_part`` and ``serialize.radar_part`` before the intervals) and its
    repeatability part (shared, never changed)."""

    intervals: AgentIntervals
    composite: CompositeValues
    radar: RadarValues
    repeatability: dict[str, Any]


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
# The share of the small agents the helper writes: a little under half, as it also sends
# them back (and starts on memory it shares with the parent until it writes to it).
HELPER_SHARE = 0.47

# An agent as publish_json places it: its id, published composite, exact composite
# interval (the rank bounds read them) and its JSON text around its ranks.
_Piece = tuple[str, float | None, Interval | None, AgentText]


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
        half = round(half * (1 - HELPER_SHARE))
        later_agents = small[half:]
        helper = Helper(lambda: _packed(_pieces(builder, later_agents, weights, axis_weights)))
    try:
        pieces = _pieces(builder, small[:half], weights, axis_weights)
        if pieces is None:
            return None
        if helper is not None:
            packed = helper.result()
            later = None if packed is None else _unpacked(packed)
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
        [(pieces[i][3], rank, bound) for i, rank, bound in zip(order, ranks, bounds, strict=True)],
    )


def _pieces(
    builder: ReportBuilder,
    agents: Sequence[tuple[str, Sequence[RunRow]]],
    weights: Mapping[Axis, Number] | None,
    axis_weights: Sequence[Ratio | None] | None,
) -> list[_Piece] | None:
    """The pieces of small agents; ``None`` if one has no text (see :func:`publish_json`).

    An agent scored from its runs is written from its values (``small_agent_json_ascii``:
    no document built); one left to the exact path from its document."""
    pieces: list[_Piece] = []
    for agent_id, rows in agents:
        values = None if axis_weights is None else small_values(rows, axis_weights)
        if values is None:
            document, interval = _exact_document(builder, agent_id, weights)
            text = agent_json_ascii(document)
            score = document["composite"]["score"]
        else:
            text = small_agent_json_ascii(agent_id, *values)
            score, interval = values.composite[0][0], None
        if text is None:
            return None
        pieces.append((agent_id, score, interval, text))
    return pieces


# The helper's pieces as it sends them back: their ids, composites and intervals, and
# every text joined in one bytes with the length of each part (a few objects through the
# helper's file instead of several per agent).
_Packed = tuple[list[str], list[float | None], list[Interval | None], bytes, "array[int]"]


def _packed(pieces: list[_Piece] | None) -> _Packed | None:
    """Pieces as the helper sends them back (:func:`_unpacked` gives them back)."""
    if pieces is None:
        return None
    texts = [part for piece in pieces for part in piece[3]]
    return (
        [piece[0] for piece in pieces],
        [piece[1] for piece in pieces],
        [piece[2] for piece in pieces],
        b"".join(texts),
        array("Q", map(len, texts)),
    )


def _unpacked(packed: _Packed) -> list[_Piece]:
    """The pieces of :func:`_packed`, each text a view of the one bytes (no copy)."""
    agent_ids, scores, intervals, joined, lengths = packed
    view = memoryview(joined)
    ends = list(accumulate(lengths))
    parts = [view[start:end] for start, end in zip([0, *ends], ends, strict=False)]
    texts: list[AgentText] = list(zip(parts[0::2], parts[1::2], strict=True))
    return list(zip(agent_ids, scores, intervals, texts, strict=True))


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
    values = small_values(rows, weights)
    if values is None:
        return None
    return (
        composite_part(*values.composite, values.intervals),
        radar_part(*values.radar, values.intervals),
        values.repeatability,
    )


def small_values(rows: Sequence[RunRow], weights: Sequence[Ratio | None]) -> SmallValues | None:
    """What :func:`small_parts` builds the parts of (the published values and the null
    intervals); ``None`` where the exact path must score the agent."""
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
    composite = _composite(completed)
    if composite is None:
        return None
    return SmallValues(
        found, composite, _radar(window, per_task, weights), _repeatability_part(outcomes, counts)
    )


def _outcomes(tallies: list[list[int]]) -> tuple[tuple[int, int], ...]:
    """``(n, c)`` per task, sorted, of ``[passes, known]`` tallies."""
    return tuple(sorted([(k, p) for p, k in tallies]))


# The float attempt of a small agent's continuous values (composite score, latency and cost
# scores; cost axis and profile): fast_scores bounds each float's distance from the exact
# value, and a published value is taken from the float only when every number that close
# rounds alike (numeric.float_half_up); else the exact ratios are rounded, as before. The
# bounds are used a thousand times over: they were derived by hand, and a wider margin
# only sends a few more values (those within about 1e-10 of a tie) the exact way.
_BOUND_MARGIN = 1000
_COMPOSITE_ERROR = _BOUND_MARGIN * fast_scores.COMPOSITE_FLOAT_ERROR
_COST_AXIS_ERROR = _BOUND_MARGIN * fast_scores.COST_AXIS_FLOAT_ERROR
# An axis from a ratio of integers is within u of it (one correctly rounded quotient).
_RATIO_AXIS_ERROR = UNIT_ROUNDOFF * float(SCORE_SCALE)
_PROFILE_ERROR = _BOUND_MARGIN * (
    max(fast_scores.COST_AXIS_FLOAT_ERROR, _RATIO_AXIS_ERROR) + fast_scores.PROFILE_FLOAT_ROUNDING
)


def _composite(completed: list[RunRow]) -> CompositeValues | None:
    """The composite's published values, completed runs and zero-success floor."""
    n = len(completed)
    if not n:
        return _NO_COMPOSITE, 0, False
    if n == 1:
        latency = units_of(completed[0].latency_ms)  # type: ignore[arg-type]
        cost = units_of(completed[0].cost_usd)  # type: ignore[arg-type]
    else:
        latency = whole_units([r.latency_ms for r in completed])  # type: ignore[misc]
        cost = whole_units([r.cost_usd for r in completed])  # type: ignore[misc]
    if latency is None or cost is None:
        return None  # a value beyond 10^-9 units: the exact sums
    successes = sum(1 for r in completed if r.success) if n > 1 else int(bool(completed[0].success))
    # The exact means are latency / (n·10^9) and cost / (n·10^9): one quotient of integers
    # each, correctly rounded.
    units = n * FIXED_SCALE
    score, latency_score, cost_score = fast_scores.composite_floats(
        n, successes, latency / units, cost / units
    )
    rate, consistency = _count_parts(n, successes)
    published = (
        float_half_up(score, SCORE_DECIMALS, _COMPOSITE_ERROR),
        rate,
        consistency,
        float_half_up(latency_score, SCORE_DECIMALS, _COMPOSITE_ERROR),
        float_half_up(cost_score, SCORE_DECIMALS, _COMPOSITE_ERROR),
    )
    if None in published:  # near a tie: the exact ratios
        ratios = fast_scores.composite_ratios(
            n, successes, (latency, FIXED_SCALE), (cost, FIXED_SCALE)
        )
        published = (
            ratio_half_up(ratios[0], SCORE_DECIMALS),
            rate,
            consistency,
            ratio_half_up(ratios[3], SCORE_DECIMALS),
            ratio_half_up(ratios[4], SCORE_DECIMALS),
        )
    return published, n, successes == 0


@functools.lru_cache(maxsize=1 << 12)
def _count_parts(completed: int, successes: int) -> tuple[float, float]:
    """The published success rate and consistency of these counts (exact ratios)."""
    consistency = fast_scores.consistency_ratio(completed, successes)
    return (
        ratio_half_up((successes, completed), FRACTION_DECIMALS),
        ratio_half_up(consistency, FRACTION_DECIMALS),
    )


@functools.lru_cache(maxsize=1 << 14)
def _ratio_axis(value: Ratio | None) -> tuple[float | None, float | None]:
    """An axis given as an exact ratio: its float (for the profile) and published value."""
    if value is None:
        return None, None
    return value[0] / value[1], ratio_half_up(value, SCORE_DECIMALS)


@functools.lru_cache(maxsize=64)
def _float_weights(weights: tuple[Ratio | None, ...]) -> list[float | None] | None:
    return fast_scores.float_weights(weights)


def _radar(
    window: list[RunRow], per_task: dict[str, list[int]], weights: Sequence[Ratio | None]
) -> RadarValues:
    """The radar's published axes and profile, window size and median latency."""
    tallies = tuple([(p, k) for p, k in per_task.values()])
    latencies = [r.latency_ms for r in window if r.latency_ms is not None]
    costs = [r.cost_usd for r in window if r.cost_usd is not None]
    steps = [r.steps for r in window if r.steps is not None]
    median_latency = _median(latencies)  # published as it is: exact as written
    latency: Ratio | None = None
    if median_latency is not None and len(latencies) >= RADAR_LATENCY_MIN_RUNS:
        exact_axis = latency_axis(Fraction(*median_latency), len(latencies))
        latency = None if exact_axis is None else exact_axis.as_integer_ratio()
    # The axes from counts and the latency axis are exact ratios; the cost axis a float
    # (a median of floats within 2u of the exact median as written, relatively).
    counted = _counted_axes(tallies, None if not steps else _steps_median(steps))
    latency_f, latency_p = _ratio_axis(latency)
    cost_f = cost = None
    if costs:
        cost_f = fast_scores.cost_axis_float(_float_median(costs))
        cost = float_half_up(cost_f, SCORE_DECIMALS, _COST_AXIS_ERROR)
    axes_f = [counted.correctness_f, latency_f, cost_f, counted.tool_f, counted.robustness_f]
    float_weights = _float_weights(tuple(weights))
    profile = None
    if float_weights is not None:
        profile_f = fast_scores.profile_float(axes_f, float_weights)
        if profile_f is not None:
            profile = float_half_up(profile_f, SCORE_DECIMALS, _PROFILE_ERROR)
    if (costs and cost is None) or (profile is None and _has_profile(weights, axes_f)):
        # Near a tie (or weights a float cannot hold): the exact ratios.
        exact_median = _median(costs)
        cost_ratio = None if exact_median is None else fast_scores.cost_axis_ratio(exact_median)
        cost = None if cost_ratio is None else ratio_half_up(cost_ratio, SCORE_DECIMALS)
        axes = [counted.correctness, latency, cost_ratio, counted.tool, counted.robustness]
        exact_profile = fast_scores.profile_ratio(zip(axes, weights, strict=True))
        profile = None if exact_profile is None else ratio_half_up(exact_profile, SCORE_DECIMALS)
    return (
        (counted.correctness_p, latency_p, cost, counted.tool_p, counted.robustness_p),
        profile,
        len(window),
        None if median_latency is None else median_latency[0] / median_latency[1],
    )


class _Counted(NamedTuple):
    """The radar's axes that come from counts: exact ratios, their floats (for the profile)
    and their published values."""

    correctness: Ratio | None
    tool: Ratio | None
    robustness: Ratio | None
    correctness_f: float | None
    tool_f: float | None
    robustness_f: float | None
    correctness_p: float | None
    tool_p: float | None
    robustness_p: float | None


@functools.lru_cache(maxsize=1 << 14)
def _counted_axes(
    tallies: tuple[tuple[int, int], ...], median_steps: int | Fraction | None
) -> _Counted:
    """Correctness, tool efficiency and robustness of ``(passes, known)`` per task and the
    median of steps (remembered: few agents differ in these)."""
    passes = sum(p for p, _ in tallies)
    known = sum(k for _, k in tallies)
    ratios = (
        fast_scores.correctness_ratio(passes, known),
        None if median_steps is None else fast_scores.tool_efficiency_ratio(median_steps),
        fast_scores.robustness_ratio(tallies),
    )
    floats = [None if r is None else r[0] / r[1] for r in ratios]
    published = [None if r is None else ratio_half_up(r, SCORE_DECIMALS) for r in ratios]
    return _Counted(*ratios, *floats, *published)


def _middle(values: list[T]) -> tuple[T, T]:
    """The two middle values of a non-empty list, lowest first (one value twice for an
    odd count). Sorts ``values``."""
    if len(values) > 1:
        values.sort()
    middle = len(values) // 2
    return values[middle - 1 + len(values) % 2], values[middle]


def _steps_median(steps: list[int]) -> int | Fraction:
    """The median of step counts, exact (an int where it is whole). Sorts ``steps``."""
    low, high = _middle(steps)
    total = low + high
    return total // 2 if total % 2 == 0 else Fraction(total, 2)


def _float_median(values: list[float]) -> float:
    """The median of non-empty floats, in floats: within 2u (relatively) of the exact median
    of the values as written, each of which its float is within u of (they are not
    negative). Sorts ``values``."""
    low, high = _middle(values)
    return low if low == high else (low + high) / 2


def _has_profile(weights: Sequence[Ratio | None], axes: Sequence[float | None]) -> bool:
    """Whether the profile has a value: an axis with a value has a weight that is not 0."""
    return any(
        value is not None and weight is not None and weight[0] != 0
        for value, weight in zip(axes, weights, strict=True)
    )


def _median(values: list[float] | list[int]) -> Ratio | None:
    """The median of numbers, exact as written (an even count averages), as a ratio;
    ``None`` if there are none. Sorts ``values``."""
    if not values:
        return None
    low, high = _middle(values)  # type: ignore[misc]
    if len(values) % 2:
        return _written(low)
    (a, b), (c, d) = _written(low), _written(high)
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
