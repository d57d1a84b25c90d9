"""How long `epdle suggest --prior history` takes as a whole process, on real days.

For each of the last DAYS puzzles of the shipped answer history, with only the answers
before it (`--played` the shipped file, `--date` its day): the day's first suggestion
(the opener), then a later one, after the opener with the feedback the day's real answer
gave. Each is a fresh process, timed from its start to its exit. The first one runs
against a cache without that day's files (its prior and ranked openers; the pattern
matrix and the other files that do not depend on the day are linked in from the user's
cache), so it pays what a day's first suggestion pays; the later one then finds them.

Usage: PYTHONPATH=host python tools/bench/history_latency.py [--days 30] [--hard]
       [--repeat 1]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HISTORY = Path(__file__).resolve().parents[2] / "host" / "epdle" / "words" / "nyt-history.tsv"
# Files named so depend on the day played (its prior, and what is ranked under it).
DAY_FILES = ("history-prior-", "openers-", "best-tree-")
# Wall-clock time from start to exit, and the CPU time the process used (user and
# system: on shared cores the wall clock also counts the others' work).
FIGURES = ("first suggestion", "first suggestion, CPU", "later suggest", "later suggest, CPU")


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def day_cold_cache(user_cache: Path, into: Path) -> None:
    """A cache holding the user's files that do not depend on the day, linked."""
    into.mkdir(parents=True, exist_ok=True)
    if not user_cache.is_dir():
        return
    for entry in user_cache.iterdir():
        if entry.is_file() and not entry.name.startswith(DAY_FILES):
            (into / entry.name).symlink_to(entry)


def suggest(
    history: str | None, day: str, hard: bool, cache: Path
) -> tuple[float, float, dict[str, object]]:
    """(seconds, CPU seconds, the JSON answer) of one `epdle suggest` process."""
    command = [sys.executable, "-m", "epdle", "suggest", "--prior", "history"]
    command += ["--played", str(HISTORY), "--date", day, "--json"]
    if history:
        command += ["--history", history]
    if hard:
        command.append("--hard")
    env = {**os.environ, "EPDLE_CACHE_DIR": str(cache)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    elapsed = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command)}: {done.stderr.strip()}")
    return elapsed, cpu, json.loads(done.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=30, help="the last DAYS puzzles")
    parser.add_argument("--hard", action="store_true", help="hard mode")
    parser.add_argument("--repeat", type=int, default=1, help="time each later suggest N times")
    args = parser.parse_args()
    from epdle.solver.cache import cache_dir
    from epdle.solver.scoring import feedback
    from epdle.words.history import parse_history

    days = parse_history(HISTORY.read_text(encoding="utf-8"), str(HISTORY))[-args.days :]
    figures: dict[str, list[float]] = {name: [] for name in FIGURES}
    with tempfile.TemporaryDirectory(prefix="epdle-latency-") as temporary:
        for played in days:
            cache = Path(temporary) / played.date.isoformat()
            day_cold_cache(cache_dir(), cache)
            day = played.date.isoformat()
            first, first_cpu, advice = suggest(None, day, args.hard, cache)
            opener = advice["suggestions"][0]["word"]  # type: ignore[index]
            marks = feedback(opener, played.word)
            history = f"{opener}:{marks}"
            later = [suggest(history, day, args.hard, cache)[:2] for _ in range(args.repeat)]
            figures["first suggestion"].append(first)
            figures["first suggestion, CPU"].append(first_cpu)
            figures["later suggest"].extend(wall for wall, _ in later)
            figures["later suggest, CPU"].extend(cpu for _, cpu in later)
            print(
                f"{day} {played.word} {history} first {first * 1000:.0f} ms "
                f"({first_cpu * 1000:.0f} ms CPU), later {later[0][0] * 1000:.0f} ms "
                f"({later[0][1] * 1000:.0f} ms CPU)",
                flush=True,
            )
    print(
        f"{len(days)} days, {'hard' if args.hard else 'normal'} mode, "
        f"{os.cpu_count()} cores (load average {os.getloadavg()[0]:.1f}), "
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"{platform.processor() or platform.machine()}"
    )
    for name, values in figures.items():
        print(
            f"{name}: p50 {statistics.median(values) * 1000:.0f} ms, "
            f"p90 {percentile(values, 0.9) * 1000:.0f} ms, "
            f"max {max(values) * 1000:.0f} ms"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
