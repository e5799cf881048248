"""Where the labels of a line plot go (macros.plots): laid out at build time for the size a
phone draws them at, so that an axis label, the tick labels and a marker's label never
collide there, nor a marker's label with a curve.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from macros.plot_model import Marker, Plot

# The labels are laid out for the largest size they are drawn at: a phone, where site.css
# sets every label of a plot at PHONE_FONT in the drawing's units (the drawing is about half
# its size there). Widths are estimated: a character is at most CHAR_EM of the font size.
PHONE_FONT = 21
CHAR_EM = 0.6
LINE_EM = 1.15
#: Gaps in the drawing's units: between tick labels and the axis, around the axis label.
TICK_GAP, LABEL_GAP, EDGE = 8, 6, 4
#: How far a marker's label stands off its dot.
MARKER_OFFSET = 8


def text_width(text: str, font: float = PHONE_FONT) -> float:
    """The estimated width of ``text`` set at ``font`` (drawing units), rounded up."""
    return len(text) * CHAR_EM * font


def label_lines(label: str, room: float, font: float = PHONE_FONT) -> list[str]:
    """``label`` in as few lines as fit ``room`` (words kept whole).

    >>> label_lines("width of the success-rate interval", 300)
    ['width of the', 'success-rate interval']
    """
    lines: list[str] = []
    for word in label.split():
        if lines and text_width(f"{lines[-1]} {word}", font) <= room:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    return lines


def left_margin(plot: Plot, inner_h: float) -> tuple[float, list[str]]:
    """Room left of the axis for the tick labels and the rotated axis label, at a phone's
    font size, and that label's lines."""
    lines = label_lines(plot.y.label, inner_h)
    ticks = max((text_width(plot.y.fmt(t)) for t in plot.y.ticks), default=0.0)
    band = len(lines) * PHONE_FONT * LINE_EM
    return EDGE + band + LABEL_GAP + ticks + TICK_GAP, lines


def shown_ticks(plot: Plot, inner_w: float) -> list[Fraction]:
    """The x ticks whose labels are written: every n-th, so that none touches the next at a
    phone's font size (the grid keeps every tick)."""
    ticks = list(plot.x.ticks)
    if len(ticks) < 2:
        return ticks
    spacing = (
        inner_w / (len(ticks) - 1) * float((ticks[-1] - ticks[0]) / (plot.x.high - plot.x.low))
    )
    widest = max(text_width(plot.x.fmt(t)) for t in ticks) + TICK_GAP
    every = max(1, math.ceil(widest / spacing)) if spacing > 0 else 1
    return ticks[::every]


#: Where a marker's label may go, in the order tried: above or below, right or left, then
#: each again a line and two lines further off the dot.
PLACES = ("above-right", "above-left", "below-right", "below-left")
LIFTS = (0, 1, 2)


def marker_place(
    marker: Marker,
    x: float,
    y: float,
    curves: Sequence[Sequence[tuple[float, float]]],
    box: tuple[float, float, float, float],
) -> tuple[float, float, str]:
    """Offset (from the dot to the label's start) and anchor of a marker's label: the place
    it asks for, or else the first of :data:`PLACES` (each at the :data:`LIFTS`) whose box,
    at a phone's font size and moved sideways into ``box`` (left, top, right, bottom: the
    drawing right of the axis and above the tick labels), stays off every curve: a label
    never sits on the line, nor runs off the drawing."""
    width = text_width(marker.label)

    def offsets(place: str, lift: int = 0) -> tuple[float, float, str]:
        left = "left" in place
        below = "below" in place
        start = x - MARKER_OFFSET - width if left else x + MARKER_OFFSET
        start = min(max(start, box[0]), box[2] - width)  # inside the drawing
        rise = lift * PHONE_FONT
        dy = MARKER_OFFSET + PHONE_FONT + rise if below else -MARKER_OFFSET - rise
        return start - x, dy, "start"

    def clear(place: str, lift: int) -> bool:
        dx, dy, _ = offsets(place, lift)
        x0, y1 = x + dx, y + dy
        x1, y0 = x0 + width, y1 - PHONE_FONT
        if y0 < box[1] or y1 > box[3]:
            return False
        return not any(x0 <= cx <= x1 and y0 <= cy <= y1 for curve in curves for cx, cy in curve)

    if marker.place != "auto":
        return offsets(marker.place)
    tries = [(p, lift) for lift in LIFTS for p in PLACES]
    return offsets(*next((t for t in tries if clear(*t)), tries[0]))
