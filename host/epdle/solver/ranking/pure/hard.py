"""Hard mode without numpy: the guesses a history's hints allow (Universe.hard_mode_mask),
and the trapped share of a feedback split. The rule itself is scoring.hard_mode_hints."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import compress

from epdle.solver.scoring import HardModeHints, hard_mode_break, hard_mode_hints, pattern_string
from epdle.solver.settings import pinned_feedbacks

# Hard mode: the guesses the hints allow (sorted indexes); None: every guess.
Allowed = tuple[int, ...] | None


def allowed_after(hints: HardModeHints, words: Sequence[str], among: Iterable[int]) -> list[int]:
    """The guesses of `among` (indexes into `words`, order kept) that keep the hints: each
    green in its place, each revealed letter as often (one pass per hint: the first
    leaves few words for the rest)."""
    kept = list(among)
    for position, letter in hints.greens:
        kept = [g for g in kept if words[g][position] == letter]
    for letter, count in hints.counts.items():
        kept = [g for g in kept if words[g].count(letter) >= count]
    return kept


def history_allowed(
    history: Sequence[tuple[str, str]], words: Sequence[str]
) -> tuple[int, ...] | None:
    """The guesses (indexes) hard mode allows after `history`; None if a guess of the
    history broke the rule (the Solver says how)."""
    kept: Iterable[int] = range(len(words))
    for turn, (guess, feedback) in enumerate(history):
        if hard_mode_break(history[:turn], guess) is not None:
            return None
        kept = allowed_after(hard_mode_hints(guess, feedback), words, kept)
    return tuple(kept)


def after_feedback(guess: str, code: int, words: Sequence[str], among: Iterable[int]) -> list[int]:
    """The guesses of `among` hard mode allows after `guess` got feedback `code`."""
    return allowed_after(hard_mode_hints(guess, pattern_string(code, len(guess))), words, among)


_DIGIT_VALUES = bytes.maketrans(b"01", b"\x00\x01")


class PoolHints:
    """Which pool guesses (by position) keep a (guess, feedback)'s hints, as the bits of
    one integer: per hint (a letter at a position, a letter at least so many times) the
    pool words that keep it, found once, so a look-ahead bucket's hints cost a few ANDs."""

    def __init__(self, words: Sequence[str], pool: Sequence[int]) -> None:
        self._spelled = [words[g] for g in pool]
        self._kept: dict[tuple[int, str] | tuple[str, int], int] = {}

    def _words_with(self, hint: tuple[int, str] | tuple[str, int]) -> int:
        kept = self._kept.get(hint)
        if kept is None:
            if isinstance(hint[0], int):  # (position, letter)
                position, letter = hint
                marks = ["1" if word[position] == letter else "0" for word in self._spelled]
            else:  # (letter, copies)
                letter, copies = hint
                marks = ["1" if word.count(letter) >= copies else "0" for word in self._spelled]
            kept = self._kept[hint] = int("".join(reversed(marks)) or "0", 2)
        return kept

    def followers(self, guess: str, code: int) -> list[int]:
        """The positions of the pool guesses that may follow `guess` with feedback `code`."""
        hints = hard_mode_hints(guess, pattern_string(code, len(guess)))
        kept = (1 << len(self._spelled)) - 1
        for green in hints.greens:
            kept &= self._words_with(green)
        for revealed in hints.counts.items():
            kept &= self._words_with(revealed)
        marks = bin(kept)[:1:-1].encode().translate(_DIGIT_VALUES)  # lowest position first
        return list(compress(range(len(marks)), marks))


def trapped(sizes: dict[int, int], larger_than: int, length: int) -> int:
    """How many words a split (code: bucket size) leaves in families its greens pin down
    (all letters but one green) larger than `larger_than`."""
    pinned = pinned_feedbacks(length)
    return sum(size for code, size in sizes.items() if size > larger_than and pinned[code])
