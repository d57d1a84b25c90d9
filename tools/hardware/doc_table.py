"""A generated table in a committed Markdown file, and the command line of its generator.

The table sits between two marker lines; nothing outside them is touched. A generator
script (gen_config_table.py, gen_battery_life.py) names its table and how it is made;
`--write` rewrites the file, `--check` fails while the committed table is stale, and no
option prints the table.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class DocTable:
    """Where a generated table lives: its file, its markers, the script that makes it."""

    path: Path
    begin: str
    end: str
    script: str  # e.g. "tools/hardware/gen_config_table.py"

    def filled(self, markdown: str, text: str) -> str:
        """The document with `text` between the markers, everything else as it was."""
        start = markdown.index(self.begin) + len(self.begin)
        return markdown[:start] + "\n" + text + markdown[markdown.index(self.end) :]

    def main(self, description: str, make_text: Callable[[], str]) -> int:
        """The generator's command line: --write, --check or print."""
        name = self.path.name
        parser = argparse.ArgumentParser(description=description)
        mode = parser.add_mutually_exclusive_group()
        mode.add_argument("--write", action="store_true", help=f"rewrite the table in {name}")
        mode.add_argument("--check", action="store_true", help=f"fail if {name} is stale")
        args = parser.parse_args()
        text = make_text()
        if not (args.write or args.check):
            sys.stdout.write(text)
            return 0
        current = self.path.read_text(encoding="utf-8")
        wanted = self.filled(current, text)
        if args.write:
            self.path.write_text(wanted, encoding="utf-8")
        elif wanted != current:
            print(f"{name}'s table is stale: run python {self.script} --write", file=sys.stderr)
            return 1
        return 0
