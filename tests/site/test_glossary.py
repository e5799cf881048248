"""The glossary as a reader on a touch screen meets it: a tap on a dotted term shows its
definition (a title alone shows only on hover), each term is marked once per section and
never in a heading, and the glossary page lists every term with its definition and the
pages that use it."""

from __future__ import annotations

from typing import Any

import page_loads
import pytest
from chromium_driver import emulating, load
from support import ROOT, import_macros

pytestmark = pytest.mark.slow

glossary = import_macros("macros.glossary")
PAGES = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))

_MARKS = """
const article = document.querySelector('article');
const marks = [...article.querySelectorAll('abbr')];
const text = (a) => a.textContent;
const inHeadings = marks.filter((a) => a.closest('h1, h2, h3, h4, h5, h6')).map(text);
const hoverOnly = marks.filter((a) => !a.classList.contains('gloss-term')).map(text);
// Each mark with the second-level heading it falls under.
const seen = new Set(), twice = [];
let section = '';
const walker = document.createTreeWalker(article, NodeFilter.SHOW_ELEMENT);
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
  if (n.tagName === 'H2') section = n.textContent;
  if (n.tagName === 'ABBR') {
    const key = section + '|' + n.textContent;
    if (seen.has(key)) twice.push(key);
    seen.add(key);
  }
}
return {count: marks.length, inHeadings, hoverOnly, twice};
"""


# Read from the session's shared load of each page at the desktop size (``page_loads``).
page_loads.script("glossary.marks", _MARKS, sizes={page_loads.DESKTOP})


@pytest.mark.parametrize("name", PAGES)
def test_each_term_is_marked_once_a_section_never_in_a_heading(
    chromium: Any, base_url: str, name: str
) -> None:
    url = f"{base_url}{name}.html"
    got = page_loads.measured(chromium, url, page_loads.DESKTOP, "glossary.marks")
    assert got["inHeadings"] == [], f"{name}: terms marked in headings: {got['inHeadings']}"
    assert got["twice"] == [], f"{name}: a term marked twice in a section: {got['twice']}"
    assert got["hoverOnly"] == [], f"{name}: terms with a hover-only title: {got['hoverOnly']}"


def test_a_tap_shows_the_definition_and_links_the_glossary(chromium: Any, base_url: str) -> None:
    with emulating(chromium, 360, 800, mobile=True):
        load(chromium, f"{base_url}uncertainty.html")
        term = chromium.find_element("css selector", "abbr.gloss-term")
        tip = chromium.find_element("id", term.get_attribute("aria-controls"))
        assert not tip.is_displayed()
        term.click()
        assert tip.is_displayed()
        definitions = dict(glossary.entries(ROOT))
        assert definitions[term.text] in tip.text
        href = tip.find_element("css selector", "a").get_attribute("href")
        assert href.endswith(f"glossary.html#{glossary.anchor(term.text)}")
        term.click()
        assert not tip.is_displayed()


def test_the_glossary_page_lists_every_term(chromium: Any, base_url: str) -> None:
    load(chromium, f"{base_url}glossary.html")
    rows = chromium.execute_script(
        "return [...document.querySelectorAll('dl.glossary dt')].map((dt) => "
        "[dt.id, dt.textContent, dt.nextElementSibling.textContent])"
    )
    entries = glossary.entries(ROOT)
    assert [r[1] for r in rows] == [term for term, _ in entries]
    assert len({r[0] for r in rows}) == len(rows), "two terms share an anchor"
    for (anchor, term, text), (_, definition) in zip(rows, entries, strict=True):
        assert anchor == glossary.anchor(term)
        assert definition in text
    used = [r for r in rows if "Used on:" in r[2]]
    assert len(used) == len(rows), [r[1] for r in rows if r not in used]
