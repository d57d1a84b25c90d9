"""How long the daemon takes to answer a feed line in a game of several boards.

Plays seeded games (each board a different answer of the original list) through the
controller the daemon uses, one `guess c/c/c/c` line a turn, the solver's own first
suggestion each time. For every line it times the answer (parsing the line and the
solver's advice: what the daemon logs) and, apart, the panel frames rendered for it. The
push to the device is left out: it follows the answer and its time is the link's (see
`epdle link-bench`).

Usage: PYTHONPATH=host python tools/bench/boards_latency.py [--boards 4] [--games 30] [--seed 1]
       [--markdown docs/boards-latency.md]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from pathlib import Path


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def measure(
    boards: int, games: int, seed: int
) -> tuple[list[float], list[float], list[float], int]:
    """(answer ms, answer CPU ms, frames ms) of every line, and the games lost."""
    from epdle import words
    from epdle.session.boards import MultiGame
    from epdle.session.controller import Controller
    from epdle.session.presenter import DevicePresenter
    from epdle.solver import score
    from epdle.solver.multi import MultiSolver
    from epdle.solver.multi.bench import sample_games
    from epdle.solver.universe import Universe

    solver = MultiSolver(boards, universe=Universe.shipped(lists="original"))
    solver.advise([], top=5)  # the opening is worked out once, before the game starts
    answers_ms: list[float] = []
    cpu_ms: list[float] = []
    frames_ms: list[float] = []
    lost = 0
    for hidden in sample_games(list(words.answers("original")), boards, games, seed):
        controller = Controller(MultiGame(solver, top=5), DevicePresenter("sim://"))
        controller.defer_pushes = True  # the answer alone; no device is opened
        game = controller.game
        while not game.over:
            guess = game.advice.suggestions[0].word
            open_boards = game.open_boards()
            line = (
                guess
                + " "
                + "/".join(
                    score(guess, answer) if is_open else "-"
                    for answer, is_open in zip(hidden, open_boards, strict=True)
                )
            )
            started, cpu = time.perf_counter(), time.process_time()
            outcome = controller.handle(line)
            answered, cpu = time.perf_counter(), time.process_time() - cpu
            controller.frames()
            drawn = time.perf_counter()
            if outcome.error is not None:
                raise SystemExit(f"{line}: {outcome.error}")
            answers_ms.append(1000 * (answered - started))
            cpu_ms.append(1000 * cpu)
            frames_ms.append(1000 * (drawn - answered))
        lost += game.lost
    return answers_ms, cpu_ms, frames_ms, lost


def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def describe(values: list[float]) -> str:
    return (
        f"median {statistics.median(values):.0f}, p90 {percentile(values, 0.9):.0f}, "
        f"max {max(values):.0f} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--boards", type=int, default=4)
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown", type=Path, help="write the figures to this file")
    args = parser.parse_args()
    answers, cpu, frames, lost = measure(args.boards, args.games, args.seed)
    where = (
        f"{os.cpu_count()} cores ({cpu_name()}), "
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"load {os.getloadavg()[0]:.1f} at the end"
    )
    lines = [
        f"{args.boards} boards, {args.games} seeded games (seed {args.seed}), "
        f"{len(answers)} feed lines, {lost} game(s) lost; {where}",
        f"answer (line parsed, advice ready): {describe(answers)}",
        f"the same in CPU time (what the load does not stretch): {describe(cpu)}",
        f"frames rendered for the panel: {describe(frames)}",
        f"answer and frames: {describe([a + f for a, f in zip(answers, frames, strict=True)])}",
    ]
    print("\n".join(lines))
    if args.markdown is not None:
        args.markdown.write_text(
            "# The daemon's answer with several boards\n\n"
            "Written by `tools/bench/boards_latency.py`: each feed line of seeded games played "
            "through the daemon's controller, in process; the push to the device, which "
            "follows the answer, is not counted. Again with: `PYTHONPATH=host python "
            f"tools/bench/boards_latency.py --boards {args.boards} --games {args.games} --seed "
            f"{args.seed} --markdown {args.markdown}`. Wall-clock times grow with the load "
            "of the cores; CPU time does not.\n\n" + "\n".join(f"- {line}" for line in lines) + "\n"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
