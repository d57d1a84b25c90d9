"""Play doddle (PyPI, MIT) on epdle's shipped dictionary lists: the anchor in docs/bench.md.

doddle is not a dependency and none of its code is in this repository: install it
into a throwaway virtual environment and run this script there, with epdle's
sources on the path (only `epdle.words`, which needs nothing but the standard
library, is imported):

    python3 -m venv /tmp/doddle-venv && /tmp/doddle-venv/bin/pip install doddle==1.6.0
    PYTHONPATH=host /tmp/doddle-venv/bin/python tools/bench/doddle_anchor.py --sample 150

doddle's engine is given the same accepted words and the same candidate pool
(`Dictionary(all words, common words)`), its entropy solver, and the same evenly
spread hidden words as tools/bench/bench_languages.py; its solver also picks the opener
for these lists (doddle's built-in openers are fixed per length for its own English
lists, and RAISE is no German word). doddle scores letters A-Z only, so
German and Spanish letters are relabelled onto spare codes ([ \\ ] ^ _) first: a
one-to-one relabelling leaves every feedback pattern unchanged.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter

from doddle.engine import Engine
from doddle.histogram import HistogramBuilder
from doddle.scoring import Scorer
from doddle.solver import EntropySolver, MinimaxSolver
from doddle.views import NullRunReporter
from doddle.words import Dictionary, Word, WordSeries

from epdle import words
from epdle.words.languages import LENGTHS
from epdle.words.sample import even_sample

SPARE = dict(zip("äöüßñ", "[\\]^_", strict=True))


def relabel(word: str) -> str:
    return "".join(SPARE.get(letter, letter) for letter in word)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=150)
    parser.add_argument("--languages", nargs="+", default=["en", "de", "es"])
    parser.add_argument("--lengths", nargs="+", type=int, default=list(LENGTHS))
    parser.add_argument("--solver", choices=["entropy", "minimax"], default="entropy")
    args = parser.parse_args()
    for code in args.languages:
        for length in args.lengths:
            started = time.perf_counter()
            shipped = words.language_list(code, length)
            all_words = WordSeries([relabel(w) for w in shipped.guesses])
            common = WordSeries([relabel(w) for w in shipped.candidates])
            dictionary = Dictionary(all_words, common)
            scorer = Scorer(length)
            histogram = HistogramBuilder(scorer, all_words, common, False)
            solver = (
                EntropySolver(histogram) if args.solver == "entropy" else MinimaxSolver(histogram)
            )
            engine = Engine(dictionary, scorer, histogram, solver, NullRunReporter())
            # doddle's own openers are fixed per length, worked out for its English lists:
            # its solver picks the opener for these lists instead, as for any later guess.
            opener_word = solver.get_best_guess(all_words, common).word
            turns = {}
            opener = ""
            for answer in even_sample(sorted(shipped.candidates), args.sample):
                game = engine.run(Word(relabel(answer)), [opener_word])
                turns[answer] = game.rounds
                opener = opener or str(game.scoreboard.rows[0].guess)
            counts = Counter(turns.values())
            row = {
                "language": code,
                "length": length,
                "solver": f"doddle {args.solver}",
                "first_guess": "".join(
                    {code: letter for letter, code in SPARE.items()}.get(c, c)
                    for c in opener.lower()
                ),
                "games": len(turns),
                "mean": round(sum(turns.values()) / len(turns), 4),
                "max": max(turns.values()),
                "failures": sum(n for t, n in counts.items() if t > 6),
                "seconds": round(time.perf_counter() - started, 1),
                "histogram": dict(sorted(counts.items())),
            }
            print(json.dumps(row), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
