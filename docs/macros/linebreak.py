"""Displayed formulas that fit a phone: line breaks chosen at build time.

MathML Core (Chromium's) breaks no line, so a formula wider than the article would scroll.
:func:`fit` estimates the width of a converted formula from its structure (the glyphs'
advance widths in ems, as STIX Two Math sets them, rounded up), and where it is wider than
:data:`BUDGET_EM` it stacks it explicitly, each rule applied only where the one before
is not enough:

1. ``cases`` whose rows are too wide set each condition on its own line under its value;
2. a fraction wider than the line sets its numerator (and denominator) on two lines;
3. a row breaks before a relation or a binary operator, preferring the shallowest one (a
   break inside parentheses only where none outside fits) and the latest one on the line;
   each continued line is indented.

The result is an ``<mtable>`` of left-aligned rows; the TeX annotation is not touched.
"""

from __future__ import annotations

import copy
import xml.etree.ElementTree as ET

MATHML_NS = "http://www.w3.org/1998/Math/MathML"

#: What a displayed formula may be wide, in ems of its font: a 360 px phone leaves about
#: 296 px for it (the article's and the figure's padding), and the phone sets math at 16 px
#: (docs/stylesheets/site.css). Kept under 296/16 = 18.5 to absorb the estimate's error.
BUDGET_EM = 16.5
#: Indent of a continued line, in ems (a quad, as TeX's ``\qquad`` halved).
INDENT_EM = 1.0
#: A line is not cut shorter than this (a line holding only ``f(x)`` helps no one).
SHORTEST_LINE_EM = 4.0
#: Width of a cell's padding in an ``<mtable>`` (site.css: ``mtd { padding: 0 0.6em }``).
CELL_PADDING_EM = 1.2
#: Script size against its base (MathML Core's ``scriptlevel`` step, rounded up).
SCRIPT_SCALE = 0.75

#: Advance widths, in ems, by kind of glyph (STIX Two Math, rounded up).
ITALIC_EM = 0.55
UPRIGHT_EM = 0.5
DIGIT_EM = 0.5
WIDE_LETTERS = frozenset("mwMWΣ")
WIDE_EM = 0.85
FENCE_EM = 0.4
#: An operator's glyph and the spaces MathML Core puts around it.
RELATIONS = frozenset("=<>≤≥∈≈≠⊂∝")
BINARY = frozenset("+−-±∓·×")
RELATION_EM = 0.78 + 2 * 0.28
BINARY_EM = 0.78 + 2 * 0.22
PUNCTUATION_EM = 0.45


#: Class of a table of lines this module made (site.css sets its cells without padding), and
#: of a word of a text cut for line breaks.
STACKED_CLASS = "stacked"
WORD_CLASS = "word"
NO_BREAK_SPACE = "\u00a0"


def _q(tag: str) -> str:
    return f"{{{MATHML_NS}}}{tag}"


def _tag(element: ET.Element) -> str:
    return element.tag.rpartition("}")[2]


def _text_width(text: str, kind: str, italic: bool) -> float:
    width = 0.0
    for char in text:
        if char in WIDE_LETTERS:
            width += WIDE_EM
        elif char.isdigit():
            width += DIGIT_EM
        elif kind == "mo" and char in RELATIONS:
            width += RELATION_EM
        elif kind == "mo" and char in BINARY:
            width += BINARY_EM
        elif kind == "mo" and char in ",;:":
            width += PUNCTUATION_EM
        elif kind == "mo":
            width += FENCE_EM
        else:
            width += ITALIC_EM if italic else UPRIGHT_EM
    return width


def width(element: ET.Element) -> float:
    """The estimated width of ``element`` in ems of its font."""
    tag = _tag(element)
    if tag in ("mi", "mn", "mo", "mtext", "ms"):
        text = element.text or ""
        italic = tag == "mi" and len(text) == 1 and "mathvariant" not in element.attrib
        return _text_width(text, tag, italic)
    if tag == "mspace":
        ems = element.get("width", "0em").removesuffix("em")
        return float(ems) if ems.replace(".", "", 1).isdigit() else 0.0  # a named space
    if tag == "annotation":
        return 0.0
    parts = list(element)
    if tag in ("msub", "msup", "msubsup"):
        scripts = [width(p) * SCRIPT_SCALE for p in parts[1:]]
        return width(parts[0]) + max(scripts, default=0.0)
    if tag in ("mover", "munder", "munderover"):
        return max([width(parts[0]), *(width(p) * SCRIPT_SCALE for p in parts[1:])])
    if tag == "mfrac":
        return max((width(p) for p in parts), default=0.0) + FENCE_EM
    if tag in ("msqrt", "mroot"):
        return sum(width(p) for p in parts) + 2 * FENCE_EM
    if tag == "mtable":
        padding = 0.0 if element.get("class") == STACKED_CLASS else CELL_PADDING_EM
        columns: dict[int, float] = {}
        for row in parts:
            for at, cell in enumerate(row):
                columns[at] = max(columns.get(at, 0.0), width(cell) + padding)
        return sum(columns.values())
    return sum(width(p) for p in parts)


# --- Rule 1: cases, each condition under its value -----------------------------------------


def _is_cases(element: ET.Element) -> bool:
    parts = list(element)
    return (
        _tag(element) == "mrow"
        and len(parts) == 2
        and _tag(parts[0]) == "mo"
        and (parts[0].text or "") == "{"
        and _tag(parts[1]) == "mtable"
    )


def _stack_cases(cases: ET.Element, budget: float) -> None:
    """Each row of ``cases`` becomes two: the value, then its condition, indented."""
    table = cases[1]
    inner = budget - width(cases[0]) - CELL_PADDING_EM
    rows = list(table)
    for row in rows:
        table.remove(row)
    for row in rows:
        cells = list(row)
        value_row = ET.SubElement(table, _q("mtr"))
        value_cell = copy.deepcopy(cells[0])
        _fit_children(value_cell, inner)
        value_row.append(value_cell)
        for condition in cells[1:]:
            condition_row = ET.SubElement(table, _q("mtr"))
            cell = copy.deepcopy(condition)
            indent = ET.Element(_q("mspace"), {"width": f"{INDENT_EM}em"})
            cell.insert(0, indent)
            _fit_children(cell, inner)
            condition_row.append(cell)


# --- Rule 2: a long fraction on two lines ----------------------------------------------------


def _fraction(element: ET.Element) -> ET.Element | None:
    if _tag(element) == "mfrac":
        return element
    if _tag(element) == "mstyle" and len(element) == 1 and _tag(element[0]) == "mfrac":
        return element[0]
    return None


def _fit_children(element: ET.Element, budget: float) -> None:
    """``element``'s children, set in lines of at most ``budget`` ems where they are wider."""
    children = list(element)
    if sum(width(c) for c in children) <= budget:
        return
    stacked = stack(children, budget)
    for child in children:
        element.remove(child)
    element.append(stacked)


# --- Rule 3: breaks before relations and operators ------------------------------------------


#: A leaf of a row and the rows that hold it, outermost first.
Atom = tuple[tuple[ET.Element, ...], ET.Element]


def _breakable(element: ET.Element) -> bool:
    return _tag(element) == "mrow" and len(element) > 1


def _atoms(children: list[ET.Element], path: tuple[ET.Element, ...] = ()) -> list[Atom]:
    """The leaves of ``children`` with the rows that hold them, opening every row (fenced
    or not) but no fraction, script, root or table: those are never broken."""
    found: list[Atom] = []
    for child in children:
        if _breakable(child):
            found += _atoms(list(child), (*path, child))
        elif _tag(child) == "mtext" and len(_split(child.text or "")) > 1:
            found += [(path, word) for word in _words(child)]
        else:
            found.append((path, child))
    return found


def _split(text: str) -> list[str]:
    """The words of a text, at its spaces (latex2mathml writes them as no-break spaces)."""
    return text.replace(NO_BREAK_SPACE, " ").strip().split(" ")


def _words(text: ET.Element) -> list[ET.Element]:
    """An ``<mtext>`` of several words as one ``<mtext>`` a word, each but the last ending
    in a no-break space (MathML trims a plain one), so that a line may break between them;
    the spaces at either end of the text stay with its first and last word."""
    whole = text.text or ""
    spaces = " " + NO_BREAK_SPACE
    lead = NO_BREAK_SPACE * (len(whole) - len(whole.lstrip(spaces)))
    trail = NO_BREAK_SPACE * (len(whole) - len(whole.rstrip(spaces)))
    words = [w for w in _split(whole) if w]
    pieces = []
    for at, word in enumerate(words):
        piece = ET.Element(text.tag, dict(text.attrib, **{"class": WORD_CLASS}))
        last = at == len(words) - 1
        piece.text = (lead if at == 0 else "") + word + (trail if last else NO_BREAK_SPACE)
        pieces.append(piece)
    return pieces


OPENING = frozenset("([{⌈⌊")
CLOSING = frozenset(")]}⌉⌋")
#: What a break costs, by what follows it, added to its depth (rows and brackets around it):
#: before a relation, before a binary operator or a word of text, between two factors.
#: A break between factors costs half a level of depth; of equal costs, the latest wins.
RELATION_COST, OPERATOR_COST, PRODUCT_COST = 0.0, 0.0, 0.5


def _glyph(element: ET.Element) -> str:
    """The text of an operator, or of the base of a scripted one (``)^2``)."""
    if _tag(element) in ("msup", "msub", "msubsup") and len(element):
        element = element[0]
    return (element.text or "") if _tag(element) in ("mo", "mi") else ""


def _costs(atoms: list[Atom]) -> list[float | None]:
    """What breaking before each atom costs (None: no break there)."""
    costs: list[float | None] = []
    brackets, bar_open = 0, False
    for at, (path, atom) in enumerate(atoms):
        glyph = _glyph(atom)
        if glyph in CLOSING or (glyph == "|" and bar_open):
            brackets = max(brackets - 1, 0)
        depth = len(path) + brackets + (1 if bar_open and glyph != "|" else 0)
        if atom.get("fence") == "true" and atom.get("form") == "prefix":
            depth -= 1  # the opening fence of a row stands outside it
        previous = atoms[at - 1][1] if at else None
        if glyph in RELATIONS and _tag(atom) == "mo" and not atom.attrib:
            costs.append(depth + RELATION_COST)
        elif (glyph in BINARY and not atom.attrib) or atom.get("class") == WORD_CLASS:
            costs.append(depth + OPERATOR_COST)
        elif previous is not None and _tag(previous) == "mspace" and glyph not in CLOSING:
            costs.append(depth + PRODUCT_COST)
        else:
            costs.append(None)
        if glyph == "|":
            bar_open = not bar_open
        elif glyph in OPENING and atom.get("fence") != "true":
            brackets += 1
    return costs


def _lines(atoms: list[Atom], budget: float) -> list[int]:
    """Where each line starts: greedy, at the cheapest, then the latest, break that fits."""
    costs = _costs(atoms)
    starts, at, used = [0], 0, 0.0
    while at < len(atoms):
        room = budget - (INDENT_EM if len(starts) > 1 else 0.0)
        used += width(atoms[at][1])
        if used > room and at > starts[-1]:
            options = [
                (cost, -k)
                for k in range(starts[-1] + 1, at + 1)
                if (cost := costs[k]) is not None
                and sum(width(a) for _, a in atoms[starts[-1] : k]) >= SHORTEST_LINE_EM
            ]
            if options:
                start = -min(options)[1]
                starts.append(start)
                at, used = start, 0.0
                continue
        at += 1
    return starts


def _rebuild(atoms: list[Atom]) -> list[ET.Element]:
    """The atoms of one line, in copies of the rows that held them."""
    top: list[ET.Element] = []
    stack_: list[tuple[ET.Element, ET.Element]] = []  # (original row, its copy on this line)
    for path, atom in atoms:
        keep = 0
        while keep < len(stack_) and keep < len(path) and stack_[keep][0] is path[keep]:
            keep += 1
        del stack_[keep:]
        for row in path[keep:]:
            new = ET.Element(row.tag, dict(row.attrib))
            (stack_[-1][1].append(new) if stack_ else top.append(new))
            stack_.append((row, new))
        (stack_[-1][1].append(copy.deepcopy(atom)) if stack_ else top.append(copy.deepcopy(atom)))
    return top


def stack(children: list[ET.Element], budget: float = BUDGET_EM) -> ET.Element:
    """``children`` (one row) as an ``<mtable>`` of lines at most ``budget`` ems wide (one
    ``<mrow>`` where they fit on one line once cases and fractions are stacked)."""
    children = [copy.deepcopy(c) for c in children]
    for element in _descendants(children):
        if _is_cases(element) and width(element) > budget - INDENT_EM:
            _stack_cases(element, budget - INDENT_EM)
    atoms = _atoms(children)
    for _, atom in atoms:
        fraction = _fraction(atom)
        if fraction is not None and width(atom) > budget - INDENT_EM:
            for part in fraction:
                _fit_children(part, budget - INDENT_EM - FENCE_EM)
    starts = _lines(atoms, budget)
    if len(starts) == 1:
        row = ET.Element(_q("mrow"))
        row.extend(children)
        return row
    table = ET.Element(_q("mtable"), {"class": STACKED_CLASS})
    for number, (start, end) in enumerate(zip(starts, [*starts[1:], len(atoms)], strict=True)):
        cell = ET.SubElement(
            ET.SubElement(table, _q("mtr")),
            _q("mtd"),
            {"columnalign": "left", "displaystyle": "true"},
        )
        if number:
            cell.append(ET.Element(_q("mspace"), {"width": f"{INDENT_EM}em"}))
        cell.extend(_rebuild(atoms[start:end]))
    return table


def _descendants(children: list[ET.Element]) -> list[ET.Element]:
    return [e for child in children for e in child.iter()]


def fit(math: ET.Element, budget: float = BUDGET_EM) -> None:
    """Stack the rows of a block ``<math>`` (one row, or a table of clause rows) that are
    wider than ``budget``, in place."""
    parts = list(math)
    if len(parts) == 1 and _tag(parts[0]) == "mtable":
        for row in parts[0]:
            for cell in row:
                _fit_children(cell, budget)
        return
    _fit_children(math, budget)
