"""Numbers written in words, found where they quantify something the methodology counts.

A drift check that reads digits misses "stays neutral until seven completed runs" and "a
third of the headline composite". This module finds such claims in prose; what explains
them is :mod:`contracts.check.claims`. Pure functions: text in, :class:`Claim` objects out.

What is read as a number (and nothing else):

- **cardinals**: zero … nineteen, the tens, hundred, thousand, million, and their compounds
  ("twenty-five", "a hundred", "two hundred and fifty");
- **fractions**: "half", "a third", "one quarter", "two thirds", "three fifths" … "tenths",
  "hundredths";
- **percentages**: a cardinal followed by "per cent" or "percent";
- **multiples**: "twice", "double", "triple", "treble", "quadruple", "<cardinal> times".

When a number is a claim (the rule; ordinary English must not trip it):

- a cardinal is a claim when a *counted noun* (:data:`COUNTED`: runs, outcomes, tasks, axes,
  decimals, levels, milliseconds, …) follows it within :data:`MAX_GAP` modifier words ("seven
  completed runs"); a stop word (:data:`BREAKS`: "of", "at", "per", …) or punctuation ends the
  search, so "one of the axes" and "one at a time" say nothing; seconds and cents count in the
  constants' units (:data:`IN_UNITS`: "ten seconds" is 10,000 ms);
- "one" on its own is never a claim: before a singular noun it reads as the article ("one
  run of one agent") and "at least one" means "some"; it counts inside a compound ("one
  hundred") or as a numerator ("one third");
- a cardinal right after "between", "these" or "those" names a pair or a group already
  shown ("between two adjacent anchors"), not a quantity;
- a fraction is a claim when "of" leads, within a few words, to a share noun
  (:data:`SHARES`: composite, score, weight, profile, …) or a counted noun, or when a
  weighing verb (:data:`WEIGHING`: weighs, carries, counts, …) comes just before it;
  "half the time" and "halves up" say nothing;
- a percentage in words is always a claim (a share);
- a multiple is a claim when "as", "the" or "that" follows it and a counted or share noun
  comes within a few words ("twice the weight of cost"); "typed twice" says nothing;
- ordinals ("the first anchor", "the third task") are never numbers, and a hyphenated word
  is a number only if every part is ("one-way", "zero-success" are not).

>>> sentence = "Outcome consistency stays neutral until seven completed runs."
>>> [c.describe() for c in find_claims(sentence)]
['7 run (completed)']
>>> [c.describe() for c in find_claims("Cost carries a third of the headline composite.")]
['1/3 share of composite']
>>> find_claims("Runs are scored one at a time, each on its own, from the first anchor.")
[]
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

Kind = Literal["count", "share", "multiple"]

#: zero … nineteen, and the tens, by their values.
UNITS: dict[str, int] = {
    word: value
    for value, word in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve thirteen"  # noqa: SIM905
        " fourteen fifteen sixteen seventeen eighteen nineteen".split()
    )
}
TENS: dict[str, int] = {
    word: 10 * value
    for value, word in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)  # noqa: SIM905
}
SCALES: dict[str, int] = {"hundred": 100, "thousand": 1000, "million": 1_000_000}

#: Denominators, singular and plural ("third" alone is an ordinal; "a third" is not).
DENOMINATORS: dict[str, int] = {
    "half": 2,
    "halves": 2,
    "third": 3,
    "thirds": 3,
    "quarter": 4,
    "quarters": 4,
    "fifth": 5,
    "fifths": 5,
    "sixth": 6,
    "sixths": 6,
    "seventh": 7,
    "sevenths": 7,
    "eighth": 8,
    "eighths": 8,
    "ninth": 9,
    "ninths": 9,
    "tenth": 10,
    "tenths": 10,
    "hundredth": 100,
    "hundredths": 100,
}
MULTIPLES: dict[str, int] = {"twice": 2, "double": 2, "triple": 3, "treble": 3, "quadruple": 4}

#: Nouns whose count the methodology sets, by their written forms; the value is the lemma.
COUNTED: dict[str, str] = {
    **dict.fromkeys(("run", "runs"), "run"),
    **dict.fromkeys(("outcome", "outcomes"), "outcome"),
    **dict.fromkeys(("task", "tasks"), "task"),
    **dict.fromkeys(("axis", "axes"), "axis"),
    **dict.fromkeys(("decimal", "decimals"), "decimal"),
    **dict.fromkeys(("level", "levels"), "level"),
    **dict.fromkeys(("agent", "agents"), "agent"),
    **dict.fromkeys(("check", "checks"), "check"),
    **dict.fromkeys(("weight", "weights"), "weight"),
    **dict.fromkeys(("anchor", "anchors"), "anchor"),
    **dict.fromkeys(("step", "steps"), "step"),
    **dict.fromkeys(("point", "points"), "point"),
    **dict.fromkeys(("safeguard", "safeguards"), "safeguard"),
    **dict.fromkeys(("objective", "objectives"), "objective"),
    **dict.fromkeys(("attempt", "attempts"), "attempt"),
    **dict.fromkeys(("success", "successes"), "success"),
    **dict.fromkeys(("pass", "passes"), "pass"),
    **dict.fromkeys(("trial", "trials"), "trial"),
    **dict.fromkeys(("problem", "problems"), "problem"),
    **dict.fromkeys(("ms", "millisecond", "milliseconds", "second", "seconds"), "ms"),
    **dict.fromkeys(("usd", "dollar", "dollars", "cent", "cents"), "usd"),
}
#: Counted words in another unit than the constants': the factor to theirs (ms, USD).
IN_UNITS: dict[str, Fraction] = {
    **dict.fromkeys(("second", "seconds"), Fraction(1000)),
    **dict.fromkeys(("cent", "cents"), Fraction(1, 100)),
}
#: What a fraction or a percentage can be a share of.
SHARES: frozenset[str] = frozenset(
    {"composite", "score", "scores", "weight", "weights", "profile", "total", "whole"}
)
#: Verbs that make the fraction after them a share ("cost carries a third").
WEIGHING: frozenset[str] = frozenset(
    {"weigh", "weighs", "weighed", "carry", "carries", "count", "counts", "worth", "gets"}
    | {"takes", "contributes", "makes", "make", "share", "is", "are", "holds", "accounts"}
)
#: Words that end the search for a counted noun after a number.
BREAKS: frozenset[str] = frozenset(
    "of at in on to per by for from with than and or but that which who when where as"  # noqa: SIM905
    " is are was were be been has have had it its this these those each every any all a"
    " an the no not".split()
)
#: Words right before a cardinal that make it a pair or a group already shown.
POINTING: frozenset[str] = frozenset({"between", "these", "those", "few", "several"})
#: Modifiers that narrow a counted noun; a claim and its explanation must agree on them.
MODIFIERS: frozenset[str] = frozenset(
    {"completed", "terminal", "window", "recorded", "known", "latency", "cost", "qualifying"}
)

MAX_GAP = 3
_TOKEN = re.compile(
    r"⟦[^⟧]*⟧|[A-Za-z]+\^[A-Za-z]+|[A-Za-z]+(?:['’-][A-Za-z]+)*|\d[\d,.]*|[^\sA-Za-z\d]"
)
_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+(?=[A-Z⟦(\"“])|\n\s*\n")


@dataclass(frozen=True, slots=True)
class Claim:
    """A number in words that quantifies something: its value, what, and where.

    ``kind`` is ``count`` (a number of ``noun``), ``share`` (a part of ``noun``, a share noun
    or "weight") or ``multiple`` (``value`` times something). ``modifiers`` are the words
    between the number and the noun ("completed" in "seven completed runs").
    """

    value: Fraction
    kind: Kind
    noun: str
    modifiers: tuple[str, ...]
    words: str
    sentence: str

    def describe(self) -> str:
        """A short reading of the claim.

        >>> Claim(Fraction(7), "count", "run", ("completed",), "seven", "").describe()
        '7 run (completed)'
        """
        mods = f" ({' '.join(self.modifiers)})" if self.modifiers else ""
        if self.kind == "count":
            return f"{self.value} {self.noun}{mods}"
        if self.kind == "share":
            return f"{self.value} share of {self.noun}"
        return f"{self.value} times {self.noun}"


@dataclass(frozen=True, slots=True)
class WrittenNumber:
    """A number written in words: its value, its kind, and the tokens ``start:end`` it spans
    (``bare_one``: a lone "one", read as a pronoun by the claim rule)."""

    value: Fraction
    kind: Literal["cardinal", "fraction", "percent", "multiple"]
    start: int
    end: int
    bare_one: bool


def sentences(text: str) -> list[str]:
    """``text`` cut into sentences, whitespace collapsed.

    >>> sentences("It is five. Then six!\\n\\nA new one")
    ['It is five.', 'Then six!', 'A new one']
    """
    parts = (" ".join(part.split()) for part in _SENTENCE_END.split(text))
    return [part for part in parts if part]


def tokens(sentence: str) -> list[str]:
    """Words, numbers and punctuation of a sentence; ``⟦…⟧`` (a value a macro wrote) stays
    one opaque token.

    >>> tokens("Until ⟦5 runs⟧, twenty-five runs.")
    ['Until', '⟦5 runs⟧', ',', 'twenty-five', 'runs', '.']
    """
    return _TOKEN.findall(sentence)


def parse_cardinal(words: list[str]) -> int | None:
    """The value of a cardinal written in words, or ``None`` if these words are not one.

    >>> parse_cardinal(["twenty-five"]), parse_cardinal(["a", "hundred"])
    (25, 100)
    >>> parse_cardinal(["two", "hundred", "and", "fifty"]), parse_cardinal(["one-way"])
    (250, None)
    """
    parts: list[str] = []
    for i, word in enumerate(words):
        lowered = word.lower()
        if lowered == "a" and i == 0:
            parts.append("one")
        elif lowered == "and" and 0 < i < len(words) - 1:
            continue
        else:
            parts.extend(lowered.split("-"))
    total, current, seen = 0, 0, False
    for part in parts:
        if part in UNITS:
            current += UNITS[part]
        elif part in TENS:
            current += TENS[part]
        elif part in SCALES:
            current = max(current, 1) * SCALES[part]
            if SCALES[part] > 100:
                total, current = total + current, 0
        else:
            return None
        seen = True
    return total + current if seen else None


def cardinal_words(value: int) -> str:
    """``value`` (0 ≤ value < 1,000,000) written in words, for generated text.

    >>> cardinal_words(5), cardinal_words(25), cardinal_words(100), cardinal_words(2050)
    ('five', 'twenty-five', 'one hundred', 'two thousand and fifty')
    """
    if not 0 <= value < 1_000_000:
        raise ValueError(f"cardinal_words: {value} is out of range 0..999999")
    names = {v: k for k, v in {**UNITS, **TENS}.items()}
    if value in names:
        return names[value]
    if value < 100:
        return f"{names[value - value % 10]}-{names[value % 10]}"
    for scale in (1000, 100):
        if value >= scale:
            head, rest = divmod(value, scale)
            word = "thousand" if scale == 1000 else "hundred"
            text = f"{cardinal_words(head)} {word}"
            if rest:
                text += (" and " if rest < 100 else " ") + cardinal_words(rest)
            return text
    raise AssertionError("unreachable")  # pragma: no cover


def _is_number_word(word: str) -> bool:
    lowered = word.lower()
    parts = lowered.split("-")
    return all(p in UNITS or p in TENS or p in SCALES for p in parts) and bool(lowered)


def written_numbers(toks: list[str]) -> Iterator[WrittenNumber]:
    """Every number written in words in a token list (:func:`tokens`), claims or not."""
    lowered = [t.lower() for t in toks]
    i = 0
    while i < len(toks):
        word = lowered[i]
        if word in MULTIPLES:
            yield WrittenNumber(Fraction(MULTIPLES[word]), "multiple", i, i + 1, False)
            i += 1
            continue
        if word in ("half", "halves") and (i == 0 or lowered[i - 1] not in ("a", "one")):
            yield WrittenNumber(Fraction(1, 2), "fraction", i, i + 1, False)
            i += 1
            continue
        start = i
        if word == "a" and i + 1 < len(toks):
            following = lowered[i + 1]
            if following in SCALES or following in DENOMINATORS:
                i += 1
            else:
                i += 1
                continue
        elif not _is_number_word(word):
            i += 1
            continue
        j = i
        while j < len(toks) and (
            _is_number_word(lowered[j])
            or (lowered[j] == "and" and j + 1 < len(toks) and _is_number_word(lowered[j + 1]))
        ):
            j += 1
        words = toks[start:j]
        value = parse_cardinal(words) if j > start else None
        if value is None and start < i:
            value = 1  # "a third": the article is the numerator
        if value is None:
            i = max(j, i + 1)
            continue
        bare_one = [w.lower() for w in words] == ["one"]
        nxt = lowered[j] if j < len(toks) else ""
        if nxt in DENOMINATORS and (value == 1 or nxt.endswith("s") or nxt == "halves"):
            yield WrittenNumber(Fraction(value, DENOMINATORS[nxt]), "fraction", start, j + 1, False)
            i = j + 1
        elif nxt in ("percent", "per") and (nxt == "percent" or _at(lowered, j + 1) == "cent"):
            end = j + (1 if nxt == "percent" else 2)
            yield WrittenNumber(Fraction(value, 100), "percent", start, end, False)
            i = end
        elif nxt == "times":
            yield WrittenNumber(Fraction(value), "multiple", start, j + 1, False)
            i = j + 1
        else:
            if j > start:
                yield WrittenNumber(Fraction(value), "cardinal", start, j, bare_one)
            i = max(j, i + 1)


def _at(toks: list[str], index: int) -> str:
    return toks[index] if 0 <= index < len(toks) else ""


def _word(token: str) -> bool:
    return token[:1].isalpha()


def _counted_after(
    lowered: list[str], start: int, gap: int
) -> tuple[str, list[str], Fraction] | None:
    """The counted noun within ``gap`` modifier words from ``start``, the modifiers, and
    the factor from the noun's unit to the constants' (``IN_UNITS``)."""
    modifiers: list[str] = []
    for k in range(start, min(len(lowered), start + gap + 1)):
        word = lowered[k]
        if word in COUNTED:
            return COUNTED[word], modifiers, IN_UNITS.get(word, Fraction(1))
        if not _word(word) or word in BREAKS or _is_number_word(word):
            return None
        modifiers.append(word)
    return None


def _share_after_of(lowered: list[str], start: int) -> str | None:
    """After "of" at ``start``: the share or counted noun it leads to, within four words."""
    if _at(lowered, start) != "of":
        return None
    for k in range(start + 1, min(len(lowered), start + 5)):
        word = lowered[k]
        if word in SHARES:
            return word.rstrip("s") if word != "scores" else "score"
        if word in COUNTED:
            return COUNTED[word]
        if not _word(word):
            return None
    return None


def claims_in_sentence(sentence: str) -> list[Claim]:
    """The claims of one sentence (see the module's docstring for the rule).

    >>> [c.describe() for c in claims_in_sentence("Scores have two decimals.")]
    ['2 decimal']
    >>> claims_in_sentence("Between two adjacent anchors the line is straight.")
    []
    """
    toks = tokens(sentence)
    lowered = [t.lower() for t in toks]
    found: list[Claim] = []
    for number in written_numbers(toks):
        words = " ".join(toks[number.start : number.end])
        before = _at(lowered, number.start - 1)
        if number.kind == "cardinal":
            if number.bare_one or before in POINTING:
                continue
            hit = _counted_after(lowered, number.end, MAX_GAP)
            if hit is not None:
                noun, mods, unit = hit
                value = number.value * unit
                found.append(Claim(value, "count", noun, tuple(mods), words, sentence))
        elif number.kind == "percent":
            noun = _share_after_of(lowered, number.end) or "weight"
            found.append(Claim(number.value, "share", noun, (), words, sentence))
        elif number.kind == "fraction":
            share: str | None = _share_after_of(lowered, number.end)
            if share is None and _at(lowered, number.end) == "the":
                following = _at(lowered, number.end + 1)
                share = following if following in SHARES else None
            weighed = any(
                _at(lowered, k) in WEIGHING for k in range(number.start - 3, number.start)
            )
            if share is None and weighed and lowered[number.start] not in ("half", "halves"):
                share = "weight"
            if share is not None:
                found.append(Claim(number.value, "share", share, (), words, sentence))
        else:
            if _at(lowered, number.end) not in ("as", "the", "that", "more"):
                continue
            weighed = any(
                _at(lowered, k) in WEIGHING for k in range(number.start - 3, number.start)
            )
            times: str | None = "weight" if weighed else None
            for k in range(number.end + 1, min(len(lowered), number.end + 9)):
                word = lowered[k]
                if not _word(word):
                    break
                if times is None and (word in COUNTED or word in SHARES):
                    times = COUNTED.get(word, word.rstrip("s"))
            if times is not None:
                found.append(Claim(number.value, "multiple", times, (), words, sentence))
    return found


def find_claims(text: str, allowed: tuple[str, ...] = ()) -> list[Claim]:
    """Every claim in ``text``; a sentence that contains a phrase of ``allowed`` (a reviewed
    exception) is not read.

    >>> [c.describe() for c in find_claims("Forty per cent of the composite. Five axes.")]
    ['2/5 share of composite', '5 axis']
    >>> find_claims("Two runs tie at the same instant.", allowed=("at the same instant",))
    []
    """
    return [
        claim
        for sentence in sentences(text)
        if not any(phrase in sentence for phrase in allowed)
        for claim in claims_in_sentence(sentence)
    ]
