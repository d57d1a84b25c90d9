"""The Times' answers by date: the shipped history (`nyt-history.tsv`, provenance in its
header and PROVENANCE.md), a player's own (epdle.session.history keeps it), and how a
date becomes a puzzle number.

A history file holds one answer a line, `date<TAB>puzzle<TAB>word` (ISO date, the
puzzle number that date has, the word in lower case), `#` lines are comments. Numpy-free:
a one-shot `suggest` reads it.
"""

from __future__ import annotations

import datetime
from functools import cache

from epdle.named_tuple import NamedTuple

# Puzzle 0 (CIGAR): a puzzle's number is the days since this date.
DAY_ZERO = datetime.date(2021, 6, 19)
SHIPPED_HISTORY = "nyt-history.tsv"
HEADER = "# Wordle answers, one a line: date<TAB>puzzle number<TAB>word."


class Played(NamedTuple):
    """One day's answer."""

    date: datetime.date
    puzzle: int
    word: str

    def line(self) -> str:
        return f"{self.date.isoformat()}\t{self.puzzle}\t{self.word}"


class HistoryFileError(ValueError):
    """A history that cannot be read as one: where, and why."""


def puzzle_number(day: datetime.date) -> int:
    """The Times' puzzle of `day` (0 on 2021-06-19)."""
    return (day - DAY_ZERO).days


def parse_date(text: str, today: datetime.date | None = None) -> datetime.date:
    """An ISO date (YYYY-MM-DD) no earlier than puzzle 0 and, given `today`, not after it;
    ValueError saying why not."""
    try:
        day = datetime.date.fromisoformat(text.strip())
    except ValueError:
        raise ValueError(f"{text.strip()[:40]!r} is not a date: write YYYY-MM-DD") from None
    if day < DAY_ZERO:
        raise ValueError(f"{day} is before the first puzzle ({DAY_ZERO})")
    if today is not None and day > today:
        raise ValueError(f"{day} is in the future (today is {today})")
    return day


def parse_history(text: str, name: str, known: frozenset[str] | None = None) -> list[Played]:
    """The answers of a history file's text, in puzzle order; HistoryFileError naming
    `name` and the line for a malformed line, a puzzle number its date does not have, a
    word not of five letters (or not in `known`), or one entry twice."""
    found: dict[tuple[int, str], Played] = {}
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        where = f"{name} line {number}"
        parts = line.split("\t")
        if len(parts) != 3:
            raise HistoryFileError(f"{where}: expected date<TAB>puzzle<TAB>word")
        try:
            day = parse_date(parts[0])
        except ValueError as error:
            raise HistoryFileError(f"{where}: {error}") from None
        puzzle, word = parts[1].strip(), parts[2].strip().lower()
        if puzzle != str(puzzle_number(day)):
            raise HistoryFileError(
                f"{where}: {day} is puzzle {puzzle_number(day)}, not {puzzle[:12]!r}"
            )
        if len(word) != 5 or not word.isascii() or not word.isalpha():
            raise HistoryFileError(f"{where}: {word[:12]!r} is not a five-letter word")
        if known is not None and word not in known:
            raise HistoryFileError(f"{where}: {word!r} is not an accepted word")
        entry = Played(day, int(puzzle), word)
        if (entry.puzzle, word) in found:
            raise HistoryFileError(f"{where}: {word} on {day} is there twice")
        found[(entry.puzzle, word)] = entry
    return sorted(found.values())


@cache
def shipped_history() -> tuple[Played, ...]:
    """The Times' answers from puzzle 0, as shipped."""
    from importlib import resources

    text = resources.files(__package__).joinpath(SHIPPED_HISTORY).read_text(encoding="utf-8")
    return tuple(parse_history(text, SHIPPED_HISTORY))


def merged(*histories: list[Played] | tuple[Played, ...]) -> list[Played]:
    """The answers of several histories, each entry once, in puzzle order."""
    return sorted({(p.puzzle, p.word): p for h in histories for p in h}.values())


def before(history: list[Played] | tuple[Played, ...], day: datetime.date) -> list[Played]:
    """The answers dated before `day`: what a player knew that morning."""
    return [played for played in history if played.date < day]
