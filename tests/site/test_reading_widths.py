"""Every page at a phone's width (360×800) and at desktop width (1280×900): nothing in the
article is wider than the article, measured from the layout the browser made (bounding boxes
and scroll widths), not from the markup.

- A formula never scrolls: its MathML fits the figure that holds it.
- A table or a code block either fits, or is a scroll box that says so with a visible cue
  (``.scroll-cue``, written by docs/javascripts/widths.js); no column is clipped unseen.
- Every other element (a plot, a block written by a macro, an image) lies inside the article.

And the versions page is short: under five screens at desktop width.

Measured on the session's shared loads (``page_loads.py``): the phone is that of
``test_browser.py`` (360×800), and the script runs on the load the other read-only tests
read too. ``test_a_wide_block_on_a_copy_is_reported`` spoils a copy of a page and expects
the measurement of that load to report it, where the page's own stays clean.
"""

from __future__ import annotations

import re
import shutil
from typing import Any

import page_loads
import pytest
from chromium_driver import serve
from support import ROOT, built_site

pytestmark = pytest.mark.slow

PHONE = page_loads.PHONE
DESKTOP = page_loads.DESKTOP
PAGES = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))
#: Sub-pixel rounding of a box edge.
SLACK_PX = 1
#: The versions page, at desktop width, in screens (window heights).
VERSIONS_MAX_SCREENS = 5

#: What overflows the article, from the layout: each a short description of one element.
WIDTH_PROBLEMS = r"""
const slack = arguments[0];
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
// A scroll box that hides part of its content must carry a visible cue, and a formula none.
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
    const formula = e.closest('figure.formula');
    if (formula) {
      problems.push(`formula ${formula.dataset.mv}: ${e.scrollWidth} px in ${e.clientWidth}`);
    } else if (!cued(e)) {
      problems.push(`${name(e)} hides ${e.scrollWidth - e.clientWidth} px with no cue`);
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
return problems;
"""


page_loads.script("widths.problems", WIDTH_PROBLEMS, SLACK_PX, sizes={PHONE, DESKTOP})
page_loads.script("widths.height", "return document.documentElement.scrollHeight", sizes={DESKTOP})


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
    with serve(dest) as url:
        for size in (PHONE, DESKTOP):
            problems = page_loads.measured(
                chromium, f"{url}spoiled-index.html", size, "widths.problems"
            )
            assert any("div.spoiled-wide" in p for p in problems), (size, problems)
            assert page_loads.measured(chromium, f"{url}index.html", size, "widths.problems") == []
    for size in (PHONE, DESKTOP):
        own = page_loads.measured(chromium, f"{base_url}index.html", size, "widths.problems")
        assert own == [], (size, own)


def test_the_versions_page_is_short(chromium: Any, base_url: str) -> None:
    height = page_loads.measured(chromium, f"{base_url}versions.html", DESKTOP, "widths.height")
    screens = height / DESKTOP.height
    assert screens < VERSIONS_MAX_SCREENS, f"versions page: {screens:.1f} screens at 1280×900"
