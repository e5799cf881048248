"""The drift check's formula check (every formula's LaTeX evaluated at each golden point,
``contracts.check.formulas.formula_problems``) computed once per state of the code in a test
process, where dozens of in-process ``run_check`` and ``run_update`` calls would each
evaluate it again on the same code (about a second each, the larger part of their time).

The state is what the check can read, as seen from the test process: which object each
name of every loaded ``scoring`` and ``contracts`` module (and each class of theirs) is
bound to, and which formula each entry of the registry is. A test that swaps any of them
(``monkeypatch.setattr``, ``monkeypatch.setitem(FORMULAS, ...)``) is another state, checked
anew; undoing the swap returns to a state already checked. A call with its own
``formulas`` is never memoised. ``tests/conftest.py`` installs it for the session;
``tests/contracts/test_formula_check_memo.py`` shows a swap is checked anew. (A value
changed in place, not rebound, is not seen: no test of the suite does that to the code.)
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Hashable, Mapping
from typing import Any

from scoring import FORMULAS

_PACKAGES = ("scoring", "contracts")


def _bindings(namespace: Mapping[str, Any]) -> tuple[tuple[str, int], ...]:
    # Ids only: the memo keeps each state's objects alive (``Memo._keep``), so that an id
    # in a key is never reused by another object.
    return tuple((name, id(value)) for name, value in namespace.items())


def code_state() -> tuple[Hashable, list[Any]]:
    """The state of the code the formula check reads (see the module), and the objects
    its key names (kept alive by the memo, so that an id in a key is never reused)."""
    objects: list[Any] = []
    parts: list[Hashable] = []
    for name, module in sorted(sys.modules.items()):
        if module is None or name.split(".", 1)[0] not in _PACKAGES:
            continue
        namespace = vars(module)
        objects.extend(namespace.values())
        parts.append((name, _bindings(namespace)))
        for value in namespace.values():
            if isinstance(value, type) and value.__module__ == name:
                objects.extend(vars(value).values())
                parts.append((name, value.__qualname__, _bindings(vars(value))))
    objects.extend(FORMULAS.values())
    parts.append(_bindings(FORMULAS))
    return tuple(parts), objects


class Memo:
    """``formula_problems`` computed once per :func:`code_state`; ``computed`` counts the
    evaluations (for the memo's own test)."""

    def __init__(self, compute: Callable[..., list[Any]]) -> None:
        self.compute = compute
        self.computed = 0
        self._results: dict[Hashable, list[Any]] = {}
        self._keep: list[Any] = []

    def __call__(self, formulas: Mapping[str, Any] | None = None) -> list[Any]:
        if formulas is not None:
            return self.compute(formulas)
        key, objects = code_state()
        if key not in self._results:
            self.computed += 1
            found = self.compute()
            # The first evaluation imports modules of its own (the LaTeX evaluator's): the
            # state after it is the same code, with them loaded.
            after, loaded = code_state()
            self._results[key] = self._results[after] = found
            self._keep += [objects, loaded]
        return list(self._results[key])


def install() -> Callable[[], None]:
    """Put the memo in place of ``contracts.check.formulas.formula_problems`` (which the check
    and update import at each call); returns the undo."""
    import contracts.check.formulas

    original = contracts.check.formulas.formula_problems
    contracts.check.formulas.formula_problems = Memo(original)  # type: ignore[assignment]

    def undo() -> None:
        contracts.check.formulas.formula_problems = original

    return undo
