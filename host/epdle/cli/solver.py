"""CLI commands: `suggest` (next-guess advice) and `bench` (play every answer)."""

from __future__ import annotations

import argparse
import json
import sys
import time

from epdle.cli.errors import UsageError, examples, int_in
from epdle.cli.options import (
    add_boards_option,
    add_solver_options,
    add_top_option,
    game_spec,
    progress_bar,
)
from epdle.session.setup import GameSetup
from epdle.solver.names import HISTORY_PRIOR, Kind, history_text, mode_name, prior_name
from epdle.solver.scoring import parse_history
from epdle.words.languages import display_word

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from epdle.session.spec import GameSpec
    from epdle.solver import Solver
    from epdle.solver.advice import Advice
    from epdle.solver.history_prior import HistoryPrior
    from epdle.solver.ranking.pure.weighted import DayPrior
    from epdle.solver.universe import Universe


def register(commands: argparse._SubParsersAction) -> None:
    """Add this module's subcommands to the `epdle` parser."""
    register_suggest(commands)
    _register_bench(commands)
    _register_tree(commands)


def register_suggest(commands: argparse._SubParsersAction) -> None:
    """Add `suggest` (alone: what a one-shot `epdle suggest` builds)."""
    suggest = commands.add_parser(
        "suggest",
        help="rank the next guesses for a game so far",
        description="Rank the next guesses. The history is word:feedback,... with the feedback "
        "as G/Y/B letters, 2/1/0 digits or emoji squares. Several boards (Dordle, Quordle, "
        "Octordle): one feedback per board in board order, separated by /, - for a board "
        "already solved.",
        epilog=examples(
            "epdle suggest --history salet:BBYBB,courd:01000",
            "epdle suggest --boards 4 --history "
            "tarse:GGBYB/BBYBY/BGGBB/BBBBB,tasty:GGGGG/BBBBB/BGBBG/BBBBG,pudic:-/GBBBB/BBBBY/BBGBB",
        ),
    )
    suggest.add_argument("--history", default="", help="guesses so far, word:feedback,...")
    add_boards_option(suggest)
    add_top_option(suggest)
    add_solver_options(suggest)
    _add_json_option(suggest)
    suggest.set_defaults(func=run_suggest)


def _register_bench(commands: argparse._SubParsersAction) -> None:
    bench = commands.add_parser(
        "bench",
        help="play every answer and report the guess counts",
        description="Play every hidden word with one strategy; print a summary table. "
        "Several boards: --boards 4 --limit 300 (seeded games of four different answers) or "
        "--boards 4 --games FILE (one game a line, its answers comma-separated).",
    )
    add_boards_option(bench)
    bench.add_argument(
        "--games",
        metavar="FILE",
        help="--boards: play these games (one a line, its answers comma-separated)",
    )
    bench.add_argument(
        "--limit",
        type=int_in(1),
        metavar="N",
        help="play N hidden words spread evenly over the list (a seeded sample)",
    )
    bench.add_argument("--seed", type=int, default=0, help="--limit: the sample's seed (default 0)")
    bench.add_argument(
        "--latency",
        action="store_true",
        help="instead, time `suggest` after the first guess: popular and degenerate "
        "openers against sampled hidden words, in process (what the daemon calls)",
    )
    bench.add_argument(
        "--per-opener",
        type=int_in(1, 1000),
        default=6,
        help="--latency: hidden words per opener (6)",
    )
    bench.add_argument(
        "--openers",
        metavar="W,W,...",
        help="--latency: first guesses to time (default: popular and degenerate ones)",
    )
    bench.add_argument(
        "--processes",
        type=int_in(0, 1000),
        default=0,
        metavar="N",
        help="--latency: also time N of those turns as fresh `epdle suggest` processes, "
        "printing the text a user sees (the table, not --json)",
    )
    bench.add_argument(
        "--plot", metavar="FILE", help="also draw the histogram, failures marked (.png/.svg)"
    )
    add_solver_options(bench, todays_prior=False)
    _add_json_option(bench)
    bench.set_defaults(func=run_bench)


def _register_tree(commands: argparse._SubParsersAction) -> None:
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


def run_suggest(args: argparse.Namespace) -> int:
    spec = game_spec(args)

    def several() -> int:
        from epdle.cli.multi import run_multi_suggest

        return run_multi_suggest(spec, args.history, args.json)

    return GameSetup(spec).by_kind(lambda: _suggest_one(spec, args), several)


def _suggest_one(spec: GameSpec, args: argparse.Namespace) -> int:
    from epdle.session.spec import widen_past_list

    history = parse_history(args.history)
    # Today's answer may be outside the list: every accepted word, as `play`.
    (advice, hard, blind, prior), widened = widen_past_list(
        lambda wide: _advice(spec.in_mode(spec.hard, True) if wide else spec, history),
        not spec.blind and spec.widens,
        _history_error,
    )
    if widened:
        from epdle.session.game import widened_note

        print(f"epdle suggest: note: {widened_note(spec.lists)}", file=sys.stderr)
    warnings = repeated_guess_warnings(history)
    for warning in warnings:
        print(f"epdle suggest: warning: {warning}", file=sys.stderr)
    if prior.get("stale"):
        print(f"epdle suggest: note: {prior['stale']}", file=sys.stderr)
    if args.json:
        report = advice_json(advice, spec.strategy, hard, blind)
        if "history" in prior:  # the history prior: in words, and how old its answers are
            report |= {"prior": prior["name"], "prior_text": prior["text"]}
            report["history"] = {**prior["history"], "stale": prior["stale"]}
        print(json.dumps({**report, "warnings": warnings}))
        return 0
    from epdle.session.terminal import advice_text, candidates_text

    if advice.answer is not None:
        print(f"Solved: {display_word(advice.answer)}")
        return 0
    print(advice_text(advice, spec.strategy, prior=prior.get("line"), played=len(history)))
    if advice.candidates_left <= CANDIDATES_SHOWN:
        print(candidates_text(advice))
    return 0


def _history_error() -> type[Exception]:
    """What the Solver raises for a history it cannot take (its engine imported only then)."""
    from epdle.solver.engine import HistoryError

    return HistoryError


# The text lists the candidates when at most this many are left (--json always does).
CANDIDATES_SHOWN = 12


def advice_json(advice: Advice, strategy: str, hard: bool, blind: bool) -> dict[str, object]:
    """Everything the text shows, and the mode it was worked out in."""
    from epdle.solver.ranking.figure import lead_reason

    return {
        "strategy": strategy,
        "hard": hard,
        "blind": blind,
        "prior": prior_name(blind),
        "candidates_left": advice.candidates_left,
        "solved": advice.solved,
        "answer": advice.answer if advice.solved else None,
        "suggestions": [
            {
                "rank": rank,
                "word": s.word,
                "bits": round(s.bits, 4),
                "expected_left": round(s.expected_left, 4),
                "is_candidate": s.is_candidate,
                "guesses": None if s.guesses is None else round(s.guesses, 4),
                "guesses_from": s.source,  # the tree, the search or the estimate
                "chance": round(s.chance, 4),  # that it is the answer, under the prior
            }
            for rank, s in enumerate(advice.suggestions, start=1)
        ],
        "candidates": advice.candidates,
        # why the first suggestion leads one that shows fewer guesses (None: it does not)
        "lead": lead_reason(advice.suggestions),
    }


def repeated_guess_warnings(history: list[tuple[str, str]]) -> list[str]:
    seen: set[str] = set()
    warnings = []
    for turn, (guess, _) in enumerate(history, start=1):
        if guess in seen:
            warnings.append(f"guess {turn} {guess!r} was already played: it tells nothing new")
        seen.add(guess)
    return warnings


def _advice(
    spec: GameSpec, history: list[tuple[str, str]]
) -> tuple[Advice, bool, bool, dict[str, Any]]:
    """The advice for ``history`` with (hard, blind) as played, and the prior it was
    worked out under (prior_report): the solver's fast path
    (epdle.solver.ranking) before the Solver and numpy are loaded; where it declines, the
    Solver's own ranking (not advise(), which would try the fast path again)."""
    from epdle.solver.ranking import fast_advice

    advice = fast_advice(
        spec.strategy,
        spec.hard,
        spec.blind,
        spec.lists if spec.shipped else None,
        history,
        spec.top,
    )
    if advice is not None:  # the shipped tree's game: shipped lists
        return advice, spec.hard, False, {"name": spec.prior, "text": spec.prior}
    if spec.prior == HISTORY_PRIOR and not spec.dictionary:
        from epdle.session.history import known_history
        from epdle.solver.ranking import fast_history_advice

        known = known_history(spec.played)
        found = fast_history_advice(spec.strategy, spec.hard, history, spec.top, known, spec.day())
        if found is not None:
            from epdle.solver.history_prior import prior_text

            advice, day = found
            text = prior_text(len(day.weights), day.puzzle, day.last)
            report = {"name": HISTORY_PRIOR, "text": text} | history_report(day)
            return advice, spec.hard, True, report
    with progress_bar("preparing the solver") as progress:
        solver = spec.solver(progress=progress)
        advice = solver.engine_advice(history, top=spec.top)
        return advice, solver.hard, solver.blind, prior_report(solver.universe)


def prior_report(universe: Universe) -> dict[str, Any]:
    """The prior a universe weighs its words by: its name, in words, and for the history
    prior the day's puzzle, the newest answer known and a note if it is behind."""
    report: dict[str, Any] = {"name": universe.prior_name, "text": universe.prior_text}
    if universe.history is not None:
        report |= history_report(universe.history)
    return report


def history_report(history: HistoryPrior | DayPrior) -> dict[str, Any]:
    """The history prior's day, the newest answer it knew, its shares, and a note if it
    is behind."""
    from epdle.solver.history_prior import stale_note

    last = history.last
    return {
        "history": {
            "puzzle": history.puzzle,
            "last_date": last.date.isoformat() if last else None,
            "last_puzzle": last.puzzle if last else None,
            "days_behind": history.days_behind,
            "shares": {kind: round(share, 4) for kind, share in history.shares.items()},
        },
        "line": history_text(last.date.isoformat() if last else None, history.days_behind),
        "stale": stale_note(history.puzzle, last),
    }


def run_bench(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    spec = game_spec(args)
    if args.plot:
        _check_picture_name(args.plot)  # before the bench runs, not after

    def several() -> int:
        from epdle.cli.multi import run_multi_bench

        return run_multi_bench(spec, args)

    return GameSetup(spec).by_kind(lambda: _bench_one(spec, args, started), several)


def _bench_one(spec: GameSpec, args: argparse.Namespace, started: float) -> int:
    from epdle import words
    from epdle.solver.bench import run_bench as play_all

    if args.games is not None:
        raise UsageError("--games FILE plays several boards: give --boards N too")
    universe = spec.universe()
    if spec.answers:
        from epdle.words.languages import language

        hidden = words.read_word_file(spec.answers, language=language(spec.language))
    elif spec.dictionary:
        hidden = universe.answers
    else:
        hidden = list(words.answers(spec.lists))
    hidden = words.even_sample(hidden, args.limit, args.seed)
    with progress_bar("preparing the solver") as tree_progress:
        # The bench waits for a tree of any size: its figures are the tree's.
        solver = spec.solver(universe, tree_progress, tree_any_size=True)
        if solver.kind is Kind.TREE:  # build or load the tree before the clock runs
            solver.next_guess(solver.initial_state())
    if args.latency:
        return _run_latency(args, spec, solver, hidden)
    with progress_bar(f"bench {args.strategy}") as progress:
        result = play_all(solver, hidden, progress, started)
    if args.plot:
        from epdle.solver.pictures import plot_histogram

        plot_histogram(result, args.plot)
    if args.json:
        print(json.dumps(result.as_json()))
        return 0
    from epdle.solver.scoring import GAME_GUESSES

    mode = mode_name(result.hard, result.blind)
    from epdle.cli.tables import print_bench

    console = print_bench(
        f"bench: {result.strategy} ({mode}), first guess {result.first_guess}",
        f"failures (>{GAME_GUESSES})",
        (result.games, result.mean, result.max, result.failures, result.seconds),
        result.histogram,
    )
    published = result.against_published()
    if published is not None:
        console.print(published)
    return 0


def _check_picture_name(name: str) -> None:
    """A picture's file name the plotting library cannot write is a usage error."""
    from pathlib import Path

    from epdle.solver.pictures import check_format

    try:
        check_format(Path(name))
    except ValueError as error:
        raise UsageError(str(error)) from None


def run_tree(args: argparse.Namespace) -> int:
    from epdle.solver.pictures import decision_tree, draw_tree

    spec = game_spec(args)
    _check_picture_name(args.out)
    with progress_bar("preparing the solver") as progress:
        solver = spec.solver(progress=progress)
        root = decision_tree(solver, args.opener, args.depth, args.branches)
    mode = mode_name(solver.hard, solver.blind)
    title = f"{args.strategy} ({mode}) from {display_word(root.guess)}"
    draw_tree(root, args.out, title)
    print(f"wrote {args.out}")
    return 0


def _run_latency(
    args: argparse.Namespace, spec: GameSpec, solver: Solver, hidden: list[str]
) -> int:
    from epdle.solver.bench import measure_latency, second_turn_histories, time_processes

    openers = args.openers.lower().split(",") if args.openers else None
    histories = second_turn_histories(solver, hidden, args.per_opener, openers=openers)
    with progress_bar("timing suggest in process") as progress:
        in_process = measure_latency(solver, histories, progress)
    rows = {"in process": in_process}
    if args.processes:
        # Spread evenly over the openers.
        count = min(args.processes, len(histories))
        spread = [histories[i * len(histories) // count] for i in range(count)]
        with progress_bar("timing epdle suggest processes") as progress:
            rows["process"] = time_processes(suggest_options(spec), spread, progress)
    mode = mode_name(solver.hard, solver.blind)
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


def suggest_options(spec: GameSpec) -> list[str]:
    """The `epdle suggest` options that play `spec`'s game (its board, lists and mode)."""
    options = ["--strategy", spec.strategy]
    options += ["--hard"] * spec.hard + ["--blind"] * spec.blind
    options += ["--prior", spec.prior]
    if spec.dictionary:
        options += ["--length", str(spec.length)]
        options += ["--language", spec.language] if spec.language else []
    options += ["--keep-plurals"] * spec.keep_plurals
    if spec.shipped:
        options += ["--lists", spec.lists]
    for name in ("answers", "guesses"):
        if getattr(spec, name):
            options += [f"--{name}", getattr(spec, name)]
    return options
