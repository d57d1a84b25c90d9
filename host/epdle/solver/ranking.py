"""The one-ply rankings: letter frequency (freq) and one guess ahead (entropy, expected,
minimax), for one game state. `best` ranks in epdle.solver.policy."""

from __future__ import annotations

import numpy as np

from epdle.solver.settings import RANKED_KEPT
from epdle.solver.state import GameState
from epdle.solver.strategies import freq_choice, guess_stats, rank_one_ply
from epdle.solver.universe import Universe

# A long-running daemon plays game after game: the per-state memos keep the states used
# most recently, at most this many (a game visits about six).
RANKED_MEMO_LIMIT = 2048


class BoundedMemo(dict[bytes, list[int]]):
    """A dict that forgets its oldest entries beyond `limit`."""

    def __init__(self, limit: int = RANKED_MEMO_LIMIT) -> None:
        super().__init__()
        self.limit = limit

    def __setitem__(self, key: bytes, value: list[int]) -> None:
        super().__setitem__(key, value)
        while len(self) > self.limit:
            del self[next(iter(self))]


def likelier_first(universe: Universe, candidates: np.ndarray) -> list[int]:
    """Two candidates or fewer: guess one, the likelier first (ties keep list order)."""
    order = np.argsort(-universe.weights[candidates], kind="stable")
    return [universe.guess_index[universe.answers[candidates[i]]] for i in order]


def allowed_guesses(state: GameState) -> np.ndarray | None:
    """Hard mode: the indexes of the guesses the hints allow; None: every guess."""
    return None if state.allowed is None else np.flatnonzero(state.allowed)


def one_ply_ranked(universe: Universe, strategy: str, state: GameState) -> list[int]:
    """entropy / expected / minimax: the guesses by their one-ply statistic, best first."""
    candidates = state.candidates
    if len(candidates) <= 2:
        return likelier_first(universe, candidates)
    stats = guess_stats(universe, candidates, allowed_guesses(state))
    order = rank_one_ply(strategy, stats)
    return [int(stats.guesses[i]) for i in order[:RANKED_KEPT]]


def freq_ranked(universe: Universe, state: GameState) -> list[int]:
    """freq: the letter-frequency rule's guesses, best first."""
    opening = not state.history
    return freq_choice(universe, state.candidates, state.allowed, opening, state.yellow_letters())
