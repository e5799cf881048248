"""LaTeX to MathML at build time: the browser lays the formula out, no script is loaded."""

from __future__ import annotations

import re

from latex2mathml.converter import convert

# A few commands that would mean the LaTeX was not converted (used by the tests too).
RAW_LATEX = re.compile(r"\\(?:d?frac|begin|end|mathrm|binom|sqrt|left|right|cdot)\b")


def to_mathml(latex: str, *, block: bool = True) -> str:
    """MathML for ``latex``; raises ``ValueError`` if any LaTeX survives the conversion."""
    mathml = convert(latex, display="block" if block else "inline")
    if RAW_LATEX.search(mathml):
        raise ValueError(f"LaTeX left in the MathML of {latex!r}")
    return mathml
