"""``python -m scoring``: a thin command line over the library.

Exit statuses are one table, :data:`EXITS`: each error class, its status and what it says
(never a traceback). Usage, bad input and a broken methodology exit 2, each with its own
message; an output that cannot be written (a closed stdout, a full disk) 1; a closed pipe
(as in ``| head``) 141, silently, as a tool killed by SIGPIPE shows in the shell; Ctrl-C
130. An empty input (0 bytes, or only blank lines) is no error: its scores are printed
(no agents, no records), status 0, and stderr says "no runs" (or "no records").
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, redirect_stderr, redirect_stdout
from decimal import Decimal
from enum import StrEnum
from typing import BinaryIO, NoReturn, TextIO, TypeVar

from scoring import harnesses
from scoring.comparisons.compare import compare_in, comparison_to_json, comparison_to_table
from scoring.constants import Axis
from scoring.engines import (
    SPARK_LOCAL_MASTER,
    SPARK_MASTER_VARIABLE,
    Engine,
    engine_stats,
)
from scoring.engines.sql import Dialect, Query
from scoring.errors import InputError, cut, inert
from scoring.exits import (
    EXIT_BAD_INPUT as EXIT_BAD_INPUT,
    EXIT_BROKEN_PIPE as EXIT_BROKEN_PIPE,
    EXIT_INTERRUPTED as EXIT_INTERRUPTED,
    EXIT_OK as EXIT_OK,
    EXIT_OUTPUT_FAILED as EXIT_OUTPUT_FAILED,
    EXITS as EXITS,
    Exit as Exit,
    ExitStatus as ExitStatus,
    ReadError,
    UsageError,
    WriteError,
    exit_for as exit_for,
    exit_row,
    shown_path,
)
from scoring.formulas.outcome import OutcomeScore, iter_outcome_scores
from scoring.harnesses import Harness
from scoring.invariants import check_methodology
from scoring.progress import Progress, wanted as progress_wanted
from scoring.report import Report, build_report, report_of
from scoring.report.jsonlines import file_bytes
from scoring.report.read import read_stats
from scoring.report.run_ids import start_of
from scoring.report.write import (
    NO_RECORDS,
    OUTCOME_HEADERS,
    OutputFormat,
    Table,
    outcome_row,
    outcome_to_json,
    report_json_text,
    report_to_table,
    to_json_text,
)
from scoring.streams import flush, reason_of, say, write
from scoring.weights import WEIGHT_MAX_EXPONENT as WEIGHT_MAX_EXPONENT, parse_weights

# Characters of a usage message (argparse echoes arguments).
_USAGE_MESSAGE_MAX_CHARS = 500
# Characters copied from the spool to stdout at a time.
_COPY_BLOCK_CHARS = 1 << 16
#: What ``scoring outcome`` keeps of its output in memory before spooling it to disk.
SPOOL_MEMORY_BYTES = 1 << 20


class Command(StrEnum):
    """The subcommands."""

    REPORT = "report"
    OUTCOME = "outcome"
    SQL = "sql"
    COMPARE = "compare"
    CONVERT = "convert"


def _weights_argument(text: str) -> dict[Axis, Decimal]:
    # argparse turns this into a usage error (exit 2) before any file is opened.
    try:
        return parse_weights(text)
    except InputError as error:
        raise argparse.ArgumentTypeError(error.problems[0].rule) from None


#: The largest pass^k level ``--pass-k`` accepts: far beyond any benchmark's trials, and
#: small enough that ``C(n, k)`` stays cheap.
PASS_K_MAX = 100


def _levels_argument(text: str) -> tuple[int, ...]:
    """``--pass-k 2,4``: the extra pass^k levels, whole numbers from 1."""
    levels = []
    for part in text.split(","):
        item = part.strip()
        if not item.isdigit() or not 1 <= int(item) <= PASS_K_MAX:
            raise argparse.ArgumentTypeError(
                f"a pass^k level must be a whole number from 1 to {PASS_K_MAX}, not {inert(item)!r}"
            )
        levels.append(int(item))
    return tuple(levels)


class _Parser(argparse.ArgumentParser):
    """argparse with usage errors kept short and inert (it echoes the arguments)."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        text = cut(inert(message), _USAGE_MESSAGE_MAX_CHARS)
        sys.stderr.write(f"{self.prog}: error: {text}\n")
        raise UsageError(text)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
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
        type=_weights_argument,
        metavar="AXIS=W,...",
        help="viewer weights for the radar profile only, e.g. correctness=2,cost=1 "
        "(axes not named weigh 0); never changes the composite",
    )
    report.add_argument(
        "--pass-k",
        type=_levels_argument,
        default=(),
        metavar="K,...",
        help="more pass^k levels to report beside the published ones, e.g. 2,4; they "
        "change no score, rank or floor",
    )
    _engine_arguments(report)
    _harness_arguments(report, required=False)
    convert = commands.add_parser(
        Command.CONVERT.value,
        help="an evaluation harness's logs as a run log (JSON Lines on stdout), to keep, "
        "inspect and score with report",
    )
    convert.add_argument("path", metavar="PATH", help="a harness log: a file or a folder")
    _harness_arguments(convert, required=True)
    outcome = commands.add_parser(
        Command.OUTCOME.value, help="run-level outcome score v1, from outcome records"
    )
    outcome.add_argument("path", metavar="RECORDS.jsonl", help="outcome records; '-' reads stdin")
    compare = commands.add_parser(
        Command.COMPARE.value,
        help="whether one agent is really ahead of another: the paired comparison of their "
        "composites and success rates on the tasks both have",
    )
    compare.add_argument("path", metavar="RUNS.jsonl", help="run records; '-' reads stdin")
    compare.add_argument("agent_a", metavar="AGENT_A", help="the agent_id of agent A")
    compare.add_argument("agent_b", metavar="AGENT_B", help="the agent_id of agent B")
    for sub in (report, outcome, compare):
        sub.add_argument(
            "--format",
            choices=[f.value for f in OutputFormat],
            default=OutputFormat.TABLE.value,
            help="table for people (default) or json",
        )
    sql = commands.add_parser(
        Command.SQL.value, help="the SQL of the statistics the engines compute, in a dialect"
    )
    sql.add_argument(
        "--dialect",
        choices=[d.value for d in Dialect],
        default=Dialect.DUCKDB.value,
        help="the SQL dialect (default duckdb, the source; spark, its translation): only "
        "dialects an engine runs in the tests",
    )
    return parser


def _engine_arguments(report: argparse.ArgumentParser) -> None:
    report.add_argument(
        "--engine",
        choices=[e.value for e in Engine],
        default=Engine.PYTHON.value,
        help="where the statistics are computed: python (default, the streaming reader), "
        "duckdb or spark (also RUNS.parquet; for spark also a table name); the same "
        "output on every input",
    )
    report.add_argument(
        "--spark-master",
        metavar="URL",
        help=f"the Spark master for --engine spark (default ${SPARK_MASTER_VARIABLE}, "
        f"else {SPARK_LOCAL_MASTER})",
    )


def _agent_from_argument(text: str) -> str:
    try:
        harnesses.inspect.parse_agent_from(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    return text


def _harness_arguments(parser: argparse.ArgumentParser, *, required: bool) -> None:
    """``--from`` and what its readers need (the ``report`` and ``convert`` commands)."""
    # The usage rules argparse cannot say are checked after parsing, and reported by this
    # subcommand's parser, with its usage (_harness_usage).
    parser.set_defaults(subparser=parser)
    parser.add_argument(
        "more_paths",
        nargs="*",
        metavar="PATH",
        help="more harness logs, files or folders (with --from)",
    )
    parser.add_argument(
        "--from",
        dest="harness",
        required=required,
        choices=[h.value for h in Harness],
        help="read the logs this evaluation harness wrote instead of a run log (the "
        "mapping of each: docs/harnesses.md)",
    )
    parser.add_argument(
        "--agent",
        metavar="NAME",
        help="the agent_id of every run (required for tau-bench, whose records name none)",
    )
    parser.add_argument(
        "--agent-from",
        type=_agent_from_argument,
        metavar="SOURCE",
        help="inspect: where the agent_id is read, "
        + "|".join(harnesses.inspect.AGENT_FROM_FORMS)
        + " (default model: eval.model)",
    )
    parser.add_argument(
        "--scorer",
        metavar="NAME",
        help="inspect: the scorer whose value decides success (default: the first)",
    )
    parser.add_argument(
        "--assume-utc",
        action="store_true",
        help="read timestamps written without a UTC offset (tau2-bench's) as UTC; "
        "without it they are refused",
    )


#: Options that only some readers take, and which.
_HARNESS_ONLY = {
    "agent_from": ("--agent-from", Harness.INSPECT),
    "scorer": ("--scorer", Harness.INSPECT),
}


def _harness_usage(args: argparse.Namespace) -> None:
    """The usage rules of ``--from`` argparse cannot say; a break is a usage error."""
    if args.command not in (Command.REPORT, Command.CONVERT):
        return
    harness = None if args.harness is None else Harness(args.harness)
    sub = args.subparser
    if harness is None:
        given = [flag for flag, on in _given_harness_options(args) if on]
        if args.more_paths:
            _sub_error(sub, "one run log at a time; several paths need --from")
        if given:
            _sub_error(sub, f"{given[0]} is an option of --from")
        return
    if args.command == Command.REPORT and args.engine != Engine.PYTHON.value:
        _sub_error(sub, "--from scores with the python engine only (leave out --engine)")
    if "-" in (args.path, *args.more_paths):
        _sub_error(sub, "--from reads files and folders, not stdin ('-')")
    for name, (flag, only) in _HARNESS_ONLY.items():
        if getattr(args, name) is not None and harness is not only:
            _sub_error(sub, f"{flag} is an option of --from {only.value} only")
    if harness is Harness.TAU_BENCH and not args.agent:
        _sub_error(sub, "--from tau-bench needs --agent NAME: its records name no agent")
    if harness is Harness.INSPECT and not harnesses.inspect.available():
        _sub_error(sub, f"--from inspect needs inspect_ai: {harnesses.inspect.INSTALL}")
    args.paths = [args.path, *args.more_paths]
    if args.more_paths:
        args.path = f"{args.path} and {len(args.more_paths)} more"


def _given_harness_options(args: argparse.Namespace) -> list[tuple[str, bool]]:
    return [
        ("--agent", args.agent is not None),
        ("--agent-from", args.agent_from is not None),
        ("--scorer", args.scorer is not None),
        ("--assume-utc", args.assume_utc),
    ]


def _sub_error(parser: argparse.ArgumentParser, message: str) -> NoReturn:
    parser.error(message)


def _converted(args: argparse.Namespace, err: TextIO | None, command: str) -> list[bytes]:
    """The harness logs of ``--from`` as the lines of a run log; what the mapping assumed,
    one line each on stderr."""
    options = harnesses.Options(
        agent=args.agent,
        agent_from=args.agent_from,
        scorer=args.scorer,
        assume_utc=args.assume_utc,
    )
    converted = harnesses.convert(Harness(args.harness), args.paths, options)
    for assumption in converted.assumptions:
        say(err, f"{command}: {assumption}")
    return harnesses.run_log(converted.runs)


def _report_from(args: argparse.Namespace, out: TextIO, err: TextIO | None, command: str) -> bool:
    """``report --from``: the harness logs converted, then scored as that run log would be."""
    lines = _converted(args, err, command)
    report = build_report(lines, args.weights, extra_levels=args.pass_k)
    return _write_report(args, out, report)


def _convert(args: argparse.Namespace, out: TextIO, err: TextIO | None, command: str) -> bool:
    """``convert``: the run log, written once every log was read and found good."""
    lines = _converted(args, err, command)
    for line in lines:
        write(out, line.decode("utf-8"))
    return bool(lines)


@contextmanager
def _open(path: str, stdin: BinaryIO | None) -> Iterator[BinaryIO]:
    if path == "-":
        if stdin is None or stdin.closed:
            raise ReadError(path, "stdin is closed")
        yield stdin
        return
    try:
        handle = open(path, "rb")  # noqa: SIM115 - closed below
    except OSError as error:
        raise ReadError(path, reason_of(error)) from None
    with handle:
        yield handle


def _lines(source: BinaryIO, path: str) -> Iterator[bytes]:
    """The lines of ``source``; a failed read becomes a :class:`ReadError`."""
    lines = iter(source)
    while True:
        try:
            line = next(lines)
        except StopIteration:
            return
        except (OSError, ValueError) as error:  # ValueError: a file closed under us
            reason = reason_of(error) if isinstance(error, OSError) else str(error)
            raise ReadError(path, reason) from None
        yield line


def _again(source: BinaryIO, path: str) -> Callable[[], Iterable[bytes]] | None:
    """The lines of ``source`` once more from its start, where it can be read twice (not a
    pipe): a duplicate ``run_id``'s first line is then confirmed by its id."""
    start = start_of(source)
    if start is None:
        return None

    def again() -> Iterable[bytes]:
        try:
            source.seek(start)
        except (OSError, ValueError) as error:
            reason = reason_of(error) if isinstance(error, OSError) else str(error)
            raise ReadError(path, reason) from None
        return _lines(source, path)

    return again


_Read = TypeVar("_Read")
# Told the bytes of each block read, then the lines of each chunk accounted for.
_Progressed = Callable[
    [BinaryIO, Callable[[int], None] | None, Callable[[int], None] | None], _Read
]


def _read_log(
    args: argparse.Namespace, stdin: BinaryIO | None, err: TextIO | None, read: _Progressed[_Read]
) -> _Read:
    """``read`` the run log at ``args.path`` ('-': stdin; gzip or not), with the progress
    line on ``err`` when it is wanted; a failed read is a :class:`ReadError`."""
    with _open(args.path, stdin) as source:
        progress = None
        if err is not None and progress_wanted(err):
            progress = Progress(err, f"scoring {args.command}", file_bytes(source))
        try:
            return read(
                source,
                None if progress is None else progress.read,
                None if progress is None else progress.rows,
            )
        except OSError as error:  # reading is the only I/O of the readers
            raise ReadError(args.path, reason_of(error)) from None
        finally:
            if progress is not None:
                progress.close()


def _report(
    args: argparse.Namespace, stdin: BinaryIO | None, out: TextIO, err: TextIO | None
) -> bool:
    """Score the run log; whether it held any run."""
    stats = engine_stats(Engine(args.engine), args.path, args.spark_master)
    if stats is not None:
        return _write_report(args, out, report_of(stats, args.weights, args.pass_k))
    report = _read_log(
        args,
        stdin,
        err,
        lambda source, on_read, on_rows: build_report(
            source, args.weights, extra_levels=args.pass_k, on_read=on_read, on_rows=on_rows
        ),
    )
    return _write_report(args, out, report)


def _compare(
    args: argparse.Namespace, stdin: BinaryIO | None, out: TextIO, err: TextIO | None
) -> bool:
    """Compare the two agents of the run log (an unknown one is bad input); always true:
    a log without agents has no agent to compare, which :func:`compare_in` says."""
    stats = _read_log(
        args,
        stdin,
        err,
        lambda source, on_read, on_rows: read_stats(source, on_read=on_read, on_rows=on_rows),
    )
    comparison = compare_in(stats, args.agent_a, args.agent_b)
    if args.format == OutputFormat.JSON:
        write(out, to_json_text(comparison_to_json(comparison)) + "\n")
    else:
        write(out, comparison_to_table(comparison, table_width(out)) + "\n")
    return True


def _write_report(args: argparse.Namespace, out: TextIO, report: Report) -> bool:
    if args.format == OutputFormat.JSON:
        write(out, report_json_text(report) + "\n")
    else:
        write(out, report_to_table(report, table_width(out)) + "\n")
    return bool(report.agents)


#: The width tables are fitted to when neither ``COLUMNS`` nor a terminal gives one (as
#: :func:`shutil.get_terminal_size` falls back).
FALLBACK_COLUMNS = 80


def table_width(out: TextIO) -> int:
    """The width the tables printed on ``out`` are fitted to, as
    :func:`shutil.get_terminal_size` decides it but for ``out`` itself: ``COLUMNS`` if it
    is a positive whole number, else the terminal's width when ``out`` is a terminal, else
    :data:`FALLBACK_COLUMNS`."""
    given = os.environ.get("COLUMNS", "")
    if given.isdigit() and given.isascii() and int(given) > 0:
        return int(given)
    try:
        if out.isatty():
            return os.get_terminal_size(out.fileno()).columns or FALLBACK_COLUMNS
    except (AttributeError, OSError, ValueError):
        pass
    return FALLBACK_COLUMNS


def _outcome(args: argparse.Namespace, stdin: BinaryIO | None, out: TextIO) -> bool:
    """Score the records one by one into a temporary file (on disk past 1 MiB), then copy
    it to stdout: memory stays flat, and a bad record anywhere leaves stdout untouched.
    Whether there was any record."""
    as_json = args.format == OutputFormat.JSON
    table = Table(OUTCOME_HEADERS)
    with _open(args.path, stdin) as source, _spool() as spool:
        scores = iter_outcome_scores(_lines(source, args.path), again=_again(source, args.path))
        count = _spool_scores(scores, spool, table, as_json)
        spool.seek(0)
        if as_json:
            write(out, "[\n" if count else "[]\n")
            while block := spool.read(_COPY_BLOCK_CHARS):
                write(out, block)
            if count:
                write(out, "\n]\n")
        elif not count:
            write(out, NO_RECORDS + "\n")
        else:
            # A table wider than the terminal: in blocks of columns, each led by the run_id
            # column, the spool read once a block.
            for number, picked in enumerate(table.blocks(table_width(out))):
                if number:
                    write(out, "\n")
                    spool.seek(0)
                write(out, "\n".join(table.head(picked)) + "\n")
                for row in spool:
                    write(out, table.line(json.loads(row), picked) + "\n")
        flush(out)
    return bool(count)


@contextmanager
def _spool() -> Iterator[TextIO]:
    try:
        spool = tempfile.SpooledTemporaryFile(  # noqa: SIM115 - closed below
            max_size=SPOOL_MEMORY_BYTES, mode="w+", encoding="utf-8", newline="\n"
        )
    except OSError as error:
        raise WriteError(f"cannot create a temporary file: {reason_of(error)}") from None
    with spool:
        yield spool  # type: ignore[misc]


def _spool_scores(
    scores: Iterable[OutcomeScore], spool: TextIO, table: Table, as_json: bool
) -> int:
    count = 0
    try:
        for score in scores:
            if as_json:
                item = to_json_text(outcome_to_json(score)).replace("\n", "\n  ")
                spool.write(("  " if not count else ",\n  ") + item)
            else:
                spool.write(json.dumps(table.add(outcome_row(score))) + "\n")
            count += 1
    except OSError as error:
        raise WriteError(f"cannot write a temporary file: {reason_of(error)}") from None
    return count


def run(
    argv: Sequence[str] | None = None,
    stdin: BinaryIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command line; returns the exit status.

    Streams default to the process's own; a closed one (``None``) is reported, not
    used.
    """
    if stdin is None and sys.stdin is not None:
        stdin = sys.stdin.buffer
    stdout = sys.stdout if stdout is None else stdout
    stderr = sys.stderr if stderr is None else stderr
    # argparse prints usage, errors and --help to the process streams and exits: route them
    # to the given streams and turn the exit into a returned status (2 for bad arguments).
    try:
        with redirect_stdout(stdout), redirect_stderr(stderr):
            args = _parser().parse_args(argv)
            _harness_usage(args)
    except SystemExit as exit_:  # --help
        return exit_.code if isinstance(exit_.code, int) else EXIT_BAD_INPUT
    except UsageError as error:
        return exit_row(error).status
    command = f"scoring {args.command}"
    if args.command == Command.SQL:
        return _sql(args, stdout, stderr, command)
    if stdout is None:
        say(stderr, f"{command}: cannot write the output: stdout is closed")
        return EXIT_OUTPUT_FAILED
    try:
        check_methodology()  # constants that break an invariant score nothing
        if args.command == Command.CONVERT:
            scored = _convert(args, stdout, stderr, command)
        elif args.command == Command.REPORT and args.harness is not None:
            scored = _report_from(args, stdout, stderr, command)
        elif args.command == Command.REPORT:
            scored = _report(args, stdin, stdout, stderr)
        elif args.command == Command.COMPARE:
            scored = _compare(args, stdin, stdout, stderr)
        else:
            scored = _outcome(args, stdin, stdout)
        flush(stdout)
    except (Exception, KeyboardInterrupt) as error:
        row = exit_for(error)
        if row is None:
            raise
        if row.says is not None:
            say(stderr, row.says.format(command=command, path=shown_path(args.path), error=error))
        return row.status
    if not scored:
        say(stderr, f"{command}: {_NOTHING[args.command]} in {shown_path(args.path)}")
    return EXIT_OK


def _sql(args: argparse.Namespace, out: TextIO | None, err: TextIO | None, command: str) -> int:
    """Print the checks and the statistics in the dialect, each ended by a semicolon."""
    from scoring.engines.dialects import query  # sqlglot: imported only here

    dialect = Dialect(args.dialect)
    text = "\n\n".join(query(q, dialect).rstrip().rstrip(";") + ";" for q in Query) + "\n"
    if out is None:
        say(err, f"{command}: cannot write the output: stdout is closed")
        return EXIT_OUTPUT_FAILED
    try:
        write(out, text)
        flush(out)
    except (BrokenPipeError, WriteError) as error:
        row = exit_row(error)
        if row.says is not None:
            say(err, row.says.format(command=command, path="", error=error))
        return row.status
    return EXIT_OK


# What an empty input (0 bytes, or only blank lines) is said to hold, on stderr.
_NOTHING = {Command.REPORT: "no runs", Command.OUTCOME: "no records", Command.CONVERT: "no runs"}


def _silence_stdout() -> None:
    """After a failed write, point stdout at /dev/null so that the interpreter's last
    flush of what is still buffered cannot fail (and print) again."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError, AttributeError):
        try:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError, AttributeError):
            pass


def main() -> None:
    """Console-script entry point."""
    try:
        status = run()
    except KeyboardInterrupt as error:  # during argument parsing, or while exiting
        status = exit_row(error).status
    if status != EXIT_OK:
        _silence_stdout()
    sys.exit(status)
