"""Two scoreboards of the reference corpus compared, agent by agent, and Kendall's τ-b.

:func:`compare` sets two scoreboards (:mod:`contracts.scoreboard`) side by side: each
agent's composite and rank on both sides (:class:`AgentImpact`), each rank change judged
by the paired comparison of the agents that swapped (:mod:`contracts.noise`, on the corpus
file the newer side scored, :func:`corpus_cohorts`), and per corpus file Kendall's τ-b
between the two rankings (:func:`kendall_tau_b`). How the comparison is printed, and the
``impact`` command, are :mod:`contracts.impact`.
"""

from __future__ import annotations

import functools
import hashlib
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

from contracts.model import CorpusScoreboard, Methodology
from contracts.noise import Cohorts, Swap, swaps, within_noise
from contracts.source import REPO_ROOT
from contracts.store import (
    LOCK_PATH,
    SNAPSHOT_DIR,
    ContractsError,
    read_lock,
    read_snapshot,
    snapshot_path,
    version_key,
)

Rankable = int | Fraction


def kendall_tau_b(x: Sequence[Rankable], y: Sequence[Rankable]) -> float | None:
    r"""Kendall's rank correlation τ-b between two rankings of the same items, by
    ``scipy.stats.kendalltau`` (variant ``"b"``):

    .. math::

        \tau_b = \frac{n_c - n_d}{\sqrt{(n_0 - n_1)(n_0 - n_2)}}

    over the :math:`n_0 = \binom{n}{2}` pairs of items: :math:`n_c` pairs are ordered the
    same way by ``x`` and by ``y`` (concordant), :math:`n_d` the opposite way (discordant);
    a pair tied in ``x`` or in ``y`` is neither. :math:`n_1 = \sum_i \binom{t_i}{2}` over
    the groups of :math:`t_i` items tied in ``x``, :math:`n_2` likewise over ``y``.

    ``None`` where τ-b is undefined (SciPy's NaN): fewer than two items, or every item tied
    in ``x`` or in ``y``.

    >>> kendall_tau_b([1, 2, 3, 4], [1, 2, 3, 4]), kendall_tau_b([1, 2, 3], [3, 2, 1])
    (1.0, -1.0)

    With a tie in ``x`` (items 2 and 3): five concordant pairs, none discordant, one tied
    in ``x`` only, so τ-b = 5 / √((6 − 1)(6 − 0)) = 5 / √30:

    >>> kendall_tau_b([1, 2, 2, 4], [1, 3, 2, 4])
    0.912870929175
    >>> kendall_tau_b([1], [1]) is None, kendall_tau_b([1, 1], [1, 2]) is None
    (True, True)
    """
    from scipy.stats import kendalltau  # type: ignore[import-untyped]  # most commands never compare

    if len(x) != len(y):
        raise ValueError(f"two rankings of the same items: {len(x)} ≠ {len(y)} values")
    if len(x) < 2:
        return None
    tau = kendalltau(_dense_ranks(x), _dense_ranks(y), variant="b").statistic
    # SciPy divides by two square roots in floating point, so identical rankings can come
    # out as 0.9999999999999998: rounded at TAU_DECIMALS, far below any printed digit.
    return None if math.isnan(tau) else round(float(tau), TAU_DECIMALS)


#: Decimals τ-b is kept to: SciPy's last-bit noise removed, twelve places beyond the four
#: the impact prints.
TAU_DECIMALS = 12


def _dense_ranks(values: Sequence[Rankable]) -> list[int]:
    """Each value's place among the distinct values, ties shared: exact for Fractions,
    which SciPy would otherwise see as floats (two close composites could merge)."""
    place = {value: i for i, value in enumerate(sorted(set(values)))}
    return [place[value] for value in values]


@dataclass(frozen=True, slots=True)
class Standing:
    """An agent's published composite and rank on one side (``None``: no composite)."""

    composite: float | None
    rank: int | None
    #: The composite's published interval (from 1.1.0); not part of equality, so that a
    #: release that only adds intervals leaves every standing unchanged.
    interval: tuple[float, float] | None = field(default=None, compare=False)


def composite_of(standing: Standing | None) -> float | None:
    """The composite on one side; ``None`` when the agent is absent or has none."""
    return None if standing is None else standing.composite


def rank_of(standing: Standing | None) -> int | None:
    """The rank on one side; ``None`` when the agent is absent or unranked."""
    return None if standing is None else standing.rank


@dataclass(frozen=True, slots=True)
class AgentImpact:
    """One agent of one corpus file, before and after; a side is ``None`` when the agent is
    not in that scoreboard."""

    corpus: str
    agent_id: str
    committed: Standing | None
    live: Standing | None
    #: Whether the rank change is within the noise (``contracts.noise``): from the paired
    #: verdicts of :attr:`swaps`; ``None`` when the rank did not change or a verdict is
    #: unknown.
    within_noise: bool | None = None
    #: The paired comparison with each agent it changed order with (this agent is A).
    swaps: tuple[Swap, ...] = ()

    @property
    def delta(self) -> Decimal | None:
        """Live minus committed composite, exact on the published decimals."""
        before, after = composite_of(self.committed), composite_of(self.live)
        if before is None or after is None:
            return None
        return Decimal(repr(after)) - Decimal(repr(before))

    @property
    def ranks(self) -> tuple[int, int] | None:
        """(committed rank, live rank), when ranked on both sides."""
        before, after = rank_of(self.committed), rank_of(self.live)
        return None if before is None or after is None else (before, after)

    @property
    def rank_change(self) -> int | None:
        """Places gained (positive: moved up), when ranked on both sides."""
        ranks = self.ranks
        return None if ranks is None else ranks[0] - ranks[1]

    @property
    def moved(self) -> bool:
        """Whether the rank differs (gaining or losing a composite counts)."""
        return rank_of(self.committed) != rank_of(self.live)


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
    return {
        a.agent_id: Standing(
            a.composite, a.rank, None if a.interval is None else (a.interval.low, a.interval.high)
        )
        for a in board.agents
    }


def _tau(agents: list[AgentImpact]) -> float | None:
    both = [ranks for ranks in (a.ranks for a in agents) if ranks is not None]
    return kendall_tau_b([c for c, _ in both], [v for _, v in both])


#: The cohorts of a corpus file given its path (as a scoreboard records it) and the SHA-256
#: of the bytes scored; ``None`` when those bytes are not at hand.
CohortSource = Callable[[str, str], Cohorts | None]


def corpus_cohorts(path: str, sha256: str, root: Path = REPO_ROOT) -> Cohorts | None:
    """The composite cohorts of the corpus file ``path`` (under ``root``), read by the
    report's own reader, if its bytes are still those of SHA-256 ``sha256``; ``None`` when
    the file is missing, changed since, or not a valid run log (the scoreboard's own
    reading names that)."""
    from scoring.comparisons.compare import cohort_tasks
    from scoring.errors import InputError
    from scoring.report.read import read_stats

    try:
        data = (root / path).read_bytes()
    except OSError:
        return None
    if hashlib.sha256(data).hexdigest() != sha256:
        return None
    try:
        stats = read_stats(data.splitlines(keepends=True))
    except (InputError, UnicodeDecodeError):
        return None
    return {agent.agent_id: cohort_tasks(agent) for agent in stats}


def compare(
    committed: Sequence[CorpusScoreboard],
    live: Sequence[CorpusScoreboard],
    *,
    committed_version: str,
    live_version: str,
    cohorts: CohortSource = corpus_cohorts,
) -> Impact:
    """Every agent of every corpus file on either side, committed against live.

    Corpus files in the committed order, then any new ones; agents in the live report's
    order, then those only the committed side has. A rank change is judged by the paired
    comparisons on the live side's corpus file (``cohorts``, read only when some agent of
    that file changed order with another).
    """
    old = {board.path: board for board in committed}
    new = {board.path: board for board in live}
    paths = [*old, *(p for p in new if p not in old)]
    agents: list[AgentImpact] = []
    taus: dict[str, float | None] = {}
    for path in paths:
        before, after = _standings(old.get(path)), _standings(new.get(path))
        order = [*after, *(a for a in before if a not in after)]
        board = new.get(path)
        source = _lazy(cohorts, path, board.sha256) if board is not None else lambda: None
        mine = with_noise(
            [AgentImpact(path, a, before.get(a), after.get(a)) for a in order], source
        )
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


def _lazy(cohorts: CohortSource, path: str, sha256: str) -> Callable[[], Cohorts | None]:
    # One corpus file is read at most once per comparison, and only if a swap needs it.
    return functools.cache(lambda: cohorts(path, sha256))


def with_noise(
    agents: Sequence[AgentImpact], cohorts: Callable[[], Cohorts | None]
) -> list[AgentImpact]:
    """``agents`` (one corpus file) with :attr:`AgentImpact.swaps` and
    :attr:`AgentImpact.within_noise` filled in (:mod:`contracts.noise`); ``cohorts`` gives
    that file's cohorts."""
    judged = []
    for agent in agents:
        found = swaps(agent, agents, cohorts)
        judged.append(replace(agent, swaps=found, within_noise=within_noise(agent, found)))
    return judged
