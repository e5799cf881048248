"""LaTeX to MathML at build time: the browser lays the formula out, no script is loaded.

latex2mathml does the conversion; :func:`tidy` then fixes what it leaves that a reader sees
or hears wrongly in MathML Core (Chromium, Firefox, Safari):

- ``\\mathrm{latency}`` comes out as seven single-letter ``<mi>``: a screen reader spells
  it. It becomes one ``<mi mathvariant="normal">latency</mi>``.
- ``\\operatorname{clamp}``, ``\\max``, ``\\min`` come out as ``<mo>``, spaced as a binary
  operator. They become ``<mi>`` (upright: a multi-letter ``<mi>`` is) followed by the
  invisible function application U+2061, as in TeX: no gap before ``(``.
- ``\\overline`` comes out as U+2015, which does not stretch: the bar covers one letter. It
  becomes a stretchy U+203E over the whole base (its ``<mover>`` of class ``overline``).
- ``\\tilde`` comes out as an ASCII ``~`` at mid-height; it becomes the accent U+02DC.
- ``\\hat`` comes out as an ASCII ``^`` set as an accent, which Chromium draws touching its
  base; it becomes the modifier circumflex U+02C6 set as an over-script, clear of the base.
- ``\\pm`` comes out as an ``<mi>``, set tight against its operands; it becomes an ``<mo>``.
- A capital Greek letter is italic in MathML Core, upright in TeX: it gets
  ``mathvariant="normal"``.
- Named spaces (``thinmathspace``) are not part of MathML Core; they become ems, and the
  negative ones (``\\!``) go, since MathML adds none of the TeX gaps they were cancelling.
- The TeX rides along as ``<annotation encoding="application/x-tex">`` in ``<semantics>``.

A displayed formula is written on one line (a case a row, as its structure needs): where
the browser finds it wider than its column, ``docs/javascripts/formulas.js`` breaks it into
lines at the places :mod:`macros.linebreak` marks (a clause's end first, then before a
relation or an operator). A formula of several clauses (``S \\pm e,\\quad g = \\ldots``)
is one row of its clauses, each converted on its own, a quad between two. The TeX
annotation keeps the whole formula.
"""

from __future__ import annotations

import functools
import html
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from latex2mathml.converter import convert

from macros import disk_cache
from macros.linebreak import QUAD, mark

MATHML_NS = "http://www.w3.org/1998/Math/MathML"
TEX_ENCODING = "application/x-tex"
ET.register_namespace("", MATHML_NS)

# A command left in the MathML means latex2mathml did not know it (it keeps it as an <mi>).
RAW_LATEX = re.compile(r"\\[A-Za-z]+")

OVERLINE = "\u203e"  # stretches horizontally in the math font
#: Class of an overline's ``<mover>`` (site.css pads its base).
OVERLINE_CLASS = "overline"
FUNCTION_APPLICATION = "\u2061"
BARS = frozenset({"\u2015", "\u00af", OVERLINE})  # what an overline may arrive as
TILDES = frozenset({"~", "\u02dc"})
HATS = frozenset({"^", "\u02c6"})
CAPITAL_GREEK = frozenset(chr(c) for c in range(0x391, 0x3AA))
#: MathML 3 named spaces (not in MathML Core), in ems.
NAMED_SPACES = {
    "veryverythinmathspace": 1 / 18,
    "verythinmathspace": 2 / 18,
    "thinmathspace": 3 / 18,
    "mediummathspace": 4 / 18,
    "thickmathspace": 5 / 18,
    "verythickmathspace": 6 / 18,
    "veryverythickmathspace": 7 / 18,
}
NAMED_SPACES |= {f"negative{name}": -ems for name, ems in NAMED_SPACES.items()}
#: Characters that latex2mathml leaves in an ``<mi>`` although they are punctuation, or
#: operators (``\\pm``, ``\\mp``: an ``<mi>`` gets no space on either side).
PUNCTUATION = frozenset(":;!,|\u00b1\u2213")
#: Parts of a ``\mathrm{...}`` word that arrive as ``<mo>`` (``judged.recoverable``).
WORD_JOINERS = frozenset({".", "_"})
#: latex2mathml writes ``\\mathrm{d}`` as ``<mi>&#x00064;</mi>`` (a plain ``d`` as ``<mi>d</mi>``),
#: without the ``mathvariant`` that would keep it upright; the escaped letter is the only trace.
_UPRIGHT_LETTER = re.compile(r"<mi>(&#x0*(?:4[1-9A-F]|5[0-9A]|6[1-9A-F]|7[0-9A]);)</mi>")
SCRIPTED = frozenset({"msub", "msup", "msubsup", "munder", "mover", "munderover"})


def _q(tag: str) -> str:
    return f"{{{MATHML_NS}}}{tag}"


def _tag(element: ET.Element) -> str:
    return element.tag.rpartition("}")[2]


#: What joins two clauses of a formula: a comma or semicolon, then ``\quad``.
CLAUSE_BREAK = re.compile(r"[,;]\s*\\quad\s*")
_OPENING = re.compile(r"\\left\b|\\begin\b|\{")
_CLOSING = re.compile(r"\\right\b|\\end\b|\}")


def clauses(latex: str) -> list[str]:
    """``latex`` cut after each clause break outside any group, brace or environment (the
    punctuation stays with the clause before it).

    >>> clauses(r"a = 1,\\quad b = \\left(x,\\quad y\\right);\\quad c")
    ['a = 1,', 'b = \\\\left(x,\\\\quad y\\\\right);', 'c']
    """
    pieces, start, depth, at = [], 0, 0, 0
    while at < len(latex):
        opening, closing = _OPENING.match(latex, at), _CLOSING.match(latex, at)
        brk = CLAUSE_BREAK.match(latex, at)
        if latex.startswith("\\", at) and not (opening or closing):
            at += 2  # an escaped character (``\{``) or a command: never a group
            continue
        if opening or closing:
            depth += 1 if opening else -1
            at = (opening or closing).end()  # type: ignore[union-attr]
        elif brk and depth == 0:
            pieces.append(latex[start : at + 1].strip())
            start = at = brk.end()
        else:
            at += 1
    return [*pieces, latex[start:].strip()]


def to_mathml(latex: str, *, block: bool = True) -> str:
    """MathML for ``latex``, tidied, carrying its TeX; ``ValueError`` if LaTeX survives. A
    block formula carries the places where a line may break (:func:`macros.linebreak.mark`).

    >>> print(to_mathml(r"\\mathrm{cost}", block=False))  # doctest: +NORMALIZE_WHITESPACE
    <math xmlns="http://www.w3.org/1998/Math/MathML" display="inline"><semantics><mrow><mrow>\
<mi mathvariant="normal">cost</mi></mrow></mrow><annotation encoding="application/x-tex">\
\\mathrm{cost}</annotation></semantics></math>
    """
    # Kept between builds (a pure function of the TeX, the converter and the typesetting
    # code of this site): a rebuild under serve converts only the formulas an edit changed.
    key = (*_typesetter(), str(block), latex)
    return disk_cache.cached("mathml", key, lambda: _mathml(latex, block).encode()).decode()


@functools.cache
def _typesetter() -> tuple[str, ...]:
    """What the MathML of a formula depends on besides its TeX: the converter's version and
    the source of this module and of the line-break marks."""
    import latex2mathml

    from macros import linebreak

    return (
        getattr(latex2mathml, "__version__", "") or _version("latex2mathml"),
        Path(__file__).read_text(encoding="utf-8"),
        Path(linebreak.__file__).read_text(encoding="utf-8"),
    )


def _version(distribution: str) -> str:
    from importlib.metadata import version

    return version(distribution)


def _mathml(latex: str, block: bool) -> str:
    pieces = clauses(latex) if block else [latex]
    mathml = convert(latex, display="block" if block else "inline")
    if len(pieces) > 1:
        mathml = _clause_rows(pieces)
    if RAW_LATEX.search(mathml):
        raise ValueError(f"LaTeX left in the MathML of {latex!r}")
    return tidy(mathml, latex, breaks=block)


def _clause_rows(pieces: list[str]) -> str:
    """A block ``<math>`` whose row holds each clause converted on its own (as its own row:
    a ``\\bigl(`` of one clause is sized by that clause alone), a quad between two."""
    math = ET.Element(_q("math"), {"display": "block"})
    row = ET.SubElement(math, _q("mrow"))
    for at, piece in enumerate(pieces):
        if at:
            ET.SubElement(row, _q("mspace"), {"width": QUAD})
        content = list(ET.fromstring(convert(piece, display="block")))
        if len(content) == 1 and _tag(content[0]) == "mrow":
            content = list(content[0])  # latex2mathml's own row of the clause
        ET.SubElement(row, _q("mrow")).extend(content)
    return ET.tostring(math, encoding="unicode")


def tidy(mathml: str, latex: str | None = None, *, breaks: bool = False) -> str:
    """The post-processing of latex2mathml's output described in the module docstring;
    with ``breaks``, the places a line may break are marked (:mod:`macros.linebreak`); with
    ``latex``, the formula is wrapped in ``<semantics>`` with its TeX annotation."""
    root = ET.fromstring(_UPRIGHT_LETTER.sub(r'<mi mathvariant="normal">\1</mi>', mathml))
    _merge_words(root)
    _operator_names(root)
    _accents(root)
    _letters(root)
    _spaces(root)
    if breaks:
        mark(root)
    if latex is not None:
        _annotate(root, latex)
    return ET.tostring(root, encoding="unicode", short_empty_elements=True)


def _is_word_part(element: ET.Element) -> bool:
    text = element.text or ""
    if _tag(element) == "mi":
        return element.get("mathvariant") == "normal" and len(text) == 1 and not len(element)
    return _tag(element) == "mo" and text in WORD_JOINERS and not element.attrib


def _merge_words(root: ET.Element) -> None:
    """An ``<mrow>`` of upright single letters (one ``\\mathrm{word}``) becomes one ``<mi>``."""
    for parent in list(root.iter()):
        for index, child in enumerate(list(parent)):
            parts = list(child)
            if (
                _tag(child) == "mrow"
                and len(parts) >= 2
                and all(_is_word_part(p) for p in parts)
                and any(_tag(p) == "mi" for p in parts)
            ):
                word = ET.Element(_q("mi"), {"mathvariant": "normal"})
                word.text = "".join(p.text or "" for p in parts)
                word.tail = child.tail
                parent[index] = word


def _operator_names(root: ET.Element) -> None:
    """``<mo>clamp</mo>`` becomes ``<mi>clamp</mi>`` applied to what follows (U+2061)."""
    for parent in list(root.iter()):
        for child in list(parent):
            name = _operator_name(child)
            if name is None:
                continue
            name.tag = _q("mi")
            name.attrib.clear()
            follower = _next(parent, child)
            if follower is not None and (follower.text or "") != FUNCTION_APPLICATION:
                apply = ET.Element(_q("mo"))
                apply.text = FUNCTION_APPLICATION
                parent.insert(list(parent).index(child) + 1, apply)


def _next(parent: ET.Element, child: ET.Element) -> ET.Element | None:
    siblings = list(parent)
    at = siblings.index(child) + 1
    return siblings[at] if at < len(siblings) else None


def _operator_name(element: ET.Element) -> ET.Element | None:
    """The ``<mo>`` of a multi-letter operator name at ``element`` (or as its scripted base)."""
    if _tag(element) in SCRIPTED and len(element):
        element = element[0]
    text = element.text or ""
    if _tag(element) == "mo" and len(text) > 1 and text.isalpha():
        return element
    return None


def _accents(root: ET.Element) -> None:
    for over in root.iter(_q("mover")):
        if len(over) != 2 or _tag(over[1]) != "mo":
            continue
        mark = over[1]
        if (mark.text or "") in BARS:
            mark.text = OVERLINE
            mark.attrib.clear()
            mark.set("stretchy", "true")
            # site.css pads the base a little: the bar stretches to the base's box, and an
            # italic letter's ink reaches past its advance.
            over.set("class", OVERLINE_CLASS)
        elif (mark.text or "") in TILDES:
            mark.text = "\u02dc"
            mark.attrib.clear()
            over.set("accent", "true")
        elif (mark.text or "") in HATS:
            mark.text = "\u02c6"
            mark.attrib.clear()
            over.attrib.pop("accent", None)


def _letters(root: ET.Element) -> None:
    for element in list(root.iter(_q("mi"))):
        text = element.text or ""
        if text in CAPITAL_GREEK and "mathvariant" not in element.attrib:
            element.set("mathvariant", "normal")
        elif text in PUNCTUATION:
            element.tag = _q("mo")
            element.attrib.clear()


def _spaces(root: ET.Element) -> None:
    """Named widths become ems; a negative one is dropped: in TeX, ``\\!`` cancels the thin
    space TeX puts before a ``\\left(``, and MathML puts none there to cancel."""
    for parent in list(root.iter()):
        for space in list(parent):
            if _tag(space) != "mspace":
                continue
            ems = NAMED_SPACES.get(space.get("width", ""))
            if ems is not None and ems < 0:
                parent.remove(space)
            elif ems is not None:
                space.set("width", f"{ems:.4f}em")


def _annotate(root: ET.Element, latex: str) -> None:
    body = ET.Element(_q("mrow"))
    body.extend(list(root))
    for child in list(root):
        root.remove(child)
    semantics = ET.SubElement(root, _q("semantics"))
    semantics.append(body)
    annotation = ET.SubElement(semantics, _q("annotation"), {"encoding": TEX_ENCODING})
    annotation.text = latex


def tex_source(latex: str) -> str:
    """The TeX of a formula for a reader to copy: a closed ``<details>`` (no script needed to
    open it and select the text; the theme adds its copy button to the code block)."""
    return (
        '<details class="formula-tex"><summary>TeX</summary>'
        f"<pre><code>{html.escape(latex, quote=False)}</code></pre></details>"
    )


# --- What a formula paints (for the font subset and its test) ------------------------------

_ITALIC_CAPITAL, _ITALIC_SMALL = 0x1D434, 0x1D44E
_ITALIC_GREEK_CAPITAL, _ITALIC_GREEK_SMALL = 0x1D6E2, 0x1D6FC
#: Holes of the Mathematical Italic block, filled from the Letterlike Symbols block.
_ITALIC_EXCEPTIONS = {"h": 0x210E}


def italic(char: str) -> str:
    """The character a browser draws for a single-letter ``<mi>`` (``text-transform:
    math-auto``): Latin and Greek letters become Mathematical Italic, others stay.

    >>> italic("a"), italic("h"), italic("2")
    ('𝑎', 'ℎ', '2')
    """
    code = ord(char)
    if char in _ITALIC_EXCEPTIONS:
        return chr(_ITALIC_EXCEPTIONS[char])
    if "A" <= char <= "Z":
        return chr(_ITALIC_CAPITAL + code - ord("A"))
    if "a" <= char <= "z":
        return chr(_ITALIC_SMALL + code - ord("a"))
    if 0x391 <= code <= 0x3A9:
        return chr(_ITALIC_GREEK_CAPITAL + code - 0x391)
    if 0x3B1 <= code <= 0x3C9:
        return chr(_ITALIC_GREEK_SMALL + code - 0x3B1)
    return char


def painted_codepoints(mathml: str) -> set[int]:
    """Every code point the browser draws for ``mathml`` (the TeX annotation left out)."""
    found: set[int] = set()
    for element in ET.fromstring(mathml).iter():
        if _tag(element) not in ("mi", "mo", "mn", "mtext", "ms"):
            continue
        text = element.text or ""
        if _tag(element) == "mi" and len(text) == 1 and "mathvariant" not in element.attrib:
            text = italic(text)
        found |= {ord(c) for c in text}
    return found
