"""Options shared by several commands: the device port, the solver and its word lists,
the boards, full refreshes; and `game_spec`, the game they describe."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from epdle.cli.errors import CommandError, UsageError, int_in, shorten
from epdle.session.setup import GameSetup

TYPE_CHECKING = False
if TYPE_CHECKING:
    from epdle.session.spec import GameSpec


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


def add_solver_options(
    parser: argparse.ArgumentParser, *, other_lengths: bool = True, todays_prior: bool = True
) -> None:
    """--strategy, --hard, --blind, the word lists, --language and --length (every
    command has them; ``other_lengths=False`` leaves the last two out for a command
    that plays the original lists only). Without --prior, today's game is played under
    the history prior (game_spec); ``todays_prior=False``: every game under the uniform
    one (`bench`, whose games are the answer list's)."""
    from epdle.solver import DEFAULT_STRATEGY, STRATEGIES
    from epdle.solver.names import PRIORS, UNIFORM_PRIOR
    from epdle.words.languages import LANGUAGES, LENGTHS
    from epdle.words.named import ANSWER_FILES, DEFAULT_LISTS, LIST_TEXT

    parser.add_argument(
        "--strategy",
        choices=STRATEGIES,
        default=DEFAULT_STRATEGY,
        help=f"solver strategy (default: {DEFAULT_STRATEGY})",
    )
    parser.add_argument(
        "--hard",
        action="store_true",
        help="hard mode: reuse every hint (several boards: all of one open board's hints)",
    )
    parser.add_argument(
        "--blind",
        action="store_true",
        help="no answer list: every accepted word is a candidate, weighted by word frequency "
        "(a game whose answer may be on no shipped list)",
    )
    parser.add_argument(
        "--lists",
        choices=ANSWER_FILES,
        help="the shipped answer list the game starts from: "
        + "; ".join(f"{name}, {text}" for name, text in LIST_TEXT.items())
        + f" (default: {DEFAULT_LISTS}); the game goes on with every accepted word when the "
        "feedback leaves it",
    )
    default = (
        "history in today's game, one board on the shipped English lists without --lists "
        "or --blind; uniform in any other"
        if todays_prior
        else UNIFORM_PRIOR
    )
    parser.add_argument(
        "--prior",
        choices=PRIORS,
        default=None if todays_prior else UNIFORM_PRIOR,
        help="how likely each word is to be the answer: "
        + "; ".join(f"{name}, {text}" for name, text in PRIORS.items())
        + f" (default: {default})",
    )
    _add_history_options(parser)
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


def _add_history_options(parser: argparse.ArgumentParser) -> None:
    """--played FILE and --date: the answers and the day the history prior reads."""
    parser.add_argument(
        "--played",
        metavar="FILE",
        help="the history prior's answers from FILE (date<TAB>puzzle<TAB>word a line) instead "
        "of the shipped history and yours",
    )
    parser.add_argument(
        "--date",
        metavar="YYYY-MM-DD",
        help="the day played, for the history prior (default: today, by the local date or "
        "$EPDLE_TODAY): only the answers dated before it are read",
    )


def add_boards_option(parser: argparse.ArgumentParser) -> None:
    """--boards N: a game of several boards (Dordle 2, Quordle 4, Octordle 8, up to 32)."""
    from epdle.solver.scoring import EXTRA_GUESSES, MAX_BOARDS

    parser.add_argument(
        "--boards",
        type=int_in(1, MAX_BOARDS),
        default=1,
        metavar="N",
        help="boards played at once, each guess on all of them: 2 Dordle, 4 Quordle, "
        f"8 Octordle (up to {MAX_BOARDS}); the game allows N + {EXTRA_GUESSES} guesses "
        "(default: 1, the single game)",
    )


def add_full_refresh_option(parser: argparse.ArgumentParser) -> None:
    """--full-refresh: no fast black/white updates (`push` and the game commands)."""
    parser.add_argument(
        "--full-refresh",
        action="store_true",
        help="refresh the panel fully (three colours) for every frame, about 17 s a press "
        "instead of about 1 s, for a panel that shows ghosts: without it, frames that differ "
        "from the first of their set only in black inside one window are shown by a fast "
        "black/white update of it",
    )


def add_game_options(parser: argparse.ArgumentParser) -> None:
    """What a game on the device is played with: the solver, --top, --boards and
    --full-refresh (`play`, `daemon`, `demo`, `web`)."""
    add_solver_options(parser)
    add_top_option(parser, for_device=True)
    add_boards_option(parser)
    add_full_refresh_option(parser)


def game_spec(args: argparse.Namespace) -> GameSpec:
    """The game the parsed arguments describe, fixed: the one place a command's options
    become its settings. A combination that means nothing is a usage error here."""
    from epdle.session.spec import GameSpec
    from epdle.solver.names import DEFAULT_STRATEGY, UNIFORM_PRIOR
    from epdle.words.named import DEFAULT_LISTS

    lists = getattr(args, "lists", None)
    prior = getattr(args, "prior", None)
    spec = GameSpec(
        boards=getattr(args, "boards", 1),
        strategy=args.strategy,
        hard=args.hard,
        blind=args.blind,
        answers=args.answers,
        guesses=args.guesses,
        keep_plurals=args.keep_plurals,
        language=getattr(args, "language", None),
        length=getattr(args, "length", 5),
        top=getattr(args, "top", 5),
        full_refresh=getattr(args, "full_refresh", False),
        lists=lists or DEFAULT_LISTS,
        prior=prior or UNIFORM_PRIOR,
        played=getattr(args, "played", None),
        date=getattr(args, "date", None),
    )
    if prior is None:
        spec = spec._replace(prior=_default_prior(spec, lists))
    if lists and not spec.shipped:
        raise UsageError(
            "--lists names a shipped answer list: leave out --answers, --guesses, "
            "--language and --length, or --lists"
        )
    if spec.strategy != DEFAULT_STRATEGY:
        GameSetup(spec).by_kind(lambda: None, _strategy_for_one_board)
    _check_history_prior(spec)
    return spec.in_mode(spec.hard, spec.blind)  # blind where the lists or prior always are


def _default_prior(spec: GameSpec, lists: str | None) -> str:
    """The prior of a game whose command gave no --prior: the history prior for today's
    game (GameSetup.todays) unless --lists names the answer list to start from or --blind
    asks for every word by frequency, else the uniform prior."""
    from epdle.solver.names import HISTORY_PRIOR, UNIFORM_PRIOR

    return HISTORY_PRIOR if GameSetup(spec).todays and not (lists or spec.blind) else UNIFORM_PRIOR


def _check_history_prior(spec: GameSpec) -> None:
    """The history prior asked for today's game alone (one board, the shipped English
    lists, not --blind), its --played file readable and its --date a day that was."""
    from epdle.solver.names import HISTORY_PRIOR

    if spec.prior != HISTORY_PRIOR:
        if spec.played or spec.date:
            raise UsageError(
                "--played and --date are the history prior's, today's game's: one board on "
                "the shipped English lists, with --prior history or no --prior"
            )
        return
    if not GameSetup(spec).todays or spec.blind:
        raise UsageError(
            "--prior history is the Times' game: one board on the shipped English lists "
            "(leave out --boards, --blind, --answers, --guesses, --language and --length)"
        )
    from epdle.session.history import today
    from epdle.words.history import parse_date

    if spec.played:
        from epdle.cli.paths import input_file

        input_file(spec.played, "history file")
    if spec.date:
        try:
            parse_date(spec.date, today())
        except ValueError as error:
            raise UsageError(f"--date: {error}") from None


def _strategy_for_one_board() -> None:
    raise UsageError("--strategy applies to one board; several boards have their own search")


PORT_HELP = (
    "serial device (/dev/ttyUSB0), any pyserial URL, sim:// for the simulated board, "
    "or auto (default: the one USB serial adapter present, else sim://)"
)


def device_port(port: str | None) -> str:
    """--port as given, or (None) the one USB serial adapter present, else the simulated
    board. A device path that does not exist is an error, not a game without a device."""
    from pathlib import Path

    if port is None:
        from epdle.link.ports import one_adapter_present

        port = AUTO_PORT if one_adapter_present() else "sim://"
    port = resolve_port(port)
    if "://" not in port and sys.platform != "win32" and not Path(port).exists():
        raise CommandError(
            f"no serial device at {shorten(port)}: plug the device in, or --port sim:// "
            "for the simulated board"
        )
    return port


@contextmanager
def progress_bar(description: str) -> Iterator[Callable[[int, int], None] | None]:
    """A rich progress bar on a terminal, shown at once; nothing when output is piped."""
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

    bar = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    # Shown from the start, its time running, before the work reports a first step (a
    # solver's set-up may take seconds before it does).
    tasks: dict[str, TaskID] = {description: bar.add_task(description, total=None)}

    def update(done: int, total: int, label: str = description) -> None:
        if label not in tasks:
            tasks[label] = bar.add_task(label, total=total)
        bar.update(tasks[label], completed=done, total=total)

    with bar:
        yield update
