"""The reader's calculators: the methodology data their script reads, and each widget's markup.

``window.Methodology`` (``docs/javascripts/methodology.js``) takes every number from the
constants of the snapshot this build publishes as ``methodology.json``. A page cannot
``fetch`` that file from a ``file://`` copy, so :func:`data_tag` inlines the same constants
into the page as a JSON script element. The widgets (``docs/javascripts/calculators.js``)
start hidden and a ``<noscript>`` note says so: without JavaScript the page reads as before.
"""

from __future__ import annotations

import decimal
from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any

from contracts.build import exact_value
from contracts.model import Methodology
from macros.interval_calculators import paired_widget, planner_widget, success_interval_widget
from macros.markup import esc, exact_text
from macros.widgets import (
    SiteLike,
    decimal_field,
    results_table,
    script_json,
    whole_field,
    widget_section,
)
from scoring.constants import SCORE_SCALE

#: The id of the inlined data; methodology.js reads the element with this id.
DATA_ID = "methodology-data"

#: What the composite calculator shows first: a reader's typical question ("37 of 50 runs,
#: 2.4 s and 3 cents"), an example input, not a value of the methodology.
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


def methodology_data(snapshot: Methodology) -> dict[str, Any]:
    """What the page inlines: the versions and every constant, as ``methodology.json`` has them.

    ``arithmetic`` holds two precisions of Python's ``decimal`` that the outcome score's
    square root goes through (``scoring.formulas.outcome.combine``): they are not constants of the
    methodology, but the script must round where Python rounds to return the same float.
    """
    from scoring.formulas.composite import NO_COMPLETED_RUN, unrecorded_reason
    from scoring.formulas.outcome import (
        ABSENT_READING,  # how a reason writes a reading not taken
        SQRT_CONTEXT,  # the precision combine() takes its root at
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
            "sqrt_digits": SQRT_CONTEXT.prec,
            "decimal_digits": decimal.DefaultContext.prec,
        },
        "absent_reading": ABSENT_READING,
        # The composite's reasons for a null score, the counts left as fields to fill.
        "composite_reasons": {
            "no_completed_run": NO_COMPLETED_RUN,
            "unrecorded": unrecorded_reason(
                "{what}",
                "{unrecorded}",  # type: ignore[arg-type]
                "{completed_runs}",  # type: ignore[arg-type]
            ),
        },
    }


def data_tag(site: SiteLike) -> str:
    """The inlined methodology data (one per page that has a calculator)."""
    data = script_json(methodology_data(site.snapshot))
    return f'\n<script type="application/json" id="{DATA_ID}">{data}</script>\n'


def _composite(_site: SiteLike) -> str:
    s = COMPOSITE_START
    fields = "".join(
        [
            whole_field("composite", "completed_runs", "Completed runs", s["completed_runs"]),
            whole_field("composite", "successes", "Successful runs", s["successes"]),
            decimal_field(
                "composite", "mean_latency_ms", "Mean latency (ms)", s["mean_latency_ms"]
            ),
            decimal_field(
                "composite", "mean_cost_usd", "Mean cost per run (USD)", s["mean_cost_usd"]
            ),
        ]
    )
    results = results_table(
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
    return widget_section("composite", "Try your own numbers", form)


def _repeatability(site: SiteLike) -> str:
    levels = site.snapshot.constant("repeatability.k_levels").value
    middle_k = levels[len(levels) // 2]
    s = PASS_K_START
    fields = "".join(
        [
            whole_field("repeatability", "n", "Recorded outcomes n", s["n"]),
            whole_field("repeatability", "c", "Passed outcomes c", s["c"]),
            whole_field("repeatability", "k", "Attempts k", middle_k),
        ]
    )
    results = results_table(
        "repeatability", [("pass_k", "pass^k (as published)"), ("exact", "Exact value")]
    )
    form = f'<form class="calc-form" novalidate>{fields}</form>{results}'
    return widget_section("repeatability", "pass^k of one task", form, {"levels": levels})


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
    scale = esc(exact_text(Fraction(SCORE_SCALE)))
    form = (
        f'<form class="calc-form calc-weights" novalidate><fieldset><legend>Viewer weights '
        f"(relative; axes at zero are left out)</legend>{sliders}</fieldset>"
        '<button type="button" class="md-button calc-reset">Default weights</button></form>'
        '<p class="calc-command">The same profiles, from the command line, on '
        f'<a href="{esc(site.rel("downloads/" + samples.RUNS_FILE))}">the sample run log</a>: '
        '<code data-out="command"></code></p>'
        '<div class="calc-chart" aria-hidden="true"></div>'
        '<div class="calc-scroll"><table class="calc-ranking" aria-live="polite"><caption>'
        f"Sample agents ranked by profile; every score on the 0–{scale} scale</caption>"
        "<thead></thead><tbody></tbody></table></div>"
    )
    data = {"agents": sample_agents(), "runs_file": samples.RUNS_FILE}
    return widget_section("radar", "Weigh the axes yourself", form, data)


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
            decimal_field("outcome", key, label, "")
            for key, label in (
                ("checklist", "Checklist"),
                ("outcome_validity", "Outcome validity"),
                ("recoverable", "Recoverable safety"),
            )
        )
        + "</fieldset></form>"
    )
    results = results_table(
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
    return widget_section(
        "outcome", "Edit a record", editor + results + lines, {"examples": examples}
    )


WIDGETS: dict[str, Callable[[SiteLike], str]] = {
    "composite": _composite,
    "radar": _radar,
    "outcome": _outcome,
    "repeatability": _repeatability,
    "planner": planner_widget,
    "success-interval": success_interval_widget,
    "paired": paired_widget,
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
