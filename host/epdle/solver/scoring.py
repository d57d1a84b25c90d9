"""Wordle feedback: scoring a guess against an answer, pattern codes, and parsing user input.

Feedback strings use G (green), Y (yellow) and B (grey). A pattern code packs one
feedback into an integer: position i contributes 3**i times 2 (G), 1 (Y) or 0 (B).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator, Sequence

from epdle.named_tuple import NamedTuple

GREEN, YELLOW, GREY = "G", "Y", "B"
_MARK_DIGIT = {GREY: 0, YELLOW: 1, GREEN: 2}
_DIGIT_MARK = {digit: mark for mark, digit in _MARK_DIGIT.items()}

# Every spelling of a mark that people type or paste. The orange and blue squares
# are the game's high-contrast colours for green and yellow.
_MARK_ALIASES = {
    "g": GREEN, "2": GREEN, "🟩": GREEN, "🟧": GREEN,
    "y": YELLOW, "1": YELLOW, "🟨": YELLOW, "🟦": YELLOW,
    "b": GREY, "0": GREY, "⬛": GREY, "⬜": GREY,
}  # fmt: skip
_IGNORED_CHARACTERS = {"\ufe0f", " ", "\t"}  # emoji variation selector, spacing


# The game's rule: six guesses to find the word.
GAME_GUESSES = 6
# Several boards (Dordle, Quordle, Octordle): at most this many, and this many guesses
# more than boards (Dordle 7, Quordle 9, Octordle 13).
MAX_BOARDS = 32
EXTRA_GUESSES = 5

# What parts a history entry's word from its colours: a colon, an equals sign or spaces.
_WORD_APART = re.compile(r"\s*[:=]\s*|\s+")

# User input quoted in a message is cut to this many characters.
MAX_QUOTED = 40


def quoted(text: str) -> str:
    """`text` as a message quotes it: repr, cut to MAX_QUOTED characters."""
    if len(text) <= MAX_QUOTED:
        return repr(text)
    return f"{text[:MAX_QUOTED]!r}... ({len(text)} characters)"


def score(guess: str, answer: str) -> str:
    """The feedback the game shows for `guess` when the hidden word is `answer` (any
    case; ValueError if their lengths differ)."""
    guess, answer = guess.lower(), answer.lower()
    if len(guess) != len(answer):
        raise ValueError(f"cannot score {guess!r} against {answer!r}: lengths differ")
    return feedback(guess, answer)


def feedback(guess: str, answer: str) -> str:
    """score for two lower-case words of one length, unchecked: a one-shot suggest filters
    the 2,315 answers through it.

    Greens first (each uses up its answer letter), then left to right a letter is
    yellow only while the answer still has an unused copy of it.
    """
    if guess == answer:
        return GREEN * len(guess)
    marks: list[str] = []
    unused: dict[str, int] = {}
    for g, a in zip(guess, answer, strict=True):
        if g == a:
            marks.append(GREEN)
        else:
            marks.append("")
            unused[a] = unused.get(a, 0) + 1
    for position, g in enumerate(guess):
        if not marks[position]:
            left = unused.get(g, 0)
            if left:
                marks[position] = YELLOW
                unused[g] = left - 1
            else:
                marks[position] = GREY
    return "".join(marks)


def pattern_code(feedback: str) -> int:
    """The integer code of a normalised feedback string ('GYBBB' -> 2 + 3)."""
    return sum(_MARK_DIGIT[mark] * 3**position for position, mark in enumerate(feedback))


def pattern_string(code: int, length: int = 5) -> str:
    """The feedback string of a pattern code (inverse of pattern_code)."""
    marks = []
    for _ in range(length):
        code, digit = divmod(code, 3)
        marks.append(_DIGIT_MARK[digit])
    return "".join(marks)


class HardModeBreak(NamedTuple):
    """How a guess breaks hard mode: a green `letter` not kept at `position`, or a revealed
    `letter` used fewer than `times` times (position None); `revealed_by` is the earlier
    guess that showed it."""

    letter: str
    position: int | None
    times: int
    revealed_by: str


class HardModeHints(NamedTuple):
    """What one feedback binds every later guess to in hard mode: each green letter at its
    position, and each revealed (green or yellow) letter as often as it was revealed."""

    greens: tuple[tuple[int, str], ...]  # (position, letter)
    counts: dict[str, int]


def hard_mode_hints(guess: str, feedback: str) -> HardModeHints:
    """The game's hard-mode rule for one (guess, feedback): the one place it is written.

    A later guess keeps every green letter in its place and uses every revealed letter
    at least as often as this feedback revealed it (hard_mode_break checks one word,
    Universe.hard_mode_mask every guess at once)."""
    guess = guess.lower()
    greens = tuple(
        (position, letter)
        for position, (letter, mark) in enumerate(zip(guess, feedback, strict=True))
        if mark == GREEN
    )
    counts = Counter(letter for letter, mark in zip(guess, feedback, strict=True) if mark != GREY)
    return HardModeHints(greens, dict(counts))


def hard_mode_break(history: Sequence[tuple[str, str]], guess: str) -> HardModeBreak | None:
    """The first way `guess` breaks hard mode after `history` (G/Y/B feedback); None if it
    may be played. Greens are checked first, as the game does (hard_mode_hints)."""
    guess = guess.strip().lower()
    hints = [(earlier.lower(), hard_mode_hints(earlier, feedback)) for earlier, feedback in history]
    for earlier, hint in hints:
        for position, letter in hint.greens:
            if guess[position : position + 1] != letter:
                return HardModeBreak(letter, position, 1, earlier)
    required: dict[str, tuple[int, str]] = {}  # the most any one guess revealed, and that guess
    for earlier, hint in hints:
        for letter, count in hint.counts.items():
            if count > required.get(letter, (0, ""))[0]:
                required[letter] = (count, earlier)
    for letter, (count, earlier) in required.items():
        if guess.count(letter) < count:
            return HardModeBreak(letter, None, count, earlier)
    return None


def hard_mode_violation(history: Sequence[tuple[str, str]], guess: str) -> str | None:
    """Why hard mode refuses `guess` after `history`, in the solver's words (hard_mode_break);
    None if it may be played."""
    broken = hard_mode_break(history, guess)
    if broken is None:
        return None
    letter, by = broken.letter.upper(), broken.revealed_by.upper()
    if broken.position is not None:
        return f"letter {broken.position + 1} must be {letter} (green in {by})"
    times = "" if broken.times == 1 else f" {broken.times} times"
    return f"the guess must use {letter}{times} (revealed by {by})"


def is_solved(feedback: str) -> bool:
    """Feedback that ends the game: every mark green."""
    return bool(feedback) and all(mark == GREEN for mark in feedback)


def solved_code(length: int = 5) -> int:
    """The code of all greens."""
    return 3**length - 1


def parse_feedback(text: str, length: int | None = None) -> str:
    """Normalise feedback typed or pasted by a person to G/Y/B letters.

    Accepts G/Y/B letters (any case), 2/1/0 digits and the emoji squares
    🟩🟨⬛⬜ (plus the high-contrast 🟧🟦). Raises ValueError saying what is wrong.
    """
    marks = []
    for position, character in enumerate(
        (c for c in text.strip() if c not in _IGNORED_CHARACTERS), start=1
    ):
        mark = _MARK_ALIASES.get(character.lower())
        if mark is None:
            raise ValueError(
                f"feedback {quoted(text.strip())}: {character!r} at position {position} "
                "is not a mark; "
                "use G/Y/B letters, 2/1/0 digits or 🟩🟨⬛ squares"
            )
        marks.append(mark)
    if not marks:
        raise ValueError("empty feedback: give one G/Y/B mark per letter")
    if length is not None and len(marks) != length:
        raise ValueError(
            f"feedback {quoted(text.strip())} has {len(marks)} marks, "
            f"expected {length} (one per letter)"
        )
    return "".join(marks)


def history_entries(
    text: str, form: str, error: type[ValueError] = ValueError
) -> Iterator[tuple[int, str, str, str]]:
    """The entries of a typed history, 'salet:BBYBB,courd:01000' (one board's or several
    boards'): (number, the entry's name for messages, its word lower-cased, what follows
    the colon).

    Entries are separated by commas (or semicolons / new lines); each is the word, then
    `form` after a colon, an equals sign or spaces, as `play` takes a line ('salet:bybbb',
    'salet bybbb'). Raises `error` naming an entry without its form or with a word that is
    not letters only."""
    entries = text.replace(";", ",").replace("\n", ",").split(",")
    for number, raw_entry in enumerate(entries, start=1):
        entry = raw_entry.strip()
        if not entry:
            continue
        word, *rest = _WORD_APART.split(entry, maxsplit=1)
        word = word.lower()
        where = f"history entry {number} {quoted(entry)}"
        if not rest:
            raise error(f"{where}: expected word:{form} or word {form}")
        if not word.isalpha():
            # Which letters the game's language has is the solver's check (it knows it).
            raise error(f"{where}: guess must be letters only")
        yield number, where, word, rest[0]


def parse_history(text: str) -> list[tuple[str, str]]:
    """Parse 'salet:BBYBB,courd:01000' into [(guess, feedback), ...] (normalised);
    errors name the offending entry (history_entries)."""
    history: list[tuple[str, str]] = []
    for number, _, word, feedback in history_entries(text, "feedback"):
        try:
            marks = parse_feedback(feedback, len(word))
        except ValueError as error:
            raise ValueError(f"history entry {number} (guess {quoted(word)}): {error}") from None
        history.append((word, marks))
    return history
