"""Rank changes within the noise: two agents whose composite intervals overlap.

From methodology 1.1.0 each composite carries a 95% interval (``scoring.uncertainty``), and
a reader should not take every swap of two ranks as real. When two agents swap their order
between two scoreboards, the swap is *within the noise* if their composite intervals under
the newer scoreboard overlap: with other runs of the same agents, the newer order could well
be the older one. ``python -m contracts impact`` (table and JSON), the drift check's summary
and the versions page mark each rank change with :func:`within_noise`.

The rule, per agent whose rank changed and who is ranked on both sides:

- its *partners* are the agents, ranked on both sides, whose order with it changed (above
  it before and level or below it after, or the reverse; a tie that splits counts);
- for each partner: ``True`` when the two newer intervals overlap (a shared bound counts),
  ``False`` when they are disjoint, ``None`` when either interval is ``None``;
- the change is within the noise when every partner's answer is ``True``, not within it
  when one is ``False`` (that swap at least is beyond the noise), and ``None`` otherwise:
  an unknown interval, or no partner at all (the rank moved because an agent came or went).

An agent whose rank did not change has ``None``: there is no rank change to judge.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol, TypeVar

#: A published interval (low, high); ``None`` where the agent has none.
Bounds = tuple[float, float]


class _Side(Protocol):
    """One side of an agent's impact (``contracts.comparison.Standing``)."""

    @property
    def interval(self) -> Bounds | None: ...


class _Agent(Protocol):
    """What the rule reads of an agent (``contracts.comparison.AgentImpact``, which imports
    this module: typed by shape, so that the two do not import each other)."""

    @property
    def ranks(self) -> tuple[int, int] | None: ...

    @property
    def moved(self) -> bool: ...

    @property
    def live(self) -> _Side | None: ...


A = TypeVar("A", bound=_Agent)


def overlaps(a: Bounds | None, b: Bounds | None) -> bool | None:
    """Whether two closed intervals share a point; ``None`` when either is unknown.

    >>> overlaps((60.0, 70.0), (69.5, 80.0)), overlaps((60.0, 70.0), (70.0, 75.0))
    (True, True)
    >>> overlaps((60.0, 70.0), (70.01, 75.0)), overlaps(None, (1.0, 2.0))
    (False, None)
    """
    if a is None or b is None:
        return None
    return a[0] <= b[1] and b[0] <= a[1]


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


def within_noise(agent: A, agents: Sequence[A]) -> bool | None:
    """Whether ``agent``'s rank change is within the noise (see the module's rule)."""
    if not agent.moved or agent.ranks is None:
        return None
    mine = agent.live.interval if agent.live is not None else None
    return all_of(
        overlaps(mine, other.live.interval if other.live is not None else None)
        for other in partners(agent, agents)
    )


def noise_text(value: bool | None) -> str:
    """How the impact's table and summaries mark a rank change.

    >>> noise_text(True), noise_text(False), noise_text(None)
    ('within the noise', 'beyond the noise', '—')
    """
    if value is None:
        return "—"
    return "within the noise" if value else "beyond the noise"
