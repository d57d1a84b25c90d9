"""Several boards against doddle: the table of docs/bench.md's multi-board section.

Plays the same seeded games (the original answers, different words on each board)
with epdle's MultiSolver and with doddle 1.6.0's simultaneous entropy solver, draws
epdle's histograms (`epdle bench --boards N --plot`'s picture) and writes the table
between the `<!-- bench:multi -->` markers of docs/bench.md (which must be there). doddle
runs in a virtual environment of its own (build/doddle-venv, made here; it needs
numpy < 1.25) through tools/bench/doddle_multi.py, which writes each game as it ends: an
interrupted doddle run keeps its games, and the table then compares both solvers on the
games doddle played.

    PYTHONPATH=host .venv/bin/python tools/bench/bench_multi.py            # everything
    PYTHONPATH=host .venv/bin/python tools/bench/bench_multi.py --no-doddle  # doddle's games so far
    PYTHONPATH=host .venv/bin/python tools/bench/bench_multi.py --many  # 8, 16 and 32 boards
    PYTHONPATH=host .venv/bin/python tools/bench/bench_multi.py --hard  # hard mode

`--many` plays epdle alone on Octordle, Sedecordle and Duotrigordle (nobody's solver is
there to play them against) and writes the table between the `<!-- bench:multi-many -->`
markers (which must be there), beside OctordleBot's published figure.

`--hard` plays epdle alone in hard mode on Dordle, Quordle and Octordle, with its endgame
search and without it on the same games, checks every guess played against the hard rule
(rule_breaking: the one-board game's check, hard_mode_break, on each open board; it fails
at the first game type with a guess that keeps no open board's hints, before writing) and
writes the table between the `<!-- bench:multi-hard -->` markers (which must be there).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import docs_tables  # beside this script

from epdle import words
from epdle.solver.multi import MultiSolver, guess_limit, parse_multi_history
from epdle.solver.multi.bench import MultiBenchResult, run_bench, sample_games
from epdle.solver.multi.engine import MultiState
from epdle.solver.multi.picture import game_name, plot_multi_histogram
from epdle.solver.scoring import hard_mode_break, score
from epdle.solver.universe import Universe

ROOT = Path(__file__).resolve().parents[2]
WORK = ROOT / "build" / "bench-multi"
DODDLE_VENV = ROOT / "build" / "doddle-venv"
DODDLE_PINS = ("doddle==1.6.0", "numpy<1.25")
BENCH_MD = ROOT / "docs" / "bench.md"
RUNS = ((2, 500), (4, 500), (8, 200))  # boards, games
MANY_RUNS = ((8, 200), (16, 200), (32, 100))  # boards, games: epdle alone
HARD_RUNS = ((2, 1000), (4, 1000), (8, 200))  # boards, games: hard mode, epdle alone
# OctordleBot's published figure (its own page): the mean over the 2,315 original answers.
OCTORDLEBOT = "OctordleBot: 11.17 a game, 99.67 % won (published)"
SEED = 0
# Fresh `epdle suggest --boards 4` processes timed, on histories of played games.
TIMED_SUGGESTS = 20


def games_file(boards: int, count: int) -> Path:
    games = sample_games(words.answers("original"), boards, count, SEED)
    path = WORK / f"games-{boards}.txt"
    text = "".join(",".join(game) + "\n" for game in games)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)
    return path


def doddle_python() -> Path:
    python = DODDLE_VENV / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(DODDLE_VENV)], check=True)
        subprocess.run([str(python), "-m", "pip", "install", "-q", *DODDLE_PINS], check=True)
    return python


def doddle_games(boards: int, games: Path, run: bool) -> list[int]:
    """doddle's guesses per game, in order (the games it has not played yet played now,
    unless `run` is off)."""
    path = WORK / f"doddle-{boards}.jsonl"
    played = len(_read_doddle(path))
    if run and played < len(games.read_text().splitlines()):
        env = {**os.environ, "PYTHONPATH": str(ROOT / "host")}
        script = str(ROOT / "tools" / "bench" / "doddle_multi.py")
        with path.open("a") as out:
            subprocess.run(
                [str(doddle_python()), script, str(games), "--first", str(played + 1)],
                stdout=out,
                env=env,
                check=True,
            )
    return _read_doddle(path)


def _read_doddle(path: Path) -> list[int]:
    if not path.exists():
        return []
    played = {}
    for line in path.read_text().splitlines():
        row = json.loads(line)
        if "game" in row:
            played[row["game"]] = row["guesses"]
        elif isinstance(row.get("games"), list) and not played:  # a summary alone
            played.update(enumerate(row["games"], start=row.get("first", 1)))
    return [played[number] for number in sorted(played)]


def epdle_result(boards: int, games: Path, reuse: bool) -> MultiBenchResult:
    saved = WORK / f"epdle-{boards}.json"
    if reuse and saved.exists():
        data = json.loads(saved.read_text())
        return MultiBenchResult(
            boards=boards,
            hard=data["hard"],
            blind=data["blind"],
            games=data["games"],
            mean=data["mean"],
            max=data["max"],
            lost=data["lost"],
            histogram={int(turns): count for turns, count in data["histogram"].items()},
            seconds=data["seconds"],
            first_guess=data["first_guess"],
            per_game=data["per_game"],
        )
    hidden = [line.split(",") for line in games.read_text().splitlines()]
    solver = MultiSolver(boards, universe=Universe.shipped(lists="original"))
    started = time.perf_counter()
    result = run_bench(solver, hidden, None, started)
    saved.write_text(json.dumps({**result.as_json(), "per_game": result.per_game}))
    plot_multi_histogram(result, ROOT / "docs" / "img" / f"bench-multi-{boards}.png")
    print(f"epdle {game_name(boards)}: {json.dumps(result.as_json())}", flush=True)
    return result


def time_suggest(games: Path) -> tuple[float, float, float]:
    """p50 and p90 wall seconds of fresh `epdle suggest --boards 4` processes after one
    to three guesses of the first games, as epdle played them, and p90 CPU seconds."""
    solver = MultiSolver(4, universe=Universe.shipped(lists="original"))
    histories: list[str] = []
    for line in games.read_text().splitlines():
        hidden = line.split(",")
        state, text = solver.initial_state(), []
        for _ in range(1 + len(histories) % 3):
            guess = solver.next_guess(state)
            feedbacks = [
                None if b.solved_in else score(guess, h)
                for b, h in zip(state.boards, hidden, strict=True)
            ]
            state = solver.apply(state, guess, feedbacks)
            text.append(guess + ":" + "/".join(f or "-" for f in feedbacks))
            if not state.open_boards():
                break
        histories.append(",".join(text))
        if len(histories) == TIMED_SUGGESTS:
            break
    epdle = [str(ROOT / ".venv" / "bin" / "epdle")]
    times, cpu = [], []
    for history in histories:
        parse_multi_history(history, 4)  # a well-formed history, or this stops here
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        subprocess.run(
            [*epdle, "suggest", "--boards", "4", "--lists", "original", "--history", history],
            check=True,
            capture_output=True,
        )
        times.append(time.perf_counter() - started)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
    return statistics.median(times), _p90(times), _p90(cpu)


def _p90(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[int(0.9 * (len(ordered) - 1) + 0.5)]


def game_label(boards: int) -> str:
    """A game as the tables name it: "Quordle (4 boards, 9 guesses)"."""
    return f"{game_name(boards)} ({boards} boards, {guess_limit(boards)} guesses)"


def row(boards: int, ours: MultiBenchResult, theirs: list[int]) -> str:
    limit = guess_limit(boards)
    name = game_label(boards)
    ours_text = f"{ours.mean:.3f} / {ours.max} / {ours.lost}"
    if not theirs:
        return f"| {name} | {ours.games} | {ours_text} | 0 | | |"
    common = ours.per_game[: len(theirs)]
    lost = sum(count > limit for count in theirs)
    theirs_text = f"{statistics.fmean(theirs):.3f} / {max(theirs)} / {lost}"
    differences = [a - b for a, b in zip(common, theirs, strict=True)]
    spread = docs_tables.standard_error(differences)
    difference = statistics.fmean(differences)
    margin = ""
    if spread > 0:
        side = "ahead" if difference < 0 else "behind"
        by = abs(difference) / spread
        margin = f": {side} by {by:.1f} s.e." if round(by, 1) else ": level"
    paired = (
        f"{statistics.fmean(common):.3f} against {statistics.fmean(theirs):.3f} "
        f"({difference:+.3f} ± {spread:.3f}{margin})"
    )
    return f"| {name} | {ours.games} | {ours_text} | {len(theirs)} | {theirs_text} | {paired} |"


def write_section(
    rows: list[str], timing: tuple[float, float, float] | None, seconds: float
) -> None:
    lines = [
        "## Several boards (Dordle, Quordle, Octordle)",
        "",
        "Games of different words drawn from the 2,315 original answers (seed "
        f"{SEED}), the same games for both solvers; every guess is played on every open "
        "board. epdle: `MultiSolver` on the shipped lists (14,855 accepted guesses); doddle "
        "1.6.0: its simultaneous entropy solver (one ply) on the same lists, from its own "
        "opener, in a virtual environment of its own with numpy < 1.25. Mean / max / lost "
        "(a board still open at the limit). Written by `tools/bench/bench_multi.py`; "
        f"{docs_tables.machine()}, shared with other jobs; epdle's games took "
        f"{seconds:.0f} s in all.",
        "",
        "| game | games | epdle: mean / max / lost | doddle games | doddle: mean / max / lost "
        "| on doddle's games: epdle against doddle (difference ± its standard error) |",
        "|---|---|---|---|---|---|",
        *rows,
        "",
        "Where an interrupted doddle run played fewer games than epdle, the last column "
        "compares the two on the games it played. On its own seeded samples doddle reports "
        "4.817 (Dordle, 300 games, max 7), 6.953 (Quordle, 300, max 8) and 10.78 (Octordle, "
        "100, max 12).",
        "",
    ]
    if timing is not None:
        lines += [
            f"A Quordle `epdle suggest --boards 4` as a whole process, after one to three "
            f"guesses ({TIMED_SUGGESTS} runs, pattern matrix cached): p50 {timing[0]:.2f} s, "
            f"p90 {timing[1]:.2f} s wall on the shared cores; p90 {timing[2]:.2f} s of CPU "
            "time (what it takes on an idle core).",
            "",
        ]
    lines.append("![Quordle: guesses per game](img/bench-multi-4.png)")
    docs_tables.write_section(BENCH_MD, "multi", lines)


def many_row(boards: int, result: MultiBenchResult) -> str:
    won = result.games - result.lost
    name = game_label(boards)
    published = OCTORDLEBOT if boards == 8 else "none published"
    return (
        f"| {name} | {result.games} | {won} ({100 * won / result.games:.1f} %) "
        f"| {result.mean:.3f} | {result.max} | {result.lost} | {result.seconds:.0f} | {published} |"
    )


def write_many(rows: list[str]) -> None:
    """The `<!-- bench:multi-many -->` section of docs/bench.md, its rows `rows`."""
    lines = [
        "### Eight, sixteen and thirty-two boards",
        "",
        f"epdle alone (`MultiSolver`), on seeded games of different words drawn from the "
        f"2,315 original answers (seed {SEED}), every guess played on every open board. "
        "Won: every board solved within the game's limit (N + 5). Written by "
        f"`tools/bench/bench_multi.py --many`; {docs_tables.machine()}, shared with other "
        "jobs. OctordleBot's figure is its own, over all 2,315 answers, not these games.",
        "",
        "| game | games | won within the limit | mean | max | lost | seconds | published |",
        "|---|---|---|---|---|---|---|---|",
        *rows,
    ]
    docs_tables.write_section(BENCH_MD, "multi-many", lines)


def run_many() -> int:
    rows = []
    for boards, count in MANY_RUNS:
        games = sample_games(words.answers("original"), boards, count, SEED)
        solver = MultiSolver(boards, universe=Universe.shipped(lists="original"))
        result = run_bench(solver, games, None, time.perf_counter())
        print(f"epdle {game_name(boards)}: {json.dumps(result.as_json())}", flush=True)
        rows.append(many_row(boards, result))
    write_many(rows)
    print("\n".join(rows))
    return 0


def rule_breaking(histories: Sequence[Sequence[tuple[str, str]]], guess: str) -> bool:
    """Whether `guess` breaks several-board hard mode, given the open boards' (guess,
    feedback) histories: it keeps all the hints of none of them (the one-board game's own
    check, hard_mode_break, on each; not the solver's mask)."""
    return bool(histories) and all(hard_mode_break(history, guess) for history in histories)


class RuleCheckedSolver(MultiSolver):
    """A MultiSolver that checks each guess played (apply) against hard mode's rule
    (rule_breaking): `checked` guesses, `broken` of them breaking it."""

    checked = 0
    broken = 0

    def apply(self, state: MultiState, guess: str, feedbacks: Sequence[str | None]) -> MultiState:
        histories = [state.boards[index].history for index in state.open_boards()]
        self.checked += 1
        if rule_breaking(histories, guess):
            self.broken += 1
        return super().apply(state, guess, feedbacks)


def hard_row(
    boards: int,
    results: dict[bool, MultiBenchResult],
    cpu: dict[bool, float],
    checked: tuple[int, int],
) -> str:
    """One row of the hard-mode table: with the endgame search (True) and without;
    `checked`: guesses breaking the rule, of those checked."""
    name = game_label(boards)
    figures = [f"{r.mean:.3f} / {r.max} / {r.lost}" for r in (results[True], results[False])]
    differences = [
        a - b for a, b in zip(results[True].per_game, results[False].per_game, strict=True)
    ]
    paired = f"{statistics.fmean(differences):+.3f} ± {docs_tables.standard_error(differences):.3f}"
    return (
        f"| {name} | {results[True].games} | {figures[0]} | {figures[1]} | {paired} "
        f"| {checked[0]} of {checked[1]:,} | {cpu[True]:.0f} / {cpu[False]:.0f} |"
    )


def write_hard(rows: list[str]) -> None:
    """The `<!-- bench:multi-hard -->` section of docs/bench.md, its rows `rows`."""
    lines = [
        "### Hard mode on several boards",
        "",
        "epdle alone (`MultiSolver`, hard mode: every guess keeps all the hints of at least "
        "one open board), on seeded games of different words drawn from the 2,315 original "
        f"answers (seed {SEED}), every guess played on every open board; with its exact "
        "endgame search and without it (the estimate to the end), on the same games. "
        "Mean / max / lost (a board still open at the limit); the difference is with the "
        "search less without it, paired game by game, ± its standard error. Every guess "
        "played in both is checked against the rule with the one-board game's own check on "
        "each open board; a guess that keeps no open board's hints stops the run before "
        "this table is written. Seconds: CPU time, with / without the search. Written by "
        f"`tools/bench/bench_multi.py --hard`; {docs_tables.machine()}, shared with other "
        "jobs.",
        "",
        "| game | games | with the endgame search: mean / max / lost | without it: mean / "
        "max / lost | with - without (± s.e.) | guesses breaking the rule, of those checked "
        "| seconds (CPU) |",
        "|---|---|---|---|---|---|---|",
        *rows,
    ]
    docs_tables.write_section(BENCH_MD, "multi-hard", lines)


def run_hard() -> int:
    docs_tables.section_body(BENCH_MD.read_text(), "multi-hard")  # fail before measuring
    universe = Universe.shipped(lists="original")
    rows = []
    for boards, count in HARD_RUNS:
        games = sample_games(words.answers("original"), boards, count, SEED)
        results, cpu, checked, broken = {}, {}, 0, 0
        for endgame in (True, False):
            solver = RuleCheckedSolver(boards, hard=True, universe=universe, endgame=endgame)
            started = time.process_time()
            results[endgame] = run_bench(solver, games)
            cpu[endgame] = time.process_time() - started
            search = "with" if endgame else "without"
            summary = json.dumps(results[endgame].as_json())
            print(f"epdle {game_name(boards)} hard, {search} the endgame: {summary}", flush=True)
            checked, broken = checked + solver.checked, broken + solver.broken
            if solver.broken:
                print(
                    f"bench_multi: {game_name(boards)} hard, {search} the endgame search: "
                    f"{solver.broken} guesses broke the hard rule; docs/bench.md not written",
                    file=sys.stderr,
                )
                return 1
        rows.append(hard_row(boards, results, cpu, (broken, checked)))
        print(rows[-1], flush=True)
    write_hard(rows)
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--no-doddle", action="store_true", help="use doddle's games played so far")
    parser.add_argument("--no-timing", action="store_true", help="leave out the suggest timing")
    parser.add_argument(
        "--reuse-epdle", action="store_true", help="epdle's results of the last run (build/)"
    )
    parser.add_argument(
        "--many", action="store_true", help="epdle alone on 8, 16 and 32 boards (its own table)"
    )
    parser.add_argument(
        "--hard", action="store_true", help="epdle alone in hard mode, with and without its endgame"
    )
    args = parser.parse_args()
    if args.many:
        return run_many()
    if args.hard:
        return run_hard()
    WORK.mkdir(parents=True, exist_ok=True)
    rows = []
    files = {boards: games_file(boards, count) for boards, count in RUNS}
    for boards, _ in RUNS:
        ours = epdle_result(boards, files[boards], args.reuse_epdle)
        theirs = doddle_games(boards, files[boards], run=not args.no_doddle)
        rows.append(row(boards, ours, theirs))
    seconds = sum(
        json.loads((WORK / f"epdle-{boards}.json").read_text())["seconds"] for boards, _ in RUNS
    )
    timing = None if args.no_timing else time_suggest(files[4])
    write_section(rows, timing, seconds)
    print("\n".join(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
