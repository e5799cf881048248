"""The versions page's impact section: what each release did to the rankings of the
reference corpus, from the scoreboards in the committed snapshots.

Pure functions returning HTML (the one macro, :func:`version_impact`, only reads the
site's history and calls them): a table of rank changes and an SVG slope chart per corpus
file (each agent's composite under the older version on the left and the newer on the
right; lines cross where two agents swap ranks). The numbers come from
:func:`contracts.comparison.compare_snapshots`, the comparison ``python -m contracts impact``
prints.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from macros import history
from macros.markup import PLOT_CLASS, block, esc, score_unit, table, value
from macros.plots import coord

if TYPE_CHECKING:
    from macros.site import Site

# The chart is drawn for a phone: 360 units wide, so that its 12px labels stay 12px on a
# 360px screen; wider screens scale it up to the figure's max-width (see extra.css).
WIDTH = 360
LEFT_AXIS, RIGHT_AXIS = 138, 222
TOP, BOTTOM = 34, 14
PLOT_HEIGHT_MIN = 220
PLOT_HEIGHT_MAX = 520
#: Vertical room of one label; labels closer than this are pushed apart.
LABEL_GAP = 14
#: Labels longer than this are shortened with an ellipsis (the full id is in the title).
LABEL_CHARS = 14
LEADER = 6
#: The vertical scale runs between multiples of this many points around the composites.
SCALE_STEP = 10
#: How far above the plot the version names sit.
HEADER_RISE = 14


@dataclass(frozen=True, slots=True)
class Slope:
    """One agent drawn from its older to its newer composite."""

    agent_id: str
    before: float
    after: float
    rank_before: int | None
    rank_after: int | None

    @property
    def moved(self) -> bool:
        return self.rank_before != self.rank_after


def spread_labels(ys: Sequence[float], gap: float, low: float, high: float) -> list[float]:
    """Label positions as close to ``ys`` as possible, at least ``gap`` apart, within
    ``[low, high]`` (``low`` is the top of the plot); the order of ``ys`` is kept.

    >>> spread_labels([100.0, 101.0, 150.0], 14, 0, 300)
    [93.5, 107.5, 150.0]
    >>> spread_labels([299.0, 295.0], 14, 0, 300)
    [300.0, 286.0]
    """
    order = sorted(range(len(ys)), key=lambda i: ys[i])
    placed = [ys[i] for i in order]
    # Merge overlapping clusters, each centred on the mean of its points, until none overlap.
    clusters: list[list[float]] = []
    for y in placed:
        clusters.append([y, y, 1.0, y])  # top, bottom, count, sum of wanted positions
        while len(clusters) > 1 and clusters[-2][1] + gap > clusters[-1][0]:
            last = clusters.pop()
            merged = clusters[-1]
            merged[2] += last[2]
            merged[3] += last[3]
            top = merged[3] / merged[2] - gap * (merged[2] - 1) / 2
            merged[0], merged[1] = top, top + gap * (merged[2] - 1)
    out: list[float] = []
    for top, _, count, _ in clusters:
        out += [top + gap * k for k in range(int(count))]
    # Keep inside the plot: shift down from the top, then up from the bottom.
    for k in range(len(out)):
        out[k] = max(out[k], low + gap * k)
    for k in range(len(out) - 1, -1, -1):
        out[k] = min(out[k], high - gap * (len(out) - 1 - k))
    result = [0.0] * len(ys)
    for position, index in enumerate(order):
        result[index] = float(out[position])
    return result


def _short(agent_id: str) -> str:
    return agent_id if len(agent_id) <= LABEL_CHARS else agent_id[: LABEL_CHARS - 1] + "…"


def slope_chart(
    key: str, slopes: Sequence[Slope], before: str, after: str, *, places: int = 2
) -> str:
    """The slope chart as a ``<figure class="plot slope">`` with a title, a description
    (every agent's numbers, for screen readers) and a caption."""
    unchanged = all(s.before == s.after and s.rank_before == s.rank_after for s in slopes)
    if len(slopes) < 2 or unchanged:
        # One agent has no order to change, and level lines show nothing the sentence above
        # does not say ("no rank changes; no composite changes"): no chart, no empty table.
        return ""
    values = [s.before for s in slopes] + [s.after for s in slopes]
    low = min(values) // SCALE_STEP * SCALE_STEP
    high = -(-max(values) // SCALE_STEP) * SCALE_STEP
    if high == low:
        high = low + SCALE_STEP
    # Two label heights per agent: most labels then sit at their own value.
    plot_h = min(max(PLOT_HEIGHT_MIN, 2 * LABEL_GAP * len(slopes)), PLOT_HEIGHT_MAX)
    height = TOP + plot_h + BOTTOM

    def py(score: float) -> float:
        return TOP + plot_h - (score - low) / (high - low) * plot_h

    parts = [
        f'<line class="frame" x1="{LEFT_AXIS}" y1="{TOP}" x2="{LEFT_AXIS}" y2="{TOP + plot_h}"/>',
        f'<line class="frame" x1="{RIGHT_AXIS}" y1="{TOP}" x2="{RIGHT_AXIS}" y2="{TOP + plot_h}"/>',
        f'<text class="label" x="{LEFT_AXIS}" y="{TOP - HEADER_RISE}" text-anchor="middle">'
        f"{esc(before)}</text>",
        f'<text class="label" x="{RIGHT_AXIS}" y="{TOP - HEADER_RISE}" text-anchor="middle">'
        f"{esc(after)}</text>",
    ]
    # Movers last, so that they are drawn on top.
    ordered = sorted(slopes, key=lambda s: s.moved)
    left = spread_labels([py(s.before) for s in ordered], LABEL_GAP, TOP, TOP + plot_h)
    right = spread_labels([py(s.after) for s in ordered], LABEL_GAP, TOP, TOP + plot_h)
    for slope, label_left, label_right in zip(ordered, left, right, strict=True):
        y0, y1 = py(slope.before), py(slope.after)
        kind = "slope moved" if slope.moved else "slope"
        name = esc(slope.agent_id)
        parts.append(
            f'<g class="{kind}"><title>{name}: {slope.before:.{places}f} → '
            f"{slope.after:.{places}f}</title>"
            f'<line x1="{LEFT_AXIS}" y1="{coord(y0)}" x2="{RIGHT_AXIS}" y2="{coord(y1)}"/>'
            f'<circle cx="{LEFT_AXIS}" cy="{coord(y0)}" r="3"/>'
            f'<circle cx="{RIGHT_AXIS}" cy="{coord(y1)}" r="3"/>'
            f'<polyline class="leader" points="{LEFT_AXIS - 3},{coord(y0)} '
            f'{LEFT_AXIS - LEADER},{coord(label_left)}"/>'
            f'<polyline class="leader" points="{RIGHT_AXIS + 3},{coord(y1)} '
            f'{RIGHT_AXIS + LEADER},{coord(label_right)}"/>'
            f'<text class="slope-label" x="{LEFT_AXIS - LEADER - 2}" y="{coord(label_left)}" '
            f'text-anchor="end" dominant-baseline="middle">{esc(_short(slope.agent_id))} '
            f'<tspan class="value">{slope.before:.{places}f}</tspan></text>'
            f'<text class="slope-label" x="{RIGHT_AXIS + LEADER + 2}" y="{coord(label_right)}" '
            f'dominant-baseline="middle"><tspan class="value">{slope.after:.{places}f}'
            f"</tspan> {esc(_short(slope.agent_id))}</text></g>"
        )
    ident = "plot-" + key.replace(".", "-").replace(":", "-").replace("/", "-")
    title = f"Composite of each agent under {before} (left) and {after} (right)"
    description = "; ".join(
        f"{s.agent_id}: {s.before:.{places}f} (rank {s.rank_before}) → "
        f"{s.after:.{places}f} (rank {s.rank_after})"
        for s in slopes
    )
    svg = (
        f'<svg viewBox="0 0 {WIDTH} {height}" role="img" aria-labelledby="{ident}-t" '
        f'aria-describedby="{ident}-d" xmlns="http://www.w3.org/2000/svg">'
        f'<title id="{ident}-t">{esc(title)}</title><desc id="{ident}-d">{esc(description)}'
        f"</desc>{''.join(parts)}</svg>"
    )
    caption = (
        f"{esc(title)}. Lines that cross are agents that swap ranks; highlighted lines are "
        "agents whose rank changed. The table above gives the same numbers."
    )
    return (
        f'\n<figure class="{PLOT_CLASS} slope" data-mv="plot:{esc(key)}" id="{ident}">'
        f"{svg}<figcaption>{caption}</figcaption></figure>\n"
    )


def rank_table(key: str, agents: Sequence[Any], before: str, after: str, places: int) -> str:
    """Rank changes of one corpus file, biggest movers first (``contracts.impact`` rows).

    Four columns, so that the table fits a phone: the agent, its rank before → after (a
    rank change marked "within the noise" when the paired comparison with every agent it
    changed places with contains 0, see :mod:`contracts.noise`), its composite before →
    after, and the change of composite.
    """
    from contracts.impact import movers_first, shown, signed
    from contracts.noise import noise_text

    rows = []
    for a in movers_first(list(agents)):
        old, new = a.committed, a.live
        rank_before = shown(None if old is None else old.rank)
        rank = f"{rank_before} → {shown(None if new is None else new.rank)}"
        if a.within_noise is not None:  # a rank change whose intervals say how real it is
            rank += f" ({noise_text(a.within_noise)})"
        composite = (
            f"{shown(None if old is None else old.composite, places)} → "
            f"{shown(None if new is None else new.composite, places)}"
        )
        rows.append([esc(a.agent_id), esc(rank), esc(composite), esc(signed(a.delta, places))])
    caption = f"Rank and composite under {esc(before)} → under {esc(after)}, biggest movers first"
    headers = ["Agent", "Rank", f"Composite ({score_unit()})", "Δ (points)"]
    return table(key, headers, rows, numeric=(1, 2, 3), caption=caption)


def pair_list(key: str, agents: Sequence[Any]) -> str:
    """The pairs of one corpus file that changed order, each with its paired comparison
    (``contracts.impact.pair_text``: d, its interval, the shared tasks and the verdict);
    empty when no pair did."""
    from contracts.impact import pair_text, swapped_pairs

    pairs = swapped_pairs(list(agents))
    if not pairs:
        return ""
    items = "".join(f"<li>{esc(pair_text(*pair))}</li>" for pair in pairs)
    return block(
        f"{key}/pairs",
        "<p>Agents that changed order, and the paired comparison of their composites on "
        f"the tasks both have (the one the newer release's code computes):</p><ul>{items}</ul>",
    )


def release_impact(older: Any, newer: Any, places: int) -> str:
    """The impact of ``newer`` against ``older`` (two releases with snapshots)."""
    from contracts.comparison import compare_snapshots
    from contracts.impact import corpus_summary

    old_v = value(f"version:{older.version}", older.version)
    new_v = value(f"version:{newer.version}", newer.version)
    heading = f"\n#### From {old_v} to {new_v}\n"
    pair = f"{older.version}..{newer.version}"
    impact = compare_snapshots(older.snapshot, newer.snapshot)
    if impact is None:
        missing = older if older.snapshot.scoreboard is None else newer
        return heading + block(
            f"impact:{pair}",
            f"<p>Version {esc(missing.version)} records no scoreboard of the reference "
            "corpus (scoreboards are recorded from the release that added the corpus on), "
            "so there is nothing to compare.</p>",
        )
    parts = [heading]
    for corpus in impact.corpus:
        agents = impact.of(corpus)
        parts.append(
            block(
                f"impact:{pair}:{corpus}/summary", f"<p>{esc(corpus_summary(impact, corpus))}</p>"
            )
        )
        ranks = rank_table(f"impact:{pair}:{corpus}", agents, older.version, newer.version, places)
        parts.append(
            f'\n<details class="rank-table"><summary>Every agent\'s rank and composite, '
            f"{old_v} → {new_v}</summary>\n{ranks}\n</details>\n"
        )
        parts.append(pair_list(f"impact:{pair}:{corpus}", agents))
        slopes = [
            Slope(
                a.agent_id, a.committed.composite, a.live.composite, a.committed.rank, a.live.rank
            )
            for a in agents
            if a.committed is not None
            and a.live is not None
            and a.committed.composite is not None
            and a.live.composite is not None
        ]
        parts.append(
            slope_chart(
                f"impact:{pair}:{corpus}", slopes, older.version, newer.version, places=places
            )
        )
    return "".join(parts)


def versions_impact(releases: Sequence[Any], places: int) -> str:
    """The impact of every release after the first against the one before it, newest first."""
    note = history.fewer_than_two("impact", releases, "there is no impact to show yet.")
    if note is not None:
        return note
    pairs = list(reversed(list(itertools.pairwise(releases))))
    newest, *older_pairs = pairs
    # The newest release shown; the ones before it folded, so that the page stays short as
    # releases accumulate (each one's chart is a screen's third).
    folded = "".join(
        f'\n<details class="older-release"><summary>From '
        f"{value(f'version:{old.version}', old.version)} to "
        f"{value(f'version:{new.version}', new.version)}</summary>\n"
        f"{release_impact(old, new, places)}\n</details>\n"
        for old, new in older_pairs
    )
    return release_impact(*newest, places) + folded


def version_impact(site: Site) -> str:
    """The macro: every release's impact against the one before, from the committed
    snapshots, composites shown to the methodology's score decimals."""
    import scoring.constants as C  # noqa: N812 - the module of constants

    return versions_impact(site.history(), C.SCORE_DECIMALS)


#: The macros this module renders (see ``macros.MACROS_BY_MODULE``).
MACROS: dict[str, Callable[..., str]] = {"version_impact": version_impact}
