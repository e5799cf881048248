"""What each generated block of the README (and CONTRIBUTING.md) says, rendered from a
methodology snapshot: :data:`RENDERERS`, by the block's name (see :mod:`contracts.readme`
for the markers and the checks).
"""

from __future__ import annotations

import textwrap
import tomllib
from collections.abc import Callable

from contracts.check.words import cardinal_words
from contracts.model import Methodology
from contracts.source import REPO_ROOT

# Characters of a line of the README's prose, as the hand-written lines keep it.
_README_WIDTH = 92


def _pct(value: float) -> str:
    """A weight as the exact percentage the site shows, never a rounded one.

    >>> _pct(0.4), _pct(0.125)
    ('40%', '12.5%')
    """
    from scoring.numeric import as_written, number_text

    return f"{number_text(as_written(value) * 100)}%"


def _scores(m: Methodology) -> str:
    """The scores, one item each, under a line that counts the items (so that the count
    cannot disagree with the list)."""
    c = {entry.name: entry.value for entry in m.constants}
    top = c["scale.score_max"]
    weights = (
        f"{_pct(c['composite.weight.success'])} success, "
        f"{_pct(c['composite.weight.reliability'])} outcome consistency × latency,\n  "
        f"{_pct(c['composite.weight.cost'])} cost"
    )
    levels = ", ".join(str(k) for k in c["repeatability.k_levels"])
    axes = cardinal_words(len(c["radar.default_weights"]))
    items = [
        f"- **Headline composite** (0–{top}, per agent): {weights}, over every completed run, "
        "with a zero-success floor.\n",
        f"- **Fitness radar** ({axes} diagnostic axes and a re-weightable profile, per agent), "
        f"over the\n  latest {c['radar.window_runs']} terminal runs.\n",
        f"- **Repeatability** (pass^k for k = {levels}, per agent), from every recorded outcome.\n",
        f"- **Run outcome score {m.outcome_score_version}** (per run): "
        "`cat_v · sqrt(c · rec_v)`, correctness × safety, with\n"
        "  efficiency reported beside it.\n",
    ]
    return f"{cardinal_words(len(items)).capitalize()} scores, never blended:\n\n" + "".join(items)


def _python_version(_: Methodology) -> str:
    with (REPO_ROOT / "pyproject.toml").open("rb") as stream:
        requires = tomllib.load(stream)["project"]["requires-python"]
    minimum = requires.removeprefix(">=").split(",")[0].strip()
    return (
        f"On a fresh machine with only Python {minimum}+ (each command sets everything up in "
        "`.venv` first):\n"
    )


def _bad_input(_: Methodology) -> str:
    from scoring.cli import (
        EXIT_BAD_INPUT,
        EXIT_BROKEN_PIPE,
        EXIT_INTERRUPTED,
        EXIT_OK,
        EXIT_OUTPUT_FAILED,
        SPOOL_MEMORY_BYTES,
    )
    from scoring.errors import MAX_LISTED_PROBLEMS, MAX_SHOWN_CHARS

    return (
        f"Bad input exits with status {EXIT_BAD_INPUT} and prints one line per problem on "
        "stderr, naming the line, the\nfield and the rule (the first "
        f"{MAX_LISTED_PROBLEMS}, then a count); nothing is printed on stdout and nothing is\n"
        "scored. A key repeated in one JSON object, at any depth, is bad input (the last "
        "value would\notherwise win silently), and so are non-ASCII digits where the format "
        "says digits; a UTF-8\nbyte-order mark at the start is skipped. An echoed name or "
        f"value is cut at {MAX_SHOWN_CHARS} characters,\nsaying its length, and control "
        "characters and bidirectional overrides are shown as escapes\n(`\\x1b`), in "
        "messages, tables and JSON alike. What the input is comes from its first\nbytes, "
        "not its name: gzip (`runs.jsonl.gz`, or piped in) is decompressed as it is read, "
        "its\nlines numbered as in the plain text; other binary input (zip, zstd, xz, "
        "bzip2, UTF-16, an\nimage) is one problem naming what it is, and so is a run log "
        "given to `scoring outcome` (or\noutcome records to `scoring report`), naming the "
        "command meant. An empty input (no bytes,\nonly blank lines) prints the scores of "
        f'nothing, says "no runs" ("no records") on stderr\nand exits {EXIT_OK}. '
        "The exit statuses are one table in `scoring/cli.py` (`EXITS`): usage\nerrors, bad "
        f"input and a broken methodology (a constant breaking its rule) exit {EXIT_BAD_INPUT}, "
        "each with its\nown message; a closed or full stdout ends with one line on stderr "
        f"and status {EXIT_OUTPUT_FAILED}; a\nclosed pipe (`| head`) ends silently with "
        f"status {EXIT_BROKEN_PIPE}, as a tool killed by SIGPIPE shows in\nthe shell; "
        f"Ctrl-C, {EXIT_INTERRUPTED}. `scoring outcome` streams: scores go to a temporary "
        f"file (on\ndisk past {SPOOL_MEMORY_BYTES // 2**20} MiB) that is copied to stdout "
        "only once every record was read and found good,\nso memory stays flat and one bad "
        "record leaves stdout empty.\n"
    )


def _change_a_constant(m: Methodology) -> str:
    entry = m.constant("composite.weight.cost")
    # The file and the symbol, never the line: an edit above it (a comment) would move the
    # line and make this committed text stale (`contracts check` prints the line itself).
    from contracts.store import Part, bumped

    old = m.methodology_version
    new, major, patch = (bumped(old, part) for part in (Part.MINOR, Part.MAJOR, Part.PATCH))
    return f"""\
1. Edit the constant in `scoring/constants.py` (or the formula in its module), keeping the
   methodology's invariants (`scoring/invariants.py`: the composite weights sum to 1, say).
   Under `mkdocs serve`, each page that shows the change says so at its top (what changed,
   not yet released). `.venv/bin/python -m contracts check` says the cause first: the
   constant's dotted name (`{entry.name}`), both values and where it is defined
   (`{entry.defined_in.file}`, the line of `{entry.python_name}`), then what follows from it,
   grouped and counted; `--verbose` lists every difference with its dotted path
   (`constants[{entry.name}].value`).
2. Run `.venv/bin/python -m contracts release --note "what changed and why"`. It makes the
   new version ({old} → {new}; `--major` for {major}, `--patch` for {patch}): it sets
   `METHODOLOGY_VERSION`, writes the entry `## {new} (<today>)` at the top of
   `contracts/CHANGELOG.md` (the note, then the impact on the reference corpus: per file,
   the agents whose rank changes, the largest change of composite and Kendall's τ-b),
   `contracts/snapshots/{new}.json`, its hash in `contracts/snapshots/released.json`, the
   JSON Schemas and the generated blocks of the README and of this page. It refuses, with
   exit status 2 and nothing written, when nothing changed, when a constant breaks an
   invariant, or when a formula's code disagrees with its LaTeX or a golden point sits where
   its curve is flat; an interrupted release puts back every file it wrote. When it changes
   a constant the coverage figures depend on, it says so, and the uncertainty page marks
   them as measured on the earlier version's constants until
   `.venv/bin/python contracts/coverage/simulate.py --update` measures them again (it takes
   tens of minutes).
3. Review what it prints (each changed constant with both values, how many golden points,
   examples and scoreboard values changed) and the diff it names, e.g.
   `git diff --no-index contracts/snapshots/{old}.json contracts/snapshots/{new}.json`.
   `.venv/bin/python -m contracts impact` lists every agent, biggest movers first. To
   adjust before committing, edit again and run `.venv/bin/python -m contracts update --amend`.
4. Run the fast lane, `.venv/bin/python -m pytest -m "not slow"`: no test pins a number the
   constants determine, so it passes on the new constants.
5. Commit the constant, the changelog, the snapshot, the lock, the schemas, the README and
   this page together. `mkdocs serve` shows the new value on the pages as soon as you save;
   the versions page lists the new release with its impact against the one before.
"""


def _rounding(m: Methodology) -> str:
    from fractions import Fraction

    from scoring.numeric import as_written, decimal_half_up

    c = {entry.name: entry.value for entry in m.constants}
    score, fraction = c["rounding.score_decimals"], c["rounding.fraction_decimals"]
    halfway = Fraction(1, 2 * 10**score) + Fraction(5612, 100)
    written = as_written(0.6)
    return (
        f"- **Rounding**: halves round up ({float(halfway)} → "
        f"{decimal_half_up(halfway, score)}), on exact values: every formula computes\n"
        "  with `Fraction`, and JSON numbers are read as the decimals they are written as "
        f"(`0.6` is\n  exactly {written.numerator}/{written.denominator}, not the nearest "
        f"double). Scores on 0–{c['scale.score_max']} have {cardinal_words(score)} decimals, "
        f"fractions (success\n  rate, consistency, pass^k) {cardinal_words(fraction)}; "
        "outcome-score readings are unrounded floats.\n"
    )


def _no_completed_run(m: Methodology) -> str:
    import io
    import json

    from scoring import build_report, report_to_json

    run = {
        "run_id": "r",
        "agent_id": "a",
        "task_id": "t",
        "status": "failed",
        "success": False,
        "finished_at": "2026-01-01T00:00:00Z",
    }
    report = report_to_json(build_report(io.BytesIO(json.dumps(run).encode() + b"\n")))
    composite = report["agents"][0]["composite"]
    decimals = cardinal_words(m.constant("rounding.score_decimals").value)
    return (
        f'- **No completed run**: the composite object stays, with `"score": '
        f"{json.dumps(composite['score'])}`, every\n  input `null`, "
        f"`completed_runs: {composite['completed_runs']}`; such agents are listed last. "
        f"Agents are ordered by the\n  composite as published ({decimals} decimals), then "
        "`agent_id`.\n"
    )


def _verify(_: Methodology) -> str:
    from contracts.store import EXIT_FAILED, EXIT_UNUSABLE

    return (
        "`python -m contracts verify FILE` checks a snapshot (a released one, or the\n"
        "`methodology.json` of a site built from a release) against the lock, byte for byte:\n"
        "it prints `OK`, the version and the SHA-256 of the file (what `sha256sum` prints)\n"
        f"only for the released bytes; it exits {EXIT_FAILED} naming the expected and the "
        "actual hash\notherwise, saying `SAME CONTENT, DIFFERENT BYTES` for a re-formatted copy "
        "of the\nreleased methodology, and it exits "
        f"{EXIT_UNUSABLE} when the file cannot be read. `--lock released.json`\n"
        "checks against a downloaded lock instead of the committed one.\n"
    )


def _duplicate_odds(_: Methodology) -> str:
    from scoring.report.run_ids import COLLISION_ODDS

    text = (
        f"A `run_id` is remembered by its fingerprint, not as text: {COLLISION_ODDS}. Such a "
        "pair would be reported as a duplicate; a real duplicate is never missed."
    )
    return textwrap.fill(text, width=_README_WIDTH) + "\n"


#: The generated blocks of the README, by name: each renders its text from the live code.
RENDERERS: dict[str, Callable[[Methodology], str]] = {
    "scores": _scores,
    "duplicate-odds": _duplicate_odds,
    "python-version": _python_version,
    "bad-input": _bad_input,
    "change-a-constant": _change_a_constant,
    "rounding": _rounding,
    "no-completed-run": _no_completed_run,
    "verify": _verify,
}
