"""The comparison of two snapshots: every path at which they disagree, and how to print it.

:func:`diff_snapshots` returns one :class:`Difference` per disagreement (a changed value, an
entry only on one side, a new order), each with the ``file:line`` where the constant,
formula or example is defined now; :func:`render_difference` turns one into the lines the
drift check (:mod:`contracts.check.drift`) prints. The versions page uses the same comparison.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from contracts.model import Location, Methodology
from contracts.source import definition_end, locate, string_line
from contracts.store import canonical_json, snapshot_content

#: Top-level snapshot fields that mirror a constant: where to point the reader (and, for
#: :mod:`contracts.check.causes`, the constant whose change they record again).
FIELD_CONSTANTS = {
    "methodology_version": "methodology.version",
    "zero_success_policy": "composite.zero_success_policy",
    "outcome_score_version": "outcome.version",
}
_NAMED_LISTS = ("constants", "formulas", "golden", "examples")
SCOREBOARD_KEY = "scoreboard"
_EXAMPLES_FILE = "scoring/examples.py"
_VALUE_WIDTH = 160


class Kind:
    """How a path differs: changed in place, only in the live code, only in the snapshot."""

    CHANGED = "changed"
    ADDED = "added"
    REMOVED = "removed"


@dataclass(frozen=True, slots=True)
class Difference:
    """One disagreement between a committed and a live snapshot.

    ``path`` is dotted, e.g. ``constants[composite.weight.success].value``; ``committed``
    and ``live`` are JSON data (``None`` on the side where the entry is absent, see
    ``kind``); ``location`` is ``file:line`` where the constant, formula or example is
    defined now, or ``None``.
    """

    path: str
    committed: Any
    live: Any
    location: str | None
    kind: str = Kind.CHANGED

    @property
    def file(self) -> str | None:
        """The file of :attr:`location` (for an annotation's ``file=``), or ``None``."""
        if self.location is None:
            return None
        file, _, line = self.location.rpartition(":")
        return file if line.isdigit() else self.location

    @property
    def line(self) -> int | None:
        """The line of :attr:`location` (for ``line=`` and ``endLine=``), or ``None``."""
        if self.location is None:
            return None
        line = self.location.rpartition(":")[2]
        return int(line) if line.isdigit() else None

    @property
    def end_line(self) -> int | None:
        """The last line of the definition that starts at :attr:`line` (an assignment, a
        decorated function), for an annotation's ``endLine=``; :attr:`line` if unknown."""
        if self.file is None or self.line is None:
            return None
        end = definition_end(self.file, self.line)
        return self.line if end is None else end


def where_defined(location: Location | None) -> str | None:
    """``file:line`` where ``location``'s symbol is defined now; ``None`` if it is not found."""
    if location is None:
        return None
    line = locate(location)
    return f"{location.file}:{line}" if line else None


def example_location(name: str) -> str | None:
    """``file:line`` of the worked example called ``name`` in ``scoring/examples.py``."""
    line = string_line(_EXAMPLES_FILE, name)
    return f"{_EXAMPLES_FILE}:{line}" if line else None


def _is_exact(value: Any) -> bool:
    return isinstance(value, dict) and set(value) == {"exact", "approx"}


def _same(committed: Any, live: Any) -> bool:
    """Equal as JSON text: ``1`` and ``1.0`` differ, as they do in the file."""
    return committed == live and canonical_json(committed) == canonical_json(live)


def _leaves(path: str, committed: Any, live: Any) -> Iterator[tuple[str, Any, Any, str]]:
    """Paths under which ``committed`` and ``live`` differ, down to the smallest part."""
    if _same(committed, live):
        return
    exact = _is_exact(committed) or _is_exact(live)
    if isinstance(committed, dict) and isinstance(live, dict) and not exact:
        for key in [*committed, *(k for k in live if k not in committed)]:
            if key not in live:
                yield f"{path}.{key}", committed[key], None, Kind.REMOVED
            elif key not in committed:
                yield f"{path}.{key}", None, live[key], Kind.ADDED
            else:
                yield from _leaves(f"{path}.{key}", committed[key], live[key])
        return
    if isinstance(committed, list) and isinstance(live, list) and len(committed) == len(live):
        for index, (old, new) in enumerate(zip(committed, live, strict=True)):
            yield from _leaves(f"{path}[{index}]", old, new)
        return
    yield path, committed, live, Kind.CHANGED


def _entry_location(kind: str, entry: dict[str, Any], live: Methodology) -> str | None:
    if kind in ("constants", "formulas"):
        return where_defined(Location.model_validate(entry["defined_in"]))
    if kind == "golden":
        try:
            return where_defined(live.formula(entry["formula"]).defined_in)
        except KeyError:
            return None
    return example_location(entry["name"])


def diff_snapshots(committed: Methodology, live: Methodology) -> list[Difference]:
    """Every path at which ``committed`` and ``live`` disagree, in snapshot order.

    Lists of named entries (constants, formulas, golden, examples) are matched by name: an
    entry only on one side is one ``added``/``removed`` difference, a changed entry one
    difference per changed field (an exact value ``{exact, approx}`` counts as one field),
    and a new order of the same names one difference ``<list>[*].order``.
    """
    old, new = snapshot_content(committed), snapshot_content(live)
    found: list[Difference] = []
    for key in [*old, *(k for k in new if k not in old)]:
        if key in _NAMED_LISTS:
            found += _diff_named(key, old.get(key, []), new.get(key, []), live)
            continue
        if key == SCOREBOARD_KEY:
            found += _diff_scoreboard(old.get(key), new.get(key))
            continue
        constant = FIELD_CONSTANTS.get(key)
        location = None
        if constant is not None:
            try:
                location = where_defined(live.constant(constant).defined_in)
            except KeyError:
                location = None
        for path, a, b, kind in _leaves(key, old.get(key), new.get(key)):
            found.append(Difference(path, a, b, location, kind))
    return found


def _diff_named(
    key: str, old: list[dict[str, Any]], new: list[dict[str, Any]], live: Methodology
) -> list[Difference]:
    before = {entry["name"]: entry for entry in old}
    after = {entry["name"]: entry for entry in new}
    found: list[Difference] = []
    for name in [*before, *(n for n in after if n not in before)]:
        path = f"{key}[{name}]"
        if name not in after:
            where = _entry_location(key, before[name], live)
            found.append(Difference(path, before[name], None, where, Kind.REMOVED))
        elif name not in before:
            where = _entry_location(key, after[name], live)
            found.append(Difference(path, None, after[name], where, Kind.ADDED))
        else:
            changes = list(_leaves(path, before[name], after[name]))
            where = _entry_location(key, after[name], live) if changes else None
            found += [Difference(p, a, b, where, kind) for p, a, b, kind in changes]
    common_before = [n for n in before if n in after]
    common_after = [n for n in after if n in before]
    if common_before != common_after:
        found.append(Difference(f"{key}[*].order", common_before, common_after, None))
    return found


def _diff_scoreboard(
    old: list[dict[str, Any]] | None, new: list[dict[str, Any]] | None
) -> list[Difference]:
    """Scoreboards matched by corpus path, then by agent id (ranks say the order)."""
    if old is None or new is None:
        if old == new:
            return []
        kind = Kind.ADDED if old is None else Kind.REMOVED
        return [Difference(SCOREBOARD_KEY, old, new, None, kind)]
    before = {board["path"]: board for board in old}
    after = {board["path"]: board for board in new}
    found: list[Difference] = []
    for path in [*before, *(p for p in after if p not in before)]:
        where = f"{SCOREBOARD_KEY}[{path}]"
        if path not in after or path not in before:
            kind = Kind.REMOVED if path not in after else Kind.ADDED
            found.append(Difference(where, before.get(path), after.get(path), path, kind))
            continue
        for name, a, b, kind in _leaves(
            f"{where}.sha256", before[path]["sha256"], after[path]["sha256"]
        ):
            found.append(Difference(name, a, b, path, kind))
        agents_before = {agent["agent_id"]: agent for agent in before[path]["agents"]}
        agents_after = {agent["agent_id"]: agent for agent in after[path]["agents"]}
        for agent in [*agents_before, *(a for a in agents_after if a not in agents_before)]:
            for name, a, b, kind in _leaves(
                f"{where}.agents[{agent}]", agents_before.get(agent), agents_after.get(agent)
            ):
                found.append(Difference(name, a, b, path, kind))
    return found


def is_scoreboard(difference: Difference) -> bool:
    """Whether ``difference`` lies in the scoreboard (the check counts those, not lists them)."""
    return difference.path.startswith(SCOREBOARD_KEY)


# --- Rendering --------------------------------------------------------------------------------


def render_value(value: Any) -> str:
    """A JSON value on one line: an exact value as ``170/3 (≈56.666…)``, long ones cut.

    >>> render_value({"exact": "2/3", "approx": 0.6666666666666666})
    '2/3 (≈0.6666666666666666)'
    >>> render_value({"exact": "0.3", "approx": 0.3}), render_value(None), render_value("v1")
    ('0.3', 'null', '"v1"')
    """
    if _is_exact(value):
        exact = value["exact"]
        return exact if "/" not in exact else f"{exact} (≈{value['approx']!r})"
    text = json.dumps(value, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= _VALUE_WIDTH else text[: _VALUE_WIDTH - 1] + "…"


def render_difference(difference: Difference, fix: str) -> list[str]:
    """The lines that describe one difference: path, both values, where, how to fix it."""
    committed = "(absent)" if difference.kind == Kind.ADDED else render_value(difference.committed)
    live = "(absent)" if difference.kind == Kind.REMOVED else render_value(difference.live)
    return [
        f"  {difference.path}",
        f"      committed: {committed}",
        f"      live:      {live}",
        f"      defined:   {difference.location or '(unknown)'}",
        f"      fix:       {fix}",
    ]
