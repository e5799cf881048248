"""The methodology's invariants (``scoring.invariants``), in process: the live constants
keep every one; each rule, given a module whose constants break it, names the constant,
its line and the invariant. (The same breaks made in a copy of the code, and what the
commands and the site do about them, are ``tests/contracts/test_invariant_copies.py``.)"""

from __future__ import annotations

import ast
import types
from decimal import Decimal
from pathlib import Path
from types import MappingProxyType
from typing import Any

import pytest

import scoring.constants as C  # noqa: N812 - the module of constants, named as in contracts
from contracts.build import constant_location
from contracts.source import locate
from scoring.constants import Anchor, Axis
from scoring.errors import MethodologyError
from scoring.invariants import INVARIANTS, breaches, check_methodology


def _module(**changes: Any) -> types.ModuleType:
    """A stand-in for ``scoring.constants``: the live values, ``changes`` applied."""
    module = types.ModuleType(C.__name__)
    module.__dict__.update(vars(C))
    module.__dict__.update(changes)
    return module


def test_the_live_constants_keep_every_invariant() -> None:
    assert breaches() == []
    check_methodology()


def test_invariant_names_are_unique_and_their_constants_exist() -> None:
    names = [invariant.name for invariant in INVARIANTS]
    assert len(names) == len(set(names))
    for invariant in INVARIANTS:
        for name in invariant.constants:
            assert hasattr(C, name), f"{invariant.name} reads {name}, which does not exist"


def test_every_numeric_constant_is_read_by_some_invariant() -> None:
    """A new scale, window, gate or floor gets its range written down too."""
    read = {name for invariant in INVARIANTS for name in invariant.constants}
    numeric = [
        info.python_name
        for info in C.constants()
        if isinstance(info.value, int | Decimal | tuple | MappingProxyType)
        and not (isinstance(info.value, tuple) and info.value and isinstance(info.value[0], str))
    ]
    assert [name for name in numeric if name not in read] == []


def _line(name: str) -> int:
    tree = ast.parse(Path(C.__file__).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.AnnAssign) and getattr(node.target, "id", None) == name:
            return node.lineno
    raise KeyError(name)


@pytest.mark.parametrize(
    ("changes", "constant", "invariant", "says"),
    [
        (
            {"COMPOSITE_WEIGHT_SUCCESS": Decimal("-0.40")},
            "COMPOSITE_WEIGHT_SUCCESS",
            "composite.weights",
            "is -0.40, outside [0, 1]",
        ),
        (
            {"COMPOSITE_WEIGHT_SUCCESS": Decimal("0.50")},
            "COMPOSITE_WEIGHT_SUCCESS",
            "composite.weights",
            "sum to 0.50 + 0.30 + 0.30 = 1.10, not 1",
        ),
        (
            {
                "LATENCY_ANCHORS_MS": (
                    Anchor(Decimal(500), Decimal(150)),
                    *C.LATENCY_ANCHORS_MS[1:],
                )
            },
            "LATENCY_ANCHORS_MS",
            "composite.latency_anchors",
            "anchor 0 (x 500) scores 150, outside the scale [0, 100]",
        ),
        (
            {"COST_ANCHORS_USD": (C.COST_ANCHORS_USD[1], C.COST_ANCHORS_USD[0])},
            "COST_ANCHORS_USD",
            "composite.cost_anchors",
            "anchors must strictly increase in x",
        ),
        (
            {"RADAR_DEFAULT_WEIGHTS": MappingProxyType(dict.fromkeys(Axis, Decimal(0)))},
            "RADAR_DEFAULT_WEIGHTS",
            "radar.default_weights",
            "their sum must be positive",
        ),
        (
            {
                "RADAR_DEFAULT_WEIGHTS": MappingProxyType(
                    {**C.RADAR_DEFAULT_WEIGHTS, Axis.COST: Decimal("-0.2")}
                )
            },
            "RADAR_DEFAULT_WEIGHTS",
            "radar.default_weights",
            "the weight of cost is -0.2; weights must be ≥ 0",
        ),
        (
            {"RADAR_COST_ZERO_USD": Decimal("0.005")},
            "RADAR_COST_ZERO_USD",
            "radar.cost_range",
            "is 0.005, outside (0.01, ∞]",
        ),
        (
            {"RADAR_LATENCY_MIN_RUNS": 150},
            "RADAR_LATENCY_MIN_RUNS",
            "radar.gates_within_window",
            "is 150, outside [1, 100] (RADAR_WINDOW_RUNS read live)",
        ),
        (
            {"RECOVERABLE_FLOOR": Decimal("1.5")},
            "RECOVERABLE_FLOOR",
            "fractions.unit_interval",
            "outside [0, 1]",
        ),
        ({"SCORE_DECIMALS": -1}, "SCORE_DECIMALS", "rounding.decimals", "outside [0, ∞]"),
        (
            {"CONSISTENCY_MIN_RUNS": Decimal("2.5")},
            "CONSISTENCY_MIN_RUNS",
            "gates.at_least_one",
            "not an integer",
        ),
        ({"PASS_K_LEVELS": (1, 5, 3)}, "PASS_K_LEVELS", "repeatability.levels", "strictly"),
        ({"SCORE_SCALE": Decimal(0)}, "SCORE_SCALE", "scale.positive", "outside (0, ∞]"),
    ],
)
def test_a_broken_constant_is_named_with_its_line_and_invariant(
    changes: dict[str, Any], constant: str, invariant: str, says: str
) -> None:
    found = breaches(_module(**changes))
    mine = [b for b in found if b.constant == constant and b.invariant == invariant]
    assert mine, found
    assert any(says in b.rule for b in mine), [b.rule for b in mine]
    assert all(b.file == "scoring/constants.py" and b.line == _line(constant) for b in mine)
    with pytest.raises(MethodologyError) as raised:
        check_methodology(_module(**changes))
    assert f"scoring/constants.py:{_line(constant)}: {constant}: " in raised.value.message()


def test_the_line_of_a_breach_is_the_line_the_contracts_locate() -> None:
    """Two readers of one file: ``scoring`` cannot import ``contracts.source``."""
    for info in C.constants():
        found = breaches(_module(**{info.python_name: object()}))
        lines = {b.line for b in found if b.constant == info.python_name}
        if lines:
            assert lines == {locate(constant_location(info.python_name))}, info.python_name


def test_a_same_value_refactor_keeps_the_invariants() -> None:
    module = _module(
        COMPOSITE_WEIGHT_SUCCESS=Decimal(2) / Decimal(5),
        RADAR_DEFAULT_WEIGHTS=MappingProxyType(dict.fromkeys(Axis, Decimal(1))),
    )
    assert breaches(module) == []


def test_a_rule_that_cannot_read_its_constant_is_a_breach() -> None:
    found = breaches(_module(LATENCY_ANCHORS_MS=None))
    assert [b.invariant for b in found] == ["composite.latency_anchors"]
