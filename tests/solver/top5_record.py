"""The recorded top-5 suggestions: 1,245 histories of every strategy in both modes on the
original lists, each with the five guesses the Solver ranks first and the candidates
left. The recording (top5_record.txt) was made when equal guesses came to be listed the
more common word first (it held byte for byte through the solver's modules redrawn before
that); test_top5_record.py holds the solver to it, byte for byte.

Regenerate (only when the solver's answers are meant to change):
    .venv/bin/python tests/solver/top5_record.py > tests/solver/top5_record.txt
"""

from __future__ import annotations

import random
import sys

from epdle import words
from epdle.solver import Solver, score
from epdle.solver.scoring import is_solved
from epdle.solver.universe import Universe

# (strategy, hard) -> how many histories; 1,245 in all.
PLAN = {
    ("best", False): 420,
    ("best", True): 300,
    ("entropy", False): 150,
    ("expected", False): 125,
    ("minimax", True): 125,
    ("freq", False): 125,
}
TOP = 5
# The recording is of the original lists, named: not of whichever list the game starts from.
LISTS = "original"


def recorded_solver(strategy: str, hard: bool) -> Solver:
    return Solver(strategy, hard, universe=Universe.shipped(lists=LISTS))


def history_text(history: list[tuple[str, str]]) -> str:
    return ",".join(f"{guess}:{feedback}" for guess, feedback in history) or "-"


def parse_history_text(text: str) -> list[tuple[str, str]]:
    if text == "-":
        return []
    return [(turn.split(":")[0], turn.split(":")[1]) for turn in text.split(",")]


def record_line(solver: Solver, history: list[tuple[str, str]]) -> str:
    """One line of the recording: mode, history, candidates left, the top guesses."""
    advice = solver.advise(history, top=TOP)
    mode = f"{solver.strategy} {'hard' if solver.hard else 'normal'}"
    shown = advice.answer if advice.solved else ",".join(s.word for s in advice.suggestions)
    return f"{mode} {history_text(history)} {advice.candidates_left} {shown}"


def histories(solver: Solver, count: int, seed: int) -> list[list[tuple[str, str]]]:
    """Every turn of games the solver plays against random answers, half of them from a
    random accepted first guess (off the shipped tree), until `count` distinct ones."""
    sample = random.Random(seed)
    answers = list(words.answers(LISTS))
    found: dict[str, list[tuple[str, str]]] = {}
    while len(found) < count:
        answer = sample.choice(answers)
        history: list[tuple[str, str]] = []
        if sample.random() < 0.5:
            opener = sample.choice(solver.universe.guesses)
            history = [(opener, score(opener, answer))]
        while len(found) < count:
            found.setdefault(history_text(history), list(history))
            if history and is_solved(history[-1][1]):
                break
            guess = solver.advise(history, top=1).suggestions[0].word
            history = [*history, (guess, score(guess, answer))]
    return list(found.values())


def main() -> int:
    for seed, ((strategy, hard), count) in enumerate(PLAN.items()):
        solver = recorded_solver(strategy, hard)
        for history in histories(solver, count, seed):
            print(record_line(solver, history))
    return 0


if __name__ == "__main__":
    sys.exit(main())
