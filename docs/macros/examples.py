"""Worked examples and demonstrations: one input or result of a worked example (computed by
the live code through the snapshot), an example's whole table, an outcome record with its
score, pass^k beside pass@k, and small demonstrations (median, rounding, the window's tie
rule, efficiency beside the outcome score) run now."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import scoring.constants as C  # noqa: N812 - the module of constants, named as in contracts
from macros.markup import code_block, esc, exact_text, plain, table, value
from scoring.numeric import number_text

if TYPE_CHECKING:
    from macros.site import Site


def compact_json(record: Mapping[str, Any]) -> str:
    """A record as JSON, one line per field and one line per entry of a list."""
    lines = []
    for key, item in record.items():
        if isinstance(item, list) and item:
            entries = ",\n".join(f"    {json.dumps(entry)}" for entry in item)
            lines.append(f"  {json.dumps(key)}: [\n{entries}\n  ]")
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(item)}")
    return "{\n" + ",\n".join(lines) + "\n}"


def ex(site: Site, name: str, key: str, fmt: str = "published") -> str:
    """One result of a worked example, computed by the live code."""
    data = site.snapshot.example(name).result[key]
    text, code = site.show(data, fmt, key)
    return value(f"example:{name}/{key}", text, code=code, title=f"worked example {name}")


def ex_in(site: Site, name: str, key: str, fmt: str = "exact") -> str:
    """One input of a worked example."""
    data = site.snapshot.example(name).inputs[key]
    if isinstance(data, list | dict):
        text = json.dumps(data)
        return value(f"example:{name}/input/{key}", text, code=True)
    text, code = site.show(data, fmt, key)
    return value(f"example:{name}/input/{key}", text, code=code)


def example_table(site: Site, name: str) -> str:
    """Inputs and results of a worked example; results exact and as published."""
    example = site.snapshot.example(name)
    rows = []
    for key, data in example.inputs.items():
        shown = json.dumps(data) if isinstance(data, list | dict) else str(data)
        rows.append([f"input <code>{esc(key)}</code>", f"<code>{esc(shown)}</code>", ""])
    for key, data in example.result.items():
        exact, code = site.show(data, "exact", key)
        published, _ = site.show(data, "published", key)
        exact_html = f"<code>{esc(exact)}</code>" if code else esc(exact)
        published_html = f"<code>{esc(published)}</code>" if code else esc(published)
        rows.append([f"<code>{esc(key)}</code>", exact_html, published_html])
    return table(
        f"example:{name}/table",
        ["", "Exact value", "As the report prints it"],
        rows,
        numeric=(1, 2),
        caption=esc(example.title),
    )


def outcome_example(site: Site, name: str) -> str:
    """An outcome record (JSON) and the outcome score the live code gives it."""
    example = site.snapshot.example(name)
    record = compact_json(example.inputs["record"])
    rows = []
    for key, data in example.result.items():
        text, code = site.show(data, "exact", key)
        rows.append(
            [f"<code>{esc(key)}</code>", f"<code>{esc(text)}</code>" if code else esc(text)]
        )
    return code_block(
        f"example:{name}/input", record, lang="json", title=f"{name}: record"
    ) + table(f"example:{name}/table", ["Field", "Value"], rows, caption=esc(example.title))


def demo(site: Site, name: str) -> str:
    """One of the demonstrations of :data:`DEMOS`, run on the live code now."""
    return DEMOS[name](site)


def pass_k_compare(site: Site, example: str = "repeatability.typical", task: int = 1) -> str:
    """pass^k beside pass@k for one task of a worked example."""
    from scoring.formulas.repeatability import pass_hat_k

    n, c = site.snapshot.example(example).inputs["tasks_n_c"][task]
    rows = []
    for k in C.PASS_K_LEVELS:
        hat = pass_hat_k(n, c, k)
        at = 1 - Fraction(math.comb(n - c, k), math.comb(n, k)) if k <= n else Fraction(1)
        rows.append(
            [
                str(k),
                exact_text(hat),
                plain(hat, C.FRACTION_DECIMALS),
                exact_text(at),
                plain(at, C.FRACTION_DECIMALS),
            ]
        )
    return table(
        f"pass-k-compare:{example}/{task}",
        ["k", "pass^k exact", "pass^k", "pass@k exact", "pass@k"],
        rows,
        numeric=(0, 1, 2, 3, 4),
        caption=f"A task with n = {n} recorded outcomes and c = {c} successes",
    )


# --- demonstrations ---------------------------------------------------------------------------


def _median_demo(site: Site) -> str:
    from statistics import median  # the median the page defines: the stdlib's

    cases = [[900, 1500, 1200], [900, 1500, 1200, 4000]]
    rows = [
        [
            f"<code>{esc(json.dumps(values))}</code>",
            str(len(values)),
            exact_text(median([Fraction(v) for v in values])),
        ]
        for values in cases
    ]
    return table("demo:median", ["Values", "Count", "Median"], rows, numeric=(1, 2))


def _rounding_demo(site: Site) -> str:
    cases = [
        (Fraction(56125, 1000), C.SCORE_DECIMALS, "a score"),
        (Fraction(280, 3), C.SCORE_DECIMALS, "a score"),
        (Fraction(2, 3), C.FRACTION_DECIMALS, "a fraction"),
        (Fraction(5, 100000), C.FRACTION_DECIMALS, "a fraction"),
    ]
    rows = [
        [esc(what), exact_text(v), str(places), number_text(v, places=places)]
        for v, places, what in cases
    ]
    return table("demo:rounding", ["Kind", "Exact", "Decimals", "Printed"], rows, numeric=(1, 2, 3))


def _window_tie_demo(site: Site) -> str:
    from scoring.report import build_report

    size = C.RADAR_WINDOW_RUNS

    def line(i: int, when: int, success: bool) -> bytes:
        minute, second = divmod(when, 60)
        return json.dumps(
            {
                "run_id": f"r{i}",
                "agent_id": "a",
                "task_id": "t",
                "status": "completed",
                "success": success,
                "latency_ms": 1000,
                "cost_usd": 0.01,
                "finished_at": f"2026-01-01T{minute // 60:02d}:{minute % 60:02d}:{second:02d}Z",
            }
        ).encode()

    tied = [line(0, 0, False), line(1, 0, True)]
    newer = [line(i + 2, i + 1, True) for i in range(size - 1)]
    radar = build_report(tied + newer).agents[0].radar
    correctness = radar.axes[C.Axis.CORRECTNESS]
    rows = [
        ["terminal runs in the input", str(len(tied) + len(newer))],
        ["runs in the window", str(radar.window_runs)],
        [
            "correctness axis",
            plain(correctness, C.SCORE_DECIMALS) if correctness is not None else "null",
        ],
    ]
    return table("demo:window-tie", ["", "Value"], rows, numeric=(1,))


def _efficiency_demo(site: Site) -> str:
    from scoring.formulas.outcome import score_outcome
    from scoring.models import OutcomeRecord
    from scoring.report.write import outcome_to_json

    record = dict(site.snapshot.example("outcome.full").inputs["record"])
    variants = [
        ("no efficiency data", None),
        ("quick and frugal", {"latency_sec": 2.5, "total_tokens": 900}),
        ("slow and costly", {"latency_sec": 600.0, "input_tokens": 240000, "total_tokens": 250000}),
    ]
    rows = []
    for label, efficiency in variants:
        data = record if efficiency is None else {**record, "efficiency": efficiency}
        result = outcome_to_json(score_outcome(OutcomeRecord.model_validate_json(json.dumps(data))))
        rows.append(
            [
                esc(label),
                f"<code>{esc(json.dumps(result['efficiency']))}</code>",
                f"<code>{esc(result['outcome_score'])}</code>",
                f"<code>{esc(result['reason'])}</code>",
            ]
        )
    return table("demo:efficiency", ["Run", "efficiency", "outcome_score", "reason"], rows)


DEMOS: dict[str, Callable[[Site], str]] = {
    "efficiency": _efficiency_demo,
    "median": _median_demo,
    "rounding": _rounding_demo,
    "window_tie": _window_tie_demo,
}


#: The macros this module renders (see ``macros.MACROS_BY_MODULE``).
MACROS: dict[str, Callable[..., str]] = {
    "ex": ex,
    "ex_in": ex_in,
    "example_table": example_table,
    "outcome_example": outcome_example,
    "pass_k_compare": pass_k_compare,
    "demo": demo,
}
