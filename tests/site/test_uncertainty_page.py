"""The page "How sure is a score?" (``docs/uncertainty.md``) shows what the code computes.

On the built site: every registered uncertainty formula is on the page; the runs-needed
table equals the page's formula computed here independently (``statistics.NormalDist``
and exact fractions, the page's example 354 among its cells); the leaderboard of the
reference corpus equals ``scoring report --format json`` on each corpus file (rank (UB),
composite, interval); the width plot's data are the live functions' values; the coverage
map is the committed coverage file, which the site publishes as it is and as CSV; each
score's page links to it; and the page says what the intervals do not cover. Each check is
a function returning its problems, shown to report a spoiled copy of the page; a scratch
copy with another power builds a table that follows it.
"""

from __future__ import annotations

import io
import json
import math
import re
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path
from statistics import NormalDist
from typing import Any

import pytest
from serving import copy_project
from support import Node, Page, mkdocs_build, parse

import scoring.constants as C  # noqa: N812 - the module of constants
from contracts.scoreboard import CORPUS_DIR, corpus_paths
from contracts.source import REPO_ROOT
from scoring.cli import run as scoring_run
from scoring.examples import EXAMPLES_BY_NAME, runs_needed_key
from scoring.registry import FORMULAS

PAGE = "uncertainty.html"
GRID = EXAMPLES_BY_NAME["uncertainty.runs_needed"].inputs
#: docs/uncertainty.md: "p_A = 0.7, δ = 0.1, ρ = 0 gives 354".
DECISIONS_EXAMPLE = ("0.7", "0.10", "0", 354)


def page_of(site: Path, name: str = PAGE) -> Page:
    return parse(site / name, site)


def marked(page: Page, key: str) -> Node:
    found = [n for n in page.article.walk() if n.attrs.get("data-mv") == key]
    assert len(found) == 1, f"{page.name}: {len(found)} elements marked {key!r}"
    return found[0]


def table_rows(node: Node) -> list[list[str]]:
    """The body rows of the first table below ``node``, each cell's text stripped."""
    body = node.find_all("tbody")[0]
    return [[" ".join(td.text().split()) for td in tr.find_all("td")] for tr in body.find_all("tr")]


# --- independent implementations -------------------------------------------------------------


def runs_needed_by_the_decisions(p_a: str, delta: str, runs_per_task: int, rho: str) -> int:
    """N = ⌈(z + z_power)² (p_A(1 − p_A) + p_B(1 − p_B)) / δ² (1 + (K − 1)ρ)⌉, straight from
    docs/uncertainty.md, with z and z_power from the level and the power here."""
    normal = NormalDist()
    z = Fraction(normal.inv_cdf(float((1 + C.INTERVAL_LEVEL) / 2)))
    z_power = Fraction(normal.inv_cdf(float(C.INTERVAL_POWER)))
    a, d, r = Fraction(p_a), Fraction(delta), Fraction(rho)
    b = a - d
    n = (z + z_power) ** 2 * (a * (1 - a) + b * (1 - b)) / d**2 * (1 + (runs_per_task - 1) * r)
    return math.ceil(n)


def runs_needed_problems(page: Page) -> list[str]:
    """Every cell of the runs-needed table that is not the page's formula."""
    rows = table_rows(marked(page, "example:uncertainty.runs_needed/table"))
    problems = []
    cells = [(p_a, delta) for p_a in GRID["p_a"] for delta in GRID["delta"]]
    if len(rows) != len(cells):
        return [f"{page.name}: {len(rows)} rows in the runs-needed table, expected {len(cells)}"]
    for (p_a, delta), row in zip(cells, rows, strict=True):
        if row[:2] != [p_a, delta]:
            problems.append(f"row {row}: expected p_A {p_a}, δ {delta}")
        for rho, shown in zip(GRID["rho"], row[3:], strict=True):
            want = runs_needed_by_the_decisions(p_a, delta, GRID["runs_per_task"], rho)
            if shown.replace(",", "") != str(want):
                problems.append(f"p_A {p_a}, δ {delta}, ρ {rho}: page {shown}, decisions {want}")
    return problems


def report_of(path: Path) -> dict[str, Any]:
    out, err = io.StringIO(), io.StringIO()
    assert scoring_run(["report", str(path), "--format", "json"], stdout=out, stderr=err) == 0
    data: dict[str, Any] = json.loads(out.getvalue())
    return data


def _bounds(interval: dict[str, float] | None) -> str:
    if interval is None:
        return "—"
    return f"[{interval['low']:.{C.SCORE_DECIMALS}f}, {interval['high']:.{C.SCORE_DECIMALS}f}]"


def leaderboard_problems(page: Page) -> list[str]:
    """Every row of the corpus leaderboard that differs from the report of its file."""
    problems = []
    for path in corpus_paths(CORPUS_DIR):
        name = path.relative_to(CORPUS_DIR.parent.parent).as_posix()
        rows = table_rows(marked(page, f"leaderboard:{name}"))
        agents = report_of(path)["agents"]
        scores = [a["composite"]["score"] for a in agents]
        want = []
        for agent, score in zip(agents, scores, strict=True):
            rank = None if score is None else 1 + sum(s is not None and s > score for s in scores)
            upper = agent.get("rank_upper_bound")
            assert agent["rank"] == rank, agent["agent_id"]  # the report ranks the same way
            rank_text = "—" if rank is None else f"{rank} (UB {'—' if upper is None else upper})"
            composite = "null" if score is None else f"{score:.{C.SCORE_DECIMALS}f}"
            want.append(
                [
                    rank_text,
                    agent["agent_id"],
                    composite,
                    _bounds(agent["composite"].get("interval")),
                ]
            )
        if rows != want:
            wrong = [f"page {r} != report {w}" for r, w in zip(rows, want, strict=False) if r != w]
            problems.append(
                f"{name}: " + ("; ".join(wrong) or f"{len(rows)} rows, {len(want)} agents")
            )
    return problems


# --- the checks on the built site ---------------------------------------------------------------


def test_every_uncertainty_formula_is_on_the_page(site: Path) -> None:
    page = page_of(site)
    shown = {
        n.attrs["data-mv"].removeprefix("formula:")
        for n in page.article.find_all("figure", "formula")
    }
    registered = {name for name in FORMULAS if name.startswith("uncertainty.")}
    assert registered, "no uncertainty formula is registered"
    assert registered <= shown, f"not on {PAGE}: {sorted(registered - shown)}"


def test_the_runs_needed_table_is_the_decisions_formula(site: Path) -> None:
    page = page_of(site)
    assert runs_needed_problems(page) == []
    p_a, delta, rho, want = DECISIONS_EXAMPLE
    assert runs_needed_by_the_decisions(p_a, delta, 1, rho) == want  # ρ = 0: K plays no part
    result = EXAMPLES_BY_NAME["uncertainty.runs_needed"].result()
    assert result[runs_needed_key(p_a, delta, rho)] == want


def test_a_changed_cell_is_reported(site: Path, tmp_path: Path) -> None:
    html = (site / PAGE).read_text(encoding="utf-8")
    p_a, delta, rho, want = DECISIONS_EXAMPLE
    row = re.search(
        rf"<td[^>]*>{re.escape(p_a)}</td><td[^>]*>{re.escape(delta)}</td>.*?</tr>", html
    )
    assert row, "the page's row is not in the table"
    spoiled_row = row.group(0).replace(f">{want}<", f">{want + 1}<", 1)
    assert spoiled_row != row.group(0)
    (tmp_path / PAGE).write_text(html.replace(row.group(0), spoiled_row), encoding="utf-8")
    problems = runs_needed_problems(parse(tmp_path / PAGE, tmp_path))
    assert problems == [f"p_A {p_a}, δ {delta}, ρ {rho}: page {want + 1}, decisions {want}"]


def test_the_leaderboard_is_the_report_of_each_corpus_file(site: Path) -> None:
    assert leaderboard_problems(page_of(site)) == []


def test_a_changed_interval_in_the_leaderboard_is_reported(site: Path, tmp_path: Path) -> None:
    html = (site / PAGE).read_text(encoding="utf-8")
    start = html.index('data-mv="leaderboard:')
    cell = re.compile(r"<td[^>]*>(\d+\.\d\d)</td>")
    found = cell.search(html, start)
    assert found, "no composite in the leaderboard"
    changed = html[: found.start(1)] + "0.01" + html[found.end(1) :]
    (tmp_path / PAGE).write_text(changed, encoding="utf-8")
    problems = leaderboard_problems(parse(tmp_path / PAGE, tmp_path))
    assert len(problems) == 1
    assert "0.01" in problems[0]


def test_the_width_plot_is_sampled_from_the_functions(site: Path) -> None:
    from scoring.intervals.rates import success_interval, success_rate_interval

    figure = marked(page_of(site), "plot:uncertainty.width")
    rows = table_rows(figure)
    tasks = [
        (runs, c) for runs, c, _, _ in EXAMPLES_BY_NAME["uncertainty.composite"].inputs["tasks"]
    ]
    checked = 0
    for size, clustered, independent in rows:
        if clustered == "–":
            continue
        repeats = int(size) // len(tasks)
        cohort = tasks * repeats
        runs, successes = sum(n for n, _ in cohort), sum(c for _, c in cohort)
        a, b = success_rate_interval(cohort), success_interval(runs, successes)
        assert a is not None
        assert b is not None
        assert float(clustered) == pytest.approx(float(a.high - a.low), abs=1e-4), size
        assert float(independent) == pytest.approx(float(b.high - b.low), abs=1e-4), size
        checked += 1
    assert checked >= 2, rows


def test_each_score_page_links_to_the_page(site: Path) -> None:
    for name in ("composite.html", "radar.html", "repeatability.html"):
        page = page_of(site, name)
        links = [a.attrs.get("href", "") for a in page.article.find_all("a")]
        assert any(h.split("#")[0] == PAGE for h in links), f"{name} does not link to {PAGE}"


def test_the_page_says_what_the_intervals_do_not_cover(site: Path) -> None:
    article = page_of(site).article
    headings = [h for h in article.find_all("h2") if "do not cover" in h.text()]
    assert len(headings) == 1
    text = " ".join(article.text().split())
    section = text[text.index("What the intervals do not cover") :]
    for subject in ("task set", "prompts", "model version behind the same endpoint"):
        assert subject in section, subject


# --- the table follows the code ----------------------------------------------------------------

POWER_LINE = re.compile(r'(INTERVAL_POWER: Annotated\[.*?\] = Decimal\(")([\d.]+)("\))', re.S)


@pytest.mark.slow
def test_the_table_follows_a_changed_power(tmp_path: Path) -> None:
    """With a power of 0.90 in a scratch copy, every cell is the formula at 0.90."""
    project = copy_project(tmp_path / "project")
    constants = project / "scoring" / "constants.py"
    text, count = POWER_LINE.subn(r"\g<1>0.90\g<3>", constants.read_text(encoding="utf-8"))
    assert count == 1, "INTERVAL_POWER not found in scoring/constants.py"
    constants.write_text(text, encoding="utf-8")
    result = mkdocs_build(project, project / "site")
    assert result.returncode == 0, result.stdout + result.stderr
    page = parse(project / "site" / PAGE, project / "site")
    rows = table_rows(marked(page, "example:uncertainty.runs_needed/table"))
    p_a, delta, rho, at_080 = DECISIONS_EXAMPLE
    row = next(r for r in rows if r[:2] == [p_a, delta])
    shown = int(row[3 + GRID["rho"].index(rho)].replace(",", ""))
    normal = NormalDist()
    z = Fraction(normal.inv_cdf(float((1 + C.INTERVAL_LEVEL) / 2)))
    z_power = Fraction(normal.inv_cdf(0.90))
    b = Fraction(p_a) - Fraction(delta)
    spread = Fraction(p_a) * (1 - Fraction(p_a)) + b * (1 - b)
    assert shown == math.ceil((z + z_power) ** 2 * spread / Fraction(delta) ** 2)
    assert shown != at_080


def test_the_glossary_explains_the_new_words(site: Path) -> None:
    """interval, cluster, coverage and rank (UB) are defined once and shown where they occur."""
    from support import ROOT

    glossary = (ROOT / "docs" / "includes" / "glossary.md").read_text(encoding="utf-8")
    defined = dict(re.findall(r"^\*\[([^\]]+)\]: (.+)$", glossary, flags=re.M))
    for word in ("interval", "cluster", "coverage", "UB"):
        assert len(defined.get(word, "").split()) >= 8, f"no glossary entry for {word!r}"
    titles = {n.text(): n.attrs.get("title", "") for n in page_of(site).article.find_all("abbr")}
    for word in ("interval", "cluster", "UB"):
        assert titles.get(word) == defined[word], word


# --- coverage ---------------------------------------------------------------------------------

COVERAGE = REPO_ROOT / "contracts" / "coverage" / "coverage.json"


def _percent(value: float, places: str = "0.1") -> str:
    """A share as the page prints it: a percentage to one decimal, halves up."""
    shown = (Decimal(repr(value)) * 100).quantize(Decimal(places), rounding=ROUND_HALF_UP)
    return f"{shown}%"


def _target(figure: dict[str, Any]) -> str:
    """The band as the page prints it: ``≥ 93%`` or ``93–98%`` (trailing zeros dropped)."""

    def pct(v: float) -> str:
        return f"{(Decimal(repr(v)) * 100).normalize():f}"

    if figure["high"] is None:
        return f"≥ {pct(figure['low'])}%"
    return f"{pct(figure['low'])}–{pct(figure['high'])}%"


def _figure(figure: dict[str, Any]) -> str:
    """``95.1% ± 0.3 (93–98%) ✓``, computed here from the file's numbers."""
    error = _percent(figure["mc_error"])[:-1]
    mark = "✓" if figure["meets"] else "✗"
    return f"{_percent(figure['coverage'])} ± {error} ({_target(figure)}) {mark}"


def _label(cell: dict[str, Any]) -> str:
    """A row's head: the mean success rate and the population, ``0.20 ρ 0.30``."""
    population = "bimodal" if cell["population"] == "bimodal" else f"ρ {cell['population']:.2f}"
    return f"{cell['mean_success']:.2f} {population}"


def _group(cell: dict[str, Any]) -> str:
    kind = "stress" if cell["stress"] else "published"
    return f"{cell['tasks']} tasks · {kind} cells"


def _shown(figure: dict[str, Any]) -> str:
    """What a figure's cell of the map shows: ``97.1±0.3``, marked ▾ below its target, ▴
    above its ceiling."""
    mark = "" if figure["meets"] else ("▾" if figure["coverage"] < figure["low"] else "▴")
    return f"{_percent(figure['coverage'])[:-1]}±{_percent(figure['mc_error'])[:-1]}{mark}"


def _widths(pair: dict[str, Any], places: int) -> str:
    paired, unpaired = (
        Decimal(repr(pair[k])).quantize(Decimal(1).scaleb(-places), ROUND_HALF_UP)
        for k in ("mean_width_paired", "mean_width_unpaired")
    )
    return f"mean width {paired} paired, {unpaired} unpaired"


def _map_rows(page: Page) -> list[tuple[str, str, list[Node]]]:
    """Each row of the coverage map: its group's head, its own head and its figures."""
    rows, group = [], ""
    for body in marked(page, "coverage:map").find_all("tbody"):
        for tr in body.find_all("tr"):
            head = " ".join(tr.find_all("th")[0].text().split())
            if "cov-group" in tr.classes:
                group = head
            else:
                rows.append((group, head, tr.find_all("td")))
    return rows


def coverage_problems(page: Page, data: dict[str, Any]) -> list[str]:
    """Figures of the coverage map that differ from the committed file (what a cell shows,
    its full text with the target and, for a pair, the widths), and figures that miss their
    target which the notes do not state."""
    problems = []
    rows = _map_rows(page)
    if len(rows) != len(data["cells"]):
        problems.append(f"{len(rows)} rows in the coverage map, the file has {len(data['cells'])}")
    pair_places = {"composite": C.SCORE_DECIMALS, "success_rate": C.FRACTION_DECIMALS}
    for cell, (group, label, cells) in zip(data["cells"], rows, strict=False):
        if not group.startswith(_group(cell)) or label != _label(cell):
            problems.append(f"map row {group!r} {label!r} is not the file's {_group(cell)}")
        figures = [(cell["scores"][s], _figure(cell["scores"][s])) for s in data["scores"]]
        for name, places in pair_places.items():
            pair = cell["pairs"][name]
            figures.append((pair, f"{_figure(pair)}; {_widths(pair, places)}"))
        if len(cells) != len(figures):
            problems.append(f"{label}: {len(cells)} figures, the file has {len(figures)}")
        for at, ((figure, full), td) in enumerate(zip(figures, cells, strict=False)):
            shown = "".join(td.text().split())
            title = td.attrs.get("title", "")
            if shown != _shown(figure) or not title.endswith(full):
                problems.append(
                    f"{group}, {label}, figure {at + 1}: {shown!r}, {title!r}: not the file's "
                    f"{_shown(figure)!r}, {full!r}"
                )
    notes = " ".join(marked(page, "coverage:notes").text().split())
    names = {"success_rate": "success rate"}
    for cell in data["cells"]:
        named = [(names.get(s, s), cell["scores"][s]) for s in data["scores"]]
        named += [("d composite", cell["pairs"]["composite"])]
        named += [("d success rate", cell["pairs"]["success_rate"])]
        for name, figure in named:
            if not figure["meets"] and f"{name} {_figure(figure)}" not in notes:
                problems.append(
                    f"T = {cell['tasks']}: {name} {_figure(figure)} is not in the notes"
                )
    return problems


def test_the_coverage_on_the_page_is_the_committed_file(site: Path) -> None:
    data = json.loads(COVERAGE.read_text(encoding="utf-8"))
    assert coverage_problems(page_of(site), data) == []
    notes = " ".join(marked(page_of(site), "coverage:notes").text().split())
    missed = any(
        not f["meets"] for c in data["cells"] for f in [*c["scores"].values(), *c["pairs"].values()]
    )
    assert ("Not meeting the target" in notes) is missed
    assert "μ + δ or μ − δ" in notes  # the bimodal population is said


def test_a_poor_figure_missing_from_the_page_is_reported(site: Path) -> None:
    """The page is checked against a file in which one more figure misses its target."""
    data = json.loads(COVERAGE.read_text(encoding="utf-8"))
    cell = next(c for c in data["cells"] if c["scores"]["composite"]["meets"])
    cell["scores"]["composite"].update(coverage=0.5, meets=False)
    problems = coverage_problems(page_of(site), data)
    assert any("file" in p for p in problems), problems
    assert any("composite 50.0%" in p and "not in the notes" in p for p in problems), problems


#: The columns of the published CSV, one line a figure.
CSV_COLUMNS = (
    "tasks,mean_success,population,cell,figure,truth,coverage,mc_error,target_low,"
    "target_high,meets,null_intervals,mean_width,mean_width_paired,mean_width_unpaired"
)


def test_the_coverage_is_published_as_committed_and_as_csv(site: Path) -> None:
    """``downloads/coverage.json`` is the committed file, byte for byte; ``coverage.csv``
    holds each of its figures on a line, every number as the file writes it; the map links
    to both."""
    import csv

    downloads = site / "downloads"
    assert (downloads / "coverage.json").read_bytes() == COVERAGE.read_bytes()
    data = json.loads(COVERAGE.read_text(encoding="utf-8"))
    lines = (downloads / "coverage.csv").read_text(encoding="utf-8").splitlines()
    assert lines[0] == CSV_COLUMNS
    rows = list(csv.DictReader(lines))
    names = {"success_rate": "success rate"}
    want = []
    for cell in data["cells"]:
        figures = [(names.get(s, s), cell["scores"][s]) for s in data["scores"]]
        figures += [
            (f"d {names.get(p, p)}", cell["pairs"][p]) for p in ("composite", "success_rate")
        ]
        for name, figure in figures:
            want.append(
                (str(cell["tasks"]), name, repr(figure["coverage"]), repr(figure["mc_error"]))
            )
    got = [(r["tasks"], r["figure"], r["coverage"], r["mc_error"]) for r in rows]
    assert got == want
    links = {a.attrs.get("href") for a in marked(page_of(site), "coverage:map").find_all("a")}
    assert {"downloads/coverage.csv", "downloads/coverage.json"} <= links


def test_the_coverage_glossary_word_is_shown(site: Path) -> None:
    titles = {n.text() for n in page_of(site).article.find_all("abbr")}
    assert "coverage" in titles
