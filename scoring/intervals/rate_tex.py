"""The LaTeX the 1.2.0 rate intervals share (Clopper–Pearson at ``n*``, the effective size,
``q``, the clustered variance) with its symbols, and the published check inputs that are
among their golden points (docs/uncertainty.md). Typeset parts only: the formulas are
:mod:`scoring.intervals.rates`'s.
"""

from __future__ import annotations

from scoring.constants import INTERVAL_MIN_TASKS, SCORE_SCALE
from scoring.intervals.clustered import clustered_variance_tex
from scoring.registry import (
    Binding,
    Rows,
    arg,
    at_least,
    column,
    const,
    count,
    rows,
    tex_number,
    total,
    uses,
)

# The numbers a formula shows are the constants', so a changed constant changes the formula.
MIN_TASKS_TEX = tex_number(INTERVAL_MIN_TASKS)
SCALE_TEX = tex_number(SCORE_SCALE)
LEVEL_BINDING = arg("level", default=const("INTERVAL_LEVEL"))
T_QUANTILE = uses("quantiles.t_quantile", "probability", "degrees_of_freedom")
CP = uses("uncertainty.clopper_pearson", "m", "n_star")
Q_TEX = r"q = t^{-1}\!\left(\dfrac{1 + \gamma}{2},\ T - 1\right)"
N_STAR_TEX = r"n^{*} = n_{\mathrm{eff}} \cdot \dfrac{z^2}{q^2}"

#: The cohort's tasks of the success rate: completed runs and successes.
COHORT_TASKS = rows("tasks", "n", "c")
#: The window's tasks of the correctness axis: passes and known outcomes.
WINDOW_TASKS = rows("tasks", "passes", "known")
#: The qualifying tasks of pass^k at level ``k``: those with at least
#: ``max(REPEATABILITY_MIN_OUTCOMES, k)`` recorded outcomes (docs/repeatability.md).
QUALIFYING = rows("tasks", "n", "c", keep=at_least("n", "REPEATABILITY_MIN_OUTCOMES", argument="k"))


def pooled_tex(rate: str, result: str, scale: str = "") -> str:
    """The LaTeX of a pooled rate's 1.2.0 interval: Clopper–Pearson at ``n*``, with the
    effective size, ``q`` and the clustered variance it reads."""
    return (
        rf"{result} \in {scale}\mathrm{{CP}}({rate},\ n^{{*}}),\quad " + N_STAR_TEX + r",\quad"
        rf" n_{{\mathrm{{eff}}}} = \min\!\left(\begin{{cases}} \dfrac{{{rate}(1 - {rate})}}"
        rf"{{V({rate})}} & V({rate}) > 0 \\ T & V({rate}) = 0 \end{{cases}},\ n\right),\quad "
        + Q_TEX
        + r",\quad "
        + clustered_variance_tex(rate)
    )


def pooled_symbols(tasks: Rows, runs: str, successes: str, rate: str) -> dict[str, Binding]:
    """The symbols of :func:`pooled_tex` for the rows ``tasks`` of ``runs`` and ``successes``."""
    n = total(tasks, runs)
    return {
        r"\mathrm{CP}": CP,
        rate: total(tasks, successes, per=runs),
        r"t^{-1}": T_QUANTILE,
        r"\gamma": const("INTERVAL_LEVEL"),
        "z": const("INTERVAL_Z"),
        "T": count(tasks.name),
        "t": tasks,
        "n_t": column(runs),
        "c_t": column(successes),
        "n": n,
    }


# docs/uncertainty.md, the success-rate check: 24 tasks 6/6, 3 tasks 5/6, 1/7, 0/5, 3/8.
SUCCESS_CHECK = ((6, 6),) * 24 + ((6, 5),) * 3 + ((7, 1), (5, 0), (8, 3))

# docs/uncertainty.md, the pass^5 check: 100 tasks, 18 with a non-zero value.
PASS5_CHECK = (
    ((8, 5),) * 6
    + ((7, 5),) * 7
    + ((8, 6),) * 2
    + ((6, 5), (7, 6), (8, 7))
    + ((5, 2),) * 21
    + ((6, 3),) * 20
    + ((7, 3),) * 20
    + ((8, 4),) * 21
)
