"""Four hand-written pieces of the project measured against a well-kept library each (a
script, not a test)::

    pip install matplotlib word2number text2num number-parser \\
        actions-toolkit github-action-utils typer      # the candidates; click comes with mkdocs
    python benchmarks/bench_libraries.py                  # all four, about a minute
    python benchmarks/bench_libraries.py --only words     # svg, words, annotations or cli

A candidate that is not installed is skipped with a line saying so, so the script also runs
in the project's own environment. Inputs are fixed (the project's own plot, prose and CLI),
so every figure but the timings is the same on every run.

1. **SVG plots** (``docs/macros/plots.py``): the latency curve of ``docs/composite.md``
   drawn by ``macros.plots.line_plot`` and by matplotlib's SVG backend (``svg.fonttype:
   none``, a fixed ``svg.hashsalt``, no date) from the same ``Plot``: render time (median of
   20), bytes, byte-identical output in two processes (different hash seeds), whether text
   stays text and takes the site's font and colours (no inline font or colour), the font
   files and network it needs, and what the site's SVG carries that matplotlib's does not
   (``data-mv``, classes, ``role``/``aria``, ``<title>``).
2. **Number words** (``contracts/check/words.py``): the numbers written in words in the
   prose of ``docs/*.md``, ``README.md`` and ``CONTRIBUTING.md`` (code and generated blocks
   left out, as ``contracts.readme.prose_paragraphs`` does), found by ours and by
   ``word2number`` (its words, run as a finder), ``text2num``'s ``alpha2digit`` and
   ``number-parser``'s ``parse``: how many, where they agree, what only one finds, a
   labelled probe set (fractions, ordinals, per cent, hyphens), and the time over all pages.
3. **GitHub annotations** (``contracts/workflow_commands.py``): hostile messages and
   properties (``%``, CR, LF, ``:``, ``,``, a command in the text) written by ours,
   ``actions-toolkit`` and ``github-action-utils``, each read back as the runner reads a
   workflow command (actions/runner ``ActionCommand``: ``::name k=v,k=v::data``, the
   escapes undone with ``%`` last); the escapes compared with the toolkit's ``command.ts``.
4. **Argument parsing** (``scoring/cli.py``): start-up wall time of ``python -m scoring
   --help`` and of a minimal ``report`` subcommand in argparse, click and typer (median of
   10), each library's import time (``-X importtime``), the exit status and message of bad
   options against what ``tests/scoring`` asserts, and an ``Enum``'s members as choices.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import hashlib
import importlib.metadata
import importlib.util
import io
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from pathlib import Path
from types import SimpleNamespace
from typing import Any
from unittest import mock

from contracts.source import REPO_ROOT as REPO

DOCS = REPO / "docs"
#: The same salt in every process: matplotlib's SVG ids are hashes salted with it.
HASH_SALT = "bench-libraries"
#: matplotlib keeps its font cache here, not in the user's home.
MPL_CONFIG = Path(tempfile.gettempdir()) / "bench-libraries-mpl"
os.environ.setdefault("MPLCONFIGDIR", str(MPL_CONFIG))

SVG_REPEATS = 20
CLI_REPEATS = 10
WORD_REPEATS = 3


def installed(module: str, package: str) -> bool:
    """Whether ``module`` imports; if not, say the candidate is skipped."""
    if importlib.util.find_spec(module) is not None:
        return True
    print(f"  [skipped] {package}: not installed (pip install {package})")
    return False


def candidate(module: str) -> Any:
    """A candidate library, imported by its name: the candidates are measured here, not
    used by the project, so pyproject.toml declares none of them (and tests/test_packaging.py,
    which reads import statements, has none to find)."""
    return importlib.import_module(module)


def median_s(function: Callable[[], object], repeats: int) -> float:
    """The median wall time of ``function`` over ``repeats`` calls, after one warm-up."""
    function()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def heading(text: str) -> None:
    print(f"\n== {text} ==")


# --- 1. SVG plots --------------------------------------------------------------------------------

_MPL_RC = {"svg.fonttype": "none", "svg.hashsalt": HASH_SALT}


def site_plot() -> Any:
    """The ``Plot`` of the latency curve, as ``docs/macros/figures.py`` builds it."""
    if str(DOCS) not in sys.path:
        sys.path.insert(0, str(DOCS))
    from macros import figures

    import scoring.constants as C  # noqa: N812 - the module of constants, named as in contracts

    site = SimpleNamespace(infos={info.meta.name: info for info in C.constants()})
    captured: list[Any] = []
    with mock.patch.object(figures.plots, "line_plot", captured.append):
        figures.PLOTS["composite.latency"](site)  # type: ignore[arg-type]
    return captured[0]


def ours_svg(plot: Any) -> str:
    from macros import plots

    return str(plots.line_plot(plot))


def mpl_svg(plot: Any) -> str:
    """The same plot drawn by matplotlib: its curves, ticks, axis labels and marker labels."""
    matplotlib = candidate("matplotlib")
    with matplotlib.rc_context(_MPL_RC):
        figure = candidate("matplotlib.figure").Figure(figsize=(6.4, 3.0))
        axes = figure.add_axes((0.1, 0.19, 0.84, 0.76))
        for curve in plot.curves:
            xs, ys = zip(*curve.points, strict=True)
            axes.plot([float(x) for x in xs], [float(y) for y in ys], label=curve.name)
        axes.set_xlim(float(plot.x.low), float(plot.x.high))
        axes.set_ylim(float(plot.y.low), float(plot.y.high))
        axes.set_xticks([float(t) for t in plot.x.ticks], [plot.x.fmt(t) for t in plot.x.ticks])
        axes.set_yticks([float(t) for t in plot.y.ticks], [plot.y.fmt(t) for t in plot.y.ticks])
        axes.grid(True)
        axes.set_xlabel(plot.x.label)
        axes.set_ylabel(plot.y.label)
        for marker in plot.markers:
            point = (float(marker.x), float(marker.y))
            axes.plot(*point, "o")
            axes.annotate(marker.label, point, xytext=(8, 8), textcoords="offset points")
        if len(plot.curves) > 1:
            axes.legend()
        out = io.StringIO()
        figure.savefig(out, format="svg", metadata={"Date": None})
    return out.getvalue()


def svg_child() -> None:
    """In a fresh process: the digests of both SVGs, and what matplotlib opened and sent."""
    opened: list[str] = []
    network: list[str] = []

    def audit(event: str, args: tuple[Any, ...]) -> None:
        if event == "open" and isinstance(args[0], str):
            opened.append(args[0])
        elif event.startswith("socket."):
            network.append(event)

    sys.addaudithook(audit)
    plot = site_plot()
    ours = ours_svg(plot)
    result: dict[str, Any] = {"ours": hashlib.sha256(ours.encode()).hexdigest()}
    if importlib.util.find_spec("matplotlib") is not None:
        start = time.perf_counter()
        candidate("matplotlib.backends.backend_svg")  # what savefig(format="svg") loads

        imported = time.perf_counter() - start
        start = time.perf_counter()
        drawn = mpl_svg(plot)
        result.update(
            matplotlib=hashlib.sha256(drawn.encode()).hexdigest(),
            import_s=imported,
            first_s=time.perf_counter() - start,
            fonts=sorted({Path(p).name for p in opened if p.endswith((".ttf", ".otf", ".afm"))}),
            cache=sorted({Path(p).name for p in opened if "fontlist" in p}),
        )
    result["network"] = sorted(set(network))
    print(json.dumps(result))


def _children() -> list[dict[str, Any]]:
    """Two fresh processes, hash seeds 1 and 2; the first with an empty font cache."""
    runs = []
    with tempfile.TemporaryDirectory() as config:
        for seed in ("1", "2"):
            env = {**os.environ, "PYTHONHASHSEED": seed, "MPLCONFIGDIR": config}
            done = subprocess.run(
                [sys.executable, __file__, "--svg-child"],
                capture_output=True,
                text=True,
                env=env,
                check=True,
                timeout=120,
            )
            runs.append(json.loads(done.stdout.splitlines()[-1]))
    return runs


def _svg_part(html: str) -> str:
    return html[html.index("<svg") : html.index("</svg>") + len("</svg>")]


def _inline(svg: str) -> tuple[int, int]:
    """Inline font declarations and inline colours: each overrides the site's stylesheet."""
    fonts = len(re.findall(r"font(?:-family)?\s*:", svg)) + svg.count('font-family="')
    colours = len(re.findall(r"(?:fill|stroke)\s*[:=]\s*\"?#[0-9a-fA-F]{3,8}", svg))
    return fonts, colours


def _describe_svg(name: str, svg: str, texts: Sequence[str]) -> None:
    fonts, colours = _inline(svg)
    found = sum(1 for t in texts if t in svg)
    print(
        f"  {name:11} {len(svg.encode()):6,} bytes of SVG; <text> elements: "
        f"{svg.count('<text')}; labels found as text: {found}/{len(texts)}; inline fonts: "
        f"{fonts}, inline colours: {colours}; class=: {svg.count('class=')}; role/aria: "
        f"{svg.count('role=') + svg.count('aria-')}; <title>: {svg.count('<title')}"
    )


def bench_svg() -> None:
    heading("1. SVG plots: the latency curve (composite.latency)")
    plot = site_plot()
    html = ours_svg(plot)
    ours = _svg_part(html)
    texts = [plot.x.label, *[m.label for m in plot.markers]]
    print(
        f"  ours        render {ms(median_s(lambda: ours_svg(plot), SVG_REPEATS))} (median of 20)"
    )
    mpl = installed("matplotlib", "matplotlib")
    if mpl:
        matplotlib = candidate("matplotlib")
        seconds = median_s(lambda: mpl_svg(plot), SVG_REPEATS)
        print(f"  matplotlib  render {ms(seconds)} (median of 20), {matplotlib.__version__}")
    print(f"  ours        figure with its data table: {len(html.encode()):,} bytes")
    _describe_svg("ours", ours, texts)
    if mpl:
        drawn = mpl_svg(plot)
        _describe_svg("matplotlib", drawn, texts)
        print(
            f"  matplotlib  same bytes twice in one process: {drawn == mpl_svg(plot)}; "
            f"its version is written into the SVG: {matplotlib.__version__ in drawn}; "
            f"data-mv: {drawn.count('data-mv')}"
        )
    runs = _children()
    print(f"  ours        same bytes in two processes: {runs[0]['ours'] == runs[1]['ours']}")
    if mpl:
        cold, warm = runs
        print(
            f"  matplotlib  same bytes in two processes: {cold['matplotlib'] == warm['matplotlib']}"
            f"; import {ms(cold['import_s'])} + first render {ms(cold['first_s'])} with an "
            f"empty font cache, {ms(warm['import_s'])} + {ms(warm['first_s'])} with it"
        )
        print(
            f"  matplotlib  font files opened: {len(cold['fonts'])} with an empty cache (it "
            f"scans its own and the system's to build {cold['cache'][:1]}), then "
            f"{warm['fonts'] or 'none seen by Python'}"
        )
    print(
        f"  network used (socket audit events): {sorted({e for r in runs for e in r['network']})}"
    )
    key = re.search(r'data-mv="([^"]*)"', html)
    print(
        f"  ours        carries data-mv={key and key.group(1)!r} on its <figure> (read by "
        "docs/macros/drift.py for the unreleased-change note and benchmarks/parity.py); it "
        "is written by macros.plots.figure around the SVG, so it would survive a matplotlib "
        "body, but the classes that theme the SVG (site.css) and role/aria/<title> would not"
    )


# --- 2. Number words ---------------------------------------------------------------------------

#: Probes and the numbers a checker must read in each (none for an ordinal or "one-way").
PROBES: tuple[tuple[str, tuple[Fraction, ...]], ...] = (
    ("Two agents tie.", (Fraction(2),)),
    ("Cost carries a third of the composite.", (Fraction(1, 3),)),
    ("The tour takes twelve screens.", (Fraction(12),)),
    ("Success weighs half the composite.", (Fraction(1, 2),)),
    ("Two thirds of the weight.", (Fraction(2, 3),)),
    ("One quarter of the score.", (Fraction(1, 4),)),
    ("Three fifths of the total.", (Fraction(3, 5),)),
    ("Twenty-five runs.", (Fraction(25),)),
    ("Two hundred and fifty tasks.", (Fraction(250),)),
    ("A hundred runs.", (Fraction(100),)),
    ("One thousand and one tasks.", (Fraction(1001),)),
    ("Forty per cent of the composite.", (Fraction(2, 5),)),
    ("Cost carries twice the weight of latency.", (Fraction(2),)),
    ("Seven completed runs.", (Fraction(7),)),
    ("The third task fails.", ()),
    ("The first anchor scores.", ()),
    ("The second run counts.", ()),
    ("The check is one-way.", ()),
    ("A zero-success task.", ()),
    ("A one-line description.", ()),
    ("The default ones apply.", ()),
    ("A value between zero and one.", (Fraction(0), Fraction(1))),
    ("The interval lies above nought.", (Fraction(0),)),
)

_MACRO = re.compile(r"\{\{.*?\}\}|\{%.*?%\}", re.DOTALL)
_DIGITS = re.compile(r"\d[\d,.]*\d|\d")
_LIB_TOKEN = re.compile(r"\w+|[^\w\s]")
_ORDINAL = re.compile(r"^(\d+)(st|nd|rd|th|s)?$")
#: Ordinal words: what the project never reads as a number ("the third task").
_ORDINAL_WORDS = frozenset(
    "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split()  # noqa: SIM905
)


def prose_sentences() -> list[str]:
    """Every sentence of prose of the pages, README.md and CONTRIBUTING.md; a macro's output
    and every numeral become ``§`` (a value written in digits is not a number word)."""
    from contracts.check.words import sentences
    from contracts.readme import prose_paragraphs

    files = [*sorted(DOCS.glob("*.md")), REPO / "README.md", REPO / "CONTRIBUTING.md"]
    found = []
    for path in files:
        text = _MACRO.sub("§", path.read_text(encoding="utf-8"))
        for _, paragraph in prose_paragraphs(text):
            found += sentences(_DIGITS.sub("§", paragraph))
    return found


# A finding: (start, end) characters of the sentence, the value, whether read as ordinal.
Finding = tuple[int, int, Fraction, bool]


def _spans(sentence: str, toks: Sequence[str]) -> list[tuple[int, int]]:
    """Where each token of ``words.tokens`` stands in ``sentence``."""
    spans, at = [], 0
    for token in toks:
        start = sentence.index(token, at)
        at = start + len(token)
        spans.append((start, at))
    return spans


def ours_numbers(sentence: str) -> list[Finding]:
    """Every number in words ours reads, claim or not (before the claim rule): the finder of
    ``contracts.check.words`` itself (:func:`~contracts.check.words.written_numbers`)."""
    from contracts.check import words

    toks = words.tokens(sentence)
    spans = _spans(sentence, toks)
    return [
        (spans[n.start][0], spans[n.end - 1][1], n.value, False)
        for n in words.written_numbers(toks)
    ]


def _from_rewrite(sentence: str, rewritten: str) -> list[Finding]:
    """What a library that rewrites number words as digits found: the words it replaced."""
    before = list(_LIB_TOKEN.finditer(sentence))
    after = [m.group() for m in _LIB_TOKEN.finditer(rewritten)]
    matcher = difflib.SequenceMatcher(None, [m.group() for m in before], after, autojunk=False)
    found: list[Finding] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag != "replace" or i1 == i2:
            continue
        for token in after[j1:j2]:
            match = _ORDINAL.match(token)
            if match:
                ordinal = bool(match.group(2)) and match.group(2) != "s"
                found.append(
                    (before[i1].start(), before[i2 - 1].end(), Fraction(match[1]), ordinal)
                )
    return found


def w2n_numbers(sentence: str) -> list[Finding]:
    """word2number converts a phrase; as a finder: each run of its words (and "and" inside
    one) given to ``word_to_num``."""
    w2n = candidate("word2number.w2n")
    vocabulary = set(w2n.american_number_system) - {"point"}
    tokens = list(re.finditer(r"[A-Za-z]+(?:-[A-Za-z]+)*", sentence))
    found: list[Finding] = []
    i = 0
    while i < len(tokens):
        j = i
        while j < len(tokens):
            parts = tokens[j].group().lower().split("-")
            inside = parts == ["and"] and i < j < len(tokens) - 1
            if not (all(p in vocabulary for p in parts) or inside):
                break
            j += 1
        if j > i and tokens[j - 1].group().lower() == "and":
            j -= 1
        if j > i:
            phrase = sentence[tokens[i].start() : tokens[j - 1].end()]
            with contextlib.suppress(ValueError, IndexError):
                value = w2n.word_to_num(phrase)
                found.append((tokens[i].start(), tokens[j - 1].end(), Fraction(value), False))
            i = j
        else:
            i += 1
    return found


def _finders() -> dict[str, Callable[[str], list[Finding]]]:
    finders: dict[str, Callable[[str], list[Finding]]] = {"ours": ours_numbers}
    if installed("word2number", "word2number"):
        finders["word2number"] = w2n_numbers
    if installed("text_to_num", "text2num"):
        alpha2digit = candidate("text_to_num").alpha2digit
        finders["alpha2digit"] = lambda s: _from_rewrite(s, alpha2digit(s, "en"))
        finders["alpha2digit(0)"] = lambda s: _from_rewrite(s, alpha2digit(s, "en", threshold=0))
    if installed("number_parser", "number-parser"):
        number_parser = candidate("number_parser")
        finders["number-parser"] = lambda s: _from_rewrite(s, number_parser.parse(s, "en"))
    return finders


def _compare(
    sentences: Sequence[str], ours: Sequence[list[Finding]], theirs: Sequence[list[Finding]]
) -> tuple[int, Counter[str], Counter[str], Counter[str]]:
    """Agreements (same words, same value), and the words only theirs read, only ours read,
    and both read with different values."""
    agree = 0
    only_theirs: Counter[str] = Counter()
    only_ours: Counter[str] = Counter()
    differ: Counter[str] = Counter()
    for sentence, mine, other in zip(sentences, ours, theirs, strict=True):
        unmatched = list(mine)
        for start, end, value, ordinal in other:
            overlap = [f for f in unmatched if f[0] < end and start < f[1]]
            words = sentence[start:end].lower()
            if not overlap:
                only_theirs[words + (" (ordinal)" if ordinal else "")] += 1
                continue
            unmatched.remove(overlap[0])
            if overlap[0][2] == value and not ordinal:
                agree += 1
            else:
                differ[
                    f"{sentence[overlap[0][0] : overlap[0][1]].lower()}: ours {overlap[0][2]}"
                    f", theirs {value}{' (ordinal)' if ordinal else ''}"
                ] += 1
        for start, end, _, _ in unmatched:
            only_ours[sentence[start:end].lower()] += 1
    return agree, only_theirs, only_ours, differ


def _sample(counter: Counter[str], count: int = 6) -> str:
    return "; ".join(f"{words!r}×{n}" for words, n in counter.most_common(count)) or "-"


def bench_words() -> None:
    heading("2. Number words in the prose (docs/*.md, README.md, CONTRIBUTING.md)")
    finders = _finders()
    sentences = prose_sentences()
    print(f"  {len(sentences):,} sentences of prose")
    results = {name: [find(s) for s in sentences] for name, find in finders.items()}
    from contracts.check.words import find_claims

    claims = sum(len(find_claims(s)) for s in sentences)
    for name, find in finders.items():
        seconds = median_s(lambda find=find: [find(s) for s in sentences], WORD_REPEATS)
        found = sum(len(f) for f in results[name])
        ordinals = sum(1 for f in results[name] for x in f if x[3])
        extra = f", {claims} of them claims (find_claims)" if name == "ours" else ""
        print(
            f"  {name:14} {found:4} number words ({ordinals} read as ordinals){extra}; "
            f"all pages in {ms(seconds)} (median of {WORD_REPEATS})"
        )
    for name in finders:
        if name == "ours":
            continue
        agree, theirs, ours, differ = _compare(sentences, results["ours"], results[name])
        print(
            f"  {name} vs ours: {agree} agree; {sum(theirs.values())} only {name}, "
            f"{sum(ours.values())} only ours, {sum(differ.values())} different values"
        )
        print(f"    only {name}: {_sample(theirs)}")
        print(f"    only ours: {_sample(ours)}")
        print(f"    different: {_sample(differ, 4)}")
    print("  probes (✓ = reads exactly the expected numbers; ordinals and 'one-way' expect none):")
    for name, find in finders.items():
        right, wrong = 0, []
        for sentence, expected in PROBES:
            got = tuple(v for _, _, v, ordinal in find(sentence) if not ordinal)
            shown = tuple(f"{v}{'(ord)' if o else ''}" for _, _, v, o in find(sentence))
            if got == expected and len(shown) == len(expected):
                right += 1
            else:
                wrong.append(f"{sentence!r}→{','.join(shown) or '-'}")
        print(f"    {name:14} {right}/{len(PROBES)} ✓; wrong: {'; '.join(wrong) or '-'}")


# --- 3. GitHub annotations ----------------------------------------------------------------------

#: Messages and property values a check can print: a path or a title with ':' and ',', a
#: message with '%', CR, LF, literal escapes, and a workflow command of its own.
HOSTILE: tuple[tuple[str, str, str], ...] = (
    ("docs/composite.md", "drift: weights, anchors", "100% sure\r\nnext line"),
    ("a,b:c.py", "title", "literal %0A and %25 stay literal"),
    ("x.py", "100%\nline two", "::error file=evil.py::injected"),
    ("dir/a b.md", "ends with %", "ends with %"),
    ("t.md", "key=value, more", "tab\tand unicode ✓ %3A"),
)


def runner_read(line: str) -> tuple[str, dict[str, str], str]:
    """A workflow command read back as actions/runner's ``ActionCommand.TryParseV2`` does:
    the command section ends at the first ``::`` after the leading one; properties split at
    ``,`` then at the first ``=``; escapes undone in the runner's order, ``%25`` last."""
    if not line.startswith("::"):
        raise ValueError(f"not a workflow command: {line!r}")
    end = line.index("::", 2)
    section, data = line[2:end], line[end + 2 :]
    name, _, props = section.partition(" ")
    properties = {}
    for pair in filter(None, props.split(",")):
        key, sep, value = pair.partition("=")
        if sep:
            for escaped, plain in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ",")):
                value = value.replace(escaped, plain)
            properties[key] = value.replace("%25", "%")
    for escaped, plain in (("%0D", "\r"), ("%0A", "\n")):
        data = data.replace(escaped, plain)
    return name, properties, data.replace("%25", "%")


def toolkit_escape(text: str, prop: bool) -> str:
    """actions/toolkit ``command.ts``: data escapes % CR LF; a property also : and ,."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if prop else text


def _captured(function: Callable[[], object]) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        function()
    return out.getvalue().rstrip("\n")


def _writers() -> dict[str, Callable[[str, int, str, str], str]]:
    from contracts.workflow_commands import Annotation, Level

    writers: dict[str, Callable[[str, int, str, str], str]] = {
        "ours": lambda f, n, t, m: Annotation(Level.ERROR, t, m, f, n).command()
    }
    if installed("actions_toolkit", "actions-toolkit"):
        core = candidate("actions_toolkit.core")
        writers["actions-toolkit"] = lambda f, n, t, m: _captured(
            lambda: core.error(m, title=t, file=f, start_line=n)
        )
    if installed("github_action_utils", "github-action-utils"):
        gau = candidate("github_action_utils")
        writers["github-action-utils"] = lambda f, n, t, m: _captured(
            lambda: gau.error(m, title=t, file=f, line=n)
        )
    return writers


def _import_s(module: str) -> float:
    code = f"import time; s = time.perf_counter(); import {module}; print(time.perf_counter() - s)"
    runs = [
        float(
            subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
            ).stdout
        )
        for _ in range(5)
    ]
    return statistics.median(runs)


def bench_annotations() -> None:
    heading("3. GitHub annotations: hostile messages and properties")
    from contracts.workflow_commands import escape_data, escape_property

    samples = [text for case in HOSTILE for text in case]
    same = all(
        escape_data(t) == toolkit_escape(t, False) and escape_property(t) == toolkit_escape(t, True)
        for t in samples
    )
    print(
        f"  ours: escapes equal to the toolkit's command.ts on all {len(samples)} strings: {same}"
    )
    modules = {
        "ours": "contracts.workflow_commands",
        "actions-toolkit": "actions_toolkit.core",
        "github-action-utils": "github_action_utils",
    }
    for name, write in _writers().items():
        faithful, extra, lines = 0, set(), []
        for file, title, message in HOSTILE:
            line = write(file, 3, title, message)
            lines.append(line)
            _, props, data = runner_read(line)
            wanted = {"file": file, "line": "3", "title": title}
            faithful += data == message and all(props.get(k) == v for k, v in wanted.items())
            extra |= {f"{k}={v!r}" for k, v in props.items() if k not in wanted}
        single = all("\n" not in line and "\r" not in line for line in lines)
        requires = "" if name == "ours" else importlib.metadata.requires(name) or []
        print(
            f"  {name:19} read back intact: {faithful}/{len(HOSTILE)}; one line each: {single}; "
            f"extra properties: {sorted(extra) or 'none'}; import {ms(_import_s(modules[name]))}"
            + (f"; requires {requires}" if name != "ours" else "")
        )
        print(f"  {'':19} e.g. {lines[0]!r}")


# --- 4. Argument parsing --------------------------------------------------------------------------

_COMMON = r'''
import sys
from enum import StrEnum

class OutputFormat(StrEnum):
    TABLE = "table"
    JSON = "json"

def weights_rule(text):
    """The real parser of --weights: None if good, else the rule it breaks."""
    from scoring.errors import InputError
    from scoring.weights import parse_weights
    try:
        parse_weights(text)
    except InputError as error:
        return error.problems[0].rule
    return None

def level_rule(text):
    for item in (p.strip() for p in text.split(",")):
        if not item.isdigit() or not 1 <= int(item) <= 100:
            return f"a pass^k level must be a whole number from 1 to 100, not {item!r}"
    return None
'''

ARGPARSE_CLI = (
    _COMMON
    + r"""
import argparse

def checked(rule):
    def convert(text):
        problem = rule(text)
        if problem:
            raise argparse.ArgumentTypeError(problem)
        return text
    return convert

parser = argparse.ArgumentParser(prog="scoring")
commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
report = commands.add_parser("report")
report.add_argument("path", metavar="RUNS.jsonl")
report.add_argument("--weights", type=checked(weights_rule), metavar="AXIS=W,...")
report.add_argument("--pass-k", type=checked(level_rule), metavar="K,...")
report.add_argument("--format", choices=list(OutputFormat), type=OutputFormat,
                    default=OutputFormat.TABLE)

def main(argv=None):
    args = parser.parse_args(argv)
    print(repr(args.format))

if __name__ == "__main__":
    main()
"""
)

CLICK_CLI = (
    _COMMON
    + r'''
import click

def checked(rule):
    def callback(ctx, param, value):
        problem = value is not None and rule(value)
        if problem:
            raise click.BadParameter(problem)
        return value
    return callback

@click.group(name="scoring")
def cli():
    """Recompute the published scores from raw records."""

@cli.command()
@click.argument("path", metavar="RUNS.jsonl")
@click.option("--weights", callback=checked(weights_rule), metavar="AXIS=W,...")
@click.option("--pass-k", callback=checked(level_rule), metavar="K,...")
@click.option("--format", "output_format", type=click.Choice(OutputFormat),
              default=OutputFormat.TABLE)
def report(path, weights, pass_k, output_format):
    if path == "interrupt":
        raise KeyboardInterrupt
    if path == "pipe":
        raise BrokenPipeError(32, "Broken pipe")
    click.echo(repr(output_format))

if __name__ == "__main__":
    cli(prog_name="scoring")
'''
)

TYPER_CLI = (
    _COMMON
    + r'''
from typing import Annotated, Optional
import typer

def checked(rule):
    def callback(value):
        problem = value is not None and rule(value)
        if problem:
            raise typer.BadParameter(problem)
        return value
    return callback

app = typer.Typer(name="scoring", add_completion=False)

@app.callback()
def cli():
    """Recompute the published scores from raw records."""

@app.command()
def report(
    path: Annotated[str, typer.Argument(metavar="RUNS.jsonl")],
    weights: Annotated[Optional[str], typer.Option(callback=checked(weights_rule))] = None,
    pass_k: Annotated[Optional[str], typer.Option(callback=checked(level_rule))] = None,
    format: OutputFormat = OutputFormat.TABLE,
):
    typer.echo(repr(format))

if __name__ == "__main__":
    app(prog_name="scoring")
'''
)

#: Bad options, and what ``tests/scoring`` asserts of the stderr of each (besides exit 2 and
#: an empty stdout): a substring, or (for --pass-k) the end of it.
BAD_OPTIONS: tuple[tuple[tuple[str, ...], str, str], ...] = (
    (("--format", "yaml"), "invalid choice: 'yaml'", "'yaml'"),
    (
        ("--weights", "speed=1"),
        "--weights: 'speed=1': expected AXIS=WEIGHT",
        "'speed=1': expected AXIS=WEIGHT",
    ),
    (
        ("--pass-k", "0"),
        "argument --pass-k: a pass^k level must be a whole number from 1 to 100, not '0'\n",
        "a pass^k level must be a whole number from 1 to 100, not '0'",
    ),
    (("--bogus",), "unrecognized arguments: --bogus", "--bogus"),
    # A terminal escape in an argument is shown as \x1b, never sent to the terminal.
    (("--format", "\x1b[2Jyaml"), "\\x1b", "\\x1b"),
)


def _wall_s(argv: Sequence[str], repeats: int = CLI_REPEATS) -> float:
    def run() -> None:
        subprocess.run(argv, capture_output=True, check=False, timeout=60)

    return median_s(run, repeats)


def _importtime_us(module: str) -> int:
    """Cumulative import time of ``module`` (``-X importtime``), the median of 5."""
    values = []
    for _ in range(5):
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", f"import {module}"],
            capture_output=True,
            text=True,
            check=True,
            timeout=60,
        )
        for line in done.stderr.splitlines():
            parts = [p.strip() for p in line.removeprefix("import time:").split("|")]
            if len(parts) == 3 and parts[2] == module:
                values.append(int(parts[1]))
    return int(statistics.median(values))


def _run(argv: Sequence[str]) -> tuple[int, str, str]:
    done = subprocess.run(
        argv, capture_output=True, text=True, stdin=subprocess.DEVNULL, check=False, timeout=60
    )
    return done.returncode, done.stdout, done.stderr


def _verdict(result: tuple[int, str, str], expected: str, rule: str) -> str:
    code, out, err = result
    says = err.endswith(expected) if expected.endswith("\n") else expected in err
    raw_escape = "\x1b" in err
    return (
        f"exit {code}{', stdout not empty' if out else ''}; the tests' wording "
        f"{'found' if says else 'NOT found'}, the rule {'found' if rule in err else 'NOT found'}"
        f"{'; raw ESC echoed' if raw_escape else ''}"
    )


def _error_line(err: str) -> str:
    """The line of ``err`` that says what is wrong (inside typer's box, if any)."""
    marks = ("Invalid", "No such", "error:", "Error:")
    lines = [line.strip(" │╭╰─") for line in err.splitlines() if any(m in line for m in marks)]
    return lines[-1] if lines else err.strip()


def bench_cli() -> None:
    heading("4. Argument parsing: scoring/cli.py (argparse) against click and typer")
    candidates = {"argparse": ARGPARSE_CLI}
    if installed("click", "click"):
        candidates["click"] = CLICK_CLI
    if installed("typer", "typer"):
        candidates["typer"] = TYPER_CLI
    help_s = _wall_s([sys.executable, "-m", "scoring", "--help"])
    print(f"  python -m scoring --help: {ms(help_s)} (median of {CLI_REPEATS}, the whole CLI)")
    base = _wall_s([sys.executable, "-c", "pass"])
    print(
        f"  python -c pass: {ms(base)}; import scoring.cli: "
        f"{_importtime_us('scoring.cli') / 1000:.0f} ms cumulative (-X importtime)"
    )
    with tempfile.TemporaryDirectory() as folder:
        scripts = {}
        for name, source in candidates.items():
            scripts[name] = Path(folder, f"{name}_cli.py")
            scripts[name].write_text(source, encoding="utf-8")
        for name, script in scripts.items():
            seconds = _wall_s([sys.executable, str(script), "report", "--help"])
            module = "argparse" if name == "argparse" else name
            print(
                f"  minimal `report --help` with {name:8}: {ms(seconds)}; import {module}: "
                f"{_importtime_us(module) / 1000:.1f} ms cumulative (-X importtime)"
            )
        print("  bad options (exit 2, empty stdout and this text are what tests/scoring asserts):")
        for options, expected, rule in BAD_OPTIONS:
            print(f"    {' '.join(options)!r}")
            ours = _run([sys.executable, "-m", "scoring", "report", "-", *options])
            print(f"      {'scoring':8} {_verdict(ours, expected, rule)}: {_error_line(ours[2])!r}")
            for name, script in scripts.items():
                if name == "argparse":
                    continue
                result = _run([sys.executable, str(script), "report", "x.jsonl", *options])
                print(
                    f"      {name:8} {_verdict(result, expected, rule)}: {_error_line(result[2])!r}"
                )
        if "click" in scripts:
            for case, ours in (
                ("interrupt", "130 (scoring.exits)"),
                ("pipe", "141 (scoring.exits)"),
            ):
                code, _, err = _run([sys.executable, str(scripts["click"]), "report", case])
                print(
                    f"  click on {'Ctrl-C' if case == 'interrupt' else 'a closed pipe'}: "
                    f"exit {code}, stderr {err.strip()!r}; ours: {ours}"
                )
        print("  an Enum's members as choices (--format json):")
        for name, script in scripts.items():
            code, out, _ = _run(
                [sys.executable, str(script), "report", "x.jsonl", "--format", "json"]
            )
            helped = _run([sys.executable, str(script), "report", "--help"])[1]
            shown = re.search(r"\{table,json\}|table\|json", helped, re.IGNORECASE)
            print(
                f"    {name:8} exit {code}, value {out.strip()!r}, help shows "
                f"{shown.group() if shown else 'no choices'}"
            )
        if "click" in scripts:
            print(f"    click with case_sensitive=False: {_click_enum_folded()}")


def _click_enum_folded() -> str:
    """``click.Choice`` of the project's own Enum, names matched without case."""
    from scoring.report.write import OutputFormat

    click = candidate("click")
    runner = candidate("click.testing").CliRunner()

    @click.command()
    @click.option("--format", type=click.Choice(OutputFormat, case_sensitive=False))
    def command(format: OutputFormat) -> None:
        click.echo(repr(format))

    done = runner.invoke(command, ["--format", "json"])
    return f"exit {done.exit_code}, value {done.output.strip()!r}"


SECTIONS = {
    "svg": bench_svg,
    "words": bench_words,
    "annotations": bench_annotations,
    "cli": bench_cli,
}


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--only", choices=list(SECTIONS), action="append")
    parser.add_argument("--svg-child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(None if argv is None else list(argv))
    if args.svg_child:
        svg_child()
        return 0
    start = time.perf_counter()
    for name in args.only or SECTIONS:
        SECTIONS[name]()
    print(f"\n(total {time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
