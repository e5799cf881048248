"""How ``python -m scoring`` ends: one table, :data:`EXITS`, of each error class, its status
and what it says (never a traceback). :mod:`scoring.cli` raises and catches; this module
only says which row an error falls in."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from scoring.engines import EngineMissingError
from scoring.errors import InputError, MethodologyError, cut, inert
from scoring.registry import ScoringError


class ExitStatus(IntEnum):
    """The statuses the command exits with (see :data:`EXITS` for which error gives which)."""

    OK = 0
    OUTPUT_FAILED = 1
    BAD_INPUT = 2  # also usage errors and a broken methodology, each with its own message
    INTERRUPTED = 130  # 128 + SIGINT, as the shell shows a tool stopped by Ctrl-C
    BROKEN_PIPE = 141  # 128 + SIGPIPE, as the shell shows a tool whose reader went away


EXIT_OK = ExitStatus.OK
EXIT_OUTPUT_FAILED = ExitStatus.OUTPUT_FAILED
EXIT_BAD_INPUT = ExitStatus.BAD_INPUT
EXIT_INTERRUPTED = ExitStatus.INTERRUPTED
EXIT_BROKEN_PIPE = ExitStatus.BROKEN_PIPE

# Characters of a path in a message.
_PATH_MAX_CHARS = 200


class ReadError(Exception):
    """The input could not be read (as opposed to a write that failed)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"cannot read {shown_path(path)}: {reason}")


class WriteError(Exception):
    """The output could not be written."""


class UsageError(Exception):
    """The arguments are wrong (argparse has printed the usage and the message)."""


@dataclass(frozen=True, slots=True)
class Exit:
    """One row of the exit table: the errors it catches, the status, the message.

    ``says`` is formatted with ``command`` (``scoring report``), ``path`` (as shown) and
    ``error``; ``None`` ends silently (or argparse has spoken). ``tells`` is what stderr
    holds, in words, for the documentation.
    """

    name: str
    errors: tuple[type[BaseException], ...]
    status: ExitStatus
    says: str | None
    tells: str


#: Every way the command can end but success, first match wins (InputError is a
#: ScoringError, BrokenPipeError an OSError: the narrower row comes first).
EXITS: tuple[Exit, ...] = (
    Exit(
        "usage",
        (UsageError,),
        ExitStatus.BAD_INPUT,
        None,  # argparse has printed the usage and the message
        "the usage, then what is wrong with the arguments",
    ),
    Exit(
        "bad input",
        (InputError,),
        ExitStatus.BAD_INPUT,
        "{command}: cannot score {path}:\n{error}",
        "one line per problem, naming the line, the field and the rule",
    ),
    Exit(
        "engine not installed",
        (EngineMissingError,),
        ExitStatus.BAD_INPUT,
        "{command}: --engine: {error}",
        "the engine is not installed, and the extra that installs it",
    ),
    Exit(
        "unreadable input",
        (ReadError,),
        ExitStatus.BAD_INPUT,
        "{command}: {error}",
        "cannot read FILE, and why",
    ),
    Exit(
        "broken methodology",
        # A formula refusing validated input, or failing on it (a zero divisor, a bad
        # conversion), can only be the methodology's fault: output errors are WriteError.
        (MethodologyError, ScoringError, ValueError, ArithmeticError),
        ExitStatus.BAD_INPUT,
        "{command}: the methodology is broken, not the input: {error} "
        "(a constant or formula in scoring/ breaks its rule)",
        "the methodology is broken, not the input, and the rule it breaks",
    ),
    Exit("closed pipe", (BrokenPipeError,), ExitStatus.BROKEN_PIPE, None, "nothing"),
    Exit(
        "output failure",
        (WriteError,),
        ExitStatus.OUTPUT_FAILED,
        "{command}: {error}",
        "cannot write the output, and why",
    ),
    Exit("interrupted", (KeyboardInterrupt,), ExitStatus.INTERRUPTED, None, "nothing"),
)


def exit_for(error: BaseException) -> Exit | None:
    """The row of :data:`EXITS` that ``error`` ends the command with (``None``: a bug,
    which is left to raise)."""
    return next((row for row in EXITS if isinstance(error, row.errors)), None)


def exit_row(error: BaseException) -> Exit:
    row = exit_for(error)
    assert row is not None, error
    return row


def shown_path(path: str) -> str:
    return "stdin" if path == "-" else cut(inert(path), _PATH_MAX_CHARS)
