"""Why two snapshots differ: the causes first, then what follows from them, counted.

:func:`contracts.check.diff.diff_snapshots` lists every path at which two snapshots disagree, and
one edited constant moves dozens of them: the golden evaluations of the formulas that read
it, the worked examples, the scoreboard of the reference corpus. :func:`explain` sorts them:

- the *causes*: a constant (its dotted name, committed → live value, where it is defined),
  a formula's registration (its LaTeX, title or symbols), or a top-level field of its own;
  a field that mirrors a constant (``methodology_version``) goes with that constant;
- when none of these differ, the cause is read from what does: the formulas whose golden
  evaluations give other results (their code changed; a formula that uses another which
  changed, by a symbol's binding or by a call its code may make, is not a cause of its
  own), else the worked examples, else the reference corpus;
- what follows, grouped: golden evaluations, worked examples, the scoreboard, and the
  constants and formulas that are not causes (a snapshot edited by hand, where the edit is
  the cause: ``edited=``); each group counted, with at most a couple of examples.

The drift check (:mod:`contracts.check.snapshots`) prints an :class:`Explanation` in a few
lines (``--verbose`` still lists every difference); the site's pages say at their top
which changes they show (``docs/macros/drift.py``), from the same causes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from contracts.check.diff import (
    FIELD_CONSTANTS,
    SCOREBOARD_KEY,
    Difference,
    Kind,
    is_scoreboard,
    render_value,
)
from contracts.model import Methodology
from contracts.source import function_references, may_call

#: A difference inside a named entry: ``constants[composite.weight.cost].value``.
_ENTRY = re.compile(
    r"^(?P<key>constants|formulas|golden|examples)\[(?P<name>.*?)\](?P<rest>(?:[.\[].*)?)$"
)
#: Characters of a value on a cause's line (the full value is in ``check --verbose``).
_CAUSE_VALUE_CHARS = 60
#: Characters of a value in an example line of a group.
_EXAMPLE_VALUE_CHARS = 40
#: Significant digits of a long float in an example line.
_EXAMPLE_DIGITS = 6
#: Changed parts of one cause listed under it; the rest are counted.
CAUSE_PARTS = 3
#: Examples shown under a group.
GROUP_EXAMPLES = 2
#: Names listed in a group's line; the rest are counted.
GROUP_NAMES = 3
#: The formula a binding of another formula's symbol names ("formula curve.piecewise_linear(…)").
_USES = re.compile(r"formula (?P<name>[\w.^]+)")


@dataclass(frozen=True, slots=True)
class Cause:
    """One root cause: the kind of thing that changed (``constant``, ``formula``, or empty
    when ``what`` says it), its name (``composite.weight.cost``), its Python name if any,
    where it is defined now (``file:line``), each changed part as ``(part, committed,
    live)`` text, or a ``note`` saying how it changed, and the differences that are the
    change itself."""

    kind: str
    what: str
    location: str | None
    parts: tuple[tuple[str, str, str], ...] = ()
    note: str = ""
    python_name: str | None = None
    differences: tuple[Difference, ...] = ()

    def change_text(self) -> str:
        """The change in one line: ``composite.latency_anchors_ms[1].x 2000 → 2500``;
        several parts, the first ones and a count."""
        if not self.parts:
            return f"{self.what} {self.note}".strip()
        shown = [_part_text(self.what, part, old, new) for part, old, new in self.parts]
        more = len(shown) - CAUSE_PARTS
        return "; ".join(shown[:CAUSE_PARTS]) + (f"; and {more} more" if more > 0 else "")

    def where(self) -> str:
        """`` (PYTHON_NAME, defined at file:line)``, or as much of it as is known."""
        said = [
            *([self.python_name] if self.python_name else []),
            *([f"defined at {self.location}"] if self.location else []),
        ]
        return f" ({', '.join(said)})" if said else ""

    def lines(self) -> list[str]:
        """The cause as the check prints it: one line, or a line and its parts under it."""
        label = f"{self.kind} " if self.kind else ""
        if len(self.parts) <= 1:
            return [f"{label}{self.change_text()}{self.where()}"]
        head = f"{label}{self.what} changed in {len(self.parts)} places{self.where()}:"
        parts = [f"    {_part_text(self.what, *p)}" for p in self.parts[:CAUSE_PARTS]]
        more = len(self.parts) - CAUSE_PARTS
        return [head, *parts, *([f"    and {more} more"] if more > 0 else [])]


@dataclass(frozen=True, slots=True)
class Group:
    """What follows, of one kind: its differences, the line that counts them and a few
    example lines."""

    label: str
    differences: tuple[Difference, ...]
    detail: str
    examples: tuple[str, ...] = ()
    #: How the lines under the group's line are introduced: examples of its differences
    #: (``", e.g."``), or a summary of them (``":"``).
    lead: str = ", e.g."

    @property
    def count(self) -> int:
        return len(self.differences)

    def lines(self) -> list[str]:
        noun = "difference" if self.count == 1 else "differences"
        head = f"  {self.label}: {self.count} {noun}{self.detail}"
        return [head + (self.lead if self.examples else ""), *(f"      {e}" for e in self.examples)]


@dataclass(frozen=True, slots=True)
class Explanation:
    """The causes of a set of differences and the groups of what follows from them."""

    causes: tuple[Cause, ...]
    groups: tuple[Group, ...]
    extra: tuple[str, ...] = field(default=())

    @property
    def following(self) -> int:
        """How many differences follow from the causes (the groups' counts summed)."""
        return sum(group.count for group in self.groups)

    def lines(self, header: str, fix: str, *, more: str | None = None) -> list[str]:
        """The explanation under ``header``: causes, what follows, ``fix`` on one line, and
        where to read every difference (``more``)."""
        lines = [header]
        for number, cause in enumerate(self.causes, start=1):
            label = (
                "cause: " if len(self.causes) == 1 else f"cause {number} of {len(self.causes)}: "
            )
            first, *rest = cause.lines()
            lines += [label + first, *rest]
        them = "it" if len(self.causes) == 1 else "them"
        if self.groups or self.extra:
            lines.append(f"what follows from {them}:")
            for group in self.groups:
                lines += group.lines()
            lines += [f"  {line}" for line in self.extra]
        else:
            lines.append(f"nothing else in the snapshot follows from {them}")
        lines.append(f"fix: {fix}")
        if more:
            lines.append(more)
        return lines


@dataclass(frozen=True, slots=True)
class Report:
    """An :class:`Explanation` as one finding of the check prints it: under ``header``
    (what was compared), with the one ``fix`` and where to read every difference."""

    header: str
    explanation: Explanation
    fix: str
    more: str | None = None

    def lines(self) -> list[str]:
        return self.explanation.lines(self.header, self.fix, more=self.more)


# --- Reading the differences ------------------------------------------------------------------


def _entry(difference: Difference) -> tuple[str, str, str] | None:
    """(list key, entry name, the rest of the path) of a difference in a named entry."""
    match = _ENTRY.match(difference.path)
    if match is None or match["name"] == "*":
        return None
    return match["key"], match["name"], match["rest"]


def _short(value: Any, limit: int) -> str:
    """A value on one line of at most ``limit`` characters; a long float to a few digits,
    an exact fraction by its decimal."""
    if isinstance(value, dict) and set(value) == {"exact", "approx"} and "/" in value["exact"]:
        value = value["approx"]
    if isinstance(value, float) and len(repr(value)) > _EXAMPLE_DIGITS + 2:
        text = f"{value:.{_EXAMPLE_DIGITS}g}"
    else:
        text = render_value(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _sides(difference: Difference, limit: int) -> tuple[str, str]:
    old = "(absent)" if difference.kind == Kind.ADDED else _short(difference.committed, limit)
    new = "(absent)" if difference.kind == Kind.REMOVED else _short(difference.live, limit)
    return old, new


def _part_text(what: str, part: str, old: str, new: str) -> str:
    if old == "(absent)":
        return f"{what}{part} added: {new}".strip()
    if new == "(absent)":
        return f"{what}{part} removed (was {old})".strip()
    return f"{what}{part} {old} → {new}".strip()


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _names(names: Sequence[str]) -> str:
    shown = ", ".join(names[:GROUP_NAMES])
    more = len(names) - GROUP_NAMES
    return shown + (f" and {more} more" if more > 0 else "")


def _example_line(difference: Difference) -> str:
    """One difference in a group, short: ``composite.typical result.score 56.1 → 55.43``."""
    entry = _entry(difference)
    name, rest = (entry[1], entry[2].lstrip(".")) if entry else (difference.path, "")
    if difference.kind != Kind.CHANGED and not rest:
        return f"{name}: {'added' if difference.kind == Kind.ADDED else 'removed'}"
    old, new = _sides(difference, _EXAMPLE_VALUE_CHARS)
    return f"{name}{(' ' + rest) if rest else ''}: {old} → {new}"


def _examples(differences: Sequence[Difference]) -> tuple[str, ...]:
    """A couple of example lines: a changed result first, then any other difference."""
    results = [d for d in differences if d.kind == Kind.CHANGED and ".result" in d.path]
    others = [d for d in differences if d not in results]
    chosen: list[Difference] = []
    for difference in [*results[:1], *others[:1], *results[1:], *others[1:]]:
        if len(chosen) == GROUP_EXAMPLES:
            break
        chosen.append(difference)
    return tuple(_example_line(d) for d in chosen)


def _golden_formula(name: str, committed: Methodology, live: Methodology) -> str:
    for side in (live, committed):
        for evaluation in side.golden:
            if evaluation.name == name:
                return evaluation.formula
    return name.partition("@")[0]


def _python_name(name: str, committed: Methodology, live: Methodology) -> str | None:
    for side in (live, committed):
        try:
            return side.constant(name).python_name
        except KeyError:
            continue
    return None


def _entry_cause(
    kind: str, name: str, differences: list[Difference], committed: Methodology, live: Methodology
) -> Cause:
    """A changed constant or formula registration as a cause."""
    location = next((d.location for d in differences if d.location), None)
    parts = []
    for difference in differences:
        entry = _entry(difference)
        rest = entry[2] if entry else ""
        if kind == "constant" and rest.startswith(".value"):
            rest = rest.removeprefix(".value")
        elif rest.startswith("."):
            rest = " " + rest[1:]
        parts.append((rest, *_sides(difference, _CAUSE_VALUE_CHARS)))
    python_name = _python_name(name, committed, live) if kind == "constant" else None
    return Cause(
        kind, name, location, tuple(parts), python_name=python_name, differences=tuple(differences)
    )


def _root_formulas(formulas: list[str], committed: Methodology, live: Methodology) -> list[str]:
    """Of ``formulas`` (whose golden evaluations differ), those that are not explained by
    another of them: a formula whose symbols use another one (``formula curve…`` in a
    binding), or whose code may call another one's function, follows from it (unless the
    other may call it too). All of them when each explains another."""
    used: dict[str, set[str]] = {}
    functions: dict[str, str] = {}
    for side in (committed, live):
        for entry in side.formulas:
            functions[entry.name] = entry.function.rpartition(".")[2]
            for binding in entry.symbols.values():
                used.setdefault(entry.name, set()).update(
                    m["name"] for m in _USES.finditer(binding)
                )
    references = function_references("scoring")

    def follows(formula: str, other: str) -> bool:
        if other in used.get(formula, set()):
            return True
        mine, theirs = functions.get(formula), functions.get(other)
        if mine is None or theirs is None or mine == theirs:
            return False
        return may_call(references, mine, theirs) and not may_call(references, theirs, mine)

    roots = [f for f in formulas if not any(follows(f, g) for g in formulas if g != f)]
    return roots or formulas


def _inferred_causes(
    golden: dict[str, list[Difference]],
    examples: dict[str, list[Difference]],
    board: list[Difference],
    committed: Methodology,
    live: Methodology,
) -> list[Cause]:
    """Causes when no constant or formula registration differs: the formulas whose golden
    evaluations differ (not one that uses another of them), else the worked examples,
    else the reference corpus."""
    by_formula: dict[str, list[Difference]] = {}
    for name, found in golden.items():
        by_formula.setdefault(_golden_formula(name, committed, live), []).extend(found)
    if by_formula:
        causes = []
        for formula in _root_formulas(list(by_formula), committed, live):
            found = by_formula[formula]
            points = len({_entry(d)[1] for d in found})  # type: ignore[index]
            location = next((d.location for d in found if d.location), None)
            same_inputs = all(d.kind == Kind.CHANGED and ".result" in d.path for d in found)
            note = (
                f"gives other results at {_plural(points, 'golden point')} with the same "
                "inputs: its code changed"
                if same_inputs
                else f"has other golden points ({_plural(points, 'point')} of it): its "
                "registration changed"
            )
            causes.append(Cause("formula", formula, location, note=note))
        return causes
    if examples:
        edited = [n for n, found in examples.items() if any(".inputs" in d.path for d in found)]
        if edited:
            return [
                Cause("worked example", name, examples[name][0].location, note="has other inputs")
                for name in edited
            ]
        first = next(iter(examples.values()))[0]
        note = (
            f"give other results with the same inputs ({_plural(len(examples), 'example')}): "
            "the code they run changed"
        )
        return [Cause("", "the worked examples", first.location, note=note)]
    if board:
        corpora = sorted({d.location for d in board if d.location and ".sha256" in d.path})
        if corpora:
            return [Cause("reference corpus file", c, None, note="changed") for c in corpora]
        note = "differs with the same corpus: the report's code changed"
        return [Cause("", "the scoreboard of the reference corpus", None, note=note)]
    return []


def explain(
    committed: Methodology,
    live: Methodology,
    differences: Sequence[Difference],
    *,
    edited: str | None = None,
    scoreboard: Sequence[str] = (),
    extra: Iterable[str] = (),
) -> Explanation:
    """The causes of ``differences`` (``committed`` → ``live``) and what follows from them.

    ``edited``: the snapshot file was edited by hand; that edit is the one cause and every
    difference follows from it. ``scoreboard``: lines under the scoreboard's group (the
    impact on the corpus, which the caller computes); ``extra``: lines after the groups
    (README blocks that show the change).
    """
    constants: dict[str, list[Difference]] = {}
    formulas: dict[str, list[Difference]] = {}
    golden: dict[str, list[Difference]] = {}
    examples: dict[str, list[Difference]] = {}
    board: list[Difference] = []
    fields: dict[str, list[Difference]] = {}
    for difference in differences:
        entry = _entry(difference)
        if entry is not None:
            key, name, _ = entry
            buckets = {"constants": constants, "formulas": formulas, "golden": golden}
            buckets.get(key, examples).setdefault(name, []).append(difference)
        elif is_scoreboard(difference):
            board.append(difference)
        else:
            fields.setdefault(difference.path.split(".")[0].split("[")[0], []).append(difference)

    groups: list[Group] = []
    causes: list[Cause] = []
    if edited is not None:
        note = "was edited by hand: its bytes are not those the lock records"
        causes.append(Cause("", edited, None, note=note))
        groups += _entry_group("constants", constants, "constant")
        groups += _entry_group("formulas", formulas, "formula")
    else:
        for name, found in constants.items():
            mirrored = [
                d for f, c in FIELD_CONSTANTS.items() if c == name for d in fields.pop(f, [])
            ]
            cause = _entry_cause("constant", name, found, committed, live)
            # A mirroring field records the same change again: it is part of the cause.
            causes.append(replace(cause, differences=(*cause.differences, *mirrored)))
        causes += [
            _entry_cause("formula", name, found, committed, live)
            for name, found in formulas.items()
        ]
        for path in list(fields):
            found = fields.pop(path)
            location = next((d.location for d in found if d.location), None)
            parts = tuple(("", *_sides(d, _CAUSE_VALUE_CHARS)) for d in found)
            causes.append(Cause("snapshot field", path, location, parts, differences=tuple(found)))
        if not causes:
            causes = _inferred_causes(golden, examples, board, committed, live)
    groups += _golden_group(golden, committed, live)
    groups += _example_group(examples)
    if board:
        groups.append(
            Group("scoreboard of the reference corpus", tuple(board), "", tuple(scoreboard), ":")
        )
    others = [d for found in fields.values() for d in found]
    if others:
        groups.append(Group("other fields", tuple(others), "", _examples(others)))
    return Explanation(tuple(causes), tuple(groups), tuple(extra))


def _entry_group(key: str, found: dict[str, list[Difference]], noun: str) -> list[Group]:
    if not found:
        return []
    listed = [d for items in found.values() for d in items]
    detail = f" in {_plural(len(found), noun)} ({_names(list(found))})"
    return [Group(key, tuple(listed), detail, _examples(listed))]


def _golden_group(
    golden: dict[str, list[Difference]], committed: Methodology, live: Methodology
) -> list[Group]:
    if not golden:
        return []
    listed = [d for items in golden.values() for d in items]
    formulas = list(dict.fromkeys(_golden_formula(n, committed, live) for n in golden))
    detail = (
        f" in {_plural(len(golden), 'evaluation')} of {_plural(len(formulas), 'formula')} "
        f"({_names(formulas)})"
    )
    return [Group("golden evaluations", tuple(listed), detail, _examples(listed))]


def _example_group(examples: dict[str, list[Difference]]) -> list[Group]:
    if not examples:
        return []
    listed = [d for items in examples.values() for d in items]
    detail = f" in {_plural(len(examples), 'example')} ({_names(list(examples))})"
    return [Group("worked examples", tuple(listed), detail, _examples(listed))]


# --- What a page shows ------------------------------------------------------------------------


def changed_entries(
    differences: Iterable[Difference], committed: Methodology, live: Methodology
) -> set[tuple[str, str]]:
    """The entries the differences touch, as ``(kind, name)``: ``("constant", name)``,
    ``("formula", name)`` (its registration or its golden evaluations), ``("example",
    name)``, and ``("scoreboard", "")`` when the reference corpus's scores move."""
    found: set[tuple[str, str]] = set()
    for difference in differences:
        entry = _entry(difference)
        if entry is None:
            if is_scoreboard(difference):
                found.add((SCOREBOARD_KEY, ""))
            elif difference.path.split(".")[0] in FIELD_CONSTANTS:
                found.add(("constant", FIELD_CONSTANTS[difference.path.split(".")[0]]))
            continue
        key, name, _ = entry
        if key == "golden":
            found.add(("formula", _golden_formula(name, committed, live)))
        else:
            found.add((key.removesuffix("s"), name))
    return found
