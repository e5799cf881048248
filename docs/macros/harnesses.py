"""The harness readers of ``scoring report --from`` (``scoring.harnesses``): each mapping
table as the reader follows it, what a reader may say on stderr, and commands run now on
the τ-bench data the site ships (the other harnesses' logs are the reader's own)."""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from macros.markup import code_block, esc, table
from macros.site import output_block

if TYPE_CHECKING:
    from macros.site import Site

_BACKTICKS = re.compile(r"`([^`]+)`")


def _inline(text: str) -> str:
    """Text with `code` in backticks (as the mapping rows write it) as HTML."""
    return _BACKTICKS.sub(lambda m: f"<code>{m.group(1)}</code>", esc(text))


def harness_mapping(site: Site, name: str) -> str:
    """One harness's mapping table, row by row as its reader applies it."""
    from scoring.harnesses import READERS, Harness

    reader = READERS[Harness(name)]
    rows = [
        [f"<code>{esc(row.run_field)}</code>", _inline(row.source), _inline(row.rule)]
        for row in reader.mapping.rows
    ]
    return table(
        f"harness:{name}/mapping",
        ["Run field", f"From the {reader.title} log", "Rule"],
        rows,
        caption=f"<code>--from {esc(name)}</code>: one run record per " + esc(_UNIT[Harness(name)]),
    )


#: What one run is, per harness (the caption of its table).
_UNIT = {
    "inspect": "sample and epoch",
    "harbor": "trial folder",
    "tau-bench": "record",
}


def harness_notes(site: Site, name: str) -> str:
    """What the reader may print on stderr, one line each (``N``: a count)."""
    from scoring.harnesses import READERS, Harness
    from scoring.harnesses.tau_bench import PLACEHOLDER

    reader = READERS[Harness(name)]
    lines = [
        f"scoring report: {name}: "
        + template.format(
            runs="N runs",
            count="N",
            names="NAME, …",
            first="NAME",
            placeholder=PLACEHOLDER.describe(),
        )
        for template in reader.notes
    ]
    return code_block(f"harness:{name}/notes", "\n".join(lines), title="stderr")


def _run(site: Site, args: tuple[str, ...], cwd: object) -> tuple[int, str, str]:
    from scoring.cli import run

    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.chdir(str(cwd)):
        status = run(list(args), stdin=io.BytesIO(), stdout=stdout, stderr=stderr)
    return status, stdout.getvalue(), stderr.getvalue()


def _shown(key: str, args: tuple[str, ...], status: int, out: str, err: str, head: int) -> str:
    lines = out.splitlines(keepends=True)
    if head and len(lines) > head:
        out = "".join(lines[:head]) + f"… ({len(lines) - head} more lines)\n"
    command = code_block(key + "/command", "scoring " + " ".join(args), lang="sh")
    shown = output_block(key, out) if out else ""
    said = err + (f"(exit status {status})\n" if status else "")
    if said:
        shown += code_block(key + "/stderr", said, title="stderr")
    return command + shown


def harness_cli(site: Site, *args: str, head: int = 0) -> str:
    """Run ``scoring ARGS`` now from the project's root (on the files the site ships, such as
    ``docs/data``): the command, its output (the first ``head`` lines) and its stderr."""
    status, out, err = _run(site, args, site.docs_dir.parent)
    return _shown("harness-cli:" + " ".join(args), args, status, out, err, head)


#: A τ²-bench results file written as τ²-bench writes one (its ``Results``: ``simulations``,
#: timestamps without a UTC offset), two simulations long: what the example converts.
TAU2_EXAMPLE = {
    "timestamp": "2025-07-01T09:59:00.000000",
    "simulations": [
        {
            "id": "5b1d2c8e-sim-0",
            "task_id": "7",
            "trial": 0,
            "start_time": "2025-07-01T10:00:00.000000",
            "end_time": "2025-07-01T10:01:32.250000",
            "duration": 92.25,
            "termination_reason": "user_stop",
            "agent_cost": 0.0412,
            "reward_info": {"reward": 1.0},
        },
        {
            "id": "5b1d2c8e-sim-1",
            "task_id": "7",
            "trial": 1,
            "start_time": "2025-07-01T10:00:00.000000",
            "end_time": "2025-07-01T10:05:00.000000",
            "duration": 300.0,
            "termination_reason": "timeout",
            "agent_cost": None,
            "reward_info": None,
        },
    ],
}
TAU2_FILE = "tau2-results.json"


def tau2_example(site: Site) -> str:
    """A τ²-bench results file, converted without ``--assume-utc`` (refused) and with it."""
    path = site.workdir / TAU2_FILE
    text = json.dumps(TAU2_EXAMPLE, indent=2) + "\n"
    path.write_text(text, encoding="utf-8")
    parts = [code_block("harness:tau2/file", text, lang="json", title=TAU2_FILE)]
    for extra in ((), ("--assume-utc",)):
        args = ("convert", "--from", "tau-bench", TAU2_FILE, "--agent", "my-agent", *extra)
        status, out, err = _run(site, args, site.workdir)
        parts.append(_shown("harness:tau2:" + " ".join(args), args, status, out, err, 0))
    return "".join(parts)


#: The macros this module renders (see ``macros.MACROS_BY_MODULE``).
MACROS: dict[str, Callable[..., str]] = {
    "harness_mapping": harness_mapping,
    "harness_notes": harness_notes,
    "harness_cli": harness_cli,
    "tau2_example": tau2_example,
}
