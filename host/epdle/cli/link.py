"""CLI commands: link (filled in by its owner)."""

from __future__ import annotations

import argparse


def register(commands: argparse._SubParsersAction) -> None:
    """Add this module's subcommands to the `epdle` parser."""
