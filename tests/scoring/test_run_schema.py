"""The run schema's two forms say the same thing, field by field.

A run is defined once, by :class:`scoring.models.RunFields` (pydantic: its messages name
every bad line's field and rule); the reader decodes the common case into
:class:`scoring.models.RunRow`, a msgspec struct made from that model's fields. Behaviour on
sample lines is compared in ``test_report_speed.py``; here the declarations themselves, read
back from each library's own introspection: the same fields in the same order, the same
types, the same optionality and the same bounds. A bound the derivation dropped or changed
fails here before any line is read.
"""

from __future__ import annotations

import types
import typing
from enum import Enum
from typing import Any

import msgspec
import msgspec.inspect as mi
import pytest
from pydantic import BaseModel
from pydantic.fields import FieldInfo

from scoring.models import RunFields, RunRow

#: A field as both sides are compared: its base types (names), whether None is allowed, and
#: its bounds ("ge", "min_length"), with the timestamp's pattern left to the reader (it is
#: checked on a whole chunk at once, by scoring.report.read.CALENDAR_PATTERN).
Shape = tuple[str, frozenset[str], bool, tuple[tuple[str, Any], ...]]

_BOUNDS = ("ge", "gt", "le", "lt", "min_length", "max_length")


def _pydantic_parts(annotation: Any, found: dict[str, Any]) -> tuple[set[str], bool]:
    origin = typing.get_origin(annotation)
    if origin is typing.Annotated:
        base, *extras = typing.get_args(annotation)
        for extra in extras:
            metadata = extra.metadata if isinstance(extra, FieldInfo) else [extra]
            for item in metadata:
                for bound in _BOUNDS:
                    if getattr(item, bound, None) is not None:
                        found[bound] = getattr(item, bound)
            for bound in _BOUNDS:  # StringConstraints carries its bounds itself
                if not isinstance(extra, FieldInfo) and getattr(extra, bound, None) is not None:
                    found[bound] = getattr(extra, bound)
        return _pydantic_parts(base, found)
    if origin in (typing.Union, types.UnionType):
        names: set[str] = set()
        optional = False
        for arg in typing.get_args(annotation):
            if arg is type(None):
                optional = True
                continue
            inner, _ = _pydantic_parts(arg, found)
            names |= inner
        return names, optional
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        return {f"enum:{annotation.__name__}"}, False
    return {annotation.__name__}, False


def pydantic_shapes(model: type[BaseModel]) -> list[Shape]:
    shapes = []
    for name, field in model.model_fields.items():
        found: dict[str, Any] = {}
        for item in field.metadata:  # annotated-types' MinLen, Ge, ...: read by their names
            for bound in _BOUNDS:
                if getattr(item, bound, None) is not None:
                    found[bound] = getattr(item, bound)
        names, optional = _pydantic_parts(field.annotation, found)
        shapes.append((name, frozenset(names), optional, tuple(sorted(found.items()))))
    return shapes


_MSGSPEC_NAMES = {mi.StrType: "str", mi.FloatType: "float", mi.IntType: "int", mi.BoolType: "bool"}


def _msgspec_parts(info: mi.Type, found: dict[str, Any]) -> tuple[set[str], bool]:
    if isinstance(info, mi.UnionType):
        names: set[str] = set()
        optional = False
        for member in info.types:
            if isinstance(member, mi.NoneType):
                optional = True
                continue
            inner, _ = _msgspec_parts(member, found)
            names |= inner
        return names, optional
    if isinstance(info, mi.EnumType):
        return {f"enum:{info.cls.__name__}"}, False
    for bound in _BOUNDS:
        if getattr(info, bound, None) is not None:
            found[bound] = getattr(info, bound)
    return {_MSGSPEC_NAMES[type(info)]}, False


def msgspec_shapes(struct: type[msgspec.Struct]) -> list[Shape]:
    info = mi.type_info(struct)
    assert isinstance(info, mi.StructType)
    shapes = []
    for field in info.fields:
        found: dict[str, Any] = {}
        names, optional = _msgspec_parts(field.type, found)
        shapes.append((field.name, frozenset(names), optional, tuple(sorted(found.items()))))
    return shapes


def test_the_two_forms_declare_the_same_fields() -> None:
    assert msgspec_shapes(RunRow) == pydantic_shapes(RunFields)
    # Not a comparison of two empty lists: every field of the record is there.
    assert [shape[0] for shape in pydantic_shapes(RunFields)] == list(RunFields.model_fields)
    assert len(RunFields.model_fields) >= 9


def test_the_msgspec_form_refuses_what_the_schema_does() -> None:
    """The struct decodes every key and refuses unknown ones (the model's ``extra="forbid"``)."""
    config = RunRow.__struct_config__
    assert config.forbid_unknown_fields
    assert RunFields.model_config.get("extra") == "forbid"


_NonNegative = typing.Annotated[float, msgspec.Meta(ge=0)]


def _spoiled(**changes: Any) -> type[msgspec.Struct]:
    """A copy of :class:`RunRow` with some fields' declarations changed (``None``: removed)."""
    hints = typing.get_type_hints(RunRow, include_extras=True)
    fields: list[tuple[str, Any]] = []
    for field in mi.type_info(RunRow).fields:  # type: ignore[union-attr]
        if field.name in changes and changes[field.name] is None:
            continue
        fields.append((field.name, changes.get(field.name, hints[field.name])))
    return msgspec.defstruct("RunRow", fields, forbid_unknown_fields=True)


@pytest.mark.parametrize(
    "changes",
    [
        {"latency_ms": float | None},  # the bound ge=0 forgotten
        {"steps": typing.Annotated[int, msgspec.Meta(ge=1)] | None},  # a bound moved
        {"success": bool},  # no longer optional
        {"agent_id": str},  # min_length forgotten
        {"cost_usd": None},  # a field left out
        {"task_id": _NonNegative},  # another type
    ],
)
def test_a_drifted_form_is_caught(changes: dict[str, Any]) -> None:
    spoiled = _spoiled(**changes)
    assert msgspec_shapes(spoiled) != pydantic_shapes(RunFields)


def test_the_unspoiled_copy_passes() -> None:
    """The copy the drift cases start from is itself equal: the cases above fail for their
    change, not for the copying."""
    assert msgspec_shapes(_spoiled()) == pydantic_shapes(RunFields)
