"""The uncertainty of the scores: the runs-needed table, the reference
corpus's leaderboard with its intervals and ``rank (UB)``, the paired comparison's worked
example, and the plot of interval width against the number of tasks (the coverage measured
on simulated agents is :mod:`macros.coverage`'s).

The tables read the live snapshot (the worked example ``uncertainty.runs_needed`` and the
scoreboard), so the drift check catches every number they show; the plot samples
``scoring.intervals.rates`` now.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import TYPE_CHECKING, Any

import scoring.constants as C  # noqa: N812 - the module of constants, named as in contracts
from macros import plots
from macros.markup import block, esc, exact_text, percent, plain, score_unit, table, value

if TYPE_CHECKING:
    from macros.site import Site

#: The worked examples these macros read (inputs in scoring/examples.py).
RUNS_NEEDED_EXAMPLE = "uncertainty.runs_needed"
COHORT_EXAMPLE = "uncertainty.composite"


def bounds_text(interval: Any, places: int) -> str:
    """``[66.90, 75.51]``, or ``—`` without an interval."""
    if interval is None:
        return "—"
    low, high = (Fraction(repr(interval[k])) for k in ("low", "high"))
    return f"[{plain(low, places)}, {plain(high, places)}]"


def rank_text(rank: int | None, upper: int | None) -> str:
    """``3 (UB 1)`` as the report's table prints a rank and its upper bound.

    >>> rank_text(3, 1), rank_text(2, None), rank_text(None, None)
    ('3 (UB 1)', '2 (UB —)', '—')
    """
    if rank is None:
        return "—"
    return f"{rank} (UB {'—' if upper is None else upper})"


# --- the runs-needed table --------------------------------------------------------------------


def runs_needed_table(site: Site) -> str:
    """Runs per agent for each p_A and δ (rows) and ρ (columns), from the worked example."""
    from scoring.examples import runs_needed_key

    example = site.snapshot.example(RUNS_NEEDED_EXAMPLE)
    grid, result = example.inputs, example.result
    per_task = grid["runs_per_task"]
    heads = ["p<sub>A</sub>", "δ", "p<sub>B</sub>"] + [f"ρ = {esc(rho)}" for rho in grid["rho"]]
    rows = []
    for p_a in grid["p_a"]:
        for delta in grid["delta"]:
            p_b = Fraction(p_a) - Fraction(delta)
            cells = [esc(p_a), esc(delta), esc(exact_text(p_b))]
            cells += [plain(result[runs_needed_key(p_a, delta, rho)]) for rho in grid["rho"]]
            rows.append(cells)
    level, power = C.INTERVAL_LEVEL, C.INTERVAL_POWER
    caption = (
        f"Runs per agent to detect p<sub>A</sub> − p<sub>B</sub> = δ, two-sided at "
        f"{esc(percent(level))} with {esc(percent(power))} power, K = {per_task} runs per "
        "task; computed now by <code>scoring.comparisons.planning.runs_needed</code>"
    )
    numeric = tuple(range(len(heads)))
    return table(
        f"example:{RUNS_NEEDED_EXAMPLE}/table", heads, rows, numeric=numeric, caption=caption
    )


# --- the worked example, step by step ------------------------------------------------------------

#: The steps of the worked example ``uncertainty.composite``: result key, what it is, and the
#: decimals the report publishes it at (``None``: an intermediate value, not published). The
#: symbols are the gradient formula's (uncertainty.composite_gradient): λ̄, ū, p̂.
COHORT_STEPS: tuple[tuple[str, str, str | None], ...] = (
    ("completed_runs", "completed runs n", None),
    ("tasks", "distinct tasks T", None),
    ("success_rate", "success rate p̂", "fraction"),
    ("variance_success_rate", "clustered variance V(p̂)", None),
    ("n_eff", "effective size n_eff", None),
    ("q", "t factor q (T − 1 degrees of freedom)", None),
    ("n_star", "Clopper–Pearson size n*", None),
    ("success_rate_interval.low", "success rate, low bound p⁻", "fraction"),
    ("success_rate_interval.high", "success rate, high bound p⁺", "fraction"),
    ("mean_latency_ms", "mean latency λ\u0304 (ms)", None),
    ("mean_cost_usd", "mean cost ū (USD)", None),
    ("score", "composite S", "score"),
    ("score_unfloored", "weighted formula S⁰ (before the floor)", None),
    ("gradient.p", "∂S/∂p", None),
    ("gradient.latency_ms", "∂S/∂λ (per ms)", None),
    ("gradient.cost_usd", "∂S/∂u (per USD)", None),
    ("sigma.pp", "Σ of the success rate", None),
    ("sigma.latency", "Σ of the mean latency", None),
    ("sigma.cost", "Σ of the mean cost", None),
    ("move.p.low", "success move down D_p⁻", None),
    ("move.p.high", "success move up D_p⁺", None),
    ("move.latency.low", "latency move down D_L⁻", None),
    ("move.latency.high", "latency move up D_L⁺", None),
    ("move.cost.low", "cost move down D_C⁻", None),
    ("move.cost.high", "cost move up D_C⁺", None),
    ("r.p_latency", "correlation r(p, L)", None),
    ("r.p_cost", "correlation r(p, C)", None),
    ("r.latency_cost", "correlation r(L, C)", None),
    ("interval.low", "composite, low bound", "score"),
    ("interval.high", "composite, high bound", "score"),
)


def cohort_table(site: Site) -> str:
    """The worked example's steps: each exact, and as published where the report prints it."""
    example = site.snapshot.example(COHORT_EXAMPLE)
    rows = []
    for key, label, fmt in COHORT_STEPS:
        data = example.result[key]
        exact, _ = site.show(data, "exact", key)
        published = "—" if fmt is None else site.show(data, fmt, key)[0]
        rows.append([esc(label), f"<code>{esc(key)}</code>", esc(exact), esc(published)])
    return table(
        f"example:{COHORT_EXAMPLE}/table",
        ["Step", "Result", "Exact value", "As the report prints it"],
        rows,
        numeric=(2, 3),
        caption=esc(example.title),
    )


# --- the leaderboard of the reference corpus ----------------------------------------------------


def interval_leaderboard(site: Site) -> str:
    """Each corpus file's agents as the snapshot's scoreboard records them: rank (UB), the
    composite and its interval."""
    boards = site.snapshot.scoreboard or []
    if not boards:
        return block("leaderboard:none", "<p>This snapshot records no reference corpus.</p>")
    places = C.SCORE_DECIMALS
    parts = []
    for board in boards:
        rows = []
        for agent in board.agents:
            interval = None if agent.interval is None else agent.interval.model_dump()
            composite = (
                "null"
                if agent.composite is None
                else plain(Fraction(repr(agent.composite)), places)
            )
            rows.append(
                [
                    esc(rank_text(agent.rank, agent.rank_upper_bound)),
                    esc(agent.agent_id),
                    esc(composite),
                    esc(bounds_text(interval, places)),
                ]
            )
        caption = (
            f"<code>{esc(board.path)}</code>, scored by the live code; — : no interval (no "
            f"composite, or runs on fewer than {C.INTERVAL_MIN_TASKS} distinct tasks)"
        )
        parts.append(
            table(
                f"leaderboard:{board.path}",
                ["Rank (UB)", "Agent", f"Composite ({score_unit()})", "Interval"],
                rows,
                numeric=(0, 2, 3),
                caption=caption,
            )
        )
    return "".join(parts)


# --- the plot --------------------------------------------------------------------------------

#: The plot repeats the worked example's tasks up to this many times: a drawing range, not a
#: value of the methodology.
_WIDTH_REPEATS = 10


def width_plot(site: Site) -> str:
    """Width of the success-rate interval against the number of tasks: the worked
    example's cohort repeated (runs correlated within a task) beside as many independent
    runs with the same success rate (each run its own task)."""
    from scoring.intervals.rates import success_interval, success_rate_interval

    example = site.snapshot.example(COHORT_EXAMPLE)
    tasks = [(int(runs), int(c)) for runs, c, _, _ in example.inputs["tasks"]]
    per_task = tasks[0][0]
    last = len(tasks) * _WIDTH_REPEATS

    def width(interval: Any) -> Fraction:
        return Fraction(interval.high) - Fraction(interval.low)

    clustered, independent = [], []
    for repeats in range(1, _WIDTH_REPEATS + 1):
        cohort = tasks * repeats  # the same mix of tasks at every size
        runs = sum(n for n, _ in cohort)
        successes = sum(c for _, c in cohort)
        size = Fraction(len(cohort))
        clustered.append((size, width(success_rate_interval(cohort))))
        independent.append((size, width(success_interval(runs, successes))))
    top = max(w for _, w in clustered)
    high = Fraction(int(top * 10) + 1, 10)
    x = plots.Scale(
        "distinct tasks T",
        Fraction(0),
        Fraction(last),
        [Fraction(0)] + [size for size, _ in clustered],
        lambda v: plain(v, 0),
    )
    y = plots.Scale(
        "width of the success-rate interval",
        Fraction(0),
        high,
        plots.nice_ticks(Fraction(0), high, 5),
        lambda v: plain(v, 2),
    )
    example_width = clustered[0][1]  # the worked example itself
    return plots.line_plot(
        plots.Plot(
            key="uncertainty.width",
            title="Interval width against the number of tasks",
            x=x,
            y=y,
            curves=[
                plots.Curve(f"{per_task} runs per task, clustered by task", clustered),
                plots.Curve("the same runs as independent runs", independent, style="curve alt"),
            ],
            markers=[
                plots.Marker(
                    Fraction(len(tasks)),
                    example_width,
                    f"worked example: {plain(example_width, C.FRACTION_DECIMALS)}",
                )
            ],
            caption=(
                f"The tasks of the worked example, repeated up to {_WIDTH_REPEATS} times, "
                "scored by <code>success_rate_interval</code> (solid), and the same runs and "
                "successes counted as independent runs by <code>success_interval</code> "
                "(dashed). The gap is what the correlation within a task costs."
            ),
        )
    )


def interval_value(site: Site, name: str, key: str, fmt: str = "score") -> str:
    """One interval of a worked example as ``[low, high]``: the results ``KEY.low`` and
    ``KEY.high`` (``low`` and ``high`` when ``key`` is empty), at the score's decimals
    (``fmt="score"``) or a fraction's (``"fraction"``)."""
    result = site.snapshot.example(name).result
    places = {"score": C.SCORE_DECIMALS, "fraction": C.FRACTION_DECIMALS}[fmt]
    prefix = f"{key}." if key else ""
    low, high = result[f"{prefix}low"], result[f"{prefix}high"]
    text = bounds_text(None if low is None else {"low": low, "high": high}, places)
    return value(f"example:{name}/{key or 'interval'}", text, title=f"worked example {name}")


# --- two agents compared on shared tasks (methodology 1.2.0) ------------------------------

PAIRED_EXAMPLE = "uncertainty.paired"


def paired_tasks_table(site: Site) -> str:
    """The paired example's inputs, task by task: each agent's successes of its runs and
    its sums of latency and cost."""
    inputs = site.snapshot.example(PAIRED_EXAMPLE).inputs
    rows = []
    for number, (a, b) in enumerate(zip(inputs["a"], inputs["b"], strict=True), start=1):
        rows.append(
            [
                str(number),
                f"{a[1]} of {a[0]}",
                f"{b[1]} of {b[0]}",
                f"{esc(str(a[2]))} ms, ${esc(str(a[3]))}",
                f"{esc(str(b[2]))} ms, ${esc(str(b[3]))}",
            ]
        )
    return table(
        f"example:{PAIRED_EXAMPLE}/tasks",
        ["Task", "A: successes", "B: successes", "A: Σ latency, Σ cost", "B: Σ latency, Σ cost"],
        rows,
        caption=esc(site.snapshot.example(PAIRED_EXAMPLE).title),
    )


def paired_table(site: Site) -> str:
    """The paired example's results: for the composite and the success rate, the difference
    on the shared tasks, its interval, the paired and unpaired standard errors, the verdict."""
    result = site.snapshot.example(PAIRED_EXAMPLE).result
    rows = []
    for name, label, fmt in (
        ("composite", "composite", "score"),
        ("success_rate", "success rate", "fraction"),
    ):
        places = {"score": C.SCORE_DECIMALS, "fraction": C.FRACTION_DECIMALS}[fmt]
        low, high = result[f"{name}.low"], result[f"{name}.high"]
        interval = None if low is None else {"low": low, "high": high}
        rows.append(
            [
                label,
                esc(site.show(result[f"{name}.difference"], fmt, f"{name}.difference")[0]),
                esc(bounds_text(interval, places)),
                esc(site.show(result[f"{name}.standard_error"], "exact", "se")[0]),
                esc(site.show(result[f"{name}.unpaired_standard_error"], "exact", "se")[0]),
                esc(result[f"{name}.verdict"] or "—"),
            ]
        )
    return table(
        f"example:{PAIRED_EXAMPLE}/table",
        ["Score", "d = A − B", "Interval of d", "√Var(d), paired", "unpaired", "Verdict"],
        rows,
        numeric=(1, 3, 4),
        caption=esc(site.snapshot.example(PAIRED_EXAMPLE).title),
    )


#: The macros this module renders (see ``macros.MACROS_BY_MODULE``).
MACROS: dict[str, Callable[..., str]] = {
    "runs_needed_table": runs_needed_table,
    "interval_leaderboard": interval_leaderboard,
    "interval_value": interval_value,
    "cohort_table": cohort_table,
    "paired_tasks_table": paired_tasks_table,
    "paired_table": paired_table,
}
