"""The guess limit: which guesses still let every answer be found in time.

A game allows GAME_GUESSES guesses. With `left` guesses to go (this one included), a
guess splits the candidates by the feedback it gets; each part must then be found
within `left - 1` guesses. The rule, per part of `size` words with `k` guesses after
the guess:

- `size <= k`: it can (its words one at a time; each obeys every hint);
- `k <= 1`: it cannot (one guess finds one word): on the last guess only a candidate
  can win;
- hard mode, a part whose feedback has all letters but one green (a family such as
  _IGHT): it cannot, since every later guess keeps those greens and rules out one word;
- `k == 2`: it can exactly when some guess the hints allow tells its words apart (a
  word of the part that does is found here; the Solver asks FinishCheck for any other);
- `k >= 3`, any other part: taken as finishable (a bound: it lets through a guess
  after which such a part could not be finished; deciding it would take a search of
  every part of every guess checked).

Blind (every accepted word a candidate, weighted by its prior), only the last guess is
kept to candidates: before it `best` weighs the rare words against the likely ones
itself (epdle.solver.ranking.best: the rare-word guard, the hedge, the narrowing), and a rule
that kept every rare word within reach would overrule those measured choices.

The guard looks at states with at most LOOKED_AT candidates. Where the leading ranked
guesses (the first CHECKED) are all safe it changes nothing; otherwise only those that
leave the least weight out of reach are offered (a guess FinishCheck finds to keep every
candidate within reach, when none of them does), and on the last guess only candidates.

This module is pure Python: the fast path (epdle.solver.ranking) checks the guesses it
would show here and leaves the turn to the Solver (epdle.solver.engine, LimitGuard)
whenever the guard would change them.
"""

from __future__ import annotations

from collections.abc import Sequence

from epdle.solver.scoring import GAME_GUESSES, feedback

# The guard looks at states with at most this many candidates (the words Advice lists).
LOOKED_AT = 100
# The leading ranked guesses it checks (the book's depth: `--top` up to this).
CHECKED = 10
# The review: a game lost by a guess costs this many guesses (outweighs any saving).
LOST = 100.0


def guesses_left(played: int, limit: int = GAME_GUESSES) -> int:
    """The guesses still allowed, the next one included, after `played` guesses."""
    return limit - played


def part_verdict(size: int, pinned: bool, hard: bool, after: int) -> bool | None:
    """Whether a part of `size` words can be found within `after` guesses (the module's
    rule; `pinned`: its feedback has all letters but one green); None: only when a guess
    telling its words apart exists (two guesses left)."""
    if size <= after:
        return True
    if after <= 1 or (hard and pinned):
        return False
    return None if after == 2 else True


def is_pinned(marks: str) -> bool:
    return marks.count("G") == len(marks) - 1


def told_apart(words: Sequence[str]) -> bool:
    """Whether a word of `words` tells all of them apart by its feedback."""
    return any(len({feedback(guess, word) for word in words}) == len(words) for guess in words)


def shown_unchanged(
    shown: Sequence[str], candidates: Sequence[str], played: int, hard: bool
) -> bool:
    """Whether the guard leaves these leading guesses (words, best first) as they are: each
    keeps every candidate (all of them, equally likely) within reach, or on the last
    guess each is a candidate. False also where it cannot tell here (the Solver decides)."""
    left = guesses_left(played)
    if left < 1 or len(candidates) > LOOKED_AT or len(candidates) <= 1:
        return True
    if left == 1:
        return set(shown) <= set(candidates)
    return all(out_of_reach(guess, candidates, left, hard) == 0 for guess in shown)


def out_of_reach(guess: str, candidates: Sequence[str], left: int, hard: bool) -> int | None:
    """How many of the candidates (equally likely) `guess` leaves where they cannot all be
    found in time, with `left` guesses to go (this one included, at least two); None
    where it cannot tell here (a part no word of it tells apart: FinishCheck's turn)."""
    parts: dict[str, list[str]] = {}
    for word in candidates:
        parts.setdefault(feedback(guess, word), []).append(word)
    lost = 0
    for marks, part in parts.items():
        if marks == "G" * len(marks):
            continue
        verdict = part_verdict(len(part), is_pinned(marks), hard, left - 1)
        if verdict is None and not told_apart(part):
            return None
        if verdict is False:
            lost += len(part)
    return lost
