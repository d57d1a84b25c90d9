"""The history prior (`--prior history`): each accepted word's chance of being a day's
answer, from the answers played before that day.

Every accepted word is of one kind on a given day:

- `original`: never played, on the original game's 2,315 answers;
- `added`: never played, among the words the Times added to them (the 2023 list's);
- `repeat`: played before, once the Times runs repeats (from puzzle REPEATS_FROM);
- `other`: any other accepted word (before repeats, the played words too).

The shares are fitted on the puzzles before the day alone, nothing chosen by hand:

- the chance of a repeat is the share of repeats among the puzzles since repeats began,
  with half a pseudo-puzzle each way (Jeffreys), 0 before them;
- a new answer is drawn with a rate per word of each new kind, fitted by maximum
  likelihood (half a pseudo-answer per kind) on every earlier new answer against the
  words of each kind still unplayed that day: the kinds' shares follow their pools as
  the original list runs out;
- a repeat is drawn with weight (age / puzzle) ** beta, age the days since the word was
  last played: beta is averaged over its posterior (flat on beta_grid()) given the earlier
  repeats, so if age tells nothing (beta near 0) the repeats are equally likely.
"""

from __future__ import annotations

import datetime
import hashlib
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from epdle.solver.cache import cache_dir, lists_key, write_atomically
from epdle.solver.names import HISTORY_PRIOR
from epdle.words.history import Played, puzzle_number

TYPE_CHECKING = False
if TYPE_CHECKING:
    import numpy as np

# The Times announced in its Gameplay newsletter of 2026-01-28 that previously run words
# come back, and from 2026-02-02 (puzzle 1689, CIGAR) they do; it ran none before.
REPEATS_FROM = puzzle_number(datetime.date(2026, 2, 2))
KINDS = ("original", "added", "repeat", "other")
_NEW_KINDS = (0, 1, 3)  # indexes in KINDS of the never-played kinds
# The exponent of a repeat's relative age: a flat prior over this grid (beta_grid()).
BETA_POINTS = (0.0, 40.0, 161)
_RATE_ROUNDS = 500  # at most: the fit stops once the rates no longer move
PSEUDO = 0.5


@dataclass(frozen=True)
class HistoryPrior:
    """The prior of one day: weights over the guesses (summing to 1), each word's kind,
    and the share of each kind."""

    puzzle: int
    weights: np.ndarray
    kinds: np.ndarray  # index in KINDS per guess
    shares: dict[str, float]
    last: Played | None  # the newest answer it knew

    @property
    def days_behind(self) -> int:
        """The days before this one whose answers the history misses."""
        return days_behind(self.puzzle, self.last)

    def text(self) -> str:
        """How the words are weighted, and how old the history is, in words."""
        return weighting_text(self.puzzle, self.last)

    def signature(self) -> str:
        return hashlib.sha256(self.weights.round(12).tobytes()).hexdigest()[:10]


@cache
def beta_grid() -> np.ndarray:
    import numpy as np

    return np.linspace(*BETA_POINTS)


def weighting_text(puzzle: int, last: Played | None) -> str:
    """How a day's prior weighs the words, and how old its history is, in words."""
    return f"weighted by the answers before puzzle {puzzle} ({history_age(puzzle, last)})"


def prior_text(words: int, puzzle: int, last: Played | None) -> str:
    """The history prior by name, over `words` accepted words, in words."""
    return f"{HISTORY_PRIOR} ({words:,} words, {weighting_text(puzzle, last)})"


def answer_kinds(history: Sequence[Played]) -> list[str]:
    """Each answer's kind on its own day (KINDS), in puzzle order."""
    from epdle import words

    original = set(words.answers("original"))
    added = set(words.answers("nyt2023")) - original
    played: set[str] = set()
    kinds = []
    for answer in sorted(history):
        if answer.word in played:
            kind = 2 if answer.puzzle >= REPEATS_FROM else 3
        else:
            kind = 0 if answer.word in original else 1 if answer.word in added else 3
        kinds.append(KINDS[kind])
        played.add(answer.word)
    return kinds


def days_behind(puzzle: int, last: Played | None) -> int:
    """The days before `puzzle` whose answers a history ending at `last` misses."""
    return max(0, puzzle - 1 - (last.puzzle if last else -1))


def stale_note(puzzle: int, last: Played | None) -> str | None:
    """One line saying a history misses the days before `puzzle`, and how to bring it up
    to date; None when it has yesterday's answer."""
    if last is not None and last.puzzle >= puzzle - 1:
        return None
    ends = f"ends on {last.date} (puzzle {last.puzzle})" if last else "is empty"
    return (
        f"the answer history {ends}, {history_age(puzzle, last).split(', ')[-1]} today's "
        "puzzle: `epdle history add DATE WORD` or `epdle history import FILE` brings it up to date"
    )


def history_age(puzzle: int, last: Played | None) -> str:
    """How old a history is on a day's puzzle: 'up to date', or the days it misses."""
    if last is None:
        return "no answers known"
    missed = puzzle - 1 - last.puzzle
    if missed <= 0:
        return "history up to date"
    return f"history to {last.date}, {missed} day{'s' * (missed != 1)} behind"


def history_prior(
    guesses: Sequence[str], history: Sequence[Played], day: datetime.date
) -> HistoryPrior:
    """The prior of `day`'s puzzle over `guesses`, from the answers of `history` dated
    before it (later ones are never read): from the disk cache, where a suggestion of
    the same day and answers stored it, else fitted now and stored."""
    import numpy as np

    puzzle = puzzle_number(day)
    known = known_before(history, puzzle)
    path = prior_path(lists_key(guesses, []), known, puzzle)
    try:
        with np.load(path) as stored:
            weights, kinds = stored["weights"], stored["kinds"]
        if weights.shape == kinds.shape == (len(guesses),):
            return _prior(puzzle, weights, kinds, known)
    except (OSError, ValueError, KeyError):
        pass  # none yet, or unreadable: fitted again
    prior = _fitted(guesses, known, puzzle)

    def save(temporary: Path) -> None:
        with temporary.open("wb") as file:
            np.savez(file, weights=prior.weights, kinds=prior.kinds)

    with suppress(OSError):
        write_atomically(path, save)
    return prior


def known_before(history: Sequence[Played], puzzle: int) -> list[Played]:
    """The answers of `history` a puzzle's prior reads: those before it, in order."""
    return sorted(p for p in history if p.puzzle < puzzle)


def prior_path(guesses_key: str, known: Sequence[Played], puzzle: int) -> Path:
    """Where the prior of `puzzle` from the answers `known` (known_before) over the
    guesses of lists key `guesses_key` (cache.lists_key(guesses, [])) is cached."""
    text = "\n".join(p.line() for p in known) + f"\n{puzzle}\n{guesses_key}"
    return cache_dir() / f"history-prior-{hashlib.sha256(text.encode()).hexdigest()[:16]}.npz"


def _prior(
    puzzle: int, weights: np.ndarray, kinds: np.ndarray, known: list[Played]
) -> HistoryPrior:
    shares = {name: float(weights[kinds == k].sum()) for k, name in enumerate(KINDS)}
    return HistoryPrior(puzzle, weights, kinds, shares, known[-1] if known else None)


def _fitted(guesses: Sequence[str], known: list[Played], puzzle: int) -> HistoryPrior:
    """The prior of `puzzle` fitted on the answers `known` before it."""
    import numpy as np

    from epdle import words

    index = {word: i for i, word in enumerate(guesses)}
    original = set(words.answers("original"))
    added = set(words.answers("nyt2023")) - original
    kind_of_new = np.full(len(guesses), 3, dtype=np.int64)
    kind_of_new[[index[w] for w in original if w in index]] = 0
    kind_of_new[[index[w] for w in added if w in index]] = 1

    unplayed = np.bincount(kind_of_new, minlength=4).astype(np.float64)
    last_played = np.full(len(guesses), -1, dtype=np.int64)  # -1: never played
    # Per earlier new answer: the unplayed pool of each kind, and the answer's kind.
    pools: list[np.ndarray] = []
    seen = np.zeros(4)
    repeats = era = 0
    beta_log = np.zeros(len(beta_grid()))  # log likelihood of each beta, over the repeats
    for played in known:
        g = index.get(played.word)
        if g is None:
            continue
        in_era = played.puzzle >= REPEATS_FROM
        if last_played[g] >= 0:
            if in_era:
                repeats += 1
                beta_log += _repeat_log_likelihood(last_played, g, played.puzzle)
        else:
            pools.append(_pool(unplayed, last_played, in_era))
            seen[kind_of_new[g]] += 1
            unplayed[kind_of_new[g]] -= 1
        last_played[g] = played.puzzle
        era += in_era
    rates = _fit_rates(np.array(pools), seen)

    played_mask = last_played >= 0
    in_era = puzzle >= REPEATS_FROM
    kinds = kind_of_new.copy()
    kinds[played_mask] = 2 if in_era else 3
    repeat_share = (repeats + PSEUDO) / (era + 2 * PSEUDO) if in_era else 0.0
    weights = np.zeros(len(guesses))
    new = ~played_mask | (not in_era)
    weights[new] = rates[kinds[new]]
    weights[new] *= (1 - repeat_share) / weights[new].sum()
    if in_era and played_mask.any():
        weights[played_mask] = repeat_share * _repeat_weights(last_played, puzzle, beta_log)
    return _prior(puzzle, weights / weights.sum(), kinds, known)


def _pool(unplayed: np.ndarray, last_played: np.ndarray, in_era: bool) -> np.ndarray:
    """The never-played words of each kind that day (played words are `other` before
    repeats began)."""

    pool = unplayed.copy()
    if not in_era:
        pool[3] += int((last_played >= 0).sum())
    return pool


def _fit_rates(pools: np.ndarray, seen: np.ndarray) -> np.ndarray:
    """Per-word rate of each kind (original's 1), by maximum likelihood with PSEUDO
    answers more of each new kind: answer kind k on day s has chance
    rate_k / sum_j pool_j(s) rate_j."""
    import numpy as np

    rates = np.ones(4)
    rates[2] = 0.0
    if len(pools) == 0:
        return rates
    counts = seen + PSEUDO
    for _ in range(_RATE_ROUNDS):
        exposure = (pools / (pools @ rates)[:, None]).sum(axis=0)
        before = rates.copy()
        for k in _NEW_KINDS:
            rates[k] = counts[k] / exposure[k]
        rates /= rates[0]
        if np.allclose(rates, before, rtol=1e-10, atol=0.0):
            break
    return rates


def _relative_ages(last_played: np.ndarray, puzzle: int) -> np.ndarray:
    import numpy as np

    played = last_played[last_played >= 0]
    return np.maximum(puzzle - played, 1) / puzzle


def _repeat_log_likelihood(last_played: np.ndarray, word: int, puzzle: int) -> np.ndarray:
    """Per beta: the log chance that the repeat on `puzzle` was `word`."""
    import numpy as np

    ages = np.log(_relative_ages(last_played, puzzle))
    mine = np.log(max(puzzle - last_played[word], 1) / puzzle)
    scores = beta_grid()[:, None] * ages[None, :]
    top = scores.max(axis=1)
    return beta_grid() * mine - (top + np.log(np.exp(scores - top[:, None]).sum(axis=1)))


def _repeat_weights(last_played: np.ndarray, puzzle: int, beta_log: np.ndarray) -> np.ndarray:
    """Each played word's chance of being the repeat, averaged over beta's posterior."""
    import numpy as np

    posterior = np.exp(beta_log - beta_log.max())
    posterior /= posterior.sum()
    ages = np.log(_relative_ages(last_played, puzzle))
    scores = beta_grid()[:, None] * ages[None, :]
    each = np.exp(scores - scores.max(axis=1, keepdims=True))
    each /= each.sum(axis=1, keepdims=True)
    return posterior @ each
