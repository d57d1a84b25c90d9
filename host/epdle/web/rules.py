"""Hard mode as the game enforces it: every revealed hint must be used in the next guesses.

The solver's hard mode narrows its own suggestions but accepts any played guess, so
the page checks a played guess here, with the game's reason when it is refused.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five"}


def ordinal(number: int) -> str:
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def hard_mode_refusal(history: Sequence[tuple[str, str]], guess: str) -> str | None:
    """Why `guess` breaks hard mode after `history` (G/Y/B feedback), or None if it may be played.

    Greens must stay in place, and every letter revealed (green or yellow) must be in the
    guess, as many times as one earlier guess revealed it. Greens are checked first, as
    the game does.
    """
    guess = guess.strip().lower()
    for word, feedback in history:
        for position, (letter, mark) in enumerate(zip(word.lower(), feedback, strict=True)):
            if mark == "G" and guess[position : position + 1] != letter:
                return f"the {ordinal(position + 1)} letter must be {letter.upper()}"
    required: Counter[str] = Counter()
    for word, feedback in history:
        revealed = Counter(
            letter for letter, mark in zip(word.lower(), feedback, strict=True) if mark != "B"
        )
        required |= revealed  # the most any one guess revealed
    have = Counter(guess)
    for letter, count in required.items():
        if have[letter] < count:
            if count == 1:
                return f"the guess must contain {letter.upper()}"
            return f"the guess must contain {_NUMBER_WORDS.get(count, count)} {letter.upper()}s"
    return None
