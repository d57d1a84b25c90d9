"""The command line's one error convention.

Exit 0 on success, 1 when a command fails, 2 for a usage error (what argparse
refuses, or a value no run could accept). Every error is one line on stderr,
``epdle COMMAND: error: what went wrong``, in plain words, with user input cut to
a readable length; never a traceback (set EPDLE_DEBUG=1 to see one).

Numeric options are checked by the argparse types below, so a value out of range
is refused before anything runs.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Callable

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, NoReturn

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2

# User input longer than this is cut in messages (a pasted page is not echoed back).
MAX_INPUT_SHOWN = 40
# A message is cut to this many characters: one line on any terminal.
MAX_MESSAGE = 400
DEBUG_ENV = "EPDLE_DEBUG"


class CommandError(Exception):
    """A command that cannot do what was asked; the message is the whole story."""

    def __init__(self, message: str, *, code: int = EXIT_FAILURE) -> None:
        super().__init__(message)
        self.code = code


class UsageError(CommandError):
    """Options that no run could accept (exit 2)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code=EXIT_USAGE)


def shorten(text: str, limit: int = MAX_INPUT_SHOWN) -> str:
    """`text` as a message may quote it: cut to `limit` characters, saying how long it was."""
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"


def _os_error_text(error: OSError) -> str:
    reason = error.strerror or (os.strerror(error.errno) if error.errno else str(error))
    reason = reason[:1].lower() + reason[1:]
    if error.filename is not None:
        return f"{os.fsdecode(error.filename)}: {reason}"
    return reason


def describe(error: BaseException) -> str:
    """One plain line for an exception: no errno brackets, no line breaks."""
    if isinstance(error, OSError) and (error.strerror or error.filename is not None):
        text = _os_error_text(error)
    else:
        text = str(error) or type(error).__name__
    text = " ".join(text.split())
    return text if len(text) <= MAX_MESSAGE else text[: MAX_MESSAGE - 3] + "..."


def report(prog: str, message: str) -> None:
    print(f"{prog}: error: {message}", file=sys.stderr, flush=True)


def debugging() -> bool:
    return os.environ.get(DEBUG_ENV, "") not in ("", "0")


def terminal_columns() -> int:
    """shutil.get_terminal_size().columns ($COLUMNS, else the terminal's, else 80) without
    importing shutil: it loads the compression modules, a tenth of a cold `epdle suggest`."""
    try:
        columns = int(os.environ.get("COLUMNS", ""))
    except ValueError:
        columns = 0
    if columns <= 0 and sys.__stdout__ is not None:
        with contextlib.suppress(ValueError, OSError):  # not a terminal, or closed
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
    return columns if columns > 0 else 80


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help, as wide as the terminal (argparse makes one for every option added)."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        width = terminal_columns() - 2 if width is None else width
        super().__init__(prog, indent_increment, max_help_position, width)

    # Lines break between words only, never inside one (argparse's own wrapping splits a
    # long history or path, and at hyphens, so a copied example no longer works); a word
    # wider than the line overflows it whole.
    def _split_lines(self, text: str, width: int) -> list[str]:
        import textwrap

        return textwrap.wrap(
            " ".join(text.split()), width, break_long_words=False, break_on_hyphens=False
        )

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        """A description or epilog: its prose wrapped; an indented line (an example
        command, see `examples`) kept whole on its own line."""
        lines: list[str] = []
        for line in text.splitlines():
            if line[:1].isspace():
                lines.append(indent + line.rstrip())
            else:
                lines.extend(indent + part for part in self._split_lines(line, width - len(indent)))
        return "\n".join(lines)


def examples(*commands: str) -> str:
    """A help epilog of example commands, one a line, each whole (the help formatter never
    wraps them) and each run as written by the tests (tests/cli/test_examples_run.py)."""
    return "examples:\n" + "\n".join(f"  {command}" for command in commands)


class Parser(argparse.ArgumentParser):
    """argparse with a one-line usage error (the usage itself is one --help away)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)  # also each subcommand's parser
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        message = " ".join(message.split())
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


# ---- argparse types ------------------------------------------------------------------


def int_in(low: int, high: int | None = None, why: str = "") -> Callable[[str], int]:
    """An integer option's type: `low` <= value (<= `high`); `why` explains the upper bound."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{shorten(text)!r} is not a whole number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        if high is not None and value > high:
            reason = f" ({why})" if why else ""
            raise argparse.ArgumentTypeError(f"must be at most {high}{reason}, not {value}")
        return value

    parse.__name__ = "whole number"
    return parse


def number_in(
    low: float, high: float | None = None, *, above: bool = False
) -> Callable[[str], float]:
    """A float option's type: `low` <= value (< with `above`) (<= `high`)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{shorten(text)!r} is not a number") from None
        if value != value or value in (float("inf"), float("-inf")):
            raise argparse.ArgumentTypeError(f"{shorten(text)!r} is not a finite number")
        if (value <= low) if above else (value < low):
            relation = "more than" if above else "at least"
            raise argparse.ArgumentTypeError(f"must be {relation} {low:g}, not {value:g}")
        if high is not None and value > high:
            raise argparse.ArgumentTypeError(f"must be at most {high:g}, not {value:g}")
        return value

    parse.__name__ = "number"
    return parse
