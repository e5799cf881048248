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
from pathlib import Path

import pytest
from serving import Served, copy_project, serve
from support import success_weight

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


def _set_weights(served: Served, success: str, cost: str) -> None:
    """Move weight from cost to success in one save: the weights still sum to 1."""
    path = served.project / "scoring" / "constants.py"
    text = path.read_text(encoding="utf-8")
    head, sep, rest = text.partition("COMPOSITE_WEIGHT_SUCCESS: Annotated[")
    rest = re.sub(r'\] = Decimal\("[0-9.]+"\)', f'] = Decimal("{success}")', rest, count=1)
    head_c, sep_c, tail = rest.partition("COMPOSITE_WEIGHT_COST: Annotated[")
    tail = re.sub(r'\] = Decimal\("[0-9.]+"\)', f'] = Decimal("{cost}")', tail, count=1)
    served.save(path, head + sep + head_c + sep_c + tail)


def test_an_edited_constant_shows_without_a_restart(served: Served) -> None:
    assert success_weight(served.get("methodology.json")) == "0.4"
    _set_weights(served, "0.45", "0.25")
    # That it shows, not how fast: the time is benchmarks/bench_serve_reload.py's figure (a
    # timed assertion fails whenever the machine is busy).
    _shows(served, "composite.html", r'data-mv="constant:composite\.weight\.success"[^>]*>0\.45<')
    # Values computed from the constant move with it: the worked example's composite,
    # 100 × (0.45 × 3/4 + 0.30 × 1/4 × 88/100 + 0.25 × 65/100).
    _shows(served, "composite.html", r'data-mv="example:composite\.typical/score"[^>]*>56\.60<')
    # The published snapshot moved with it (written after the pages: awaited too).
    _shows(served, "methodology.json", SNAPSHOT_WEIGHT.format(r"0\.45"))
    assert success_weight(served.get("methodology.json")) == "0.45"
    # The page says what changed since the released version, under its title; the radar
    # page, which shows neither weight, does not.
    composite = served.get("composite.html") or ""
    assert re.search(
        f"</h1>\\s*{NOTE}.*constant composite\\.weight\\.success 0\\.4 → 0\\.45", composite
    )
    assert "constant composite.weight.cost 0.3 → 0.25" in composite
    assert re.search(NOTE, served.get("radar.html") or "") is None
    _set_weights(served, "0.40", "0.30")
    _shows(served, "composite.html", r'data-mv="constant:composite\.weight\.success"[^>]*>0\.40<')
    assert re.search(NOTE, served.get("composite.html") or "") is None


def test_a_broken_invariant_shows_in_place_and_serve_survives(served: Served) -> None:
    """One weight moved alone breaks their sum: the page shows the breach, not numbers."""
    _set_weights(served, "0.45", "0.30")
    _shows(served, "composite.html", r"sum to 0\.45 \+ 0\.30 \+ 0\.30 = 1\.05, not 1")
    assert served.process.poll() is None
    _set_weights(served, "0.40", "0.30")
    _shows(served, "composite.html", r'data-mv="constant:composite\.weight\.success"[^>]*>0\.40<')


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
