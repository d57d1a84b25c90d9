"""The history prior replayed: every real puzzle of a range, with only the answers before it.

    PYTHONPATH=host nice .venv/bin/python tools/bench/bench_history.py --out /tmp/replay.json
    PYTHONPATH=host .venv/bin/python tools/bench/bench_history.py --table /tmp/replay.json

Each puzzle of the shipped history (`epdle/words/nyt-history.tsv`) is played as `epdle
play` advises it (GameSetup's game, `best`, its first suggestion each turn), normal and
hard: `--prior history` on that day (`--played` the shipped file, `--date` the puzzle's:
nothing dated that day or later is read), beside `--prior uniform` from the 2023 list and
from the original list (widening when the feedback leaves them) and `--prior frequency`,
all on the same answers (paired). The eras: 743-1688 (the Times ran no repeat), 1689 on
(repeats). `--step K` plays every K-th puzzle of the first era (the second is played
whole). Results go to a JSON file as they come (`--out`), and `--table` writes the
`<!-- bench:history -->` section of docs/bench.md from it.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path

import docs_tables
from bench_prior import LOST_AT, play

from epdle.session.setup import GameSetup
from epdle.session.spec import GameSpec
from epdle.solver.cache import cache_dir
from epdle.solver.scoring import GAME_GUESSES, score
from epdle.words.history import SHIPPED_HISTORY, Played, shipped_history

ROOT = Path(__file__).resolve().parents[2]
BENCH_MD = ROOT / "docs" / "bench.md"
ERAS = ((743, 1688), (1689, None))
PRIORS = ("history", "uniform (nyt2023)", "uniform (original)", "frequency")


def measure(out: Path, step: int, modes: list[bool]) -> None:
    shipped = str(resources.files("epdle.words").joinpath(SHIPPED_HISTORY))
    results = json.loads(out.read_text()) if out.exists() else []
    done = {(r["puzzle"], r["hard"]) for r in results}
    history = shipped_history()
    groups = [
        [p for p in history if p.puzzle >= ERAS[1][0]],
        [p for p in history if ERAS[0][0] <= p.puzzle <= ERAS[0][1]][::step],
    ]
    setups = {hard: fixed_setups(hard) for hard in modes}
    for puzzles in groups:
        for hard in modes:
            replay(puzzles, hard, setups[hard], shipped, done, results, out)


def fixed_setups(hard: bool) -> dict[str, GameSetup]:
    """The priors that are the same every day."""
    fixed = {"frequency": GameSetup(GameSpec(prior="frequency", hard=hard, blind=True, top=1))}
    blind = fixed["frequency"].solver(hard, True)
    for lists in ("nyt2023", "original"):
        # Widened, the uniform game plays the frequency game's solver: made once.
        made = {("best", hard, True): blind}
        spec = GameSpec(lists=lists, hard=hard, top=1)
        fixed[f"uniform ({lists})"] = GameSetup(spec, made=made)
    return fixed


def replay(
    puzzles: list[Played],
    hard: bool,
    fixed: dict[str, GameSetup],
    shipped: str,
    done: set[tuple[int, bool]],
    results: list[dict[str, object]],
    out: Path,
) -> None:
    for played in puzzles:
        if (played.puzzle, hard) in done:
            continue
        day = played.date.isoformat()
        spec = GameSpec(prior="history", blind=True, hard=hard, top=1, played=shipped, date=day)
        started = time.process_time()
        row = {"puzzle": played.puzzle, "word": played.word, "hard": hard}
        row["history"] = play(GameSetup(spec), played.word)
        row["seconds"] = time.process_time() - started
        for name, setup in fixed.items():
            row[name] = play(setup, played.word)
        results.append(row)
        out.write_text(json.dumps(results))
        print(json.dumps(row), flush=True)


def measure_latency(out: Path, days: int, answers: int) -> None:
    """Whole `epdle suggest` processes under the history prior, wall time: the first of
    each of the last `days` days of the shipped history (its opening not yet in the
    cache), then after its first guess on the `answers` answers before those days."""
    shipped = str(resources.files("epdle.words").joinpath(SHIPPED_HISTORY))
    history = shipped_history()
    results = json.loads(out.read_text()) if out.exists() else {}
    first, later = [], []
    # A cache of its own, holding only the pattern matrices (built once per install):
    # no day's opening is in it yet.
    cache = Path(tempfile.mkdtemp(prefix="epdle-latency-"))
    for matrix in cache_dir().glob("patterns-*.npy"):
        (cache / matrix.name).symlink_to(matrix)
    os.environ["EPDLE_CACHE_DIR"] = str(cache)
    for played in history[-days:]:
        base = ["suggest", "--prior", "history", "--played", shipped]
        base += ["--date", played.date.isoformat(), "--top", "1"]
        seconds, report = _timed([*base, "--json"])
        first.append(seconds)
        opener = report["suggestions"][0]["word"]
        for other in history[-days - answers : -days]:
            feedback = score(opener, other.word)
            later.append(_timed([*base, "--history", f"{opener}:{feedback}"])[0])
    shutil.rmtree(cache)
    results["latency"] = {"first": first, "later": later}
    out.write_text(json.dumps(results))
    print(json.dumps(results["latency"]))


def _timed(argv: list[str]) -> tuple[float, dict[str, object]]:
    command = [sys.executable, "-m", "epdle", *argv]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    seconds = time.perf_counter() - started
    return seconds, json.loads(done.stdout) if "--json" in argv else {}


def latency_text(path: Path | None) -> str:
    """The latency figures in a sentence, if measured."""
    if path is None or not path.exists():
        return ""
    figures = json.loads(path.read_text())["latency"]
    first, later = sorted(figures["first"]), sorted(figures["later"])
    p90 = later[max(0, math.ceil(0.9 * len(later)) - 1)]
    return (
        f" Latency (`--latency`, whole `epdle suggest --prior history` processes, wall "
        "time): a day's first suggestion, its opening not yet cached, "
        f"{statistics.median(first):.2f} s median, {first[-1]:.2f} s worst of {len(first)} "
        "days; after the first guess "
        f"{statistics.median(later) * 1000:.0f} ms median, p90 {p90 * 1000:.0f} ms over "
        f"{len(later)} games (goals: 2 s and 150 ms)."
    )


def write_table(out: Path, latency: Path | None = None) -> None:
    results = json.loads(out.read_text())
    lines = []
    for first, end in ERAS:
        for hard in (False, True):
            rows = [
                r
                for r in results
                if r["hard"] == hard
                and r["puzzle"] >= first
                and (end is None or r["puzzle"] <= end)
            ]
            if not rows:
                continue
            era = f"{first}-{end if end is not None else max(r['puzzle'] for r in rows)}"
            for prior in PRIORS:
                turns = [r[prior] for r in rows]
                lost = sum(t > GAME_GUESSES for t in turns)
                if prior == "history":
                    against = "—"
                    seconds = f"{statistics.fmean(r['seconds'] for r in rows):.2f}"
                else:
                    diffs = [r["history"] - r[prior] for r in rows]
                    error = docs_tables.standard_error(diffs)
                    mean = statistics.fmean(diffs)
                    against = f"{mean:+.3f} ± {error:.3f}"
                    if error > 0:
                        against += f" ({abs(mean) / error:.1f} s.e.)"
                    seconds = ""
                lines.append(
                    f"| {era} | {'hard' if hard else 'normal'} | {len(rows)} | {prior} "
                    f"| {statistics.fmean(turns):.3f} ± {docs_tables.standard_error(turns):.3f} "
                    f"| {max(turns)} | {lost} | {against} | {seconds} |"
                )
    body = [
        "## The history prior, replayed on the Times' puzzles",
        "",
        "Each puzzle played as `epdle play` advises (`best`, the first suggestion each turn) "
        "with `--prior history` on its day, fitted on the answers before it alone "
        "(walk-forward: `--played` the shipped history, `--date` the puzzle's), beside the "
        "uniform prior from the 2023 list and from the original list and the frequency "
        "prior, on the same answers. Era 743-1688: the Times ran no repeat (every "
        "puzzle of the era, or every K-th with `--step K`: the games column says how many "
        "of its 946); 1689 on: repeats. ± is one standard error; history - other is paired. Lost: "
        f"over {GAME_GUESSES} guesses, counted as {LOST_AT}. Seconds: the history game's CPU "
        "time, its day's prior and opening included. Written by "
        f"`tools/bench/bench_history.py`; {docs_tables.machine()}, shared with other jobs."
        + latency_text(latency),
        "",
        "| puzzles | mode | games | prior | mean guesses | max | lost | history - this | s |",
        "|---|---|---|---|---|---|---|---|---|",
        *lines,
    ]
    docs_tables.write_section(BENCH_MD, "history", body)
    print("\n".join(lines))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="play, adding results to this JSON file")
    parser.add_argument("--table", type=Path, help="write docs/bench.md's table from this file")
    parser.add_argument("--step", type=int, default=1, help="every K-th puzzle of 743-1688")
    parser.add_argument("--modes", default="normal,hard", help="normal, hard or both")
    parser.add_argument(
        "--latency", type=Path, help="time whole `epdle suggest` processes into this JSON file"
    )
    args = parser.parse_args()
    if args.latency and not args.latency.exists():
        measure_latency(args.latency, days=5, answers=10)
    if args.out:
        modes = [name == "hard" for name in args.modes.split(",")]
        measure(args.out, args.step, modes)
    if args.table:
        write_table(args.table, args.latency)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
