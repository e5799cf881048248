"""The coverage of the intervals, measured on simulated agents: the table of every cell
and score with its Monte Carlo error and target, and the notes that say in words what the
grid, the targets and the misses are. Everything comes from the committed file of
``contracts/coverage/`` (written by ``contracts/coverage/simulate.py``, whose ``--check``
proves it is what the code gives).
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

import scoring.constants as C  # noqa: N812 - the module of constants, named as in contracts
from contracts.source import REPO_ROOT
from macros.markup import block, esc, exact_text, percent, plain, table, value

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


#: The scores whose interval is Clopper–Pearson's (order k = 1), and the runs it is read
#: from in a cell: the radar's window, or every run of the cohort.
_CLOPPER_PEARSON_SCORES = ("success_rate", "correctness", "pass^1")


def exact_coverage(theta: Fraction, runs: int) -> Fraction:
    """The coverage of the Clopper–Pearson interval the report prints
    (:func:`scoring.rates.clopper_pearson_interval`, rounded outwards) on ``runs``
    independent runs with the size known exactly: ``Σ_x C(n, x)·θ^x·(1 − θ)^(n − x)`` over
    the success counts ``x`` whose interval at ``n* = n`` holds ``θ``. No variance is
    estimated and no t correction applied: the method at its most favourable.

    >>> float(exact_coverage(Fraction(1, 2), 10)) > 0.95
    True
    """
    from scoring.rates import clopper_pearson_interval

    total = Fraction(0)
    for x in range(runs + 1):
        interval = clopper_pearson_interval(Fraction(x, runs), float(runs))
        if Fraction(interval.low) <= theta <= Fraction(interval.high):
            total += math.comb(runs, x) * theta**x * (1 - theta) ** (runs - x)
    return total


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
    "coverage_table": coverage_table,
    "coverage_notes": coverage_notes,
    "clopper_pearson_reach": clopper_pearson_reach,
    "coverage_target": coverage_target,
    "noise_at_ceiling": noise_at_ceiling,
}
