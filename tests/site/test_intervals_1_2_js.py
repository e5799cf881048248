"""The browser's 1.2.0 intervals equal Python's: ``window.Methodology`` (methodology-
uncertainty.js, methodology-intervals.js, methodology-paired.js) against
``scoring.intervals.rates``, ``scoring.intervals.moves`` and ``scoring.comparisons.paired``.

In headless Chromium, on the page "How sure is a score?" of a ``file://`` copy of the built
site, loaded once for the module: every case runs in one call (seeded random cases by the
hundred, the published check values, the edges), and each result must equal Python's —
the published intervals digit for digit, the verdicts and reasons word for word, the exact
differences as fractions, the standard errors as the same double; the quantiles and the
bounds before rounding to 1e-12 relative. The paired calculator is then driven on that
page: its results are Python's, and each bad input is refused naming the line and the cell
in a reader's words. The parity is shown to fail on copies spoiled on purpose.
"""

from __future__ import annotations

import importlib.util
import json
import math
import random
from collections.abc import Mapping
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from calculator_support import (
    INTERVALS_SCRIPT,
    PAIRED_SCRIPT,
    UNCERTAINTY_SCRIPT,
    Case,
    Mutation,
    Spoil,
    each_mutation,
    report,
    same,
    site as site,  # the module's file:// copy of the site
    spoil as spoil,
)
from chromium_driver import console_errors, wait_for
from published_curves import INTERVALS
from support import ROOT
from test_quantiles_js import quantile_cases_of as quantile_cases

from contracts.store import load_snapshot as published_snapshot
from scoring.comparisons.paired import Comparison, compare_composites, compare_success_rates
from scoring.constants import COST_ANCHORS_USD, INTERVAL_MIN_TASKS, LATENCY_ANCHORS_MS
from scoring.intervals import moves
from scoring.intervals.quantiles import beta_quantile, t_quantile
from scoring.intervals.rates import (
    outwards_with_margin,
    pass_hat_k_moments,
    rate_bounds,
    rate_interval,
    success_rate_interval,
    t_factor,
)
from scoring.registry import ScoringError

pytestmark = pytest.mark.slow

PAGE = "uncertainty.html"
SEED = 20261202
RELATIVE = 1e-12
#: Below this many runs the success interval of independent runs is checked against the
#: very expression that defines it (one-run tasks); above, against its closed form, which
#: test_the_closed_form_is_the_expression holds equal to it (n tasks cost Python seconds).
EXPRESSION_MAX_RUNS = 3000


def _load_check_values() -> Any:
    """The published check inputs, from the scoring tests (one copy of them)."""
    path = ROOT / "tests" / "scoring" / "test_intervals_1_2.py"
    spec = importlib.util.spec_from_file_location("intervals_1_2_checks", path)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CHECKS = _load_check_values()

# --- Python's side ---------------------------------------------------------------------------


def _interval(value: Any) -> dict[str, float] | None:
    return None if value is None else {"low": float(value.low), "high": float(value.high)}


def _refused(call: Any) -> Any:
    try:
        return call()
    except ScoringError as error:
        return {"error": str(error)}


def py_success_interval(runs: int, successes: int) -> Any:
    """1.2.0's success interval of independent runs: the rate interval of ``runs`` one-run
    tasks (``None`` below the task minimum)."""
    if runs < INTERVAL_MIN_TASKS:
        return None
    if runs > EXPRESSION_MAX_RUNS:
        return _interval(_closed_form(runs, successes))
    return _interval(success_rate_interval([(1, 1)] * successes + [(1, 0)] * (runs - successes)))


def _closed_form(runs: int, successes: int) -> Any:
    m = Fraction(successes, runs)
    return rate_interval(m, m * (1 - m) / (runs - 1), runs, runs)


def _comparison(result: Comparison) -> dict[str, Any]:
    return {
        "shared_tasks": result.shared_tasks,
        "difference": None if result.difference is None else str(result.difference),
        "interval": _interval(result.interval),
        "verdict": None if result.verdict is None else str(result.verdict),
        "reason": result.reason,
        "standard_error": result.standard_error,
        "unpaired_standard_error": result.unpaired_standard_error,
    }


def _exact_tasks(tasks: Mapping[str, list[Any]]) -> dict[str, tuple[int, int, Fraction, Fraction]]:
    return {name: (t[0], t[1], Fraction(t[2]), Fraction(t[3])) for name, t in tasks.items()}


def python_result(case: Case) -> Any:
    fn, args = case["fn"], case["args"]
    if fn == "Quantiles.betaQuantile":
        return beta_quantile(*args)
    if fn == "Quantiles.tQuantile":
        return t_quantile(*args)
    if fn == "tFactor":
        return t_factor(args[0])
    if fn == "rateBounds":
        m, v, tasks, runs, k = args
        bounds = rate_bounds(Fraction(m), Fraction(v), tasks, runs, k)
        return {
            "low": bounds.low,
            "high": bounds.high,
            "n_eff": str(bounds.n_eff),
            "q": bounds.q,
            "n_star": bounds.n_star,
        }
    if fn == "rateInterval":
        (given,) = args
        m, v = Fraction(given["m"]), Fraction(given["variance"])
        return _refused(
            lambda: _interval(rate_interval(m, v, given["tasks"], given["runs"], given["k"]))
        )
    if fn == "successRateInterval":
        return _interval(success_rate_interval([tuple(t) for t in args[0]]))
    if fn == "successInterval":
        return py_success_interval(args[0]["runs"], args[0]["successes"])
    if fn == "outwardsWithMargin":
        return _interval(outwards_with_margin(*args))
    if fn == "compositeInterval":
        tasks = [(t[0], t[1], Fraction(t[2]), Fraction(t[3])) for t in args[0]]
        result = moves.composite_moves(tasks)
        if result is None:
            return None
        return {
            "interval": _interval(result.interval),
            "score_unfloored": str(result.score_unfloored),
            "success_low": result.success_low,
            "success_high": result.success_high,
            "q": result.q,
            "moves": [list(pair) for pair in result.moves],
            "correlations": list(result.correlations),
            "low": result.low,
            "high": result.high,
        }
    if fn in ("compareComposites", "compareSuccessRates"):
        compare = compare_composites if fn == "compareComposites" else compare_success_rates
        return _comparison(compare(_exact_tasks(args[0]), _exact_tasks(args[1])))
    raise AssertionError(f"no Python function for {fn}")


#: Results compared to 1e-12 relative (floats of a numerical quantile), not exactly.
APPROXIMATE = {"Quantiles.betaQuantile", "Quantiles.tQuantile", "tFactor"}
#: n* = n_eff·(z/q)² carries twice q's relative error (the browser's t quantile is within
#: about 5e-13 of scipy's at 10^5 degrees of freedom, scipy within 1e-14 of the truth).
N_STAR_RELATIVE = 2.5 * RELATIVE
#: A bound is a rate in [0, 1], rounded at four decimals past a margin of 1e-10: it is
#: held to 1e-12 absolute. Relative error means nothing where a bound underflows (a
#: Clopper–Pearson low bound at a shape of 0.01 is 1e-200 or less: scipy returns the least
#: normal double, the browser 0) and little where the shape is small, since there the
#: quantile's relative error is its probability's divided by the shape.
BOUND_ABSOLUTE = 1e-12


def _close(got: Any, want: Any, relative: float = RELATIVE) -> bool:
    if want is None or got is None:
        return got is want
    return bool(abs(got - want) <= relative * abs(want))


def agrees(case: Case, got: Any, want: Any) -> bool:
    if case["fn"] in APPROXIMATE:
        return _close(got, want)
    if case["fn"] == "compositeInterval" and want is not None and got is not None:
        # The published interval and the exact score digit for digit; the moves are floats
        # through exp() and the quantiles (libm and the browser may differ in a last bit).
        floats = [got["success_low"], got["success_high"], got["q"], got["low"], got["high"]]
        wanted = [want["success_low"], want["success_high"], want["q"], want["low"], want["high"]]
        floats += [d for pair in got["moves"] for d in pair] + got["correlations"]
        wanted += [d for pair in want["moves"] for d in pair] + want["correlations"]
        return (
            same(got["interval"], want["interval"])
            and got["score_unfloored"] == want["score_unfloored"]
            and all(
                abs(g - w) <= BOUND_ABSOLUTE * max(1, abs(w))
                for g, w in zip(floats, wanted, strict=True)
            )
        )
    if case["fn"] == "rateBounds":
        return (
            got["n_eff"] == want["n_eff"]
            and _close(got["q"], want["q"])
            and _close(got["n_star"], want["n_star"], N_STAR_RELATIVE)
            and all(abs(got[key] - want[key]) <= BOUND_ABSOLUTE for key in ("low", "high"))
        )
    return same(got, want)


# --- the cases ---------------------------------------------------------------------------------


def _fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"


def rate_cases(rng: random.Random) -> list[Case]:
    """m and V of every kind: k = 1, 3, 5; n* from below 1 to millions; m = 0 and 1 (V = 0,
    where n_eff = T); V = 0 inside; the cap at the runs and at Σn/k."""
    cases: list[Case] = []
    for _ in range(300):
        tasks = rng.choice([2, 3, rng.randint(10, 40), rng.randint(2, 2000), 10**5])
        runs = tasks * rng.randint(1, 20)
        k = rng.choice([1, 1, 3, 5])
        denominator = rng.choice([2, 7, 100, runs, rng.randint(2, 10**6)])
        m = Fraction(rng.randint(0, denominator), denominator)
        if m in (0, 1) or rng.random() < 0.1:
            variance = Fraction(0)
        else:
            # n_eff = m(1 − m)/V from a third of a trial to beyond every cap.
            variance = m * (1 - m) / Fraction(10 ** rng.uniform(-0.5, 6.5)).limit_denominator(10**6)
        given = {"m": _fraction_text(m), "variance": _fraction_text(variance)}
        given.update(tasks=tasks, runs=runs, k=k)
        cases.append({"fn": "rateInterval", "args": [given]})
        if k == 1:
            cases.append(
                {"fn": "rateBounds", "args": [given["m"], given["variance"], tasks, runs, 1]}
            )
    # m = 0 or 1 with a spread: refused by both (no proportion of 0 or 1 has a variance).
    for m in ("0", "1"):
        given = {"m": m, "variance": "1/100", "tasks": 10, "runs": 40, "k": 1}
        cases.append({"fn": "rateInterval", "args": [given], "refused": True})
    return cases


def success_cases(rng: random.Random) -> list[Case]:
    inputs = [
        {"runs": runs, "successes": s}
        for runs in range(3 * INTERVAL_MIN_TASKS + 1)
        for s in range(runs + 1)
    ]
    for _ in range(300):
        runs = rng.choice([rng.randint(0, 200), rng.randint(0, 3000), rng.randint(0, 20000)])
        successes = rng.choice([0, runs, rng.randint(0, runs), min(runs, 1)])
        inputs.append({"runs": runs, "successes": successes})
    cases: list[Case] = [{"fn": "successInterval", "args": [i]} for i in inputs]
    for _ in range(100):
        tasks = []
        for _ in range(rng.choice([rng.randint(5, 15), rng.randint(10, 200)])):
            n = rng.randint(1, 12)
            tasks.append([n, rng.choice([0, n, rng.randint(0, n)])])
        cases.append({"fn": "successRateInterval", "args": [tasks]})
    for tasks in (CHECKS.SUCCESS_TASKS, [[4, 3], [4, 1]] * 5, [[6, 6]] * 12, [[5, 0]] * 10):
        cases.append({"fn": "successRateInterval", "args": [[list(t) for t in tasks]]})
    return cases


def margin_cases(rng: random.Random) -> list[Case]:
    """Bounds at and within a hair of a rounding boundary, where the margin decides."""
    cases: list[Case] = [
        {"fn": "outwardsWithMargin", "args": [0.25, 0.7500000000001, 2, 0, 1]},
        {"fn": "outwardsWithMargin", "args": [0.2512, 0.7488, 2, 0, 1]},
        {"fn": "outwardsWithMargin", "args": [-0.5, 1.5, 4, 0, 1]},
        {"fn": "outwardsWithMargin", "args": [-3.0, 2.0, 2, -100, 100]},
    ]
    for _ in range(200):
        places = rng.choice([2, 4])
        top = rng.choice([1, 100])
        grid = rng.randint(-(10**places) * top, 10**places * top) / 10**places
        low = grid + rng.choice([0, 1, -1]) * 10 ** rng.uniform(-13, -8)
        high = low + rng.choice([0, rng.uniform(0, 0.5)])
        bottom = rng.choice([0, -top])
        cases.append({"fn": "outwardsWithMargin", "args": [low, high, places, bottom, top]})
    return cases


def _agent_task(rng: random.Random, difficulty: float, shift: float, kind: str) -> list[Any]:
    runs = rng.randint(1, 8)
    p = min(max(difficulty + shift, 0.0), 1.0)
    successes = {"none": 0, "all": runs}.get(kind, sum(rng.random() < p for _ in range(runs)))
    latency = rng.choice([rng.randint(200, 15000), int(LATENCY_ANCHORS_MS[1].x)])
    cost = Decimal(rng.randint(0, 30000)).scaleb(-rng.choice([2, 4, 6]))
    return [runs, successes, str(runs * latency), str(cost * runs)]


def paired_cases(rng: random.Random) -> list[Case]:
    """Two agents on shared tasks of correlated difficulty, and tasks only one of them ran:
    fewer than the minimum shared; the floor (no success); every success; equal agents."""
    cases: list[Case] = []
    for i in range(150):
        shared = rng.choice([rng.randint(2, INTERVAL_MIN_TASKS - 1), rng.randint(10, 40), 120])
        shift = rng.choice([0.0, rng.uniform(-0.3, 0.3)])
        kinds = rng.choice([("", ""), ("none", ""), ("", "all"), ("all", "all"), ("none", "none")])
        a: dict[str, list[Any]] = {}
        b: dict[str, list[Any]] = {}
        for t in range(shared):
            difficulty = rng.random()
            a[f"task {t}"] = _agent_task(rng, difficulty, 0.0, kinds[0])
            b[f"task {t}"] = _agent_task(rng, difficulty, shift, kinds[1])
        for t in range(rng.randint(0, 3)):
            a[f"only A {t}"] = _agent_task(rng, rng.random(), 0.0, kinds[0])
            b[f"only B {t}"] = _agent_task(rng, rng.random(), 0.0, kinds[1])
        if i % 25 == 0:
            b = {name: list(task) for name, task in a.items()}  # the same agent twice
        for fn in ("compareComposites", "compareSuccessRates"):
            cases.append({"fn": fn, "args": [a, b]})
    # Every mean exactly at an anchor of the curves (a kink: the steeper side's slope).
    at = {
        f"t{t}": [4, t % 5, str(4 * int(LATENCY_ANCHORS_MS[2].x)), str(4 * COST_ANCHORS_USD[1].x)]
        for t in range(12)
    }
    other = {name: [4, 4 - task[1] % 3, task[2], task[3]] for name, task in at.items()}
    cases += [
        {"fn": fn, "args": [at, other]} for fn in ("compareComposites", "compareSuccessRates")
    ]
    return cases


def composite_cases(rng: random.Random) -> list[Case]:
    """Cohorts of every kind for the 1.2.0 composite interval: below the task minimum, no
    success (the floor), every success, rates below the consistency term's vertex, latency
    and cost at and beyond the curves' anchors, zero cost."""
    cases: list[Case] = []
    for _ in range(120):
        count = rng.choice([rng.randint(5, 12), rng.randint(10, 60), 200])
        level = rng.choice([0.0, 1.0, 0.05, 0.3, rng.random()])
        anchored = rng.random() < 0.15
        tasks = []
        for _ in range(count):
            runs = rng.randint(1, 8)
            p = min(max(level + rng.uniform(-0.2, 0.2), 0.0), 1.0) if 0 < level < 1 else level
            successes = sum(rng.random() < p for _ in range(runs))
            if anchored:
                latency, cost = int(LATENCY_ANCHORS_MS[1].x), COST_ANCHORS_USD[2].x
            else:
                latency = rng.choice([rng.randint(100, 20000), 0])
                cost = Decimal(rng.randint(0, 300000)).scaleb(-6)
            tasks.append([runs, successes, str(runs * latency), str(cost * runs)])
        cases.append({"fn": "compositeInterval", "args": [tasks]})
    check = [[t[0], t[1], str(t[2]), str(t[3])] for t in CHECKS.COMPOSITE_CHECK_TASKS]
    cases += [{"fn": "compositeInterval", "args": [tasks]} for tasks in (check,)]
    return cases


def all_cases() -> list[Case]:
    rng = random.Random(SEED)
    betas, ts = quantile_cases(SEED)
    cases: list[Case] = [{"fn": "Quantiles.betaQuantile", "args": c} for c in betas]
    cases += [{"fn": "Quantiles.tQuantile", "args": c} for c in ts]
    cases += [{"fn": "tFactor", "args": [t]} for t in (2, 3, 10, 30, 100, 1000, 10**5)]
    cases += rate_cases(rng) + success_cases(rng) + margin_cases(rng)
    return cases + paired_cases(rng) + composite_cases(rng)


RUN = """
const cases = JSON.parse(arguments[0]);
const M = window.Methodology;
if (!M || !M.compareComposites || !window.Quantiles) return JSON.stringify({missing: true});
const call = (name, args) => name.startsWith("Quantiles.")
  ? window.Quantiles[name.slice("Quantiles.".length)](...args)
  : M[name](...args);
return JSON.stringify(cases.map(c => {
  try {
    return {ok: call(c.fn, c.args)};
  } catch (e) {
    return {error: String(e && e.message)};
  }
}));
"""


def run_in_page(chromium: Any, page: Path, cases: list[Case]) -> list[dict[str, Any]]:
    chromium.get(page.as_uri())
    answer = json.loads(chromium.execute_script(RUN, json.dumps(cases)))
    assert isinstance(answer, list), f"{page.name}: the library or its data is missing"
    return answer


def problems(cases: list[Case], expected: list[Any], got: list[dict[str, Any]]) -> list[str]:
    found = []
    for case, want, answer in zip(cases, expected, got, strict=True):
        shown = f"{case['fn']}({json.dumps(case['args'])[:160]})"
        refused = isinstance(want, dict) and set(want) == {"error"}
        if refused or "error" in answer:
            if not (refused and "error" in answer):
                found.append(f"{shown}: JS {answer!r}, Python {want!r}")
        elif not agrees(case, answer["ok"], want):
            found.append(f"{shown}: JS {answer['ok']!r} != Python {want!r}")
    return found


@pytest.fixture(scope="module")
def cases() -> list[Case]:
    return all_cases()


@pytest.fixture(scope="module")
def expected(cases: list[Case]) -> list[Any]:
    return [python_result(c) for c in cases]


@pytest.fixture
def page(chromium: Any, site: Path) -> Any:
    """The session's browser on the page, loaded only when it is elsewhere (a spoiled
    copy, another page): the module's tests share one load of it."""
    uri = (site / PAGE).as_uri()
    if chromium.current_url != uri:
        chromium.get(uri)
        wait_for(chromium, "return !document.querySelector('[data-calculator=paired]').hidden")
    return chromium


# --- the parity ---------------------------------------------------------------------------------


def test_enough_cases_of_every_kind(cases: list[Case], expected: list[Any]) -> None:
    count = {fn: sum(1 for c in cases if c["fn"] == fn) for fn in {c["fn"] for c in cases}}
    assert count["rateInterval"] >= 300, count
    assert count["successInterval"] >= 300, count
    assert count["compareComposites"] >= 150, count
    assert count["compositeInterval"] >= 100, count
    assert count["outwardsWithMargin"] >= 200, count
    rates = [
        (c["args"][0], r) for c, r in zip(cases, expected, strict=True) if c["fn"] == "rateInterval"
    ]
    assert {given["k"] for given, _ in rates} == {1, 3, 5}
    assert any(given["m"] == "0/1" for given, _ in rates)
    assert any(given["m"] == "1/1" for given, _ in rates)
    stars = [r["n_star"] for c, r in zip(cases, expected, strict=True) if c["fn"] == "rateBounds"]
    assert min(stars) < 1, min(stars)
    assert max(stars) > 10**5, max(stars)
    comparisons = [r for c, r in zip(cases, expected, strict=True) if c["fn"].startswith("compare")]
    verdicts = {r["verdict"] for r in comparisons}
    assert verdicts == {"A ahead", "B ahead", "within the noise", None}, verdicts
    assert any(r["reason"] for r in comparisons)


def test_the_browser_equals_python(
    page: Any, site: Path, cases: list[Case], expected: list[Any]
) -> None:
    got = json.loads(page.execute_script(RUN, json.dumps(cases)))
    found = problems(cases, expected, got)
    assert not found, f"{len(found)} of {len(cases)} cases differ:\n{report(found)}"


def test_the_closed_form_is_the_expression() -> None:
    """The success interval above EXPRESSION_MAX_RUNS is checked against its closed form:
    equal to the defining expression at sizes on both sides of that bound."""
    for runs, successes in ((20000, 6667), (5000, 5000), (3001, 1), (12, 5)):
        tasks = [(1, 1)] * successes + [(1, 0)] * (runs - successes)
        assert _closed_form(runs, successes) == success_rate_interval(tasks)


def _call(page: Any, fn: str, *args: Any) -> Any:
    answer = json.loads(page.execute_script(RUN, json.dumps([{"fn": fn, "args": list(args)}])))
    assert "ok" in answer[0], answer
    return answer[0]["ok"]


def test_the_decisions_check_values(page: Any) -> None:
    """the check values of docs/uncertainty.md, through the browser's functions alone."""
    m, variance, tasks, runs = pass_hat_k_moments(CHECKS.PASS5_TASKS, 5)
    given = {"m": _fraction_text(m), "variance": _fraction_text(variance)}
    assert _call(page, "rateInterval", {**given, "tasks": tasks, "runs": runs, "k": 5}) == {
        "low": 0.004,
        "high": 0.0528,
    }
    success = [list(t) for t in CHECKS.SUCCESS_TASKS]
    assert _call(page, "successRateInterval", success) == {"low": 0.7496, "high": 0.972}
    n = sum(t[0] for t in CHECKS.SUCCESS_TASKS)
    p = Fraction(sum(t[1] for t in CHECKS.SUCCESS_TASKS), n)
    variance = Fraction(0)
    for t_runs, t_successes in CHECKS.SUCCESS_TASKS:
        variance += (t_successes - t_runs * p) ** 2
    variance *= Fraction(len(success), (len(success) - 1) * n * n)
    bounds = _call(page, "rateBounds", _fraction_text(p), _fraction_text(variance), 30, n, 1)
    assert round(float(Fraction(bounds["n_eff"])), 2) == 39.92
    assert round(bounds["q"], 5) == 2.04523
    assert round(bounds["n_star"], 2) == 36.66
    pass5 = _call(page, "rateBounds", given["m"], given["variance"], tasks, runs, 5)
    assert pass5["n_eff"] == "667/5"


#: The page's own library, made again from the page's data with the curves of the release
#: that published the check values (the live anchors may have moved since).
PUBLISHED_RUN = """
const [fn, args, curves] = arguments;
const data = JSON.parse(document.getElementById("methodology-data").textContent);
data.constants = data.constants.map(c => c.name in curves ? {...c, value: curves[c.name]} : c);
return JSON.stringify(window.Methodology.create(data)[fn](...args));
"""


def _call_published(page: Any, fn: str, *args: Any) -> Any:
    """``fn`` of the page's library on the anchors of the release that published the check
    values (:data:`published_curves.INTERVALS`), as that release's snapshot records them."""
    curves = {
        name: published_snapshot(INTERVALS).constant(name).value
        for name in ("composite.latency_anchors_ms", "composite.cost_anchors_usd")
    }
    return json.loads(page.execute_script(PUBLISHED_RUN, fn, list(args), curves))


def test_the_decisions_composite_check_values(page: Any) -> None:
    """The composite check agent of docs/uncertainty.md (T = 30, 193 runs, 190 successes),
    on the anchors its check values were published with."""
    tasks = [[t[0], t[1], str(t[2]), str(t[3])] for t in CHECKS.COMPOSITE_CHECK_TASKS]
    result = _call_published(page, "compositeInterval", tasks)
    assert result["interval"] == {"low": 77.75, "high": 86.17}
    assert round(float(Fraction(result["score_unfloored"])), 4) == 83.7603
    assert (round(result["success_low"], 5), round(result["success_high"], 5)) == (0.94, 0.99855)
    rounded = [[round(d, 4) for d in pair] for pair in result["moves"]]
    assert rounded == [[5.9281, 1.9626], [1.1078, 0.9431], [1.4234, 1.1335]]


def test_equal_agents_are_within_the_noise_and_pairing_narrows(page: Any) -> None:
    same_tasks = {f"t{i}": [4, 3, "4000", "0.08"] for i in range(INTERVAL_MIN_TASKS)}
    result = _call(page, "compareComposites", same_tasks, same_tasks)
    assert result["verdict"] == "within the noise"
    assert result["difference"] == "0"
    # Correlated tasks: B fails where A fails, one success fewer where A succeeds.
    rng = random.Random(SEED)
    a, b = {}, {}
    for t in range(30):
        c = rng.randint(1, 5)
        a[f"t{t}"] = [5, c, "20000", "0.1"]
        b[f"t{t}"] = [5, c - 1, "20000", "0.1"]
    narrow = _call(page, "compareSuccessRates", a, b)
    assert narrow["standard_error"] < narrow["unpaired_standard_error"] / 2, narrow
    assert narrow["verdict"] == "A ahead"


# --- the calculator -----------------------------------------------------------------------------

_SET = """
const [texts] = arguments;
const section = document.querySelector('section[data-calculator="paired"]');
const box = section.querySelector('textarea[name="tasks"]');
const shown = (node) => (node && !node.hidden ? node.textContent : null);
return texts.map(text => {
  box.value = text;
  box.dispatchEvent(new Event("input", {bubbles: true}));
  return {
    error: shown(section.querySelector(".calc-error")),
    note: shown(section.querySelector(".calc-note")),
    outs: Object.fromEntries(
      Array.from(section.querySelectorAll("[data-out]"), (n) => [n.dataset.out, n.textContent])
    ),
  };
});
"""

LABEL = "Per-task results of agents A and B"


def _lines(tasks: Mapping[str, tuple[Any, ...]]) -> str:
    return "\n".join(", ".join([name, *map(str, row)]) for name, row in tasks.items())


def _good(count: int = 12) -> dict[str, tuple[Any, ...]]:
    return {
        f"t{i}": (5, i % 6, 9000 + 37 * i, "0.2", 5, (i * 7) % 6, 8000 + 11 * i, "0.25")
        for i in range(count)
    }


def _fixed(value: Any, places: int) -> str:
    return f"{Decimal(value):.{places}f}"


def test_the_calculator_shows_pythons_comparison(page: Any) -> None:
    tasks = _good()
    tasks["only A"] = (3, 1, 100, "0", "", "", "", "")
    text = _lines(tasks)
    (got,) = page.execute_script(_SET, [text])
    assert got["error"] is None, got
    a = {n: (r[0], r[1], Fraction(r[2]), Fraction(r[3])) for n, r in tasks.items()}
    b = {n: (r[4], r[5], Fraction(r[6]), Fraction(r[7])) for n, r in tasks.items() if r[4] != ""}
    for key, compare, places in (
        ("composite", compare_composites, 2),
        ("success", compare_success_rates, 4),
    ):
        want = compare(a, b)
        assert want.interval is not None
        assert want.difference is not None
        assert got["outs"]["shared"] == str(want.shared_tasks) == "12"
        low, high = (_fixed(x, places) for x in (want.interval.low, want.interval.high))
        assert got["outs"][f"{key}_interval"] == f"[{low}, {high}]"
        assert got["outs"][f"{key}_verdict"] == str(want.verdict)
        diff = Decimal(want.difference.numerator) / want.difference.denominator
        assert math.isclose(
            float(got["outs"][f"{key}_difference"]), float(diff), abs_tol=10**-places
        )


def test_lines_pasted_from_a_spreadsheet_read_the_same(page: Any) -> None:
    """Tab-separated cells (a spreadsheet's copy), an agent's trailing cells empty, spaces
    and blank lines around: the same results as the comma-separated lines."""
    tasks = _good()
    tasks["only A"] = (3, 1, 100, "0", "", "", "", "")
    commas = _lines(tasks)
    tabs = "\n\n".join("\t".join([name, *map(str, row)]) + "  " for name, row in tasks.items())
    assert tabs.endswith("0\t\t\t\t  ")  # B's four empty cells of the last line
    by_commas, by_tabs = page.execute_script(_SET, [commas, tabs])
    assert by_commas["error"] is None, by_commas
    assert by_tabs == by_commas
    assert by_tabs["outs"]["shared"] == "12"


def test_too_few_shared_tasks_is_a_sentence_not_an_error(page: Any) -> None:
    few = _good(INTERVAL_MIN_TASKS - 1)
    (got,) = page.execute_script(_SET, [_lines(few)])
    assert got["error"] is None
    assert got["outs"]["composite_interval"] == "—"
    reason = f"fewer than {INTERVAL_MIN_TASKS} shared tasks ({INTERVAL_MIN_TASKS - 1})"
    assert got["outs"]["composite_verdict"] == f"no interval: {reason}"
    assert got["note"], got
    assert reason in got["note"], got


def _with(line: int, cell: int, text: str) -> str:
    """The good lines with one cell of one line (both counted from 1) replaced by ``text``."""
    rows = [[name, *map(str, row)] for name, row in _good().items()]
    rows[line - 1][cell - 1] = text
    return "\n".join(", ".join(row) for row in rows)


BAD_INPUTS = [
    ("empty", "", "is empty: write one line per task"),
    ("blank lines only", "\n  \n", "is empty: write one line per task"),
    ("a word for a count", _with(3, 2, "five"), "line 3, runs of A: must be a whole number >= 0"),
    ("a negative count", _with(2, 7, "-1"), "line 2, successful runs of B: must be a whole"),
    ("a fraction of a run", _with(4, 3, "2.5"), "line 4, successful runs of A: must be a whole"),
    ("no runs", _with(1, 6, "0"), "line 1, runs of B: must be at least 1"),
    ("more successes than runs", _with(5, 3, "6"), "line 5, successful runs of A: must lie"),
    ("a non-number", _with(6, 5, "cheap"), "line 6, cost sum (USD) of A: is not a number"),
    ("a negative sum", _with(7, 8, "-300"), "line 7, latency sum (ms) of B: must be a finite"),
    ("a tiny negative sum", _with(7, 9, "-1e-400"), "line 7, cost sum (USD) of B: must be a"),
    ("too large", _with(8, 4, "1e400"), "line 8, latency sum (ms) of A: is too large"),
    ("a gap", _with(9, 9, ""), "line 9, cost sum (USD) of B: is empty; leave all"),
    ("no name", _with(2, 1, ""), "line 2, task: needs a name"),
    ("a task twice", _with(3, 1, "t0"), "line 3, task t0: is already on line 1"),
    ("too few values", _lines(_good())[:-6], "line 12 has 8 values; a line needs 9"),
]


def test_bad_input_is_refused_naming_the_line_and_the_cell(page: Any) -> None:
    got = page.execute_script(_SET, [text for _, text, _ in BAD_INPUTS])
    wrong = []
    for (what, _, rule), answer in zip(BAD_INPUTS, got, strict=True):
        error = answer["error"] or ""
        if not error.startswith(f"{LABEL}: {rule}"):
            wrong.append(f"{what}: {error!r}")
        if set(answer["outs"].values()) != {"—"}:
            wrong.append(f"{what}: a result beside the error {answer['outs']}")
    assert not wrong, "\n".join(wrong)
    # And back: a good input clears the error and shows results again.
    (back,) = page.execute_script(_SET, [_lines(_good())])
    assert back["error"] is None
    assert back["outs"]["shared"] == "12"
    assert console_errors(page) == []


def test_the_calculator_starts_from_its_example(site: Path, chromium: Any) -> None:
    chromium.get((site / PAGE).as_uri())
    wait_for(chromium, "return !document.querySelector('[data-calculator=paired]').hidden")
    start = chromium.execute_script(
        "return document.querySelector('section[data-calculator=paired] textarea').value"
    )
    rows = [[cell.strip() for cell in line.split(",")] for line in start.splitlines()]
    a = {r[0]: (int(r[1]), int(r[2]), Fraction(r[3]), Fraction(r[4])) for r in rows if r[1]}
    b = {r[0]: (int(r[5]), int(r[6]), Fraction(r[7]), Fraction(r[8])) for r in rows if r[5]}
    want = compare_composites(a, b)
    verdict = chromium.execute_script(
        "return document.querySelector('[data-out=composite_verdict]').textContent"
    )
    assert want.verdict is not None
    assert verdict == str(want.verdict)
    assert want.shared_tasks == INTERVAL_MIN_TASKS < len(rows)
    assert console_errors(chromium) == []


# --- the parity can fail ------------------------------------------------------------------------

MUTATIONS = [
    Mutation(
        "q with T degrees of freedom instead of T − 1",
        UNCERTAINTY_SCRIPT,
        "return Q.tQuantile(HIGH_TAIL, tasks - 1);",
        "return Q.tQuantile(HIGH_TAIL, tasks);",
        "rateInterval(",
    ),
    Mutation(
        "the low bound rounded to nearest instead of down",
        UNCERTAINTY_SCRIPT,
        "var floor = inContext(Rational.ofDouble(low).sub(MARGIN))",
        "var floor = inContext(Rational.ofDouble(low).add(new Rational(1n, 2n * scale)))",
        "successInterval(",
    ),
    Mutation(
        "n_eff not capped at Σ n / k",
        UNCERTAINTY_SCRIPT,
        "return nEff.cmp(cap) > 0 ? cap : nEff;",
        "return nEff;",
        "rateInterval(",
    ),
    Mutation(
        "the paired covariance without its factor T²",
        PAIRED_SCRIPT,
        "return entry.mul(square);",
        "return entry;",
        "compareComposites(",
    ),
    Mutation(
        "the consistency term's vertex left out of the success moves",
        INTERVALS_SCRIPT,
        "values.push(weightedFloat(clipped, runs, latency, cost));",
        "",
        "compositeInterval(",
    ),
    Mutation(
        "the latency and cost moves symmetric",
        INTERVALS_SCRIPT,
        "weight.mul(curve(Rational.ofDouble(down)).sub(centre)).toDouble(),",
        "weight.mul(centre.sub(curve(Rational.ofDouble(up)))).toDouble(),",
        "compositeInterval(",
    ),
    Mutation(
        "B's gradient not negated",
        PAIRED_SCRIPT,
        "return g.mul(-1n);",
        "return g;",
        "compareComposites(",
    ),
]


@each_mutation(MUTATIONS)
def test_parity_fails_on_a_spoiled_copy(
    chromium: Any, spoil: Spoil, cases: list[Case], expected: list[Any], mutation: Mutation
) -> None:
    # Only the cases of the function the mutation breaks: the others would pass unchanged.
    fn = mutation.named.removesuffix("(")
    kept = [(c, want) for c, want in zip(cases, expected, strict=True) if c["fn"] == fn]
    mine, wanted = [c for c, _ in kept], [want for _, want in kept]
    found = problems(mine, wanted, run_in_page(chromium, spoil(mutation) / PAGE, mine))
    assert found, f"parity did not notice {mutation.what}"
    assert any(p.startswith(mutation.named) for p in found), report(found)
