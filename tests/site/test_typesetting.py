"""The typesetting of every formula of the site, measured from painted pixels in Chromium.

For each formula the browser paints only the parts a rule compares (everything else on the
page is made invisible, layout untouched), and the ink of each part is read from a
screenshot (numpy and Pillow): each distinct formula (markup and width) once, many probes a
screenshot where their parts lie apart, each probe in one. The rules, from TeX's:

- a stretchy fence (``\\left(``, the brace of ``cases``, the parentheses of a binomial) is at
  least 0.9 of the height of what it encloses (``\\delimiterfactor`` 901);
- an overline is at least 0.95 of the width of its base;
- no script or limit touches its base: their inks share no pixel;
- every glyph of a formula is drawn from the site's math font (DevTools
  ``CSS.getPlatformFontsForNode``), not from a system font.

A formula folded in a closed ``<details>`` (a derivation of the uncertainty page, the list
of a formula's symbols) is not painted there: it is measured where it shows, every formula
on the reference page, each symbol in the line that names them.

Built without the font (its ``@font-face`` removed), the same measurement reports the
braces: ``test_without_the_font_the_braces_are_reported`` shows the test can fail; so do the
spoiled pages of the other ``..._is_reported`` tests.

The plots are measured on a 375 px phone: their text is drawn at 11 CSS px or more, curves
that share a plot differ by dash pattern and are named in its legend, and each plot carries
a text alternative (a ``<desc>`` and its data as a table).

Each page's measurements are taken on the session's shared loads of it (``page_loads.py``),
after the read-only tests' measurements, since these change the page: the formulas on the
desktop load (1280×900), the plots on the 360 px phone load laid out again at 375 px
(``test_plots_laid_out_again_measure_as_on_a_load_at_the_size`` shows it measures as a
load at 375 px would). The tests that spoil a page or compare shots load their own.

The browser is the session's ``chromium`` fixture (``tests/site/conftest.py``); without
Chromium, its driver, selenium, numpy or Pillow the tests are skipped, failed where ``CI`` is set.
"""

from __future__ import annotations

import base64
import functools
import io
import math
import re
import shutil
import sys
from dataclasses import dataclass
from typing import Any

import chromium_driver
import page_loads
import pytest
from chromium_driver import SHOT_OPTIONS, emulating, load, serve
from support import ROOT, built_site

pytestmark = pytest.mark.slow

#: Screenshots at twice the CSS pixel density, so a one-pixel gap is two pixels.
SCALE = 2
#: A pixel is ink when it is this dark (0-255, black ink on a white page).
INK_BELOW = 160
FENCE_COVER = 0.9  # TeX's \delimiterfactor 901
OVERLINE_COVER = 0.95
MATH_FONT = ROOT / "docs" / "fonts" / "STIXTwoMath-subset.woff2"
FONT_FACE = re.compile(r"@font-face\s*\{[^}]*\}", re.DOTALL)
#: Every page: formulas and plots are found on the built page (the reference page lists all).
PAGES = sorted(p.stem for p in (ROOT / "docs").glob("*.md"))

# Everything invisible but the two parts being probed (visibility keeps the layout as it is),
# one in cyan and one in magenta: one screenshot shows both, the red channel's ink is the
# first part's, the green channel's the second's. For a script and its base the two are
# multiplied where they overlap, so that a pixel they share is dark in both (only there:
# blending breaks the stretching of an overline's bar in Chromium). The blending is a class
# of the probed parts (``probe-mix``), not of the page: a class set on the root restyles the
# whole page, some 50 ms on the reference page for each probe that changes it.
PROBE_CSS = """
html.probe-mode, html.probe-mode body { background: #fff !important; }
html.probe-mode body * { visibility: hidden !important; }
html.probe-mode .probe-a, html.probe-mode .probe-a *,
html.probe-mode .probe-b, html.probe-mode .probe-b * { visibility: visible !important; }
html.probe-mode .probe-mix, html.probe-mode .probe-mix * { mix-blend-mode: multiply; }
html.probe-mode .probe-a, html.probe-mode .probe-a * { color: rgb(0, 255, 255) !important; }
html.probe-mode .probe-b, html.probe-mode .probe-b * { color: rgb(255, 0, 255) !important; }
"""

# Numbers every element of every formula, and lists what the rules compare (by number).
PROBES_JS = """
const fences = new Set(['(', ')', '[', ']', '{', '}', '|', '\\u2016', '\\u27e8', '\\u27e9']);
const scripted = new Set(['msub', 'msup', 'msubsup', 'munder', 'mover', 'munderover']);
const style = document.createElement('style');
style.textContent = arguments[0];
document.head.appendChild(style);
let next = 0;
const id = e => { if (!e.dataset.pi) e.dataset.pi = String(next++); return Number(e.dataset.pi); };
const isFence = e => e.localName === 'mo' && fences.has(e.textContent.trim())
  && e.getAttribute('stretchy') !== 'false';
const formulas = [];
// A formula folded in a closed <details> (a derivation, the list of a formula's symbols)
// is not painted: it is measured where it shows (every formula shows on the reference page).
const folded = m => {
  const closed = m.closest('details:not([open])');
  return !!closed && !m.closest('summary');
};
document.querySelectorAll('article math').forEach((math, index) => {
  if (folded(math)) return;
  const figure = math.closest('figure');
  const symbol = math.closest('.formula-where') ? ' (a symbol of its list)' : '';
  const name = ((figure && figure.dataset.mv) || `math #${index}`) + symbol;
  // The same markup at the same width is laid out the same wherever it is (read before
  // the probe numbers are added to it).
  const key = `${Math.round(math.getBoundingClientRect().width)}|${math.outerHTML}`;
  const probes = [];
  math.querySelectorAll('*').forEach(e => {
    if (isFence(e)) {
      const content = Array.from(e.parentElement.children).filter(s => !isFence(s));
      if (content.length) probes.push({kind: 'fence', what: e.textContent.trim(),
        a: [id(e)], b: content.map(id)});
    }
    if (scripted.has(e.localName) && e.children.length > 1) {
      const [base, ...scripts] = Array.from(e.children);
      const mark = scripts[0];
      if (e.localName === 'mover' && mark.textContent === '\\u203e') {
        probes.push({kind: 'overline', what: base.textContent, a: [id(mark)], b: [id(base)]});
      }
      scripts.forEach(s => probes.push({kind: 'script',
        what: `${base.textContent} / ${s.textContent}`, a: [id(s)], b: [id(base)]}));
    }
  });
  formulas.push({name, key, math: id(math), probes});
});
return formulas;
"""

# Shows the probes of one shot (``arguments[0]``: per probe its parts ``a`` and ``b`` and
# whether they blend) and scrolls them into the window: the page's range ``arguments[2]``
# (top, bottom) to its middle, or without one the formula ``arguments[1][0]`` to its centre.
# Returns the box on the page of each formula of ``arguments[1]`` and the window's box.
SHOW_JS = """
const [shown, maths, range] = arguments;
document.documentElement.classList.add('probe-mode');
document.querySelectorAll('.probe-a, .probe-b, .probe-mix')
  .forEach(e => e.classList.remove('probe-a', 'probe-b', 'probe-mix'));
const part = i => document.querySelector(`[data-pi="${i}"]`);
for (const [a, b, blend] of shown) {
  const mix = blend ? ['probe-mix'] : [];
  a.forEach(i => part(i).classList.add('probe-a', ...mix));
  b.forEach(i => part(i).classList.add('probe-b', ...mix));
}
if (range) {
  const [top, bottom] = range;
  window.scrollTo({top: top - (window.innerHeight - (bottom - top)) / 2, behavior: 'instant'});
} else {
  part(maths[0]).scrollIntoView({block: 'center', inline: 'nearest'});
}
const boxes = maths.map(i => {
  const r = part(i).getBoundingClientRect();
  return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height];
});
return [boxes, [window.scrollX, window.scrollY, window.innerWidth, window.innerHeight]];
"""
#: Per probe (its formula and its parts), the formula's box and the box of the parts on the
#: page; and the window's height: what the shots are planned from (the formula's box is
#: asked again as each is shot).
BOXES_JS = """
const box = e => { const r = e.getBoundingClientRect();
  return [r.left + window.scrollX, r.top + window.scrollY, r.right + window.scrollX,
          r.bottom + window.scrollY]; };
const part = i => document.querySelector(`[data-pi="${i}"]`);
return [arguments[0].map(([math, parts]) => {
  const boxes = parts.map(i => box(part(i)));
  return [box(part(math)), [Math.min(...boxes.map(b => b[0])), Math.min(...boxes.map(b => b[1])),
    Math.max(...boxes.map(b => b[2])), Math.max(...boxes.map(b => b[3]))]];
}), window.innerHeight];
"""
#: The CSS px around a probe's parts where their ink may lie (a glyph's ink may pass its
#: box), and between these zones of two probes in one shot. Ink outside every zone is a
#: part straying from its box, perhaps into another's zone (:func:`_batch_inks`).
MARGIN_PX = 4
GAP_PX = 4


@pytest.fixture
def driver(chromium: Any) -> Any:
    """The session's browser (``conftest.py``); the measurements also need numpy and Pillow."""
    chromium_driver.require("numpy", "PIL")
    return chromium


# --- Measuring -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Ink:
    """The ink of one screenshot: a boolean mask, and its extent (empty if no ink)."""

    mask: Any  # numpy bool array, rows × columns

    @property
    def rows(self) -> Any:
        import numpy as np

        return np.flatnonzero(self.mask.any(axis=1))

    @property
    def columns(self) -> Any:
        import numpy as np

        return np.flatnonzero(self.mask.any(axis=0))

    @property
    def height(self) -> int:
        rows = self.rows
        return int(rows[-1] - rows[0] + 1) if rows.size else 0

    @property
    def width(self) -> int:
        columns = self.columns
        return int(columns[-1] - columns[0] + 1) if columns.size else 0


def _device(value: float) -> int:
    """A CSS px position or length as a shot at :data:`SCALE` rounds it (half up)."""
    return math.floor(value * SCALE + 0.5)


def _masks(pixels: Any) -> tuple[Ink, Ink]:
    return Ink(pixels[:, :, 0] < INK_BELOW), Ink(pixels[:, :, 1] < INK_BELOW)


def _shot(driver: Any, box: tuple[float, float, float, float], beyond: bool) -> Any:
    """The pixels (rows × columns × RGB) of the page's ``box`` at :data:`SCALE`."""
    import numpy as np
    from PIL import Image

    x, y, width, height = box
    shot = driver.execute_cdp_cmd(
        "Page.captureScreenshot",
        {
            "format": "png",
            "captureBeyondViewport": beyond,
            "clip": {"x": x, "y": y, "width": width, "height": height, "scale": SCALE},
            **SHOT_OPTIONS,
        },
    )
    return np.asarray(Image.open(io.BytesIO(base64.b64decode(shot["data"]))).convert("RGB"))


Box = tuple[float, float, float, float]  # left, top, right, bottom on the page, CSS px


def _zone(parts: Box) -> Box:
    """Where the ink of a probe's parts may lie: their box grown by :data:`MARGIN_PX` (a
    glyph's ink may pass its box by a pixel or so). Its shot keeps the zone within the
    formula's box (a shot of the formula alone keeps nothing outside that)."""
    return (parts[0] - MARGIN_PX, parts[1] - MARGIN_PX, parts[2] + MARGIN_PX, parts[3] + MARGIN_PX)


def _one_inks(driver: Any, math_id: int, probe: dict[str, Any], beyond: bool) -> tuple[Ink, Ink]:
    """One probe shot alone: the shot of its formula's box (see :func:`_batch_inks`). The
    clip starts and ends on whole CSS px, as a shot of many does, and the box is cut out of
    it: a clip at the box's fractional corner has Chromium (150, Debian's) place the glyphs
    on another subpixel grid, a few pixels of antialiased ink apart from the same formula
    in a shot of many."""
    parts = [[probe["a"], probe["b"], probe["kind"] == "script"]]
    boxes, (sx, sy, width, height) = driver.execute_script(SHOW_JS, parts, [math_id], None)
    x, y, w, h = boxes[0]
    left, top = math.floor(x), math.floor(y)
    right, bottom = math.ceil(x + w), math.ceil(y + h)
    in_view = left >= sx and top >= sy and right <= sx + width and bottom <= sy + height
    pixels = _shot(driver, (left, top, right - left, bottom - top), beyond or not in_view)
    row0, col0 = _device(y) - top * SCALE, _device(x) - left * SCALE
    return _masks(pixels[row0 : row0 + _device(h), col0 : col0 + _device(w)])


def _batch_inks(
    driver: Any, shown: list[tuple[int, dict[str, Any], Box]], beyond: bool = False
) -> list[tuple[Ink, Ink]]:
    """The ink of the parts ``a`` and of the parts ``b`` of each ``(math, probe, zone)``
    shown, probes whose zones (:func:`_zone`) do not meet (see :data:`PROBE_CSS`); a
    script's parts blend, so that their overlap shows in both.

    The probes are scrolled into the window first and the shot is of what the window shows:
    a shot beyond the window (``beyond``, or a formula larger than the window) has Chromium
    repaint the whole page for it, about ten times as long on the reference page. The pixels
    are the same (``test_a_shot_in_the_window_is_the_shot_beyond_it``). Several probes are
    shot at once, of one formula or of several, and each is cut out of the shot at its zone
    within its formula's box: pixels of the page's own grid, so the ink is that of a shot of
    its formula alone (``test_a_shot_of_many_probes_measures_as_one_of_each``). Ink outside
    every zone is a part straying from its box, perhaps into another's zone: then each
    probe is shot alone."""
    if len(shown) == 1:
        math_id, probe, _ = shown[0]
        return [_one_inks(driver, math_id, probe, beyond)]
    parts = [[probe["a"], probe["b"], probe["kind"] == "script"] for _, probe, _ in shown]
    top, bottom = min(k[1] for *_, k in shown), max(k[3] for *_, k in shown)
    boxes, (sx, sy, width, height) = driver.execute_script(
        SHOW_JS, parts, [m for m, _, _ in shown], [top, bottom]
    )
    left, top = math.floor(min(k[0] for *_, k in shown)), math.floor(top)
    right, bottom = math.ceil(max(k[2] for *_, k in shown)), math.ceil(bottom)
    in_view = left >= sx and top >= sy and right <= sx + width and bottom <= sy + height
    pixels = _shot(driver, (left, top, right - left, bottom - top), beyond or not in_view)
    inks, stray = [], pixels[:, :, :2].min(axis=2) < INK_BELOW
    for (x, y, w, h), (_, _, kept) in zip(boxes, shown, strict=True):
        # The zone (whole pixels around it), in the pixels of this shot; of it, what the
        # formula's own shot holds: from its box's corner, its size, each rounded half up.
        zone = [
            math.floor(kept[0] * SCALE) - left * SCALE,
            math.floor(kept[1] * SCALE) - top * SCALE,
            math.ceil(kept[2] * SCALE) - left * SCALE,
            math.ceil(kept[3] * SCALE) - top * SCALE,
        ]
        row0 = max(_device(y) - top * SCALE, zone[1], 0)
        row1 = max(min(_device(y) + _device(h) - top * SCALE, zone[3]), 0)
        col0 = max(_device(x) - left * SCALE, zone[0], 0)
        col1 = max(min(_device(x) + _device(w) - left * SCALE, zone[2]), 0)
        inks.append(_masks(pixels[row0:row1, col0:col1]))
        stray[max(zone[1], 0) : max(zone[3], 0), max(zone[0], 0) : max(zone[2], 0)] = False
    if stray.any():
        return [_one_inks(driver, m, probe, beyond) for m, probe, _ in shown]
    return inks


def _inks(
    driver: Any, a: list[int], b: list[int], math_id: int, blend: bool, beyond: bool = False
) -> tuple[Ink, Ink]:
    """The ink of the parts ``a`` and of the parts ``b`` of one formula, from one shot of it
    alone (:func:`_batch_inks`); ``blend``: their overlap shows in both."""
    probe = {"a": a, "b": b, "kind": "script" if blend else "fence"}
    return _one_inks(driver, math_id, probe, beyond)


def _apart(one: Box, other: Box) -> bool:
    gap = GAP_PX
    return (
        one[2] + gap <= other[0]
        or other[2] + gap <= one[0]
        or one[3] + gap <= other[1]
        or other[3] + gap <= one[1]
    )


def _shots(kept: list[Box], window_height: float) -> list[list[int]]:
    """The probes (by index, in page order) in shots: each probe in the first shot where its
    zone (``kept``) meets no other's and the shot still fits in the window with a margin."""
    shots: list[list[int]] = []
    spans: list[tuple[float, float]] = []
    room = window_height - 4 * (MARGIN_PX + GAP_PX)
    for i, box in enumerate(kept):
        for n, (shot, (top, bottom)) in enumerate(zip(shots, spans, strict=True)):
            span = (min(top, box[1]), max(bottom, box[3]))
            if span[1] - span[0] <= room and all(_apart(box, kept[j]) for j in shot):
                shot.append(i)
                spans[n] = span
                break
        else:
            shots.append([i])
            spans.append((box[1], box[3]))
    return shots


def _probe_problems(probe: dict[str, Any], a: Ink, b: Ink) -> list[str]:
    """What breaks the rules in one probe of a formula (without its place)."""
    problems = []
    what = f"{probe['kind']} {probe['what']!r}"
    if probe["kind"] == "fence" and a.height < FENCE_COVER * b.height:
        problems.append(
            f"{what} is {a.height}px tall around {b.height}px of content "
            f"({a.height / b.height:.0%} < {FENCE_COVER:.0%})"
        )
    elif probe["kind"] == "overline" and a.width < OVERLINE_COVER * b.width:
        problems.append(
            f"{what} is {a.width}px wide over a {b.width}px base "
            f"({a.width / b.width:.0%} < {OVERLINE_COVER:.0%})"
        )
    elif probe["kind"] == "script":
        shared = int((a.mask & b.mask).sum())
        if shared:
            problems.append(f"{what}: script and base share {shared} pixels")
    if not a.mask.any():
        problems.append(f"{what} paints no ink")
    return problems


def _formulas_problems(driver: Any, formulas: list[dict[str, Any]]) -> list[list[str]]:
    """What breaks the rules in each of ``formulas`` of the loaded page: every probe of
    them measured once, many probes a shot (:func:`_shots`)."""
    probes = [(i, probe) for i, f in enumerate(formulas) for probe in f["probes"]]
    asked = [[formulas[i]["math"], probe["a"] + probe["b"]] for i, probe in probes]
    boxes, window_height = driver.execute_script(BOXES_JS, asked)
    kept = [_zone(tuple(p)) for _, p in boxes]
    problems: list[list[str]] = [[] for _ in formulas]
    for shot in _shots(kept, window_height):
        shown = [(formulas[probes[j][0]]["math"], probes[j][1], kept[j]) for j in shot]
        for j, (a, b) in zip(shot, _batch_inks(driver, shown), strict=True):
            i, probe = probes[j]
            problems[i].extend(_probe_problems(probe, a, b))
    return problems


#: What each formula's measurement found, by its site, the page's spoiling CSS, and its
#: markup and width (``key`` in :data:`PROBES_JS`): a formula that several pages show (the
#: reference page shows them all) is measured once, its findings reported for each page.
_MEASURED: dict[str, list[str]] = {}


def typesetting_problems(driver: Any, url: str, spoil_css: str = "") -> list[str]:
    """What breaks the rules in the formulas of the page at ``url`` (empty: none);
    ``spoil_css`` is added to the page first (to show that a rule can fail)."""
    load(driver, url)
    return loaded_typesetting_problems(driver, url, spoil_css)


def loaded_typesetting_problems(driver: Any, url: str, spoil_css: str = "") -> list[str]:
    """:func:`typesetting_problems` of the page at ``url``, loaded already; it is changed
    (probe numbers and styles), so nothing may be read from it afterwards."""
    formulas = driver.execute_script(PROBES_JS, PROBE_CSS + spoil_css)
    site, page = url.rsplit("/", 1)

    def key(formula: dict[str, Any]) -> str:
        return f"{site}|{spoil_css}|{formula['key']}"  # a site of its own, or spoiled: anew

    # The page's formulas not measured before, each distinct one once (where it first shows).
    new: dict[str, dict[str, Any]] = {}
    for formula in formulas:
        if key(formula) not in _MEASURED:
            new.setdefault(key(formula), formula)
    found = _formulas_problems(driver, list(new.values()))
    _MEASURED.update(zip(new, found, strict=True))
    problems = []
    for formula in formulas:
        where = f"{page} {formula['name']}"
        problems.extend(f"{where}: {found}" for found in _MEASURED[key(formula)])
    driver.execute_script("document.documentElement.classList.remove('probe-mode')")
    return problems + font_problems(driver, page, site)


@functools.cache
def served_family() -> str:
    """The family name inside the font file the site serves (what DevTools reports)."""
    from fontTools.ttLib import TTFont

    return str(TTFont(MATH_FONT)["name"].getDebugName(1))


#: What tells two glyph nodes apart for font matching: a node with the same tag, text and
#: computed font properties is drawn from the same font, so it is asked about once.
GLYPH_KEYS_JS = """
return Array.from(document.querySelectorAll(arguments[0])).map(e => {
  const s = getComputedStyle(e);
  return [e.localName, e.textContent, e.getAttribute('mathvariant') || '', s.fontFamily,
          s.fontStyle, s.fontWeight, s.fontSize].join('|');
});
"""
#: The fonts found for each glyph key, by site (a spoiled site is asked anew).
_FONTS: dict[str, list[dict[str, Any]]] = {}


def font_problems(driver: Any, page: str, site: str = "") -> list[str]:
    """Glyphs of the page's formulas drawn from another font than the site's math font:
    one DevTools question per distinct glyph (:data:`GLYPH_KEYS_JS`) of the site."""
    driver.execute_cdp_cmd("DOM.enable", {})
    driver.execute_cdp_cmd("CSS.enable", {})
    try:
        return _font_problems(driver, page, site)
    finally:
        # Off again: left on, the two agents would report on every page the later tests
        # load (some 10% of a load of the reference page).
        driver.execute_cdp_cmd("CSS.disable", {})
        driver.execute_cdp_cmd("DOM.disable", {})


def _font_problems(driver: Any, page: str, site: str) -> list[str]:
    family = served_family()
    # The document node alone: the query below sends the nodes it finds (the whole tree,
    # depth -1, took a quarter of a second on the reference page).
    root = driver.execute_cdp_cmd("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    selector = "article math :is(mi, mo, mn, mtext)"
    nodes = driver.execute_cdp_cmd("DOM.querySelectorAll", {"nodeId": root, "selector": selector})
    keys = driver.execute_script(GLYPH_KEYS_JS, selector)
    if len(keys) != len(nodes["nodeIds"]):
        return [f"{page}: the page changed while its glyphs were listed"]
    problems = []
    checked = 0
    for node, key in zip(nodes["nodeIds"], keys, strict=True):
        cache = f"{site}|{key}"
        if cache not in _FONTS:
            asked = driver.execute_cdp_cmd("CSS.getPlatformFontsForNode", {"nodeId": node})
            _FONTS[cache] = asked["fonts"]
        fonts = _FONTS[cache]
        checked += bool(fonts)
        foreign = sorted(
            {
                f["familyName"]
                for f in fonts
                if f["glyphCount"] and (f["familyName"] != family or not f["isCustomFont"])
            }
        )
        if foreign:
            text = driver.execute_cdp_cmd("DOM.getOuterHTML", {"nodeId": node})["outerHTML"]
            problems.append(f"{page}: {text} is drawn from {', '.join(foreign)}")
    if nodes["nodeIds"] and not checked:
        problems.append(f"{page}: no glyph of a formula was found to check its font")
    return problems


# --- The tests --------------------------------------------------------------------------------


def _shared_typesetting_problems(
    driver: Any, url: str, size: page_loads.Size, scripts: dict[str, Any]
) -> list[str]:
    # Kept as this measurement's failure, not raised as a skip: the load may be another
    # test's (the driver fixture skips the tests that ask for it).
    reason = chromium_driver.missing("numpy", "PIL")
    if reason is not None:
        raise RuntimeError(reason)
    return loaded_typesetting_problems(driver, url)


# The formulas are measured on the session's shared load of each page at the desktop size
# (``page_loads``), after the tests that only read it: the measurement changes the page.
page_loads.action(
    "typesetting.formulas",
    _shared_typesetting_problems,
    sizes={page_loads.DESKTOP},
    mutates=True,
)


@pytest.mark.parametrize("check", ["formulas_are_typeset", "plots_read_on_a_phone"])
@pytest.mark.parametrize("name", PAGES)
def test_page_in_chromium(driver: Any, base_url: str, name: str, check: str) -> None:
    """Each page passes both measurements: its formulas' typesetting (above), taken on the
    shared desktop load of the page (1280×900), and its plots on a phone (below)."""
    url = f"{base_url}{name}.html"
    if check == "formulas_are_typeset":
        problems = page_loads.measured(driver, url, page_loads.DESKTOP, "typesetting.formulas")
    else:
        found = page_loads.measured(driver, url, page_loads.PHONE, "typesetting.plots")
        problems = _problems_of_plots(url, found)
    assert not problems, "\n".join(problems)


def test_a_shot_in_the_window_is_the_shot_beyond_it(driver: Any, base_url: str) -> None:
    """The measurement's shot of the window (``_inks``) reads the same ink as a shot of the
    whole page would, for probes of each kind on the last formulas of the longest page."""
    load(driver, f"{base_url}reference.html")
    formulas = driver.execute_script(PROBES_JS, PROBE_CSS)
    kinds: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
    for formula in reversed(formulas):
        for probe in formula["probes"]:
            kinds.setdefault(probe["kind"], (formula, probe))
    assert set(kinds) == {"fence", "overline", "script"}, sorted(kinds)
    for kind, (formula, probe) in kinds.items():
        args = (probe["a"], probe["b"], formula["math"], kind == "script")
        window, page = _inks(driver, *args), _inks(driver, *args, beyond=True)
        assert window[0].mask.any(), f"{kind} {probe['what']!r} paints no ink"
        for seen, whole in zip(window, page, strict=True):
            assert seen.mask.shape == whole.mask.shape, (kind, probe["what"])
            assert (seen.mask == whole.mask).all(), (kind, probe["what"])


def _measures(ink: tuple[Ink, Ink]) -> tuple[int, ...]:
    """What the rules read of a probe's ink: each part's pixels, height and width, and the
    pixels the two share."""
    a, b = ink
    shared = int((a.mask & b.mask).sum())
    return (int(a.mask.sum()), int(b.mask.sum()), a.height, a.width, b.height, b.width, shared)


def test_a_shot_of_many_probes_measures_as_one_of_each(driver: Any, base_url: str) -> None:
    """The measurement's shot of many probes at once (``_batch_inks``) reads of each the same
    ink as a shot of its formula alone, for shots that hold probes of each kind, several of
    one formula among them, on the longest page."""
    load(driver, f"{base_url}reference.html")
    formulas = driver.execute_script(PROBES_JS, PROBE_CSS)
    probes = [(f["math"], probe) for f in formulas for probe in f["probes"]]
    boxes, window_height = driver.execute_script(
        BOXES_JS, [[m, probe["a"] + probe["b"]] for m, probe in probes]
    )
    zones = [_zone(tuple(parts)) for _, parts in boxes]
    kinds: set[str] = set()
    one_formula = False
    for shot in _shots(zones, window_height):
        shown = [(*probes[j], zones[j]) for j in shot]
        new_kind = {probe["kind"] for _, probe, _ in shown} - kinds
        shared = len({m for m, _, _ in shown}) < len(shown)
        if len(shown) < 3 or not (new_kind or (shared and not one_formula)):
            continue
        kinds |= new_kind
        one_formula |= shared
        for (m, probe, _), ink in zip(shown, _batch_inks(driver, shown), strict=True):
            alone = _one_inks(driver, m, probe, False)
            assert ink[0].mask.any(), f"{probe['kind']} {probe['what']!r} paints no ink"
            assert _measures(ink) == _measures(alone), (probe["kind"], probe["what"])
        if kinds == {"fence", "overline", "script"} and one_formula:
            break
    assert kinds == {"fence", "overline", "script"}, sorted(kinds)
    assert one_formula, "no shot held two probes of one formula"


#: How far below its box a spoiled subscript casts its ink (px).
SHADOW_PX = 14


def test_ink_outside_every_zone_has_the_shot_retaken_one_probe_a_shot(
    driver: Any, base_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Subscripts that cast their ink below their box (a text shadow, boxes unchanged): a
    shot of many probes that holds one is retaken one probe a shot, and reads of each what
    a shot of its formula alone reads."""
    load(driver, f"{base_url}composite.html")
    stray = f"math msub > :last-child {{ text-shadow: 0 {SHADOW_PX}px 0 currentColor; }}"
    formulas = driver.execute_script(PROBES_JS, PROBE_CSS + stray)
    probes = [(f["math"], probe) for f in formulas for probe in f["probes"]]
    boxes, window_height = driver.execute_script(
        BOXES_JS, [[m, probe["a"] + probe["b"]] for m, probe in probes]
    )
    zones = [_zone(tuple(parts)) for _, parts in boxes]

    def shadow_shown(shot: list[int]) -> bool:
        """Whether the shot reaches below one of its subscripts' shadows (it is cut at the
        lowest of its zones)."""
        bottom = max(zones[j][3] for j in shot)
        return any(
            probes[j][1]["kind"] == "script" and zones[j][3] + SHADOW_PX < bottom for j in shot
        )

    shot = next(
        shot for shot in _shots(zones, window_height) if len(shot) > 1 and shadow_shown(shot)
    )
    shown = [(*probes[j], zones[j]) for j in shot]
    taken: list[Any] = []
    shoot = _shot
    monkeypatch.setattr(
        sys.modules[__name__], "_shot", lambda *args: taken.append(args) or shoot(*args)
    )
    inks = _batch_inks(driver, shown)
    assert len(taken) == 1 + len(shown), f"{len(taken)} shots for {len(shown)} probes"
    for (m, probe, _), ink in zip(shown, inks, strict=True):
        assert _measures(ink) == _measures(_one_inks(driver, m, probe, False)), probe["what"]


def test_the_font_loads_from_a_file_copy(
    driver: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """Opened from the file system (file://), the formulas are still drawn with the font."""
    url = (built_site(tmp_path_factory) / "composite.html").as_uri()
    load(driver, url)
    assert driver.execute_script("return document.querySelectorAll('article math').length")
    assert font_problems(driver, "composite.html (file://)") == []


def test_a_script_pushed_onto_its_base_is_reported(driver: Any, base_url: str) -> None:
    """Subscripts moved half an em to the left, onto their base: reported, as no other rule."""
    spoil = "math msub > :last-child { margin-left: -0.5em !important; }"
    problems = typesetting_problems(driver, f"{base_url}composite.html", spoil)
    assert problems, "subscripts on their base went unnoticed"
    assert all("script and base share" in p for p in problems), "\n".join(problems)


def test_without_the_font_the_braces_are_reported(
    driver: Any, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """A copy of the built site with the ``@font-face`` removed from its stylesheet (the
    build copies ``docs/stylesheets/site.css`` as it is, so no rebuild is needed): the
    braces of ``cases`` stay text-sized, and the glyphs come from a system font; both are
    reported."""
    dest = tmp_path_factory.mktemp("no-math-font") / "site"
    shutil.copytree(built_site(tmp_path_factory), dest)
    stylesheet = dest / "stylesheets" / "site.css"
    css, count = FONT_FACE.subn("", stylesheet.read_text(encoding="utf-8"))
    assert count == 1, "the stylesheet has no @font-face to remove"
    stylesheet.write_text(css, encoding="utf-8")
    with serve(dest) as url:
        problems = typesetting_problems(driver, f"{url}composite.html")
    braces = [p for p in problems if "fence '{'" in p and "formula:composite.score" in p]
    assert braces, "\n".join(problems) or "no problem reported without the font"
    assert any("is drawn from" in p for p in problems)


# --- Plots on a phone --------------------------------------------------------------------------

PHONE = (375, 812)
MIN_PHONE_TEXT_PX = 11

# Per plot: the smallest text as drawn (font size × the SVG's scale), the curves' dash
# patterns and names, the legend's names, and the text alternatives.
PLOTS_JS = """
const style = document.createElement('style');
style.textContent = arguments[0];
document.head.appendChild(style);
return Array.from(document.querySelectorAll('article figure.plot')).map(figure => {
  const svg = figure.querySelector('svg');
  const texts = Array.from(svg.querySelectorAll('text')).map(t => {
    const m = t.getScreenCTM();
    return [t.textContent, parseFloat(getComputedStyle(t).fontSize) * Math.hypot(m.a, m.b)];
  });
  const curves = Array.from(svg.querySelectorAll('path.curve')).map(p => ({
    name: (p.querySelector('title') || {}).textContent || '',
    dash: getComputedStyle(p).strokeDasharray,
  }));
  const legend = Array.from(svg.querySelectorAll('.legend text')).map(t => t.textContent);
  const desc = svg.querySelector('desc');
  return {key: figure.dataset.mv, texts, curves, legend,
    desc: desc ? desc.textContent : '', rows: figure.querySelectorAll('details table tr').length};
});
"""


def plot_problems(driver: Any, url: str, spoil_css: str = "") -> list[str]:
    """What makes a plot of the page hard to read on a 375 px phone (empty: nothing)."""
    with emulating(driver, *PHONE, mobile=True):
        load(driver, url)
        found = driver.execute_script(PLOTS_JS, spoil_css)
    return _problems_of_plots(url, found)


def _problems_of_plots(url: str, found: list[dict[str, Any]]) -> list[str]:
    """What makes a plot hard to read on a phone, of the plots ``found`` (:data:`PLOTS_JS`)
    on the page at ``url``."""
    page = url.rsplit("/", 1)[-1]
    problems = []
    for plot in found:
        where = f"{page} {plot['key']}"
        for text, size in plot["texts"]:
            if size < MIN_PHONE_TEXT_PX:
                problems.append(f"{where}: {text!r} is drawn at {size:.1f}px on a phone")
        curves = plot["curves"]
        if len(curves) > 1:
            dashes = [c["dash"] for c in curves]
            if len(set(dashes)) < len(dashes):
                problems.append(f"{where}: curves told apart by colour alone ({dashes})")
            unnamed = [c["name"] for c in curves if c["name"] not in plot["legend"]]
            if unnamed:
                problems.append(f"{where}: curves missing from the legend: {unnamed}")
        if not plot["desc"] or plot["rows"] < 2:
            problems.append(f"{where}: no text alternative (a <desc> and a data table)")
    return problems


#: The window of :data:`PHONE`, as ``Emulation.setDeviceMetricsOverride`` takes it.
PHONE_METRICS = {"width": PHONE[0], "height": PHONE[1], "deviceScaleFactor": 1, "mobile": True}


def _plots_laid_out_again(
    driver: Any, url: str, size: page_loads.Size, scripts: dict[str, Any]
) -> list[dict[str, Any]]:
    """:data:`PLOTS_JS` of the shared phone load (360 px) laid out again for :data:`PHONE`
    (375 px): the page's layout at that size without loading it again, the same as a load
    at 375 px measures (``test_plots_laid_out_again_measure_as_on_a_load_at_the_size``)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", PHONE_METRICS)
    chromium_driver.wait_for(driver, f"return document.documentElement.clientWidth === {PHONE[0]}")
    return driver.execute_script(PLOTS_JS, "")


# Taken last on the shared phone load: it lays the page out again at another size.
page_loads.action(
    "typesetting.plots", _plots_laid_out_again, sizes={page_loads.PHONE}, mutates=True
)


def test_plots_laid_out_again_measure_as_on_a_load_at_the_size(driver: Any, base_url: str) -> None:
    """The plots of the shared phone load laid out again at 375 px read as those of the
    page loaded at 375 px, on the page with the most plots."""
    url = f"{base_url}radar.html"
    again = page_loads.measured(driver, url, page_loads.PHONE, "typesetting.plots")
    with emulating(driver, *PHONE, mobile=True):
        load(driver, url)
        loaded = driver.execute_script(PLOTS_JS, "")
    assert len(loaded) > 5, f"radar.html shows {len(loaded)} plots"
    assert again == loaded


def test_small_text_and_look_alike_curves_are_reported(driver: Any, base_url: str) -> None:
    """The plots' text at the desktop size on a phone, and every curve solid: reported."""
    spoil = (
        ".plot text, .plot .label, .plot .marker-label { font-size: 12px !important; }"
        ".plot .curve { stroke-dasharray: none !important; }"
    )
    problems = plot_problems(driver, f"{base_url}outcome.html", spoil)
    assert any("drawn at" in p for p in problems), "\n".join(problems)
    assert any("colour alone" in p for p in problems), "\n".join(problems)
