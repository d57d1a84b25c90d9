"""Play doddle's multi-board solver on given games: the anchor of the multi-board bench.

doddle (PyPI, MIT) is not a dependency and none of its code is in this repository: it
runs in a virtual environment of its own (tools/bench/bench_multi.py makes it), with epdle's
sources on the path (only `epdle.words`, standard library only, is imported):

    PYTHONPATH=host build/doddle-venv/bin/python tools/bench/doddle_multi.py GAMES_FILE

GAMES_FILE has one game a line, its hidden words comma-separated. doddle's simultaneous
engine with its entropy solver (one ply) plays every game on epdle's shipped lists (the
2,315 original answers as candidates, the same accepted guesses) from its own opener;
each game's guesses are printed as it ends (one JSON line: game number, guesses), then
a summary line, so an interrupted run keeps the games it played.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from doddle.engine import SimulEngine
from doddle.histogram import HistogramBuilder
from doddle.scoring import Scorer
from doddle.simul_solver import EntropySimulSolver
from doddle.views import NullRunReporter
from doddle.words import Dictionary, Word, WordSeries

from epdle import words


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", help="one game a line, its hidden words comma-separated")
    parser.add_argument(
        "--first", type=int, default=1, help="start at this game (1-based), to resume a run"
    )
    args = parser.parse_args()
    with open(args.games, encoding="utf-8") as handle:
        games = [line.strip().split(",") for line in handle if line.strip()]
    started = time.perf_counter()
    all_words = WordSeries(list(words.guesses()))
    common = WordSeries(list(words.answers("original")))
    scorer = Scorer(5)
    histogram = HistogramBuilder(scorer, all_words, common, False)
    engine = SimulEngine(
        Dictionary(all_words, common),
        scorer,
        histogram,
        EntropySimulSolver(histogram),
        NullRunReporter(),
    )
    rounds = []
    first_guess = ""
    for number, game in enumerate(games[args.first - 1 :], start=args.first):
        played = engine.run([Word(answer) for answer in game], [])
        rounds.append(played.rounds)
        first_guess = first_guess or str(played.scoreboard.rows[0].guess).lower()
        print(json.dumps({"game": number, "guesses": played.rounds}), flush=True)
        print(f"doddle: {number}/{len(games)}", file=sys.stderr, flush=True)
    result = {
        "solver": "doddle 1.6.0 entropy",
        "first_guess": first_guess,
        "first": args.first,
        "games": rounds,
        "seconds": round(time.perf_counter() - started, 1),
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
