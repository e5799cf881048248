"""The writer's loop: ``mkdocs serve`` (in a copy of the repository) picks up an edited
constant without a restart, on the page and in the published ``methodology.json``, shows a
macro error on the page instead of dying, and recovers once the error is fixed.
``benchmarks/bench_serve_reload.py`` times the first part; ``test_generator_parity.py``
holds ``zensical serve`` to the same loop.

One server carries every test, each edit awaited by its own condition and undone before the
next test. The copy is cut to the pages the tests read (``serving.cut_to_pages``): each of
the dozen rebuilds renders two pages through the macros, not the whole site."""

from __future__ import annotations

import re
from collections.abc import Iterator
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest
from serving import Served, copy_project, serve
from support import success_weight

import scoring.constants as C  # noqa: N812 - the module of constants
from contracts.release import with_assignment
from scoring.examples import EXAMPLES_BY_NAME
from scoring.numeric import number_text

# mkdocs serve on a copy of the project, polled until pages change.
pytestmark = pytest.mark.slow

#: How long a rebuild may take before its test fails. A bound, not an ordering: each wait
#: returns as soon as the page shows; on a machine busy with other work a rebuild of the
#: site took longer than serving.py's 30 s.
REBUILD_LIMIT_S = 300.0


#: The pages the tests read: the others are stubs in the served copy.
PAGES = ("composite.md", "radar.md")

#: The note of a page that shows a change not yet released (``docs/macros/drift.py``).
NOTE = r'<div class="mv-block" data-mv="drift:page">'

#: The published snapshot's entry of the success weight, with its value.
SNAPSHOT_WEIGHT = r'"name": "composite\.weight\.success",[^}}]*"value": {}\n'


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    project = copy_project(tmp_path_factory.mktemp("serve") / "project", pages=PAGES)
    ready = r'data-mv="constant:composite\.weight\.success"'
    with serve(project, "composite.html", ready, limit_s=REBUILD_LIMIT_S) as server:
        yield server


def _shows(served: Served, page: str, pattern: str) -> None:
    """Wait until ``page`` of ``served`` shows ``pattern`` (see :data:`REBUILD_LIMIT_S`)."""
    served.wait_for(page, pattern, REBUILD_LIMIT_S)


def _edit(served: Served, path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} not in {path}"
    served.save(path, text.replace(old, new, 1))


def _set_weights(served: Served, success: Decimal, cost: Decimal) -> None:
    """Set the success and the cost weight in one save, each by its name."""
    path = served.project / "scoring" / "constants.py"
    text = path.read_text(encoding="utf-8")
    text = with_assignment(text, "COMPOSITE_WEIGHT_SUCCESS", f'Decimal("{success}")')
    served.save(path, with_assignment(text, "COMPOSITE_WEIGHT_COST", f'Decimal("{cost}")'))


def _shown(value: Decimal) -> str:
    """A weight as the page shows it (as written), as a pattern."""
    return re.escape(number_text(value, as_written=True))


#: The live weights, and the same moved by five points from cost to success (still summing
#: to 1; with 1.0.0's weights 0.45 and 0.25).
SUCCESS, COST = C.COMPOSITE_WEIGHT_SUCCESS, C.COMPOSITE_WEIGHT_COST
MOVED = Decimal("0.05")


def test_an_edited_constant_shows_without_a_restart(served: Served) -> None:
    assert success_weight(served.get("methodology.json")) == str(float(SUCCESS))
    _set_weights(served, SUCCESS + MOVED, COST - MOVED)
    # That it shows, not how fast: the time is benchmarks/bench_serve_reload.py's figure (a
    # timed assertion fails whenever the machine is busy).
    weight = r'data-mv="constant:composite\.weight\.success"[^>]*>'
    _shows(served, "composite.html", weight + _shown(SUCCESS + MOVED) + "<")
    # Values computed from the constant move with it: the worked example's composite,
    # 100 × (w_s × p + w_r × consistency × latency/100 + w_c × cost/100) on its scores.
    parts = EXAMPLES_BY_NAME["composite.typical"].result()
    moved = composite_score_with(parts, SUCCESS + MOVED, COST - MOVED)
    score = re.escape(number_text(moved, places=C.SCORE_DECIMALS))
    _shows(served, "composite.html", rf'data-mv="example:composite\.typical/score"[^>]*>{score}<')
    # The published snapshot moved with it (written after the pages: awaited too).
    published = str(float(SUCCESS + MOVED))
    _shows(served, "methodology.json", SNAPSHOT_WEIGHT.format(re.escape(published)))
    assert success_weight(served.get("methodology.json")) == published
    # The page says what changed since the released version, under its title; the radar
    # page, which shows neither weight, does not.
    composite = served.get("composite.html") or ""
    change = f"constant composite.weight.success {float(SUCCESS)} → {published}"
    assert re.search(f"</h1>\\s*{NOTE}.*{re.escape(change)}", composite)
    assert re.search(NOTE, served.get("radar.html") or "") is None
    _set_weights(served, SUCCESS, COST)
    _shows(served, "composite.html", weight + _shown(SUCCESS) + "<")
    assert re.search(NOTE, served.get("composite.html") or "") is None


def composite_score_with(parts: dict, success: Decimal, cost: Decimal) -> Fraction:
    """The example's composite with the success and cost weights given (the reliability
    weight the live one)."""
    reliability = Fraction(C.COMPOSITE_WEIGHT_RELIABILITY)
    scale = Fraction(C.SCORE_SCALE)
    return scale * (
        Fraction(success) * parts["success_rate"]
        + reliability * parts["consistency"] * parts["latency_score"] / scale
        + Fraction(cost) * parts["cost_score"] / scale
    )


def test_a_broken_invariant_shows_in_place_and_serve_survives(served: Served) -> None:
    """One weight moved alone breaks their sum: the page shows the breach, not numbers."""
    _set_weights(served, SUCCESS + MOVED, COST)
    weights = [SUCCESS + MOVED, C.COMPOSITE_WEIGHT_RELIABILITY, COST]
    said = " + ".join(number_text(w, as_written=True) for w in weights)
    total = number_text(sum(weights), as_written=True)
    _shows(served, "composite.html", re.escape(f"sum to {said} = {total}, not 1"))
    assert served.process.poll() is None
    _set_weights(served, SUCCESS, COST)
    _shows(
        served,
        "composite.html",
        r'data-mv="constant:composite\.weight\.success"[^>]*>' + _shown(SUCCESS) + "<",
    )


def test_a_macro_error_shows_on_the_page_and_serve_survives(served: Served) -> None:
    page = served.project / "docs" / "radar.md"
    original = page.read_text(encoding="utf-8")
    served.save(page, original + '\n{{ c("composite.no_such_constant") }}\n')
    _shows(served, "radar.html", "Macro Rendering Error")
    assert served.process.poll() is None
    served.save(page, original)
    _shows(served, "radar.html", r"^(?![\s\S]*Macro Rendering Error)[\s\S]*Fitness radar")


def test_broken_live_code_shows_on_the_pages_and_serve_survives(served: Served) -> None:
    constants = served.project / "scoring" / "constants.py"
    original = constants.read_text(encoding="utf-8")
    _edit(served, constants, "SCORE_DECIMALS: Annotated[", "SCORE_DECIMALS: Annotated[[")
    _shows(served, "composite.html", "the live code cannot be loaded")
    assert served.process.poll() is None
    served.save(constants, original)
    _shows(served, "composite.html", r'data-mv="constant:composite\.weight\.success"')
