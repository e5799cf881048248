"""The paired comparison of 1.2.0 (docs/uncertainty.md, "Is one agent really ahead of
another?") against the naive reference (``interval_reference.compare_composites`` /
``compare_success_rates``: runs listed, the 6 × 6 clustered covariance of the six means built
run by run, q from mpmath's incomplete beta) on random pairs of agents with correlated task
difficulty; and breaks of the code that the check must catch."""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import interval_reference as ref
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from scoring.comparisons import paired
from scoring.constants import COST_ANCHORS_USD, INTERVAL_MIN_TASKS, LATENCY_ANCHORS_MS
from scoring.formulas.curves import along
from scoring.intervals import quantiles

SOME = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

Run = dict[str, Any]


#: The curves' anchors (and their last), where a task's runs sometimes sit.
_AT_MS = [float(a.x) for a in LATENCY_ANCHORS_MS]
_AT_USD = [float(a.x) for a in COST_ANCHORS_USD]
_LAST_MS, _LAST_USD = _AT_MS[-1], _AT_USD[-1]


def random_pair(rng: random.Random) -> tuple[list[Run], list[Run]]:
    """Two agents' completed runs. Each task has a difficulty both agents share (so their
    outcomes correlate), each agent its own skill; some tasks belong to one agent only;
    latencies and costs sometimes sit on an anchor or beyond the last one; an agent may never
    succeed (the zero-success floor on the shared tasks) or always succeed."""
    tasks = rng.randint(8, 24)
    modes = [rng.choice(["mixed", "mixed", "mixed", "never", "always"]) for _ in range(2)]
    skills = [rng.uniform(-1.5, 1.5) for _ in range(2)]
    agents: list[list[Run]] = [[], []]
    for t in range(tasks):
        difficulty = rng.gauss(0, 1.5)
        owners = rng.choices([(0, 1), (0,), (1,)], [8, 1, 1])[0]
        for a in owners:
            rate = {"never": 0.0, "always": 1.0}.get(
                modes[a], 1 / (1 + math.exp(difficulty - skills[a]))
            )
            level_ms = rng.choice([*_AT_MS, rng.uniform(0, _LAST_MS * 1.2)])
            level_usd = rng.choice([*_AT_USD, rng.uniform(0, _LAST_USD * 1.5)])
            for _ in range(rng.randint(1, 6)):
                exact = rng.random() < 0.3
                agents[a].append(
                    {
                        "task_id": f"task-{t}",
                        "success": rng.random() < rate,
                        "latency_ms": level_ms
                        if exact
                        else round(level_ms * rng.uniform(0.7, 1.3), 1),
                        "cost_usd": level_usd
                        if exact
                        else round(level_usd * rng.uniform(0.7, 1.3), 6),
                    }
                )
    return agents[0], agents[1]


def cohort(runs: list[Run]) -> dict[str, tuple[int, int, Fraction, Fraction]]:
    """The code's input: per task (runs, successes, Σ latency_ms, Σ cost_usd), exact."""
    found: dict[str, list[Any]] = {}
    for r in runs:
        row = found.setdefault(r["task_id"], [0, 0, Fraction(0), Fraction(0)])
        row[0] += 1
        row[1] += int(r["success"] is True)
        row[2] += ref.written(r["latency_ms"])
        row[3] += ref.written(r["cost_usd"])
    return {task: (n, c, lat, cost) for task, (n, c, lat, cost) in found.items()}


def as_reference(found: paired.Comparison) -> dict[str, Any]:
    """The code's comparison in the reference's terms (floats for the interval's bounds)."""
    out: dict[str, Any] = {
        "shared_tasks": found.shared_tasks,
        "difference": found.difference,
        "interval": None
        if found.interval is None
        else {"low": float(found.interval.low), "high": float(found.interval.high)},
        "verdict": None if found.verdict is None else str(found.verdict),
        "reason": found.reason,
    }
    if found.interval is not None:
        out["standard_error"] = found.standard_error
        out["unpaired_standard_error"] = found.unpaired_standard_error
    return out


def _close(expected: dict[str, Any], found: dict[str, Any]) -> None:
    """Equal, the two standard errors (floats in the code) to 1e-9 relative."""
    for key in ("standard_error", "unpaired_standard_error"):
        if key in expected:
            assert found[key] == pytest.approx(expected[key], rel=1e-9, abs=1e-12), key
    strip = {"standard_error", "unpaired_standard_error"}
    assert {k: v for k, v in found.items() if k not in strip} == {
        k: v for k, v in expected.items() if k not in strip
    }


def check_pair(a: list[Run], b: list[Run], *, floor_stops_gradient: bool = False) -> None:
    """Both comparisons, both ways round, equal the reference's (which reads the floor as the
    page's text does: 1.1.0's gradient, no rule of its own; see ``test_floored_…``)."""
    for x, y in ((a, b), (b, a)):
        _close(
            ref.compare_composites(x, y, floor_stops_gradient=floor_stops_gradient),
            as_reference(paired.compare_composites(cohort(x), cohort(y))),
        )
        _close(
            ref.compare_success_rates(x, y),
            as_reference(paired.compare_success_rates(cohort(x), cohort(y))),
        )


@SOME
@given(seed=st.integers(0, 2**32))
def test_paired_comparisons_equal_the_naive_reference(seed: int) -> None:
    check_pair(*random_pair(random.Random(seed)))


def _floored_pair() -> tuple[list[Run], list[Run]]:
    """A never succeeds on 10 tasks of 3 runs whose mean latency and cost vary by task (so
    Σ_ℓℓ, Σ_uu > 0 and the curves slope there: placed along the second slope of each curve,
    with 1.0.0's anchors 2500 + 300·t + 100·agent ms and $0.02 + 0.004·t); B succeeds on two
    runs of three."""

    def runs(agent: int) -> list[Run]:
        latency = (Fraction(500 + 300 * t + 100 * agent, 3000) for t in range(10))
        at_ms = [float(along(LATENCY_ANCHORS_MS, share, 1)) for share in latency]
        at_usd = [
            float(along(COST_ANCHORS_USD, Fraction(1, 4) + Fraction(t, 10), 1)) for t in range(10)
        ]
        return [
            {
                "task_id": f"t{t}",
                "success": agent == 1 and j < 2,
                "latency_ms": at_ms[t],
                "cost_usd": round(at_usd[t], 6),
            }
            for t in range(10)
            for j in range(3)
        ]

    return runs(0), runs(1)


def test_floored_agent_readings_differ_and_the_code_takes_the_texts() -> None:
    """The two readings of the floor differ on this pair (so the check below can fail), and
    the code is the page's text: A keeps its latency and cost entries."""
    a, b = _floored_pair()
    assert ref.floored_on_shared(a, b)
    text, zeroed = (
        ref.compare_composites(a, b, floor_stops_gradient=flag) for flag in (False, True)
    )
    assert text["difference"] == zeroed["difference"]
    # A's latency and cost co-move with B's task by task, so keeping A's entries changes
    # Var(d) (here it cancels part of B's)
    assert abs(text["standard_error"] - zeroed["standard_error"]) > 0.1
    assert text["interval"] != zeroed["interval"]
    check_pair(a, b)
    with pytest.raises(AssertionError):
        check_pair(a, b, floor_stops_gradient=True)


def _fixed_pairs() -> list[tuple[list[Run], list[Run]]]:
    """Fixed pairs with at least the minimum of shared tasks and both verdicts in reach."""
    pairs = []
    for seed in range(200):
        a, b = random_pair(random.Random(seed))
        if ref.compare_composites(a, b)["interval"] is not None:
            pairs.append((a, b))
        if len(pairs) == 6:
            return pairs
    raise AssertionError("no fixed pairs with an interval")


FIXED_PAIRS = _fixed_pairs()


def test_the_fixed_pairs_exercise_the_comparison() -> None:
    """The break tests below need pairs with an interval, and a verdict other than noise."""
    verdicts = {ref.compare_composites(a, b)["verdict"] for a, b in FIXED_PAIRS}
    verdicts |= {ref.compare_success_rates(a, b)["verdict"] for a, b in FIXED_PAIRS}
    assert verdicts - {"within the noise"}
    for a, b in FIXED_PAIRS:
        check_pair(a, b)


@pytest.mark.parametrize("kept", [0, 1, INTERVAL_MIN_TASKS - 1])
def test_the_reference_needs_the_minimum_of_shared_tasks(kept: int) -> None:
    a, b = FIXED_PAIRS[0]
    shared = sorted({r["task_id"] for r in a} & {r["task_id"] for r in b})
    keep = set(shared[:kept])
    a_few = [r for r in a if r["task_id"] in keep or r["task_id"] not in shared]
    found = ref.compare_composites(a_few, b)
    assert (found["interval"], found["shared_tasks"]) == (None, kept)
    assert found["reason"] == f"fewer than {INTERVAL_MIN_TASKS} shared tasks ({kept})"
    check_pair(a_few, b)


def test_the_reference_paired_variance_by_hand() -> None:
    """Ten shared tasks of 2 runs, A passes both runs of tasks 0–4, B task 0–2 and 5–6:
    d = 0.5 − 0.5 = 0; per task the residual of p_A − p_B is (2·(a_t − ½) − 2·(b_t − ½))/20,
    Var(d) = 10/9 · Σ_t ((a_t − b_t)/10)² = 10/9 · 4/100."""

    def runs(passes: set[int]) -> list[Run]:
        return [
            {"task_id": f"t{t}", "success": t in passes, "latency_ms": 1000, "cost_usd": 0.01}
            for t in range(10)
            for _ in range(2)
        ]

    found = ref.compare_success_rates(runs({0, 1, 2, 3, 4}), runs({0, 1, 2, 5, 6}))
    assert found["difference"] == 0
    assert found["standard_error"] == pytest.approx(math.sqrt(10 / 9 * 4 / 100), rel=1e-12)


# --- each break is caught -------------------------------------------------------------------


def _unpaired(a, b):  # type: ignore[no-untyped-def]
    """Σ_AB without its cross blocks (wrong: the agents treated as independent)."""
    sigma = [list(row) for row in ORIGINAL_COVARIANCE(a, b)]
    for j in range(6):
        for k in range(6):
            if (j < 3) != (k < 3):
                sigma[j][k] = Fraction(0)
    return tuple(tuple(row) for row in sigma)


def _normal_quantile(probability, degrees_of_freedom):  # type: ignore[no-untyped-def]
    """z in place of Student's t (wrong: ignores T_AB − 1)."""
    return ORIGINAL_T(probability, 10**9)


ORIGINAL_COVARIANCE = paired.paired_covariance
ORIGINAL_T = quantiles.t_quantile


def _check_all() -> None:
    for a, b in FIXED_PAIRS:
        check_pair(a, b)


@pytest.mark.parametrize(
    ("module", "name", "replacement"),
    [(paired, "paired_covariance", _unpaired), (quantiles, "t_quantile", _normal_quantile)],
    ids=["covariance", "t"],
)
def test_the_paired_check_fails_on_a_broken_implementation(
    monkeypatch: pytest.MonkeyPatch, module: object, name: str, replacement: Callable[..., Any]
) -> None:
    _check_all()  # the real code passes
    monkeypatch.setattr(module, name, replacement)
    with pytest.raises(AssertionError):
        _check_all()
