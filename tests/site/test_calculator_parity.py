"""The readers' calculators: ``window.Methodology`` equals the Python package, input for input.

In headless Chromium, from a ``file://`` copy of the built site, the four functions of
``docs/javascripts/methodology.js`` are called on the snapshot's golden evaluations, on the
worked examples and on more than a thousand seeded random inputs with their edges; each
result must equal what ``scoring`` publishes for the same input (the serializer the CLI
prints with, so the same rounding). A mismatch names the function and the input.

The parity check is shown to fail on copies of the site spoiled on purpose: one constant
changed in the inlined data, one branch changed in the script. Without the inlined data no
calculator shows and the page reads as before.

The browser is the ``chromium`` fixture (see ``chromium_driver.py`` for when it skips).
"""

from __future__ import annotations

import io
import json
import random
import re
import shutil
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from chromium_driver import DESKTOP, console_errors, save_screenshot, wait_for
from support import ROOT, built_site

from scoring.cli import run as scoring_cli
from scoring.composite import score_composite
from scoring.constants import (
    CONSISTENCY_MIN_RUNS,
    COST_ANCHORS_USD,
    FRACTION_DECIMALS,
    LATENCY_ANCHORS_MS,
    PASS_K_LEVELS,
    RECOVERABLE_FLOOR,
    SCORE_DECIMALS,
    Axis,
)
from scoring.errors import InputError
from scoring.numeric import as_written, round_half_up
from scoring.outcome import score_outcome_lines
from scoring.radar import RadarResult, profile
from scoring.repeatability import RepeatabilityResult, pass_hat_k
from scoring.report import AgentReport
from scoring.serialize import agent_to_json, outcome_to_json, pass_key

pytestmark = pytest.mark.slow

PHONE_WIDTH = 375
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
SEED = 20261201
RANDOM_CASES_PER_FUNCTION = 300
PARITY_PAGE = "composite.html"
CALCULATOR_PAGES = ("composite", "radar", "outcome", "repeatability")
SCRIPT = Path("javascripts") / "methodology.js"
DATA_ID = "methodology-data"

Case = dict[str, Any]  # {"fn": name, "args": [...]} as the browser receives it

# --- the Python side -----------------------------------------------------------------------------


def _number(value: Any) -> Fraction:
    """An input as Python reads it: a JSON number as written, or an exact string."""
    if isinstance(value, str):
        return Fraction(value)
    return as_written(value)


def _serialized(
    composite: Any = None, radar: Any = None, repeatability: Any = None
) -> dict[str, Any]:
    """One agent through the report's own serializer (the JSON the CLI prints)."""
    empty_radar = RadarResult(dict.fromkeys(Axis), None, 0, None)
    return agent_to_json(
        AgentReport(
            "calculator",
            composite or score_composite(0, 0, 0, 0),
            radar or empty_radar,
            repeatability or RepeatabilityResult({}, 0),
        )
    )


def py_composite(inputs: dict[str, Any]) -> dict[str, Any]:
    """The calculator's inputs are the parameters of ``score_composite``, by name; the two
    means are read as written (counts are whole numbers already). The intervals (1.1.0)
    need each task's sums, which counts and means do not give: they are left out here and
    have calculators of their own (``test_uncertainty_calculator.py``)."""
    exact = {k: _number(v) if k.startswith("mean_") else v for k, v in inputs.items()}
    published = _serialized(composite=score_composite(**exact))["composite"]
    return {k: v for k, v in published.items() if "interval" not in k}


def py_profile(axes: dict[str, Any], weights: dict[str, Any] | None = None) -> float | None:
    exact_axes = {Axis(a): None if v is None else _number(v) for a, v in axes.items()}
    exact_weights = None if weights is None else {Axis(a): _number(w) for a, w in weights.items()}
    value = profile(exact_axes, exact_weights)
    return _serialized(radar=RadarResult(dict.fromkeys(Axis), value, 0, None))["radar"]["profile"]


def py_pass_k(n: int, c: int, k: int) -> float:
    rep = RepeatabilityResult({k: pass_hat_k(n, c, k)}, 1)
    return _serialized(repeatability=rep)["repeatability"][pass_key(k)]


def py_outcome(line: str) -> dict[str, Any]:
    """The object ``outcome --format json`` prints for one record, or the error's fields."""
    try:
        (score,) = score_outcome_lines([line.encode("utf-8")])
    except InputError as error:
        return {"error": sorted({p.field or "" for p in error.problems})}
    return outcome_to_json(score)


PYTHON: dict[str, Callable[..., Any]] = {
    "composite": py_composite,
    "profile": py_profile,
    "passK": py_pass_k,
    "outcomeScore": py_outcome,
}

# --- inputs ------------------------------------------------------------------------------------


def _decimal(rng: random.Random, low: float, high: float, places: int) -> float:
    return round(rng.uniform(low, high), places)


def _curve_points(anchors: Any) -> list[Any]:
    """Each anchor, just either side of it, and halfway to the next."""
    xs = [a.x for a in anchors]
    points: list[Any] = [0]
    for i, x in enumerate(xs):
        points += [float(x), float(x) + 0.001, max(0.0, float(x) - 0.001)]
        if i + 1 < len(xs):
            points.append(float((x + xs[i + 1]) / 2))
    points.append(float(xs[-1]) * 3)
    return points


def composite_cases(rng: random.Random) -> list[Case]:
    gate = CONSISTENCY_MIN_RUNS
    latencies = _curve_points(LATENCY_ANCHORS_MS)
    costs = _curve_points(COST_ANCHORS_USD)
    inputs: list[dict[str, Any]] = []
    # Edges: no run; one below and at the evidence gate, every success count; every anchor.
    inputs.append({"completed_runs": 0, "successes": 0, "mean_latency_ms": 0, "mean_cost_usd": 0})
    for runs in (gate - 1, gate, gate + 1):
        for successes in range(runs + 1):
            inputs.append(
                {
                    "completed_runs": runs,
                    "successes": successes,
                    "mean_latency_ms": rng.choice(latencies),
                    "mean_cost_usd": rng.choice(costs),
                }
            )
    for latency in latencies:
        for cost in costs:
            inputs.append(
                {
                    "completed_runs": 4,
                    "successes": 3,
                    "mean_latency_ms": latency,
                    "mean_cost_usd": cost,
                }
            )
    for _ in range(RANDOM_CASES_PER_FUNCTION):
        runs = rng.choice([rng.randint(1, 12), rng.randint(1, 400)])
        successes = rng.choice([0, runs, rng.randint(0, runs)])
        inputs.append(
            {
                "completed_runs": runs,
                "successes": successes,
                "mean_latency_ms": rng.choice(
                    [rng.choice(latencies), _decimal(rng, 0, 15000, rng.randint(0, 3))]
                ),
                "mean_cost_usd": rng.choice(
                    [rng.choice(costs), _decimal(rng, 0, 0.3, rng.randint(1, 6))]
                ),
            }
        )
    return [{"fn": "composite", "args": [i]} for i in inputs]


def profile_cases(rng: random.Random) -> list[Case]:
    axes_names = [a.value for a in Axis]
    cases: list[Case] = []

    def axis_value() -> Any:
        return rng.choice(
            [None, 0, 100, rng.randint(0, 100), _decimal(rng, 0, 100, 2), _decimal(rng, 0, 100, 3)]
        )

    def weights() -> dict[str, Any] | None:
        kind = rng.random()
        if kind < 0.25:
            return None
        chosen = {a: rng.choice([0, 0, 1, 2, rng.randint(0, 10), 0.25, 1.5]) for a in axes_names}
        if kind < 0.4:  # some axes not named: they weigh 0
            for a in rng.sample(axes_names, rng.randint(1, 4)):
                del chosen[a]
        return chosen

    # Edges: every axis null; every weight zero; weight only on null axes; one axis.
    all_null = dict.fromkeys(axes_names)
    full = {a: 50 + i for i, a in enumerate(axes_names)}
    cases += [
        {"fn": "profile", "args": [all_null]},
        {"fn": "profile", "args": [all_null, dict.fromkeys(axes_names, 1)]},
        {"fn": "profile", "args": [full, dict.fromkeys(axes_names, 0)]},
        {"fn": "profile", "args": [{**full, "cost": None}, {"cost": 1}]},
        {"fn": "profile", "args": [{"correctness": 80}]},
        {"fn": "profile", "args": [full, {"correctness": 2, "cost": 1}]},
    ]
    for _ in range(RANDOM_CASES_PER_FUNCTION):
        axes = {a: axis_value() for a in axes_names}
        chosen = weights()
        cases.append({"fn": "profile", "args": [axes] if chosen is None else [axes, chosen]})
    return cases


def pass_k_cases(rng: random.Random) -> list[Case]:
    cases: list[Case] = []
    # Ties at the published decimals: 1/32 = 0.03125 and 3/32 = 0.09375 round up.
    cases += [{"fn": "passK", "args": [32, c, 1]} for c in (1, 3, 5)]
    for n in range(8):
        for c in range(n + 1):
            for k in (*PASS_K_LEVELS, n, n + 1):
                if k >= 1:
                    cases.append({"fn": "passK", "args": [n, c, k]})
    for _ in range(RANDOM_CASES_PER_FUNCTION):
        n = rng.choice([rng.randint(0, 30), rng.randint(0, 600)])
        c = rng.randint(0, n)
        k = rng.choice([*PASS_K_LEVELS, rng.randint(1, max(1, n + 2))])
        cases.append({"fn": "passK", "args": [n, c, k]})
    return cases


NAMES = (
    "order placed",
    "asked before refund",
    "it's done",
    'said "no"',
    "both ' and \"",
    "back\\slash",
    "new\nline",
    "tab\there",
    "émoji 🙂",
    "zero\u200bwidth",
)


def _entry(rng: random.Random) -> dict[str, Any]:
    role = rng.choice(["objective", "safeguard"])
    entry: dict[str, Any] = {
        "name": rng.choice(NAMES),
        "role": role,
        "status": rng.choice(["passed", "passed", "failed", "error"]),
    }
    if role == "safeguard":
        entry["severity"] = rng.choice(["recoverable", "recoverable", "catastrophic"])
    if rng.random() < 0.5:
        entry["weight"] = rng.choice(
            [1, 2, 3.0, 0.1, 0.3, 2.5, 7, 1e-3, 1e3, rng.randint(1, 9), 1e300, 5e-324, 2**70]
        )
    return entry


def _record(rng: random.Random, index: int) -> dict[str, Any]:
    record: dict[str, Any] = {"run_id": f"r{index}"}
    if rng.random() < 0.8:
        record["verification"] = [_entry(rng) for _ in range(rng.randint(0, 5))]
    if rng.random() < 0.6:
        readings = ["checklist", "outcome_validity", "recoverable"]
        record["judged"] = {
            key: rng.choice([None, 0, 1, 0.5, 0.8, 0.123, _decimal(rng, 0, 1, 4), 5e-324, 1e-200])
            for key in rng.sample(readings, rng.randint(0, 3))
        }
    if rng.random() < 0.2:
        record["efficiency"] = {"latency_sec": 12.5, "input_tokens": 1200, "total_tokens": 1500}
    return record


# Each spoils one field of a valid record: (description, change).
BAD_RECORDS: list[tuple[str, Callable[[dict[str, Any]], None]]] = [
    ("missing run_id", lambda r: r.pop("run_id")),
    ("empty run_id", lambda r: r.update(run_id="")),
    ("unknown field", lambda r: r.update(extra=1)),
    ("verification null", lambda r: r.update(verification=None)),
    (
        "weight zero",
        lambda r: r.update(
            verification=[{"name": "a", "role": "objective", "status": "passed", "weight": 0}]
        ),
    ),
    (
        "negative weight",
        lambda r: r.update(
            verification=[{"name": "a", "role": "objective", "status": "passed", "weight": -1}]
        ),
    ),
    (
        "safeguard without severity",
        lambda r: r.update(verification=[{"name": "a", "role": "safeguard", "status": "passed"}]),
    ),
    (
        "severity on an objective",
        lambda r: r.update(
            verification=[
                {"name": "a", "role": "objective", "status": "passed", "severity": "recoverable"}
            ]
        ),
    ),
    (
        "unknown status",
        lambda r: r.update(verification=[{"name": "a", "role": "objective", "status": "ok"}]),
    ),
    ("checklist above 1", lambda r: r.update(judged={"checklist": 1.5})),
    ("checklist a boolean", lambda r: r.update(judged={"checklist": True})),
    ("checklist a string", lambda r: r.update(judged={"checklist": "0.5"})),
    ("tokens written as a float", lambda r: r.update(efficiency={"input_tokens": 1.0})),
    ("negative latency", lambda r: r.update(efficiency={"latency_sec": -1})),
]


#: Values a spoiled record may carry where it should not: wrong types, out of range, empty.
ODD_VALUES: tuple[Any, ...] = (
    None, True, 0, 1, -1, 0.5, 1.5, 1.0, "", "x", "passed", "safeguard", "catastrophic",
    [], {}, [1], {"a": 1}, 1e308,
)  # fmt: skip
FIELDS = (
    "run_id", "verification", "judged", "efficiency", "name", "role", "severity", "status",
    "weight", "checklist", "outcome_validity", "recoverable", "latency_sec", "input_tokens",
    "unknown",
)  # fmt: skip


def _spoiled(rng: random.Random, record: dict[str, Any]) -> dict[str, Any]:
    """``record`` with one field, anywhere in it, dropped or given an odd value."""
    entries = record.get("verification")
    targets = [record, *(e for e in entries if isinstance(e, dict))] if entries else [record]
    targets += [record[k] for k in ("judged", "efficiency") if isinstance(record.get(k), dict)]
    target = rng.choice(targets)
    key = rng.choice([*target, *FIELDS])
    if key in target and rng.random() < 0.2:
        del target[key]
    else:
        target[key] = rng.choice(ODD_VALUES)
    return record


def _rule_records() -> list[dict[str, Any]]:
    """One record per rule of outcome score v1, in the order the rules apply."""

    def check(name: str, role: str, status: str, severity: str | None = None) -> dict[str, Any]:
        entry = {"name": name, "role": role, "status": status}
        if severity:
            entry["severity"] = severity
        return entry

    ok = check("o", "objective", "passed")
    error, failed = check("o", "objective", "error"), check("o", "objective", "failed")
    gate_failed = check("g", "safeguard", "failed", "catastrophic")
    gate_error = check("g", "safeguard", "error", "catastrophic")
    in_error, broken = (check("s", "safeguard", s, "recoverable") for s in ("error", "failed"))
    rules = [
        ("gate-failed", [ok, gate_failed], None),
        ("gate-error", [ok, gate_error], None),
        ("objective-error", [error], {"checklist": 1}),
        ("no-correctness", [], {"recoverable": 0.5}),
        ("safeguard-error", [ok, in_error], None),
        ("bypass", [], {"outcome_validity": 0.7}),
        ("checklist-first", [], {"checklist": 0.2, "outcome_validity": 0.9}),
        ("full", [ok, broken], None),
        ("judged-recoverable", [ok], {"recoverable": 0.6}),
        ("zero", [failed], {"recoverable": 1}),
    ]
    return [
        {"run_id": run_id, "verification": entries, **({"judged": judged} if judged else {})}
        for run_id, entries, judged in rules
    ]


def outcome_cases(rng: random.Random) -> list[Case]:
    records = _rule_records()
    records += [_record(rng, i) for i in range(RANDOM_CASES_PER_FUNCTION)]
    cases: list[Case] = [
        {"fn": "outcomeScore", "args": [json.dumps(r, ensure_ascii=False)]} for r in records
    ]
    for description, spoil in BAD_RECORDS:
        record = _record(rng, len(cases))
        spoil(record)
        cases.append({"fn": "outcomeScore", "args": [json.dumps(record)], "bad": description})
    # Records spoiled at random: both refuse the same ones, naming a field Python names.
    for i in range(RANDOM_CASES_PER_FUNCTION // 2):
        record = _spoiled(rng, _record(rng, i))
        cases.append({"fn": "outcomeScore", "args": [json.dumps(record)], "spoiled": True})
    # Lines that are no record at all: no field to name.
    for line in ('{"run_id": "x",', "[]", '"run"', "null"):
        cases.append({"fn": "outcomeScore", "args": [line], "bad": f"not a record: {line}"})
    # A record given as an object (as the widget gives it) reads like its JSON line.
    cases += [{"fn": "outcomeScore", "args": [r], "object": True} for r in records[:40]]
    return cases


def _exact_input(value: Any) -> Any:
    """A snapshot input (a number or ``{exact, approx}``) as the calculator takes it."""
    return value["exact"] if isinstance(value, dict) else value


def _split_weights(value: Fraction) -> tuple[int, int]:
    """Weights of a passed and a failed check whose weighted fraction is ``value``."""
    return value.numerator, value.denominator - value.numerator


def _outcome_from(c: Fraction, raw: Fraction) -> dict[str, Any]:
    """A record whose correctness is ``c`` and whose raw recoverable safety is ``raw``."""
    entries = []
    for role, value, severity in (("objective", c, None), ("safeguard", raw, "recoverable")):
        held, broken = _split_weights(value)
        for status, weight in (("passed", held), ("failed", broken)):
            if weight:
                entry = {"name": f"{role}-{status}", "role": role, "status": status}
                entry["weight"] = weight
                if severity:
                    entry["severity"] = severity
                entries.append(entry)
    return {"run_id": "golden", "verification": entries}


def golden_cases(snapshot: dict[str, Any]) -> list[tuple[Case, Callable[[Any], Any], Any]]:
    """The snapshot's golden evaluations that the four functions cover: each as a case, the
    part of the calculator's result to look at, and the published value rounded as the report
    rounds that field (a float result is published as it is)."""
    floor = Fraction(RECOVERABLE_FLOOR)
    found: list[tuple[Case, Callable[[Any], Any], Any]] = []
    for g in snapshot["golden"]:
        inputs, result, formula = g["inputs"], g["result"], g["formula"]
        exact = (
            Fraction(result["exact"]) if isinstance(result, dict) and "exact" in result else None
        )
        if formula in ("composite.latency_score", "composite.cost_score"):
            key = "mean_latency_ms" if formula.endswith("latency_score") else "mean_cost_usd"
            args = {"completed_runs": 1, "successes": 1, "mean_latency_ms": 0, "mean_cost_usd": 0}
            args[key] = _exact_input(inputs[key])
            field = formula.split(".")[1]
            case = {"fn": "composite", "args": [args]}
            found.append((case, lambda r, f=field: r[f], round_half_up(exact, SCORE_DECIMALS)))
        elif formula == "composite.outcome_consistency":
            p, runs = Fraction(_exact_input(inputs["p"])), inputs["completed_runs"]
            if (p * runs).denominator == 1:
                args = {
                    "completed_runs": runs,
                    "successes": int(p * runs),
                    "mean_latency_ms": 0,
                    "mean_cost_usd": 0,
                }
                found.append(
                    (
                        {"fn": "composite", "args": [args]},
                        lambda r: r["consistency"],
                        round_half_up(exact, FRACTION_DECIMALS),
                    )
                )
        elif formula == "radar.profile":
            axes = {a: None if v is None else _exact_input(v) for a, v in inputs["axes"].items()}
            want = None if exact is None else round_half_up(exact, SCORE_DECIMALS)
            weights = inputs.get("weights")
            args = [axes] if weights is None else [axes, weights]
            found.append(({"fn": "profile", "args": args}, lambda r: r, want))
        elif formula == "repeatability.pass_hat_k":
            args = [inputs["n"], inputs["c"], inputs["k"]]
            want = round_half_up(exact, FRACTION_DECIMALS)
            found.append(({"fn": "passK", "args": args}, lambda r: r, want))
        elif formula == "outcome.score":
            c, rec_v = Fraction(_exact_input(inputs["c"])), Fraction(_exact_input(inputs["rec_v"]))
            record = _outcome_from(c, (rec_v - floor) / (1 - floor))
            case = {"fn": "outcomeScore", "args": [json.dumps(record)]}
            found.append((case, lambda r: r["outcome_score"], result))
        elif formula == "outcome.recoverable_floor":
            record = _outcome_from(Fraction(1), Fraction(_exact_input(inputs["raw"])))
            case = {"fn": "outcomeScore", "args": [json.dumps(record)]}
            found.append((case, lambda r: r["recoverable_safety"], float(exact)))
    return found


def all_cases(snapshot: dict[str, Any]) -> list[Case]:
    rng = random.Random(SEED)
    cases = composite_cases(rng) + profile_cases(rng) + pass_k_cases(rng) + outcome_cases(rng)
    for example in snapshot["examples"]:
        inputs = example["inputs"]
        if example["name"].startswith("composite."):
            exact = {k: _exact_input(v) for k, v in inputs.items()}
            cases.append({"fn": "composite", "args": [exact]})
        elif example["name"].startswith("outcome."):
            cases.append({"fn": "outcomeScore", "args": [json.dumps(inputs["record"])]})
    return cases


# --- comparing ---------------------------------------------------------------------------------


def same(a: Any, b: Any) -> bool:
    """Equal as JSON values: numbers by value (100 == 100.0), never a boolean for a number."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _python_args(case: Case) -> list[Any]:
    if case["fn"] == "outcomeScore" and not isinstance(case["args"][0], str):
        return [json.dumps(case["args"][0], ensure_ascii=False)]
    return case["args"]


def expected_results(cases: list[Case]) -> list[Any]:
    return [PYTHON[case["fn"]](*_python_args(case)) for case in cases]


RUN_CASES = """
const cases = JSON.parse(arguments[0]);
const M = window.Methodology;
if (!M || !M.composite) return JSON.stringify({missing: true});
return JSON.stringify(cases.map(c => {
  try {
    return {ok: M[c.fn](...c.args)};
  } catch (e) {
    return {error: e && e.field !== undefined ? e.field : null, message: String(e && e.message)};
  }
}));
"""


def browser_results(chromium: Any, page: Path, cases: list[Case]) -> list[dict[str, Any]]:
    chromium.get(page.as_uri())
    answer = json.loads(chromium.execute_script(RUN_CASES, json.dumps(cases, ensure_ascii=False)))
    if isinstance(answer, dict):
        raise AssertionError(f"{page.name}: window.Methodology has no data")
    return answer


def _shown(case: Case) -> str:
    text = ", ".join(json.dumps(a, ensure_ascii=False) for a in case["args"])
    return f"{case['fn']}({text})"


def mismatches(cases: list[Case], expected: list[Any], got: list[dict[str, Any]]) -> list[str]:
    """Every case where the browser and Python disagree, naming the function and input."""
    problems = []
    for case, want, answer in zip(cases, expected, got, strict=True):
        if isinstance(want, dict) and "error" in want and set(want) == {"error"}:
            if "error" not in answer:
                problems.append(
                    f"{_shown(case)}: Python refuses it ({want['error']}), JS gave "
                    f"{answer.get('ok')!r}"
                )
            elif (answer["error"] or "") not in want["error"]:
                problems.append(
                    f"{_shown(case)}: JS names field {answer['error']!r} "
                    f"({answer['message']}), Python names {want['error']}"
                )
            continue
        if "error" in answer:
            problems.append(f"{_shown(case)}: JS threw {answer['message']!r}, Python gave {want!r}")
        elif not same(answer["ok"], want):
            problems.append(f"{_shown(case)}: JS {answer['ok']!r} != Python {want!r}")
    return problems


def report(problems: list[str], limit: int = 15) -> str:
    more = f"\n... and {len(problems) - limit} more" if len(problems) > limit else ""
    return "\n".join(problems[:limit]) + more


# --- fixtures ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A file:// copy of the built site, its own so that nothing else touches it."""
    copy = tmp_path_factory.mktemp("calculator-site") / "site"
    shutil.copytree(built_site(tmp_path_factory), copy)
    return copy


@pytest.fixture(scope="module")
def snapshot(site: Path) -> dict[str, Any]:
    return json.loads((site / "methodology.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def cases(snapshot: dict[str, Any]) -> list[Case]:
    return all_cases(snapshot)


@pytest.fixture(scope="module")
def expected(cases: list[Case]) -> list[Any]:
    return expected_results(cases)


def spoiled_copy(site: Path, dest: Path, path: Path, old: str, new: str) -> Path:
    """A copy of the site with ``old`` replaced by ``new`` once in ``path`` (relative)."""
    shutil.copytree(site, dest)
    target = dest / path
    text = target.read_text(encoding="utf-8")
    assert text.count(old) >= 1, f"{old!r} not in {path}"
    target.write_text(text.replace(old, new, 1), encoding="utf-8")
    return dest


# --- the contract ------------------------------------------------------------------------------


def test_enough_cases_across_the_four_functions(cases: list[Case]) -> None:
    by_function = {fn: sum(1 for c in cases if c["fn"] == fn) for fn in PYTHON}
    assert sum(by_function.values()) >= 1000, by_function
    assert all(count >= RANDOM_CASES_PER_FUNCTION for count in by_function.values()), by_function


def test_every_outcome_rule_is_exercised(cases: list[Case], expected: list[Any]) -> None:
    reasons = {
        re.sub(r"'.*'|c=[\d.]+|rec_v=[\d.]+", "", r["reason"])
        for c, r in zip(cases, expected, strict=True)
        if c["fn"] == "outcomeScore" and "reason" in r
    }
    sources = {r.get("correctness_source") for r in expected if isinstance(r, dict)}
    assert len(reasons) >= 6, reasons  # gate, 3 withheld, bypass, full
    assert {"objectives", "judged.checklist", "judged.outcome_validity"} <= sources
    refused = [c for c, r in zip(cases, expected, strict=True) if "bad" in c]
    assert all("error" in expected[cases.index(c)] for c in refused)


def test_calculator_equals_python(
    chromium: Any, site: Path, cases: list[Case], expected: list[Any]
) -> None:
    got = browser_results(chromium, site / PARITY_PAGE, cases)
    problems = mismatches(cases, expected, got)
    assert not problems, f"{len(problems)} of {len(cases)} inputs differ:\n{report(problems)}"


def test_calculator_equals_the_published_golden_values(
    chromium: Any, site: Path, snapshot: dict[str, Any]
) -> None:
    golden = golden_cases(snapshot)
    formulas = {c["fn"] for c, _, _ in golden}
    assert formulas == set(PYTHON), f"golden evaluations cover only {formulas}"
    got = browser_results(chromium, site / PARITY_PAGE, [c for c, _, _ in golden])
    problems = []
    for (case, pick, want), answer in zip(golden, got, strict=True):
        if "error" in answer:
            problems.append(f"{_shown(case)}: JS threw {answer['message']}")
        elif not same(pick(answer["ok"]), want):
            problems.append(f"{_shown(case)}: JS {pick(answer['ok'])!r} != published {want!r}")
    assert len(golden) >= 30, f"only {len(golden)} golden evaluations map onto the calculator"
    assert not problems, report(problems)


def test_the_cli_prints_what_the_per_record_reference_says(
    cases: list[Case], expected: list[Any]
) -> None:
    """The Python side of the parity is the CLI itself: one run over every valid record."""
    lines = [
        c["args"][0]
        for c, r in zip(cases, expected, strict=True)
        if c["fn"] == "outcomeScore" and isinstance(c["args"][0], str) and "error" not in r
    ]
    unique = {json.loads(line)["run_id"]: line for line in lines}
    stdout, stderr = io.StringIO(), io.StringIO()
    status = scoring_cli(
        ["outcome", "-", "--format", "json"],
        stdin=io.BytesIO("\n".join(unique.values()).encode("utf-8")),
        stdout=stdout,
        stderr=stderr,
    )
    assert status == 0, stderr.getvalue()
    printed = json.loads(stdout.getvalue())
    assert printed == [py_outcome(line) for line in unique.values()]


def test_inlined_data_is_the_published_snapshot(site: Path, snapshot: dict[str, Any]) -> None:
    problems = inline_data_problems(site)
    assert not problems, "\n".join(problems)


def inline_data_problems(site: Path) -> list[str]:
    """Each calculator page inlines exactly the constants of the published methodology.json."""
    published = json.loads((site / "methodology.json").read_text(encoding="utf-8"))
    want = {e["name"]: e["value"] for e in published["constants"]}
    problems = []
    pattern = re.compile(rf'<script type="application/json" id="{DATA_ID}">(.*?)</script>', re.S)
    for page in CALCULATOR_PAGES:
        found = pattern.findall((site / f"{page}.html").read_text(encoding="utf-8"))
        if len(found) != 1:
            problems.append(f"{page}.html: {len(found)} inlined data blocks, expected 1")
            continue
        data = json.loads(found[0])
        got = {e["name"]: e["value"] for e in data["constants"]}
        if got != want:
            differ = sorted(k for k in want.keys() | got.keys() if got.get(k) != want.get(k))
            problems.append(
                f"{page}.html: inlined constants differ from methodology.json: {differ}"
            )
        if data["methodology_version"] != published["methodology_version"]:
            problems.append(f"{page}.html: inlined version differs from methodology.json")
    return problems


#: Numbers methodology.js may spell out, each with why it is not a number of the methodology.
SCRIPT_NUMERALS = {
    "0": "zero",
    "1": "one",
    "2": "halves and squares (rounding, Newton's step, the formula's 2)",
    "4": "the 4 of 1 − 4p(1 − p), as scoring/composite.py writes it",
    "5": "half of ten, to find a decimal halfway point",
    "6": "Python prints a Decimal in plain notation down to an exponent of -6",
    "8": "\\U escapes have eight hex digits",
    "10": "the decimal base",
    "16": "hexadecimal",
    "52": "bits of a double's fraction",
    "53": "bits of a double's significand",
    "1000": "a safe step when scaling by a power of two",
    "1074": "a double's least exponent (subnormals)",
    "0x100": "\\x escapes cover code points below it",
    "0x10000": "\\u escapes cover code points below it",
}
NUMERAL = re.compile(r"(?<![\w.$])(0x[0-9a-fA-F]+|\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)n?(?![\w.])")


def script_numerals(source: str) -> list[str]:
    """Numerals in the script's code (comments and strings left out) not on the list."""
    code = re.sub(r"/\*.*?\*/|//[^\n]*", " ", source, flags=re.S)
    code = re.sub(r'"(?:\\.|[^"\\])*"', '""', code)
    code = re.sub(r"/(?:\\.|[^/\\\n])+/[gimsuy]*", "/x/", code)  # regex literals
    return sorted({m for m in NUMERAL.findall(code) if m not in SCRIPT_NUMERALS})


def test_no_number_of_the_methodology_is_typed_in_the_script() -> None:
    source = (ROOT / "docs" / SCRIPT).read_text(encoding="utf-8")
    assert script_numerals(source) == []


def test_the_numeral_check_finds_a_typed_constant() -> None:
    source = (ROOT / "docs" / SCRIPT).read_text(encoding="utf-8")
    typed = source.replace("var FLOOR = exact(", "var FLOOR = 0.1 || exact(", 1)
    typed = typed.replace("var GATE_RUNS = constant(", "var GATE_RUNS = 5n || constant(", 1)
    assert typed != source
    # 5 is on the list for another reason, so only the decimal is caught: the parity
    # mutations below are what catch a typed gate.
    assert script_numerals(typed) == ["0.1"]


# --- the parity test can fail ------------------------------------------------------------------

MUTATIONS = [
    (
        "a changed constant in the inlined data",
        Path(PARITY_PAGE),
        '{"name":"composite.weight.success","value":0.4}',
        '{"name":"composite.weight.success","value":0.45}',
        "composite(",
    ),
    (
        "the evidence gate compared with <= instead of <",
        SCRIPT,
        "runs < GATE_RUNS",
        "runs <= GATE_RUNS",
        "composite(",
    ),
    (
        "a catastrophic safeguard in error no longer closes the gate",
        SCRIPT,
        'e.severity === "catastrophic" && e.status !== "passed"',
        'e.severity === "catastrophic" && e.status === "failed"',
        "outcomeScore(",
    ),
    (
        "halves rounded to even instead of up",
        SCRIPT,
        "return floorDiv(2n * this.num * scale + this.den, 2n * this.den);",
        "var t = 2n * this.num * scale + this.den, b = 2n * this.den, q = floorDiv(t, b);"
        " return t % b === 0n && q % 2n === 1n ? q - 1n : q;",
        "passK(",
    ),
]


@pytest.mark.parametrize(
    ("what", "path", "old", "new", "named"), MUTATIONS, ids=[m[0] for m in MUTATIONS]
)
def test_parity_fails_on_a_spoiled_copy(
    chromium: Any,
    site: Path,
    cases: list[Case],
    expected: list[Any],
    tmp_path: Path,
    what: str,
    path: Path,
    old: str,
    new: str,
    named: str,
) -> None:
    spoiled = spoiled_copy(site, tmp_path / "spoiled", path, old, new)
    problems = mismatches(cases, expected, browser_results(chromium, spoiled / PARITY_PAGE, cases))
    assert problems, f"parity did not notice {what}"
    assert any(p.startswith(named) for p in problems), report(problems)


def test_inline_data_check_fails_when_the_page_and_the_snapshot_differ(
    site: Path, tmp_path: Path
) -> None:
    spoiled = spoiled_copy(
        site,
        tmp_path / "spoiled",
        Path("radar.html"),
        '{"name":"radar.window_runs","value":100}',
        '{"name":"radar.window_runs","value":99}',
    )
    problems = inline_data_problems(spoiled)
    assert problems == [
        "radar.html: inlined constants differ from methodology.json: ['radar.window_runs']"
    ]


# --- the widgets -------------------------------------------------------------------------------


def _parse_weights(text: str) -> dict[str, int]:
    return {name: int(w) for name, w in (part.split("=") for part in text.split(","))}


VIEWER_WEIGHTS = "correctness=2,cost=1"


def test_sliders_reproduce_the_report_with_viewer_weights(chromium: Any, site: Path) -> None:
    """Keyboard only: each slider focused, Home, then → as many times as its weight."""
    from selenium.webdriver.common.keys import Keys

    stdout, stderr = io.StringIO(), io.StringIO()
    runs = site / "downloads" / "sample-runs.jsonl"
    status = scoring_cli(
        ["report", str(runs), "--weights", VIEWER_WEIGHTS, "--format", "json"],
        stdout=stdout,
        stderr=stderr,
    )
    assert status == 0, stderr.getvalue()
    agents = json.loads(stdout.getvalue())["agents"]
    want = [(a["agent_id"], a["radar"]["profile"]) for a in agents]

    chromium.get((site / "radar.html").as_uri())
    wait_for(
        chromium, "return !document.querySelector('section.calc[data-calculator=radar]').hidden"
    )
    weights = _parse_weights(VIEWER_WEIGHTS)
    for axis in Axis:
        slider = chromium.find_element("id", f"calc-radar-w-{axis.value}")
        slider.send_keys(Keys.HOME)
        for _ in range(weights.get(axis.value, 0)):
            slider.send_keys(Keys.ARROW_RIGHT)
    rows = chromium.execute_script(
        "return Array.from(document.querySelectorAll('.calc-ranking tbody tr')).map(tr =>"
        " [tr.dataset.agent, tr.querySelector('[data-profile]').dataset.profile]);"
    )
    got = [(agent, None if p == "null" else float(p)) for agent, p in rows]
    assert got == want, f"sliders {got} != report --weights {VIEWER_WEIGHTS} {want}"
    command = chromium.find_element("css selector", '[data-out="command"]').text
    assert command.endswith(f"--weights {VIEWER_WEIGHTS}"), command
    screenshot(chromium, "section.calc", SCREENSHOTS / "calculator-radar-viewer-weights.png")

    # And the default positions give the report without --weights.
    chromium.find_element("css selector", ".calc-reset").send_keys(Keys.ENTER)
    stdout = io.StringIO()
    assert scoring_cli(["report", str(runs), "--format", "json"], stdout=stdout) == 0
    default = [
        (a["agent_id"], a["radar"]["profile"]) for a in json.loads(stdout.getvalue())["agents"]
    ]
    rows = chromium.execute_script(
        "return Array.from(document.querySelectorAll('.calc-ranking tbody tr')).map(tr =>"
        " [tr.dataset.agent, tr.querySelector('[data-profile]').dataset.profile]);"
    )
    got = sorted((agent, None if p == "null" else float(p)) for agent, p in rows)
    assert got == sorted(default)


def test_composite_widget_by_keyboard(chromium: Any, site: Path) -> None:
    from selenium.webdriver.common.keys import Keys

    chromium.get((site / "composite.html").as_uri())
    wait_for(chromium, "return !document.querySelector('section.calc').hidden")
    fields = {
        "completed_runs": "5",
        "successes": "4",
        "mean_latency_ms": "2000",
        "mean_cost_usd": "0.010",
    }
    for name, text in fields.items():
        box = chromium.find_element("id", f"calc-composite-{name.replace('_', '-')}")
        box.send_keys(Keys.CONTROL, "a")
        box.send_keys(text)
    shown = chromium.find_element("css selector", '[data-out="score"]').text
    want = py_composite({k: json.loads(v) for k, v in fields.items()})["score"]
    assert float(shown) == want
    error = chromium.find_element("id", "calc-composite-error")
    assert not error.is_displayed()
    box = chromium.find_element("id", "calc-composite-successes")
    box.send_keys(Keys.CONTROL, "a")
    box.send_keys("6")  # more successes than completed runs
    assert error.is_displayed()
    assert error.text.startswith("successes: "), error.text


def screenshot(chromium: Any, selector: str, path: Path) -> None:
    """The whole element, however tall, at the window's width (for a person to look at)."""
    box = chromium.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return [r.left + scrollX, r.top + scrollY, r.width, r.height];",
        selector,
    )
    save_screenshot(chromium, path, tuple(box))


def test_outcome_editor_by_keyboard(chromium: Any, site: Path) -> None:
    """Typing into the status and severity lists changes the rule that applies."""
    from selenium.webdriver.common.keys import Keys

    chromium.get((site / "outcome.html").as_uri())
    wait_for(chromium, "return !document.querySelector('section.calc').hidden")

    def out(key: str) -> str:
        node = chromium.find_element("css selector", f'[data-out="{key}"]')
        return str(node.get_attribute("textContent"))

    record = json.loads(out("record"))
    assert out("reason") == py_outcome(json.dumps(record))["reason"]
    first = chromium.find_element("id", "calc-outcome-entry-1-status")
    first.send_keys("e")  # "error": the first objective is in error
    first.send_keys(Keys.TAB)
    record = json.loads(out("record"))
    assert record["verification"][0]["status"] == "error"
    assert out("reason") == py_outcome(json.dumps(record))["reason"]
    assert out("reason").startswith("withheld: objective")
    severity = chromium.find_element("id", "calc-outcome-entry-1-severity")
    severity.send_keys("c")  # a severity on an objective is refused, naming the field
    error = chromium.find_element("id", "calc-outcome-error")
    assert error.text.startswith("verification.0.severity: "), error.text


@pytest.mark.parametrize("page", CALCULATOR_PAGES)
def test_calculator_fits_a_phone_and_every_control_is_labelled(
    chromium: Any, site: Path, page: str
) -> None:
    chromium.set_window_size(PHONE_WIDTH, 800)
    try:
        chromium.get((site / f"{page}.html").as_uri())
        wait_for(chromium, "return !document.querySelector('section.calc').hidden")
        unlabelled = chromium.execute_script(
            "return Array.from(document.querySelectorAll("
            "'section.calc input, section.calc select')).filter(e => !e.id"
            " || !document.querySelector(`label[for='${e.id}']`)).map(e => e.name);"
        )
        assert unlabelled == [], f"{page}: controls without a <label for>: {unlabelled}"
        # Nothing wider than the phone, except inside a box that scrolls on its own.
        wide = chromium.execute_script(
            "const w = document.documentElement.clientWidth;"
            "const inBox = e => { for (let p = e.parentElement; p; p = p.parentElement) {"
            " if (getComputedStyle(p).overflowX === 'auto') return true; } return false; };"
            "return Array.from(document.querySelectorAll('section.calc, section.calc *'))"
            ".filter(e => e.getBoundingClientRect().right > w + 1 && !inBox(e))"
            ".map(e => e.tagName + '.' + e.className);"
        )
        assert wide == [], f"{page}: wider than a {PHONE_WIDTH} px phone: {wide[:5]}"
        sideways = chromium.execute_script(
            "const d = document.documentElement; return d.scrollWidth > d.clientWidth;"
        )
        assert not sideways, f"{page}: the page scrolls sideways at {PHONE_WIDTH} px"
        for scheme in ("default", "slate"):  # the light and the dark palette
            chromium.execute_script(
                "document.body.setAttribute('data-md-color-scheme', arguments[0])", scheme
            )
            screenshot(chromium, "section.calc", SCREENSHOTS / f"calculator-{page}-{scheme}.png")
        errors = console_errors(chromium)
        assert not errors, errors
    finally:
        chromium.set_window_size(*DESKTOP)


def test_every_calculator_starts_hidden_with_a_noscript_note(site: Path) -> None:
    """Without JavaScript the widget never shows; a note says what is missing."""
    for page in CALCULATOR_PAGES:
        html = (site / f"{page}.html").read_text(encoding="utf-8")
        sections = re.findall(r"<section class=\"calc\"[^>]*>", html)
        assert len(sections) == 1, page
        assert " hidden" in sections[0], f"{page}: the calculator is not hidden without script"
        after = html[html.index(sections[0]) :]
        assert re.search(r"</section></div>\s*<noscript><p class=\"calc-noscript\">", after), page


def test_without_the_data_no_calculator_shows(chromium: Any, site: Path, tmp_path: Path) -> None:
    """A page whose data is missing keeps its content; the calculator stays hidden."""
    spoiled = spoiled_copy(
        site, tmp_path / "spoiled", Path("composite.html"), f'id="{DATA_ID}"', 'id="gone"'
    )
    chromium.get((spoiled / "composite.html").as_uri())
    hidden = chromium.execute_script("return document.querySelector('section.calc').hidden")
    assert hidden is True
    assert chromium.find_elements("css selector", "figure.formula")
