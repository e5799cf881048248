"""The uncertainty page's calculators (``docs/javascripts/planner.js`` and the interval
scripts run them): the run planner, the interval of a reader's own independent runs, and
the paired comparison of two agents on shared tasks. Each starts from a worked example of
the snapshot or a typed example input, never from a value of the methodology."""

from __future__ import annotations

from macros.markup import esc
from macros.widgets import SiteLike, decimal_field, results_table, whole_field, widget_section

#: The worked examples the two widgets start from (inputs in scoring/examples.py).
PLANNER_START = "uncertainty.runs_needed"
SUCCESS_INTERVAL_START = "uncertainty.success_interval"


def planner_widget(site: SiteLike) -> str:
    """p_A, δ, K, ρ → runs per agent; starts at the runs-needed table's middle row."""
    grid = site.snapshot.example(PLANNER_START).inputs
    middle = len(grid["p_a"]) // 2
    fields = "".join(
        [
            decimal_field("planner", "p_a", "Success rate of agent A, p_A", grid["p_a"][middle]),
            decimal_field(
                "planner", "delta", "Difference to detect, δ", grid["delta"][-1], "p_B = p_A − δ"
            ),
            whole_field("planner", "runs_per_task", "Runs per task, K", grid["runs_per_task"]),
            decimal_field(
                "planner",
                "rho",
                "Within-task correlation, ρ",
                grid["rho"][0],
                f"{grid['rho'][0]}: independent runs",
            ),
        ]
    )
    results = results_table(
        "planner", [("runs", "Runs per agent"), ("tasks", "Tasks per agent at K runs each")]
    )
    form = f'<form class="calc-form" novalidate>{fields}</form>{results}'
    return widget_section("planner", "Plan the runs", form)


def success_interval_widget(site: SiteLike) -> str:
    """Runs and successes (independent runs) → the success rate and its interval."""
    start = site.snapshot.example(SUCCESS_INTERVAL_START).inputs
    fields = "".join(
        [
            whole_field("success-interval", "runs", "Runs (each on its own task)", start["runs"]),
            whole_field("success-interval", "successes", "Successful runs", start["successes"]),
        ]
    )
    results = results_table(
        "success-interval",
        [("success_rate", "Success rate"), ("low", "Low bound"), ("high", "High bound")],
    )
    form = f'<form class="calc-form" novalidate>{fields}</form>{results}'
    return widget_section("success-interval", "The interval of your own runs", form)


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


def paired_widget(_site: SiteLike) -> str:
    """Two agents' per-task results → the paired differences, their intervals, verdicts."""
    start = "\n".join(", ".join(str(cell) for cell in row) for row in PAIRED_START)
    field = _lines_field(
        "paired", "tasks", "Per-task results of agents A and B", start, PAIRED_HINT
    )
    results = results_table(
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
    return widget_section("paired", "Is A really ahead of B?", form)
