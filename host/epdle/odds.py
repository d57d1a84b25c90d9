"""A guess's chance to win, as every view words it: shown on the last guesses only.

No imports: the solver's tables, the page's state and the panel's frames all read it.
"""

from __future__ import annotations

# The last guesses, where a word that could win shows its chance: at most this many
# candidates left, or the game's last guess (LAST_PLAYED guesses played, the game's
# limit less one: epdle.solver.scoring.GAME_GUESSES, a test holds them together).
CHANCE_SHOWN_LEFT = 10
LAST_PLAYED = 5


def chance_shown(candidates_left: int, played: int) -> bool:
    """Whether the chance to win matters enough to show: the last guesses, with several
    candidates left (one left is "the answer")."""
    last = played >= LAST_PLAYED
    return candidates_left > 1 and (candidates_left <= CHANCE_SHOWN_LEFT or last)


def chance_text(chance: float) -> str:
    """A guess's chance to win as a player reads it: "1 in 4" where it is one in a whole
    number (equally likely candidates), else "37 %" ("" when it cannot win)."""
    if chance <= 0:
        return ""
    odds = 1.0 / chance
    if abs(odds - round(odds)) < 1e-6:
        return f"1 in {round(odds)}"
    return f"{min(99, max(1, round(100 * chance)))} %"
