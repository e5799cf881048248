"""Every page at a phone's width (360×800) and at desktop width (1280×900): nothing in the
article is wider than the article, measured from the layout the browser made (bounding boxes
and scroll widths), not from the markup.

- A formula fits its figure: at desktop it never scrolls; on a phone one that cannot be
  broken to fit may scroll in its figure under a visible cue (``.scroll-cue``, written by
  docs/javascripts/formulas.js), and none does today.
- A formula broken into lines (docs/javascripts/formulas.js) has no two consecutive lines
  that would fit side by side, and no line ends with an operator: a line break before an
  operator leaves the operator at the start of the next line, indented as a continuation.
- At desktop width nothing scrolls sideways: a table fits the article, and a code line
  longer than the article wraps under a hanging indent (stylesheets/site.css). On a phone a
  table fits, or is set as cards as wide as the article with no empty field shown, or
  scrolls under a cue (widths.js), never cards and a cue at once; a code block fits or is a
  scroll box that says so with a visible cue (a program is not cut into fragments there).
- Every other element (a plot, a block written by a macro, an image) lies inside the article.

What a fold holds (``<details>``: a derivation, the data of an example, a release's full
differences, a formula's symbols and TeX) fits as well once it is opened.

And the long pages are short enough to finish: the versions page under five screens at
desktop width, the uncertainty page at most twelve at desktop width and twenty-five on the
phone (the page's height over the window's).

Measured on the session's shared loads (``page_loads.py``): the phone is that of
``test_browser.py`` (360×800), and the script runs on the load the other read-only tests
read too. ``test_a_wide_block_on_a_copy_is_reported`` and the other ``..._reported`` tests
spoil a copy of a page and expect the measurement of that load to report it, where the
page's own stays clean.
"""

from __future__ import annotations

import re
import shutil
from typing import Any

import page_loads
import pytest
from chromium_driver import FORMULAS_SET, emulating, load, serve, wait_for
from support import ROOT, built_site

pytestmark = pytest.mark.slow

PHONE = page_loads.PHONE
DESKTOP = page_loads.DESKTOP
PAGES = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))
#: Sub-pixel rounding of a box edge.
SLACK_PX = 1
#: The versions page, at desktop width, in screens (window heights).
VERSIONS_MAX_SCREENS = 5

#: Under this window width (px) widths.js may set a table as cards (its CARDS_BELOW_PX).
CARDS_BELOW_PX = 720

#: What overflows the article, from the layout: each a short description of one element.
WIDTH_PROBLEMS = r"""
const [slack, cardsBelow] = arguments;
const narrow = window.innerWidth < cardsBelow;
const article = document.querySelector('article.md-content__inner');
const box = article.getBoundingClientRect();
const problems = [];
const name = e => {
  const label = (e.id ? '#' + e.id : '') + (e.className && e.className.baseVal === undefined
    ? '.' + String(e.className).trim().split(/\s+/).join('.') : '');
  const text = (e.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 60);
  return `${e.tagName.toLowerCase()}${label} "${text}"`;
};
// The content of a closed <details> is not shown (Chromium still lays it out).
const folded = e => {
  const closed = e.closest('details:not([open])');
  return !!closed && e !== closed && !e.closest('summary');
};
const shown = e => {
  if (folded(e)) return false;
  const r = e.getBoundingClientRect();
  return r.width > 0 && r.height > 0 && getComputedStyle(e).visibility !== 'hidden';
};
const scrolls = e => ['auto', 'scroll', 'hidden', 'clip'].includes(getComputedStyle(e).overflowX);
// A scroll box that hides part of its content must carry a visible cue.
const cued = e => {
  const cue = e.closest('.scroll-cued');
  const mark = cue && cue.querySelector('.scroll-cue');
  return !!(mark && shown(mark));
};
for (const e of article.querySelectorAll('*')) {
  if (!shown(e)) continue;
  let clipped = false;
  for (let up = e.parentElement; up && up !== article; up = up.parentElement) {
    if (scrolls(up)) { clipped = true; break; }
  }
  const r = e.getBoundingClientRect();
  // An inline box (code in a sentence) may hang its own padding past the edge of a line:
  // a shade of background, no text.
  const style = getComputedStyle(e);
  const pad = style.display === 'inline'
    ? parseFloat(style.paddingLeft) + parseFloat(style.paddingRight) : 0;
  if (!clipped && (r.right > box.right + slack + pad || r.left < box.left - slack - pad)) {
    problems.push(`${name(e)} spans ${Math.round(r.left)}..${Math.round(r.right)} px, ` +
                  `the article ${Math.round(box.left)}..${Math.round(box.right)}`);
  }
  if (scrolls(e) && e.scrollWidth > e.clientWidth + slack) {
    // The formula's own box, not the code block of its TeX (which scrolls as code does).
    const formula = e.closest('details.formula-tex') ? null : e.closest('figure.formula');
    const hidden = e.scrollWidth - e.clientWidth;
    if (formula && !(narrow && cued(e))) {
      problems.push(`formula ${formula.dataset.mv}: ${e.scrollWidth} px in ${e.clientWidth}`);
    } else if (!formula && !narrow) {
      problems.push(`${name(e)} scrolls sideways at desktop width, ${hidden} px hidden`);
    } else if (!formula && !cued(e)) {
      problems.push(`${name(e)} hides ${hidden} px with no cue`);
    }
  }
}
for (const m of article.querySelectorAll('figure.formula math')) {
  const f = m.closest('figure.formula').getBoundingClientRect();
  const r = m.getBoundingClientRect();
  if (r.width > f.width + slack) {
    problems.push(`formula ${m.closest('figure').dataset.mv}: ${Math.round(r.width)} px ` +
                  `in a ${Math.round(f.width)} px figure`);
  }
}
// Cards use the width of their box, show no empty field, and are not cued as well.
for (const t of article.querySelectorAll('table[data-layout="cards"]')) {
  if (!shown(t)) continue;
  const wrap = t.closest('.md-typeset__scrollwrap, .calc-scroll') || t.parentElement;
  const width = t.getBoundingClientRect().width;
  if (width < wrap.clientWidth - slack) {
    problems.push(`${name(t)}: cards ${Math.round(width)} px wide in ${wrap.clientWidth}`);
  }
  if (t.closest('.scroll-cued')) problems.push(`${name(t)}: cards and a scroll cue at once`);
  for (const cell of t.querySelectorAll('td[data-label]')) {
    if (shown(cell) && !cell.textContent.trim() && !cell.querySelector('img, svg, input, math')) {
      problems.push(`${name(t)}: the empty field "${cell.dataset.label}" is shown`);
    }
  }
}
return problems;
"""

#: The lines of each formula that formulas.js broke: per stacked table (the body's, or one
#: in a case or a fraction), whether it is the body's, the room of the formula (px), and per
#: line its width without its indent (px), whether it is indented (a continuation), and
#: whether it ends with an operator or a relation (docs/macros/linebreak.py marks them).
FORMULA_LINES = r"""
const leaves = e => Array.from(e.querySelectorAll('*')).filter(n => !n.children.length);
const found = [];
for (const math of document.querySelectorAll('article figure.formula > math')) {
  const r0 = math.getBoundingClientRect();
  if (!r0.width) continue;
  const em = parseFloat(getComputedStyle(math).fontSize);
  for (const table of math.querySelectorAll('mtable.stacked')) {
    const body = !table.parentElement.closest('mtd, mfrac');
    const lines = Array.from(table.children).map(row => {
      const cell = row.firstElementChild;
      const parts = Array.from(cell.children).filter(c => !c.classList.contains('indent'));
      const boxes = parts.map(c => c.getBoundingClientRect()).filter(b => b.width || b.height);
      const width = boxes.length
        ? Math.max(...boxes.map(b => b.right)) - Math.min(...boxes.map(b => b.left)) : 0;
      const ink = leaves(cell).filter(n => n.localName !== 'mspace');
      const last = ink[ink.length - 1];
      // An operator or a relation the build marked as one a line may start with.
      const dangling = !!last && last.hasAttribute('data-break-op');
      return {width, indented: !!cell.querySelector(':scope > mspace.indent'), dangling};
    });
    found.push({formula: math.closest('figure').dataset.mv, body, room: r0.width, em, lines});
  }
}
return found;
"""
page_loads.script(
    "widths.problems", WIDTH_PROBLEMS, SLACK_PX, CARDS_BELOW_PX, sizes={PHONE, DESKTOP}
)
page_loads.script("widths.formula_lines", FORMULA_LINES, sizes={PHONE, DESKTOP})
page_loads.script(
    "widths.height", "return document.documentElement.scrollHeight", sizes={PHONE, DESKTOP}
)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["360x800", "1280x900"])
@pytest.mark.parametrize("name", PAGES)
def test_nothing_is_wider_than_the_article(
    chromium: Any, base_url: str, name: str, size: page_loads.Size
) -> None:
    url = f"{base_url}{name}.html"
    problems = page_loads.measured(chromium, url, size, "widths.problems")
    assert not problems, f"{name} at {size}:\n" + "\n".join(problems)


#: A block twice the desktop article's width, in the article of a spoiled copy of a page.
WIDE_BLOCK = '<div class="spoiled-wide" style="width: 2600px">wide</div>'
#: A scroll box whose content is as wide, with the cue a phone accepts, in another copy (on
#: its own: the wide block would widen a phone's layout viewport).
SCROLL_BOX = (
    '<div class="scroll-cued"><p class="scroll-cue">scroll</p>'
    '<div class="spoiled-scroll" style="overflow-x: auto">'
    '<div style="width: 2600px">wide</div></div></div>'
)


def test_a_wide_block_on_a_copy_is_reported(
    chromium: Any, base_url: str, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A copy of a page with a block wider than the article (served from a copy of the site,
    under a name of its own): its shared load reports the block at both sizes, while the
    page's own load reports nothing; the measurements are each the load's own."""
    dest = tmp_path_factory.mktemp("wide-block") / "site"
    shutil.copytree(built_site(tmp_path_factory), dest)
    html = (dest / "index.html").read_text(encoding="utf-8")
    spoiled, count = re.subn(r"(<article[^>]*>)", r"\1" + WIDE_BLOCK, html, count=1)
    assert count == 1, "no article on the page to spoil"
    (dest / "spoiled-index.html").write_text(spoiled, encoding="utf-8")
    boxed = re.sub(r"(<article[^>]*>)", r"\1" + SCROLL_BOX, html, count=1)
    (dest / "scroll-index.html").write_text(boxed, encoding="utf-8")
    with serve(dest) as url:
        for size in (PHONE, DESKTOP):
            problems = page_loads.measured(
                chromium, f"{url}spoiled-index.html", size, "widths.problems"
            )
            assert any("div.spoiled-wide" in p for p in problems), (size, problems)
            problems = page_loads.measured(
                chromium, f"{url}scroll-index.html", size, "widths.problems"
            )
            # Cued, it may scroll on a phone; at desktop width nothing scrolls sideways.
            if size == PHONE:
                assert problems == [], problems
            else:
                assert any(
                    "div.spoiled-scroll" in p and "scrolls sideways at desktop width" in p
                    for p in problems
                ), problems
            assert page_loads.measured(chromium, f"{url}index.html", size, "widths.problems") == []
    for size in (PHONE, DESKTOP):
        own = page_loads.measured(chromium, f"{base_url}index.html", size, "widths.problems")
        assert own == [], (size, own)


#: The gap that joins two lines a clause break parted (the ``\\quad`` after the comma), ems.
CLAUSE_GAP_EM = 1.0
#: A continued line's indent (formulas.js INDENT_EM), ems.
INDENT_EM = 1.0
#: How much narrower than the room two joined lines must be to count as fitting (px): the
#: lines were chosen from the formula's layout on one line, which differs by a pixel or so.
JOIN_SLACK_PX = 2


def formula_line_problems(found: list[dict[str, Any]]) -> list[str]:
    """Of the broken formulas ``found`` (:data:`FORMULA_LINES`): two consecutive lines of a
    formula's body that would fit side by side, and a line that ends with an operator."""
    problems = []
    for table in found:
        lines, em = table["lines"], table["em"]
        for at, line in enumerate(lines):
            if line["dangling"]:
                problems.append(f"{table['formula']}: line {at + 1} ends with an operator")
            if not table["body"] or at + 1 == len(lines):
                continue
            after = lines[at + 1]
            joined = (
                (INDENT_EM * em if line["indented"] else 0)
                + line["width"]
                + (0 if after["indented"] else CLAUSE_GAP_EM * em)
                + after["width"]
            )
            if joined <= table["room"] - JOIN_SLACK_PX:
                problems.append(
                    f"{table['formula']}: lines {at + 1} and {at + 2} would fit on one line "
                    f"({joined:.0f} px in {table['room']:.0f})"
                )
    return problems


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["360x800", "1280x900"])
@pytest.mark.parametrize("name", PAGES)
def test_formulas_break_only_where_they_must(
    chromium: Any, base_url: str, name: str, size: page_loads.Size
) -> None:
    found = page_loads.measured(chromium, f"{base_url}{name}.html", size, "widths.formula_lines")
    problems = formula_line_problems(found)
    assert not problems, f"{name} at {size}:\n" + "\n".join(problems)


def test_formulas_on_one_line_at_desktop_width(chromium: Any, base_url: str) -> None:
    """The formulas the phone breaks and a desktop has room for stay on one line there: the
    headline composite and the radar's correctness axis, broken before into six and three."""
    for page, formula in (("composite", "composite.score"), ("radar", "radar.correctness")):
        url = f"{base_url}{page}.html"
        found = page_loads.measured(chromium, url, DESKTOP, "widths.formula_lines")
        assert not [t for t in found if t["formula"] == f"formula:{formula}"], (formula, found)
        phone = page_loads.measured(chromium, url, PHONE, "widths.formula_lines")
        assert [t for t in phone if t["formula"] == f"formula:{formula}"], formula


#: formulas.js spoiled twice: it breaks at half the room it has, and a line one element
#: after where it should, so that the operator it should start with ends the line before.
SPOILED_BREAKS = (
    (
        "var budget = math.getBoundingClientRect().width;",
        "var budget = math.getBoundingClientRect().width / 2;",
    ),
    ("starts.push(way.next);", "starts.push(way.next + 1);"),
)


def test_needless_breaks_and_dangling_operators_are_reported(
    chromium: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    dest = tmp_path_factory.mktemp("spoiled-breaks") / "site"
    shutil.copytree(built_site(tmp_path_factory), dest)
    script = dest / "javascripts" / "formulas.js"
    text = script.read_text(encoding="utf-8")
    for old, new in SPOILED_BREAKS:
        assert old in text, f"formulas.js no longer has {old!r}"
        text = text.replace(old, new)
    script.write_text(text, encoding="utf-8")
    with serve(dest) as url:
        found = page_loads.measured(
            chromium, f"{url}composite.html", DESKTOP, "widths.formula_lines"
        )
    problems = formula_line_problems(found)
    assert any("would fit on one line" in p for p in problems), problems
    assert any("ends with an operator" in p for p in problems), problems


#: Cards half as wide as their box, and an empty field shown (a cell emptied in the page).
SPOILED_CARDS_CSS = """
.md-typeset table[data-layout="cards"] { width: 50% !important; }
.md-typeset table[data-layout="cards"] [data-empty] { display: inline-block !important; }
"""


def test_narrow_cards_and_an_empty_field_are_reported(
    chromium: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    dest = tmp_path_factory.mktemp("spoiled-cards") / "site"
    shutil.copytree(built_site(tmp_path_factory), dest)
    with (dest / "stylesheets" / "site.css").open("a", encoding="utf-8") as css:
        css.write(SPOILED_CARDS_CSS)
    # The downloads: a table that is cards on the phone whatever their width (compact, its
    # file names would not fit), one of its descriptions emptied.
    page = dest / "reproduce.html"
    html = page.read_text(encoding="utf-8")
    start = html.index('data-mv="downloads"')
    cell = re.compile(r"(<td>)([^<]+)(</td>)")
    found = cell.search(html, start)
    assert found, "no description to empty in the downloads"
    page.write_text(html[: found.start(2)] + html[found.end(2) :], encoding="utf-8")
    with serve(dest) as url:
        problems = page_loads.measured(chromium, f"{url}reproduce.html", PHONE, "widths.problems")
    assert any("cards" in p and "px wide in" in p for p in problems), problems
    assert any("empty field" in p for p in problems), problems


#: The pages that fold tables and formulas away (a derivation, the data of an example, the
#: full differences of a release), and every folded list of symbols and TeX.
FOLDED_PAGES = ("uncertainty", "versions", "reference")
OPEN_FOLDS_JS = "document.querySelectorAll('article details').forEach(d => { d.open = true; });"
#: Two frames: the scripts lay out what a fold shows in the frame after it opens.
TWO_FRAMES_JS = (
    "requestAnimationFrame(() => requestAnimationFrame(() => arguments[arguments.length - 1]()))"
)


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["360x800", "1280x900"])
@pytest.mark.parametrize("name", FOLDED_PAGES)
def test_what_a_fold_holds_fits_once_opened(
    chromium: Any, base_url: str, name: str, size: page_loads.Size
) -> None:
    """Every <details> of the page opened (its own load: the page is changed): what they
    hold fits as the rest of the page does, its formulas broken only where they must be."""
    with emulating(chromium, size.width, size.height, mobile=size.mobile):
        load(chromium, f"{base_url}{name}.html")
        wait_for(chromium, page_loads.THEME_READY)
        chromium.execute_script(OPEN_FOLDS_JS)
        chromium.execute_async_script(TWO_FRAMES_JS)
        wait_for(chromium, FORMULAS_SET)
        problems = chromium.execute_script(WIDTH_PROBLEMS, SLACK_PX, CARDS_BELOW_PX)
        problems += formula_line_problems(chromium.execute_script(FORMULA_LINES))
    assert not problems, f"{name} at {size}, every fold open:\n" + "\n".join(problems)


#: The uncertainty page, in screens (its height over the window's), at each size.
UNCERTAINTY_MAX_SCREENS = {DESKTOP: 12, PHONE: 25}


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["360x800", "1280x900"])
def test_the_uncertainty_page_is_short(chromium: Any, base_url: str, size: page_loads.Size) -> None:
    height = page_loads.measured(chromium, f"{base_url}uncertainty.html", size, "widths.height")
    screens = height / size.height
    limit = UNCERTAINTY_MAX_SCREENS[size]
    assert screens <= limit, f"uncertainty page: {screens:.1f} screens at {size}, over {limit}"


def test_the_versions_page_is_short(chromium: Any, base_url: str) -> None:
    height = page_loads.measured(chromium, f"{base_url}versions.html", DESKTOP, "widths.height")
    screens = height / DESKTOP.height
    assert screens < VERSIONS_MAX_SCREENS, f"versions page: {screens:.1f} screens at 1280×900"
