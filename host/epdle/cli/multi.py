"""`suggest --boards N` and `bench --boards N`: the commands for several boards at once."""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import TYPE_CHECKING

from epdle.cli.errors import UsageError
from epdle.cli.options import progress_bar
from epdle.cli.tables import print_bench
from epdle.solver.multi import MultiHistoryError, guess_limit, parse_multi_history
from epdle.solver.names import mode_name, prior_name
from epdle.words.languages import display_word

if TYPE_CHECKING:
    from epdle.session.spec import GameSpec
    from epdle.solver.multi import MultiAdvice, MultiSolver
    from epdle.solver.multi.bench import MultiBenchResult
    from epdle.solver.universe import Universe

# A board's candidates are listed in the text when at most this many are left.
LISTED_IN_TEXT = 6


def run_multi_suggest(spec: GameSpec, history_text: str, as_json: bool) -> int:
    from epdle.session.spec import widen_past_list
    from epdle.session.terminal import BOARDS_SUM, MULTI_RANKED_BY, boards_sum, columns_text

    history = parse_multi_history(history_text, spec.boards)
    first = spec.multi_solver()

    def advise(wide: bool) -> tuple[MultiAdvice, MultiSolver]:
        solver = spec.in_mode(spec.hard, True).multi_solver() if wide else first
        return solver.advise(history, top=spec.top), solver

    # A board's answer may be outside the list: every accepted word, as `play`.
    (advice, solver), widened = widen_past_list(
        advise, not first.blind and spec.widens, lambda: MultiHistoryError
    )
    if widened:
        from epdle.session.game import widened_note

        print(f"epdle suggest: note: {widened_note(spec.lists)}", file=sys.stderr)
    if as_json:
        print(json.dumps(multi_advice_json(advice, solver)))
        return 0
    if advice.solved:
        print(f"Solved every board in {advice.guesses_used}")
    elif advice.lost:
        print(f"Lost: the {solver.max_guesses} guesses are used")
    else:
        rows = [("#", "guess", BOARDS_SUM, "expected guesses", "may solve board")]
        for rank, suggestion in enumerate(advice.suggestions, start=1):
            boards = ", ".join(str(board + 1) for board in suggestion.solves) or "-"
            word = display_word(suggestion.word)
            expected = f"{suggestion.expected_guesses:.2f}"
            rows.append((str(rank), word, boards_sum(suggestion), expected, boards))
        print(f"{spec.boards} boards: guess {advice.guesses_used + 1} of {solver.max_guesses}")
        print(f"ranked by {MULTI_RANKED_BY}")
        print(columns_text(rows, (str.rjust, str.ljust, str.rjust, str.rjust, str.rjust)))
    for number, board in enumerate(advice.boards, start=1):
        if board.answer is not None:
            line = f"board {number}: solved in {board.solved_in} ({display_word(board.answer)})"
        else:
            line = f"board {number}: {board.candidates_left} left"
            if board.candidates_left <= LISTED_IN_TEXT:
                line += ": " + ", ".join(display_word(word) for word in board.candidates)
        print(line)
    return 0


def multi_advice_json(advice: MultiAdvice, solver: MultiSolver) -> dict[str, object]:
    """Everything the text shows; boards are numbered from 1 as in the text."""
    return {
        "boards": solver.boards,
        "hard": solver.hard,
        "blind": solver.blind,
        "prior": prior_name(solver.blind),
        "guess_limit": solver.max_guesses,
        "guesses_used": advice.guesses_used,
        "guesses_left": advice.guesses_left,
        "solved": advice.solved,
        "lost": advice.lost,
        "suggestions": [
            {
                "rank": rank,
                "word": s.word,
                "expected_guesses": round(s.expected_guesses, 4),
                "board_guesses": None if s.board_guesses is None else round(s.board_guesses, 4),
                "solves": [board + 1 for board in s.solves],
            }
            for rank, s in enumerate(advice.suggestions, start=1)
        ],
        "board_states": [
            {
                "board": number,
                "solved_in": board.solved_in,
                "candidates_left": board.candidates_left,
                "candidates": board.candidates,
            }
            for number, board in enumerate(advice.boards, start=1)
        ],
    }


def read_games(path: str, boards: int, universe: Universe) -> list[list[str]]:
    """A games file: one game a line, its `boards` hidden words comma-separated (at most
    words.MAX_LIST_BYTES, as a word list)."""
    from epdle.words.parse import read_limited

    with open(path, "rb") as handle:
        data = read_limited(handle, f"games file {path}")
    try:
        lines = data.decode("utf-8").splitlines()
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a text file (UTF-8)") from None
    candidates = set(universe.answers)
    games = []
    for number, line in enumerate(lines, start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        game = [universe.lang.fold(word.strip().lower()) for word in line.split(",")]
        if len(game) != boards:
            raise ValueError(
                f"{path} line {number}: {len(game)} words, expected {boards} (one per board)"
            )
        for word in game:
            if word not in candidates:
                raise ValueError(f"{path} line {number}: {word!r} is not a candidate word")
        games.append(game)
    if not games:
        raise ValueError(f"{path}: no game in it (one game a line, words comma-separated)")
    return games


def run_multi_bench(spec: GameSpec, args: argparse.Namespace) -> int:
    from epdle import words
    from epdle.solver.multi.bench import run_bench, sample_games

    if args.latency:
        raise UsageError("--latency times one board; leave out --boards")
    if (args.limit is None) == (args.games is None):
        raise UsageError("--boards: give --limit G (a seeded sample of G games) or --games FILE")
    started = time.perf_counter()
    universe = spec.universe()
    solver = spec.multi_solver(universe)
    if args.games is not None:
        games = read_games(args.games, spec.boards, universe)
    else:
        shipped = not (spec.answers or spec.dictionary)
        pool = list(words.answers(spec.lists)) if shipped else list(universe.answers)
        games = sample_games(pool, spec.boards, args.limit, args.seed)
    with progress_bar(f"bench {spec.boards} boards") as progress:
        result = run_bench(solver, games, progress, started)
    if args.plot:
        from epdle.solver.multi.picture import plot_multi_histogram

        plot_multi_histogram(result, args.plot)
    if args.json:
        print(json.dumps(result.as_json()))
        return 0
    print_multi_bench(result)
    return 0


def print_multi_bench(result: MultiBenchResult) -> None:
    from epdle.solver.multi.picture import game_name

    mode = mode_name(result.hard, result.blind)
    print_bench(
        f"bench: {game_name(result.boards)} ({mode}), first guess {result.first_guess}",
        f"lost (>{guess_limit(result.boards)})",
        (result.games, result.mean, result.max, result.lost, result.seconds),
        result.histogram,
    )
