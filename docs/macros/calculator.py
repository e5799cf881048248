"""The reader's calculators: the methodology data their script reads, and each widget's markup.

``window.Methodology`` (``docs/javascripts/methodology.js``) takes every number from the
constants of the snapshot this build publishes as ``methodology.json``. A page cannot
``fetch`` that file from a ``file://`` copy, so :func:`data_tag` inlines the same constants
into the page as a JSON script element. The widgets (``docs/javascripts/calculators.js``)
start hidden and a ``<noscript>`` note says so: without JavaScript the page reads as before.
"""

from __future__ import annotations

import decimal
import json
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, Protocol

from contracts.build import exact_value
from contracts.model import Methodology
from macros.markup import block, esc

#: The id of the inlined data; methodology.js reads the element with this id.
DATA_ID = "methodology-data"

#: What the composite calculator shows first: the reader's question from issue 11
#: ("37 of 50 runs, 2.4 s and 3 cents"), an example input, not a value of the methodology.
COMPOSITE_START = {
    "completed_runs": 50,
    "successes": 37,
    "mean_latency_ms": 2400,
    "mean_cost_usd": 0.03,
}
#: The repeatability calculator's first input: one task with 5 outcomes, 4 of them passed.
PASS_K_START = {"n": 5, "c": 4}
#: The worked example the record editor opens with.
OUTCOME_START = "outcome.full"
#: Highest position of a radar weight slider (a relative weight: only the shares matter).
SLIDER_MAX = 10

NOSCRIPT = (
    '<noscript><p class="calc-noscript">The calculator here needs JavaScript. '
    "Everything above it is computed at build time and reads the same without it.</p>"
    "</noscript>"
)


class SiteLike(Protocol):
    """What the calculators need from the build's site object."""

    snapshot: Methodology

    def rel(self, target: str) -> str:
        """``target`` (a path from the site root) relative to the page being rendered."""
        ...


def _script_json(data: Any) -> str:
    """JSON safe to place inside a ``<script>`` element (no ``</script>``, no ``<!--``)."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def methodology_data(snapshot: Methodology) -> dict[str, Any]:
    """What the page inlines: the versions and every constant, as ``methodology.json`` has them.

    ``arithmetic`` holds two precisions of Python's ``decimal`` that the outcome score's
    square root goes through (``scoring.outcome.combine``): they are not constants of the
    methodology, but the script must round where Python rounds to return the same float.
    """
    from scoring.outcome import (
        _SQRT_CONTEXT,  # the precision combine() takes its root at
        ABSENT_READING,  # how a reason writes a reading not taken
    )

    published = snapshot.model_dump(mode="json")
    return {
        "methodology_version": published["methodology_version"],
        "outcome_score_version": published["outcome_score_version"],
        "zero_success_policy": published["zero_success_policy"],
        "constants": [
            {"name": entry["name"], "value": entry["value"]} for entry in published["constants"]
        ],
        "arithmetic": {
            "sqrt_digits": _SQRT_CONTEXT.prec,
            "decimal_digits": decimal.DefaultContext.prec,
        },
        "absent_reading": ABSENT_READING,
    }


def data_tag(site: SiteLike) -> str:
    """The inlined methodology data (one per page that has a calculator)."""
    data = _script_json(methodology_data(site.snapshot))
    return f'\n<script type="application/json" id="{DATA_ID}">{data}</script>\n'


# --- widgets ----------------------------------------------------------------------------------


def _field(widget: str, name: str, label: str, attrs: str, hint: str = "") -> str:
    ident = f"calc-{widget}-{name.replace('_', '-')}"
    hint_html = f'<span class="calc-hint" id="{ident}-hint">{esc(hint)}</span>' if hint else ""
    described = f' aria-describedby="{ident}-hint"' if hint else ""
    return (
        f'<div class="calc-field"><label for="{ident}">{esc(label)}</label>'
        f'<input id="{ident}" name="{esc(name)}" {attrs}{described}>{hint_html}</div>'
    )


def _results(widget: str, rows: list[tuple[str, str]]) -> str:
    cells = "".join(
        f'<tr><th scope="row">{esc(label)}</th><td class="num" data-out="{esc(key)}">—</td></tr>'
        for key, label in rows
    )
    return (
        f'<table class="calc-out" aria-live="polite"><caption>Result</caption>'
        f"<tbody>{cells}</tbody></table>"
        f'<p class="calc-note" id="calc-{widget}-note" hidden></p>'
        f'<p class="calc-error" role="alert" id="calc-{widget}-error" hidden></p>'
    )


def _widget(kind: str, title: str, inner: str, data: Any = None) -> str:
    payload = (
        f'<script type="application/json" class="calc-data">{_script_json(data)}</script>'
        if data is not None
        else ""
    )
    body = (
        f'<section class="calc" data-calculator="{kind}" aria-label="{esc(title)}" hidden>'
        f'<p class="calc-title">{esc(title)}</p>{inner}{payload}</section>'
    )
    return block(f"calculator:{kind}", body) + NOSCRIPT + "\n"


def _composite(_site: SiteLike) -> str:
    s = COMPOSITE_START
    fields = "".join(
        [
            _whole_field("composite", "completed_runs", "Completed runs", s["completed_runs"]),
            _whole_field("composite", "successes", "Successful runs", s["successes"]),
            _decimal_field(
                "composite", "mean_latency_ms", "Mean latency (ms)", s["mean_latency_ms"]
            ),
            _decimal_field(
                "composite", "mean_cost_usd", "Mean cost per run (USD)", s["mean_cost_usd"]
            ),
        ]
    )
    results = _results(
        "composite",
        [
            ("score", "Headline composite"),
            ("success_rate", "Success rate p"),
            ("consistency", "Outcome consistency"),
            ("latency_score", "Latency score"),
            ("cost_score", "Cost score"),
            ("zero_success_floor", "Zero-success floor applied"),
        ],
    )
    form = f'<form class="calc-form" novalidate>{fields}</form>{results}'
    return _widget("composite", "Try your own numbers", form)


def _repeatability(site: SiteLike) -> str:
    levels = site.snapshot.constant("repeatability.k_levels").value
    middle_k = levels[len(levels) // 2]
    s = PASS_K_START
    fields = "".join(
        [
            _whole_field("repeatability", "n", "Recorded outcomes n", s["n"]),
            _whole_field("repeatability", "c", "Passed outcomes c", s["c"]),
            _whole_field("repeatability", "k", "Attempts k", middle_k),
        ]
    )
    results = _results(
        "repeatability", [("pass_k", "pass^k (as published)"), ("exact", "Exact value")]
    )
    form = f'<form class="calc-form" novalidate>{fields}</form>{results}'
    return _widget("repeatability", "pass^k of one task", form, {"levels": levels})


def _exact(value: Fraction | None) -> str | None:
    return None if value is None else exact_value(value).exact


def sample_agents() -> list[dict[str, Any]]:
    """The sample run log's agents, with their exact radar axes and report order."""
    from macros import samples
    from scoring import build_report
    from scoring.constants import Axis

    lines = samples.jsonl(samples.sample_runs()).encode("utf-8").splitlines(keepends=True)
    report = build_report(lines)
    return [
        {
            "agent_id": agent.agent_id,
            "axes": {axis.value: _exact(agent.radar.axes[axis]) for axis in Axis},
        }
        for agent in report.agents
    ]


def slider_start(default_weights: Mapping[str, Any]) -> dict[str, int]:
    """Slider positions for the default weights: the least power of ten making them whole.

    >>> slider_start({"a": 0.2, "b": 0.2})
    {'a': 2, 'b': 2}
    """
    weights = {
        axis: Fraction(repr(w)) if isinstance(w, float) else Fraction(w)
        for axis, w in default_weights.items()
    }
    scale = 1
    while any((w * scale).denominator != 1 for w in weights.values()):
        scale *= 10
    positions = {axis: int(w * scale) for axis, w in weights.items()}
    if max(positions.values()) > SLIDER_MAX:
        raise ValueError(f"default weights {positions} do not fit sliders of 0..{SLIDER_MAX}")
    return positions


def _radar(site: SiteLike) -> str:
    from macros import samples

    defaults = site.snapshot.constant("radar.default_weights").value
    start = slider_start(defaults)
    sliders = "".join(
        '<div class="calc-field calc-slider">'
        f'<label for="calc-radar-w-{axis}">{esc(axis.replace("_", " "))}</label>'
        f'<input id="calc-radar-w-{axis}" name="{esc(axis)}" type="range" min="0" '
        f'max="{SLIDER_MAX}" step="1" value="{position}" data-start="{position}" '
        f'aria-describedby="calc-radar-share-{axis}">'
        f'<output id="calc-radar-share-{axis}" for="calc-radar-w-{axis}"></output></div>'
        for axis, position in start.items()
    )
    form = (
        f'<form class="calc-form calc-weights" novalidate><fieldset><legend>Viewer weights '
        f"(relative; axes at zero are left out)</legend>{sliders}</fieldset>"
        '<button type="button" class="md-button calc-reset">Default weights</button></form>'
        '<p class="calc-command">The same profiles, from the command line, on '
        f'<a href="{esc(site.rel("downloads/" + samples.RUNS_FILE))}">the sample run log</a>: '
        '<code data-out="command"></code></p>'
        '<div class="calc-chart" aria-hidden="true"></div>'
        '<div class="calc-scroll"><table class="calc-ranking" aria-live="polite"><caption>'
        "Sample agents ranked by profile</caption><thead></thead><tbody></tbody></table></div>"
    )
    data = {"agents": sample_agents(), "runs_file": samples.RUNS_FILE}
    return _widget("radar", "Weigh the axes yourself", form, data)


def _outcome(site: SiteLike) -> str:
    examples = [
        {"name": e.name, "title": e.title, "record": e.inputs["record"]}
        for e in site.snapshot.examples
        if e.name.startswith("outcome.")
    ]
    # The one that shows every part of a record first; the others in the snapshot's order.
    examples.sort(key=lambda e: e["name"] != OUTCOME_START)
    options = "".join(
        f'<option value="{i}">{esc(e["title"])}</option>' for i, e in enumerate(examples)
    )
    editor = (
        '<form class="calc-form calc-record" novalidate>'
        '<div class="calc-field"><label for="calc-outcome-start">Start from</label>'
        f'<select id="calc-outcome-start">{options}</select></div>'
        '<fieldset class="calc-checks"><legend>Verification entries</legend>'
        '<div class="calc-check-list"></div>'
        '<button type="button" class="md-button calc-add">Add an entry</button></fieldset>'
        '<fieldset class="calc-judged"><legend>Judged readings (0 to 1; empty: none)</legend>'
        + "".join(
            _decimal_field("outcome", key, label, "")
            for key, label in (
                ("checklist", "Checklist"),
                ("outcome_validity", "Outcome validity"),
                ("recoverable", "Recoverable safety"),
            )
        )
        + "</fieldset></form>"
    )
    results = _results(
        "outcome",
        [
            ("outcome_score", "Outcome score"),
            ("correctness", "Correctness c"),
            ("correctness_source", "Correctness source"),
            ("recoverable_safety", "Recoverable safety rec_v"),
            ("catastrophic_gate", "Catastrophic gate cat_v"),
            ("reason", "Reason"),
        ],
    )
    lines = (
        '<details class="calc-json"><summary>The record and the CLI output as JSON</summary>'
        '<pre><code data-out="record"></code></pre><pre><code data-out="json"></code></pre>'
        "</details>"
    )
    return _widget("outcome", "Edit a record", editor + results + lines, {"examples": examples})


# --- uncertainty: the planner, the success-rate interval, the paired comparison (planner.js)

#: The worked examples the two widgets start from (inputs in scoring/examples.py).
PLANNER_START = "uncertainty.runs_needed"
SUCCESS_INTERVAL_START = "uncertainty.success_interval"


#: Every number is typed as text: a browser's number input gives a script "" for what it
#: cannot read ("3e", "1e400"), which a calculator would take for an empty field; the
#: calculators read the text and refuse it by their one rule (docs/javascripts/fields.js).
_TEXT_INPUT = 'type="text" autocomplete="off" spellcheck="false"'


def _decimal_field(widget: str, name: str, label: str, start: object, hint: str = "") -> str:
    attrs = f'{_TEXT_INPUT} inputmode="decimal" value="{esc(start)}"'
    return _field(widget, name, label, attrs, hint)


def _whole_field(widget: str, name: str, label: str, start: int) -> str:
    attrs = f'{_TEXT_INPUT} inputmode="numeric" value="{start}"'
    return _field(widget, name, label, attrs)


def _planner(site: SiteLike) -> str:
    """p_A, δ, K, ρ → runs per agent; starts at the runs-needed table's middle row."""
    grid = site.snapshot.example(PLANNER_START).inputs
    middle = len(grid["p_a"]) // 2
    fields = "".join(
        [
            _decimal_field("planner", "p_a", "Success rate of agent A, p_A", grid["p_a"][middle]),
            _decimal_field(
                "planner", "delta", "Difference to detect, δ", grid["delta"][-1], "p_B = p_A − δ"
            ),
            _whole_field("planner", "runs_per_task", "Runs per task, K", grid["runs_per_task"]),
            _decimal_field(
                "planner",
                "rho",
                "Within-task correlation, ρ",
                grid["rho"][0],
                f"{grid['rho'][0]}: independent runs",
            ),
        ]
    )
    results = _results(
        "planner", [("runs", "Runs per agent"), ("tasks", "Tasks per agent at K runs each")]
    )
    form = f'<form class="calc-form" novalidate>{fields}</form>{results}'
    return _widget("planner", "Plan the runs", form)


def _success_interval(site: SiteLike) -> str:
    """Runs and successes (independent runs) → the success rate and its interval."""
    start = site.snapshot.example(SUCCESS_INTERVAL_START).inputs
    fields = "".join(
        [
            _whole_field("success-interval", "runs", "Runs (each on its own task)", start["runs"]),
            _whole_field("success-interval", "successes", "Successful runs", start["successes"]),
        ]
    )
    results = _results(
        "success-interval",
        [("success_rate", "Success rate"), ("low", "Low bound"), ("high", "High bound")],
    )
    form = f'<form class="calc-form" novalidate>{fields}</form>{results}'
    return _widget("success-interval", "The interval of your own runs", form)


#: The paired calculator's first input: twelve tasks of two agents (an example, not a value
#: of the methodology), one line per task as the hint describes. A succeeds more often and
#: is a little slower; each agent skipped one task the other ran, so ten are shared.
PAIRED_START = (
    ("t01", 5, 5, 10400, "0.21", 5, 4, 9100, "0.19"),
    ("t02", 5, 4, 12100, "0.25", 5, 3, 10200, "0.22"),
    ("t03", 5, 5, 9800, "0.20", 5, 5, 8800, "0.18"),
    ("t04", 5, 2, 15300, "0.31", 5, 1, 13900, "0.27"),
    ("t05", 5, 5, 11000, "0.22", 5, 4, 9900, "0.20"),
    ("t06", 5, 3, 13600, "0.28", 5, 3, 12000, "0.24"),
    ("t07", 5, 4, 10900, "0.23", 5, 2, 10100, "0.21"),
    ("t08", 5, 5, 9500, "0.19", 5, 4, 9000, "0.18"),
    ("t09", 5, 1, 16800, "0.35", 5, 0, 15200, "0.30"),
    ("t10", 5, 4, 11700, "0.24", 5, 4, 10400, "0.21"),
    ("t11", 5, 5, 10200, "0.21", "", "", "", ""),
    ("t12", "", "", "", "", 5, 2, 11100, "0.23"),
)


def _lines_field(widget: str, name: str, label: str, start: str, hint: str) -> str:
    ident = f"calc-{widget}-{name.replace('_', '-')}"
    rows = start.count("\n") + 2
    return (
        f'<div class="calc-field calc-lines"><label for="{ident}">{esc(label)}</label>'
        f'<textarea id="{ident}" name="{esc(name)}" rows="{rows}" autocomplete="off" '
        f'spellcheck="false" aria-describedby="{ident}-hint">{esc(start)}</textarea>'
        f'<span class="calc-hint" id="{ident}-hint">{esc(hint)}</span></div>'
    )


#: How a line of the paired calculator reads (its hint, under the text area).
PAIRED_HINT = (
    "One line per task: the task's name, then agent A's runs, successful runs, latency sum "
    "(ms) and cost sum (USD), then the same four for agent B, separated by commas or tabs. "
    "Leave an agent's four empty where it did not run the task: only the tasks both ran "
    "are compared."
)


def _paired(_site: SiteLike) -> str:
    """Two agents' per-task results → the paired differences, their intervals, verdicts."""
    start = "\n".join(", ".join(str(cell) for cell in row) for row in PAIRED_START)
    field = _lines_field(
        "paired", "tasks", "Per-task results of agents A and B", start, PAIRED_HINT
    )
    results = _results(
        "paired",
        [
            ("shared", "Shared tasks"),
            ("composite_difference", "Composite, A − B"),
            ("composite_interval", "Its interval"),
            ("composite_verdict", "Verdict"),
            ("composite_errors", "Standard error, paired (unpaired)"),
            ("success_difference", "Success rate, A − B"),
            ("success_interval", "Its interval"),
            ("success_verdict", "Verdict"),
            ("success_errors", "Standard error, paired (unpaired)"),
        ],
    )
    form = f'<form class="calc-form" novalidate>{field}</form>{results}'
    return _widget("paired", "Is A really ahead of B?", form)


WIDGETS: dict[str, Callable[[SiteLike], str]] = {
    "composite": _composite,
    "radar": _radar,
    "outcome": _outcome,
    "repeatability": _repeatability,
    "planner": _planner,
    "success-interval": _success_interval,
    "paired": _paired,
}


def widget(site: SiteLike, kind: str) -> str:
    """One calculator's markup, with the methodology data it needs (once per page)."""
    if kind not in WIDGETS:
        raise ValueError(f"no calculator {kind!r}; known: {', '.join(WIDGETS)}")
    return _data_once(site) + WIDGETS[kind](site)


#: The pages whose inlined data this build has written, so that a page with two calculators
#: carries it once (one element with the id ``DATA_ID``).
_DATA_WRITTEN: set[tuple[int, str]] = set()


def _data_once(site: SiteLike) -> str:
    page = getattr(getattr(site, "env", None), "page", None)
    where = (id(site), str(getattr(page, "url", "")))
    if page is not None and where in _DATA_WRITTEN:
        return ""
    _DATA_WRITTEN.add(where)
    return data_tag(site)


#: The macros of this module (see ``macros.MACROS_BY_MODULE``): ``{{ calculator("radar") }}``.
MACROS: dict[str, Callable[..., str]] = {"calculator": widget}
