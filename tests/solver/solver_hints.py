"""Hard mode as the game checks it, written independently of the solver's own check."""

from __future__ import annotations

from collections import Counter


def obeys_hints(guess: str, history: list[tuple[str, str]]) -> bool:
    """Greens stay in place and every revealed letter is reused (as often as revealed)."""
    for earlier, feedback in history:
        needed: Counter[str] = Counter()
        for position, (letter, mark) in enumerate(zip(earlier, feedback, strict=True)):
            if mark == "G" and guess[position] != letter:
                return False
            if mark != "B":
                needed[letter] += 1
        if any(guess.count(letter) < count for letter, count in needed.items()):
            return False
    return True
