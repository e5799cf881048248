"""Rank changes within the noise: the paired comparison of the two agents that swapped.

From methodology 1.2.0 (docs/uncertainty.md, "Is one agent really ahead of another?") whether
one agent is really ahead of another is the paired comparison of their composites on the tasks
both have (:func:`scoring.comparisons.paired.compare_composites`): the interval of ``d = S_A − S_B``
with the covariance of both agents' means over the shared tasks. It replaces 1.1.0's rule that two
overlapping composite intervals mean a swap is within the noise: two intervals can overlap while
the difference is clear, because the runs of two agents on the same tasks are correlated.
``python -m contracts impact`` (table and JSON), the drift check's summary and the versions page
mark each rank change with it.

The rule, per agent whose rank changed and who is ranked on both sides:

- its *partners* are the agents, ranked on both sides, whose order with it changed (above
  it before and level or below it after, or the reverse; a tie that splits counts);
- for each partner, a :class:`Swap`: the paired comparison of the agent (A) against the
  partner (B), computed by the live code on the corpus file the newer scoreboard scored
  (``None`` when that file is not at hand, or no longer the one scored); its answer is
  ``True`` when the verdict is "within the noise", ``False`` when one agent is ahead, and
  ``None`` when there is no verdict (fewer shared tasks than the interval minimum);
- the change is within the noise when every partner's answer is ``True``, not within it
  when one is ``False`` (that swap at least is beyond the noise), and ``None`` otherwise:
  an unknown verdict, or no partner at all (the rank moved because an agent came or went).

An agent whose rank did not change has ``None``: there is no rank change to judge.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, TypeVar

from scoring.comparisons.paired import Comparison, Verdict, compare_composites
from scoring.intervals.variance import CohortTask

#: A corpus file's composite cohorts: agent id → task id → (runs, successes, latency sum,
#: cost sum), as :func:`scoring.comparisons.compare.cohort_tasks` gives them.
Cohorts = Mapping[str, Mapping[str, CohortTask]]

#: Why a swap has no comparison when the corpus file is not at hand.
NO_CORPUS = "the corpus file the newer scoreboard scored is not at hand"


class _Agent(Protocol):
    """What the rule reads of an agent (``contracts.comparison.AgentImpact``, which imports
    this module: typed by shape, so that the two do not import each other)."""

    @property
    def agent_id(self) -> str: ...

    @property
    def ranks(self) -> tuple[int, int] | None: ...

    @property
    def moved(self) -> bool: ...


A = TypeVar("A", bound=_Agent)


@dataclass(frozen=True, slots=True)
class Swap:
    """An agent and a ``partner`` whose order changed: the paired comparison of the agent
    (A) against the partner (B) on their shared tasks, ``None`` without the corpus file."""

    partner: str
    comparison: Comparison | None

    @property
    def within_noise(self) -> bool | None:
        """``True`` within the noise, ``False`` when one is ahead, ``None`` without a
        verdict."""
        verdict = None if self.comparison is None else self.comparison.verdict
        return None if verdict is None else verdict is Verdict.WITHIN_NOISE

    @property
    def reason(self) -> str | None:
        """Why there is no verdict (``None`` when there is one)."""
        if self.comparison is None:
            return NO_CORPUS
        return self.comparison.reason


def all_of(answers: Iterable[bool | None]) -> bool | None:
    """Three-valued "and": ``False`` if any is, else ``None`` if any is unknown or there is
    none, else ``True``.

    >>> all_of([True, True]), all_of([True, None, False]), all_of([True, None]), all_of([])
    (True, False, None, None)
    """
    seen = False
    unknown = False
    for answer in answers:
        seen = True
        if answer is False:
            return False
        unknown = unknown or answer is None
    return None if unknown or not seen else True


def _order(a: int, b: int) -> int:
    return (a > b) - (a < b)


def partners(agent: A, agents: Sequence[A]) -> list[A]:
    """The agents of ``agents`` (ranked on both sides) whose order with ``agent`` changed."""
    mine = agent.ranks
    if mine is None:
        return []
    found = []
    for other in agents:
        theirs = other.ranks
        if other is agent or theirs is None:
            continue
        if _order(mine[0], theirs[0]) != _order(mine[1], theirs[1]):
            found.append(other)
    return found


def swaps(agent: A, agents: Sequence[A], cohorts: Callable[[], Cohorts | None]) -> tuple[Swap, ...]:
    """The :class:`Swap` of ``agent`` with each of its :func:`partners` (none when its rank
    did not change). ``cohorts`` gives the corpus file's cohorts, ``None`` when the file is
    not at hand; it is called only when there is a swap to judge."""
    if not agent.moved:
        return ()
    found = partners(agent, agents)
    if not found:
        return ()
    tasks = cohorts()
    return tuple(
        Swap(other.agent_id, None if tasks is None else _compared(tasks, agent, other))
        for other in found
    )


def _compared(tasks: Cohorts, agent: _Agent, other: _Agent) -> Comparison | None:
    mine, theirs = tasks.get(agent.agent_id), tasks.get(other.agent_id)
    if mine is None or theirs is None:
        return None
    return compare_composites(mine, theirs)


def within_noise(agent: A, found: Sequence[Swap]) -> bool | None:
    """Whether ``agent``'s rank change is within the noise, from its swaps (the module's
    rule)."""
    if not agent.moved or agent.ranks is None:
        return None
    return all_of(swap.within_noise for swap in found)


def noise_text(value: bool | None) -> str:
    """How the impact's table and summaries mark a rank change.

    >>> noise_text(True), noise_text(False), noise_text(None)
    ('within the noise', 'beyond the noise', '—')
    """
    if value is None:
        return "—"
    return "within the noise" if value else "beyond the noise"
