"""CLI commands that tie everything together: play, daemon, demo."""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast
from urllib.parse import urlencode

from epdle.cli.errors import CommandError, examples, shorten
from epdle.cli.options import (
    PORT_HELP,
    add_boards_option,
    add_game_options,
    add_port_option,
    add_solver_options,
    device_port,
    game_spec,
    progress_bar,
    resolve_port,
)
from epdle.cli.paths import input_file, output_dir, output_file
from epdle.cli.prior import say_history_note
from epdle.session.setup import GameSetup

if TYPE_CHECKING:
    from rich.console import Console

    from epdle.session.boards import MultiGame
    from epdle.session.demo import DemoResult
    from epdle.session.one_board import Game
    from epdle.session.review import BoardsTurnReview, Review, TurnReview

DEFAULT_PLAY_PANEL_DIR = Path("out/play")


def register(commands: argparse._SubParsersAction) -> None:
    _register_play(commands)
    _register_daemon(commands)
    _register_demo(commands)
    _register_review(commands)


def _register_play(commands: argparse._SubParsersAction) -> None:
    play = commands.add_parser(
        "play",
        help="interactive helper: type what you played, the device shows the next guesses",
        description="Play Wordle on your phone; tell epdle each guess and its colours "
        "('crane gybbb', 'crane 21000' or pasted emoji). The ranked suggestions are shown here "
        "and pushed to the device as frames; its button cycles them. Without --port the "
        "simulated board is used and its panel is saved as PNG after each refresh. "
        "With stdin not a terminal, one command is read per line. With --boards N (Dordle, "
        "Quordle, Octordle) each guess gets one colour group per board, separated by /.",
        epilog=examples(
            "epdle play", "echo 'salet bbybb/gbbbb/bbbbb/ybbbg' | epdle play --boards 4"
        ),
    )
    play.add_argument("--port", help=PORT_HELP)
    play.add_argument(
        "--panel-dir",
        type=Path,
        default=DEFAULT_PLAY_PANEL_DIR,
        help=f"where the simulated panel is saved (default: {DEFAULT_PLAY_PANEL_DIR})",
    )
    add_game_options(play)
    play.set_defaults(func=_play)


def _register_daemon(commands: argparse._SubParsersAction) -> None:
    daemon = commands.add_parser(
        "daemon",
        help="headless helper fed one 'guess colours' line at a time",
        description="Read 'guess colours' lines (and undo/new) from a file, a FIFO or stdin "
        "(-), push the next-guess frames to the device, log what happens. Reconnects and "
        "re-pushes when the device comes back; stops cleanly on SIGINT/SIGTERM. A line that "
        "is not UTF-8 or is over 4096 bytes is skipped with a warning. With --boards N "
        "a line gives one colour group per board: 'guess c/c/c/c' ('-' for a solved board).",
        epilog=examples(
            "epdle daemon --port sim:// --feed moves.txt",
            "echo 'salet bbybb/gbbbb/bbbbb/ybbbg' | epdle daemon --port sim:// --boards 4 --feed -",
        ),
    )
    add_port_option(daemon)
    daemon.add_argument("--feed", required=True, help="file, FIFO or - for stdin")
    daemon.add_argument("-v", "--verbose", action="store_true", help="debug logging")
    add_game_options(daemon)
    daemon.set_defaults(func=_daemon)


def _register_demo(commands: argparse._SubParsersAction) -> None:
    demo = commands.add_parser(
        "demo",
        help="play a whole game automatically on the simulated board",
        description="The solver plays against ANSWER on the simulated board, pressing its "
        "button to cycle frames. Writes DIR/panel-<n>.png, DIR/trace.vcd, DIR/epd.jsonl and "
        "DIR/summary.json. With --boards N, ANSWER is N words, comma-separated.",
        epilog=examples(
            "epdle demo --answer cigar --out out/demo",
            "epdle demo --boards 4 --answer cigar,rebut,sissy,humph --out out/quordle",
        ),
    )
    demo.add_argument("--answer", required=True, help="the hidden word (N words for --boards N)")
    demo.add_argument(
        "--out", type=Path, required=True, metavar="DIR", help="directory for what it writes"
    )
    demo.add_argument(
        "--no-cycle", action="store_true", help="do not press the button through every frame"
    )
    add_game_options(demo)
    demo.set_defaults(func=_demo)


def _register_review(commands: argparse._SubParsersAction) -> None:
    review = commands.add_parser(
        "review",
        help="score a finished game turn by turn against the best move",
        description="How a finished game went: each guess against the helper's best move, "
        "with the candidates left, the guesses expected from there (best move / the guess "
        "played / after its colours) and a skill and a luck figure from 0 to 99. Give the "
        "game as --history, or the shared grid with --grid and the words with --words. "
        "Played on a shipped answer list (--lists), the list is used while it fits, as in the "
        "game: each move is judged by what the game knew then. A game whose every guess "
        "keeps hard mode's rule (or a grid starred 4/6*) is reviewed in hard mode; --normal "
        "reviews it in normal mode. With --boards N (Dordle, Quordle, Octordle) the history "
        "is as `suggest --boards N` takes it, and each turn lists the candidates left on "
        "every open board.",
        epilog=examples(
            "epdle review --history salet:GBYBB,crony:BBGBB,slosh:GGGGG --frame review.frame",
            "epdle push --port sim:// review.frame",
            "epdle review --boards 2 --history "
            "tarse:BBYBB/BBBGB,hoing:BYBGB/YYBBB,slosh:BBGBB/GGGGG,crony:GGGGG/-",
        ),
    )
    review.add_argument("--history", help="the game, word:colours,... (as suggest takes it)")
    review.add_argument(
        "--grid",
        metavar="FILE",
        help="a file with the game's shared grid (- reads it from stdin; the grid's own "
        "text works too)",
    )
    review.add_argument(
        "--normal",
        action="store_true",
        help="review in normal mode a game whose every guess keeps hard mode's rule",
    )
    review.add_argument("--words", help="with --grid: the words played, in order, comma-separated")
    review.add_argument("--json", action="store_true", help="print JSON")
    add_boards_option(review)
    review.add_argument(
        "--frame",
        type=Path,
        metavar="OUT",
        help="also write the device's review frame: .png preview, .frame (for `epdle push`), "
        ".h or .hex",
    )
    add_solver_options(review, other_lengths=False)
    review.set_defaults(func=_review)


def game_setup(args: argparse.Namespace) -> GameSetup:
    """The command's game (its usage errors first), its solvers made with a progress bar."""
    return GameSetup(game_spec(args), progress_bar)


def _play(args: argparse.Namespace) -> int:
    from rich.console import Console

    from epdle.session import play

    setup = game_setup(args)
    console = Console()
    console.soft_wrap = not console.is_terminal  # piped: each line whole, not cut at 80
    port = device_port(args.port)
    panel_dir = None
    if port == "sim://":
        panel_dir = output_dir(args.panel_dir.resolve(), "--panel-dir")
        port = "sim://?" + urlencode({"png_dir": str(panel_dir)})
    controller = setup.new_controller(setup.presenter(port))
    say_history_note("epdle play", controller.game.solver.universe)
    if panel_dir is not None:
        # A new board counts its refreshes from 1 again: an earlier session's panels go.
        for stale in panel_dir.glob("panel-*.png"):
            stale.unlink()
        console.print(
            f"Simulated board: its panel is saved in [bold]{panel_dir}[/bold]", highlight=False
        )
    return play.run(controller, console=console)


def _daemon(args: argparse.Namespace) -> int:
    from epdle.session import daemon

    setup = game_setup(args)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(message)s",
        stream=sys.stderr,
    )
    if args.feed != "-":
        input_file(args.feed, "feed")
    controller = setup.new_controller(setup.presenter(resolve_port(args.port)))
    say_history_note("epdle daemon", controller.game.solver.universe)
    return daemon.run(controller, args.feed)


def _demo(args: argparse.Namespace) -> int:
    setup = game_setup(args)
    output_dir(args.out)
    game = setup.new_game()
    say_history_note("epdle demo", game.solver.universe)
    return setup.by_kind(
        lambda: _one_board_demo(args, setup, cast("Game", game)),
        lambda: _multi_demo(args, setup, cast("MultiGame", game)),  # one answer per board
    )


def _one_board_demo(args: argparse.Namespace, setup: GameSetup, game: Game) -> int:
    from rich.console import Console

    from epdle.session.demo import play_demo
    from epdle.words.languages import display_word

    solver = game.solver
    answer = solver.universe.lang.fold(args.answer)
    if answer not in solver.universe.guess_index:
        raise CommandError(f"{shorten(args.answer)!r} is not an accepted word")
    for stale in args.out.glob("panel-*.png"):  # an earlier demo's panels
        stale.unlink()
    result = play_demo(game, answer, args.out, cycle=not args.no_cycle, presenter=setup.presenter)
    guesses = " ".join(f"{display_word(s.guess)}({s.feedback})" for s in result.steps)
    status = f"solved in {len(result.steps)}" if result.solved else "NOT solved"
    Console().print(f"{display_word(answer)}: {status}: {guesses}")
    _demo_report(args, result)
    if not result.solved:
        raise CommandError(f"the solver did not find {display_word(answer)}")
    return 0


def _multi_demo(args: argparse.Namespace, setup: GameSetup, game: MultiGame) -> int:
    from rich.console import Console

    from epdle.session.demo import play_multi_demo

    universe = game.solver.universe
    answers = [universe.lang.fold(word.strip()) for word in args.answer.split(",")]
    if len(answers) != args.boards:
        raise CommandError(
            f"--answer has {len(answers)} word(s) for {args.boards} boards: give {args.boards}, "
            "comma-separated"
        )
    for word in answers:
        if word not in universe.guess_index:
            raise CommandError(f"{shorten(word)!r} is not an accepted word")
    for stale in args.out.glob("panel-*.png"):  # an earlier demo's panels
        stale.unlink()
    result = play_multi_demo(
        game, answers, args.out, cycle=not args.no_cycle, presenter=setup.presenter
    )
    guesses = " ".join(f"{s.guess.upper()}({s.feedback})" for s in result.steps)
    status = f"solved in {len(result.steps)}" if result.solved else "NOT solved"
    Console().print(f"{','.join(answers).upper()}: {status}: {guesses}", highlight=False)
    _demo_report(args, result)
    if not result.solved:
        raise CommandError(
            f"not solved in {game.max_guesses} guesses: a board was still open at the limit"
        )
    return 0


def _demo_report(args: argparse.Namespace, result: DemoResult) -> None:
    """What the simulated board did, and a failure for any protocol violation."""
    from rich.console import Console

    console = Console()
    console.print(
        f"{result.frames_pushed} frames pushed, {result.bytes_sent} bytes sent, "
        f"{result.refreshes} refreshes, {result.simulated_ms / 1000:.1f} s simulated, "
        f"{result.energy_per_refresh_mJ:.1f} mJ per refresh; output in {args.out}"
    )
    for violation in result.violations:
        console.print(f"[red]violation:[/red] {violation}")
    if result.violations:
        raise CommandError(f"{len(result.violations)} panel protocol violation(s) (listed above)")


def _review(args: argparse.Namespace) -> int:
    import json

    from epdle.cli.errors import UsageError
    from epdle.render.export import write_frames
    from epdle.render.options import FORMATS
    from epdle.session.review import ReviewError, grid_hard, grid_history

    if (args.history is None) == (args.grid is None) or (args.grid is None) != (args.words is None):
        raise UsageError("give the game as --history, or as --grid with --words")
    if args.hard and args.normal:
        raise UsageError("--hard and --normal: give one")
    if args.frame is not None:
        if args.frame.suffix.lower() not in FORMATS:
            raise UsageError(f"--frame {args.frame}: unknown output type; use {', '.join(FORMATS)}")
        output_file(args.frame)
    spec = game_spec(args)
    setup = GameSetup(spec, progress_bar)
    if args.grid is not None:
        setup.by_kind(lambda: None, _grid_for_one_board)
    print_review = setup.by_kind(lambda: _print_review, lambda: _print_boards_review)
    try:
        if args.history is not None:
            history = setup.game_kind().game.read_history(args.history, spec.boards)
        else:
            grid = _grid_text(args.grid)
            history = grid_history(grid, [w.strip() for w in args.words.split(",") if w.strip()])
            if grid_hard(grid):  # the star of "4/6*": played in hard mode
                setup = GameSetup(spec.in_mode(True, spec.blind), progress_bar)
    except ValueError as error:
        raise CommandError(str(error)) from None
    game = setup.new_game()
    say_history_note("epdle review", game.solver.universe)
    try:
        review = game.review(history, args.normal)  # type: ignore[arg-type]
    except ReviewError as error:
        raise CommandError(str(error)) from None
    if args.frame is not None:
        try:
            write_frames([game.review_planes(review)], args.frame)
        except ValueError as error:
            raise CommandError(str(error)) from None
    if args.json:
        print(json.dumps(review.as_json()))
        return 0
    cast("Callable[[Any], None]", print_review)(review)
    return 0


def _grid_for_one_board() -> None:
    from epdle.cli.errors import UsageError

    raise UsageError("--grid reviews one board's game: give several boards' as --history")


def _grid_text(grid: str) -> str:
    """--grid's grid: stdin for -, the grid itself if it is one (its rows of squares),
    else the file it names."""
    if grid == "-":
        return sys.stdin.read()
    if "\n" in grid or any(square in grid for square in "🟩🟨⬛⬜"):
        return grid
    try:
        return input_file(grid, "grid file").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise CommandError(f"cannot read grid file {grid}: {error}") from None


def _print_review(review: Review[TurnReview]) -> None:
    from rich.console import Console
    from rich.table import Table

    # One heading line, no cell wrapped: the columns a space apart fit 70 columns.
    table = Table(box=None, pad_edge=False, padding=(0, 1, 0, 0))
    for column in ("#", "guess", "colours", "left", "best", "with best", "with guess",
                   "after", "skill", "luck"):  # fmt: skip
        table.add_column(
            column, justify="left" if column in ("guess", "best") else "right", no_wrap=True
        )
    for number, turn in enumerate(review.turns, start=1):
        table.add_row(
            str(number),
            turn.guess.upper(),
            turn.colours,
            f"{turn.left_before} -> {turn.left_after}",
            turn.best.upper(),
            f"{turn.expected_best:.2f}",
            f"{turn.expected_played:.2f}",
            f"{turn.expected_after:.2f}",
            str(turn.skill),
            str(turn.luck),
        )
    console = Console(emoji=False)
    console.soft_wrap = not console.is_terminal  # piped: each line whole, not cut at 80
    console.print(table)
    _print_review_end(console, review)
    console.print("Candidates before each guess, likeliest first:", highlight=False)
    for number, turn in enumerate(review.turns, start=1):
        shown = turn.candidates[:8]  # a line of 60 columns at most
        more = turn.left_before - len(shown)
        words = " ".join(word.upper() for word in shown)
        console.print(f"{number:>2}  {words}{f' (+{more})' if more else ''}", highlight=False)


def _print_boards_review(review: Review[BoardsTurnReview]) -> None:
    """Several boards' review: a row per guess, under it each open board's colours and
    the candidates it had before the guess and after (their words where few are left)."""
    from rich.console import Console

    from epdle.cli.multi import LISTED_IN_TEXT
    from epdle.session.terminal import columns_text

    rows = [("#", "guess", "best", "with best", "with guess", "skill", "luck")]
    for number, turn in enumerate(review.turns, start=1):
        rows.append(
            (
                str(number),
                turn.guess.upper(),
                turn.best.upper(),
                f"{turn.expected_best:.2f}",
                f"{turn.expected_played:.2f}",
                str(turn.skill),
                str(turn.luck),
            )
        )
    table = columns_text(rows, (str.rjust, str.ljust, str.ljust, *[str.rjust] * 4))
    lines = table.splitlines()
    console = Console(emoji=False, highlight=False)
    console.soft_wrap = not console.is_terminal  # piped: each line whole, not cut at 80
    console.print(lines[0], markup=False)
    for line, turn in zip(lines[1:], review.turns, strict=True):
        console.print(line, markup=False)
        for board in turn.boards:
            words = ""
            if board.left_after <= LISTED_IN_TEXT:
                words = ": " + " ".join(word.upper() for word in board.candidates_after)
            console.print(
                f"    board {board.board} {board.colours}: "
                f"{board.left_before} -> {board.left_after} left{words}",
                markup=False,
            )
    _print_review_end(console, review)


def _print_review_end(
    console: Console, review: Review[TurnReview] | Review[BoardsTurnReview]
) -> None:
    """The review's last lines: the game's figures, the mode and prior, any widening."""
    ending = f"solved in {len(review.turns)}" if review.solved else "not solved"
    skill = f"Skill {review.skill}/99"
    if review.skill_after_opener is not None:
        skill += f" ({review.skill_after_opener} without the opener)"
    console.print(f"{skill}, luck {review.luck}/99; {ending}.", highlight=False)
    mode = f"{review.mode} mode"
    if review.hard_from_moves:
        mode += " (every guess kept its rule: --normal reviews in normal mode)"
    console.print(f"Reviewed in {mode}; prior: {review.prior}.", highlight=False)
    if review.widened_at is not None:
        console.print(
            f"The colours of guess {review.widened_at} left the answer list: the moves after "
            "it are judged over every accepted word, as the game went on.",
            highlight=False,
        )
