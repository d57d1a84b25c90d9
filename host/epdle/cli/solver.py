"""CLI commands: `suggest` (next-guess advice) and `bench` (play every answer)."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from epdle.cli.options import (
    add_solver_options,
    progress_bar,
    solver_from_args,
    universe_from_args,
)
from epdle.solver.scoring import parse_history

if TYPE_CHECKING:
    from epdle.solver import Solver
    from epdle.solver.advice import Advice
    from epdle.solver.bench import LatencyResult


def register(commands: argparse._SubParsersAction) -> None:
    """Add this module's subcommands to the `epdle` parser."""
    suggest = commands.add_parser(
        "suggest",
        help="rank the next guesses for a game so far",
        description="Rank the next guesses. History: 'salet:BBYBB,crony:21000' "
        "(feedback as G/Y/B letters, 2/1/0 digits or emoji squares).",
    )
    suggest.add_argument("--history", default="", help="guesses so far, word:feedback,...")
    suggest.add_argument("--top", type=int, default=5, help="how many suggestions (default 5)")
    add_solver_options(suggest)
    _add_json_option(suggest)
    suggest.set_defaults(func=run_suggest)

    bench = commands.add_parser(
        "bench",
        help="play every answer and report the guess counts",
        description="Play every hidden word with one strategy; print a summary table.",
    )
    bench.add_argument("--limit", type=int, help="play only the first N hidden words")
    bench.add_argument(
        "--latency",
        action="store_true",
        help="instead, time `suggest` after the first guess: popular and degenerate "
        "openers against sampled hidden words, in process (what the daemon calls)",
    )
    bench.add_argument(
        "--per-opener", type=int, default=6, help="--latency: hidden words per opener (6)"
    )
    bench.add_argument(
        "--openers",
        metavar="W,W,...",
        help="--latency: first guesses to time (default: popular and degenerate ones)",
    )
    bench.add_argument(
        "--processes",
        type=int,
        default=0,
        metavar="N",
        help="--latency: also time N of those turns as fresh `epdle suggest` processes",
    )
    bench.add_argument(
        "--plot", metavar="FILE", help="also draw the histogram, failures marked (.png/.svg)"
    )
    add_solver_options(bench)
    _add_json_option(bench)
    bench.set_defaults(func=run_bench)

    tree = commands.add_parser(
        "tree",
        help="draw the first levels of the solver's decision tree (.png or .svg)",
        description="Draw the guesses the solver plays from an opener: each guess with the "
        "candidates it faces, each branch the feedback that led there (largest first).",
    )
    tree.add_argument("out", metavar="FILE", help="picture to write: FILE.png or FILE.svg")
    tree.add_argument("--opener", help="first guess (default: the solver's own)")
    tree.add_argument("--depth", type=int, default=2, help="guesses below the opener (2)")
    tree.add_argument("--branches", type=int, default=5, help="feedbacks per guess shown (5)")
    add_solver_options(tree)
    tree.set_defaults(func=run_tree)


def _add_json_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="print one JSON object")


def _fail(command: str, message: str) -> int:
    print(f"epdle {command}: error: {message}", file=sys.stderr)
    return 2


def run_suggest(args: argparse.Namespace) -> int:
    try:
        history = parse_history(args.history)
        advice = _tree_advice(args, history)
        if advice is None:
            with progress_bar("building the best tree") as progress:
                solver = solver_from_args(args, progress=progress)
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


def _tree_advice(args: argparse.Namespace, history: list[tuple[str, str]]) -> Advice | None:
    """`best` on the shipped lists, still on the shipped tree: answered without numpy."""
    custom = args.answers or args.guesses or args.language or args.length != 5
    if args.strategy != "best" or args.blind or custom:
        return None
    from epdle.solver.quick import tree_advice

    return tree_advice(history, args.hard, args.top)


def run_bench(args: argparse.Namespace) -> int:
    from epdle import words
    from epdle.solver.bench import run_bench as play_all

    started = time.perf_counter()
    try:
        if args.limit is not None and args.limit < 1:
            raise ValueError("--limit must be at least 1")
        universe = universe_from_args(args)
        if args.answers:
            hidden = words.read_word_file(args.answers)
        elif args.language or args.length != 5:
            hidden = universe.answers
        else:
            hidden = list(words.answers())
        hidden = hidden[: args.limit] if args.limit else hidden
        with progress_bar("building the best tree") as tree_progress:
            solver = solver_from_args(args, universe, tree_progress)
            if args.strategy == "best":
                solver.next_guess(solver.initial_state())
        if args.latency:
            return _run_latency(args, solver, hidden)
        if args.plot:
            from pathlib import Path

            from epdle.solver.pictures import check_format

            check_format(Path(args.plot))
        with progress_bar(f"bench {args.strategy}") as progress:
            result = play_all(solver, hidden, progress, started)
        if args.plot:
            from epdle.solver.pictures import plot_histogram

            plot_histogram(result, args.plot)
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


def run_tree(args: argparse.Namespace) -> int:
    from pathlib import Path

    from epdle.solver.pictures import check_format, decision_tree, draw_tree

    try:
        check_format(Path(args.out))
        with progress_bar("building the best tree") as progress:
            solver = solver_from_args(args, progress=progress)
            root = decision_tree(solver, args.opener, args.depth, args.branches)
        mode = ("hard" if solver.hard else "normal") + (", blind" if solver.blind else "")
        title = f"{args.strategy} ({mode}) from {root.guess.upper()}"
        draw_tree(root, args.out, title)
    except ValueError as error:
        return _fail("tree", str(error))
    print(f"wrote {args.out}")
    return 0


def _run_latency(args: argparse.Namespace, solver: Solver, hidden: list[str]) -> int:
    from epdle.solver.bench import measure_latency, second_turn_histories

    if args.per_opener < 1 or args.processes < 0:
        raise ValueError("--per-opener must be at least 1 and --processes not negative")
    openers = args.openers.lower().split(",") if args.openers else None
    histories = second_turn_histories(solver, hidden, args.per_opener, openers=openers)
    with progress_bar("timing suggest in process") as progress:
        in_process = measure_latency(solver, histories, progress)
    rows = {"in process": in_process}
    if args.processes:
        # Spread over the openers: every k-th turn, k = turns / N.
        spread = histories[:: max(1, len(histories) // args.processes)][: args.processes]
        with progress_bar("timing epdle suggest processes") as progress:
            rows["process"] = _time_processes(args, spread, progress)
    mode = ("hard" if solver.hard else "normal") + (", blind" if solver.blind else "")
    if args.json:
        report = {name: {"turns": r.histories, **r.summary()} for name, r in rows.items()}
        print(json.dumps({"strategy": solver.strategy, "mode": mode, **report}))
        return 0
    from rich.console import Console
    from rich.table import Table

    title = f"suggest after the first guess: {solver.strategy} ({mode})"
    table = Table(title=title)
    for column in ("", "turns", "median ms", "90th % ms", "max ms"):
        table.add_column(column, justify="left" if not column else "right")
    for name, result in rows.items():
        summary = result.summary()
        table.add_row(name, str(result.histories), *(f"{v:.0f}" for v in summary.values()))
    Console().print(table)
    return 0


def _time_processes(
    args: argparse.Namespace,
    histories: list[list[tuple[str, str]]],
    progress: Callable[[int, int], None] | None,
) -> LatencyResult:
    """Wall time of whole `epdle suggest` processes (interpreter start and imports included)."""
    import subprocess

    from epdle.solver.bench import LatencyResult

    options = ["--strategy", args.strategy, "--json"]
    options += ["--hard"] * args.hard + ["--blind"] * args.blind
    for name in ("answers", "guesses"):
        if getattr(args, name):
            options += [f"--{name}", getattr(args, name)]
    seconds = []
    for done, history in enumerate(histories, start=1):
        text = ",".join(f"{guess}:{feedback}" for guess, feedback in history)
        command = [sys.executable, "-m", "epdle", "suggest", "--history", text, *options]
        started = time.perf_counter()
        finished = subprocess.run(command, capture_output=True, text=True)
        seconds.append(time.perf_counter() - started)
        if finished.returncode != 0:
            raise ValueError(f"epdle suggest failed: {finished.stderr.strip()}")
        if progress is not None:
            progress(done, len(histories))
    return LatencyResult(len(histories), seconds)
