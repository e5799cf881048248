"""The coverage of the intervals, measured on simulated agents: the map of every cell and
figure with its Monte Carlo error (each figure's target on demand, the whole file published
beside the pages as JSON and CSV), and the notes that say in words what the grid, the
targets and the misses are. Everything comes from the committed file of
``contracts/coverage/`` (written by ``contracts/coverage/simulate.py``, whose ``--check``
proves it is what the code gives).
"""

from __future__ import annotations

import csv
import functools
import io
import json
import math
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import scoring.constants as C  # noqa: N812 - the module of constants, named as in contracts
from contracts.source import REPO_ROOT
from macros.layout import DOWNLOADS
from macros.markup import block, esc, exact_text, percent, plain, value

if TYPE_CHECKING:
    from macros.site import Site

COVERAGE_PATH = REPO_ROOT / "contracts" / "coverage" / "coverage.json"
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


#: Where the committed coverage file is published beside the pages (byte for byte), and
#: the same figures one line a figure, for a spreadsheet.
COVERAGE_JSON = "coverage.json"
COVERAGE_CSV = "coverage.csv"
#: The columns of :data:`COVERAGE_CSV`.
CSV_FIELDS = (
    "tasks",
    "mean_success",
    "population",
    "cell",
    "figure",
    "truth",
    "coverage",
    "mc_error",
    "target_low",
    "target_high",
    "meets",
    "null_intervals",
    "mean_width",
    "mean_width_paired",
    "mean_width_unpaired",
)


def _figures(data: dict[str, Any]) -> list[tuple[str, str, str]]:
    """Every figure of a cell, in the file's order: its kind in the file (``scores`` or
    ``pairs``), its key there, and its name on the page."""
    return [("scores", s, SCORE_NAMES.get(s, s)) for s in data["scores"]] + [
        ("pairs", p, name) for p, name in PAIR_NAMES.items()
    ]


def coverage_csv(data: dict[str, Any]) -> str:
    """The coverage file one line a figure (a cell's score or paired difference), with the
    cell, the truth, the coverage and its Monte Carlo error, the target and whether it is
    met, the null intervals and the mean width(s); numbers as the file writes them."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_FIELDS)
    for row in data["cells"]:
        for kind, key, name in _figures(data):
            figure = row[kind][key]
            writer.writerow(
                [
                    row["tasks"],
                    row["mean_success"],
                    row["population"],
                    "stress" if row["stress"] else "published",
                    name,
                    figure["truth"],
                    figure["coverage"],
                    figure["mc_error"],
                    figure["low"],
                    "" if figure["high"] is None else figure["high"],
                    "true" if figure["meets"] else "false",
                    figure["null_intervals"],
                    figure.get("mean_width", ""),
                    figure.get("mean_width_paired", ""),
                    figure.get("mean_width_unpaired", ""),
                ]
            )
    return out.getvalue()


def coverage_files(path: Path | None = None) -> dict[str, bytes]:
    """The files the site publishes beside the pages: the committed file as it is, and its
    figures as CSV (:func:`coverage_csv`)."""
    where = COVERAGE_PATH if path is None else path
    return {
        COVERAGE_JSON: where.read_bytes(),
        COVERAGE_CSV: coverage_csv(coverage_data(path)).encode("utf-8"),
    }


def _state(figure: dict[str, Any]) -> str:
    """``met``; else ``low`` (under its target) or ``high`` (over its ceiling)."""
    if figure["meets"]:
        return "met"
    return "low" if figure["coverage"] < figure["low"] else "high"


#: The mark a figure off its target carries beside its shade (not told by colour alone).
STATE_MARKS = {"met": "", "low": "\u25be", "high": "\u25b4"}
STATE_WORDS = {"met": "meets its target", "low": "below its target", "high": "above its ceiling"}


def _detail(data: dict[str, Any], row: dict[str, Any], kind: str, key: str, name: str) -> str:
    """What a figure of the map says in full: the cell, the figure with its Monte Carlo
    error, its target and ✓/✗, and for a paired difference the mean widths."""
    figure = row[kind][key]
    text = f"{name}, {_scenario(row)}: {figure_text(figure)}"
    if kind == "pairs":
        places = C.SCORE_DECIMALS if key == "composite" else C.FRACTION_DECIMALS
        paired = plain(_exact(figure["mean_width_paired"]), places)
        unpaired = plain(_exact(figure["mean_width_unpaired"]), places)
        text += f"; mean width {paired} paired, {unpaired} unpaired"
    return text


def _group_name(data: dict[str, Any], tasks: int, stress: bool) -> str:
    target = data["targets"]["stress_low" if stress else "published_low"]
    kind = "stress cells" if stress else "published cells"
    return f"{tasks} tasks · {kind}, held to ≥ {percent(_exact(target))}"


def coverage_map(site: Site, path: Path | None = None) -> str:
    """The coverage of every cell (rows, grouped by number of tasks and kind of cell) and
    figure (columns: each score, then each paired difference) as one compact table: the
    coverage in %, its Monte Carlo error under it, the cell shaded and marked where it is
    off its target. Each figure's full text (target, ✓/✗, the paired widths) is its title,
    shown on a tap too (``docs/javascripts/coverage.js``); the whole file is published
    beside the pages (:func:`coverage_files`) and linked under the table."""
    data = coverage_data(path)
    figures = _figures(data)
    heads = "".join(f'<th scope="col"><span>{esc(name)}</span></th>' for _, _, name in figures)
    groups: dict[tuple[bool, int], list[dict[str, Any]]] = {}
    for row in data["cells"]:
        groups.setdefault((row["stress"], row["tasks"]), []).append(row)
    body = []
    for (stress, tasks), rows in groups.items():
        lines = [
            f'<tr class="cov-group"><th colspan="{len(figures) + 1}" scope="colgroup">'
            f"{esc(_group_name(data, tasks, stress))}</th></tr>"
        ]
        for row in rows:
            population = population_text(row).replace(" = ", " ")
            label = f"{plain(_exact(row['mean_success']), 2)} {population}"
            cells = []
            for kind, key, name in figures:
                figure = row[kind][key]
                state = _state(figure)
                mark = STATE_MARKS[state]
                cells.append(
                    f'<td class="cov-{state}" tabindex="0" '
                    f'title="{esc(_detail(data, row, kind, key, name))}" '
                    f'data-figure="{esc(figure_text(figure))}">'
                    f"{esc(plain(_exact(figure['coverage']) * 100, 1))}"
                    f'<span class="cov-mc">±{esc(points(figure["mc_error"]))}{mark}</span></td>'
                )
            lines.append(f'<tr><th scope="row">{esc(label)}</th>{"".join(cells)}</tr>')
        body.append(f"<tbody>{''.join(lines)}</tbody>")
    level = esc(percent(_exact(data["level"])))
    caption = (
        f"Coverage of the {level} intervals, in %, in each cell (its mean success rate and "
        "population of tasks), "
        f"each from {esc(plain(data['replications']))} simulated agents, ± its Monte Carlo "
        f"error in percentage points; {STATE_MARKS['low']} below its target, "
        f"{STATE_MARKS['high']} above its ceiling. Tap or point at a figure for its target."
    )
    legend = "".join(
        f'<span class="cov-{state}">{esc(mark or "✓")} {esc(STATE_WORDS[state])}</span>'
        for state, mark in STATE_MARKS.items()
    )
    links = (
        f'<a href="{esc(site.rel(f"{DOWNLOADS}/{COVERAGE_CSV}"))}"><code>{COVERAGE_CSV}</code>'
        "</a> (one line a figure: the cell, the truth, the coverage, its Monte Carlo error, "
        "the target, the mean widths) and "
        f'<a href="{esc(site.rel(f"{DOWNLOADS}/{COVERAGE_JSON}"))}"><code>{COVERAGE_JSON}'
        "</code></a> (the committed file)"
    )
    inner = (
        f'<table class="coverage-map" data-fixed-layout><caption>{caption}</caption>'
        f'<thead><tr><th scope="col">cell</th>{heads}</tr></thead>{"".join(body)}</table>'
        f'<p class="cov-legend">{legend}</p>'
        '<p class="cov-detail" aria-live="polite" hidden></p>'
        f'<p class="cov-files">Every figure in full: {links}.</p>'
    )
    return block("coverage:map", inner, extra_class="coverage")


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


#: The scores whose interval is Clopper–Pearson's (order k = 1), and the runs it is read
#: from in a cell: the radar's window, or every run of the cohort.
_CLOPPER_PEARSON_SCORES = ("success_rate", "correctness", "pass^1")


def exact_coverage(theta: Fraction, runs: int) -> Fraction:
    """The coverage of the Clopper–Pearson interval the report prints
    (:func:`scoring.intervals.rates.clopper_pearson_interval`, rounded outwards) on ``runs``
    independent runs with the size known exactly: ``Σ_x C(n, x)·θ^x·(1 − θ)^(n − x)`` over
    the success counts ``x`` whose interval at ``n* = n`` holds ``θ``. No variance is
    estimated and no t correction applied: the method at its most favourable.

    >>> float(exact_coverage(Fraction(1, 2), 10)) > 0.95
    True
    """
    total = Fraction(0)
    for x, (low, high) in enumerate(_count_intervals(runs)):
        if low <= theta <= high:
            total += math.comb(runs, x) * theta**x * (1 - theta) ** (runs - x)
    return total


@functools.cache
def _count_intervals(runs: int) -> tuple[tuple[Fraction, Fraction], ...]:
    """The printed Clopper–Pearson interval of each success count ``x`` of ``runs`` (they
    do not depend on the truth, so a scan over the truth reads them once a build)."""
    from scoring.intervals.rates import clopper_pearson_interval

    found = []
    for x in range(runs + 1):
        interval = clopper_pearson_interval(Fraction(x, runs), float(runs))
        found.append((Fraction(interval.low), Fraction(interval.high)))
    return tuple(found)


def runs_read(data: dict[str, Any], row: dict[str, Any], score: str) -> tuple[int, str]:
    """How many runs a score's interval reads in a cell, and in words."""
    if score == "correctness":
        return C.RADAR_WINDOW_RUNS, "the radar's window"
    low, high = data["runs_per_task"]
    runs = Fraction(row["tasks"] * (low + high), 2)  # K uniform on low..high: its mean
    return int(runs), f"{row['tasks']} tasks of {plain(Fraction(low + high, 2), 1)} runs"


@functools.cache
def exact_coverage_cached(theta: Fraction, runs: int) -> Fraction:
    """:func:`exact_coverage`, once a build for each case."""
    return exact_coverage(theta, runs)


def ceiling_note(data: dict[str, Any]) -> str:
    """Why a Clopper–Pearson score's figure above its ceiling is the method's: its coverage
    on independent runs of known size, at the cell's truth, computed now by the function
    the report uses, is above the ceiling too; empty when no figure above its ceiling is
    such a case (one the method alone does not explain is left a miss)."""
    cases: dict[tuple[Fraction, int], tuple[str, Fraction]] = {}
    scores: list[str] = []
    for row in data["cells"]:
        for score in _CLOPPER_PEARSON_SCORES:
            figure = row["scores"][score]
            if figure["high"] is None or figure["coverage"] <= figure["high"]:
                continue
            theta = _exact(row["mean_success"])
            runs, words = runs_read(data, row, score)
            exact = exact_coverage_cached(theta, runs)
            if exact <= _exact(figure["high"]):
                continue  # the method alone stays under the ceiling: a miss, not explained
            cases.setdefault((theta, runs), (words, exact))
            if score not in scores:
                scores.append(score)
    if not cases:
        return ""
    said = [
        f"{share(float(exact))} at θ = {plain(theta, 2)} with n = {runs} ({words})"
        for (theta, runs), (words, exact) in sorted(cases.items())
    ]
    names = [SCORE_NAMES.get(score, score) for score in _CLOPPER_PEARSON_SCORES if score in scores]
    subject = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
    return (
        f"<p>Why the {esc(subject)} go{'es' if len(names) == 1 else ''} above the ceiling: the "
        "Clopper–Pearson interval, the page's rule for a rate of order 1, is conservative "
        "near 0 and 1 "
        "even on the data it was made for. On independent runs of known size (no variance "
        "estimated, no t correction), the interval the report prints covers "
        f"{esc('; '.join(said))}. The figures above the ceiling are the method's, not the "
        "simulation's.</p>"
    )


#: Steps of the expected count θ·n scanned for Clopper–Pearson's reach: twentieths.
_COUNT_STEPS = 20


def clopper_pearson_reach(site: Site, side: str, path: Path | None = None) -> str:
    """The highest coverage Clopper–Pearson has on independent runs of a known number n
    (the radar window's), computed now by the function the report uses, scanning the rarer
    expected count θ·n by twentieths: from the ceiling's bound to twice it (``side="above"``:
    both counts at least the bound), or below the bound (``"below"``). As a percentage to
    one decimal, with where it is reached in the title."""
    bound = _exact(coverage_data(path)["targets"]["upper_rule_min"])
    runs = C.RADAR_WINDOW_RUNS
    lowest = int(bound * _COUNT_STEPS)
    steps = {
        "above": range(lowest, 2 * lowest + 1),
        "below": range(1, lowest),
    }.get(side)
    if steps is None:
        raise ValueError(f"side must be above or below the ceiling's bound, not {side!r}")
    reach, count = max(
        (
            exact_coverage_cached(Fraction(step, _COUNT_STEPS) / runs, runs),
            Fraction(step, _COUNT_STEPS),
        )
        for step in steps
    )
    title = f"at θ·n = {plain(count, 2)}, n = {runs}"
    return value(f"coverage:clopper-pearson-{side}", share(float(reach)), title=title)


def coverage_target(site: Site, name: str, path: Path | None = None) -> str:
    """One target of the committed figures (``targets`` of the coverage file, which
    ``simulate.py --check`` proves are those of ``contracts/coverage/targets.py``): a
    share as a percentage, the ceiling's bound as a number."""
    target = _exact(coverage_data(path)["targets"][name])
    text = plain(target) if name == "upper_rule_min" else percent(target)
    return value(f"coverage:target:{name}", text, title=f"contracts/coverage/targets.py: {name}")


def noise_at_ceiling(site: Site, path: Path | None = None) -> str:
    """The Monte Carlo error of a figure at the ceiling, in percentage points."""
    data = coverage_data(path)
    high = _exact(data["targets"]["high"])
    noise = (float(high * (1 - high)) / data["replications"]) ** 0.5
    return value("coverage:noise-at-ceiling", f"±{points(noise)}")


def measured_note(site: Site) -> str:
    """Which version's constants the figures were measured on (``contracts/coverage/
    measured.json``, written by a release); when the live methodology has changed a
    constant they depend on, that they are the earlier version's figures, naming what
    changed, until the simulation measures them again."""
    from contracts.coverage_record import SIMULATE_COMMAND, coverage_state

    state = coverage_state(site.snapshot)
    version, live = esc(state.version), esc(state.live_version)
    if not state.changed:
        return f"<p>Measured on the constants of methodology {version}.</p>"
    names = ", ".join(f"<code>{esc(name)}</code>" for name in state.changed)
    return (
        f'<p class="coverage-measured"><strong>Measured on the constants of methodology '
        f"{version}, not on those of {live}</strong>: {live} changed {names}, which these "
        f"figures depend on. They are {version}'s figures until <code>"
        f"{esc(SIMULATE_COMMAND)}</code> measures them again.</p>"
    )


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
        measured_note(site),
        f"<p>The targets: at least {esc(percent(_exact(targets['published_low'])))} in "
        f"every published cell, at least {esc(percent(_exact(targets['stress_low'])))} in "
        f"the stress cells; at most {esc(percent(_exact(targets['high'])))} where both "
        f"θ·n* and (1 − θ)·n* are at least {esc(plain(_exact(targets['upper_rule_min'])))} "
        "(θ the truth, n* = θ(1 − θ)/Var(m̂) the effective size, Var(m̂) the variance of the "
        "estimate over the simulated agents), and no ceiling below that (why: below the "
        "tables). The composite is held to the ceiling where its success rate is; the "
        "paired differences to the lower target only. Each figure is "
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
        parts.append(ceiling_note(data))
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


#: The macros this module renders (see ``macros.MACROS_BY_MODULE``).
MACROS: dict[str, Callable[..., str]] = {
    "coverage_map": coverage_map,
    "coverage_notes": coverage_notes,
    "clopper_pearson_reach": clopper_pearson_reach,
    "coverage_target": coverage_target,
    "noise_at_ceiling": noise_at_ceiling,
}
