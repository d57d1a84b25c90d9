"""CLI commands: `suggest` (next-guess advice) and `bench` (play every answer)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from epdle.solver.scoring import parse_history

if TYPE_CHECKING:
    from epdle.solver.universe import Universe


def register(commands: argparse._SubParsersAction) -> None:
    """Add this module's subcommands to the `epdle` parser."""
    from epdle.solver.engine import DEFAULT_STRATEGY, STRATEGIES

    suggest = commands.add_parser(
        "suggest",
        help="rank the next guesses for a game so far",
        description="Rank the next guesses. History: 'salet:BBYBB,crony:21000' "
        "(feedback as G/Y/B letters, 2/1/0 digits or emoji squares).",
    )
    suggest.add_argument("--history", default="", help="guesses so far, word:feedback,...")
    suggest.add_argument("--top", type=int, default=5, help="how many suggestions (default 5)")
    _add_solver_options(suggest, STRATEGIES, DEFAULT_STRATEGY)
    suggest.set_defaults(func=run_suggest)

    bench = commands.add_parser(
        "bench",
        help="play every answer and report the guess counts",
        description="Play every hidden word with one strategy; print a summary table.",
    )
    bench.add_argument("--limit", type=int, help="play only the first N hidden words")
    _add_solver_options(bench, STRATEGIES, DEFAULT_STRATEGY)
    bench.set_defaults(func=run_bench)


def _add_solver_options(
    parser: argparse.ArgumentParser, strategies: tuple[str, ...], default: str
) -> None:
    parser.add_argument("--strategy", choices=strategies, default=default)
    parser.add_argument("--hard", action="store_true", help="hard mode: reuse every hint")
    parser.add_argument(
        "--blind",
        action="store_true",
        help="no answer list: every accepted word is a candidate, weighted by word frequency",
    )
    parser.add_argument("--answers", help="answer list file (one word a line)")
    parser.add_argument("--guesses", help="accepted-guess list file (one word a line)")
    parser.add_argument(
        "--keep-plurals", action="store_true", help="do not demote plurals (blind/tiers)"
    )
    parser.add_argument(
        "--language",
        help="play another language or length from wordfreq's lists (needs epdle[wordfreq])",
    )
    parser.add_argument(
        "--length", type=int, default=5, help="word length (not 5: wordfreq's words, blind)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _fail(command: str, message: str) -> int:
    print(f"epdle {command}: error: {message}", file=sys.stderr)
    return 2


@contextmanager
def _progress(description: str) -> Iterator[Callable[[int, int], None] | None]:
    """A rich progress bar on a terminal; nothing when output is piped."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        tasks: dict[str, int] = {}

        def update(done: int, total: int, label: str = description) -> None:
            if label not in tasks:
                tasks[label] = bar.add_task(label, total=total)
            bar.update(tasks[label], completed=done, total=total)

        yield update


def _universe(args: argparse.Namespace) -> Universe:
    from epdle import words
    from epdle.solver.universe import Universe

    if args.language or args.length != 5:
        # Other lengths and languages: wordfreq's words, played blind under its prior.
        language = args.language or "en"
        vocabulary = words.language_words(language, args.length)
        guess_words = words.read_word_file(args.guesses) if args.guesses else vocabulary
        return Universe(guess_words, None, language=language, keep_plurals=args.keep_plurals)
    guess_words = words.read_word_file(args.guesses) if args.guesses else list(words.guesses())
    answer_words = words.read_word_file(args.answers) if args.answers else list(words.answers())
    if args.blind:
        return Universe(guess_words, None, keep_plurals=args.keep_plurals)
    return Universe(guess_words, answer_words, keep_plurals=args.keep_plurals)


def run_suggest(args: argparse.Namespace) -> int:
    from epdle.solver.engine import Solver

    try:
        history = parse_history(args.history)
        with _progress("building the best tree") as progress:
            solver = Solver(args.strategy, args.hard, universe=_universe(args), progress=progress)
            advice = solver.advise(history, top=args.top)
    except ValueError as error:
        return _fail("suggest", str(error))
    if args.json:
        print(
            json.dumps(
                {
                    "candidates_left": advice.candidates_left,
                    "solved": advice.solved,
                    "suggestions": [
                        {
                            "word": s.word,
                            "bits": round(s.bits, 4),
                            "expected_left": round(s.expected_left, 4),
                            "is_candidate": s.is_candidate,
                        }
                        for s in advice.suggestions
                    ],
                }
            )
        )
        return 0
    from rich.console import Console
    from rich.table import Table

    console = Console()
    if advice.solved:
        console.print(f"Solved: {advice.candidates[0].upper()}")
        return 0
    table = Table(title=f"{advice.candidates_left} candidates left ({args.strategy})")
    for column in ("#", "guess", "bits", "expected left", "candidate"):
        table.add_column(column, justify="left" if column == "guess" else "right")
    for rank, s in enumerate(advice.suggestions, start=1):
        mark = "yes" if s.is_candidate else ""
        table.add_row(str(rank), s.word.upper(), f"{s.bits:.3f}", f"{s.expected_left:.2f}", mark)
    console.print(table)
    if advice.candidates_left <= 12:
        console.print("candidates: " + " ".join(w.upper() for w in advice.candidates))
    return 0


def run_bench(args: argparse.Namespace) -> int:
    from epdle import words
    from epdle.solver.bench import run_bench as play_all
    from epdle.solver.engine import Solver

    started = time.perf_counter()
    try:
        if args.limit is not None and args.limit < 1:
            raise ValueError("--limit must be at least 1")
        universe = _universe(args)
        if args.answers:
            hidden = words.read_word_file(args.answers)
        elif args.language or args.length != 5:
            hidden = universe.answers
        else:
            hidden = list(words.answers())
        hidden = hidden[: args.limit] if args.limit else hidden
        with _progress("building the best tree") as tree_progress:
            solver = Solver(args.strategy, args.hard, universe=universe, progress=tree_progress)
            if args.strategy == "best":
                solver.next_guess(solver.initial_state())
        with _progress(f"bench {args.strategy}") as progress:
            result = play_all(solver, hidden, progress, started)
    except ValueError as error:
        return _fail("bench", str(error))
    if args.json:
        print(json.dumps(result.as_json()))
        return 0
    from rich.console import Console
    from rich.table import Table

    mode = ("hard" if result.hard else "normal") + (", blind" if result.blind else "")
    table = Table(title=f"bench: {result.strategy} ({mode}), first guess {result.first_guess}")
    for column in ("games", "mean", "max", "failures (>6)", "seconds"):
        table.add_column(column, justify="right")
    table.add_row(
        str(result.games),
        f"{result.mean:.4f}",
        str(result.max),
        str(result.failures),
        f"{result.seconds:.1f}",
    )
    histogram = Table(title="guesses per game")
    for turns in result.histogram:
        histogram.add_column(str(turns), justify="right")
    histogram.add_row(*(str(count) for count in result.histogram.values()))
    console = Console()
    console.print(table)
    console.print(histogram)
    return 0
