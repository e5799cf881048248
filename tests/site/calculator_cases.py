"""The four functions of the readers' calculators (``composite``, ``profile``, ``passK``,
``outcomeScore`` of ``window.Methodology``) on the Python side, and their inputs: the edges,
seeded random inputs, records spoiled on purpose, the snapshot's golden evaluations and
worked examples. ``test_calculator_parity.py`` runs them in the browser.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from calculator_support import Case, python_number

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
from scoring.formulas.composite import score_composite
from scoring.formulas.outcome import score_outcome_lines
from scoring.formulas.radar import RadarResult, profile
from scoring.formulas.repeatability import RepeatabilityResult, pass_hat_k
from scoring.numeric import round_half_up
from scoring.report import AgentReport
from scoring.report.write import agent_to_json, outcome_to_json, pass_key

SEED = 20261201
RANDOM_CASES_PER_FUNCTION = 300


# --- the Python side -----------------------------------------------------------------------------


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
    exact = {k: python_number(v) if k.startswith("mean_") else v for k, v in inputs.items()}
    published = _serialized(composite=score_composite(**exact))["composite"]
    return {k: v for k, v in published.items() if "interval" not in k}


def py_profile(axes: dict[str, Any], weights: dict[str, Any] | None = None) -> float | None:
    exact_axes = {Axis(a): None if v is None else python_number(v) for a, v in axes.items()}
    exact_weights = (
        None if weights is None else {Axis(a): python_number(w) for a, w in weights.items()}
    )
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


def _python_args(case: Case) -> list[Any]:
    if case["fn"] == "outcomeScore" and not isinstance(case["args"][0], str):
        return [json.dumps(case["args"][0], ensure_ascii=False)]
    return case["args"]


def expected_results(cases: list[Case]) -> list[Any]:
    return [PYTHON[case["fn"]](*_python_args(case)) for case in cases]


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
