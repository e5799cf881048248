"""The uncertainty of the scores: the runs-needed table, the reference
corpus's leaderboard with its intervals and ``rank (UB)``, the coverage measured on simulated
agents, and the plot of interval width against the number of tasks.

The tables read the live snapshot (the worked example ``uncertainty.runs_needed`` and the
scoreboard), so the drift check catches every number they show; the coverage comes from the
committed file of ``contracts/coverage/``; the plot samples ``scoring.uncertainty`` now.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
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
        "task; computed now by <code>scoring.planning.runs_needed</code>"
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


# --- coverage ------------------------------------------------------------------------------------

COVERAGE_PATH = Path(__file__).resolve().parents[2] / "contracts" / "coverage" / "coverage.json"
COVERAGE_COMMAND = "python contracts/coverage/simulate.py --update"

#: How each score of the coverage file is headed on the page.
SCORE_NAMES = {
    "success_rate": "success rate",
    "composite": "composite",
    "correctness": "correctness",
}
#: How each paired difference is headed on the page.
PAIR_NAMES = {"composite": "d composite", "success_rate": "d success rate"}


def coverage_data(path: Path | None = None) -> dict[str, Any]:
    """The committed coverage file (``contracts/coverage/coverage.json``), written by the
    seeded simulation ``contracts/coverage/simulate.py`` (its docstring gives the shape)."""
    where = COVERAGE_PATH if path is None else path
    try:
        data: dict[str, Any] = json.loads(where.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise RuntimeError(
            f"{where}: the committed coverage figures cannot be read ({error}); "
            f"regenerate them: {COVERAGE_COMMAND}"
        ) from None
    return data


def _exact(number: float) -> Fraction:
    return Fraction(repr(number))


def share(value: float | None) -> str:
    """A share as a percentage to one decimal: ``0.9431`` → ``94.3%``.

    >>> share(0.9431), share(1.0), share(None)
    ('94.3%', '100.0%', '—')
    """
    if value is None:
        return "—"
    return f"{plain(_exact(value) * 100, 1)}%"


def points(value: float) -> str:
    """A Monte Carlo error in percentage points, one decimal: ``0.0034`` → ``0.3``.

    >>> points(0.0034), points(0.00349)
    ('0.3', '0.3')
    """
    return plain(_exact(value) * 100, 1)


def band(figure: dict[str, Any]) -> str:
    """The target a figure is held to: ``≥ 93%``, or ``93–98%`` with an upper one.

    >>> band({"low": 0.93, "high": None}), band({"low": 0.91, "high": 0.995})
    ('≥ 93%', '91–99.5%')
    """
    low = exact_text(_exact(figure["low"]) * 100)
    if figure["high"] is None:
        return f"≥ {low}%"
    return f"{low}–{exact_text(_exact(figure['high']) * 100)}%"


def figure_text(figure: dict[str, Any]) -> str:
    """A coverage with its Monte Carlo error, its target and whether it meets it:
    ``95.1% ± 0.3 (93–98%) ✓``; ✗ when it does not.

    >>> figure_text({"coverage": 0.9512, "mc_error": 0.0034, "low": 0.93, "high": 0.98,
    ...              "meets": True})
    '95.1% ± 0.3 (93–98%) ✓'
    """
    mark = "✓" if figure["meets"] else "✗"
    return f"{share(figure['coverage'])} ± {points(figure['mc_error'])} ({band(figure)}) {mark}"


def population_text(row: dict[str, Any]) -> str:
    """``ρ = 0.30``, or ``bimodal``."""
    if row["population"] == "bimodal":
        return "bimodal"
    return f"ρ = {plain(_exact(row['population']), 2)}"


def _cell_heads(row: dict[str, Any]) -> list[str]:
    return [
        str(row["tasks"]),
        plain(_exact(row["mean_success"]), 2),
        esc(population_text(row)),
        "stress" if row["stress"] else "published",
    ]


def _scenario(row: dict[str, Any]) -> str:
    kind = "stress cell" if row["stress"] else "published cell"
    return (
        f"T = {row['tasks']}, mean success rate {plain(_exact(row['mean_success']), 2)}, "
        f"{population_text(row)} ({kind})"
    )


def coverage_table(site: Site, path: Path | None = None) -> str:
    """Coverage per cell (rows) and score (columns), each with its Monte Carlo error, its
    target and ✓/✗; then the paired differences of the pairs of agents with the mean width
    of the paired interval against the unpaired one. From the committed file."""
    data = coverage_data(path)
    scores = data["scores"]
    heads = ["T", "mean success", "tasks", "cell"] + [esc(SCORE_NAMES.get(s, s)) for s in scores]
    rows = [
        _cell_heads(row) + [esc(figure_text(row["scores"][s])) for s in scores]
        for row in data["cells"]
    ]
    level = esc(percent(_exact(data["level"])))
    caption = (
        f"Share of {level} intervals containing the truth, {plain(data['replications'])} "
        "simulated agents per cell, ± one Monte Carlo error in percentage points; in "
        "brackets the target the cell is held to; ✓ met, ✗ not met"
    )
    scores_table = table(
        "coverage:table", heads, rows, numeric=tuple(range(len(heads))), caption=caption
    )
    pair_heads = ["T", "mean success", "tasks", "cell"]
    for name in PAIR_NAMES.values():
        pair_heads += [esc(name), esc(f"{name}: width paired / unpaired")]
    pair_rows = []
    for row in data["cells"]:
        cells = _cell_heads(row)
        for name in PAIR_NAMES:
            pair = row["pairs"][name]
            places = C.SCORE_DECIMALS if name == "composite" else C.FRACTION_DECIMALS
            widths = (
                f"{plain(_exact(pair['mean_width_paired']), places)} / "
                f"{plain(_exact(pair['mean_width_unpaired']), places)}"
            )
            cells += [esc(figure_text(pair)), esc(widths)]
        pair_rows.append(cells)
    pair_caption = (
        f"Pairs of agents on shared tasks: coverage of the {level} interval of the "
        "difference A − B, ± its Monte Carlo error, the target and ✓/✗; the mean width of "
        "the paired interval against the unpaired one (√(Var_A + Var_B)), on the same tasks"
    )
    pairs_table = table(
        "coverage:pairs",
        pair_heads,
        pair_rows,
        numeric=tuple(range(len(pair_heads))),
        caption=pair_caption,
    )
    return scores_table + pairs_table


def coverage_misses(data: dict[str, Any]) -> list[tuple[dict[str, Any], str]]:
    """Every figure that does not meet its target: the cell, and the score with its figure
    as the table prints it."""
    found = []
    for row in data["cells"]:
        named = [(SCORE_NAMES.get(s, s), row["scores"][s]) for s in data["scores"]]
        named += [(PAIR_NAMES[p], row["pairs"][p]) for p in PAIR_NAMES]
        for name, figure in named:
            if not figure["meets"]:
                found.append((row, f"{name} {figure_text(figure)}"))
    return found


def coverage_notes(site: Site, path: Path | None = None) -> str:
    """In words: the grid, the targets, how precise each figure is, the bimodal
    population, the null intervals, every figure that misses its target (with the figure),
    and how much narrower the paired interval is."""
    data = coverage_data(path)
    targets, agents = data["targets"], data["replications"]
    level = _exact(data["level"])
    noise = (float(level * (1 - level)) / agents) ** 0.5  # at a coverage of the level itself
    spread = _exact(data["bimodal_spread"])
    nulls = sum(
        figure["null_intervals"]
        for row in data["cells"]
        for figure in [*row["scores"].values(), *row["pairs"].values()]
    )
    parts = [
        f"<p>The targets: at least {esc(percent(_exact(targets['published_low'])))} in "
        f"every published cell, at least {esc(percent(_exact(targets['stress_low'])))} in "
        f"the stress cells; at most {esc(percent(_exact(targets['high'])))} where both "
        f"θ·n* and (1 − θ)·n* are at least {esc(plain(_exact(targets['upper_rule_min']), 2))} "
        "(θ the truth, n* = θ(1 − θ)/Var(m̂); below that an interval can only miss by "
        "lying wholly above the truth), and at most "
        f"{esc(percent(_exact(targets['homogeneous_pass_k_high'])))} for pass^k with k ≥ 2 on "
        "homogeneous tasks (ρ = 0). The composite is held to the upper target where its "
        "success rate is; the paired differences to the lower one. Each figure is "
        f"estimated from {esc(plain(agents))} simulated agents, so it carries a Monte Carlo "
        f"error of about ±{esc(points(noise))} percentage points at {esc(share(float(level)))} "
        f"(shown beside each figure; seed <code>{esc(data['seed'])}</code>; the figures are "
        f"regenerated by <code>{esc(COVERAGE_COMMAND)}</code>).</p>",
        f"<p>Bimodal tasks: each task is easy or hard with probability 1/2, its success "
        f"rate μ + δ or μ − δ with δ = {esc(plain(spread, 1))}·min(μ, 1 − μ), so the mean is "
        "exactly μ (at μ = 0.5 the rates are 0.1 and 0.9). Pairs: agent B's rate on each "
        f"task is {esc(plain(_exact(data['pair_shrink']), 1))} times agent A's, so the two "
        "share the tasks' difficulty.</p>",
        "<p>No interval was null.</p>"
        if nulls == 0
        else f"<p>Null intervals: {esc(plain(nulls))} in all.</p>",
    ]
    misses = coverage_misses(data)
    if misses:
        by_cell: dict[str, list[str]] = {}
        for row, named in misses:
            by_cell.setdefault(_scenario(row), []).append(named)
        items = "".join(
            f"<li>{esc(where)}: {esc('; '.join(names))}</li>" for where, names in by_cell.items()
        )
        parts.append(f"<p>Not meeting the target:</p><ul>{items}</ul>")
    else:
        parts.append("<p>Every figure of every cell meets its target.</p>")
    ratios = [
        row["pairs"]["composite"]["mean_width_paired"]
        / row["pairs"]["composite"]["mean_width_unpaired"]
        for row in data["cells"]
        if row["population"] != 0
    ]
    if ratios:
        parts.append(
            "<p>Where tasks differ in difficulty (ρ > 0, bimodal), the paired interval of the "
            f"composite difference is {esc(share(min(ratios)))} to {esc(share(max(ratios)))} "
            "as wide as the unpaired one; on homogeneous tasks the two agree.</p>"
        )
    return block("coverage:notes", "".join(parts))


# --- the plot --------------------------------------------------------------------------------

#: The plot repeats the worked example's tasks up to this many times: a drawing range, not a
#: value of the methodology.
_WIDTH_REPEATS = 10


def width_plot(site: Site) -> str:
    """Width of the success-rate interval against the number of tasks: the worked
    example's cohort repeated (runs correlated within a task) beside as many independent
    runs with the same success rate (each run its own task)."""
    from scoring.rates import success_interval, success_rate_interval

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
    "coverage_table": coverage_table,
    "coverage_notes": coverage_notes,
    "paired_tasks_table": paired_tasks_table,
    "paired_table": paired_table,
}
