"""Bench blind mode on the shipped dictionary lists: every length 4..9 per language.

    PYTHONPATH=host nice .venv/bin/python tools/bench/bench_languages.py --sample 150 \
        --languages en de es --out /tmp/bench-languages.jsonl

Each (language, length) plays `--sample` hidden words spread evenly over the
alphabetical candidate list (the words the answer is drawn from: dictionary words
of Zipf 2.5 or more, plurals left out), with the `best` strategy in blind mode,
as `epdle bench --blind --language L --length N --limit S` does, with the first
word of each stretch. One JSON
line per run is appended to --out as it finishes; the Markdown table is printed at
the end (docs/bench.md, "Other lengths and languages").
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from epdle.solver import Solver
from epdle.solver.bench import run_bench
from epdle.solver.universe import Universe
from epdle.words import even_sample
from epdle.words.languages import LANGUAGES, LENGTHS


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=150)
    parser.add_argument("--languages", nargs="+", default=["en", "de", "es"])
    parser.add_argument("--lengths", nargs="+", type=int, default=list(LENGTHS))
    parser.add_argument("--strategy", default="best")
    parser.add_argument("--out", type=Path, default=Path("bench-languages.jsonl"))
    args = parser.parse_args()
    rows = []
    for code in args.languages:
        for length in args.lengths:
            started = time.perf_counter()
            universe = Universe.dictionary(code, length)
            solver = Solver(args.strategy, universe=universe)
            hidden = even_sample(universe.answers, args.sample, None)
            result = run_bench(solver, hidden, started=started)
            row = {
                "language": code,
                "length": length,
                "guesses": len(universe.guesses),
                "candidates": len(universe.answers),
                **result.as_json(),
            }
            rows.append(row)
            with args.out.open("a") as handle:
                handle.write(json.dumps(row) + "\n")
            print(
                f"{code} {length}: {row['mean']:.4f} / {row['max']} / {row['failures']} "
                f"in {row['seconds']:.0f} s",
                flush=True,
            )
    print("| language | length | accepted | candidates | games | mean | max | over 6 | opener |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        name = LANGUAGES[row["language"]].name
        print(
            f"| {name} | {row['length']} | {row['guesses']:,} | {row['candidates']:,} | "
            f"{row['games']} | {row['mean']:.4f} | {row['max']} | {row['failures']} | "
            f"{row['first_guess'].upper()} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
