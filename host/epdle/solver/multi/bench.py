"""Benchmarks of the multi-board solver: games of N hidden words, guesses per game."""

from __future__ import annotations

import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from epdle.solver.multi.engine import MultiSolver
from epdle.solver.multi.history import guess_limit
from epdle.solver.scoring import score


@dataclass
class MultiBenchResult:
    boards: int
    hard: bool
    blind: bool
    games: int
    mean: float
    max: int
    lost: int  # games with a board still open at the guess limit
    histogram: dict[int, int]  # guesses -> games (lost games at the limit + 1)
    seconds: float
    first_guess: str
    per_game: list[int]  # guesses of each game, in order (limit + 1 when lost)

    def as_json(self) -> dict[str, object]:
        return {
            "boards": self.boards,
            "guess_limit": guess_limit(self.boards),
            "hard": self.hard,
            "blind": self.blind,
            "games": self.games,
            "mean": round(self.mean, 4),
            "max": self.max,
            "lost": self.lost,
            "histogram": {str(turns): count for turns, count in self.histogram.items()},
            "seconds": round(self.seconds, 2),
            "first_guess": self.first_guess,
        }


def sample_games(answers: Sequence[str], boards: int, count: int, seed: int) -> list[list[str]]:
    """`count` games of `boards` different hidden words drawn from `answers` (seeded)."""
    if len(answers) < boards:
        raise ValueError(
            f"{boards} boards need {boards} different answers, the list has {len(answers)}"
        )
    chooser = random.Random(seed)
    return [chooser.sample(list(answers), boards) for _ in range(count)]


def play_game(solver: MultiSolver, hidden: Sequence[str]) -> int:
    """Guesses the solver takes to solve every board (max_guesses + 1 when it loses)."""
    state = solver.initial_state()
    while state.open_boards():
        if state.used >= solver.max_guesses:
            return solver.max_guesses + 1
        guess = solver.next_guess(state)
        feedbacks = [
            None if board.solved_in is not None else score(guess, answer)
            for board, answer in zip(state.boards, hidden, strict=True)
        ]
        state = solver.apply(state, guess, feedbacks)
    return state.used


def run_bench(
    solver: MultiSolver,
    games: Sequence[Sequence[str]],
    progress: Callable[[int, int], None] | None = None,
    started: float | None = None,
) -> MultiBenchResult:
    started = time.perf_counter() if started is None else started
    counts = []
    for number, hidden in enumerate(games, start=1):
        counts.append(play_game(solver, hidden))
        if progress is not None:
            progress(number, len(games))
    histogram = dict(sorted(Counter(counts).items()))
    return MultiBenchResult(
        boards=solver.boards,
        hard=solver.hard,
        blind=solver.blind,
        games=len(counts),
        mean=sum(counts) / len(counts) if counts else 0.0,
        max=max(counts, default=0),
        lost=sum(count > solver.max_guesses for count in counts),
        histogram=histogram,
        seconds=time.perf_counter() - started,
        first_guess=solver.next_guess(solver.initial_state()),
        per_game=counts,
    )
