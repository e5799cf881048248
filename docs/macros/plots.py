"""Inline SVG plots, drawn at build time from points sampled off the real functions.

No plotting library and no script: the figure is plain SVG in the page, coloured by the
site's stylesheet so that it follows the light and dark themes.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from macros.markup import PLOT_CLASS, esc

WIDTH, HEIGHT = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 64, 24, 16, 56


@dataclass(frozen=True, slots=True)
class Scale:
    """One axis of a plot: its label, range, tick positions and tick format."""

    label: str
    low: Fraction
    high: Fraction
    ticks: Sequence[Fraction]
    fmt: Callable[[Fraction], str]


@dataclass(frozen=True, slots=True)
class Curve:
    """A sampled function: points in data units, and how it is drawn."""

    name: str
    points: Sequence[tuple[Fraction, Fraction]]
    style: str = "curve"


@dataclass(frozen=True, slots=True)
class Marker:
    """A point worth showing (an anchor, a worked example) with its label."""

    x: Fraction
    y: Fraction
    label: str
    #: Where the label goes: "auto", or "above"/"below" and "left"/"right", e.g. "below-left".
    place: str = "auto"


@dataclass(frozen=True, slots=True)
class Plot:
    """Everything needed to draw one line plot."""

    key: str
    title: str
    x: Scale
    y: Scale
    curves: Sequence[Curve]
    markers: Sequence[Marker] = field(default_factory=tuple)
    caption: str = ""


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


def _fmt(number: float) -> str:
    return f"{number:.1f}".rstrip("0").rstrip(".")


def line_plot(plot: Plot) -> str:
    """The plot as a ``<figure class="plot">`` holding an inline SVG."""
    inner_w = WIDTH - LEFT - RIGHT
    inner_h = HEIGHT - TOP - BOTTOM

    def px(x: Fraction) -> float:
        return LEFT + float((x - plot.x.low) / (plot.x.high - plot.x.low)) * inner_w

    def py(y: Fraction) -> float:
        return TOP + inner_h - float((y - plot.y.low) / (plot.y.high - plot.y.low)) * inner_h

    parts: list[str] = []
    for tick in plot.x.ticks:
        x = _fmt(px(tick))
        parts.append(f'<line class="grid" x1="{x}" y1="{TOP}" x2="{x}" y2="{TOP + inner_h}"/>')
        parts.append(
            f'<text class="tick" x="{x}" y="{TOP + inner_h + 18}" text-anchor="middle">'
            f"{esc(plot.x.fmt(tick))}</text>"
        )
    for tick in plot.y.ticks:
        y = _fmt(py(tick))
        parts.append(f'<line class="grid" x1="{LEFT}" y1="{y}" x2="{LEFT + inner_w}" y2="{y}"/>')
        parts.append(
            f'<text class="tick" x="{LEFT - 8}" y="{y}" text-anchor="end" '
            f'dominant-baseline="middle">{esc(plot.y.fmt(tick))}</text>'
        )
    parts.append(f'<path class="frame" d="M{LEFT},{TOP} V{TOP + inner_h} H{LEFT + inner_w}"/>')
    parts.append(
        f'<text class="label" x="{LEFT + inner_w / 2}" y="{HEIGHT - 12}" '
        f'text-anchor="middle">{esc(plot.x.label)}</text>'
    )
    parts.append(
        f'<text class="label" transform="translate(16 {TOP + inner_h / 2}) rotate(-90)" '
        f'text-anchor="middle">{esc(plot.y.label)}</text>'
    )
    for curve in plot.curves:
        path = " ".join(
            f"{'M' if i == 0 else 'L'}{_fmt(px(x))},{_fmt(py(y))}"
            for i, (x, y) in enumerate(curve.points)
        )
        parts.append(
            f'<path class="{esc(curve.style)}" d="{path}"><title>{esc(curve.name)}</title></path>'
        )
    for marker in plot.markers:
        x, y = px(marker.x), py(marker.y)
        if marker.place == "auto":
            right = x > LEFT + inner_w * 0.75
            below = y <= TOP + 14
        else:
            right = "left" in marker.place
            below = "below" in marker.place
        dx = -8 if right else 8
        dy = 16 if below else -8
        anchor = "end" if right else "start"
        parts.append(f'<circle class="marker" cx="{_fmt(x)}" cy="{_fmt(y)}" r="4"/>')
        parts.append(
            f'<text class="marker-label" x="{_fmt(x + dx)}" y="{_fmt(y + dy)}" '
            f'text-anchor="{anchor}">{esc(marker.label)}</text>'
        )
    return figure(plot.key, plot.title, plot.caption, WIDTH, HEIGHT, "".join(parts))


def figure(
    key: str,
    title: str,
    caption: str,
    width: int,
    height: int,
    svg_body: str,
    extra_class: str = "",
) -> str:
    """Wrap an SVG body in the marked figure, with a title for screen readers."""
    ident = "plot-" + key.replace(".", "-")
    svg = (
        f'<svg viewBox="0 0 {width} {height}" role="img" aria-labelledby="{ident}-t" '
        f'xmlns="http://www.w3.org/2000/svg"><title id="{ident}-t">{esc(title)}</title>'
        f"{svg_body}</svg>"
    )
    cap = f"<figcaption>{caption}</figcaption>" if caption else ""
    classes = f"{PLOT_CLASS} {extra_class}".strip()
    return (
        f'\n<figure class="{classes}" data-mv="plot:{esc(key)}" id="{ident}">{svg}{cap}</figure>\n'
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
    """A radar (spider) chart of axis values on ``0..top``; a missing axis has no vertex."""
    width, height = 480, 350
    cx, cy, radius = width / 2, 184, 130

    def point(index: int, value: Fraction) -> tuple[float, float]:
        angle = -math.pi / 2 + 2 * math.pi * index / len(axes)
        r = radius * float(value / top)
        return cx + r * math.cos(angle), cy + r * math.sin(angle)

    parts: list[str] = []
    for ring in rings:
        corners = " ".join(
            f"{_fmt(x)},{_fmt(y)}" for x, y in (point(i, ring) for i in range(len(axes)))
        )
        parts.append(f'<polygon class="grid" points="{corners}"/>')
        x, y = point(0, ring)
        parts.append(
            f'<text class="tick" x="{_fmt(x - 7)}" y="{_fmt(y)}" text-anchor="end" '
            'dominant-baseline="middle">'
            f"{esc(fmt(ring))}</text>"
        )
    for i, (name, amount) in enumerate(axes):
        x, y = point(i, top)
        parts.append(
            f'<line class="grid" x1="{_fmt(cx)}" y1="{_fmt(cy)}" x2="{_fmt(x)}" y2="{_fmt(y)}"/>'
        )
        lx, ly = point(i, top * Fraction(118, 100))
        anchor = "middle" if abs(lx - cx) < 10 else ("start" if lx > cx else "end")
        shown = "null" if amount is None else fmt(amount)
        parts.append(
            f'<text class="label" x="{_fmt(lx)}" y="{_fmt(ly)}" text-anchor="{anchor}" '
            f'dominant-baseline="middle">{esc(name)} <tspan class="value">{esc(shown)}</tspan>'
            "</text>"
        )
    present = [(i, v) for i, (_, v) in enumerate(axes) if v is not None]
    shape = " ".join(f"{_fmt(x)},{_fmt(y)}" for x, y in (point(i, v) for i, v in present))
    parts.append(f'<polygon class="area" points="{shape}"/>')
    for i, v in present:
        x, y = point(i, v)
        parts.append(f'<circle class="marker" cx="{_fmt(x)}" cy="{_fmt(y)}" r="4"/>')
    return figure(key, title, caption, width, height, "".join(parts), "radar")
