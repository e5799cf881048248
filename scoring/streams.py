"""Writing the command line's output and its messages: a failed write becomes the error
its exit status reports (``exits.WriteError``: a full disk, a stdout closed under us),
except a closed pipe, which propagates as itself (``| head``: status 141, silently); a
message to a stderr that is gone is dropped, as there is no one left to tell."""

from __future__ import annotations

from typing import BinaryIO, TextIO

from scoring.exits import WriteError


def reason_of(error: OSError) -> str:
    """What the system said about ``error`` (``No space left on device``), or its class."""
    return error.strerror or type(error).__name__


def output_error(error: OSError | ValueError) -> WriteError:
    """The error a failed write of the output exits with."""
    reason = reason_of(error) if isinstance(error, OSError) else str(error)
    return WriteError(f"cannot write the output: {reason}")


def write(out: TextIO | BinaryIO, text: str | bytes) -> None:
    """Write ``text`` to ``out``; a failure other than a closed pipe is an output error."""
    try:
        out.write(text)  # type: ignore[arg-type]
    except BrokenPipeError:
        raise
    except (OSError, ValueError) as error:  # ValueError: stdout was closed under us
        raise output_error(error) from None


def flush(out: TextIO | BinaryIO) -> None:
    """Flush ``out``; a failure other than a closed pipe is an output error."""
    try:
        out.flush()
    except BrokenPipeError:
        raise
    except (OSError, ValueError) as error:
        raise output_error(error) from None


def say(stderr: TextIO | None, text: str) -> None:
    """Print on stderr; if stderr is gone too, there is no one to tell."""
    if stderr is None:
        return
    try:
        print(text, file=stderr)
        stderr.flush()
    except (OSError, ValueError):
        pass
