"""What a methodology change does to the rankings of the reference corpus.

:func:`compare` sets two scoreboards (:mod:`contracts.scoreboard`) side by side, agent by
agent: composite, rank, the change of each, and per corpus file Kendall's τ-b between the
two rankings (:func:`kendall_tau_b`). ``python -m contracts impact`` compares the committed
scoreboard of the current released version with the live code's; ``check`` and ``update``
print :func:`summary_lines`; the versions page draws the same comparison between two
releases. Nothing here prints: :mod:`contracts.cli` does.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from decimal import Decimal, localcontext
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import Any

from contracts.model import CorpusScoreboard, Methodology
from contracts.result import CommandResult
from contracts.store import (
    EXIT_UNUSABLE,
    LOCK_PATH,
    SNAPSHOT_DIR,
    ContractsError,
    current_version,
    display_path,
    read_lock,
    read_snapshot,
    snapshot_path,
    version_key,
)

IMPACT_COMMAND = "python -m contracts impact"
#: Significant digits of the one irrational step of τ-b (a square root), before the float.
_ROOT_DIGITS = 40

Rankable = int | Fraction


def kendall_tau_b(x: Sequence[Rankable], y: Sequence[Rankable]) -> float | None:
    r"""Kendall's rank correlation τ-b between two rankings of the same items.

    .. math::

        \tau_b = \frac{n_c - n_d}{\sqrt{(n_0 - n_1)(n_0 - n_2)}}

    over the :math:`n_0 = \binom{n}{2}` pairs of items: :math:`n_c` pairs are ordered the
    same way by ``x`` and by ``y`` (concordant), :math:`n_d` the opposite way (discordant);
    a pair tied in ``x`` or in ``y`` is neither. :math:`n_1 = \sum_i \binom{t_i}{2}` over
    the groups of :math:`t_i` items tied in ``x``, :math:`n_2` likewise over ``y``.

    The counts are exact integers; the square root, the one step that is not rational, is
    taken to 40 significant digits and the result rounded to a float. ``None`` when τ-b is
    undefined: fewer than two items, or every item tied in ``x`` or in ``y``.

    >>> kendall_tau_b([1, 2, 3, 4], [1, 2, 3, 4]), kendall_tau_b([1, 2, 3], [3, 2, 1])
    (1.0, -1.0)

    With a tie in ``x`` (items 2 and 3): five concordant pairs, none discordant, one tied
    in ``x`` only, so τ-b = 5 / √((6 − 1)(6 − 0)) = 5 / √30:

    >>> kendall_tau_b([1, 2, 2, 4], [1, 3, 2, 4])
    0.9128709291752769
    >>> kendall_tau_b([1], [1]) is None, kendall_tau_b([1, 1], [1, 2]) is None
    (True, True)
    """
    if len(x) != len(y):
        raise ValueError(f"two rankings of the same items: {len(x)} ≠ {len(y)} values")
    n = len(x)
    difference = 0  # n_c − n_d
    for i in range(n):
        for j in range(i + 1, n):
            sign_x = (x[i] > x[j]) - (x[i] < x[j])
            sign_y = (y[i] > y[j]) - (y[i] < y[j])
            difference += sign_x * sign_y
    pairs = math.comb(n, 2)
    untied_x = pairs - sum(math.comb(t, 2) for t in Counter(x).values())
    untied_y = pairs - sum(math.comb(t, 2) for t in Counter(y).values())
    product = untied_x * untied_y
    if product == 0:
        return None
    root = math.isqrt(product)
    if root * root == product:
        return float(Fraction(difference, root))
    with localcontext() as context:
        context.prec = _ROOT_DIGITS
        return float(Decimal(difference) / Decimal(product).sqrt())


# --- The comparison ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Standing:
    """An agent's published composite and rank on one side (``None``: no composite)."""

    composite: float | None
    rank: int | None


@dataclass(frozen=True, slots=True)
class AgentImpact:
    """One agent of one corpus file, before and after; a side is ``None`` when the agent is
    not in that scoreboard."""

    corpus: str
    agent_id: str
    committed: Standing | None
    live: Standing | None

    @property
    def delta(self) -> Decimal | None:
        """Live minus committed composite, exact on the published decimals."""
        if self.committed is None or self.live is None:
            return None
        if self.committed.composite is None or self.live.composite is None:
            return None
        return Decimal(repr(self.live.composite)) - Decimal(repr(self.committed.composite))

    @property
    def rank_change(self) -> int | None:
        """Places gained (positive: moved up), when ranked on both sides."""
        if self.committed is None or self.live is None:
            return None
        if self.committed.rank is None or self.live.rank is None:
            return None
        return self.committed.rank - self.live.rank

    @property
    def moved(self) -> bool:
        """Whether the rank differs (gaining or losing a composite counts)."""
        before = None if self.committed is None else self.committed.rank
        after = None if self.live is None else self.live.rank
        return before != after


@dataclass(frozen=True, slots=True)
class Impact:
    """Two scoreboards compared: every agent, and τ-b per corpus file."""

    committed_version: str
    live_version: str
    corpus: list[str]
    agents: list[AgentImpact]
    kendall_tau: dict[str, float | None]
    #: Corpus files whose bytes differ between the two sides.
    corpus_changed: list[str]

    def of(self, corpus: str) -> list[AgentImpact]:
        """The agents of one corpus file."""
        return [a for a in self.agents if a.corpus == corpus]

    @property
    def unchanged(self) -> bool:
        """No composite, rank or corpus file differs."""
        return not self.corpus_changed and all(
            not a.moved and not a.delta and a.committed == a.live for a in self.agents
        )


def _standings(board: CorpusScoreboard | None) -> dict[str, Standing]:
    if board is None:
        return {}
    return {a.agent_id: Standing(a.composite, a.rank) for a in board.agents}


def _tau(agents: list[AgentImpact]) -> float | None:
    both = [
        (a.committed.rank, a.live.rank)
        for a in agents
        if a.committed is not None
        and a.live is not None
        and a.committed.rank is not None
        and a.live.rank is not None
    ]
    return kendall_tau_b([c for c, _ in both], [v for _, v in both])


def compare(
    committed: Sequence[CorpusScoreboard],
    live: Sequence[CorpusScoreboard],
    *,
    committed_version: str,
    live_version: str,
) -> Impact:
    """Every agent of every corpus file on either side, committed against live.

    Corpus files in the committed order, then any new ones; agents in the live report's
    order, then those only the committed side has.
    """
    old = {board.path: board for board in committed}
    new = {board.path: board for board in live}
    paths = [*old, *(p for p in new if p not in old)]
    agents: list[AgentImpact] = []
    taus: dict[str, float | None] = {}
    for path in paths:
        before, after = _standings(old.get(path)), _standings(new.get(path))
        order = [*after, *(a for a in before if a not in after)]
        mine = [AgentImpact(path, a, before.get(a), after.get(a)) for a in order]
        agents += mine
        taus[path] = _tau(mine)
    changed = [
        p
        for p in paths
        if p not in old or p not in new or old[p].sha256 != new[p].sha256  # bytes differ
    ]
    return Impact(committed_version, live_version, paths, agents, taus, changed)


def compare_snapshots(committed: Methodology, live: Methodology) -> Impact | None:
    """The impact from one snapshot to another; ``None`` if either records no scoreboard."""
    if committed.scoreboard is None or live.scoreboard is None:
        return None
    return compare(
        committed.scoreboard,
        live.scoreboard,
        committed_version=committed.methodology_version,
        live_version=live.methodology_version,
    )


# --- Output -----------------------------------------------------------------------------------


def _number(value: Decimal | None) -> float | None:
    return None if value is None else float(value)


def _side(standing: Standing | None) -> dict[str, Any] | None:
    if standing is None:
        return None
    return {"composite": standing.composite, "rank": standing.rank}


def impact_to_json(impact: Impact) -> dict[str, Any]:
    """The ``impact --format json`` document.

    ``committed``/``live`` are ``null`` for an agent absent from that scoreboard; a rank is
    ``null`` for an agent without a composite; ``kendall_tau`` is ``null`` where τ-b is
    undefined (fewer than two agents ranked on both sides).
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
            }
            for a in impact.agents
        ],
        "kendall_tau": impact.kendall_tau,
        "summary": {corpus: _corpus_json(impact.of(corpus)) for corpus in impact.corpus},
    }


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


def _shown(value: float | int | None, places: int | None = None) -> str:
    if value is None:
        return "—"
    return f"{value:.{places}f}" if places is not None else str(value)


def _score_places() -> int:
    from scoring.constants import SCORE_DECIMALS

    return SCORE_DECIMALS


def _tau_text(tau: float | None) -> str:
    return "undefined (fewer than two agents ranked on both sides)" if tau is None else f"{tau:.4f}"


def _rank_move(agent: AgentImpact) -> str:
    before = "—" if agent.committed is None else _shown(agent.committed.rank)
    after = "—" if agent.live is None else _shown(agent.live.rank)
    return f"{agent.agent_id} {before} → {after}"


def _agents(count: int) -> str:
    return f"{count} ranked agent{'' if count == 1 else 's'}"


def corpus_summary(impact: Impact, corpus: str) -> str:
    """One line for one corpus file: rank changes, the largest |Δ|, τ-b."""
    agents = impact.of(corpus)
    places = _score_places()
    moved = [a for a in agents if a.moved]
    ranked = [a for a in agents if a.committed is not None and a.committed.rank is not None]
    parts = []
    if corpus in impact.corpus_changed:
        parts.append("the corpus file itself changed")
    if moved:
        shown = ", ".join(_rank_move(a) for a in movers_first(moved))
        parts.append(f"{len(moved)} of {_agents(len(ranked))} change rank ({shown})")
    else:
        parts.append(f"no rank changes ({_agents(len(ranked))})")
    top = _largest(agents)
    if top is not None and top.delta:
        before = _shown(top.committed.composite if top.committed else None, places)
        after = _shown(top.live.composite if top.live else None, places)
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
    from scoring.serialize import render_table

    places = _score_places()
    verdict = "no change" if impact.unchanged else "changes"
    out = [
        f"impact of the live code (methodology {impact.live_version}) against the committed "
        f"scoreboard of {impact.committed_version}: {verdict}",
    ]
    for corpus in impact.corpus:
        rows = []
        for a in movers_first(impact.of(corpus)):
            c_comp = None if a.committed is None else a.committed.composite
            l_comp = None if a.live is None else a.live.composite
            c_rank = None if a.committed is None else a.committed.rank
            l_rank = None if a.live is None else a.live.rank
            rows.append(
                [
                    a.agent_id,
                    _shown(c_comp, places),
                    _shown(l_comp, places),
                    signed(a.delta, places),
                    _shown(c_rank),
                    _shown(l_rank),
                    signed(a.rank_change) if a.rank_change is not None else "—",
                ]
            )
        headers = ["agent", "committed", "live", "Δ", "rank was", "rank now", "places"]
        out += ["", corpus_summary(impact, corpus), render_table(headers, rows)]
    return "\n".join(out)


def suggested_entry(impact: Impact | None, version: str, today: date | None = None) -> str:
    """A changelog entry to start from: its heading, a line to fill in, and the impact."""
    day = (today or date.today()).isoformat()
    lines = [f"## {version} ({day})", "", "<What changed, and why.>", ""]
    if impact is None:
        lines.append("Impact on the reference corpus: none recorded before this version.")
        return "\n".join(lines)
    lines.append(
        f"Impact on the reference corpus against {impact.committed_version} (`{IMPACT_COMMAND}`):"
    )
    lines.append("")
    lines += [f"- {corpus_summary(impact, c)}" for c in impact.corpus]
    return "\n".join(lines)


def impact_since_release(live: Methodology, directory: Path | None = None) -> Impact | None:
    """The impact of ``live`` against the newest released snapshot other than its own
    version; ``None`` if there is none, it records no scoreboard, or it cannot be read."""
    folder = SNAPSHOT_DIR if directory is None else directory
    try:
        released = read_lock(folder / LOCK_PATH.name)
        older = [v for v in released if v != live.methodology_version]
        if not older:
            return None
        newest = max(older, key=version_key)
        committed = read_snapshot(snapshot_path(newest, folder)).methodology
    except ContractsError:
        return None
    return compare_snapshots(committed, live)


def suggestion_lines(live: Methodology, directory: Path | None = None) -> list[str]:
    """A suggested changelog entry for ``live``'s version, to paste and complete."""
    entry = suggested_entry(impact_since_release(live, directory), live.methodology_version)
    return ["suggested entry (paste it at the top, then say what changed and why):", "", entry]


# --- The command ------------------------------------------------------------------------------


class ImpactFormat(StrEnum):
    """How ``impact`` prints."""

    TABLE = "table"
    JSON = "json"


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


@dataclass(frozen=True, slots=True)
class ImpactResult(CommandResult):
    """What ``impact`` prints (``text`` on stdout, or one error line on stderr)."""

    ok: bool
    text: str
    exit_code: int = 0

    def output(self) -> list[str]:
        """The table or the JSON document, or the one error line."""
        return [self.text]


def run_impact(fmt: ImpactFormat = ImpactFormat.TABLE) -> ImpactResult:
    """Compute the impact and render it; exit 0, or 2 when the corpus or snapshot is unusable."""
    try:
        impact = live_impact()
    except ContractsError as error:
        return ImpactResult(False, f"contracts impact: {error}", EXIT_UNUSABLE)
    if fmt is ImpactFormat.JSON:
        return ImpactResult(True, json.dumps(impact_to_json(impact), indent=2, ensure_ascii=False))
    return ImpactResult(True, impact_table(impact))
