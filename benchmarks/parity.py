"""The site as MkDocs and as Zensical build it, compared: run each generator on a copy of the
project, and list every way two built sites differ in what the methodology writes.

What is compared, and what is left out on purpose:

- **Pages**: the same HTML pages, and in each the same article (``<article
  class="md-content__inner md-typeset">``) once whitespace is normalised and the theme's
  own markup inside it (:data:`THEME_ONLY`) is removed. Formulas (``<math>``), plots (the
  SVG of each ``plot:`` block) and the calculators' inline data are also compared one by
  one, so that a difference names what it is.
- **Published files**: every other file of the site, byte for byte (the files the macros
  publish and the static files of ``docs/``), except what each generator's theme and search
  write for itself (:data:`GENERATOR_OUTPUT`), which differs by design.
- **Error markers**: no file of either site shows a macro error.

Each check returns a list of problems (empty: the same); ``tests/site/test_generator_parity.py``
runs them on the two real builds and on copies spoiled on purpose, and
``benchmarks/bench_generators.py`` prints what they find. Only the standard library: the
benchmarks run without pytest.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from processes import run_captured

#: The two generators, as their commands are named.
GENERATORS = ("mkdocs", "zensical")

#: Files each generator writes for its own theme or search, with why they differ.
GENERATOR_OUTPUT: dict[str, str] = {
    "assets/": "the theme's scripts, stylesheets and images: a bundle of each generator's own",
    "search/": "MkDocs' search index (search_index.json, and the offline plugin's .js)",
    "search.json": "Zensical's search index (another format: items, not docs)",
    "search.js": "Zensical's search index as a script, for file:// copies",
    "sitemap.xml": "each generator's sitemap (dates and formatting of its own)",
    "sitemap.xml.gz": "MkDocs' compressed sitemap (Zensical writes none)",
    "downloads/methodology-site-*": (
        "the zip of the whole site and its SHA-256, written by the MkDocs hook"
        " docs/hooks/site_zip.py (after Zensical, by running it): it holds each theme's own files"
    ),
}

#: Markup the theme puts inside the article, removed before articles are compared.
THEME_ONLY: dict[str, str] = {
    '<a id="__skip" tabindex="-1"></a>': "Zensical's theme puts its skip-link target there",
}

ARTICLE = re.compile(
    r'<article class="md-content__inner md-typeset">(?P<body>.*?)</article>', re.DOTALL
)
FORMULA = re.compile(r"<math\b.*?</math>", re.DOTALL)
PLOT = re.compile(r'data-mv="(?P<name>plot:[^"]+)".*?(?P<svg><svg\b.*?</svg>)', re.DOTALL)
DATA = re.compile(
    r'<script type="application/json"(?P<attrs>[^>]*)>(?P<json>.*?)</script>', re.DOTALL
)
BETWEEN_TAGS = re.compile(r">\s+<")
SPACES = re.compile(r"\s+")


# --- Building ---------------------------------------------------------------------------------


#: Runs ``python ARGS`` in a folder with an environment: its status and output as text.
Python = Callable[[Sequence[str], Path, Mapping[str, str]], subprocess.CompletedProcess[str]]


def new_interpreter(
    args: Sequence[str], cwd: Path, env: Mapping[str, str]
) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` in a new interpreter (``sys.executable``)."""
    return run_captured([sys.executable, *args], cwd=cwd, env=env, timeout=600)


def build(
    project: Path,
    generator: str,
    dest: Path | None = None,
    *,
    strict: bool = True,
    python: Python = new_interpreter,
) -> subprocess.CompletedProcess[str]:
    """``mkdocs build`` (into ``dest``) or ``zensical build`` (into ``project/site``: it
    builds only inside the project) of ``project``, run from the project root by ``python``
    (the tests fork it from a process that has imported the generators already)."""
    if generator == "mkdocs":
        args = ["-m", "mkdocs", "build", "-d", str(dest or project / "site")]
    elif generator == "zensical":
        args = ["-m", "zensical", "build"]
    else:
        raise ValueError(f"generator must be one of {GENERATORS}, not {generator!r}")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "NO_COLOR": "1"}
    done = python([*args, *(["--strict"] if strict else [])], project, env)
    if generator == "zensical" and done.returncode == 0:
        # Zensical runs no hook: the zip of the site is the documented step after its build.
        zipped = python(["docs/hooks/site_zip.py", "site"], project, env)
        if zipped.returncode != 0:
            return zipped
    return done


# --- Reading ----------------------------------------------------------------------------------


def generator_output(relative: str) -> bool:
    """Whether ``relative`` (a path in a built site) is written by the generator itself."""
    return any(
        relative == key
        or (key.endswith("/") and relative.startswith(key))
        or (key.endswith("*") and relative.startswith(key[:-1]))
        for key in GENERATOR_OUTPUT
    )


def pages(site: Path) -> set[str]:
    """The site's pages: its HTML files outside the theme's folders and the published sources."""
    return {
        p.relative_to(site).as_posix()
        for p in site.rglob("*.html")
        if not generator_output(p.relative_to(site).as_posix())
        and not p.relative_to(site).as_posix().startswith("source/")
    }


def published(site: Path) -> dict[str, bytes]:
    """Every other file of the site (what the macros publish, the static files of docs/),
    by path."""
    html_pages = pages(site)
    found = {}
    for path in site.rglob("*"):
        relative = path.relative_to(site).as_posix()
        if path.is_file() and not generator_output(relative) and relative not in html_pages:
            found[relative] = path.read_bytes()
    return found


def article(html: str) -> str:
    """A page's article, whitespace normalised and the theme's own markup removed."""
    match = ARTICLE.search(html)
    if match is None:
        return ""
    body = match.group("body")
    for markup in THEME_ONLY:
        body = body.replace(markup, "")
    return SPACES.sub(" ", BETWEEN_TAGS.sub("><", body)).strip()


def formulas(body: str) -> list[str]:
    return FORMULA.findall(body)


def plots(body: str) -> list[tuple[str, str]]:
    return [(m.group("name"), m.group("svg")) for m in PLOT.finditer(body)]


def calculator_data(body: str) -> list[tuple[str, str]]:
    return [(m.group("attrs").strip(), m.group("json")) for m in DATA.finditer(body)]


# --- Comparing --------------------------------------------------------------------------------


def _parts(
    page: str, what: str, reader: Callable[[str], list], mkdocs: str, zensical: str
) -> list[str]:
    ours, theirs = reader(mkdocs), reader(zensical)
    if len(ours) != len(theirs):
        return [f"{page}: {len(ours)} {what} under mkdocs, {len(theirs)} under zensical"]
    return [
        f"{page}: {what} #{n + 1} differs"
        for n, (a, b) in enumerate(zip(ours, theirs, strict=True))
        if a != b
    ]


def compare_pages(mkdocs: Path, zensical: Path) -> list[str]:
    """Pages that one site lacks, or whose article, formulas, plots or calculator data
    differ."""
    ours, theirs = pages(mkdocs), pages(zensical)
    problems = [f"{p}: only built by mkdocs" for p in sorted(ours - theirs)]
    problems += [f"{p}: only built by zensical" for p in sorted(theirs - ours)]
    for page in sorted(ours & theirs):
        a = article((mkdocs / page).read_text(encoding="utf-8"))
        b = article((zensical / page).read_text(encoding="utf-8"))
        if not a or not b:
            problems.append(f"{page}: no article under {'mkdocs' if not a else 'zensical'}")
            continue
        if a == b:
            continue
        found = []
        for what, reader in (
            ("formulas", formulas),
            ("plots", plots),
            ("calculator data", calculator_data),
        ):
            found += _parts(page, what, reader, a, b)
        at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), len(a))
        problems += found or [
            f"{page}: the article differs from character {at}: "
            f"mkdocs {a[at : at + 60]!r}, zensical {b[at : at + 60]!r}"
        ]
    return problems


def compare_published(mkdocs: Path, zensical: Path) -> list[str]:
    """Published files that one site lacks, or whose bytes differ."""
    ours, theirs = published(mkdocs), published(zensical)
    problems = [f"{p}: only published by mkdocs" for p in sorted(ours.keys() - theirs.keys())]
    problems += [f"{p}: only published by zensical" for p in sorted(theirs.keys() - ours.keys())]
    problems += [
        f"{p}: differs" for p in sorted(ours.keys() & theirs.keys()) if ours[p] != theirs[p]
    ]
    return problems


def error_markers(site: Path, name: str, markers: Iterable[str]) -> list[str]:
    """Files of ``site`` (built by ``name``) that show one of ``markers``, the texts only a
    macro error puts on a page (``tests/site/support.py`` lists them)."""
    problems = []
    for path in sorted(site.rglob("*.html")):
        text = path.read_text(encoding="utf-8")
        problems += [
            f"{name} {path.relative_to(site).as_posix()}: shows {marker!r}"
            for marker in markers
            if marker in text
        ]
    return problems


def compare(mkdocs: Path, zensical: Path, markers: Iterable[str] = ()) -> list[str]:
    """Every difference between the two builds that matters, and every error marker."""
    markers = tuple(markers)
    return (
        compare_pages(mkdocs, zensical)
        + compare_published(mkdocs, zensical)
        + error_markers(mkdocs, "mkdocs", markers)
        + error_markers(zensical, "zensical", markers)
    )
