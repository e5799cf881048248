"""GitHub Actions workflow commands: the escapes, one annotation, the output style, the step
summary file. Nothing of ``scoring`` is imported here, so that the command line can still
annotate the one error it prints when the live code cannot be imported at all.

The syntax is GitHub's, ``::error file=F,line=L,endLine=E,title=T::M``: in the message
``%``, CR and LF are written ``%25``, ``%0D`` and ``%0A``; in a property value ``:`` and
``,`` too (``%3A``, ``%2C``), as the runner reads them back.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

#: The environment variable GitHub sets to ``true`` in every step of a workflow run.
ACTIONS_VARIABLE = "GITHUB_ACTIONS"
#: The environment variable naming the file a step appends its Markdown summary to.
SUMMARY_VARIABLE = "GITHUB_STEP_SUMMARY"


class OutputStyle(StrEnum):
    """How ``check`` and ``readme`` print: plain text, or text and workflow commands."""

    TEXT = "text"
    GITHUB = "github"


def output_style(requested: str | None, environ: Mapping[str, str]) -> OutputStyle:
    """The style asked for; without one, ``github`` inside a GitHub Actions run, else text.

    >>> output_style(None, {}), output_style(None, {"GITHUB_ACTIONS": "true"})
    (<OutputStyle.TEXT: 'text'>, <OutputStyle.GITHUB: 'github'>)
    >>> output_style("text", {"GITHUB_ACTIONS": "true"})
    <OutputStyle.TEXT: 'text'>
    """
    if requested is not None:
        return OutputStyle(requested)
    running = environ.get(ACTIONS_VARIABLE) == "true"
    return OutputStyle.GITHUB if running else OutputStyle.TEXT


class Level(StrEnum):
    """The workflow command of an annotation."""

    ERROR = "error"
    WARNING = "warning"


# --- Workflow commands ------------------------------------------------------------------------


def escape_data(text: str) -> str:
    """A message as a workflow command carries it: ``%`` first, then CR and LF.

    >>> escape_data("100% sure\\nnext line")
    '100%25 sure%0Anext line'
    """
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """A property value (``file=``, ``title=``): the message's escapes, and ``:`` and ``,``,
    which end a value.

    >>> escape_property("drift: a, b")
    'drift%3A a%2C b'
    """
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


@dataclass(frozen=True, slots=True)
class Annotation:
    """One workflow command: its level, where (a repository-relative file, a line range;
    ``None`` for what belongs to no file), a title and the message."""

    level: Level
    title: str
    message: str
    file: str | None = None
    line: int | None = None
    end_line: int | None = None

    def command(self) -> str:
        """The line a step prints, e.g. ``::error file=a.py,line=3,title=T::M``."""
        properties: list[tuple[str, str]] = []
        if self.file is not None:
            properties.append(("file", self.file))
            if self.line is not None:
                properties.append(("line", str(self.line)))
                if self.end_line is not None:
                    properties.append(("endLine", str(self.end_line)))
        properties.append(("title", self.title))
        joined = ",".join(f"{key}={escape_property(value)}" for key, value in properties)
        return f"::{self.level.value} {joined}::{escape_data(self.message)}"


def append_summary(text: str, environ: Mapping[str, str]) -> str | None:
    """Append ``text`` to the step summary file, if ``GITHUB_STEP_SUMMARY`` names one.
    Returns a warning command when it cannot be written (the check's verdict stands)."""
    target = environ.get(SUMMARY_VARIABLE)
    if not target:
        return None
    try:
        with open(target, "a", encoding="utf-8") as summary:
            summary.write(text + "\n")
    except OSError as error:
        return Annotation(
            Level.WARNING, "step summary", f"{SUMMARY_VARIABLE}={target}: cannot append: {error}"
        ).command()
    return None
