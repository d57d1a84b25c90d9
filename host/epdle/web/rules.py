"""Hard mode as the page words it: the game's reason a played guess is refused.

The solver's hard mode narrows its own suggestions but accepts any played guess, so
the page checks a played guess with the solver's rule (scoring.hard_mode_break).
"""

from __future__ import annotations

from collections.abc import Sequence

from epdle.solver.scoring import hard_mode_break

_NUMBER_WORDS = {2: "two", 3: "three", 4: "four", 5: "five"}


def ordinal(number: int) -> str:
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def hard_mode_refusal(history: Sequence[tuple[str, str]], guess: str) -> str | None:
    """Why `guess` breaks hard mode after `history` (G/Y/B feedback), in the page's words;
    None if it may be played. The rule is the solver's (hard_mode_break)."""
    broken = hard_mode_break(history, guess)
    if broken is None:
        return None
    letter = broken.letter.upper()
    if broken.position is not None:
        return f"the {ordinal(broken.position + 1)} letter must be {letter}"
    if broken.times == 1:
        return f"the guess must contain {letter}"
    return f"the guess must contain {_NUMBER_WORDS.get(broken.times, broken.times)} {letter}s"
