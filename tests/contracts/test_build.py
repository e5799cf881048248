"""Building the snapshot: exact values, JSON values, and where each entry is defined."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType

import pytest

import scoring.constants as C  # noqa: N812
from contracts.build import exact_value, to_json_value
from contracts.check.drift import (
    example_location,
)
from contracts.model import Location, Methodology
from contracts.source import REPO_ROOT, locate

# --- exact_value and to_json_value -----------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "exact"),
    [
        (Fraction(0), "0"),
        (Fraction(1), "1"),
        (Fraction(-3, 4), "-0.75"),
        (Fraction(1, 8), "0.125"),
        (Fraction(561, 10), "56.1"),
        (Fraction(100), "100"),
        (Fraction(2500), "2500"),
        (Fraction(1, 3), "1/3"),
        (Fraction(202, 3), "202/3"),
        (Fraction(1, 1024), "0.0009765625"),
        (Fraction(7, 6), "7/6"),
    ],
)
def test_exact_value_is_a_terminating_decimal_or_a_ratio(value: Fraction, exact: str) -> None:
    result = exact_value(value)
    assert result.exact == exact
    assert result.approx == float(value)
    assert Fraction(result.exact) == value


def test_to_json_value_covers_every_constant_type() -> None:
    assert to_json_value(Decimal("0.40")) == 0.4
    assert to_json_value(Decimal("100")) == 100
    assert isinstance(to_json_value(Decimal("100")), int)
    assert to_json_value(True) is True
    assert to_json_value(None) is None
    assert to_json_value("v1") == "v1"
    assert to_json_value(C.Axis.COST) == "cost"
    assert to_json_value(Fraction(2, 3)) == {"exact": "2/3", "approx": 2 / 3}
    assert to_json_value((1, 3, 5)) == [1, 3, 5]
    assert to_json_value(C.Anchor(Decimal("0.010"), Decimal("80"))) == {"x": 0.01, "score": 80}
    weights = MappingProxyType({C.Axis.COST: Decimal("0.20")})
    assert to_json_value(weights) == {"cost": 0.2}
    with pytest.raises(TypeError, match="no JSON form for complex"):
        to_json_value(1j)


def test_every_constant_round_trips_through_json(live: Methodology) -> None:
    for entry in live.constants:
        assert json.loads(json.dumps(entry.value)) == entry.value


# --- locate and example_location -------------------------------------------------------------


def test_locate_finds_the_assignment_line_of_every_constant(live: Methodology) -> None:
    lines = (REPO_ROOT / "scoring/constants.py").read_text(encoding="utf-8").splitlines()
    for entry in live.constants:
        line = locate(entry.defined_in)
        assert lines[line - 1].startswith(f"{entry.python_name}:"), entry.name


def test_locate_finds_the_decorator_line_of_every_formula(live: Methodology) -> None:
    for entry in live.formulas:
        line = locate(entry.defined_in)
        text = (REPO_ROOT / entry.defined_in.file).read_text(encoding="utf-8").splitlines()
        assert text[line - 1].startswith("@formula("), entry.name
        assert f'"{entry.name}"' in "\n".join(text[line - 1 : line + 1])


def test_locate_returns_zero_for_an_unknown_symbol_or_file() -> None:
    assert locate(Location(file="scoring/constants.py", symbol="NO_SUCH_NAME")) == 0
    assert locate(Location(file="scoring/missing.py", symbol="X")) == 0


def test_example_location_points_at_the_example_name() -> None:
    where = example_location("composite.typical")
    assert where is not None
    file, line = where.split(":")
    text = (REPO_ROOT / file).read_text(encoding="utf-8").splitlines()
    assert '"composite.typical"' in text[int(line) - 1]
    assert example_location("no.such.example") is None
