"""The piecewise-linear curves of the headline composite."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction

from scoring.constants import COST_ANCHORS_USD, LATENCY_ANCHORS_MS, Anchor
from scoring.numeric import Number, exact
from scoring.registry import (
    Binding,
    FormulaParts,
    Point,
    ScoringError,
    arg,
    const,
    count,
    formula,
    index,
    point,
    sequence,
    uses,
)

#: The symbols of a formula of ``x`` on a curve's ``anchors`` (the curve and its slope).
CURVE_SYMBOLS: Mapping[str, Binding] = {
    "x": arg("x"),
    "x_": sequence("anchors", "x"),
    "s_": sequence("anchors", "score"),
    "m": count("anchors"),
    "i": index("anchors"),
}


def curve_points(anchor_xs: Sequence[Decimal]) -> list[Decimal]:
    """A curve's golden abscissae: half the first anchor, each anchor and each halfway point,
    and twice the last anchor.

    >>> curve_points([Decimal(500), Decimal(2000)])
    [Decimal('250'), Decimal('500'), Decimal('1250'), Decimal('2000'), Decimal('4000')]
    """
    xs = list(anchor_xs)
    found = [xs[0] / 2]
    for left, right in itertools.pairwise(xs):
        found += [left, (left + right) / 2]
    return [*found, xs[-1], xs[-1] * 2]


def curve_golden(curve: str, anchors: Sequence[Anchor]) -> list[Point]:
    """Golden points of a formula of ``x`` on ``anchors`` (see :data:`CURVE_SYMBOLS`): one
    at each of the curve's :func:`curve_points`, labelled ``<curve>,x=<x>``."""
    return [
        point(f"{curve},x={x}", x=x, anchors=anchors) for x in curve_points([a.x for a in anchors])
    ]


@formula(
    "curve.piecewise_linear",
    title="Piecewise-linear curve",
    latex=(
        r"f(x) = \begin{cases} s_1 & x \le x_1 \\"
        r" s_i + (s_{i+1} - s_i)\,\dfrac{x - x_i}{x_{i+1} - x_i} & x_i < x \le x_{i+1} \\"
        r" s_m & x \ge x_m \end{cases}"
    ),
    symbols=CURVE_SYMBOLS,
    golden=curve_golden("latency", LATENCY_ANCHORS_MS),
)
def piecewise_linear(x: Number, anchors: Sequence[Anchor]) -> Fraction:
    """Interpolate ``x`` linearly between adjacent anchors ``(x_i, s_i)``.

    At or below the first anchor the score is ``s_1``; at or above the last it is ``s_m``.
    Anchors must have strictly increasing ``x``.

    Returns a value between the lowest and the highest anchor score (0–100 for the
    published curves, where 100 is best).

    >>> from decimal import Decimal as D
    >>> piecewise_linear(1250, [Anchor(D(500), D(100)), Anchor(D(2000), D(80))])
    Fraction(90, 1)
    """
    xs, scores, _, ratios = prepared(anchors)
    value = exact(x)
    a, b = value.numerator, value.denominator
    xn, xd = ratios[0][:2]
    if a * xd <= xn * b:  # x ≤ x_1
        return scores[0]
    # The segment (x_i, x_{i+1}] that holds x: the first anchor at or beyond x closes it.
    # s_i + slope_i · (x − x_i) is the formula's value exactly, here as one integer ratio
    # (x = a/b, x_i = xn/xd, s_i = sn/sd, slope_i = mn/md), with the slope divided out once
    # per curve.
    for i in range(1, len(xs)):
        if ratios[i][0] * b >= a * ratios[i][1]:
            xn, xd, sn, sd, mn, md = ratios[i - 1]
            return Fraction(sn * md * b * xd + mn * (a * xd - xn * b) * sd, sd * md * b * xd)
    return scores[-1]


_Prepared = tuple[
    tuple[Fraction, ...],
    tuple[Fraction, ...],
    tuple[Fraction, ...],
    tuple[tuple[int, int, int, int, int, int], ...],
]
# Curves prepared so far, by the identity of their anchors (the published curves are
# module constants, prepared once; only tuples, which cannot change). Each entry keeps its
# anchors, so an id is never reused while it is here. Bounded, for callers that build
# anchors afresh on every call.
_PREPARED: dict[int, tuple[Sequence[Anchor], _Prepared]] = {}
_PREPARED_MAX = 64


def prepared(anchors: Sequence[Anchor]) -> _Prepared:
    """The anchors as exact x values, scores and segment slopes, and the same per anchor as
    integer ratios ``(x, s, slope to the right)``; checked once per curve."""
    cached = _PREPARED.get(id(anchors))
    if cached is not None and cached[0] is anchors:
        return cached[1]
    if not anchors:
        raise ScoringError("a curve needs at least one anchor")
    xs = tuple(exact(a.x) for a in anchors)
    scores = tuple(exact(a.score) for a in anchors)
    for x0, x1 in itertools.pairwise(xs):
        if x1 <= x0:
            raise ScoringError("curve anchors must have strictly increasing x")
    slopes = tuple(
        (s1 - s0) / (x1 - x0)
        for (x0, x1), (s0, s1) in zip(
            itertools.pairwise(xs), itertools.pairwise(scores), strict=True
        )
    )
    # Per anchor i, as integer ratios: x_i, s_i and the slope of the segment to its right
    # (0 after the last anchor, which closes no segment).
    ratios = tuple(
        (x.numerator, x.denominator, s.numerator, s.denominator, m.numerator, m.denominator)
        for x, s, m in zip(xs, scores, (*slopes, Fraction(0)), strict=True)
    )
    found = (xs, scores, slopes, ratios)
    if isinstance(anchors, tuple):  # immutable (Anchor is frozen): safe to keep
        if len(_PREPARED) >= _PREPARED_MAX:
            _PREPARED.clear()
        _PREPARED[id(anchors)] = (anchors, found)
    return found


def _score_on_curve(
    part: str, mean: str, anchors_name: str, anchors: Sequence[Anchor]
) -> FormulaParts:
    """The formula of a part of the composite that is the curve ``anchors`` (the constant
    ``anchors_name``) read at the argument ``mean`` (``mean_<part>_<unit>``), e.g.
    ``latency = f_latency(mean latency_ms)``; golden at the curve's :func:`curve_points`."""
    curve = rf"f_{{\mathrm{{{part}}}}}"
    average = r"\overline{\mathrm{" + mean.removeprefix("mean_").replace("_", r"\_") + "}}"
    return FormulaParts(
        title=f"{part.capitalize()} score",
        latex=rf"\mathrm{{{part}}} = {curve}\!\left({average}\right)",
        symbols={
            curve: uses("curve.piecewise_linear", "x", anchors=const(anchors_name)),
            average: arg(mean),
        },
        golden=[point(str(x), **{mean: x}) for x in curve_points([a.x for a in anchors])],
    )


@formula(
    "composite.latency_score",
    **_score_on_curve("latency", "mean_latency_ms", "LATENCY_ANCHORS_MS", LATENCY_ANCHORS_MS),
)
def latency_score(mean_latency_ms: Number) -> Fraction:
    """Latency score (0–100) of a mean latency in ms, on ``LATENCY_ANCHORS_MS``.

    Returns a value in [0, 100]; 100 is best.

    >>> latency_score(500), latency_score(3500), latency_score(12000)
    (Fraction(100, 1), Fraction(65, 1), Fraction(0, 1))
    """
    return piecewise_linear(mean_latency_ms, LATENCY_ANCHORS_MS)


@formula(
    "composite.cost_score",
    **_score_on_curve("cost", "mean_cost_usd", "COST_ANCHORS_USD", COST_ANCHORS_USD),
)
def cost_score(mean_cost_usd: Number) -> Fraction:
    """Cost score (0–100) of a mean cost per run in USD, on ``COST_ANCHORS_USD``.

    Returns a value in [0, 100]; 100 is best.

    >>> from decimal import Decimal as D
    >>> cost_score(D("0.001")), cost_score(D("0.03")), cost_score(D("0.5"))
    (Fraction(100, 1), Fraction(65, 1), Fraction(0, 1))
    """
    return piecewise_linear(mean_cost_usd, COST_ANCHORS_USD)
