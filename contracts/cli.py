"""``python -m contracts``: the drift check and the snapshot writer. The only module here
that prints.

Commands:

- ``check [--verbose]``: compare the live methodology with the committed contracts. Exit 0
  when they agree; 1 when they disagree (the causes first: each changed constant or formula
  with its committed and live value and where it is defined; then what follows from them,
  grouped and counted; then the one fix); 2 when a contracts file is missing or unusable
  (the message names it). ``--verbose`` lists every difference with its values, where it
  is defined and its fix.
- ``update [--amend]``: write the current version's snapshot, the schema and the lock.
  Exit 0 on success; 1 when it refuses (a released version would change, no changelog
  entry, a version not newer than the released ones, another update holding the lock); 2
  when a contracts file is unusable.
- ``impact [--format table|json]``: the committed scoreboard of the reference corpus against
  the live code's (composites, ranks, Kendall's τ-b). Exit 0; 2 when the corpus or the
  snapshot cannot be read.
- ``release --note TEXT [--major|--minor|--patch] [--date YYYY-MM-DD]``: release the live
  methodology as the next version in one step (see :mod:`contracts.release`): bump
  ``METHODOLOGY_VERSION``, write the changelog entry, the snapshot, the lock, the schemas and
  the README's generated blocks, and print what changed. Exit 0; 2 when it refuses (nothing
  written).
- ``readme --check|--update``: the README's generated blocks and its numbers (see
  :mod:`contracts.readme`). Exit 0 when fresh and clean; 1 listing each stale block and each
  unexplained number; 2 when the README or a marker is unusable.
- ``verify FILE [--lock LOCK]``: a downloaded snapshot against the lock (see
  :mod:`contracts.verify`). Exit 0 ``OK <version> sha256 …``; 1 on a mismatch; 2 when the
  file cannot be read.

Every command exits 2 with one line naming the file, the line and the error when the code
it needs (``scoring``) cannot be imported at all (a syntax error in
``scoring/constants.py``, say): the check is most needed exactly then.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import signal
import sys
from collections.abc import Iterator, Sequence
from datetime import date
from enum import StrEnum
from pathlib import Path
from types import FrameType
from typing import Any, TextIO

from contracts.check.failure import describe_failure, failure_location
from contracts.result import CheckResult, CommandResult, ReadmeResult

# The live code that cannot be imported exits as an unusable contracts file does (store
# imports nothing of scoring, so it loads when scoring is broken).
from contracts.store import EXIT_UNUSABLE
from contracts.workflow_commands import (
    Annotation,
    Level,
    OutputStyle,
    append_summary,
    output_style,
)

#: Exit status of an interrupted update (128 + SIGINT, as the shell shows Ctrl-C).
EXIT_INTERRUPTED = 130


class Command(StrEnum):
    """The commands of ``python -m contracts``."""

    CHECK = "check"
    UPDATE = "update"
    RELEASE = "release"
    IMPACT = "impact"
    README = "readme"
    VERIFY = "verify"


_HELP = {
    Command.CHECK: "check the live methodology against the committed snapshots (exit 0/1/2)",
    Command.UPDATE: "write the current version's snapshot, the JSON Schema and the lock",
    Command.RELEASE: "release the live methodology as the next version: bump it, write the "
    "changelog entry, the snapshot, the lock, the schemas and the README blocks (exit 0/2)",
    Command.IMPACT: "compare the committed scoreboard of the reference corpus with the live "
    "code's: composites, ranks, Kendall's tau-b (exit 0/2)",
    Command.README: "check or rewrite the README's generated blocks; check its numbers",
    Command.VERIFY: "check a downloaded snapshot against the lock of released versions",
}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m contracts",
        description="Typed methodology snapshots, versioned, and a drift check.",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in Command:
        sub = commands.add_parser(command.value, help=_HELP[command], description=_HELP[command])
        if command is Command.UPDATE:
            sub.add_argument(
                "--amend",
                action="store_true",
                help="re-record the newest version if git HEAD's lock does not have it yet",
            )
        if command is Command.RELEASE:
            sub.add_argument(
                "--note", required=True, help="what changed and why (the changelog entry)"
            )
            sub.add_argument(
                "--date",
                type=date.fromisoformat,
                help="the changelog entry's date, YYYY-MM-DD (default: today)",
            )
            part = sub.add_mutually_exclusive_group()
            for name, says in (
                ("major", "a new major version (X+1.0.0)"),
                ("minor", "a new minor version (X.Y+1.0, the default)"),
                ("patch", "a new patch version (X.Y.Z+1)"),
            ):
                part.add_argument(
                    f"--{name}", dest="part", action="store_const", const=name, help=says
                )
        if command is Command.IMPACT:
            sub.add_argument(
                "--format",
                choices=["table", "json"],
                default="table",
                help="table for people, biggest movers first (default), or json",
            )
        if command is Command.README:
            mode = sub.add_mutually_exclusive_group(required=True)
            mode.add_argument("--check", action="store_true", help="exit 1 if anything is stale")
            mode.add_argument("--update", action="store_true", help="rewrite stale blocks")
        if command is Command.CHECK:
            sub.add_argument(
                "--verbose",
                "-v",
                action="store_true",
                help="list every difference with its values, where it is defined and its "
                "fix (by default: the causes, what follows from them counted, one fix)",
            )
        if command in (Command.CHECK, Command.README):
            sub.add_argument(
                "--format",
                choices=["text", "github"],
                default=None,
                help="text (the default), or github: text, then a workflow command per "
                "finding and, with GITHUB_STEP_SUMMARY set, a Markdown step summary "
                "(the default when GITHUB_ACTIONS is true)",
            )
        if command is Command.VERIFY:
            sub.add_argument("file", metavar="FILE", help="a snapshot, e.g. methodology.json")
            sub.add_argument("--lock", metavar="LOCK", help="released.json (default: committed)")
    return parser


def _say(lines: Sequence[str], stream: TextIO | None) -> None:
    # A closed or full stream leaves nothing to say it on: the exit status still tells.
    if stream is None:
        return
    try:
        for line in lines:
            print(line, file=stream)
        stream.flush()
    except (OSError, ValueError):
        pass


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """While an update writes, SIGTERM and SIGHUP unwind like Ctrl-C, so that its temporary
    files are removed (``write_atomic`` cleans up on any exception). SIGKILL cannot be
    caught: the next update removes what it leaves, and the check reports it."""

    def interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt(signal.Signals(signum).name)

    previous: dict[signal.Signals, Any] = {}
    try:
        for caught in (signal.SIGTERM, signal.SIGHUP):
            previous[caught] = signal.signal(caught, interrupt)
    except ValueError:  # not the main thread: signals stay as they are
        pass
    try:
        yield
    finally:
        for caught, handler in previous.items():
            signal.signal(caught, handler)


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; return the exit status (0 ok, 1 disagreement/refusal, 2 unusable)."""
    args = _parser().parse_args(argv)
    command = Command(args.command)
    # The commands import scoring: any error there is the live code's, named in one line.
    try:
        return _run(command, args)
    except _ImportFailedError as failed:
        error = failed.__cause__ or failed
        message = (
            f"contracts {command.value}: cannot import the live methodology (scoring) "
            f"{describe_failure(error)}"
        )
        _say([message], sys.stderr)
        if command in (Command.CHECK, Command.README) and _github(args):
            file, _, line = (failure_location(error) or "").rpartition(":")
            located = bool(file) and line.isdigit()
            annotation = Annotation(
                Level.ERROR,
                f"contracts {command.value}",
                message,
                file if located else None,
                int(line) if located else None,
            )
            _say([annotation.command()], sys.stdout)
        return EXIT_UNUSABLE


class _ImportFailedError(Exception):
    """A command's module (and with it ``scoring``) could not be imported."""


def _run(command: Command, args: argparse.Namespace) -> int:
    try:
        if command is Command.README:
            from contracts.readme import run_readme
        elif command is Command.VERIFY:
            from contracts.verify import verify_file
        elif command is Command.CHECK:
            from contracts.check.drift import run_check
        elif command is Command.IMPACT:
            from contracts.impact import run_impact
            from scoring.report.write import OutputFormat
        elif command is Command.RELEASE:
            from contracts.release import run_release
            from contracts.store import Part
        else:
            from contracts.update import run_update
    except Exception as error:
        raise _ImportFailedError from error
    if command is Command.README:
        return _annotated(run_readme(update=args.update), args)
    if command is Command.VERIFY:
        return _print(verify_file(Path(args.file), Path(args.lock) if args.lock else None))
    if command is Command.CHECK:
        return _annotated(run_check(verbose=args.verbose), args)
    if command is Command.IMPACT:
        return _print(run_impact(OutputFormat(args.format)))
    try:
        with terminate_as_interrupt():
            if command is Command.RELEASE:
                part = Part(args.part or Part.MINOR)
                return _print(run_release(args.note, part, today=args.date))
            return _print(run_update(amend=args.amend))
    except KeyboardInterrupt:
        undone = "its temporary files were removed"
        if command is Command.RELEASE:
            undone = "every file it wrote was put back"
        _say([f"contracts {command.value}: interrupted; {undone}"], sys.stderr)
        return EXIT_INTERRUPTED


def _annotated(result: CheckResult | ReadmeResult, args: argparse.Namespace) -> int:
    """Print the result; in the github style, its workflow commands after it on stdout and
    its step summary appended to ``GITHUB_STEP_SUMMARY`` (see :mod:`contracts.annotations`)."""
    from contracts import annotations

    code = _print(result)
    if _github(args):
        lines = annotations.github_lines(result)
        problem = append_summary(annotations.summary_text(result), os.environ)
        _say([*lines, *([problem] if problem else [])], sys.stdout)
    return code


def _github(args: argparse.Namespace) -> bool:
    """Whether ``check`` or ``readme`` prints workflow commands too (``--format github``,
    or inside a GitHub Actions run without ``--format``)."""
    requested = getattr(args, "format", None)
    return output_style(requested, os.environ) is OutputStyle.GITHUB


def _print(result: CommandResult) -> int:
    """Print a command's lines (stdout when it succeeded, stderr otherwise); its exit status."""
    _say(result.output(), sys.stdout if result.ok else sys.stderr)
    return result.exit_code
