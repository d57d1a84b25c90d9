"""The `epdle` command: one subcommand group per module of this package."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from epdle import __version__
from epdle.cli import link, render, session, sim, solver, web

# Each module adds its subcommands; every subcommand sets `func(args) -> int`.
COMMAND_MODULES = (solver, render, link, sim, session, web)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="epdle",
        description="Pocket Wordle helper: solve, render e-paper frames, drive the device "
        "(real over UART, or the simulated board with --port sim://).",
    )
    parser.add_argument("--version", action="version", version=f"epdle {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in COMMAND_MODULES:
        module.register(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
