"""The agent report: read → :class:`~scoring.report.stats.AgentStats` per agent → score → rank.

A newcomer's walk from the log's bytes to the printed JSON passes through five modules::

    bytes ──► scoring.report.read   read_stats: one streaming, validating pass (the run schema,
     │                          scoring.models.RunRecord, read in C through its msgspec twin
     │                          of the same fields); every bad line named
     ▼
    scoring.report.stats               AgentStats: per agent, everything the methodology reads
     │                          (per-task sums, outcomes, the radar window's tallies and
     │                          middle values), exact
     ▼
    scoring.report.score              score: every score, interval and null reason, by the
     │                          registered formulas only; ranked: order and ranks
     ▼
    scoring.report              build_report: the three above, in order → Report
     │
     ▼
    scoring.report.write           report_to_json → to_json_text (the one JSON writer), or
                                report_to_table (the one table writer) → text

Memory grows with agents × tasks, not with runs (see :class:`scoring.report.stats.LogRuns`);
the one per-run cost is the duplicate ``run_id`` check: a 12-byte slot per run (an 8-byte
fingerprint and the line it was first seen on).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import BinaryIO

from scoring.constants import METHODOLOGY_VERSION, PASS_K_LEVELS, Axis
from scoring.formulas import composite, radar, repeatability
from scoring.numeric import Number, exact
from scoring.report import score
from scoring.report.collector import collector_paused
from scoring.report.read import read_stats
from scoring.report.score import AgentReport
from scoring.report.stats import AgentStats

__all__ = ["AgentReport", "Report", "build_report", "report_of"]


@dataclass(frozen=True, slots=True)
class Report:
    """The report over one run log: agents by composite, highest first (``null`` last).

    ``levels`` are the pass^k levels reported (the published ones and any asked for);
    ``notes`` say where the anchors of a composite term do not separate the agents;
    ``profile_weights`` are the radar profile's weights, normalised to sum 1 (each agent's
    profile re-normalises them over the axes it has), and ``viewer_weights`` whether they
    are a viewer's (``--weights``) rather than the default ``RADAR_DEFAULT_WEIGHTS``.
    """

    methodology_version: str
    agents: tuple[AgentReport, ...]
    levels: tuple[int, ...] = PASS_K_LEVELS
    notes: tuple[str, ...] = ()
    profile_weights: Mapping[Axis, Fraction] = field(
        default_factory=lambda: radar.normalised(radar.default_weights())
    )
    viewer_weights: bool = False


def report_of(
    stats: Iterable[AgentStats],
    weights: Mapping[Axis, Number] | None = None,
    extra_levels: Iterable[int] = (),
) -> Report:
    """The report of agents given by their stats (from :func:`scoring.report.read.read_stats`,
    or from any engine that produces the same :class:`~scoring.report.stats.AgentStats`), with
    pass^k also at ``extra_levels`` (they change no score, rank or floor)."""
    levels = repeatability.levels_of(extra_levels)
    # Scoring builds no reference cycles: the collector would only rescan every agent's
    # exact values, again and again as they accumulate.
    # The profile's weights made exact once for the report, not once an agent.
    chosen = radar.default_weights() if weights is None else weights
    exact_weights = {axis: exact(weight) for axis, weight in chosen.items()}
    with collector_paused():
        # Agents with the same per-task tallies share what those alone determine.
        shared = score.Shared(levels)
        agents = [score.score(agent, exact_weights, levels, shared) for agent in stats]
        notes = composite.anchor_notes([agent.composite for agent in agents])
        applied = radar.normalised(radar.default_weights() if weights is None else weights)
        return Report(
            METHODOLOGY_VERSION,
            score.ranked(agents),
            levels,
            notes,
            profile_weights=applied,
            viewer_weights=weights is not None,
        )


def build_report(
    source: Iterable[bytes] | BinaryIO,
    weights: Mapping[Axis, Number] | None = None,
    *,
    extra_levels: Iterable[int] = (),
    on_read: Callable[[int], None] | None = None,
    on_rows: Callable[[int], None] | None = None,
) -> Report:
    """Read a JSON Lines run log once and score every agent.

    ``source`` is a binary stream (an open file, stdin's buffer), read in blocks, or an
    iterable of raw lines. Blank lines are skipped. ``on_read`` is told the bytes of each
    block read, ``on_rows`` the lines of each chunk accounted for (the command line's
    progress line).
    Raises :class:`scoring.errors.InputError` naming every problem's line, field and rule;
    nothing is scored from an input that has one.
    """
    stats = read_stats(source, on_read=on_read, on_rows=on_rows)
    return report_of(stats, weights, extra_levels)
