"""The MathML post-processing (``docs/macros/mathml.py``) and the math font it is drawn with.

Each tidy-up is checked on latex2mathml's real output for a small LaTeX input; the font
tests read the committed WOFF2 subset and fail when a registered formula paints a character
the subset lacks (shown with a formula that needs one).
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from support import ROOT, import_macros

import scoring  # noqa: F401  (registers every formula)
from scoring.registry import FORMULAS

mathml = import_macros("macros.mathml")
linebreak = import_macros("macros.linebreak")
NS = {"m": mathml.MATHML_NS}
FONT = ROOT / "docs" / "fonts" / "STIXTwoMath-subset.woff2"
LICENCE = ROOT / "docs" / "fonts" / "OFL.txt"
BUILD_SCRIPT = ROOT / "docs" / "fonts" / "build_math_font.py"
MAX_FONT_BYTES = 150 * 1024


def tree(latex: str) -> ET.Element:
    return ET.fromstring(mathml.to_mathml(latex))


def texts(root: ET.Element, tag: str) -> list[str]:
    return [e.text or "" for e in root.iter(f"{{{mathml.MATHML_NS}}}{tag}")]


# --- The tidy-up ------------------------------------------------------------------------------


def test_an_upright_word_is_one_identifier() -> None:
    root = tree(r"\mathrm{latency\_ms} + \mathrm{judged.recoverable}")
    words = list(root.iter(f"{{{mathml.MATHML_NS}}}mi"))
    assert [(w.text, w.get("mathvariant")) for w in words] == [
        ("latency_ms", "normal"),
        ("judged.recoverable", "normal"),
    ]


def test_latex2mathml_alone_spells_the_word() -> None:
    """What the tidy-up is for: without it the word is one <mi> per letter."""
    raw = ET.fromstring(mathml.convert(r"\mathrm{outcome}"))
    assert texts(raw, "mi") == list("outcome")


def test_a_single_upright_letter_stays_a_letter_and_upright() -> None:
    letters = [(e.text, e.get("mathvariant")) for e in tree(r"\mathrm{d}x").iter() if e.text]
    assert letters[:2] == [("d", "normal"), ("x", None)]


@pytest.mark.parametrize("name", ["clamp", "max", "min"])
def test_operator_names_are_identifiers_applied_to_what_follows(name: str) -> None:
    latex = rf"\operatorname{{{name}}}\!\left(x\right)" if name == "clamp" else rf"\{name}(x)"
    root = tree(latex)
    assert name in texts(root, "mi")
    assert name not in texts(root, "mo")
    row = next(
        r for r in root.iter(f"{{{mathml.MATHML_NS}}}mrow") if any(c.text == name for c in r)
    )
    flat = [(e.tag.rpartition("}")[2], e.text) for e in row]
    at = flat.index(("mi", name))
    assert flat[at + 1] == ("mo", mathml.FUNCTION_APPLICATION)
    assert not root.findall(".//m:mspace", NS), "the \\! after an operator name is dropped"


def test_an_operator_name_with_a_subscript_keeps_it() -> None:
    root = tree(r"\operatorname{clamp}_{[0,1]}\!\left(x\right)")
    sub = root.find(".//m:msub", NS)
    assert sub is not None
    assert sub[0].tag.endswith("mi")
    assert sub[0].text == "clamp"


def test_an_operator_name_last_in_its_row_gets_no_application() -> None:
    assert mathml.FUNCTION_APPLICATION not in texts(tree(r"n_{\min}"), "mo")


def test_overline_stretches_over_the_whole_base() -> None:
    root = tree(r"\overline{\mathrm{latency\_ms}}")
    over = root.find(".//m:mover", NS)
    assert over is not None
    base, bar = over
    assert bar.text == "\u203e"
    assert bar.get("stretchy") == "true"
    assert "".join(base.itertext()) == "latency_ms"


def test_tilde_is_an_accent() -> None:
    over = tree(r"\tilde{t}").find(".//m:mover", NS)
    assert over is not None
    assert over.get("accent") == "true"
    assert over[1].text == "\u02dc"


@pytest.mark.parametrize("latex", [r"\hat{p}", r"\widehat{p}"])
def test_hat_is_a_circumflex_over_its_base_not_an_ascii_one_on_it(latex: str) -> None:
    over = tree(latex).find(".//m:mover", NS)
    assert over is not None
    # As an accent the circumflex touches a letter's top in Chromium (test_typesetting.py):
    # an over-script keeps the gap.
    assert over.get("accent") is None
    assert over[1].text == "\u02c6"


def test_capital_greek_is_upright_small_greek_is_not() -> None:
    mis = {e.text: e.get("mathvariant") for e in tree(r"\Delta + \delta").iter() if e.text}
    assert mis["\u0394"] == "normal"
    assert mis["\u03b4"] is None


def test_punctuation_in_an_identifier_becomes_an_operator() -> None:
    root = tree(r"\{t : t > 0\}")
    assert ":" in texts(root, "mo")
    assert ":" not in texts(root, "mi")


def test_named_spaces_become_ems() -> None:
    widths = [e.get("width") for e in tree(r"a \, b \; c").findall(".//m:mspace", NS)]
    assert widths
    assert all(w.endswith("em") and w[0].isdigit() for w in widths)


def test_the_tex_rides_along_as_an_annotation() -> None:
    latex = r"x = \dfrac{a}{b}"
    root = tree(latex)
    semantics = root.find("m:semantics", NS)
    assert semantics is not None
    assert len(root) == 1
    presentation, annotation = list(semantics)
    assert presentation.tag.endswith("mrow")
    assert annotation.get("encoding") == "application/x-tex"
    assert annotation.text == latex


def test_the_tex_source_disclosure_escapes_the_tex() -> None:
    html = mathml.tex_source(r"a < b \& c")
    assert html.startswith('<details class="formula-tex">')
    assert "a &lt; b \\&amp; c" in html


def test_latex_left_unconverted_is_an_error() -> None:
    with pytest.raises(ValueError, match="LaTeX left"):
        mathml.to_mathml(r"\unknowncommand{x} \frac{a}")


@pytest.mark.parametrize("name", sorted(FORMULAS))
def test_every_formula_tidies_to_core_mathml(name: str) -> None:
    root = tree(FORMULAS[name].latex)
    presentation = root.find("m:semantics/m:mrow", NS)
    assert presentation is not None
    spelled = [
        row
        for row in presentation.iter(f"{{{mathml.MATHML_NS}}}mrow")
        if len(row) >= 2 and all(mathml._is_word_part(c) for c in row)
    ]
    assert not spelled, f"{name}: a word left as single letters"
    bars = [t for t in texts(presentation, "mo") if t in ("\u2015", "\u00af")]
    assert not bars, f"{name}: an overline that cannot stretch"
    names = [t for t in texts(presentation, "mo") if len(t) > 1 and t.isalpha()]
    assert not names, f"{name}: operator names left as <mo>: {names}"
    named = [
        w
        for w in (e.get("width", "") for e in presentation.iter(f"{{{mathml.MATHML_NS}}}mspace"))
        if w and not w.endswith("em")
    ]
    assert not named, f"{name}: named spaces {named}"


# --- What the browser paints, and the font -----------------------------------------------------


def test_italic_letters_are_the_browsers() -> None:
    painted = mathml.painted_codepoints(mathml.to_mathml(r"x + \mathrm{x} + h + \alpha + 2"))
    assert {0x1D465, ord("x"), 0x210E, 0x1D6FC, ord("2"), ord("+")} <= painted
    assert ord("h") not in painted
    assert ord("\u03b1") not in painted


def font_cmap(path: Path = FONT) -> set[int]:
    from fontTools.ttLib import TTFont

    return set(TTFont(path).getBestCmap())


def missing_glyphs(formulas: dict[str, str], cmap: set[int]) -> list[str]:
    """Characters each formula paints that the font's cmap lacks, per formula."""
    problems = []
    for name, latex in sorted(formulas.items()):
        lacking = mathml.painted_codepoints(mathml.to_mathml(latex)) - cmap
        if lacking:
            chars = ", ".join(f"U+{c:04X} {chr(c)!r}" for c in sorted(lacking))
            problems.append(f"{name}: the math font lacks {chars}")
    return problems


def test_the_font_has_every_glyph_the_formulas_paint() -> None:
    formulas = {name: entry.latex for name, entry in FORMULAS.items()}
    assert missing_glyphs(formulas, font_cmap()) == []


def test_a_formula_needing_a_glyph_the_subset_lacks_fails() -> None:
    problems = missing_glyphs({"spoiled": r"\aleph_0 + \mathrm{ok}"}, font_cmap())
    assert problems == ["spoiled: the math font lacks U+2135 'ℵ'"]


def test_the_committed_subset_holds_the_scripts_base_set() -> None:
    """A base set edited in the build script without rebuilding the font fails here."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("build_math_font", BUILD_SCRIPT)
    assert spec is not None
    assert spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    lacking = sorted(f"U+{c:04X}" for c in script.BASE_CODEPOINTS - font_cmap())
    assert lacking == [], "rebuild: .venv/bin/python docs/fonts/build_math_font.py"


def test_the_font_keeps_the_math_table_and_the_stretchy_parts() -> None:
    from fontTools.ttLib import TTFont

    font = TTFont(FONT)
    assert font.flavor == "woff2"
    assert {"MATH", "GSUB", "GPOS"} <= set(font.keys())
    variants = font["MATH"].table.MathVariants
    cmap = font.getBestCmap()
    vertical = dict(
        zip(variants.VertGlyphCoverage.glyphs, variants.VertGlyphConstruction, strict=True)
    )
    for char in "(){}[]|\u2211\u221a":
        construction = vertical.get(cmap[ord(char)])
        assert construction is not None, f"{char!r} cannot grow vertically"
        assert construction.VariantCount > 1 or construction.GlyphAssembly, char
    for char in "{}()\u221a":  # the tallest need assembling from parts
        assembly = vertical[cmap[ord(char)]].GlyphAssembly
        assert assembly is not None, f"{char!r} has no parts"
        assert assembly.PartCount >= 2, f"{char!r} has no parts"
    horizontal = dict(
        zip(variants.HorizGlyphCoverage.glyphs, variants.HorizGlyphConstruction, strict=True)
    )
    overline = horizontal.get(cmap[ord(mathml.OVERLINE)])
    assert overline is not None
    assert overline.GlyphAssembly is not None
    script_alternates = {
        record.FeatureTag for record in font["GSUB"].table.FeatureList.FeatureRecord
    }
    assert "ssty" in script_alternates


def test_the_font_is_small_and_licensed() -> None:
    from fontTools.ttLib import TTFont

    assert FONT.stat().st_size <= MAX_FONT_BYTES
    names = {r.nameID: r.toUnicode() for r in TTFont(FONT)["name"].names if r.platformID == 3}
    licence = LICENCE.read_text(encoding="utf-8")
    assert "SIL Open Font License" in names[13]
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert names[5].removeprefix("Version ") in licence  # the release the subset came from
    assert "The STIX Fonts Project Authors" in names[0]
    assert "The STIX Fonts Project Authors" in licence


def _marks(latex: str) -> dict[str, float]:
    """The elements of the block formula a line may start with (their text, spaces
    stripped) and what a break before each costs."""
    return {
        "".join(e.itertext()).strip("\u00a0"): float(mark)
        for e in tree(latex).iter()
        if (mark := e.get(linebreak.BREAK_ATTRIBUTE)) is not None
    }


def test_a_displayed_formula_is_one_line_with_its_breaks_marked() -> None:
    """One rendering: no line is chosen at build time (the browser chooses where the formula
    is wider than its column, docs/javascripts/formulas.js); a clause starts at the cheapest
    mark, a relation and an operator at their depth, an argument after them, and nothing
    else may start a line."""
    latex = r"S \pm e,\quad g = \left(a, b\right);\quad \hat p = 0 + x"
    root = tree(latex)
    assert root.find(".//m:mtable", NS) is None
    marks = _marks(latex)
    assert marks.pop("g") == marks.pop("p\u02c6") == linebreak.CLAUSE_COST  # each clause
    assert marks.pop("=") >= 0
    assert marks.pop("+") == marks.pop("\u00b1") >= 0
    assert marks.pop("b") > 0  # an argument, inside brackets
    assert marks == {}, "nothing else starts a line"
    kinds = {
        "".join(e.itertext()): e.get(linebreak.OPERATOR_ATTRIBUTE)
        for e in root.iter()
        if e.get(linebreak.OPERATOR_ATTRIBUTE)
    }
    assert kinds == {"=": linebreak.RELATION, "+": linebreak.OPERATOR, "\u00b1": linebreak.OPERATOR}
    annotation = root.find(".//m:annotation", NS)
    assert annotation is not None
    assert annotation.text == latex  # the TeX stays whole
    inline = ET.fromstring(mathml.to_mathml(latex, block=False))
    assert not [e for e in inline.iter() if e.get(linebreak.BREAK_ATTRIBUTE) is not None]


def test_a_comma_inside_brackets_is_no_clause() -> None:
    marks = _marks(r"f = \min\!\left(a,\quad b\right)")
    assert marks["b"] > marks["="] > linebreak.CLAUSE_COST


def test_a_text_breaks_between_its_words_never_before_a_comma() -> None:
    marks = _marks(r"c = x\ \text{, else } \mathrm{checklist}\text{ or a known outcome}")
    assert "," not in marks
    assert marks["else"] == marks["or"] == marks["known"] == marks["="]
