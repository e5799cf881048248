"""Where a displayed formula may break into lines: marked at build time, chosen in the browser.

MathML Core (Chromium's) breaks no line. A displayed formula is written on one line, on the
lines its structure needs and no more (a case a row); only where the browser finds it wider
than its column does ``docs/javascripts/formulas.js`` break it, measuring the formula as it
is laid out, so a wide screen keeps on one line what a phone sets in three. The rules, each
applied only where the one before is not enough:

1. ``cases`` wider than the column set each condition on its own line under its value;
2. a fraction wider than the column sets its numerator (and denominator) in lines;
3. a row breaks before a relation or a binary operator (the operator starts the continued
   line, which is indented, as in a paper), at the end of a clause (``a,\\quad b``: a new
   clause starts a line of its own, not indented), between the words of a text, or between
   two factors set apart by a thin space: the cheapest place that fits, then the latest.

This module marks the places of rule 3 and what each costs, ``data-break`` on the element
a line may start with: a clause's start costs :data:`CLAUSE_COST`, below anything else; a
break otherwise costs the depth of rows and brackets around it, plus half a level between
two factors. The script reads the marks and decides. An element without a mark never
starts a line, so an operator never ends one and a line never starts with a comma.

Each place where lines are broken is a *container*: the formula's row, a cell of a table
(a case), the numerator or denominator of a fraction. Its atoms are the leaves of its rows
(a fraction, a script, a root or a table is one atom: never broken across lines); a text of
several words is cut into one ``<mtext class="word">`` a word, so that a line may break
between them (laid out, the words read as the text did).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

MATHML_NS = "http://www.w3.org/1998/Math/MathML"

#: The attribute marking where a line may start, and what a break there costs; and the one
#: that says the element is a relation or a binary operator (the script lets a relation's
#: left side stand on a short line, and spaces an operator that starts a line as binary).
BREAK_ATTRIBUTE = "data-break"
OPERATOR_ATTRIBUTE = "data-break-op"
RELATION, OPERATOR = "relation", "operator"
#: Class of a word of a text cut for line breaks.
WORD_CLASS = "word"
NO_BREAK_SPACE = "\u00a0"

#: What a break costs, by what follows it, added to its depth (rows and brackets around it):
#: before a relation, before a binary operator or a word of text, between two factors, after
#: the comma between two arguments. A break between factors costs half a level of depth, one
#: in a list of arguments a whole level (the last resort of a line of ``min(a, b, c)``).
RELATION_COST, OPERATOR_COST, PRODUCT_COST, ARGUMENT_COST = 0.0, 0.0, 0.5, 1.0
#: The start of a clause (after ``,\\quad`` or ``;\\quad`` in the formula's own row, outside
#: every bracket): cheaper than any other break, so a formula of clauses breaks between them
#: first.
CLAUSE_COST = -1.0

RELATIONS = frozenset("=<>≤≥∈≈≠⊂∝")
BINARY = frozenset("+−-±∓·×")
OPENING = frozenset("([{⌈⌊")
CLOSING = frozenset(")]}⌉⌋")
#: What ends a clause when a quad follows it.
CLAUSE_ENDS = frozenset(",;")
#: A word that starts with one of these never starts a line (``, else``).
NO_LINE_START = frozenset(",;.:)]")
#: The width of ``\\quad`` as latex2mathml writes it.
QUAD = "1em"


def _q(tag: str) -> str:
    return f"{{{MATHML_NS}}}{tag}"


def _tag(element: ET.Element) -> str:
    return element.tag.rpartition("}")[2]


#: A leaf of a container and the rows that hold it, outermost first.
Atom = tuple[tuple[ET.Element, ...], ET.Element]


def _breakable(element: ET.Element) -> bool:
    return _tag(element) == "mrow" and len(element) > 1


def _split(text: str) -> list[str]:
    """The words of a text, at its spaces (latex2mathml writes them as no-break spaces)."""
    return [w for w in text.replace(NO_BREAK_SPACE, " ").strip().split(" ") if w]


def _words(text: ET.Element) -> list[ET.Element]:
    """An ``<mtext>`` of several words as one ``<mtext>`` a word, each but the last ending
    in a no-break space (MathML trims a plain one), so that a line may break between them;
    the spaces at either end of the text stay with its first and last word."""
    whole = text.text or ""
    spaces = " " + NO_BREAK_SPACE
    lead = NO_BREAK_SPACE * (len(whole) - len(whole.lstrip(spaces)))
    trail = NO_BREAK_SPACE * (len(whole) - len(whole.rstrip(spaces)))
    words = _split(whole)
    pieces = []
    for at, word in enumerate(words):
        piece = ET.Element(text.tag, dict(text.attrib, **{"class": WORD_CLASS}))
        last = at == len(words) - 1
        piece.text = (lead if at == 0 else "") + word + (trail if last else NO_BREAK_SPACE)
        piece.tail = text.tail if last else None
        pieces.append(piece)
    return pieces


def _cut_words(row: ET.Element) -> None:
    """Each text of several words among ``row``'s children, cut into its words in place."""
    for at, child in reversed(list(enumerate(row))):
        if _tag(child) == "mtext" and len(_split(child.text or "")) > 1:
            row[at : at + 1] = _words(child)


def _atoms(row: ET.Element, path: tuple[ET.Element, ...] = ()) -> list[Atom]:
    """The leaves of ``row`` with the rows that hold them, opening every row (fenced or not)
    but no fraction, script, root or table: those are never broken. Its texts of several
    words, and those of the rows it opens, are cut into words first."""
    _cut_words(row)
    found: list[Atom] = []
    for child in row:
        if _breakable(child):
            found += _atoms(child, (*path, child))
        else:
            found.append((path, child))
    return found


def _glyph(element: ET.Element) -> str:
    """The text of an operator, or of the base of a scripted one (``)^2``)."""
    if _tag(element) in ("msup", "msub", "msubsup") and len(element):
        element = element[0]
    return (element.text or "") if _tag(element) in ("mo", "mi") else ""


def _is_quad(element: ET.Element | None) -> bool:
    return element is not None and _tag(element) == "mspace" and element.get("width") == QUAD


def _is_space(element: ET.Element | None) -> bool:
    """An ``<mspace>``, or a text of spaces only (``\\ `` is a no-break space)."""
    if element is None:
        return False
    return _tag(element) == "mspace" or (
        _tag(element) == "mtext" and not (element.text or "").replace(NO_BREAK_SPACE, "").strip()
    )


def _is_comma(element: ET.Element | None) -> bool:
    return element is not None and _tag(element) == "mo" and (element.text or "") == ","


def _operator(atom: ET.Element) -> str | None:
    """``relation`` or ``operator`` for an ``<mo>`` a line may start with, else None."""
    if _tag(atom) != "mo" or atom.attrib:
        return None
    glyph = atom.text or ""
    return RELATION if glyph in RELATIONS else OPERATOR if glyph in BINARY else None


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
        previous_path = atoms[at - 1][0] if at else ()
        before = atoms[at - 2][1] if at > 1 else None
        word = atom.get("class") == WORD_CLASS
        if (
            _is_quad(previous)
            and before is not None
            and _tag(before) == "mo"
            and (before.text or "") in CLAUSE_ENDS
            and len(previous_path) <= 1
            and brackets == 0
            and not bar_open
        ):
            costs.append(CLAUSE_COST)
        elif _operator(atom) == RELATION:
            costs.append(depth + RELATION_COST)
        elif _operator(atom) == OPERATOR or (word and (atom.text or "")[:1] not in NO_LINE_START):
            costs.append(depth + OPERATOR_COST)
        elif not _is_space(atom) and (
            _is_comma(previous) or (_is_space(previous) and _is_comma(before))
        ):
            costs.append(depth + ARGUMENT_COST)
        elif (
            previous is not None
            and _tag(previous) == "mspace"
            and not word
            and glyph not in CLOSING
            and _tag(atom) != "mspace"
        ):
            costs.append(depth + PRODUCT_COST)
        else:
            costs.append(None)
        if glyph == "|":
            bar_open = not bar_open
        elif glyph in OPENING and atom.get("fence") != "true":
            brackets += 1
    return costs


def _containers(math: ET.Element) -> list[ET.Element]:
    """Where lines may be broken: the formula's body, each cell, each part of a fraction."""
    found = [math]
    for element in math.iter():
        if _tag(element) == "mtd":
            found.append(element)
        elif _tag(element) == "mfrac":
            found.extend(part for part in element if _tag(part) == "mrow")
    return found


def mark(math: ET.Element) -> None:
    """Mark, in place, every place a line of the block ``<math>`` (not yet annotated) may
    start; see the module docstring."""
    for container in _containers(math):
        atoms = _atoms(container)
        for (_, atom), cost in zip(atoms, _costs(atoms), strict=True):
            if cost is not None:
                kind = _operator(atom)
                atom.set(BREAK_ATTRIBUTE, f"{cost:g}")
                if kind is not None:
                    atom.set(OPERATOR_ATTRIBUTE, kind)
