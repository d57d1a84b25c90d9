"""How long a list of one's own answers takes to its first suggestion.

Samples N words (seeded) of the shipped accepted guesses as a list of one's own answers,
and times `epdle suggest --answers LIST` in a fresh process with an empty cache (so the
pattern matrix and whatever `best` needs are made as on a first use), for each N asked.
Lists of more than trees.TREE_MAX_ANSWERS answers are ranked by the estimate, not a
searched tree (trees.load_or_build_tree). Prints one line per N: seconds of wall time,
and what the machine was (cores, Python build, the load average at the start).

Usage: PYTHONPATH=host python tools/bench/bench_own_list.py [--sizes 500,3000] [--seed 5]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def first_suggestion_seconds(size: int, seed: int) -> float:
    from epdle import words

    pool = list(words.guesses())
    random.Random(seed).shuffle(pool)
    with tempfile.TemporaryDirectory() as folder:
        answers = Path(folder) / "answers.txt"
        answers.write_text("\n".join(pool[:size]) + "\n")
        environment = dict(os.environ, EPDLE_CACHE_DIR=str(Path(folder) / "cache"))
        started = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "epdle", "suggest", "--answers", str(answers), "--top", "3"],
            check=True,
            env=environment,
            stdout=subprocess.DEVNULL,
        )
        return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="500,3000", help="list sizes, comma-separated")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    machine = (
        f"{os.cpu_count()} cores, {platform.python_implementation()} "
        f"{platform.python_version()}, load average {os.getloadavg()[0]:.1f}"
    )
    for size in (int(text) for text in args.sizes.split(",")):
        seconds = first_suggestion_seconds(size, args.seed)
        print(f"{size:,} answers of one's own: first suggestion in {seconds:.1f} s ({machine})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
