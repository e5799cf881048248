"""The calculators as a reader meets them: what one cannot read is refused (never taken for an
empty field), in the same words for the same rule in every calculator, naming the field by the
label the reader sees; each calculator keeps the methodology's rules (the outcome minimum of
repeatability, the task minimum of an interval, no score without a completed run) and says
so in a sentence rather than in a cell; and the radar gives each agent its own colour, kept
when the weights change the order.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest
from chromium_driver import load, wait_for

pytestmark = pytest.mark.slow

#: Inputs no calculator can read: an overflow, a cut exponent, a lone sign, a word.
UNREADABLE = ("1e400", "3e", "-", "abc", "1.2.3")
#: Code names the error of a calculator must not show (its field labels stand for them).
CODE_NAMES = re.compile(r"\b(p_a|p_b|runs_per_task|completed_runs|mean_latency_ms|mean_cost_usd)\b")

#: Types ``values`` (CSS selector → text) into the section of calculator ``kind`` and reads
#: what it shows: a JS function expression.
_SET_AND_READ = """
(kind, values) => {
  const section = document.querySelector(`section[data-calculator="${kind}"]`);
  for (const [selector, value] of Object.entries(values)) {
    const field = section.querySelector(selector);
    field.value = value;
    field.dispatchEvent(new Event("input", {bubbles: true}));
  }
  const shown = (node) => (node && !node.hidden ? node.textContent : null);
  return {
    error: shown(section.querySelector(".calc-error")),
    note: shown(section.querySelector(".calc-note")),
    outs: Object.fromEntries(
      [...section.querySelectorAll("[data-out]")].map((n) => [n.dataset.out, n.textContent])
    ),
  };
}
"""
_SET = f"return ({_SET_AND_READ})(...arguments);"
# The case typed and read, then what the fields held typed back and read again, in one round
# trip: a calculator reads its whole form on each input, so once the section reads as the
# loaded page did (checked by the caller) the next case needs no reload.
_TRY = f"""
const [kind, values] = arguments;
const section = document.querySelector(`section[data-calculator="${{kind}}"]`);
const held = Object.fromEntries(
  Object.keys(values).map((selector) => [selector, section.querySelector(selector).value])
);
const setAndRead = {_SET_AND_READ};
const got = setAndRead(kind, values);
return {{got, back: setAndRead(kind, held)}};
"""


def _selectors(values: dict[str, str]) -> dict[str, str]:
    """``values`` by field name, or ``selector=...`` pairs, keyed by their CSS selector."""
    return {(k if k.startswith(("[", ".", "#")) else f'[name="{k}"]'): v for k, v in values.items()}


def _set(chromium: Any, kind: str, **values: str) -> dict[str, Any]:
    """Type ``values`` (by field name, or ``selector=...`` pairs) and read the section."""
    return chromium.execute_script(_SET, kind, _selectors(values))  # type: ignore[no-any-return]


def _try(chromium: Any, kind: str, loaded: dict[str, Any], case: str, **values: str) -> Any:
    """What the section shows with ``values`` typed (as :func:`_set`), the fields then set
    back: the section must read as ``loaded`` (the page as loaded) again, so that the next
    case on the page starts where a reload would; ``case`` names it if not."""
    answer = chromium.execute_script(_TRY, kind, _selectors(values))
    assert answer["back"] == loaded, f"{case}: the fields typed back do not restore {kind}"
    return answer["got"]


def _open(chromium: Any, base_url: str, page: str, kind: str, *, reload: bool = True) -> None:
    """The page loaded (or, ``reload=False``, kept as it is) once calculator ``kind`` shows."""
    if reload:
        load(chromium, f"{base_url}{page}.html")
    wait_for(
        chromium, f"return !document.querySelector('section[data-calculator=\"{kind}\"]').hidden"
    )


def _snapshot_constant(site: Path, name: str) -> Any:
    data = json.loads((site / "methodology.json").read_text(encoding="utf-8"))
    return next(c["value"] for c in data["constants"] if c["name"] == name)


def _rule(error: str) -> str:
    """The rule of an error, after the field's label."""
    return error.rpartition(": ")[2]


#: One decimal field of each calculator that has one: (page, calculator, field, others).
DECIMAL_FIELDS = [
    ("composite", "composite", "mean_latency_ms", {}),
    ("composite", "composite", "mean_cost_usd", {}),
    ("uncertainty", "planner", "p_a", {}),
    ("uncertainty", "planner", "rho", {}),
    ("outcome", "outcome", "checklist", {}),
    ("outcome", "outcome", ".calc-check [name=weight]", {}),
]


def test_what_cannot_be_read_is_refused_alike_everywhere(chromium: Any, base_url: str) -> None:
    """Every unreadable text in every decimal field: refused, in the same words for a text.
    One load of each page serves all its cases (:func:`_try`); each failure names its case."""
    rules: dict[str, dict[tuple[str, str], str]] = {text: {} for text in UNREADABLE}
    for page, kind in dict.fromkeys((page, kind) for page, kind, _, _ in DECIMAL_FIELDS):
        _open(chromium, base_url, page, kind)
        loaded = _set(chromium, kind)
        for text in UNREADABLE:
            for field, others in (
                (f, o) for p, k, f, o in DECIMAL_FIELDS if (p, k) == (page, kind)
            ):
                case = f"{kind} {field} = {text!r}"
                got = _try(chromium, kind, loaded, case, **others, **{field: text})
                assert got["error"], f"{kind} read {text!r} in {field} without an error: {got}"
                assert not CODE_NAMES.search(got["error"]), f"{case}: {got['error']}"
                assert set(got["outs"].values()) <= {"—", ""}, (
                    f"{kind}: a result beside an error for {text!r} in {field}: {got}"
                )
                rules[text][(kind, field)] = _rule(got["error"])
    for text, by_field in rules.items():
        assert len(by_field) == len(DECIMAL_FIELDS), (text, sorted(by_field))
        assert len(set(by_field.values())) == 1, (
            f"{text!r} is refused in different words: {by_field}"
        )


def test_an_error_names_the_field_by_its_label(chromium: Any, base_url: str) -> None:
    """Each case on its page, loaded once for all its cases (:func:`_try`)."""
    cases = [
        ("composite", "composite", {"completed_runs": "-1"}, "Completed runs"),
        ("composite", "composite", {"completed_runs": "4", "successes": "5"}, "Successful runs"),
        ("uncertainty", "planner", {"p_a": "2"}, "Success rate of agent A, p_A"),
        ("uncertainty", "planner", {"runs_per_task": "0"}, "Runs per task, K"),
        ("uncertainty", "success-interval", {"runs": "x"}, "Runs (each on its own task)"),
        ("repeatability", "repeatability", {"n": "4", "c": "5"}, "Passed outcomes c"),
        ("outcome", "outcome", {"recoverable": "2"}, "Recoverable safety"),
        ("outcome", "outcome", {".calc-check [name=weight]": "0"}, "entry 1 weight"),
    ]
    opened = None
    for page, kind, values, label in cases:
        _open(chromium, base_url, page, kind, reload=page != opened)
        opened = page
        loaded = _set(chromium, kind)
        got = _try(chromium, kind, loaded, f"{kind} {values}", **values)
        assert got["error"], (kind, values, got)
        assert got["error"].startswith(label + ": "), (kind, values, got)
        assert not CODE_NAMES.search(got["error"]), got["error"]


def test_no_completed_run_is_explained(chromium: Any, base_url: str) -> None:
    _open(chromium, base_url, "composite", "composite")
    got = _set(chromium, "composite", completed_runs="0", successes="0")
    assert got["error"] is None
    assert got["outs"]["score"] == "—"
    assert got["note"], got
    assert "no completed run" in got["note"], got
    back = _set(chromium, "composite", completed_runs="4", successes="2")
    assert back["note"] is None
    assert back["outs"]["score"] != "—"


def test_too_few_runs_for_an_interval_is_a_sentence(
    chromium: Any, base_url: str, site: Path
) -> None:
    minimum = _snapshot_constant(site, "interval.min_tasks")
    _open(chromium, base_url, "uncertainty", "success-interval")
    got = _set(chromium, "success-interval", runs=str(minimum - 1), successes="1")
    assert got["error"] is None
    assert got["outs"]["low"] == got["outs"]["high"] == "—", got
    assert not any("null" in v for v in got["outs"].values()), got
    assert got["note"], got
    assert str(minimum) in got["note"], got
    enough = _set(chromium, "success-interval", runs=str(minimum), successes="1")
    assert enough["note"] is None
    assert enough["outs"]["low"] != "—"


def test_repeatability_leaves_out_a_task_below_the_outcome_minimum(
    chromium: Any, base_url: str, site: Path
) -> None:
    minimum = _snapshot_constant(site, "repeatability.min_outcomes")
    _open(chromium, base_url, "repeatability", "repeatability")
    below = _set(chromium, "repeatability", n=str(minimum - 1), c="1", k="1")
    assert below["error"] is None
    assert below["outs"]["pass_k"] == "—", below
    assert below["note"], below
    assert str(minimum) in below["note"], below
    at = _set(chromium, "repeatability", n=str(minimum), c="1", k="1")
    assert at["note"] is None, at
    assert at["outs"]["pass_k"] != "—", at


_COLOURS = """
const section = document.querySelector('section[data-calculator="radar"]');
const [weights] = arguments;
for (const slider of section.querySelectorAll('input[type="range"]')) {
  slider.value = String(weights[slider.name] ?? 0);
  slider.dispatchEvent(new Event("input", {bubbles: true}));
}
const order = [...section.querySelectorAll(".calc-ranking tbody tr")].map((r) => r.dataset.agent);
const chart = Object.fromEntries([...section.querySelectorAll("polygon.agent")].map(
  (p) => [p.dataset.agent, getComputedStyle(p).stroke]));
const swatches = Object.fromEntries([...section.querySelectorAll(".calc-ranking tbody tr")].map(
  (r) => [r.dataset.agent, getComputedStyle(r.querySelector(".calc-swatch")).borderTopColor]));
return {order, chart, swatches};
"""


def test_radar_colours_are_the_agents_and_distinct(chromium: Any, base_url: str) -> None:
    _open(chromium, base_url, "radar", "radar")
    axes = chromium.execute_script("return window.Methodology.axes")
    seen: dict[str, str] = {}
    orders = set()
    for axis, other in itertools.permutations(axes, 2):
        got = chromium.execute_script(_COLOURS, {axis: 10, other: 1})
        orders.add(tuple(got["order"]))
        assert len(set(got["chart"].values())) == len(got["chart"]), f"shared colour: {got}"
        for agent, colour in got["chart"].items():
            assert seen.setdefault(agent, colour) == colour, f"{agent} changed colour: {got}"
            assert got["swatches"][agent] == colour, f"{agent}'s swatch is not its shape's colour"
    assert len(orders) > 1, "no re-weighting changed the order: the test proves nothing"
