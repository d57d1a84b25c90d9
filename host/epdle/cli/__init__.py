"""The `epdle` command: one subcommand group per module of this package."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from importlib import import_module

from epdle import __version__

# Each module adds its subcommands; every subcommand sets `func(args) -> int`.
COMMAND_MODULES = ("solver", "render", "link", "sim", "session")
# One-shot commands that load only their own module (a cold `epdle suggest` stays fast).
LIGHT_COMMANDS = {"suggest": "solver"}


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="epdle",
        description="Pocket Wordle helper: solve, render e-paper frames, drive the device "
        "(real over UART, or the simulated board with --port sim://).",
    )
    parser.add_argument("--version", action="version", version=f"epdle {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    first = next((word for word in argv or () if not word.startswith("-")), None)
    for name in (LIGHT_COMMANDS[first],) if first in LIGHT_COMMANDS else COMMAND_MODULES:
        import_module(f"epdle.cli.{name}").register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = build_parser(argv).parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
