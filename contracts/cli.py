"""``python -m contracts``: the drift check and the snapshot writer. The only module here
that prints.

Commands:

- ``check``: compare the live methodology with the committed contracts. Exit 0 when they
  agree; 1 when they disagree (each difference is named with its committed and live value,
  where it is defined and the command that fixes it); 2 when a contracts file is missing or
  unusable (the message names it).
- ``update [--amend]``: write the current version's snapshot, the schema and the lock.
  Exit 0 on success; 1 when it refuses (a released version would change, no changelog
  entry, a version not newer than the released ones, another update holding the lock); 2
  when a contracts file is unusable.

Both exit 2 with one line naming the file, the line and the error when ``scoring`` cannot
be imported at all (a syntax error in ``scoring/constants.py``, say): the check is most
needed exactly then.
"""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
from collections.abc import Iterator, Sequence
from enum import StrEnum
from types import FrameType
from typing import Any, TextIO

from contracts.failure import describe_failure
from contracts.result import CommandResult

#: Exit status when the live code cannot be imported (as for an unusable contracts file).
EXIT_UNUSABLE = 2
#: Exit status of an interrupted update (128 + SIGINT, as the shell shows Ctrl-C).
EXIT_INTERRUPTED = 130


class Command(StrEnum):
    """The commands of ``python -m contracts``."""

    CHECK = "check"
    UPDATE = "update"


_HELP = {
    Command.CHECK: "check the live methodology against the committed snapshots (exit 0/1/2)",
    Command.UPDATE: "write the current version's snapshot, the JSON Schema and the lock",
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
def _terminate_as_interrupt() -> Iterator[None]:
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
    # Importing check or update imports scoring: any error there is the live code's.
    try:
        if command is Command.CHECK:
            from contracts.check import run_check
        else:
            from contracts.update import run_update
    except Exception as error:
        message = (
            f"contracts {command.value}: cannot import the live methodology (scoring) "
            f"{describe_failure(error)}"
        )
        _say([message], sys.stderr)
        return EXIT_UNUSABLE
    if command is Command.CHECK:
        return _print(run_check())
    try:
        with _terminate_as_interrupt():
            return _print(run_update(amend=args.amend))
    except KeyboardInterrupt:
        _say(["contracts update: interrupted; its temporary files were removed"], sys.stderr)
        return EXIT_INTERRUPTED


def _print(result: CommandResult) -> int:
    """Print a command's lines (stdout when it succeeded, stderr otherwise); its exit status."""
    _say(result.output(), sys.stdout if result.ok else sys.stderr)
    return result.exit_code
