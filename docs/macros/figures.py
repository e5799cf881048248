"""Plots and figures: the curves of the headline composite (latency, cost, consistency), the
five radar axes, the outcome score's trade-off, and the radar of a worked example. Each is
sampled from the live functions of ``scoring`` and drawn as inline SVG by
:mod:`macros.plots`."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import scoring.constants as C  # noqa: N812 - the module of constants, named as in contracts
from macros import plots
from macros.markup import esc, exact_text, ms, percent, plain, usd
from macros.site import fraction

if TYPE_CHECKING:
    from macros.site import Site


def plot(site: Site, name: str) -> str:
    """One of the plots of :data:`PLOTS`, drawn from the live code."""
    return PLOTS[name](site)


def radar_example(site: Site, name: str) -> str:
    """The radar chart of a worked example of ``scoring.examples``."""
    from scoring.constants import Axis

    result = site.snapshot.example(name).result
    top = Fraction(C.SCORE_SCALE)
    axes = [(axis.value.replace("_", " "), fraction(result[f"axis.{axis.value}"])) for axis in Axis]
    rings = [top * i / 5 for i in range(1, 6)]
    profile = fraction(result["profile"])
    caption = (
        f"The radar of the worked example <code>{esc(name)}</code>; its profile "
        f"(default weights) is {plain(profile, C.SCORE_DECIMALS)}."
    )
    return plots.radar_chart(
        f"example:{name}",
        site.snapshot.example(name).title,
        axes,
        rings,
        top,
        lambda v: plain(v, 0) if v.denominator == 1 else plain(v, C.SCORE_DECIMALS),
        caption,
    )


def _ticks(low: Fraction, high: Fraction, count: int = 6) -> list[Fraction]:
    return plots.nice_ticks(low, high, count)


#: How many known outcomes the pass-rate plots (correctness, robustness) sample: a drawing
#: resolution, one point per percent of pass rate, not a value of the methodology.
_RATE_SAMPLES = 100


def _unit_scale(label: str, fmt: Callable[[Fraction], str] | None = None) -> plots.Scale:
    """A 0–1 axis (fractions, readings), ticked every fifth, labelled with one decimal."""
    one = Fraction(1)
    shown = fmt if fmt is not None else (lambda v: plain(v, 1))
    return plots.Scale(label, Fraction(0), one, _ticks(Fraction(0), one, 5), shown)


def _score_scale(label: str) -> plots.Scale:
    top = Fraction(C.SCORE_SCALE)
    return plots.Scale(label, Fraction(0), top, _ticks(Fraction(0), top, 5), lambda v: plain(v, 0))


def _unit_square_plot(*, axes: tuple[str, str], **plot: Any) -> str:
    """A line plot of [0, 1] onto [0, 1]; ``axes`` labels x and y, ``plot`` is the rest of
    the :class:`plots.Plot`."""
    x_label, y_label = axes
    return plots.line_plot(plots.Plot(x=_unit_scale(x_label), y=_unit_scale(y_label), **plot))


def _scale_to(label: str, high: Fraction, fmt: Callable[[Fraction], str]) -> plots.Scale:
    """An axis of measured inputs (cost, latency, steps), from zero to ``high``."""
    return plots.Scale(label, Fraction(0), high, _ticks(Fraction(0), high), fmt)


def _usd_tick(value: Fraction) -> str:
    return usd(Decimal(value.numerator) / Decimal(value.denominator))


def _whole_tick(value: Fraction) -> str:
    return plain(value, 0)


def _example_marker(x: Fraction, score: object) -> plots.Marker:
    """The worked example's dot; a score it leaves empty (neutral) is drawn at zero."""
    return plots.Marker(x, fraction(score) or Fraction(0), "worked example")


def _curve_plot(site: Site, name: str, money: bool) -> str:
    from scoring.formulas.curves import cost_score, latency_score

    anchors: Sequence[C.Anchor] = site.infos[name].value
    function = cost_score if money else latency_score
    high = Fraction(anchors[-1].x) * Fraction(5, 4)
    xs = [Fraction(a.x) for a in anchors]
    x = _scale_to(
        "mean cost per completed run (USD)" if money else "mean latency of completed runs (ms)",
        high,
        _usd_tick if money else _whole_tick,
    )
    markers = [
        plots.Marker(
            Fraction(a.x), Fraction(a.score), f"{usd(a.x) if money else ms(a.x)} → {plain(a.score)}"
        )
        for a in anchors
    ]
    label = "Cost score" if money else "Latency score"
    return plots.line_plot(
        plots.Plot(
            key=f"constant:{name}",
            title=f"{label} against the mean {'cost' if money else 'latency'}",
            x=x,
            y=_score_scale(label.lower()),
            curves=[plots.Curve(label, plots.sample(function, Fraction(0), high, extra=xs))],
            markers=markers,
            caption=f"{label}, sampled from "
            f"<code>{function.__module__}.{function.__name__}</code>; "
            "the dots are the anchors.",
        )
    )


def _consistency_plot(site: Site) -> str:
    from scoring.formulas.composite import outcome_consistency

    gate = C.CONSISTENCY_MIN_RUNS
    typical = site.snapshot.example("composite.typical").result
    p = fraction(typical["success_rate"])
    assert p is not None
    return _unit_square_plot(
        key="formula:composite.outcome_consistency",
        title="Outcome consistency against the success rate",
        axes=("success rate p", "outcome consistency"),
        curves=[
            plots.Curve(
                f"{gate} or more completed runs",
                plots.sample(lambda q: outcome_consistency(q, gate), Fraction(0), Fraction(1)),
            ),
            plots.Curve(
                f"fewer than {gate} completed runs",
                plots.sample(lambda q: outcome_consistency(q, gate - 1), Fraction(0), Fraction(1)),
                style="curve alt",
            ),
        ],
        markers=[_example_marker(p, typical["consistency"])],
        caption=(
            f"Solid: {gate} or more completed runs. Dashed: fewer, where consistency stays "
            f"neutral. Sampled from <code>outcome_consistency</code>."
        ),
    )


def _radar_axis_plot(site: Site, axis: str) -> str:
    from scoring.formulas import radar

    example = site.snapshot.example("radar.typical")
    inputs_, result = example.inputs, example.result
    top = Fraction(C.SCORE_SCALE)
    y = _score_scale(f"{axis.replace('_', ' ')} axis")
    marker: plots.Marker | None = None
    function: Callable[[Fraction], Fraction | None]
    if axis == "correctness":
        known = _RATE_SAMPLES
        x = _unit_scale("pass rate over window runs with a known outcome", percent)
        function = lambda q: radar.correctness_axis(int(q * known), known)  # noqa: E731
        points = plots.sample(function, Fraction(0), Fraction(1), steps=known)
        rate = Fraction(inputs_["passes"], inputs_["known_outcomes"])
        marker = _example_marker(rate, result["axis.correctness"])
    elif axis == "latency":
        full = Fraction(C.RADAR_LATENCY_FULL_MS)
        zero_at = full + top / Fraction(C.RADAR_LATENCY_POINTS_PER_STEP) * Fraction(
            C.RADAR_LATENCY_STEP_MS
        )
        high = zero_at * Fraction(5, 4)
        x = _scale_to("median latency of the window (ms)", high, _whole_tick)
        function = lambda t: radar.latency_axis(t, C.RADAR_LATENCY_MIN_RUNS)  # noqa: E731
        points = plots.sample(function, Fraction(0), high, extra=[full, zero_at])
        marker = _example_marker(Fraction(inputs_["median_latency_ms"]), result["axis.latency"])
    elif axis == "cost":
        zero = Fraction(C.RADAR_COST_ZERO_USD)
        high = zero * Fraction(13, 10)
        x = _scale_to("median cost per run (USD)", high, _usd_tick)
        function = radar.cost_axis
        points = plots.sample(
            function, Fraction(0), high, extra=[Fraction(C.RADAR_COST_FULL_USD), zero]
        )
        marker = _example_marker(Fraction(inputs_["median_cost_usd"]), result["axis.cost"])
    elif axis == "tool_efficiency":
        free = Fraction(C.RADAR_STEPS_FREE)
        high = free + top / Fraction(C.RADAR_POINTS_PER_EXTRA_STEP) + 3
        x = _scale_to("median steps of the window", high, _whole_tick)
        function = radar.tool_efficiency_axis
        points = plots.sample(function, Fraction(0), high, extra=[free])
        marker = _example_marker(Fraction(inputs_["median_steps"]), result["axis.tool_efficiency"])
    elif axis == "robustness":
        known = _RATE_SAMPLES
        x = _unit_scale("pass rate q of one task", percent)
        function = lambda q: radar.robustness_axis([(int(q * known), known)])  # noqa: E731
        points = plots.sample(function, Fraction(0), Fraction(1), steps=known)
    else:
        raise KeyError(axis)
    return plots.line_plot(
        plots.Plot(
            key=f"formula:radar.{axis}",
            title=f"The {axis.replace('_', ' ')} axis",
            x=x,
            y=y,
            curves=[plots.Curve(f"{axis} axis", points)],
            markers=[marker] if marker else [],
            caption="Sampled from <code>scoring.formulas.radar</code>"
            + ("; the dot is the worked example below." if marker else "; one task on its own."),
        )
    )


def _tradeoff_plot(site: Site) -> str:
    from scoring.formulas.outcome import combine, recoverable_with_floor

    a = site.snapshot.example("outcome.tradeoff_safety").result
    b = site.snapshot.example("outcome.tradeoff_correctness").result
    curves = []
    levels = sorted(
        {
            Fraction(repr(a["recoverable_safety"])),
            Fraction(repr(b["recoverable_safety"])),
            recoverable_with_floor(0),
        },
        reverse=True,
    )
    for level in levels:
        curves.append(
            plots.Curve(
                f"rec_v = {exact_text(level)}",
                plots.sample(
                    lambda c, level=level: Fraction(combine(c, level)), Fraction(0), Fraction(1)
                ),
                style="curve" if level == levels[0] else "curve alt",
            )
        )
    markers = [
        plots.Marker(
            Fraction(repr(r["correctness"])),
            Fraction(repr(r["outcome_score"])),
            f"c = {exact_text(Fraction(repr(r['correctness'])))}, "
            f"rec_v = {exact_text(Fraction(repr(r['recoverable_safety'])))}",
            place,
        )
        for r, place in ((a, "below-left"), (b, "above-left"))
    ]
    return _unit_square_plot(
        key="formula:outcome.score",
        title="Outcome score against correctness, for three levels of recoverable safety",
        axes=("correctness c", "outcome score"),
        curves=curves,
        markers=markers,
        caption="Curves from top to bottom: rec_v = "
        + ", ".join(exact_text(level) for level in levels)
        + " (the last is the floor). Sampled from <code>scoring.formulas.outcome.combine</code>.",
    )


PLOTS: dict[str, Callable[[Site], str]] = {
    "composite.latency": lambda s: _curve_plot(s, "composite.latency_anchors_ms", money=False),
    "composite.cost": lambda s: _curve_plot(s, "composite.cost_anchors_usd", money=True),
    "composite.consistency": _consistency_plot,
    "radar.correctness": lambda s: _radar_axis_plot(s, "correctness"),
    "radar.latency": lambda s: _radar_axis_plot(s, "latency"),
    "radar.cost": lambda s: _radar_axis_plot(s, "cost"),
    "radar.tool_efficiency": lambda s: _radar_axis_plot(s, "tool_efficiency"),
    "radar.robustness": lambda s: _radar_axis_plot(s, "robustness"),
    "outcome.tradeoff": _tradeoff_plot,
    "uncertainty.width": lambda s: _uncertainty().width_plot(s),
}


def _uncertainty() -> Any:
    from macros import uncertainty

    return uncertainty


#: The macros this module renders (see ``macros.MACROS_BY_MODULE``).
MACROS: dict[str, Callable[..., str]] = {
    "plot": plot,
    "radar_example": radar_example,
}
