"""What explains a number written in words: the constants, values derived from them and the
worked examples of a methodology snapshot.

:func:`explainers` turns a snapshot into :class:`Explainer` objects, each a value with the
noun it counts or measures (its *head*) and the words of its name, unit and description.
:func:`explain` accepts a :class:`~contracts.check.words.Claim` when an explainer with the same
head, the claim's modifiers and the same value is among the ones its sentence is most about;
otherwise :func:`check_text` reports it with the nearest explainer.

Derived values: the elements and the count of a list or mapping constant (the three pass^k
levels, the five radar axes, the four latency anchors and their x and score), the sums of
weights of one family (two composite weights together) and the ratios within a family (for
"twice the weight of"). Worked examples explain a claim only in a sentence that speaks of an
example, so that an example's twelve runs cannot excuse a false threshold.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from contracts.check.words import COUNTED, MODIFIERS, Claim, find_claims
from contracts.model import Methodology
from scoring.numeric import number_text

#: Units whose head is not a counted noun of the prose.
_UNIT_HEADS = {"fraction": "share", "k": "level", "ms": "ms", "usd": "usd", "weight": "weight"}
#: Example keys whose head is not the last counted noun of the key.
_EXAMPLE_HEADS = {"success_rate": "share", "consistency": "share", "profile": "point"}
_WORD = re.compile(r"[a-z]+")
#: Words of many constants' names that say nothing of which one a sentence is about.
_GENERIC_NAME_WORDS = frozenset(
    {"weight", "weights", "default", "composite", "radar", "min", "decimals", "decimal", "score"}
)
_COUNTED_WORDS = frozenset(COUNTED) | frozenset(COUNTED.values())
_STOP = frozenset(
    "a an the of to in on at by for and or is are be it its this that with from as per"  # noqa: SIM905
    " each every any no not one two three".split()
)


@dataclass(frozen=True, slots=True)
class Explainer:
    """A value that can explain a claim: its name, value, head noun and vocabulary."""

    name: str
    value: Fraction
    head: str
    words: frozenset[str]
    source: str  # "constant", "derived" or "example"
    #: A sum or a ratio of a family: the name words of each member. The sentence must
    #: name every member ("success and cost together"): a sentence about the cost weight
    #: alone is not about the sum of the cost and the correctness weights.
    members: tuple[frozenset[str], ...] = ()

    def show(self) -> str:
        """``name = value`` for a message.

        >>> Explainer("radar.window_runs", Fraction(100), "run", frozenset(), "constant").show()
        'radar.window_runs = 100'
        """
        return f"{self.name} = {number_text(self.value)}"


def vocabulary(*texts: str) -> frozenset[str]:
    """Lower-case words of ``texts`` (names split at dots and underscores), plurals folded.

    >>> sorted(vocabulary("composite.consistency_min_runs", "completed runs"))
    ['completed', 'composite', 'consistency', 'min', 'run', 'runs']
    """
    words: set[str] = set()
    for text in texts:
        for word in _WORD.findall(text.lower().replace("_", " ")):
            if word in _STOP:
                continue
            words.add(word)
            if word in COUNTED:
                words.add(COUNTED[word])
    return frozenset(words)


def head_of(unit: str) -> str | None:
    """The noun a unit counts or measures: its first counted noun, or a fixed reading.

    >>> head_of("window runs with a latency"), head_of("decimal places"), head_of("fraction")
    ('run', 'decimal', 'share')
    """
    lowered = unit.lower().strip()
    if lowered in _UNIT_HEADS:
        return _UNIT_HEADS[lowered]
    for word in _WORD.findall(lowered.replace("_", " ")):
        if word in COUNTED:
            return COUNTED[word]
    return None


def _number(value: Any) -> Fraction | None:
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        return Fraction(Decimal(repr(value)))
    if isinstance(value, str):
        try:
            return Fraction(value)
        except (ValueError, ZeroDivisionError):
            return None
    if isinstance(value, Mapping) and "exact" in value:
        return _number(value["exact"])
    return None


def _element_noun(name: str, description: str) -> str | None:
    """What the items of a list or mapping constant are ("each radar axis" → axis)."""
    match = re.search(r"\beach (?:[a-z-]+ )?([a-z]+)", description.lower())
    if match and match.group(1) in COUNTED:
        return COUNTED[match.group(1)]
    return head_of(name.rsplit(".", 1)[-1].replace("_", " "))


def _member(item: Explainer) -> frozenset[str]:
    """The words that name one member of a family: its own key ("cost" of
    ``composite.weight.cost``, "tool efficiency" of ``radar.default_weights[tool_efficiency]``).

    >>> sorted(_member(Explainer("r.w[tool_efficiency]", Fraction(1), "share", frozenset(), "")))
    ['efficiency', 'tool']
    """
    last = item.name.rsplit(".", 1)[-1]
    return vocabulary(last.rsplit("[", 1)[-1].rstrip("]"))


def _family(items: Sequence[Explainer], name: str, words: frozenset[str]) -> list[Explainer]:
    """Sums of two or more members and ratios of two: for "together" and "twice"."""
    found: list[Explainer] = []
    for size in range(2, len(items) + 1):
        for group in itertools.combinations(items, size):
            union = words.union(*(g.words for g in group))
            label = "+".join(g.name.rsplit(".", 1)[-1] for g in group)
            value = sum((g.value for g in group), Fraction(0))
            members = tuple(_member(g) for g in group)
            found.append(Explainer(f"{name}[{label}]", value, "share", union, "derived", members))
    for a, b in itertools.permutations(items, 2):
        if b.value:
            label = f"{a.name.rsplit('.', 1)[-1]}/{b.name.rsplit('.', 1)[-1]}"
            found.append(
                Explainer(
                    f"{name}[{label}]",
                    a.value / b.value,
                    "ratio",
                    a.words | b.words,
                    "derived",
                    (_member(a), _member(b)),
                )
            )
    return found


def _constant(entry: Any) -> list[Explainer]:
    words = vocabulary(entry.name, entry.unit, entry.description)
    head = head_of(entry.unit)
    value, name = entry.value, entry.name
    scalar = _number(value)
    if scalar is not None:
        return [Explainer(name, scalar, head or "value", words, "constant")] if head else []
    found: list[Explainer] = []
    if isinstance(value, list) and value and all(isinstance(v, Mapping) for v in value):
        x_unit, _, score_unit = entry.unit.partition("→")
        x_head, score_head = head_of(x_unit) or "value", head_of(score_unit) or "point"
        for i, point in enumerate(value):
            for key, part_head in (("x", x_head), ("score", score_head)):
                number = _number(point.get(key))
                if number is not None:
                    found.append(
                        Explainer(f"{name}[{i}].{key}", number, part_head, words, "derived")
                    )
        found.append(Explainer(f"count({name})", Fraction(len(value)), "anchor", words, "derived"))
    elif isinstance(value, list) and value and all(_number(v) is not None for v in value):
        element = head or "value"
        items = [
            Explainer(f"{name}[{i}]", _number(v) or Fraction(0), element, words, "derived")
            for i, v in enumerate(value)
        ]
        found += items
        noun = _element_noun(name, entry.description) or element
        found.append(Explainer(f"count({name})", Fraction(len(value)), noun, words, "derived"))
    elif (
        isinstance(value, Mapping) and value and all(_number(v) is not None for v in value.values())
    ):
        items = [
            Explainer(
                f"{name}[{k}]", _number(v) or Fraction(0), head or "value", words | {k}, "derived"
            )
            for k, v in value.items()
        ]
        found += items
        noun = _element_noun(name, entry.description) or "value"
        found.append(Explainer(f"count({name})", Fraction(len(value)), noun, words, "derived"))
        if head == "share":
            found += _family(items, name, words)
    return found


def _example(entry: Any) -> list[Explainer]:
    found: list[Explainer] = []
    title_words = vocabulary(entry.name, entry.title, "example")
    for part in (entry.inputs, entry.result):
        for key, raw in part.items():
            number = _number(raw)
            if number is None:
                continue
            head = _EXAMPLE_HEADS.get(key) or head_of(key.replace("_", " "))
            if head is None:
                continue
            words = title_words | vocabulary(key)
            found.append(Explainer(f"{entry.name}.{key}", number, head, words, "example"))
    return found


def explainers(
    methodology: Methodology, code_values: Iterable[tuple[str, int, str]] = ()
) -> list[Explainer]:
    """Everything that can explain a claim in ``methodology``'s prose.

    ``code_values`` adds values of the code that are not constants of the methodology, as
    (dotted name, value, unit), e.g. how many problems an error message lists.
    """
    found: list[Explainer] = []
    for entry in methodology.constants:
        found += _constant(entry)
    families: dict[str, list[Explainer]] = {}
    for item in found:
        if item.source == "constant" and item.head == "share" and item.name.count(".") >= 2:
            families.setdefault(item.name.rsplit(".", 1)[0], []).append(item)
    for prefix, members in families.items():
        if len(members) >= 2:
            found += _family(members, prefix, frozenset().union(*(m.words for m in members)))
    for example in methodology.examples:
        found += _example(example)
    for name, value, unit in code_values:
        found.append(
            Explainer(
                name, Fraction(value), head_of(unit) or "value", vocabulary(name, unit), "derived"
            )
        )
    return found


def code_values() -> list[tuple[str, int, str]]:
    """Values of the code, not constants of the methodology, that prose may state in words."""
    from scoring.cli import EXIT_BAD_INPUT
    from scoring.errors import MAX_LISTED_PROBLEMS

    return [
        ("scoring.errors.MAX_LISTED_PROBLEMS", MAX_LISTED_PROBLEMS, "problems"),
        ("scoring.cli.EXIT_BAD_INPUT", EXIT_BAD_INPUT, "exit status"),
    ]


def _compatible(claim: Claim, item: Explainer, sentence_words: frozenset[str]) -> bool:
    if item.source == "example" and "example" not in sentence_words:
        return False
    if not all(member & sentence_words for member in item.members):
        return False
    if claim.kind == "multiple":
        return item.head == "ratio"
    if claim.kind == "share":
        return item.head == "share"
    if item.head != claim.noun:
        return False
    return all(m in item.words for m in claim.modifiers if m in MODIFIERS)


def _relevance(item: Explainer, sentence_words: frozenset[str]) -> tuple[int, int]:
    """How much a sentence is about ``item``: the words of its *name* the sentence uses;
    only where it uses none, all its words. A weight's description names the other weights
    ("the rest goes to latency and cost"), so by all words "the cost weight is forty per
    cent" would be as much about the success weight (0.40) as about the cost weight (0.30);
    and a sentence naming two weights is about both, whatever their descriptions say."""
    # Counted nouns are matched by the head already; here only the other words count, so
    # that "points" in a curve's unit does not outweigh "latency axis" in a step's.
    shared = item.words & sentence_words
    if item.members:  # named when each member is (see _compatible): as much as one value
        named = min(len(member & shared) for member in item.members)
    else:
        named = len(shared & vocabulary(item.name) - _GENERIC_NAME_WORDS - {item.head})
    return named, 0 if named else len(shared - _COUNTED_WORDS)


def candidates(claim: Claim, items: Sequence[Explainer]) -> list[Explainer]:
    """The explainers a claim may be checked against: same head and modifiers, and among
    those the ones its sentence is most about (most words in common)."""
    sentence_words = vocabulary(claim.sentence)
    fitting = [item for item in items if _compatible(claim, item, sentence_words)]
    if claim.kind == "share" and claim.noun != "weight":
        named = [item for item in fitting if claim.noun in item.words]
        fitting = named or fitting
    if not fitting:
        return []
    best = max(_relevance(item, sentence_words) for item in fitting)
    return [item for item in fitting if _relevance(item, sentence_words) == best]


def explain(claim: Claim, items: Sequence[Explainer]) -> Explainer | None:
    """The explainer whose value the claim states, or ``None``."""
    return next((item for item in candidates(claim, items) if item.value == claim.value), None)


def _wanted_head(claim: Claim) -> str:
    return {"multiple": "ratio", "share": "share"}.get(claim.kind, claim.noun)


def nearest(claim: Claim, items: Sequence[Explainer]) -> Explainer | None:
    """The explainer a writer most likely meant: the most relevant, then the closest value,
    preferring constants over derived values and examples."""
    sentence_words = vocabulary(claim.sentence)
    same_head = [i for i in items if i.source != "example" and i.head == _wanted_head(claim)]
    pool = candidates(claim, items) or same_head or [i for i in items if i.source == "constant"]
    if not pool:
        return None
    rank = {"constant": 0, "derived": 1, "example": 2}
    return min(
        pool,
        key=lambda i: (
            tuple(-part for part in _relevance(i, sentence_words)),
            abs(i.value - claim.value),
            rank.get(i.source, 3),
            i.name,
        ),
    )


def problem(claim: Claim, items: Sequence[Explainer], where: str) -> str:
    """The message for an unexplained claim: where, what, the sentence and the nearest value."""
    near = nearest(claim, items)
    hint = f"; nearest constant: {near.show()}" if near else ""
    return (
        f"{where}: number in words {claim.words!r} ({claim.describe()}) is explained by no "
        f"constant, derived value or worked example{hint}: «{claim.sentence}»"
    )


def check_text(
    text: str, items: Sequence[Explainer], where: str, allowed: Sequence[str] = ()
) -> list[str]:
    """A problem for every claim in ``text`` that nothing in ``items`` explains."""
    return [
        problem(claim, items, where)
        for claim in find_claims(text, tuple(allowed))
        if explain(claim, items) is None
    ]
