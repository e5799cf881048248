"""Commands and scripts run now, on the live code: ``python -m scoring`` on the sample files,
the example scripts of ``docs/examples`` (source, download link and output), and the
τ-bench tables (our pass^k on τ-bench's recorded trials beside the values it publishes)."""

from __future__ import annotations

import contextlib
import io
import os
import runpy
import shutil
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import scoring.constants as C  # noqa: N812 - the module of constants, named as in contracts
from macros.markup import block, code_block, esc, exact_text, joined, plain, table, value
from macros.site import output_block

if TYPE_CHECKING:
    from macros.site import Site


@contextlib.contextmanager
def _as_to_a_file() -> Iterator[None]:
    """No ``COLUMNS`` while a command runs: its tables are fitted to the width a file gets,
    whatever terminal builds the site (docs/reproduce.md says so)."""
    saved = os.environ.pop("COLUMNS", None)
    try:
        yield
    finally:
        if saved is not None:
            os.environ["COLUMNS"] = saved


def cli(site: Site, *args: str) -> str:
    """Run ``python -m scoring ARGS`` now, on the sample files; show command and output."""
    from scoring.cli import run

    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.chdir(site.workdir), _as_to_a_file():
        status = run(list(args), stdin=io.BytesIO(), stdout=stdout, stderr=stderr)
    command = "python -m scoring " + " ".join(args)
    key = "cli:" + " ".join(args)
    out = stdout.getvalue()
    if status:
        out += stderr.getvalue() + f"(exit status {status})\n"
    return code_block(key + "/command", command, lang="sh") + output_block(key, out)


def script(site: Site, name: str, *args: str) -> str:
    """An example script from ``docs/examples``: its source, and its output, run now."""
    path = site.docs_dir / "examples" / name
    for arg in args:
        source = site.docs_dir / "data" / arg
        if source.exists():
            shutil.copy(source, site.workdir / arg)
    stdout = io.StringIO()
    saved = sys.argv
    sys.argv = [name, *args]
    try:
        with contextlib.chdir(site.workdir), contextlib.redirect_stdout(stdout):
            runpy.run_path(str(path), run_name="__main__")
    finally:
        sys.argv = saved
    download = f'<a href="{esc(site.rel("examples/" + name))}" download>{esc(name)}</a>'
    command = " ".join(["python", name, *args])
    return (
        code_block(
            f"script:{name}/source", path.read_text(encoding="utf-8"), lang="python", title=name
        )
        + block(f"script:{name}/download", f"<p>Download {download}, then run:</p>")
        + code_block(f"script:{name}/command", command, lang="sh")
        + output_block(f"script:{name}", stdout.getvalue())
    )


def _tau(site: Site) -> tuple[dict[str, Any], Path]:
    namespace = runpy.run_path(str(site.docs_dir / "examples" / "tau_bench.py"), run_name="tau")
    return namespace, site.docs_dir / "data" / "tau-bench-gpt-4o-airline.jsonl"


def tau_bench_table(site: Site) -> str:
    """Our pass^k on τ-bench's recorded trials beside the values τ-bench publishes."""
    namespace, data = _tau(site)
    ours = namespace["pass_hat"](data)
    rows = []
    for k, published in namespace["PUBLISHED"].items():
        mine = ours[k]
        places = len(published.split(".")[1])
        rounded = plain(mine, places)
        agree = "yes" if rounded == published else "<strong>no</strong>"
        rows.append([f"pass^{k}", exact_text(mine), rounded, published, agree])
    return table(
        "tau-bench:pass^k",
        ["Level", "Ours, exact", "Ours, rounded", "τ-bench README", "Agree"],
        rows,
        numeric=(1, 2, 3),
    )


def tau_bench_levels(site: Site) -> str:
    """The report itself on τ-bench's trials, asked for every level τ-bench publishes
    (``--pass-k``) beside the published ones: what it prints, beside what τ-bench prints.
    The trials become runs as ``scoring report --from tau-bench`` reads them (the reader of
    ``scoring.harnesses``), then the report scores that run log."""
    from scoring.harnesses import Harness, Options, convert, run_log
    from scoring.report import build_report
    from scoring.report.write import pass_key, report_to_json

    namespace, data = _tau(site)
    published: dict[int, str] = namespace["PUBLISHED"]
    converted = convert(Harness.TAU_BENCH, [data], Options(agent=namespace["AGENT"]))
    report = build_report(run_log(converted.runs), extra_levels=tuple(published))
    [agent] = report_to_json(report)["agents"]
    shown = agent["repeatability"]
    rows = []
    for k in report.levels:
        key = pass_key(k)
        mine = shown[key]
        rows.append(
            [
                key,
                published.get(k, "—"),
                "null" if mine is None else f"{mine:.{C.FRACTION_DECIMALS}f}",
                str(shown["tasks_by_level"][key]),
                shown["reasons"][key] or "",
            ]
        )
    return table(
        "tau-bench:levels",
        ["Level", "τ-bench publishes", "The report prints", "Qualifying tasks", "Why null"],
        rows,
        numeric=(1, 2, 3),
    )


def tau_bench_verdict(site: Site) -> str:
    """Whether our pass^k, rounded as τ-bench rounds, agrees with every published value."""
    namespace, data = _tau(site)
    ours = namespace["pass_hat"](data)
    published = namespace["PUBLISHED"]
    agree = all(plain(ours[k], len(p.split(".")[1])) == p for k, p in published.items())
    levels = joined([str(k) for k in published])
    text = f"all agree (k = {levels})" if agree else f"they disagree for some k in {levels}"
    return value("tau-bench:verdict", text)


#: The macros this module renders (see ``macros.MACROS_BY_MODULE``).
MACROS: dict[str, Callable[..., str]] = {
    "cli": cli,
    "script": script,
    "tau_bench_table": tau_bench_table,
    "tau_bench_levels": tau_bench_levels,
    "tau_bench_verdict": tau_bench_verdict,
}
