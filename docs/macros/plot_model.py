"""What a plot is, as data: its axes, its curves, its markers (drawn by :mod:`macros.plots`,
its labels laid out by :mod:`macros.plot_labels`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction


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
