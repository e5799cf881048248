"""The site built by MkDocs and by Zensical, side by side: build time, and what still differs.

Copies what the site is built from to a temporary folder, builds it there with
``mkdocs build --strict`` and ``zensical build --strict`` (each ``--builds`` times, run from
the copy's root) and prints, per generator: the median build time; the number of pages,
and of those whose article is the same under the other generator (the comparison of
``benchmarks/parity.py``); the published files and whether they are byte-identical; the
search index (file, format, entries, bytes); and the theme's own files (count, bytes, and
the stylesheet variant). The repository itself is never built into.

    python benchmarks/bench_generators.py [--builds N]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

import parity
from serving import copy_project

#: Each generator's search index, and the key of its list of entries.
SEARCH_INDEX = {
    "mkdocs": ("search/search_index.json", "docs"),
    "zensical": ("search.json", "items"),
}


def timed_builds(project: Path, generator: str, dest: Path, builds: int) -> list[float]:
    timings = []
    for _ in range(builds):
        start = time.perf_counter()
        result = parity.build(project, generator, dest)
        timings.append(time.perf_counter() - start)
        if result.returncode != 0:
            raise RuntimeError(f"{generator} build failed:\n{result.stderr}")
    return timings


def describe(site: Path, generator: str) -> dict[str, object]:
    index_file, key = SEARCH_INDEX[generator]
    index = json.loads((site / index_file).read_text(encoding="utf-8"))
    assets = [p for p in (site / "assets").rglob("*") if p.is_file()]
    stylesheets = sorted(
        p.relative_to(site / "assets" / "stylesheets").as_posix()
        for p in (site / "assets" / "stylesheets").rglob("main.*.css")
    )
    return {
        "pages": len(parity.pages(site)),
        "published files": len(parity.published(site)),
        "search index": f"{index_file} ({{config, {key}}}), {len(index[key])} entries, "
        f"{(site / index_file).stat().st_size:,} bytes",
        "theme files": f"{len(assets)}, {sum(p.stat().st_size for p in assets):,} bytes",
        "theme stylesheet": ", ".join(stylesheets),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--builds", type=int, default=3, help="builds timed per generator")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-generators-") as tmp:
        project = copy_project(Path(tmp) / "project")
        sites = {"mkdocs": Path(tmp) / "mkdocs-site", "zensical": project / "site"}
        for generator, site in sites.items():
            timings = timed_builds(project, generator, site, args.builds)
            print(
                f"{generator} build --strict: {statistics.median(timings):.2f} s "
                f"(median of {len(timings)}: {', '.join(f'{t:.2f}' for t in timings)})"
            )
        for generator, site in sites.items():
            for what, figure in describe(site, generator).items():
                print(f"{generator} {what}: {figure}")
        problems = parity.compare(sites["mkdocs"], sites["zensical"])  # pages, published files
        same = len(parity.pages(sites["mkdocs"])) - len({p.split(":")[0] for p in problems})
        print(f"pages whose article is the same under both: {same}")
        print(f"differences found by the parity comparison: {len(problems)}")
        for problem in problems:
            print(f"  {problem}")


if __name__ == "__main__":
    main()
