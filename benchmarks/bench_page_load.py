"""What loading the macros costs per page when Zensical's macros shim loads them.

Zensical 0.0.73 runs ``docs/macros/__init__.py`` afresh and calls its ``define_env`` for
every page it renders. This script does what the shim does (its ``MacroEnv``, its
``_load_module``), in a fresh interpreter, on a copy of the project:

- a **build**: every page of the site with one configuration object, as one build has. The
  first page loads the live code, builds the ``Site`` and publishes the files beside the
  pages; the others reuse that ``Site``;
- **no reuse**: the same pages, each with a configuration object of its own, so that each
  page loads the live code again (what every page cost before the ``Site`` was kept).

It prints the median seconds of the first page, of the other pages and of a page without
reuse. ``load_pages`` is also what ``tests/site/test_builds.py`` checks the reuse with.

    python benchmarks/bench_page_load.py [--builds N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from processes import run_captured
from serving import copy_project

#: The pages of the site, as the shim sees them (source path, URL).
PAGES = (
    ("index.md", "index.html"),
    ("composite.md", "composite.html"),
    ("radar.md", "radar.html"),
    ("repeatability.md", "repeatability.html"),
    ("outcome.md", "outcome.html"),
    ("efficiency.md", "efficiency.html"),
    ("reproduce.md", "reproduce.html"),
    ("inputs.md", "inputs.html"),
    ("contract.md", "contract.html"),
    ("versions.md", "versions.html"),
    ("reference.md", "reference.html"),
)


def load_pages(
    project: Path, pages: list[tuple[str, str]], config: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    """Call the macros' ``define_env`` for each page as Zensical's shim does, with one
    configuration object for all of them (``config``, or a new one for each page when it is
    None). For each page: seconds taken, which ``Site`` served it, and what two macros
    render there (a link, relative to the page; a constant)."""
    from zensical.extensions.context import Page
    from zensical.extensions.macros import MacroEnv, _load_module

    records = []
    for path, url in pages:
        conf = config if config is not None else new_config(project)
        env = MacroEnv(conf=conf, page=Page(url=url, path=path))
        start = time.perf_counter()
        _load_module(env, "docs/macros", project)
        seconds = time.perf_counter() - start
        package = sys.modules["macros"]
        site = package._BUILD.site
        records.append(
            {
                "page": path,
                "seconds": seconds,
                "site": id(site),
                "link": env.macros["snapshot_links"](),
                "weight": env.macros["c"]("composite.weight.success"),
            }
        )
    return records


def new_config(project: Path) -> dict[str, Any]:
    """The part of a parsed configuration the macros read (a new object each call)."""
    return {"root_dir": str(project), "docs_dir": "docs", "site_dir": "site", "extra": {}}


_RUN = """
import json, sys
from pathlib import Path
sys.path.insert(0, {benchmarks!r})
from bench_page_load import PAGES, load_pages, new_config
project = Path({project!r})
build = load_pages(project, list(PAGES), new_config(project))
unshared = load_pages(project, list(PAGES[:{unshared}]))
print(json.dumps({{"build": build, "unshared": unshared}}))
"""


def run(project: Path, unshared: int = 3) -> dict[str, list[dict[str, Any]]]:
    """One build and ``unshared`` pages without reuse, in a fresh interpreter."""
    code = _RUN.format(
        benchmarks=str(Path(__file__).resolve().parent), project=str(project), unshared=unshared
    )
    result = run_captured([sys.executable, "-c", code], timeout=600)
    if result.returncode != 0:
        raise RuntimeError(f"loading the pages failed:\n{result.stderr}")
    data: dict[str, list[dict[str, Any]]] = json.loads(result.stdout.splitlines()[-1])
    return data


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--builds", type=int, default=3, help="fresh interpreters to measure")
    args = parser.parse_args()
    first, others, unshared = [], [], []
    with tempfile.TemporaryDirectory(prefix="bench-page-load-") as tmp:
        project = copy_project(Path(tmp) / "project")
        for _ in range(args.builds):
            data = run(project)
            first.append(data["build"][0]["seconds"])
            others += [r["seconds"] for r in data["build"][1:]]
            unshared += [r["seconds"] for r in data["unshared"][1:]]
    print(f"first page of a build (live code, Site, publishing): {statistics.median(first):.3f} s")
    print(f"each other page, Site reused: {statistics.median(others) * 1000:.1f} ms")
    again = statistics.median(unshared)
    print(f"a page without reuse (live code loaded again, files published): {again:.3f} s")
    print(f"pages: {len(PAGES)}; medians of {args.builds} fresh interpreters")


if __name__ == "__main__":
    main()
