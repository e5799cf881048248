"""Self-test of the formula check on scratch copies of the project: the code of a formula
changed, its LaTeX left as it was, must make ``python -m contracts update`` refuse (naming
the formula and the golden point, writing nothing) and ``python -m contracts check`` fail;
a new formula without golden points likewise; a refactor that computes the same values
must be recorded.

Each scenario copies ``scoring/``, ``contracts/`` and ``pyproject.toml``, bumps the copy to
a new methodology version with a changelog entry (so that only the formulas can stop the
update), edits one formula and runs the commands there as subprocesses.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from contract_builders import python_in
from serving import copy_project

from scoring.constants import METHODOLOGY_VERSION

pytestmark = pytest.mark.slow

COPIED = ("scoring", "contracts", "pyproject.toml")
NEW_VERSION = f"{int(METHODOLOGY_VERSION.split('.')[0]) + 1}.0.0"

Edit = tuple[str, str, str]  # file, old (occurs once), new

#: A registered formula appended to scoring/formulas/curves.py, with no golden point.
NEW_FORMULA = '''

@formula("curve.halved", title="Half", latex=r"h = \\dfrac{x}{2}", symbols={"x": arg("x")})
def halved(x: Fraction) -> Fraction:
    """Half of ``x``.

    >>> halved(Fraction(1))
    Fraction(1, 2)
    """
    return x / 2
'''

#: The same formula with a golden point and a symbol its registration does not bind.
UNBOUND_FORMULA = NEW_FORMULA.replace(
    'symbols={"x": arg("x")})', 'symbols={"x": arg("x")}, golden=[point("1", x=Fraction(1))])'
).replace(r"\dfrac{x}{2}", r"\dfrac{x}{y}")


@dataclass(frozen=True, slots=True)
class Scenario:
    """Edits of one copy; what ``update`` must say (``None``: it must succeed)."""

    edits: tuple[Edit, ...]
    expected: tuple[str, ...] | None


SCENARIOS = {
    "consistency 1 - 3p(1 - p)": Scenario(
        (
            (
                "scoring/formulas/composite.py",
                "return 1 - 4 * rate * (1 - rate)",
                "return 1 - 3 * rate * (1 - rate)",
            ),
        ),
        (
            "formula composite.outcome_consistency disagrees with its LaTeX at golden point "
            "composite.outcome_consistency@p=1/4,n=5: the LaTeX gives 1/4, the code 7/16",
        ),
    ),
    "pass^k as (c/n)^k": Scenario(
        (
            (
                "scoring/formulas/repeatability.py",
                "return Fraction(math.comb(c, k), math.comb(n, k))",
                "return Fraction(c, n) ** k",
            ),
        ),
        (
            "golden point repeatability.pass_hat_k@n=5,c=4,k=3: "
            "the LaTeX gives 2/5, the code 64/125",
        ),
    ),
    "recoverable floor squared": Scenario(
        (
            (
                "scoring/formulas/outcome.py",
                "floor = exact(RECOVERABLE_FLOOR)",
                "floor = exact(RECOVERABLE_FLOOR) ** 2",
            ),
        ),
        ("golden point outcome.recoverable_floor@0: the LaTeX gives 1/10, the code 1/100",),
    ),
    "determinism |2q - 1|": Scenario(
        (("scoring/formulas/radar.py", "return (2 * rate - 1) ** 2", "return abs(2 * rate - 1)"),),
        (
            "golden point radar.determinism@1/4: the LaTeX gives 1/4, the code 1/2",
            # robustness computes with determinism: its LaTeX squares, so it disagrees too
            "formula radar.robustness disagrees with its LaTeX at golden point "
            "radar.robustness@sample",
        ),
    ),
    "tool-efficiency step doubled": Scenario(
        (
            (
                "scoring/formulas/radar.py",
                "return _on_scale(scale - points * max(_ZERO, median - free))",
                "return _on_scale(scale - 2 * points * max(_ZERO, median - free))",
            ),
        ),
        ("golden point radar.tool_efficiency@4: the LaTeX gives 90, the code 80",),
    ),
    "outcome score without its square root": Scenario(
        (("scoring/formulas/outcome.py", "    return float(root)", "    return float(product)"),),
        (
            "golden point outcome.score@c=1,rec_v=16/25: the LaTeX gives 4/5, the code 0.64",
            "golden point outcome.score@c=1/2,rec_v=1: the LaTeX gives 0.7071067811865475244,"
            " the code 0.5",
        ),
    ),
    "a new formula with no golden points": Scenario(
        (
            (
                "scoring/formulas/curves.py",
                "    return piecewise_linear(mean_cost_usd, C.COST_ANCHORS_USD)\n",
                "    return piecewise_linear(mean_cost_usd, C.COST_ANCHORS_USD)\n" + NEW_FORMULA,
            ),
        ),
        ("formula curve.halved has no golden evaluation", "add golden=[point("),
    ),
    "a new formula with a symbol bound to nothing": Scenario(
        (
            (
                "scoring/formulas/curves.py",
                "    return piecewise_linear(mean_cost_usd, C.COST_ANCHORS_USD)\n",
                "    return piecewise_linear(mean_cost_usd, C.COST_ANCHORS_USD)\n"
                + UNBOUND_FORMULA,
            ),
        ),
        ("formula curve.halved", "the symbol y is bound to nothing: add it to symbols="),
    ),
    "consistency refactored as (2p - 1)^2, with a comment": Scenario(
        (
            (
                "scoring/formulas/composite.py",
                "    return 1 - 4 * rate * (1 - rate)",
                "    # the same values as 1 - 4p(1 - p), written as a square\n"
                "    return (2 * rate - 1) ** 2",
            ),
        ),
        None,
    ),
}


@dataclass(frozen=True, slots=True)
class Outcome:
    update_code: int
    update_output: str
    check_code: int
    check_output: str
    unchanged: bool


def _replace_once(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    if text.count(old) != 1:
        raise ValueError(f"{old!r} occurs {text.count(old)} times in {path.name}, not once")
    path.write_text(text.replace(old, new), encoding="utf-8")


def _bump(root: Path) -> None:
    _replace_once(
        root / "scoring/constants.py", f'] = "{METHODOLOGY_VERSION}"', f'] = "{NEW_VERSION}"'
    )
    changelog = root / "contracts/CHANGELOG.md"
    text = changelog.read_text(encoding="utf-8")
    first = text.index("\n## ")
    entry = f"\n## {NEW_VERSION} (2099-12-31)\n\nA scratch version of the self-test.\n"
    changelog.write_text(text[:first] + entry + text[first:], encoding="utf-8")


def _snapshot_files(root: Path) -> dict[str, bytes]:
    folder = root / "contracts/snapshots"
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _run(root: Path, scenario: Scenario) -> Outcome:
    copy_project(root, COPIED)
    _bump(root)
    for file, old, new in scenario.edits:
        _replace_once(root / file, old, new)
    before = _snapshot_files(root)
    update = python_in(root, "-m", "contracts", "update", timeout_s=180)
    unchanged = _snapshot_files(root) == before
    checked = python_in(root, "-m", "contracts", "check", timeout_s=180)
    return Outcome(
        update.returncode,
        update.stdout + update.stderr,
        checked.returncode,
        checked.stdout + checked.stderr,
        unchanged,
    )


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Outcome]:
    base = tmp_path_factory.mktemp("formula-mutations")
    names = sorted(SCENARIOS)
    with ThreadPoolExecutor(max_workers=2) as pool:
        done = pool.map(lambda i: _run(base / f"s{i}", SCENARIOS[names[i]]), range(len(names)))
        return dict(zip(names, done, strict=True))


@pytest.mark.parametrize("name", sorted(n for n, s in SCENARIOS.items() if s.expected))
def test_a_formula_change_is_refused_by_update_and_fails_the_check(
    outcomes: dict[str, Outcome], name: str
) -> None:
    outcome = outcomes[name]
    assert outcome.update_code == 1, outcome.update_output
    assert "contracts update: REFUSED" in outcome.update_output
    assert "nothing written" in outcome.update_output
    assert outcome.unchanged, "a refused update wrote a file"
    assert outcome.check_code == 1, outcome.check_output
    for expected in SCENARIOS[name].expected or ():
        assert expected in outcome.update_output, outcome.update_output
        assert expected in outcome.check_output, outcome.check_output


def test_a_same_value_refactor_is_recorded(outcomes: dict[str, Outcome]) -> None:
    outcome = outcomes["consistency refactored as (2p - 1)^2, with a comment"]
    assert outcome.update_code == 0, outcome.update_output
    assert f"wrote contracts/snapshots/{NEW_VERSION}.json" in outcome.update_output
    assert not outcome.unchanged
    assert outcome.check_code == 0, outcome.check_output
