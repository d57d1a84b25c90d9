"""Help text wraps between words only, at any width: `--help` of every command (an example
line stays whole, so it can be copied) and the commands' help inside `play`."""

from __future__ import annotations

import io
import re
from collections.abc import Iterator

import pytest
from parsers import parsers
from rich.cells import cell_len
from rich.console import Console

from epdle.session.boards import multi_help
from epdle.session.commands import HELP_TEXT
from epdle.session.play import show_help

WIDTHS = (40, 60, 100, 250)


def _helps(columns: int, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, str]]:
    """(prog, --help text) of every parser at this terminal width (argparse reads the
    width when it formats)."""
    monkeypatch.setenv("COLUMNS", str(columns))
    return ((parser.prog, parser.format_help()) for parser in parsers())


@pytest.mark.parametrize("columns", WIDTHS)
def test_help_breaks_lines_between_words_only(
    columns: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    unwrapped = {prog: text.split() for prog, text in _helps(10_000, monkeypatch)}
    for prog, text in _helps(columns, monkeypatch):
        assert text.split() == unwrapped[prog], f"{prog} --help at {columns} columns"


@pytest.mark.parametrize("columns", WIDTHS)
def test_each_example_is_one_whole_line(columns: int, monkeypatch: pytest.MonkeyPatch) -> None:
    epilogs = {parser.prog: parser.epilog or "" for parser in parsers()}
    examples = 0
    for prog, text in _helps(columns, monkeypatch):
        if epilogs[prog].startswith("examples:\n"):
            lines = epilogs[prog].splitlines()[1:]
            assert set(lines) <= set(text.splitlines()), f"{prog} --help at {columns} columns"
            examples += len(lines)
    assert examples >= 10


@pytest.mark.parametrize("columns", (40, 50, 60, 100, 200))
@pytest.mark.parametrize("text", (HELP_TEXT, multi_help()), ids=("one board", "several"))
def test_plays_help_wraps_each_description_under_itself(columns: int, text: str) -> None:
    out = io.StringIO()
    show_help(Console(file=out, width=columns, force_terminal=False), text)
    shown = out.getvalue().splitlines()
    assert " ".join(shown).split() == text.split()
    assert max(map(cell_len, shown)) <= columns
    row = re.compile(r"  (\S.*?)(\s{2,}|$)")
    commands = [match[1] for line in text.splitlines() if (match := row.match(line))]
    starts = [line for line in shown if not line.startswith("    ")]
    assert [line.split("   ")[0].strip() for line in starts] == commands  # nothing else at left
    beside = starts[0].startswith("  <guess> <colours>   what")
    if columns == 200 or (columns == 40 and "ggyyb" in text):  # examples too wide beside
        assert beside == (columns == 200)
    examples = [line.strip() for line in text.splitlines() if line.startswith(" " * 24)]
    assert len(examples) >= 2
    for example in examples:
        assert any(line.strip() == example for line in shown), example
