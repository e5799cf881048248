"""Inline SVG plots, drawn at build time from points sampled off the real functions.

No plotting library and no script: the figure is plain SVG in the page, coloured by the
site's stylesheet so that it follows the light and dark themes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction

from macros.markup import PLOT_CLASS, esc
from macros.plot_labels import (
    EDGE,
    LINE_EM,
    PHONE_FONT,
    TICK_GAP,
    left_margin,
    marker_place,
    shown_ticks,
)

# Re-exported: the figures build their plots through this module (plots.Scale, plots.Marker).
from macros.plot_model import Curve, Marker as Marker, Plot, Scale as Scale
from scoring.numeric import number_text

WIDTH, HEIGHT = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 64, 40, 16, 56


def nice_ticks(low: Fraction, high: Fraction, count: int = 6) -> list[Fraction]:
    """Round tick positions covering ``[low, high]``: steps of 1, 2, 2.5 or 5 × 10^n."""
    span = high - low
    raw = span / count
    power = Fraction(10) ** math.floor(math.log10(raw))
    step = next(power * m for m in (1, 2, Fraction(5, 2), 5, 10) if power * m >= raw)
    first = math.ceil(low / step) * step
    ticks = []
    tick = first
    while tick <= high:
        ticks.append(tick)
        tick += step
    return ticks


def sample(
    function: Callable[[Fraction], Fraction | None],
    low: Fraction,
    high: Fraction,
    *,
    steps: int = 240,
    extra: Sequence[Fraction] = (),
) -> list[tuple[Fraction, Fraction]]:
    """``function`` evaluated at ``steps + 1`` evenly spaced points and at ``extra``."""
    xs = {low + (high - low) * i / steps for i in range(steps + 1)}
    xs.update(x for x in extra if low <= x <= high)
    points = []
    for x in sorted(xs):
        y = function(x)
        if y is not None:
            points.append((x, Fraction(y)))
    return points


def coord(number: float) -> str:
    """A coordinate as an SVG attribute: one decimal at most, no trailing zero."""
    return f"{number:.1f}".rstrip("0").rstrip(".")


def line_plot(plot: Plot) -> str:
    """The plot as a ``<figure class="plot">`` holding an inline SVG."""
    inner_h = HEIGHT - TOP - BOTTOM
    left, y_lines = left_margin(plot, inner_h)
    inner_w = WIDTH - left - RIGHT

    def px(x: Fraction) -> float:
        return left + float((x - plot.x.low) / (plot.x.high - plot.x.low)) * inner_w

    def py(y: Fraction) -> float:
        return TOP + inner_h - float((y - plot.y.low) / (plot.y.high - plot.y.low)) * inner_h

    parts: list[str] = []
    labelled = set(shown_ticks(plot, inner_w))
    for tick in plot.x.ticks:
        x = coord(px(tick))
        parts.append(f'<line class="grid" x1="{x}" y1="{TOP}" x2="{x}" y2="{TOP + inner_h}"/>')
        if tick in labelled:
            parts.append(
                f'<text class="tick" x="{x}" y="{TOP + inner_h + 18}" text-anchor="middle">'
                f"{esc(plot.x.fmt(tick))}</text>"
            )
    for tick in plot.y.ticks:
        y = coord(py(tick))
        x0, x1 = coord(left), coord(left + inner_w)
        parts.append(f'<line class="grid" x1="{x0}" y1="{y}" x2="{x1}" y2="{y}"/>')
        parts.append(
            f'<text class="tick" x="{coord(left - TICK_GAP)}" y="{y}" text-anchor="end" '
            f'dominant-baseline="middle">{esc(plot.y.fmt(tick))}</text>'
        )
    parts.append(
        f'<path class="frame" d="M{coord(left)},{TOP} V{TOP + inner_h} H{coord(left + inner_w)}"/>'
    )
    parts.append(
        f'<text class="label" x="{coord(left + inner_w / 2)}" y="{HEIGHT - 12}" '
        f'text-anchor="middle">{esc(plot.x.label)}</text>'
    )
    line_height = PHONE_FONT * LINE_EM
    spans = "".join(
        f'<tspan x="0" dy="{coord(0 if i == 0 else line_height)}">{esc(line)}</tspan>'
        for i, line in enumerate(y_lines)
    )
    first_line = EDGE + PHONE_FONT  # the first line's baseline, from the drawing's edge
    parts.append(
        f'<text class="label" transform="translate({coord(first_line)} {coord(TOP + inner_h / 2)}) '
        f'rotate(-90)" text-anchor="middle">{spans}</text>'
    )
    for index, curve in enumerate(plot.curves):
        path = " ".join(
            f"{'M' if i == 0 else 'L'}{coord(px(x))},{coord(py(y))}"
            for i, (x, y) in enumerate(curve.points)
        )
        parts.append(
            f'<path class="{_series(curve, index)}" d="{path}">'
            f"<title>{esc(curve.name)}</title></path>"
        )
    drawn = [[(px(x), py(y)) for x, y in curve.points] for curve in plot.curves]
    box = (left, 0.0, float(WIDTH), TOP + inner_h)
    for marker in plot.markers:
        x, y = px(marker.x), py(marker.y)
        dx, dy, anchor = marker_place(marker, x, y, drawn, box)
        parts.append(f'<circle class="marker" cx="{coord(x)}" cy="{coord(y)}" r="4"/>')
        parts.append(
            f'<text class="marker-label" x="{coord(x + dx)}" y="{coord(y + dy)}" '
            f'text-anchor="{anchor}">{esc(marker.label)}</text>'
        )
    height = HEIGHT
    if len(plot.curves) > 1:
        legend, height = _legend(plot.curves, HEIGHT)
        parts.append(legend)
    names = ", ".join(c.name for c in plot.curves)
    description = f"{plot.y.label} against {plot.x.label}: {names}."
    return figure(
        plot.key,
        plot.title,
        plot.caption,
        WIDTH,
        height,
        "".join(parts),
        description=description,
        data=_line_data(plot),
    )


#: How many line styles there are; a plot with more curves repeats them (none has yet).
SERIES = 4


def _series(curve: Curve, index: int) -> str:
    """Classes of a curve: its own style, and the series style that tells it apart from the
    other curves of its plot by dash pattern as well as colour (solid, dashed, dotted, ...)."""
    return f"{esc(curve.style)} series-{index % SERIES}"


LEGEND_ROW = 24
LEGEND_SAMPLE = 36


def _legend(curves: Sequence[Curve], top: int) -> tuple[str, int]:
    """A legend under the plot, one row per curve (a stretch of its line, then its name);
    returns the SVG and the new height of the plot."""
    rows = []
    for index, curve in enumerate(curves):
        y = top + LEGEND_ROW * index + LEGEND_ROW / 2
        rows.append(
            f'<line class="{_series(curve, index)}" x1="{LEFT}" y1="{coord(y)}" '
            f'x2="{LEFT + LEGEND_SAMPLE}" y2="{coord(y)}"/>'
            f'<text class="legend-label" x="{LEFT + LEGEND_SAMPLE + 10}" y="{coord(y)}" '
            f'dominant-baseline="middle">{esc(curve.name)}</text>'
        )
    return f'<g class="legend">{"".join(rows)}</g>', top + LEGEND_ROW * len(curves) + 8


#: Decimals of a value in a plot's data table, at most: a label, not a published result.
DATA_TABLE_PLACES = 4


def _value(number: Fraction) -> str:
    """A value of the data table: exact if short, else rounded half up to
    ``DATA_TABLE_PLACES`` decimals."""
    return number_text(number, max_places=DATA_TABLE_PLACES)


def _line_data(plot: Plot) -> str:
    """The plot's data as a table: each curve's value at each tick of the x axis and at each
    marker (where the curve was sampled there)."""
    xs = sorted(set(plot.x.ticks) | {m.x for m in plot.markers})
    lookups = [dict(curve.points) for curve in plot.curves]
    heads = [plot.x.label] + (
        [c.name for c in plot.curves] if len(plot.curves) > 1 else [plot.y.label]
    )
    rows = [
        [plot.x.fmt(x)] + [_value(lookup[x]) if x in lookup else "–" for lookup in lookups]
        for x in xs
    ]
    return data_table(heads, rows)


def data_table(heads: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A plot's text alternative: its data, folded under it."""
    head = "".join(f"<th>{esc(h)}</th>" for h in heads)
    body = "".join(
        "<tr>" + "".join(f'<td class="num">{esc(cell)}</td>' for cell in row) + "</tr>"
        for row in rows
    )
    return (
        '<details class="plot-data"><summary>Data</summary>'
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></details>"
    )


def figure(
    key: str,
    title: str,
    caption: str,
    width: int,
    height: int,
    svg_body: str,
    extra_class: str = "",
    *,
    description: str = "",
    data: str = "",
) -> str:
    """Wrap an SVG body in the marked figure: a title and a description for screen readers,
    and the data as a table folded under the caption, for anyone who cannot see the plot."""
    ident = "plot-" + key.replace(".", "-")
    desc = f'<desc id="{ident}-d">{esc(description)}</desc>' if description else ""
    described = f' aria-describedby="{ident}-d"' if description else ""
    svg = (
        f'<svg viewBox="0 0 {width} {height}" role="img" aria-labelledby="{ident}-t"{described} '
        f'xmlns="http://www.w3.org/2000/svg"><title id="{ident}-t">{esc(title)}</title>{desc}'
        f"{svg_body}</svg>"
    )
    cap = f"<figcaption>{caption}</figcaption>" if caption else ""
    classes = f"{PLOT_CLASS} {extra_class}".strip()
    return (
        f'\n<figure class="{classes}" data-mv="plot:{esc(key)}" id="{ident}">'
        f"{svg}{cap}{data}</figure>\n"
    )


def radar_chart(
    key: str,
    title: str,
    axes: Sequence[tuple[str, Fraction | None]],
    rings: Sequence[Fraction],
    top: Fraction,
    fmt: Callable[[Fraction], str],
    caption: str = "",
) -> str:
    """A radar (spider) chart of axis values on ``0..top``; a missing axis has no vertex.

    Each axis is labelled with its name and, on a second line, its value, so that the labels
    stay inside the chart when the text is enlarged for a phone."""
    width, height = 480, 380
    cx, cy, radius = width / 2, 196, 120

    def point(index: int, value: Fraction) -> tuple[float, float]:
        angle = -math.pi / 2 + 2 * math.pi * index / len(axes)
        r = radius * float(value / top)
        return cx + r * math.cos(angle), cy + r * math.sin(angle)

    parts: list[str] = []
    for ring in rings:
        corners = " ".join(
            f"{coord(x)},{coord(y)}" for x, y in (point(i, ring) for i in range(len(axes)))
        )
        parts.append(f'<polygon class="grid" points="{corners}"/>')
        x, y = point(0, ring)
        parts.append(
            f'<text class="tick" x="{coord(x - 7)}" y="{coord(y)}" text-anchor="end" '
            'dominant-baseline="middle">'
            f"{esc(fmt(ring))}</text>"
        )
    for i, (name, amount) in enumerate(axes):
        x, y = point(i, top)
        parts.append(
            f'<line class="grid" x1="{coord(cx)}" y1="{coord(cy)}" '
            f'x2="{coord(x)}" y2="{coord(y)}"/>'
        )
        lx, ly = point(i, top * Fraction(114, 100))
        anchor = "middle" if abs(lx - cx) < 10 else ("start" if lx > cx else "end")
        shown = "null" if amount is None else fmt(amount)
        # Above the chart the two lines stack upwards, below it downwards, beside it around
        # the end of the axis.
        if ly < cy - radius / 2:
            first = "-0.9em"
        elif ly > cy + radius / 2:
            first = "0.9em"
        else:
            first = "-0.2em"
        parts.append(
            f'<text class="label" x="{coord(lx)}" y="{coord(ly)}" text-anchor="{anchor}">'
            f'<tspan x="{coord(lx)}" dy="{first}">{esc(name)}</tspan>'
            f'<tspan class="value" x="{coord(lx)}" dy="1.2em">{esc(shown)}</tspan></text>'
        )
    present = [(i, v) for i, (_, v) in enumerate(axes) if v is not None]
    shape = " ".join(f"{coord(x)},{coord(y)}" for x, y in (point(i, v) for i, v in present))
    parts.append(f'<polygon class="area" points="{shape}"/>')
    for i, v in present:
        x, y = point(i, v)
        parts.append(f'<circle class="marker" cx="{coord(x)}" cy="{coord(y)}" r="4"/>')
    values = ", ".join(f"{name} {'null' if v is None else fmt(v)}" for name, v in axes)
    data = data_table(["axis", "value"], [[n, "null" if v is None else fmt(v)] for n, v in axes])
    return figure(
        key,
        title,
        caption,
        width,
        height,
        "".join(parts),
        "radar",
        description=f"Radar chart on a scale to {fmt(top)}: {values}.",
        data=data,
    )
