"""One line of user input in `play` / `daemon`: a played guess or a control word."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from epdle.solver import parse_feedback
from epdle.solver.scoring import quoted


class InputError(ValueError):
    """A line that is neither a played guess nor a known command (one-line message)."""


class UnknownLine(InputError):
    """A line that looks like no guess and no command at all."""


class Control(Enum):
    UNDO = "undo"
    NEW = "new"
    QUIT = "quit"
    HELP = "help"
    PRESS = "press"
    SHOW = "show"
    CANDIDATES = "candidates"
    HARD = "hard"
    BLIND = "blind"


# Short forms people type at a prompt.
_CONTROL_ALIASES = {
    "u": Control.UNDO,
    "undo": Control.UNDO,
    "n": Control.NEW,
    "new": Control.NEW,
    "reset": Control.NEW,
    "q": Control.QUIT,
    "quit": Control.QUIT,
    "exit": Control.QUIT,
    "h": Control.HELP,
    "?": Control.HELP,
    "help": Control.HELP,
    "p": Control.PRESS,
    "press": Control.PRESS,
    "show": Control.SHOW,
    "c": Control.CANDIDATES,
    "candidates": Control.CANDIDATES,
    "left": Control.CANDIDATES,
    "hard": Control.HARD,
    "normal": Control.HARD,  # hard off
    "blind": Control.BLIND,
}
# Controls that take a word after them: `show N`, `hard on`, `blind off`.
_WITH_ARGUMENT = {"show", "hard", "blind"}
_SWITCH = {"on": 1, "off": 0}


@dataclass(frozen=True)
class GuessLine:
    guess: str
    feedback: str  # normalised G/Y/B


@dataclass(frozen=True)
class ControlLine:
    control: Control
    argument: int | None = None


HELP_TEXT = """\
  <guess> <colours>   what you played and what the game showed, e.g.
                        crane gybbb
                        crane 21000
                        crane 🟩🟨⬛⬛⬛
                      (G/2/🟩 green, Y/1/🟨 yellow, B/0/⬛/⬜ grey)
  undo (u)            take back the last guess
  new (n)             start a new game
  press (p)           press the device's button (next suggestion)
  show N              show suggestion N on the device
  candidates (c)      list the words still possible, likeliest first
  hard [on|off]       hard mode on (the guesses so far must keep its rule), or off
  normal              hard mode off
  blind [on|off]      every accepted word from now on, not the answer list first
  help (?)            this text
  quit (q)            leave"""

_SPLIT = re.compile(r"[\s:=,]+")
# More digits than any suggestion's number has (a longer one is no number).
_MAX_NUMBER_DIGITS = 6


def parse_line(line: str) -> GuessLine | ControlLine | None:
    """Parse one line; None for a blank line or a comment (`# ...`)."""
    text = line.strip()
    if not text or text.startswith("#"):
        return None
    parts = [p for p in _SPLIT.split(text) if p]
    if not parts:  # only separators: ',', ':', '='
        raise _unknown(text)
    head = parts[0].lower()
    if head in _CONTROL_ALIASES and (len(parts) == 1 or head in _WITH_ARGUMENT):
        control = _CONTROL_ALIASES[head]
        # 'show 2', not colours
        number = control is Control.SHOW and _number(parts[-1]) is not None
        if len(parts) == 2 and not number and _is_colours(parts[1], len(head)):
            return parse_played(parts[0], parts[1])  # a guess spelt as a command: BLIND
        if control is Control.SHOW:
            index = _number(parts[1]) if len(parts) == 2 else None
            if index is None:
                raise InputError("show needs a suggestion number, e.g. 'show 2'")
            return ControlLine(control, index)
        if head == "normal":
            return ControlLine(control, 0)
        if control in (Control.HARD, Control.BLIND):  # alone: on
            if len(parts) > 1 and (len(parts) != 2 or parts[1].lower() not in _SWITCH):
                also = ", 'normal' off" if control is Control.HARD else ""
                raise InputError(
                    f"{head} takes on or off, e.g. '{head} off' ('{head}' turns it on{also})"
                )
            return ControlLine(control, _SWITCH[parts[1].lower()] if len(parts) > 1 else 1)
        return ControlLine(control)
    if len(parts) != 2:
        raise _unknown(text)
    return parse_played(parts[0], parts[1])


def _unknown(text: str) -> UnknownLine:
    return UnknownLine(
        f"expected '<guess> <colours>' (e.g. 'crane gybbb') or a command, got {quoted(text)}"
    )


def _number(text: str) -> int | None:
    """A suggestion's number as typed (a few decimal digits), else None: int() refuses
    some digits isdigit() takes ('²') and numbers of thousands of digits."""
    return int(text) if text.isdecimal() and len(text) <= _MAX_NUMBER_DIGITS else None


def _is_colours(text: str, length: int) -> bool:
    """Whether ``text`` reads as the colours of a ``length``-letter guess."""
    try:
        return len(parse_feedback(text)) == length
    except ValueError:
        return False


def parse_played(word: str, colours: str) -> GuessLine:
    """A played guess given as its word and its colours apart (any notation above)."""
    guess = word.strip().lower()
    if not guess.isalpha():
        raise InputError(f"guess {quoted(word)} must be letters only")
    try:
        feedback = parse_feedback(colours)
    except ValueError as error:
        raise InputError(f"colours for {quoted(guess)}: {error}") from None
    if len(feedback) != len(guess):
        raise InputError(
            f"{quoted(guess)} has {len(guess)} letters but {len(feedback)} colours were given"
        )
    return GuessLine(guess, feedback)
