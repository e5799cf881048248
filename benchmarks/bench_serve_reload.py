"""How long until an edited constant shows on a page served by ``mkdocs serve`` (or, with
``--generator zensical``, by ``zensical serve``).

Copies what the site is built from (mkdocs.yml, docs/, scoring/, contracts/) to a
temporary folder, starts ``mkdocs serve`` there on 127.0.0.1 (a free port), edits the
composite's success weight in the copy's ``scoring/constants.py`` and polls the served page
until the new value appears. Prints one figure per edit and the median, in seconds, from
the moment the file is saved to the moment the page shows the value. The repository itself
is never edited.

    python benchmarks/bench_serve_reload.py [--edits N] [--generator mkdocs|zensical]
"""

from __future__ import annotations

import argparse
import re
import statistics
import tempfile
import time
from pathlib import Path

from serving import GENERATORS, copy_project, serve

PAGE = "composite.html"
CONSTANT = "COMPOSITE_WEIGHT_SUCCESS"
#: Takes from (or gives to) the cost weight what the success weight gains, so that the
#: composite weights still sum to 1 (scoring/invariants.py) and the page shows numbers.
PARTNER = "COMPOSITE_WEIGHT_COST"
KEY = "constant:composite.weight.success"
VALUES = (("0.45", "0.25"), ("0.35", "0.35"), ("0.40", "0.30"))
TIMEOUT_S = 60.0
#: Seconds to let the server's file watcher arm (and settle after a rebuild) before an edit
#: is timed. A measurement's pause, not a test's ordering: a missed edit would time out
#: here, where a test saves it again (serving.RESAVE_S); this script times the first save.
SETTLE_S = 1.0


def _shows(value: str) -> str:
    """A pattern that matches the page once the constant is shown with ``value``."""
    return rf'data-mv="{re.escape(KEY)}"[^>]*>{re.escape(value)}<'


def _set_constants(path: Path, values: tuple[str, str]) -> None:
    """Set the constant and its partner in one save."""
    text = path.read_text(encoding="utf-8")
    for name, value in zip((CONSTANT, PARTNER), values, strict=True):
        pattern = re.compile(rf'({name}: Annotated\[.*?\] = Decimal\(")([^"]+)("\))', re.DOTALL)
        text, count = pattern.subn(rf"\g<1>{value}\g<3>", text)
        if count != 1:
            raise RuntimeError(f"{name} not found in {path}")
    path.write_text(text, encoding="utf-8")


def measure(edits: int, generator: str = "mkdocs") -> list[float]:
    """Seconds from each edit to the served page showing it."""
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as tmp:
        project = copy_project(Path(tmp) / "project")
        ready = rf'data-mv="{re.escape(KEY)}"'
        with serve(project, PAGE, ready, TIMEOUT_S, generator) as server:
            timings = []
            for values in (VALUES * edits)[:edits]:
                time.sleep(SETTLE_S)
                _set_constants(project / "scoring" / "constants.py", values)
                # wait_for starts its clock here, right after the save.
                timings.append(server.wait_for(PAGE, _shows(values[0]), TIMEOUT_S))
            return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=3, help="how many edits to time")
    parser.add_argument("--generator", choices=GENERATORS, default="mkdocs")
    args = parser.parse_args()
    timings = measure(args.edits, args.generator)
    for number, seconds in enumerate(timings, start=1):
        print(f"edit {number}: {seconds:.2f} s")
    print(
        f"{args.generator} serve reload, edit to page: {statistics.median(timings):.2f} s "
        f"(median of {len(timings)})"
    )


if __name__ == "__main__":
    main()
