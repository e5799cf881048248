"""The LaTeX evaluator (``contracts.latex.evaluator``): each construct the formulas use, computed
exactly, and a clear error for what it does not know."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest

from contracts.latex.evaluator import (
    Element,
    IndexRange,
    LatexError,
    Number,
    Scope,
    Undefined,
    canonical_symbol,
    evaluate,
)


def scope(**values: Any) -> Scope:
    """A scope of plain values, keyed by canonical symbol (``n_{\\min}`` written ``n_min``)."""
    table = {canonical_symbol(k.replace("_min", r"_{\min}")): v for k, v in values.items()}
    indices = {k for k, v in table.items() if isinstance(v, IndexRange)}

    def resolve(key: str, env: Any) -> Any:
        value = table[key]
        if callable(value) and not isinstance(value, IndexRange):
            return value(env) if getattr(value, "reads_env", False) else value
        return value

    return Scope(resolve, table.__contains__, indices.__contains__)


def value(latex: str, **values: Any) -> Number:
    return evaluate(latex, scope(**values), "test")


@pytest.mark.parametrize(
    ("latex", "values", "expected"),
    [
        (r"y = 1 - 4p(1 - p)", {"p": Fraction(1, 4)}, Fraction(1, 4)),
        (r"y = (2q - 1)^2", {"q": Fraction(1, 4)}, Fraction(1, 4)),
        (
            r"y = \phi + (1 - \phi)\, r",
            {r"\phi": Decimal("0.1"), "r": Fraction(1, 2)},
            Fraction(11, 20),
        ),
        (r"y = 100 \cdot \dfrac{a}{b}", {"a": 3, "b": 4}, Fraction(75)),
        (r"y = \dfrac{\binom{c}{k}}{\binom{n}{k}}", {"c": 4, "n": 5, "k": 3}, Fraction(2, 5)),
        (r"y = \max\!\left(0,\ s - f\right)", {"s": 2, "f": 3}, Fraction(0)),
        (r"y = \max\!\left(0,\ s - f\right)", {"s": 5, "f": 3}, Fraction(2)),
        (r"y = \operatorname{clamp}_{[0,100]}\!\left(x\right)", {"x": 130}, Fraction(100)),
        (r"y = \operatorname{clamp}_{[0,100]}\!\left(x\right)", {"x": -5}, Fraction(0)),
        (r"y = \operatorname{clamp}_{[0,100]}\!\left(x\right)", {"x": 40}, Fraction(40)),
        (r"y = \sqrt{c \cdot r}", {"c": 1, "r": Fraction(16, 25)}, Fraction(4, 5)),
        (r"y = -x + 2", {"x": 5}, Fraction(-3)),
        (r"\mathrm{y} = \mathrm{w}_s\, \tilde{t}", {r"\mathrm{w}_s": 2, r"\tilde{t}": 3}, 6),
    ],
)
def test_each_construct_is_evaluated_exactly(
    latex: str, values: dict[str, Any], expected: Fraction
) -> None:
    result = value(latex, **values)
    assert isinstance(result, Fraction)
    assert result == expected


def test_an_irrational_root_is_a_decimal_to_forty_digits() -> None:
    root = value(r"y = \sqrt{x}", x=Fraction(1, 2))
    assert isinstance(root, Decimal)
    assert str(root).startswith("0.70710678118654752440084436210484903928")


def test_cases_take_the_first_row_whose_condition_holds() -> None:
    latex = r"y = \begin{cases} 1 - 4p(1 - p) & n \ge n_{\min} \\ 1 & n < n_{\min} \end{cases}"
    assert value(latex, p=Fraction(1, 2), n=5, n_min=5) == 0
    assert value(latex, p=Fraction(1, 2), n=4, n_min=5) == 1
    chain = r"y = \begin{cases} 1 & 0 < x \le 2 \\ 2 & x > 2 \end{cases}"
    assert value(chain, x=2) == 1
    assert value(chain, x=3) == 2
    with pytest.raises(Undefined, match="no case applies"):
        value(chain, x=0)


def test_a_cases_row_may_range_over_an_index() -> None:
    # The piecewise-linear curve on anchors (0, 10), (10, 20), (20, 0).
    latex = (
        r"f(x) = \begin{cases} s_1 & x \le x_1 \\"
        r" s_i + (s_{i+1} - s_i)\,\dfrac{x - x_i}{x_{i+1} - x_i} & x_i < x \le x_{i+1} \\"
        r" s_m & x \ge x_m \end{cases}"
    )
    anchors = {"x_": [0, 10, 20], "s_": [10, 20, 0], "m": 3, "i": IndexRange((1, 2))}
    assert [value(latex, x=x, **anchors) for x in (-1, 5, 10, 15, 25)] == [10, 15, 20, 10, 0]


def test_sums_and_the_size_of_a_set() -> None:
    rows = [Element({"n": 5, "c": 5}), Element({"n": 2, "c": 1}), Element({"n": 4, "c": 2})]

    def column(name: str) -> Any:
        def read(env: Any) -> Any:
            return env["t"].values[name]

        read.reads_env = True  # type: ignore[attr-defined]
        return read

    latex = r"y = \dfrac{1}{|T|} \sum_{t \in T} \dfrac{c_t}{n_t},\quad T = \{t : n_t \ge n_{\min}\}"
    got = value(latex, t=rows, n_t=column("n"), c_t=column("c"), n_min=3)
    assert got == (1 + Fraction(1, 2)) / 2


def test_an_empty_mean_a_zero_division_and_a_none_input_are_undefined() -> None:
    with pytest.raises(Undefined, match="division by zero"):
        value(r"y = \dfrac{1}{|T|} \sum_{t \in T} 1", T=[])
    with pytest.raises(Undefined, match="division by zero"):
        value(r"y = \dfrac{a}{b}", a=0, b=0)
    with pytest.raises(Undefined, match="None"):
        value(r"y = 100 - x", x=None)


def test_a_function_symbol_is_applied_and_a_number_multiplies() -> None:
    assert value(r"y = f(2)", f=lambda x: x * 10) == 20
    assert value(r"y = p(1 - p)", p=Fraction(1, 2)) == Fraction(1, 4)
    assert (
        value(r"y = \mathrm{pass}^k(n, c)", **{r"\mathrm{pass}^k": lambda n, c: n - c}, n=5, c=2)
        == 3
    )


def test_a_superscript_on_an_unbound_name_is_a_power() -> None:
    assert value(r"y = x^2", x=3) == 9
    assert value(r"y = x^{k}", x=2, k=3) == 8


@pytest.mark.parametrize(
    ("latex", "message"),
    [
        (r"y = \int x", "the evaluator does not know"),
        (r"y = 1 + z", "the symbol z is bound to nothing"),
        (r"y + 1", "no '='"),
        (
            r"y = \begin{cases} 0 & \text{it rains} \end{cases}",
            "is prose; mark the formula descriptive",
        ),
        (r"y = (1 + 2", "unexpected end of"),
        (r"y = (1 + 2]", r"expected '\)', found '\]'"),
        (r"y = 2 ? 3", "unknown character"),
    ],
)
def test_what_it_does_not_know_is_an_error_that_says_what(latex: str, message: str) -> None:
    with pytest.raises(LatexError, match=message):
        value(latex)


def test_symbols_are_spelled_canonically() -> None:
    assert canonical_symbol(r"n_{\min}") == canonical_symbol(r"n_{ \min }")
    assert canonical_symbol("q_t") == canonical_symbol("q_{t}")
    assert canonical_symbol(r"\mathrm{cat}_v") == r"\mathrm{cat}_{v}"
    with pytest.raises(LatexError, match="not one symbol"):
        canonical_symbol("a + b")
