"""The `epdle` command: one subcommand group per module of this package.

Errors follow `epdle.cli.errors`: exit 0/1/2, one line on stderr, no traceback.
"""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Sequence
from importlib import import_module

from epdle import __version__
from epdle.cli.errors import (
    EXIT_FAILURE,
    EXIT_OK,
    CommandError,
    Parser,
    debugging,
    describe,
    report,
)

# Each module adds its subcommands; every subcommand sets `func(args) -> int`.
COMMAND_MODULES = ("solver", "render", "link", "sim", "session", "cache", "web", "history")
# One-shot commands that build only their own parser (a cold `epdle suggest` stays fast):
# the module and the function that add it.
LIGHT_COMMANDS = {"suggest": ("solver", "register_suggest")}
INTERRUPTED = 130


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    parser = Parser(
        prog="epdle",
        description="Pocket Wordle helper: solve, render e-paper frames, drive the device "
        "(real over UART, or the simulated board with --port sim://).",
    )
    parser.add_argument("--version", action="version", version=f"epdle {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    light = _light_command(argv)
    if light is not None:
        module, register = LIGHT_COMMANDS[light]
        getattr(import_module(f"epdle.cli.{module}"), register)(commands)
    else:
        for name in COMMAND_MODULES:
            import_module(f"epdle.cli.{name}").register(commands)
    return parser


def _light_command(argv: Sequence[str] | None) -> str | None:
    """The one-shot command `argv` starts with (one of LIGHT_COMMANDS), else None: after a
    top-level option (`epdle -h suggest`: the help of every command) the whole parser."""
    command = argv[0] if argv else None
    return command if command in LIGHT_COMMANDS else None


def command_name(args: argparse.Namespace) -> str:
    words = ["epdle", getattr(args, "command", None), getattr(args, "sim_command", None)]
    words += [getattr(args, "cache_command", None)]
    return " ".join(word for word in words if word)


def main(argv: Sequence[str] | None = None) -> int:
    """The `epdle` command (`argv` None: this process is the command, sys.argv)."""
    one_shot = argv is None and _light_command(sys.argv[1:]) is not None
    if one_shot:
        # A one-shot command makes little cyclic garbage and ends in a moment: the
        # collector's passes over every object the imports made (3-8 ms of a cold
        # suggest), and the interpreter's last one at exit (10-15 ms), buy it nothing.
        # Reference counting frees what it drops all the same.
        gc.disable()
    code = _main(sys.argv[1:] if argv is None else argv)
    if one_shot:
        gc.freeze()
    return code


def _main(argv: Sequence[str]) -> int:
    try:
        args = build_parser(argv).parse_args(argv)
    except SystemExit as stop:  # --help, --version, or a usage error already reported
        return stop.code if isinstance(stop.code, int) else EXIT_FAILURE
    prog = command_name(args)
    try:
        return int(args.func(args) or EXIT_OK)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        return EXIT_OK
    except CommandError as error:
        report(prog, describe(error))
        return error.code
    except Exception as error:  # every other failure: one line, never a traceback
        if debugging():
            raise
        message = describe(error)
        if not _expected(error):
            message = f"unexpected {type(error).__name__}: {message} (EPDLE_DEBUG=1 shows where)"
        report(prog, message)
        return EXIT_FAILURE


def _expected(error: Exception) -> bool:
    """An error whose message is written for people: bad values, files, the link, the board."""
    module = type(error).__module__
    return isinstance(error, OSError | ValueError) or module.split(".")[0] in ("epdle", "intelhex")


if __name__ == "__main__":
    sys.exit(main())
