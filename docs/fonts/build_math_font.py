"""Build the site's math font: STIX Two Math, subset to what the formulas need, as WOFF2.

    .venv/bin/python docs/fonts/build_math_font.py          # rebuild docs/fonts/*.woff2
    .venv/bin/python docs/fonts/build_math_font.py --check  # exit 1 if the file would change

Browsers stretch braces, parentheses, radicals and overlines only with a font that has an
OpenType MATH table, and Linux and Android ship none; so the site serves one. The source is
the STIX Two Math file bundled in a pinned wheel of the ``ziamath`` package on PyPI (the
STIX project's own releases are not on a package registry); both the wheel and the font in
it are checked against recorded SHA-256 digests, so the output is the same on every machine
with the same fontTools and brotli.

What is kept: every character any registered formula uses (read from the live MathML of the
registry, italic letters mapped as the browser maps them), a base set so that a new formula
rarely needs a rebuild, and everything those glyphs reach: the MATH table's size variants
and assembly parts of stretchy glyphs, and every GSUB/GPOS feature (``ssty`` script-size
alternates included). ``tests/site/test_mathml.py`` fails when a formula needs a character
the committed subset lacks.

The font is licensed under the SIL Open Font License 1.1; ``OFL.txt`` beside the output
carries the notice. Its only Reserved Font Name is "TM Math", which the subset does not use.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
OUTPUT = HERE / "STIXTwoMath-subset.woff2"

#: Where the font comes from: a wheel pinned by version and digest, and the font inside it.
SOURCE_PACKAGE = "ziamath==0.13"
SOURCE_WHEEL = "ziamath-0.13-py3-none-any.whl"
SOURCE_WHEEL_SHA256 = "67a9b9714101fc90c2d6d0328e578f3ac311fb007644f2bbb9314ba2bc1c1459"
SOURCE_FONT = "ziamath/fonts/STIXTwoMath-Regular.ttf"
SOURCE_FONT_SHA256 = "8f42cb183a85043a4dc3f8e41ac3821eb27bf178d68ace929ba439523622323c"
#: The STIX Two Math release that file is (its name table says "Version 2.11 b159").
SOURCE_FONT_VERSION = "Version 2.11 b159"


def _span(first: int, last: int) -> set[int]:
    return set(range(first, last + 1))


#: Characters kept whatever the formulas use today (a new formula rarely needs a rebuild).
BASE_CODEPOINTS: frozenset[int] = frozenset(
    _span(0x20, 0x7E)  # ASCII
    | {0xA0, 0xAC, 0xB1, 0xB7, 0xD7, 0xF7}  # no-break space, ¬ ± · × ÷
    | _span(0x391, 0x3A9)  # Greek capitals
    | _span(0x3B1, 0x3C9)  # Greek small letters
    | {0x3D1, 0x3D5, 0x3F0, 0x3F1, 0x3F5}  # ϑ ϕ ϰ ϱ ϵ
    | {0x2C6, 0x2C7, 0x2D8, 0x2D9, 0x2DA, 0x2DC}  # spacing accents (hat, check, tilde...)
    | _span(0x300, 0x30C)  # combining accents
    | {0x2016, 0x2032, 0x2033, 0x203E, 0x2044}  # ‖ ′ ″ ‾ ⁄
    | _span(0x2061, 0x2064)  # invisible function application, times, separator, plus
    | {0x210E}  # italic h (the Mathematical Italic block has a hole there)
    | _span(0x1D434, 0x1D467)  # Mathematical Italic Latin: how browsers draw a single <mi>
    | _span(0x1D6A4, 0x1D6A5)  # italic dotless i and j
    | _span(0x1D6E2, 0x1D71B)  # Mathematical Italic Greek
    | _span(0x2190, 0x2199)  # arrows
    | {0x21D0, 0x21D2, 0x21D4}  # double arrows
    | _span(0x2200, 0x2265)  # the common mathematical operators (∀ … ≥)
    | {0x2282, 0x2283, 0x2286, 0x2287, 0x2295, 0x2297, 0x22C5, 0x22EF}
    | {0x2308, 0x2309, 0x230A, 0x230B}  # ceiling and floor
    | {0x23DC, 0x23DD, 0x23DE, 0x23DF}  # over and under parentheses and braces
    | {0x27E8, 0x27E9}  # angle brackets
) - {0x3A2, 0x1D455}  # unassigned; italic h is U+210E, kept above


def formula_codepoints() -> set[int]:
    """Every character the registered formulas put on the page, after the post-processing,
    with single-letter identifiers mapped to the italic letters a browser draws."""
    sys.path[:0] = [str(ROOT), str(ROOT / "docs")]
    from macros.mathml import painted_codepoints, to_mathml

    import scoring  # noqa: F401  (registers every formula)
    from scoring.registry import FORMULAS

    found: set[int] = set()
    for entry in FORMULAS.values():
        found |= painted_codepoints(to_mathml(entry.latex))
    return found


def _source_font(workdir: Path) -> bytes:
    """The pinned font file, from the pinned wheel, both checked against their digests."""
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--quiet"]
    subprocess.run([*command, SOURCE_PACKAGE, "-d", str(workdir)], check=True)
    wheel = (workdir / SOURCE_WHEEL).read_bytes()
    if hashlib.sha256(wheel).hexdigest() != SOURCE_WHEEL_SHA256:
        raise SystemExit(f"{SOURCE_WHEEL}: SHA-256 differs from the recorded one")
    font = zipfile.ZipFile(io.BytesIO(wheel)).read(SOURCE_FONT)
    if hashlib.sha256(font).hexdigest() != SOURCE_FONT_SHA256:
        raise SystemExit(f"{SOURCE_FONT}: SHA-256 differs from the recorded one")
    return font


def subset(font_bytes: bytes, codepoints: set[int]) -> bytes:
    """The WOFF2 subset of ``font_bytes`` to ``codepoints`` and everything they reach."""
    from fontTools import subset as ftsubset
    from fontTools.ttLib import TTFont

    options = ftsubset.Options()
    options.flavor = "woff2"
    options.layout_features = ["*"]  # ssty, the stylistic sets, kerning: all of them
    options.layout_scripts = ["*"]
    options.name_IDs = ["*"]  # copyright, licence, version, trademark stay in the file
    options.name_languages = ["*"]
    options.notdef_outline = True
    options.glyph_names = False
    options.hinting = False  # the browser does not need TrueType hints; a third of the size
    options.recalc_timestamp = False  # same input, same bytes (and TTFont below)
    font = TTFont(io.BytesIO(font_bytes), recalcTimestamp=False)
    if "MATH" not in font:
        raise SystemExit("the source font has no MATH table")
    subsetter = ftsubset.Subsetter(options)
    subsetter.populate(unicodes=sorted(codepoints))
    subsetter.subset(font)  # the MATH table's variants and assembly parts are kept
    out = io.BytesIO()
    font.flavor = "woff2"
    font.save(out)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the output would change")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as workdir:
        font = _source_font(Path(workdir))
    codepoints = set(BASE_CODEPOINTS) | formula_codepoints()
    woff2 = subset(font, codepoints)
    digest = hashlib.sha256(woff2).hexdigest()
    if args.check:
        same = OUTPUT.exists() and OUTPUT.read_bytes() == woff2
        print(f"{OUTPUT.name}: {'up to date' if same else 'would change'} ({digest})")
        return 0 if same else 1
    OUTPUT.write_bytes(woff2)
    print(f"{OUTPUT.name}: {len(woff2)} bytes, {len(codepoints)} characters, sha256 {digest}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
