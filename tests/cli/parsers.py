"""The `epdle` parser and every subcommand's, for the tests of the help texts."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from epdle.cli import build_parser


def parsers(parser: argparse.ArgumentParser | None = None) -> Iterator[argparse.ArgumentParser]:
    """`parser` (the `epdle` one by default) and, depth first, every parser below it."""
    parser = build_parser() if parser is None else parser
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for child in action.choices.values():
                yield from parsers(child)
