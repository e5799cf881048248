"""Support for the tests of the built site: build it, parse its pages, and the checks.

Each check returns a list of problems (strings that name the page and what is wrong); an
empty list means the check passed. The tests run the checks on the real site, and on
copies of it spoiled on purpose, to show that each check can fail.
"""

from __future__ import annotations

import importlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import unquote, urlsplit

import parity
import pytest
from forked_python import run_python
from serving import copy_project
from session_folders import inputs_hash, shared_folder

from contracts.source import REPO_ROOT as ROOT

#: Classes that mark macro output (see docs/macros/markup.py).
MARKED_CLASSES = frozenset({"mv", "mv-block", "formula", "plot"})

#: Numerals allowed in prose, each with the reason it is not macro output. Keep it short.
ALLOWED_NUMERALS: dict[str, str] = {
    "gpt-4o": "the name of the model whose τ-bench trials the site ships",
    "p50": "the usual name of the median (50th percentile), not a value of the methodology",
    "SHA-256": "the name of the hash standard the lock records",
    "sha256sum": "the name of the tool that prints a file's SHA-256",
}

#: Phrases that exempt their sentence from the number-word check, each with its reason (a
#: number word there is not a methodology number). Keep it short.
ALLOWED_NUMBER_WORDS: dict[str, str] = {
    "at the same instant": (
        "a tie is two runs that finished at the same instant: the pair defines a tie, it is "
        "not a count the methodology sets"
    ),
    "the two dots are the two runs": "the pair of runs of the trade-off table just above it",
    "Three axes start from a median": (
        "latency, cost and tool efficiency, the sections that follow; a count of headings, "
        "not of a constant"
    ),
}

#: Elements whose own text is one unit of prose for the number-word check.
PROSE_BLOCKS = frozenset(
    "p li h1 h2 h3 h4 h5 h6 td th dt dd figcaption summary caption blockquote".split()  # noqa: SIM905
)

#: Text that only appears when a macro failed or was not rendered.
MACRO_ERROR_TEXT = (
    "Macro Rendering Error",
    "Macro Syntax Error",
    "the live code cannot be loaded",
)

RAW_LATEX = re.compile(r"\\(?:d?frac|begin|end|mathrm|binom|sqrt|left|right|cdot|text)\b|\$\$")
NUMERAL = re.compile(r"[\w.,^+%$-]*\d[\w.,^+%$-]*")
EXTERNAL = re.compile(r"^\s*(?:[a-z][a-z0-9+.-]*:)?//", re.IGNORECASE)
CSS_URL = re.compile(r"""url\(\s*['"]?([^'")\s]+)|@import\s+['"]([^'"]+)""", re.IGNORECASE)
VOID = frozenset(
    "area base br col embed hr img input link meta source track wbr".split()  # noqa: SIM905
)
SKIPPED_TEXT = frozenset({"script", "style"})
#: Where a formula's TeX is shown on purpose (its MathML annotation, the "TeX" disclosure).
TEX_SOURCE = frozenset({"annotation"})
TEX_SOURCE_CLASS = "formula-tex"

#: Numerals a formula may show that no constant holds, each with why. Keep it short: any
#: other <mn> must be the value of a constant or of a worked example.
FORMULA_LITERALS: dict[str, str] = {
    "0": "zero: the floor of a score or a rate, the value of a failed gate",
    "1": "one: a whole (1 − p), the first index, a passed gate",
    "2": "the 2 of (2q − 1)², which maps a pass rate onto [−1, 1]",
    "4": "the 4 of 1 − 4p(1 − p), which makes consistency 0 at p = 1/2",
}


# --- Building ---------------------------------------------------------------------------------


def mkdocs_build(
    project: Path, dest: Path, *, strict: bool = True
) -> subprocess.CompletedProcess[str]:
    """``mkdocs build`` of ``project`` into ``dest`` in a subprocess (its output captured),
    forked from the zygote that has imported MkDocs and the libraries of the live code
    (``tests/forked_python.py``): about a second less of each build's CPU."""
    args = ["-m", "mkdocs", "build", "-f", str(project / "mkdocs.yml")]
    args += ["-d", str(dest)] + (["--strict"] if strict else [])
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return run_python(args, cwd=project, env=env, timeout=600)


def forked(
    args: Sequence[str], cwd: Path, env: Mapping[str, str]
) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` forked from the zygote (``tests/forked_python.py``), as
    :func:`mkdocs_build` runs it: the ``python`` of ``parity.build``."""
    return run_python(args, cwd=cwd, env=env, timeout=600)


def generator_build(
    project: Path, generator: str, dest: Path | None = None, *, strict: bool = True
) -> subprocess.CompletedProcess[str]:
    """``parity.build``, forked (:func:`forked`)."""
    return parity.build(project, generator, dest, strict=strict, python=forked)


_BUILT: dict[str, Path] = {}


def _build_here(dest: Path) -> None:
    result = mkdocs_build(ROOT, dest)
    if result.returncode != 0:
        pytest.fail(f"mkdocs build --strict failed:\n{result.stdout}\n{result.stderr}")


def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built from this repository with ``--strict``, once per test session and
    shared by the xdist workers (``session_folders``); never changed after it is built."""
    if "site" not in _BUILT:
        _BUILT["site"] = shared_folder(tmp_path_factory, "site", _build_here, inputs_hash())
    return _BUILT["site"]


RENDERER = Path(__file__).with_name("rendered_pages.py")


def render_pages(
    project: Path, dest: Path, only: tuple[str, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """The prose of ``project``'s pages (all, or the ``only`` ones, e.g. ``composite.md``)
    rendered through the macros into ``dest``, no site built (``rendered_pages.py``)."""
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    return run_python([str(RENDERER), str(dest), *only], cwd=project, env=env, timeout=600)


def _render_here(dest: Path) -> None:
    result = render_pages(ROOT, dest)
    if result.returncode != 0:
        pytest.fail(f"rendering the pages failed:\n{result.stdout}\n{result.stderr}")


def rendered_pages(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This repository's pages rendered through the macros (``render_pages``), once per
    session for every worker: ``<page>.html`` (the article), ``methodology.json``,
    ``warnings.txt``."""
    if "rendered" not in _BUILT:
        key = inputs_hash()
        _BUILT["rendered"] = shared_folder(tmp_path_factory, "rendered", _render_here, key)
    return _BUILT["rendered"]


#: The pages the spoiled copies that need only a few pages keep (``serving.cut_to_pages``):
#: the macro errors are written into these; every other page is a stub. A cut copy without
#: a spoil builds clean with ``--strict`` under both generators
#: (test_generator_parity.py), so what fails a cut copy's strict build is its spoil.
ERROR_PAGES = ("radar.md", "efficiency.md")

#: The macro errors of :func:`macro_error_builds`, by page, each with the test it is for:
#: an unknown constant and an undefined variable (``on_undefined: strict``:
#: test_checks_fail.py), misspelt names shown in place with the closest names
#: (test_writer_errors.py). They do not interfere: each is an error in place on its page.
MACRO_ERRORS: dict[str, tuple[str, ...]] = {
    "radar.md": (
        '{{ c("composite.no_such_constant") }}',
        'Misspelt: {{ c("composite.wieght.cost") }}, {{ formula("radar.profil") }}.',
    ),
    "efficiency.md": ("{{ no_such_variable }}",),
}


@dataclass(frozen=True)
class MacroErrorBuilds:
    """A copy cut to :data:`ERROR_PAGES` with :data:`MACRO_ERRORS` written in, built by
    ``mkdocs build`` with ``--strict`` and without."""

    folder: Path

    @property
    def project(self) -> Path:
        return self.folder / "project"

    @property
    def site(self) -> Path:
        """The plain build's site."""
        return self.project / "site"

    def result(self, which: str) -> tuple[int, str]:
        """(exit status, stdout and stderr) of the ``strict`` or the ``plain`` build."""
        status, output = (self.folder / f"{which}.txt").read_text(encoding="utf-8").split("\n", 1)
        return int(status), output


def _build_macro_errors(folder: Path) -> None:
    project = copy_project(folder / "project", pages=ERROR_PAGES)
    for name, calls in MACRO_ERRORS.items():
        page = project / "docs" / name
        text = page.read_text(encoding="utf-8")
        page.write_text(text + "".join(f"\n{call}\n" for call in calls), encoding="utf-8")
    for which, dest, strict in (
        ("strict", project / "site-strict", True),
        ("plain", project / "site", False),
    ):
        done = mkdocs_build(project, dest, strict=strict)
        (folder / f"{which}.txt").write_text(
            f"{done.returncode}\n{done.stdout}{done.stderr}", encoding="utf-8"
        )


def macro_error_builds(tmp_path_factory: pytest.TempPathFactory) -> MacroErrorBuilds:
    """The two builds of :class:`MacroErrorBuilds`, made once per session for every worker;
    the tests only read them."""
    if "macro-errors" not in _BUILT:
        key = inputs_hash()
        folder = shared_folder(tmp_path_factory, "macro-errors", _build_macro_errors, key)
        _BUILT["macro-errors"] = folder
    return MacroErrorBuilds(_BUILT["macro-errors"])


# --- Parsing ----------------------------------------------------------------------------------


@dataclass
class Node:
    """An element of a parsed page."""

    tag: str
    attrs: dict[str, str]
    children: list[Node | str] = field(default_factory=list)

    @property
    def classes(self) -> set[str]:
        return set(self.attrs.get("class", "").split())

    def walk(self) -> Iterator[Node]:
        """This element and every element below it, in document order."""
        yield self
        for child in self.children:
            if isinstance(child, Node):
                yield from child.walk()

    def text(self) -> str:
        """All text below this element (script and style left out)."""
        parts: list[str] = []
        for child in self.children:
            if isinstance(child, str):
                parts.append(child)
            elif child.tag not in SKIPPED_TEXT:
                parts.append(child.text())
        return "".join(parts)

    def find_all(self, tag: str | None = None, cls: str | None = None) -> list[Node]:
        return [
            n
            for n in self.walk()
            if (tag is None or n.tag == tag) and (cls is None or cls in n.classes)
        ]


class _Builder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("#document", {})
        self.stack = [self.root]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        node = Node(tag, {k: v or "" for k, v in attrs})
        self.stack[-1].children.append(node)
        if tag not in VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack[-1].children.append(Node(tag, {k: v or "" for k, v in attrs}))

    def handle_endtag(self, tag: str) -> None:
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth].tag == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data: str) -> None:
        self.stack[-1].children.append(data)


@dataclass
class Page:
    """A built HTML page: its path in the site and its parsed tree."""

    path: Path
    name: str
    root: Node

    @property
    def article(self) -> Node:
        """The page's content (without header, navigation and footer)."""
        found = [n for n in self.root.walk() if n.tag == "article"]
        if not found:
            raise AssertionError(f"{self.name}: no <article> in the page")
        return found[0]


def success_weight(text: str | None) -> str | None:
    """The success weight in the text of a published ``methodology.json`` (``None`` for
    no text: the page is not served yet)."""
    if text is None:
        return None
    data = json.loads(text)
    [entry] = [e for e in data["constants"] if e["name"] == "composite.weight.success"]
    return str(entry["value"])


def parse(path: Path, site: Path) -> Page:
    builder = _Builder()
    builder.feed(path.read_text(encoding="utf-8"))
    builder.close()
    return Page(path, path.relative_to(site).as_posix(), builder.root)


def pages(site: Path) -> list[Page]:
    """Every HTML page of the site, sorted by name."""
    return [parse(p, site) for p in sorted(site.rglob("*.html"))]


def methodology_pages(site: Path) -> list[Page]:
    """The pages written by hand (not the theme's 404 page, nor the published source), the
    others not parsed (the source pages are most of the site's bytes)."""
    paths = sorted(site.rglob("*.html"))
    return [parse(p, site) for p in paths if _by_hand(p.relative_to(site).as_posix())]


def written_by_hand(all_pages: list[Page]) -> list[Page]:
    """Of ``all_pages`` (``pages`` of a site), those of :func:`methodology_pages`."""
    return [p for p in all_pages if _by_hand(p.name)]


def _by_hand(name: str) -> bool:
    """Whether the page ``name`` (relative to the site) is written by hand."""
    return name != "404.html" and not name.startswith("source/")


# --- The checks -------------------------------------------------------------------------------


def _prose(node: Node) -> Iterator[str]:
    """Text of ``node`` that no macro wrote: marked elements are skipped whole."""
    for child in node.children:
        if isinstance(child, str):
            yield child
        elif child.tag in SKIPPED_TEXT or child.classes & (MARKED_CLASSES | {"headerlink"}):
            continue
        else:
            yield from _prose(child)


def prose_numerals(page: Page, allowed: dict[str, str] | None = None) -> list[str]:
    """Numerals in the prose of ``page`` that neither a macro wrote nor the allowlist names."""
    allowed = ALLOWED_NUMERALS if allowed is None else allowed
    problems = []
    for text in _prose(page.article):
        cleaned = text
        for phrase in allowed:
            cleaned = cleaned.replace(phrase, " ")
        for match in NUMERAL.finditer(cleaned):
            token = match.group().strip(".,:;")
            context = " ".join(text.split())
            problems.append(f"{page.name}: numeral {token!r} is not macro output: «{context}»")
    return problems


def prose_blocks(node: Node) -> Iterator[str]:
    """The text of each prose block below ``node`` (paragraph, list item, cell, heading), with
    what a macro wrote and inline code kept as opaque ``⟦…⟧`` tokens; code blocks and marked
    blocks are left out. A block nested in another is its own unit."""
    for child in node.children:
        if not isinstance(child, Node) or child.tag in SKIPPED_TEXT | {"pre"}:
            continue
        if child.classes & (MARKED_CLASSES - {"mv"}) or "highlight" in child.classes:
            continue
        if child.tag in PROSE_BLOCKS:
            text = "".join(_inline_text(child))
            if text.strip():
                yield text
        yield from prose_blocks(child)


def _inline_text(node: Node) -> Iterator[str]:
    for child in node.children:
        if isinstance(child, str):
            yield child
        elif (
            child.tag in PROSE_BLOCKS
            or child.tag in SKIPPED_TEXT | {"pre"}
            or child.classes & {"headerlink"}
        ):
            continue
        elif child.classes & MARKED_CLASSES or child.tag == "code":
            yield "⟦" + " ".join(child.text().split()).replace("⟧", "") + "⟧"
        else:
            yield from _inline_text(child)


def site_explainers(site: Path) -> list[Any]:
    """What explains a number word on the built site: its published snapshot and code values."""
    from contracts.check.claims import code_values, explainers
    from contracts.model import Methodology

    data = json.loads((site / "methodology.json").read_text(encoding="utf-8"))
    data.pop("_generated", None)  # the note of the committed file form, not content
    return explainers(Methodology.model_validate(data), code_values())


def number_word_problems(
    page: Page, items: list[Any], allowed: dict[str, str] | None = None
) -> list[str]:
    """Numbers written in words in the prose of ``page`` that no constant, derived value or
    worked example explains (see ``contracts.check.words`` for what counts as a claim)."""
    from contracts.check.claims import check_text

    allowed = ALLOWED_NUMBER_WORDS if allowed is None else allowed
    return [
        problem.replace("⟦", "").replace("⟧", "")
        for block in prose_blocks(page.article)
        for problem in check_text(block, items, page.name, tuple(allowed))
    ]


def used_word_allowlist(all_pages: list[Page], allowed: dict[str, str] | None = None) -> set[str]:
    """Entries of the number-word allowlist that occur in some page's prose."""
    allowed = ALLOWED_NUMBER_WORDS if allowed is None else allowed
    prose = " ".join(" ".join(b.split()) for p in all_pages for b in prose_blocks(p.article))
    prose = prose.replace("⟦", "").replace("⟧", "")
    return {phrase for phrase in allowed if phrase in prose}


def used_allowlist(all_pages: list[Page], allowed: dict[str, str] | None = None) -> set[str]:
    """Allowlist entries that occur in some page's prose."""
    allowed = ALLOWED_NUMERALS if allowed is None else allowed
    prose = " ".join(t for p in all_pages for t in _prose(p.article))
    return {phrase for phrase in allowed if phrase in prose}


def marked_keys(page: Page) -> set[str]:
    return {n.attrs["data-mv"] for n in page.root.walk() if "data-mv" in n.attrs}


def missing_constants(all_pages: list[Page], names: list[str]) -> list[str]:
    """Constants of the snapshot that no page shows through a marked macro value."""
    shown = set()
    for page in all_pages:
        for key in marked_keys(page):
            if key.startswith("constant:"):
                shown.add(key.removeprefix("constant:").split("/", 1)[0])
    return [f"constant {name!r} appears on no page" for name in names if name not in shown]


def template_leftovers(page: Page) -> list[str]:
    """Unrendered macro syntax and macro error text anywhere on the page."""
    text = page.root.text()
    problems = [
        f"{page.name}: leftover {marker!r}: «{_around(text, marker)}»"
        for marker in ("{{", "{%")
        if marker in text
    ]
    problems += [
        f"{page.name}: macro error on the page: «{_around(text, marker)}»"
        for marker in MACRO_ERROR_TEXT
        if marker in text
    ]
    return problems


def _around(text: str, marker: str, width: int = 60) -> str:
    at = text.index(marker)
    return " ".join(text[max(0, at - width) : at + width].split())


def _without_tex_source(node: Node) -> str:
    """Text below ``node``, leaving out where the TeX of a formula is shown on purpose."""
    parts: list[str] = []
    for child in node.children:
        if isinstance(child, str):
            parts.append(child)
        elif child.tag in SKIPPED_TEXT | TEX_SOURCE or TEX_SOURCE_CLASS in child.classes:
            continue
        else:
            parts.append(_without_tex_source(child))
    return "".join(parts)


def formula_problems(page: Page) -> list[str]:
    """Formulas that are not MathML, and raw LaTeX anywhere in the page's text (the TeX a
    formula carries for a reader to copy left out)."""
    problems = []
    for figure in page.root.find_all(cls="formula"):
        if not figure.find_all("math"):
            problems.append(f"{page.name}: a formula without <math>: «{figure.text()[:80]}»")
    text = _without_tex_source(page.article)
    for match in RAW_LATEX.finditer(text):
        problems.append(
            f"{page.name}: raw LaTeX {match.group()!r}: «{_around(text, match.group())}»"
        )
    return problems


def _numeral_forms(value: object) -> Iterator[str]:
    """The ways a number of the snapshot can be written in a formula (``0.40`` as ``0.4``)."""
    if isinstance(value, bool):
        return
    if isinstance(value, int | float):
        yield format(Decimal(str(value)).normalize(), "f")
    elif isinstance(value, str):
        try:
            yield format(Decimal(value).normalize(), "f")
        except InvalidOperation:
            return
    elif isinstance(value, dict):
        for item in value.values():
            yield from _numeral_forms(item)
    elif isinstance(value, list):
        for item in value:
            yield from _numeral_forms(item)


def explained_numerals(site: Path) -> dict[str, str]:
    """Numeral -> what explains it: the values of the constants and worked examples the
    site publishes (``methodology.json``), then the listed literals."""
    data = json.loads((site / "methodology.json").read_text(encoding="utf-8"))
    explained: dict[str, str] = {}
    for example in data["examples"]:
        for form in _numeral_forms([example["inputs"], example["result"]]):
            explained.setdefault(form, f"worked example {example['name']}")
    for constant in data["constants"]:
        for form in _numeral_forms(constant["value"]):
            explained[form] = f"constant {constant['name']}"
    return {**explained, **FORMULA_LITERALS}


def formula_numerals(page: Page, explained: dict[str, str]) -> list[str]:
    """Every ``<mn>`` of the page's MathML that no constant, example or literal explains."""
    problems = []
    for math in page.article.find_all("math"):
        for number in math.find_all("mn"):
            text = number.text().strip()
            if text not in explained:
                context = " ".join(_without_tex_source(math).split())[:100]
                problems.append(f"{page.name}: <mn>{text}</mn> is no constant's: «{context}»")
    return problems


def _asset_references(page: Page) -> Iterator[tuple[str, str]]:
    """(what, URL) of everything a browser loads for the page by itself (not hyperlinks)."""
    for node in page.root.walk():
        attrs = node.attrs
        if "src" in attrs:
            yield f"<{node.tag} src>", attrs["src"]
        if "srcset" in attrs:
            for candidate in attrs["srcset"].split(","):
                yield f"<{node.tag} srcset>", candidate.strip().split(" ")[0]
        if node.tag == "link" and "href" in attrs:
            yield f"<link rel={attrs.get('rel', '')}>", attrs["href"]
        if node.tag == "object" and "data" in attrs:
            yield "<object data>", attrs["data"]
        if node.tag in ("image", "use", "feimage"):
            for key in ("href", "xlink:href"):
                if key in attrs:
                    yield f"<{node.tag} {key}>", attrs[key]
        if "style" in attrs:
            for match in CSS_URL.finditer(attrs["style"]):
                yield f"<{node.tag} style>", match.group(1) or match.group(2)
        if node.tag == "style":
            for match in CSS_URL.finditer(node.text()):
                yield "<style>", match.group(1) or match.group(2)


def external_assets(site: Path, all_pages: list[Page]) -> list[str]:
    """Asset references to another host, in the pages and in the CSS and JS they load."""
    problems = []
    local_files: set[Path] = set()
    for page in all_pages:
        for what, url in _asset_references(page):
            if EXTERNAL.match(url):
                problems.append(f"{page.name}: {what} loads {url}")
                continue
            target = _resolve(site, page, url)
            if target is not None and target.suffix in (".css", ".js"):
                local_files.add(target)
    for path in sorted(local_files):
        if not path.exists():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        for match in CSS_URL.finditer(text):
            url = match.group(1) or match.group(2)
            if EXTERNAL.match(url):
                problems.append(f"{path.relative_to(site)}: url() loads {url}")
    return problems


def _resolve(site: Path, page: Page, url: str) -> Path | None:
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not parts.path:
        return None
    path = unquote(parts.path)
    base = site if path.startswith("/") else page.path.parent
    return (base / path.lstrip("/")).resolve()


def broken_links(site: Path, all_pages: list[Page]) -> list[str]:
    """Relative links and assets that point at no file (or no id) of the site."""
    ids: dict[Path, set[str]] = {
        p.path.resolve(): {n.attrs["id"] for n in p.root.walk() if "id" in n.attrs}
        for p in all_pages
    }
    problems = []
    for page in all_pages:
        for node in page.root.walk():
            for key in ("href", "src"):
                url = node.attrs.get(key)
                if not url or url.startswith(("#", "mailto:", "data:", "javascript:")):
                    continue
                target = _resolve(site, page, url)
                if target is None:
                    continue
                if not target.exists():
                    problems.append(f"{page.name}: {key}={url} points at no file")
                    continue
                fragment = urlsplit(url).fragment
                if fragment and target in ids and unquote(fragment) not in ids[target]:
                    problems.append(f"{page.name}: {key}={url} points at no id")
    return problems


def import_macros(name: str = "macros") -> ModuleType:
    """A module of the site's macros package (``docs/macros``), imported for a unit test."""
    sys.path.insert(0, str(ROOT / "docs"))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(ROOT / "docs"))


def snapshot_constant_names(site: Path) -> list[str]:
    """The constants of the snapshot the site publishes (``methodology.json``)."""
    data = json.loads((site / "methodology.json").read_text(encoding="utf-8"))
    return [entry["name"] for entry in data["constants"]]
