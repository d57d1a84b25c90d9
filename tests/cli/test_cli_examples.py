"""The examples people copy: every history in the README and in the --help texts, and
the play lines the README shows, are accepted and give advice."""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from parsers import parsers

from epdle.cli import main
from epdle.session.commands import GuessLine, parse_line
from epdle.solver import Solver, parse_history

README = Path(__file__).resolve().parents[2] / "README.md"
HISTORY = re.compile(r"[a-z]{5}:[GYB012]{5}(?:,[a-z]{5}:[GYB012]{5})*", re.IGNORECASE)
PLAY_LINE = re.compile(r"`([a-z]{5} (?:[gyb]{5}|[012]{5}|[🟩🟨⬛⬜]{5}))`")


def _help_texts() -> Iterator[str]:
    return (parser.format_help() for parser in parsers())


def _examples() -> list[str]:
    texts = [README.read_text(encoding="utf-8"), *_help_texts()]
    found = {match.group(0) for text in texts for match in HISTORY.finditer(text)}
    # Tree keys in docs use '/' between turns; only the command-line form counts here.
    return sorted(found)


def test_there_are_examples_to_check() -> None:
    assert "salet:BBYBB,courd:01000" in _examples()


@pytest.mark.parametrize("history", _examples())
def test_every_history_example_gets_advice(history: str) -> None:
    advice = Solver("entropy").advise(parse_history(history), top=3)
    assert advice.solved or advice.suggestions


def test_the_readme_suggest_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["suggest", "--history", "salet:BBYBB,courd:01000", "--json"]) == 0
    # Every accepted word that fits, under today's history prior (11 on the 2023 list).
    assert '"candidates_left": 31' in capsys.readouterr().out
    assert (
        main(["suggest", "--history", "salet:BBYBB,courd:01000", "--json", "--prior", "uniform"])
        == 0
    )
    assert '"candidates_left": 11' in capsys.readouterr().out


def test_every_play_line_in_the_readme_parses() -> None:
    lines = PLAY_LINE.findall(README.read_text(encoding="utf-8"))
    assert len(lines) >= 2
    for line in lines:
        played = parse_line(line)
        assert isinstance(played, GuessLine) and played.guess == "crane"


def test_every_option_says_what_it_does_without_internal_references() -> None:
    undocumented = []
    for parser in parsers():
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction) or not action.option_strings:
                continue
            if not action.help:
                undocumented.append(f"{parser.prog} {action.option_strings[0]}")
    assert undocumented == []
    for text in _help_texts():
        assert not re.search(r"\bissue \d|facts §|facts \d", text), text
