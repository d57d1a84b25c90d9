"""Options shared by several commands: the device port, the solver and its word lists."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from epdle.cli.errors import int_in

if TYPE_CHECKING:
    from epdle.solver import Solver
    from epdle.solver.universe import Universe


AUTO_PORT = "auto"


def add_port_option(parser: argparse.ArgumentParser, default: str = AUTO_PORT) -> None:
    """--port: a device path, a pyserial URL, sim://, or auto (found by its USB bridge)."""
    parser.add_argument(
        "--port",
        default=default,
        help="serial device (/dev/ttyUSB0), any pyserial URL, sim:// for the simulated board, "
        "or auto: the one USB serial adapter present"
        + (f" (default: {default})" if default else ""),
    )


def resolve_port(port: str) -> str:
    """`auto` as the port it finds (said on stderr); any other port as it is."""
    if port != AUTO_PORT:
        return port
    from epdle.link.ports import find_device_port

    found = find_device_port()
    print(f"epdle: using {found}", file=sys.stderr)
    return found.device


def add_top_option(parser: argparse.ArgumentParser, *, for_device: bool = False) -> None:
    """--top: how many suggestions; for a device, no more frames than its store always holds."""
    from epdle.frames.store import MAX_SUGGESTION_FRAMES
    from epdle.solver.names import MAX_SUGGESTIONS

    if for_device:
        high, why = MAX_SUGGESTION_FRAMES, "the suggestion frames the device's store holds"
        what = "suggestions (frames) per step"
    else:
        high, why = MAX_SUGGESTIONS, "the guesses the solver ranks a turn"
        what = "how many suggestions"
    parser.add_argument(
        "--top",
        type=int_in(1, high, why),
        default=5,
        metavar="K",
        help=f"{what}, 1 to {high} (default 5)",
    )


def add_solver_options(parser: argparse.ArgumentParser, *, other_lengths: bool = True) -> None:
    """--strategy, --hard, the word lists; with other_lengths, --language/--length too
    (the frame designs are for five letters, so the device commands leave those out)."""
    from epdle.solver import DEFAULT_STRATEGY, STRATEGIES

    parser.add_argument(
        "--strategy",
        choices=STRATEGIES,
        default=DEFAULT_STRATEGY,
        help=f"solver strategy (default: {DEFAULT_STRATEGY})",
    )
    parser.add_argument("--hard", action="store_true", help="hard mode: reuse every hint")
    parser.add_argument(
        "--blind",
        action="store_true",
        help="no answer list: every accepted word is a candidate, weighted by word frequency "
        "(today's game, whose answers are no longer the original list)",
    )
    parser.add_argument("--answers", help="answer list file (one word a line)")
    parser.add_argument("--guesses", help="accepted-guess list file (one word a line)")
    parser.add_argument(
        "--keep-plurals", action="store_true", help="do not demote plurals (blind/tiers)"
    )
    if other_lengths:
        parser.add_argument(
            "--language",
            help="play another language or length from wordfreq's lists (needs epdle[wordfreq])",
        )
        parser.add_argument(
            "--length",
            type=int_in(2, 15),
            default=5,
            help="word length (not 5: wordfreq's words, blind)",
        )


def universe_from_args(args: argparse.Namespace) -> Universe:
    from epdle import words
    from epdle.solver.universe import Universe

    language = getattr(args, "language", None)
    length = getattr(args, "length", 5)
    if language or length != 5:
        # Other lengths and languages: wordfreq's words, played blind under its prior.
        language = language or "en"
        vocabulary = words.language_words(language, length)
        guess_words = words.read_word_file(args.guesses) if args.guesses else vocabulary
        return Universe(guess_words, None, language=language, keep_plurals=args.keep_plurals)
    guess_words = words.read_word_file(args.guesses) if args.guesses else list(words.guesses())
    answer_words = words.read_word_file(args.answers) if args.answers else list(words.answers())
    if args.blind:
        return Universe(guess_words, None, keep_plurals=args.keep_plurals)
    return Universe(guess_words, answer_words, keep_plurals=args.keep_plurals)


def solver_from_args(
    args: argparse.Namespace,
    universe: Universe | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Solver:
    from epdle.solver import Solver

    return Solver(
        args.strategy,
        args.hard,
        universe=universe or universe_from_args(args),
        progress=progress,
    )


@contextmanager
def progress_bar(description: str) -> Iterator[Callable[[int, int], None] | None]:
    """A rich progress bar on a terminal; nothing when output is piped."""
    if not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskID,
        TimeElapsedColumn,
    )

    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as bar:
        tasks: dict[str, TaskID] = {}

        def update(done: int, total: int, label: str = description) -> None:
            if label not in tasks:
                tasks[label] = bar.add_task(label, total=total)
            bar.update(tasks[label], completed=done, total=total)

        yield update
