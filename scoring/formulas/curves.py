"""The piecewise-linear curves of the headline composite."""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from decimal import Decimal
from fractions import Fraction

import scoring.constants as C  # noqa: N812 - the anchors are read when a score is computed
from scoring.constants import COST_ANCHORS_USD, LATENCY_ANCHORS_MS, Anchor
from scoring.numeric import Number, exact, number_text
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


# --- Where a curve slopes: golden points and worked examples are placed there -----------------


def sloped_segments(anchors: Sequence[Anchor]) -> list[tuple[Anchor, Anchor]]:
    """The segments ``(left, right)`` of a curve whose two anchors score differently, in
    order: where the score moves with ``x``.

    >>> from decimal import Decimal as D
    >>> flat = [Anchor(D(1), D(100)), Anchor(D(2), D(100)), Anchor(D(4), D(0))]
    >>> [(left.x, right.x) for left, right in sloped_segments(flat)]
    [(Decimal('2'), Decimal('4'))]
    """
    return [(a, b) for a, b in itertools.pairwise(anchors) if a.score != b.score]


def along(anchors: Sequence[Anchor], fraction: Number | str, segment: int = 0) -> Fraction:
    """The ``x`` that lies ``fraction`` of the way along the ``segment``-th sloped segment
    of the curve (:func:`sloped_segments`, 0 the first, -1 the last), exactly: a point
    placed relative to the anchors, so that it stays on a slope when they move.

    >>> from decimal import Decimal as D
    >>> curve = [Anchor(D(500), D(100)), Anchor(D(2000), D(80)), Anchor(D(5000), D(50))]
    >>> along(curve, "0.5"), along(curve, Fraction(1, 3), 1), along(curve, 1, -1)
    (Fraction(1250, 1), Fraction(3000, 1), Fraction(5000, 1))
    """
    segments = sloped_segments(anchors)
    if not segments:
        raise ScoringError("the curve has no sloped segment")
    left, right = segments[segment]
    share = exact(Decimal(fraction)) if isinstance(fraction, str) else exact(fraction)
    return exact(left.x) + share * (exact(right.x) - exact(left.x))


def is_flat_at(x: Number, anchors: Sequence[Anchor]) -> bool:
    """Whether the curve is flat around ``x``: outside every sloped segment (beyond the
    first or the last anchor, or inside a segment whose two scores are equal). An anchor
    that closes or opens a sloped segment is not flat: the score moves on one side.

    >>> from decimal import Decimal as D
    >>> curve = [Anchor(D(500), D(100)), Anchor(D(2000), D(80))]
    >>> [is_flat_at(x, curve) for x in (250, 500, 1250, 2000, 4000)]
    [True, False, False, False, True]
    """
    value = exact(x)
    return not any(
        exact(left.x) <= value <= exact(right.x) for left, right in sloped_segments(anchors)
    )


#: Where on each sloped segment a curve's reading formulas have golden points.
SLOPE_SHARES = ("0.25", "0.5", "0.75")


def slope_points(anchors: Sequence[Anchor]) -> list[Fraction]:
    """The golden abscissae of a formula that reads a curve: a quarter, half and three
    quarters of the way along each sloped segment (never where the curve is flat).

    >>> from decimal import Decimal as D
    >>> slope_points([Anchor(D(500), D(100)), Anchor(D(2000), D(80))])
    [Fraction(875, 1), Fraction(1250, 1), Fraction(1625, 1)]
    """
    count = len(sloped_segments(anchors))
    return [along(anchors, share, i) for i in range(count) for share in SLOPE_SHARES]


def as_written(value: Fraction) -> int | Fraction:
    """A placed value as a golden point's input writes it: an integer where it is one.

    >>> as_written(Fraction(4000)), as_written(Fraction(1, 40))
    (4000, Fraction(1, 40))
    """
    return value.numerator if value.denominator == 1 else value


def written(value: Fraction) -> str:
    """A placed value as a worked example's input writes it: a decimal numeral. Anchors are
    decimals, so a point placed at a decimal fraction of a segment is one.

    >>> written(Fraction(11, 8)), written(Fraction(1400))
    ('1.375', '1400')
    """
    text = number_text(value)
    if "/" in text:
        raise ScoringError(f"{text} has no decimal numeral; place it at a decimal fraction")
    return text


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
    ``latency = f_latency(mean latency_ms)``; golden on the curve's slopes
    (:func:`slope_points`: its flat ends are golden points of the curve itself)."""
    curve = rf"f_{{\mathrm{{{part}}}}}"
    average = r"\overline{\mathrm{" + mean.removeprefix("mean_").replace("_", r"\_") + "}}"
    return FormulaParts(
        title=f"{part.capitalize()} score",
        latex=rf"\mathrm{{{part}}} = {curve}\!\left({average}\right)",
        symbols={
            curve: uses("curve.piecewise_linear", "x", anchors=const(anchors_name)),
            average: arg(mean),
        },
        golden=[point(number_text(x), **{mean: as_written(x)}) for x in slope_points(anchors)],
    )


@formula(
    "composite.latency_score",
    **_score_on_curve("latency", "mean_latency_ms", "LATENCY_ANCHORS_MS", LATENCY_ANCHORS_MS),
)
def latency_score(mean_latency_ms: Number) -> Fraction:
    """Latency score (0–100) of a mean latency in ms, on ``LATENCY_ANCHORS_MS``.

    Returns a value in [0, 100]; 100 is best.

    It is the piecewise-linear curve on those anchors: halfway along a sloped segment it
    scores halfway between the segment's two anchors.

    >>> (left, right), *_ = sloped_segments(C.LATENCY_ANCHORS_MS)
    >>> latency_score(along(C.LATENCY_ANCHORS_MS, "0.5")) == (left.score + right.score) / 2
    True
    """
    return piecewise_linear(mean_latency_ms, C.LATENCY_ANCHORS_MS)


@formula(
    "composite.cost_score",
    **_score_on_curve("cost", "mean_cost_usd", "COST_ANCHORS_USD", COST_ANCHORS_USD),
)
def cost_score(mean_cost_usd: Number) -> Fraction:
    """Cost score (0–100) of a mean cost per run in USD, on ``COST_ANCHORS_USD``.

    Returns a value in [0, 100]; 100 is best.

    Beyond the last anchor it scores what the last anchor scores:

    >>> last = C.COST_ANCHORS_USD[-1]
    >>> cost_score(last.x * 2) == last.score
    True
    """
    return piecewise_linear(mean_cost_usd, C.COST_ANCHORS_USD)
