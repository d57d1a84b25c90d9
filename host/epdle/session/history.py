"""The player's history of answers, in the user's data directory: every finished game
whose answer is known is recorded there (date, puzzle number, word), and `epdle history`
adds and imports entries. The history a game's prior reads is the shipped one with the
player's beside it, or one file named by `--played`.

It lives in $EPDLE_DATA_DIR, else $XDG_DATA_HOME/epdle, else ~/.local/share/epdle, as
`history.tsv` (the format of epdle.words.history). A damaged file is never overwritten:
reading it is an error that says where, and the file stays as it was.
"""

from __future__ import annotations

import datetime
import os
from pathlib import Path

from epdle.words.history import (
    HEADER,
    HistoryFileError,
    Played,
    merged,
    parse_date,
    parse_history,
    puzzle_number,
    shipped_history,
)

HISTORY_FILE = "history.tsv"
# The day taken as today instead of the local date (YYYY-MM-DD): for recorded outputs and
# scripts that must not depend on the day they run.
TODAY_VARIABLE = "EPDLE_TODAY"


class DuplicateEntry(ValueError):
    """An entry the history already holds, or a second answer for a day it knows."""


def data_dir() -> Path:
    """$EPDLE_DATA_DIR, else $XDG_DATA_HOME/epdle, else ~/.local/share/epdle."""
    explicit = os.environ.get("EPDLE_DATA_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "share"
    )
    return Path(base) / "epdle"


def player_history_path() -> Path:
    return data_dir() / HISTORY_FILE


def today() -> datetime.date:
    """The day whose puzzle the player is on: $EPDLE_TODAY, else the local date."""
    fixed = os.environ.get(TODAY_VARIABLE)
    if not fixed:
        return datetime.date.today()
    try:
        return parse_date(fixed)
    except ValueError as error:
        raise ValueError(f"${TODAY_VARIABLE}: {error}") from None


def accepted_words() -> frozenset[str]:
    from epdle import words

    return frozenset(words.guesses())


def read_history_file(path: Path, what: str = "history") -> list[Played]:
    """The entries of a history file (none if it does not exist); HistoryFileError (the
    file kept as it is) when it cannot be read as one."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except UnicodeDecodeError:
        raise HistoryFileError(
            f"{what} {path} is damaged: not UTF-8 text (kept as it is)"
        ) from None
    try:
        return parse_history(text, str(path), accepted_words())
    except HistoryFileError as error:
        raise HistoryFileError(f"{what} {error} (the file is kept as it is)") from None


def player_history() -> list[Played]:
    return read_history_file(player_history_path(), "your history")


def known_history(played: str | None = None) -> list[Played]:
    """The answers a game's prior reads: the file `played` alone, else the shipped
    history with the player's."""
    if played is not None:
        return read_history_file(Path(played), "history file")
    return merged(shipped_history(), player_history())


def entry(day: datetime.date, word: str) -> Played:
    """A day's answer, checked: a date not after today and an accepted word."""
    if day > today():
        raise ValueError(f"{day} is in the future (today is {today()})")
    word = word.strip().lower()
    if word not in accepted_words():
        raise ValueError(f"{word[:12].upper()!r} is not an accepted word")
    return Played(day, puzzle_number(day), word)


def add_entries(new: list[Played]) -> list[Played]:
    """Add entries to the player's history (written whole, atomically); the ones it
    already held, shipped or the player's, are left out and returned. DuplicateEntry for
    an answer on a day the history holds another answer for (the file unchanged)."""
    path = player_history_path()
    mine = read_history_file(path, "your history")
    known = {(p.puzzle, p.word) for p in merged(shipped_history(), mine)}
    by_day = {p.puzzle: p for p in merged(shipped_history(), mine)}
    added, already = [], []
    for played in new:
        if (played.puzzle, played.word) in known:
            already.append(played)
            continue
        other = by_day.get(played.puzzle)
        if other is not None:
            raise DuplicateEntry(
                f"puzzle {played.puzzle} ({played.date}) is already {other.word.upper()} "
                f"in the history, not {played.word.upper()}"
            )
        added.append(played)
        known.add((played.puzzle, played.word))
        by_day[played.puzzle] = played
    if added:
        _write(path, merged(mine, added))
    return already


def _write(path: Path, history: list[Played]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(HEADER + "\n" + "".join(p.line() + "\n" for p in history))
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def record_game(word: str, day: datetime.date | None = None) -> str | None:
    """Record a finished game's answer as today's (the game's day); None when recorded or
    already there, else a one-line note why not (the history is never lost for it)."""
    day = day or today()
    try:
        add_entries([entry(day, word)])
    except (OSError, ValueError) as error:
        return f"not recorded in your history: {error}"
    return None
