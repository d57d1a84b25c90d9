"""Hard mode without numpy: the guesses a history's hints allow (Universe.hard_mode_mask),
and the trapped share of a feedback split. The rule itself is scoring.hard_mode_hints."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

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


def follower(
    guess: str, code: int, words: Sequence[str], pool: Sequence[int]
) -> Callable[[int], bool]:
    """Whether the pool guess at a position may follow `guess` with feedback `code` (asked
    of the few guesses a look-ahead bucket tries, not of the whole pool)."""
    hints = hard_mode_hints(guess, pattern_string(code, len(guess)))
    return lambda position: bool(allowed_after(hints, words, (pool[position],)))


def trapped(sizes: dict[int, int], larger_than: int, length: int) -> int:
    """How many words a split (code: bucket size) leaves in families its greens pin down
    (all letters but one green) larger than `larger_than`."""
    pinned = pinned_feedbacks(length)
    return sum(size for code, size in sizes.items() if size > larger_than and pinned[code])
