"""``python -m scoring``: a thin command line over the library.

Exit status 0 on success; 2 on bad input or bad arguments, with one line per problem on
stderr and nothing on stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from decimal import Decimal, InvalidOperation
from enum import StrEnum
from typing import BinaryIO, TextIO

from scoring.constants import Axis
from scoring.errors import InputError, Problem
from scoring.outcome import score_outcome_lines
from scoring.report import build_report
from scoring.serialize import (
    outcome_to_json,
    outcomes_to_table,
    report_to_json,
    report_to_table,
)

EXIT_OK = 0
EXIT_BAD_INPUT = 2


class OutputFormat(StrEnum):
    """How results are printed."""

    TABLE = "table"
    JSON = "json"


class Command(StrEnum):
    """The subcommands."""

    REPORT = "report"
    OUTCOME = "outcome"


def parse_weights(text: str) -> dict[Axis, Decimal]:
    """Parse ``axis=weight,...`` viewer weights; unnamed axes weigh 0.

    >>> parse_weights("correctness=3,cost=1")[Axis.COST]
    Decimal('1')
    """
    weights = dict.fromkeys(Axis, Decimal(0))
    names = ", ".join(a.value for a in Axis)
    for part in text.split(","):
        name, sep, number = part.partition("=")
        name = name.strip()
        if not sep or name not in Axis.__members__.values():
            raise InputError(
                [
                    Problem(
                        None,
                        "--weights",
                        f"{part.strip()!r}: expected AXIS=WEIGHT, AXIS one of {names}",
                    )
                ]
            )
        try:
            weight = Decimal(number.strip())
        except InvalidOperation:
            weight = Decimal("NaN")
        if not weight.is_finite() or weight < 0:
            raise InputError(
                [Problem(None, "--weights", f"{name}: weight must be a finite number >= 0")]
            )
        weights[Axis(name)] = weight
    if not any(weights.values()):
        raise InputError([Problem(None, "--weights", "at least one weight must be above 0")])
    return weights


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="scoring",
        description="Recompute the published scores from raw records (JSON Lines).",
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    report = commands.add_parser(
        Command.REPORT.value,
        help="composite, radar and repeatability per agent, from run records",
    )
    report.add_argument("path", metavar="RUNS.jsonl", help="run records; '-' reads stdin")
    report.add_argument(
        "--weights",
        metavar="AXIS=W,...",
        help="viewer weights for the radar profile only, e.g. correctness=2,cost=1 "
        "(axes not named weigh 0); never changes the composite",
    )
    outcome = commands.add_parser(
        Command.OUTCOME.value, help="run-level outcome score v1, from outcome records"
    )
    outcome.add_argument("path", metavar="RECORDS.jsonl", help="outcome records; '-' reads stdin")
    for sub in (report, outcome):
        sub.add_argument(
            "--format",
            choices=[f.value for f in OutputFormat],
            default=OutputFormat.TABLE.value,
            help="table for people (default) or json",
        )
    return parser


@contextmanager
def _open(path: str, stdin: BinaryIO) -> Iterator[BinaryIO]:
    if path == "-":
        yield stdin
        return
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below
    except OSError as error:
        reason = error.strerror or str(error)
        raise InputError([Problem(None, None, f"cannot read {path}: {reason}")]) from None
    with handle:
        yield handle


def run(
    argv: Sequence[str] | None = None,
    stdin: BinaryIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command line; returns the exit status."""
    stdin = sys.stdin.buffer if stdin is None else stdin
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    # argparse prints usage, errors and --help to the process streams and exits: route them
    # to the given streams and turn the exit into a returned status (2 for bad arguments).
    try:
        with redirect_stdout(stdout), redirect_stderr(stderr):
            args = _parser().parse_args(argv)
    except SystemExit as exit_:
        return exit_.code if isinstance(exit_.code, int) else EXIT_BAD_INPUT
    fmt = OutputFormat(args.format)
    try:
        if args.command == Command.REPORT:
            weights = None if args.weights is None else parse_weights(args.weights)
            with _open(args.path, stdin) as source:
                report = build_report(source, weights)
            text = (
                json.dumps(report_to_json(report), indent=2, ensure_ascii=False)
                if fmt is OutputFormat.JSON
                else report_to_table(report)
            )
        else:
            with _open(args.path, stdin) as source:
                scores = score_outcome_lines(source)
            text = (
                json.dumps([outcome_to_json(s) for s in scores], indent=2, ensure_ascii=False)
                if fmt is OutputFormat.JSON
                else outcomes_to_table(scores)
            )
    except InputError as error:
        print(f"scoring {args.command}: cannot score {args.path}:", file=stderr)
        print(error.message(), file=stderr)
        return EXIT_BAD_INPUT
    except UnicodeDecodeError as error:
        print(f"scoring {args.command}: {args.path} is not UTF-8 text: {error}", file=stderr)
        return EXIT_BAD_INPUT
    stdout.write(text + "\n")
    return EXIT_OK


def main() -> None:
    """Console-script entry point."""
    sys.exit(run())
