"""What a methodology change does to the rankings of the reference corpus, in words.

The comparison itself (``compare``, ``kendall_tau_b``) is in :mod:`contracts.comparison`.
This module prints it:
:func:`summary_lines` for ``check`` and ``update``, :func:`impact_table` and
:func:`impact_to_json` for ``python -m contracts impact`` (:func:`run_impact`, which compares
the committed scoreboard of the current released version with the live code's), and a
changelog entry to start from. The versions page draws the same comparison between two
releases. Nothing here prints: :mod:`contracts.cli` does.
"""

from __future__ import annotations

import json
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

from contracts.comparison import (
    AgentImpact,
    Impact,
    Standing,
    compare,
    composite_of,
    impact_since_release,
    rank_of,
)
from contracts.model import CorpusScoreboard, Methodology
from contracts.noise import Swap, noise_text
from contracts.result import ImpactResult
from contracts.source import display_path
from contracts.store import (
    EXIT_UNUSABLE,
    LOCK_PATH,
    ContractsError,
    current_version,
    read_lock,
    read_snapshot,
    snapshot_path,
    version_key,
)
from scoring.comparisons.paired import Verdict
from scoring.errors import visible
from scoring.numeric import round_half_up
from scoring.report.write import OutputFormat

IMPACT_COMMAND = "python -m contracts impact"

# --- Output -----------------------------------------------------------------------------------


def _number(value: Decimal | None) -> float | None:
    return None if value is None else float(value)


def _side(standing: Standing | None) -> dict[str, Any] | None:
    if standing is None:
        return None
    interval = standing.interval
    return {
        "composite": standing.composite,
        "rank": standing.rank,
        "interval": None if interval is None else {"low": interval[0], "high": interval[1]},
    }


def impact_to_json(impact: Impact) -> dict[str, Any]:
    """The ``impact --format json`` document.

    ``committed``/``live`` are ``null`` for an agent absent from that scoreboard; a rank is
    ``null`` for an agent without a composite; ``kendall_tau`` is ``null`` where τ-b is
    undefined (fewer than two agents ranked on both sides). ``swaps`` lists, for an agent
    whose rank changed, each agent it changed order with (``partner``) and the paired
    comparison of their composites on their shared tasks (decisions 1.2.0, computed by the
    live code on the corpus file the live side scored; see :mod:`contracts.noise`): the
    ``verdict`` ("A ahead", "B ahead", "within the noise"; A is the agent, B the partner),
    the id of the agent ``ahead``, ``difference`` ``d = A − B``, its ``interval`` and the
    ``shared_tasks``, or ``null`` with the ``reason``. ``within_noise`` is ``true`` when
    every swap's verdict is "within the noise", ``false`` when one names an agent ahead,
    ``null`` when the rank did not change, a verdict is unknown or no agent it changed
    order with is ranked on both sides.
    """
    return {
        "committed_version": impact.committed_version,
        "live_version": impact.live_version,
        "corpus": impact.corpus,
        "corpus_changed": impact.corpus_changed,
        "unchanged": impact.unchanged,
        "agents": [
            {
                "corpus": a.corpus,
                "agent_id": a.agent_id,
                "committed": _side(a.committed),
                "live": _side(a.live),
                "delta": _number(a.delta),
                "rank_change": a.rank_change,
                "within_noise": a.within_noise,
                "swaps": [swap_to_json(a.agent_id, swap) for swap in a.swaps],
            }
            for a in impact.agents
        ],
        "kendall_tau": impact.kendall_tau,
        "summary": {corpus: _corpus_json(impact.of(corpus)) for corpus in impact.corpus},
    }


def swap_to_json(agent_id: str, swap: Swap) -> dict[str, Any]:
    """One swap of ``impact --format json``: the paired comparison of ``agent_id`` (A)
    against its partner (B)."""
    c = swap.comparison
    interval = None if c is None else c.interval
    return {
        "partner": swap.partner,
        "verdict": None if c is None or c.verdict is None else str(c.verdict),
        "ahead": None if c is None else _ahead(agent_id, swap.partner, c.verdict),
        "difference": None
        if c is None or c.difference is None
        else round_half_up(c.difference, _score_places()),
        "interval": None
        if interval is None
        else {"low": float(interval.low), "high": float(interval.high)},
        "shared_tasks": None if c is None else c.shared_tasks,
        "reason": swap.reason,
    }


def _ahead(a: str, b: str, verdict: Verdict | None) -> str | None:
    if verdict is Verdict.A_AHEAD:
        return a
    if verdict is Verdict.B_AHEAD:
        return b
    return None


def swapped_pairs(agents: list[AgentImpact]) -> list[tuple[str, Swap]]:
    """Each pair of agents of one corpus file whose order changed, once, as (agent, swap):
    the agent ranked higher under the newer scoreboard first (``agents`` are in its
    order)."""
    seen: set[frozenset[str]] = set()
    pairs = []
    for agent in agents:
        for swap in agent.swaps:
            key = frozenset((agent.agent_id, swap.partner))
            if key not in seen:
                seen.add(key)
                pairs.append((agent.agent_id, swap))
    return pairs


def pair_text(agent_id: str, swap: Swap) -> str:
    """One swapped pair in words: ``a − b = +1.50 [-0.80, 3.80] on 24 shared tasks: within
    the noise`` (or ``a ahead``), the difference of their composites; or why there is no
    comparison."""
    from scoring.comparisons.compare import interval_text, signed_text

    names = f"{agent_id} − {swap.partner}"
    c = swap.comparison
    if c is None or c.difference is None or c.interval is None or c.verdict is None:
        return f"{names}: no paired comparison ({swap.reason})"
    places = _score_places()
    leader = _ahead(agent_id, swap.partner, c.verdict)
    said = str(c.verdict) if leader is None else f"{leader} ahead"
    return (
        f"{names} = {signed_text(c.difference, places)} {interval_text(c.interval, places)} "
        f"on {c.shared_tasks} shared tasks: {said}"
    )


#: What the impact's list of swapped pairs is, in words.
PAIRS_TITLE = "swapped pairs: the paired comparison of their composites on the tasks both have"


def _corpus_json(agents: list[AgentImpact]) -> dict[str, Any]:
    top = _largest(agents)
    return {
        "agents": len(agents),
        "rank_changed": [a.agent_id for a in movers_first(agents) if a.moved],
        "max_abs_delta": None if top is None or top.delta is None else float(abs(top.delta)),
    }


def _largest(agents: list[AgentImpact]) -> AgentImpact | None:
    """The agent whose composite moved most (first in order among equals); ``None`` if none
    has a composite on both sides."""
    scored = [a for a in agents if a.delta is not None]
    return max(scored, key=lambda a: abs(a.delta or Decimal(0)), default=None)


def movers_first(agents: list[AgentImpact]) -> list[AgentImpact]:
    """Biggest movers first: by |Δ composite|, then |rank change|, then a rank gained or
    lost; agents with nothing to compare last; ties in the given order."""

    def key(agent: AgentImpact) -> tuple[bool, Decimal, int, bool]:
        delta, change = agent.delta, agent.rank_change
        return (
            delta is None and not agent.moved,
            -abs(delta or Decimal(0)),
            -abs(change or 0),
            not agent.moved,
        )

    return sorted(agents, key=key)


def signed(value: Decimal | int | None, places: int | None = None) -> str:
    """``+1.25``, ``-3``, ``0`` or ``—``.

    >>> signed(Decimal("1.2"), 2), signed(-3), signed(0), signed(None)
    ('+1.20', '-3', '0', '—')
    """
    if value is None:
        return "—"
    text = f"{value:.{places}f}" if places is not None else str(value)
    return text if value <= 0 else f"+{text}"


def shown(value: float | int | None, places: int | None = None) -> str:
    """``value`` to ``places`` decimals (as it is, without them), or ``—`` for ``None``."""
    if value is None:
        return "—"
    return f"{value:.{places}f}" if places is not None else str(value)


def _score_places() -> int:
    from scoring.constants import SCORE_DECIMALS

    return SCORE_DECIMALS


def _tau_text(tau: float | None) -> str:
    return "undefined (fewer than two agents ranked on both sides)" if tau is None else f"{tau:.4f}"


def _rank_move(agent: AgentImpact) -> str:
    before, after = shown(rank_of(agent.committed)), shown(rank_of(agent.live))
    noise = "" if agent.within_noise is None else f" ({noise_text(agent.within_noise)})"
    return f"{agent.agent_id} {before} → {after}{noise}"


def _agents(count: int) -> str:
    return f"{count} ranked agent{'' if count == 1 else 's'}"


def corpus_summary(impact: Impact, corpus: str) -> str:
    """One line for one corpus file: rank changes, the largest |Δ|, τ-b."""
    agents = impact.of(corpus)
    places = _score_places()
    moved = [a for a in agents if a.moved]
    ranked = [a for a in agents if rank_of(a.committed) is not None]
    parts = []
    if corpus in impact.corpus_changed:
        parts.append("the corpus file itself changed")
    if moved:
        moves = ", ".join(_rank_move(a) for a in movers_first(moved))
        parts.append(f"{len(moved)} of {_agents(len(ranked))} change rank ({moves})")
    else:
        parts.append(f"no rank changes ({_agents(len(ranked))})")
    top = _largest(agents)
    if top is not None and top.delta:
        before = shown(composite_of(top.committed), places)
        after = shown(composite_of(top.live), places)
        parts.append(
            f"largest |Δ| {abs(top.delta):.{places}f} ({top.agent_id}, {before} → {after})"
        )
    else:
        parts.append("no composite changes")
    parts.append(f"Kendall τ-b {_tau_text(impact.kendall_tau.get(corpus))}")
    return f"{corpus}: " + "; ".join(parts)


def summary_lines(impact: Impact) -> list[str]:
    """The impact in a few lines, for ``check`` and ``update``."""
    head = (
        f"impact on the reference corpus (committed {impact.committed_version} → "
        f"live {impact.live_version}):"
    )
    lines = [head, *(f"  {corpus_summary(impact, c)}" for c in impact.corpus)]
    lines.append(f"  every agent, biggest movers first: {IMPACT_COMMAND}")
    return lines


def impact_table(impact: Impact) -> str:
    """The ``impact`` table for a terminal: per corpus file, biggest movers first."""
    from scoring.report.write import render_table

    places = _score_places()
    verdict = "no change" if impact.unchanged else "changes"
    out = [
        f"impact of the live code (methodology {impact.live_version}) against the committed "
        f"scoreboard of {impact.committed_version}: {verdict}",
    ]
    for corpus in impact.corpus:
        rows = []
        for a in movers_first(impact.of(corpus)):
            rows.append(
                [
                    a.agent_id,
                    shown(composite_of(a.committed), places),
                    shown(composite_of(a.live), places),
                    signed(a.delta, places),
                    shown(rank_of(a.committed)),
                    shown(rank_of(a.live)),
                    signed(a.rank_change) if a.rank_change is not None else "—",
                    noise_text(a.within_noise),
                ]
            )
        headers = ["agent", "committed", "live", "Δ", "rank was", "rank now", "places", "noise"]
        out += ["", corpus_summary(impact, corpus), render_table(headers, rows)]
        pairs = swapped_pairs(impact.of(corpus))
        if pairs:
            out += [f"{PAIRS_TITLE}:", *(f"  {visible(pair_text(*pair))}" for pair in pairs)]
    return "\n".join(out)


def suggested_entry(
    impact: Impact | None, version: str, today: date | None = None, note: str | None = None
) -> str:
    """A changelog entry: its heading, the ``note`` (a line to fill in without one), and
    the impact."""
    day = (today or date.today()).isoformat()
    lines = [f"## {version} ({day})", "", note or "<What changed, and why.>", ""]
    if impact is None:
        lines.append("Impact on the reference corpus: none recorded before this version.")
        return "\n".join(lines)
    lines.append(
        f"Impact on the reference corpus against {impact.committed_version} (`{IMPACT_COMMAND}`):"
    )
    lines.append("")
    lines += [f"- {corpus_summary(impact, c)}" for c in impact.corpus]
    return "\n".join(lines)


def suggestion_lines(live: Methodology, directory: Path | None = None) -> list[str]:
    """A suggested changelog entry for ``live``'s version, to paste and complete."""
    entry = suggested_entry(impact_since_release(live, directory), live.methodology_version)
    return ["suggested entry (paste it at the top, then say what changed and why):", "", entry]


# --- The command ------------------------------------------------------------------------------


def committed_release() -> tuple[str, list[CorpusScoreboard]]:
    """The current released version and its committed scoreboard: ``METHODOLOGY_VERSION``
    if it is released, else the newest released version."""
    released = read_lock()
    if not released:
        raise ContractsError(f"{display_path(LOCK_PATH)}: no released version to compare with")
    live = current_version()
    version = live if live in released else max(released, key=version_key)
    path = snapshot_path(version)
    scoreboard = read_snapshot(path).methodology.scoreboard
    if scoreboard is None:
        raise ContractsError(
            f"{display_path(path)}: released version {version} records no scoreboard of the "
            "reference corpus (scoreboards are recorded from 1.0.1 on); nothing to compare"
        )
    return version, scoreboard


def live_impact() -> Impact:
    """The committed scoreboard of the current released version against the live code's."""
    from contracts.scoreboard import build_scoreboard

    version, scoreboard = committed_release()
    return compare(
        scoreboard, build_scoreboard(), committed_version=version, live_version=current_version()
    )


def run_impact(fmt: OutputFormat = OutputFormat.TABLE) -> ImpactResult:
    """Compute the impact and render it; exit 0, or 2 when the corpus or snapshot is unusable."""
    try:
        impact = live_impact()
    except ContractsError as error:
        return ImpactResult(False, EXIT_UNUSABLE, f"contracts impact: {error}")
    if fmt is OutputFormat.JSON:
        return ImpactResult(
            True, 0, json.dumps(impact_to_json(impact), indent=2, ensure_ascii=False)
        )
    return ImpactResult(True, 0, impact_table(impact))
