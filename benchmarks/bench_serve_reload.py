"""How long until an edited constant shows on a page served by ``mkdocs serve`` (or, with
``--generator zensical``, by ``zensical serve``).

Copies what the site is built from (mkdocs.yml, docs/, scoring/, contracts/) to a
temporary folder, starts ``mkdocs serve`` there on 127.0.0.1 (a free port), edits the
composite's success weight in the copy's ``scoring/constants.py`` and polls the served page
until the new value appears. Prints one figure per edit and the median, in seconds, from
the moment the file is saved to the moment the page shows the value, with the CPU time the
server spent meanwhile (where ``/proc`` tells it) and the load average (1 minute) before
the first edit and after the last: the machine may be shared, and a wall time means little
without them. The repository itself is never edited.

    python benchmarks/bench_serve_reload.py [--edits N] [--generator mkdocs|zensical]
    python benchmarks/bench_serve_reload.py --busy 2    # beside two busy processes

``--busy N`` times the edits beside N processes that spin on the CPU (the load of other
tenants, made on purpose; started once the server is up, so the first build is not timed
under them).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import tempfile
import time
from pathlib import Path

from processes import busy_processes
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


def cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system, every thread) process ``pid`` has used, from ``/proc``;
    None where there is no ``/proc``."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    except OSError:
        return None
    # After the command's name in parentheses: utime and stime are the 12th and 13th fields.
    fields = stat.rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def measure(edits: int, generator: str = "mkdocs", busy: int = 0) -> list[float]:
    """Seconds from each edit to the served page showing it, beside ``busy`` spinning
    processes; prints each edit's figures, and the load average before the first edit
    and after the last."""
    with tempfile.TemporaryDirectory(prefix="bench-serve-") as tmp:
        project = copy_project(Path(tmp) / "project")
        ready = rf'data-mv="{re.escape(KEY)}"'
        with serve(project, PAGE, ready, TIMEOUT_S, generator) as server, busy_processes(busy):
            print(f"load average before the edits: {os.getloadavg()[0]:.2f}")
            timings = []
            for number, values in enumerate((VALUES * edits)[:edits], start=1):
                time.sleep(SETTLE_S)
                used = cpu_seconds(server.process.pid)
                _set_constants(project / "scoring" / "constants.py", values)
                # wait_for starts its clock here, right after the save.
                timings.append(server.wait_for(PAGE, _shows(values[0]), TIMEOUT_S))
                now = cpu_seconds(server.process.pid)
                cpu = "" if now is None or used is None else f" (server CPU {now - used:.2f} s)"
                print(f"edit {number}: {timings[-1]:.2f} s{cpu}")
            print(f"load average after the edits: {os.getloadavg()[0]:.2f}")
            return timings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=3, help="how many edits to time")
    parser.add_argument("--generator", choices=GENERATORS, default="mkdocs")
    parser.add_argument("--busy", type=int, default=0, help="N spinning processes beside")
    args = parser.parse_args()
    timings = measure(args.edits, args.generator, args.busy)
    beside = f", beside {args.busy} busy processes" if args.busy else ""
    print(
        f"{args.generator} serve reload, edit to page: {statistics.median(timings):.2f} s "
        f"(median of {len(timings)}{beside}; {os.cpu_count()} cores)"
    )


if __name__ == "__main__":
    main()
