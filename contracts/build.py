"""Build the methodology snapshot live from ``scoring``: the one function the site,
the committed snapshots and the drift check all start from."""

from __future__ import annotations

import inspect
import itertools
from collections.abc import Callable, Mapping
from decimal import Decimal
from enum import Enum
from fractions import Fraction
from typing import Any

import scoring.constants as C  # noqa: N812 - short alias for many constants
from contracts.model import (
    ConstantEntry,
    Evaluation,
    ExactValue,
    ExampleEntry,
    FormulaEntry,
    Location,
    Methodology,
)
from contracts.scoreboard import build_scoreboard
from contracts.source import REPO_ROOT, locate, repo_relative
from scoring import (
    FORMULAS,
    Anchor,
    Axis,
    aggregate_pass_hat_k,
    combine,
    composite_score,
    correctness_axis,
    cost_axis,
    cost_score,
    determinism,
    latency_axis,
    latency_score,
    outcome_consistency,
    pass_hat_k,
    profile,
    recoverable_with_floor,
    robustness_axis,
    success_rate,
    tool_efficiency_axis,
)
from scoring.examples import EXAMPLES
from scoring.numeric import number_text

__all__ = ["REPO_ROOT", "build_snapshot", "exact_value", "locate", "to_json_value"]


def exact_value(value: Fraction) -> ExactValue:
    """An exact rational as a terminating decimal when it is one, else ``p/q`` (the data
    form of :func:`scoring.numeric.number_text`: no grouping).

    >>> exact_value(Fraction(1, 8)).exact, exact_value(Fraction(2, 3)).exact
    ('0.125', '2/3')
    """
    return ExactValue(exact=number_text(value), approx=float(value))


def to_json_value(value: Any) -> Any:
    """A constant, input or result as JSON-ready data (exact where it matters).

    ``Decimal`` becomes an int when integral, else its float (constants are short
    decimals, so the float's repr is the decimal written); ``Fraction`` becomes an
    :class:`ExactValue` dict; enums their value; tuples and mappings recurse.
    """
    if isinstance(value, bool) or value is None or isinstance(value, str | int):
        return value.value if isinstance(value, Enum) else value
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, Fraction):
        return exact_value(value).model_dump()
    if isinstance(value, float):
        return value
    if isinstance(value, Anchor):
        return {"x": to_json_value(value.x), "score": to_json_value(value.score)}
    if isinstance(value, Mapping):
        return {str(to_json_value(k)): to_json_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_json_value(item) for item in value]
    raise TypeError(f"no JSON form for {type(value).__name__}")


def constant_location(python_name: str) -> Location:
    """Where a constant of ``scoring.constants`` is defined."""
    return Location(file=repo_relative(C.__file__), symbol=python_name)


def formula_location(function: Callable[..., object]) -> Location:
    """Where a formula's function is defined."""
    return Location(
        file=repo_relative(inspect.getsourcefile(function)), symbol=function.__qualname__
    )


def _constants() -> list[ConstantEntry]:
    return [
        ConstantEntry(
            name=info.meta.name,
            python_name=info.python_name,
            value=to_json_value(info.value),
            unit=info.meta.unit,
            description=info.meta.description,
            defined_in=constant_location(info.python_name),
        )
        for info in C.constants()
    ]


def _formulas() -> list[FormulaEntry]:
    return [
        FormulaEntry(
            name=f.name,
            title=f.title,
            latex=f.latex,
            function=f.qualname,
            defined_in=formula_location(f.function),
        )
        for f in FORMULAS.values()
    ]


def _curve_points(anchors: tuple[Anchor, ...]) -> list[Decimal]:
    """Each anchor, each halfway point, and one point beyond each end."""
    xs = [a.x for a in anchors]
    points = [xs[0] / 2]
    for left, right in itertools.pairwise(xs):
        points += [left, (left + right) / 2]
    points += [xs[-1], xs[-1] * 2]
    return points


def _eval(name: str, formula: str, function: Callable[..., Any], **inputs: Any) -> Evaluation:
    return Evaluation(
        name=name,
        formula=formula,
        inputs={k: to_json_value(v) for k, v in inputs.items()},
        result=to_json_value(function(**inputs)),
    )


def golden_evaluations() -> list[Evaluation]:
    """Every formula computed by the live code at its anchors, edges and halfway points."""
    golden: list[Evaluation] = []
    for x in _curve_points(C.LATENCY_ANCHORS_MS):
        golden.append(
            _eval(
                f"composite.latency_score@{x}",
                "composite.latency_score",
                latency_score,
                mean_latency_ms=x,
            )
        )
    for x in _curve_points(C.COST_ANCHORS_USD):
        golden.append(
            _eval(f"composite.cost_score@{x}", "composite.cost_score", cost_score, mean_cost_usd=x)
        )
    gate = C.CONSISTENCY_MIN_RUNS
    for runs in (gate - 1, gate):
        for p in (Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(1)):
            golden.append(
                _eval(
                    f"composite.outcome_consistency@p={p},n={runs}",
                    "composite.outcome_consistency",
                    outcome_consistency,
                    p=p,
                    completed_runs=runs,
                )
            )
    golden.append(
        _eval(
            "composite.success_rate@3/4",
            "composite.success_rate",
            success_rate,
            successes=3,
            completed_runs=4,
        )
    )
    for p, consistency, latency, cost in (
        (Fraction(3, 4), Fraction(1, 4), Fraction(88), Fraction(65)),
        (Fraction(1), Fraction(1), Fraction(100), Fraction(100)),
        (Fraction(0), Fraction(1), Fraction(100), Fraction(100)),
    ):
        golden.append(
            _eval(
                f"composite.score@p={p},cons={consistency},lat={latency},cost={cost}",
                "composite.score",
                composite_score,
                p=p,
                consistency=consistency,
                latency=latency,
                cost=cost,
            )
        )
    golden += [
        _eval(
            "radar.correctness@3/4",
            "radar.correctness",
            correctness_axis,
            passes=3,
            known_outcomes=4,
        ),
        _eval(
            "radar.correctness@none",
            "radar.correctness",
            correctness_axis,
            passes=0,
            known_outcomes=0,
        ),
    ]
    full = C.RADAR_LATENCY_FULL_MS
    zero_at = full + C.SCORE_SCALE / C.RADAR_LATENCY_POINTS_PER_STEP * C.RADAR_LATENCY_STEP_MS
    min_runs = C.RADAR_LATENCY_MIN_RUNS
    for ms in (
        full / 2,
        full,
        full + C.RADAR_LATENCY_STEP_MS,
        (full + zero_at) / 2,
        zero_at,
        zero_at * 2,
    ):
        golden.append(
            _eval(
                f"radar.latency@{ms}",
                "radar.latency",
                latency_axis,
                median_latency_ms=ms,
                runs_with_latency=min_runs,
            )
        )
    golden.append(
        _eval(
            f"radar.latency@hidden,n={min_runs - 1}",
            "radar.latency",
            latency_axis,
            median_latency_ms=full,
            runs_with_latency=min_runs - 1,
        )
    )
    lo, hi = C.RADAR_COST_FULL_USD, C.RADAR_COST_ZERO_USD
    for usd in (lo / 2, lo, (lo + hi) / 2, hi, hi * 2):
        golden.append(_eval(f"radar.cost@{usd}", "radar.cost", cost_axis, median_cost_usd=usd))
    free = C.RADAR_STEPS_FREE
    for steps in (0, free, free + 1, free + Fraction(1, 2), free + 5, free + 20):
        golden.append(
            _eval(
                f"radar.tool_efficiency@{steps}",
                "radar.tool_efficiency",
                tool_efficiency_axis,
                median_steps=steps,
            )
        )
    for q in (Fraction(0), Fraction(1, 4), Fraction(1, 2), Fraction(3, 4), Fraction(1)):
        golden.append(_eval(f"radar.determinism@{q}", "radar.determinism", determinism, q=q))
    golden.append(
        _eval(
            "radar.robustness@sample",
            "radar.robustness",
            robustness_axis,
            tasks=((2, 2), (1, 2), (3, 4), (1, 1)),
        )
    )
    axes = {
        Axis.CORRECTNESS: Fraction(80),
        Axis.LATENCY: None,
        Axis.COST: Fraction(40),
        Axis.TOOL_EFFICIENCY: Fraction(100),
        Axis.ROBUSTNESS: Fraction(25),
    }
    golden.append(_eval("radar.profile@one-missing", "radar.profile", profile, axes=axes))
    for n, c in ((5, 5), (5, 4), (5, 3), (5, 1), (2, 2)):
        for k in C.PASS_K_LEVELS:
            golden.append(
                _eval(
                    f"repeatability.pass_hat_k@n={n},c={c},k={k}",
                    "repeatability.pass_hat_k",
                    pass_hat_k,
                    n=n,
                    c=c,
                    k=k,
                )
            )
    for k in C.PASS_K_LEVELS:
        golden.append(
            _eval(
                f"repeatability.aggregate@k={k}",
                "repeatability.aggregate",
                aggregate_pass_hat_k,
                tasks=((5, 5), (5, 3), (4, 2), (2, 2)),
                k=k,
            )
        )
    for raw in (Fraction(0), Fraction(1, 2), Fraction(1)):
        golden.append(
            _eval(
                f"outcome.recoverable_floor@{raw}",
                "outcome.recoverable_floor",
                recoverable_with_floor,
                raw=raw,
            )
        )
    # Not `c`: the pass^k loop above binds c to a success count (an int).
    for correctness, rec_v in (
        (Fraction(1), Fraction(16, 25)),
        (Fraction(16, 25), Fraction(1)),
        (Fraction(1, 4), Fraction(1)),
    ):
        golden.append(
            _eval(
                f"outcome.score@c={correctness},rec_v={rec_v}",
                "outcome.score",
                combine,
                c=correctness,
                rec_v=rec_v,
            )
        )
    return golden


def _examples() -> list[ExampleEntry]:
    return [
        ExampleEntry(
            name=example.name,
            title=example.title,
            inputs=to_json_value(dict(example.inputs)),
            result=to_json_value(example.result()),
        )
        for example in EXAMPLES
    ]


def build_snapshot() -> Methodology:
    """The methodology as the live code defines it now, with the scoreboard of the
    reference corpus (``contracts/corpus/``) under it."""
    return Methodology(
        methodology_version=C.METHODOLOGY_VERSION,
        zero_success_policy=C.ZERO_SUCCESS_POLICY_ID,
        outcome_score_version=C.OUTCOME_SCORE_VERSION,
        constants=_constants(),
        formulas=_formulas(),
        golden=golden_evaluations(),
        examples=_examples(),
        scoreboard=build_scoreboard(),
    )
