"""Options shared by several commands: the device port, the solver and its word lists."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from epdle.cli.errors import int_in

TYPE_CHECKING = False
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
    from epdle.solver.names import MAX_SUGGESTIONS

    if for_device:  # the store's module only then: a one-shot suggest does without it
        from epdle.frames.store import MAX_SUGGESTION_FRAMES

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
    """--strategy, --hard, --blind, the word lists, --language and --length (every
    command has them; ``other_lengths=False`` leaves the last two out for a command
    that plays the original lists only)."""
    from epdle.solver import DEFAULT_STRATEGY, STRATEGIES
    from epdle.words.languages import LANGUAGES, LENGTHS

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
        "--keep-plurals",
        action="store_true",
        help="plurals may be the answer (other languages and lengths leave them out; "
        "blind English five-letter games demote them)",
    )
    if not other_lengths:
        return
    parser.add_argument(
        "--language",
        type=str.lower,
        choices=sorted(LANGUAGES),
        help="play in another language: its dictionary words, blind "
        "(" + ", ".join(f"{code} {lang.name}" for code, lang in LANGUAGES.items()) + ")",
    )
    parser.add_argument(
        "--length",
        type=int,
        default=5,
        choices=LENGTHS,
        metavar=f"{{{LENGTHS.start}..{LENGTHS.stop - 1}}}",
        help="word length (default 5; other than 5, or with --language: the dictionary "
        "words of that length, blind)",
    )


def is_dictionary_game(args: argparse.Namespace) -> bool:
    """A game on the shipped dictionary lists (another language or length)?"""
    return bool(getattr(args, "language", None)) or getattr(args, "length", 5) != 5


def original_game(args: argparse.Namespace) -> bool:
    """The original game's lists (no --answers, --guesses, --language or --length): the
    one game whose answer may still leave its answer list (today's game, say)."""
    return not (args.answers or args.guesses or is_dictionary_game(args))


def universe_from_args(args: argparse.Namespace) -> Universe:
    from epdle import words
    from epdle.solver.universe import Universe
    from epdle.words.languages import language as lookup

    keep = args.keep_plurals
    if is_dictionary_game(args):
        # Another language or length: the shipped dictionary words, played blind under
        # the frequency prior (a list of answers of your own is played as given).
        lang = lookup(args.language)
        if not args.guesses and not args.answers:
            return Universe.dictionary(lang.code, args.length, keep_plurals=keep)
        shipped = words.language_list(lang.code, args.length, keep_plurals=keep)
        guess_words = (
            words.read_word_file(args.guesses, args.length, lang.fold)
            if args.guesses
            else shipped.guesses
        )
        if args.answers:
            answer_words = words.read_word_file(args.answers, args.length, lang.fold)
            blind = args.blind
        else:
            answer_words, blind = shipped.candidates, True
        return Universe(
            guess_words, answer_words, language=lang.code, keep_plurals=keep, blind=blind
        )
    guess_words = words.read_word_file(args.guesses) if args.guesses else list(words.guesses())
    answer_words = words.read_word_file(args.answers) if args.answers else list(words.answers())
    if args.blind:
        return Universe(guess_words, None, keep_plurals=keep)
    return Universe(guess_words, answer_words, keep_plurals=keep)


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
