"""The environment the LaTeX evaluator (:mod:`contracts.latex.evaluator`) reads a formula's symbols
in: the row of a sum (:class:`Element`), an index's values (:class:`IndexRange`), and the
environments that note what a definition read, so that its value can be kept for the same
inputs (:class:`Reads`, :class:`Bound`, :func:`same_input`)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any


@dataclass(frozen=True, slots=True)
class Element:
    """The current row of a bound variable (``t`` in ``\\sum_{t \\in T}``)."""

    values: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class IndexRange:
    """The values an index may take; a ``cases`` row picks the first that satisfies it."""

    values: tuple[int, ...]


class Reads(Mapping[str, Any]):
    """An environment whose every read is noted: what a definition's value was found from.
    A name asked for and absent is noted too (its absence is part of what was read)."""

    __slots__ = ("_base", "names")

    def __init__(self, base: Mapping[str, Any]) -> None:
        self._base = base
        self.names: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.names.add(key)
        return self._base[key]

    def __contains__(self, key: object) -> bool:
        self.names.add(key)  # type: ignore[arg-type]
        return key in self._base

    def __iter__(self) -> Iterator[str]:  # every name read: no value can be kept on less
        self.names.update(self._base)
        return iter(self._base)

    def __len__(self) -> int:
        self.names.update(self._base)
        return len(self._base)


class Bound(Mapping[str, Any]):
    """``outer`` with ``local``'s names bound over it (a sum's row, a function's values):
    a read of a local name does not read ``outer``, so it is not noted there."""

    __slots__ = ("_local", "_outer")

    def __init__(self, local: dict[str, Any], outer: Mapping[str, Any]) -> None:
        self._local = local
        self._outer = outer

    def __getitem__(self, key: str) -> Any:
        if key in self._local:
            return self._local[key]
        return self._outer[key]

    def __contains__(self, key: object) -> bool:
        return key in self._local or key in self._outer

    def __iter__(self) -> Iterator[str]:
        return iter({**dict.fromkeys(self._outer), **dict.fromkeys(self._local)})

    def __len__(self) -> int:
        return sum(1 for _ in self)


def bound(env: Mapping[str, Any], local: dict[str, Any]) -> Mapping[str, Any]:
    """``env`` with ``local`` bound over it, read through (:class:`Bound`) where ``env``'s
    reads are being noted, else a plain copy."""
    if type(env) is dict:
        return {**env, **local}
    return Bound(local, env)


ABSENT = object()


def same_input(a: Any, b: Any) -> bool:
    """Whether a definition reads ``a`` as it read ``b``: the same object, or of the same
    type and equal (a row by its values, each of the same type: ``1`` and ``1.0`` and
    ``Fraction(1)`` stay apart, as an input's type can change what is computed)."""
    if a is b:
        return True
    if type(a) is not type(b):
        return False
    if isinstance(a, Element):
        return a.values.keys() == b.values.keys() and all(
            same_input(a.values[k], b.values[k]) for k in a.values
        )
    if isinstance(a, tuple | list):
        return len(a) == len(b) and all(same_input(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, Decimal):  # digit for digit: 1.0 and 1 are kept apart
        return bool(a.as_tuple() == b.as_tuple())
    if isinstance(a, Fraction | int | float | str):
        return bool(a == b)
    return False
