"""docs/bench.md's measured tables, written by the runs that measure them.

Each table lives between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->` in the
document; nothing outside those markers is touched. A row is one `epdle bench --json`
run (the figures are that JSON's), keyed by the run's name and the code it ran on
(`--code`, e.g. before / after a change), and says what it was measured on: cores,
CPU model and Python build. A run measured again replaces its row; the others stay.
`tools/bench/bench_docs.py` is the command line.
"""

from __future__ import annotations

import json
import math
import os
import platform
import re
import statistics
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from epdle.words.languages import LANGUAGES, LENGTHS


@dataclass(frozen=True)
class Run:
    """One `epdle bench` command and the table row it fills."""

    name: str
    options: tuple[str, ...]
    # The sample size when the run plays a sample (`--limit`), to be said beside it.
    sample: int | None = None

    @property
    def latency(self) -> bool:
        return "--latency" in self.options


# The strategies and latency tables are of the original list, named (a game starts from
# the 2023 list: its own tables below).
_ORIGINAL = ("--lists", "original")


def _strategy_runs() -> list[Run]:
    runs = []
    for strategy in ("freq", "expected", "minimax", "entropy", "best"):
        runs.append(Run(f"{strategy} normal", ("--strategy", strategy, *_ORIGINAL)))
        runs.append(Run(f"{strategy} hard", ("--strategy", strategy, "--hard", *_ORIGINAL)))
    runs.append(Run("best blind", ("--blind", *_ORIGINAL)))
    runs.append(Run("best blind hard", ("--blind", "--hard", *_ORIGINAL)))
    return runs


def language_runs(sample: int) -> list[Run]:
    """Blind `best` on every shipped dictionary list, `sample` hidden words each."""
    return [
        Run(
            f"{LANGUAGES[code].name} {length}",
            ("--blind", "--language", code, "--length", str(length), "--limit", str(sample)),
            sample,
        )
        for code in sorted(LANGUAGES)
        for length in LENGTHS
    ]


# Cold `suggest` as a user runs it: whole processes printing the text, after one guess.
_LATENCY = {
    "normal": ("--latency", "--per-opener", "3", "--processes", "24"),
    "hard": ("--latency", "--hard", "--per-opener", "3", "--processes", "24"),
}
LATENCY_RUNS = [
    Run(f"suggest, {mode}", (*options, *_ORIGINAL)) for mode, options in _LATENCY.items()
]

# The shipped tree's own second turns alone, as whole processes.
_TREE_TURNS = ("--per-opener", "24", "--processes", "24", "--lists", "nyt2023")
# `best` on the 2023 list (`--lists nyt2023`): every answer, then cold `suggest` on it.
LISTS_2023_RUNS = [
    Run("best normal, nyt2023", ("--strategy", "best", "--lists", "nyt2023")),
    Run("best hard, nyt2023", ("--strategy", "best", "--hard", "--lists", "nyt2023")),
]
LATENCY_2023_RUNS = [
    Run(f"suggest, {mode}, nyt2023", (*options, "--lists", "nyt2023"))
    for mode, options in _LATENCY.items()
] + [
    Run(f"suggest on the tree, {mode}, nyt2023", (*options, "--openers", "tarse", *_TREE_TURNS))
    for mode, options in (("normal", ("--latency",)), ("hard", ("--latency", "--hard")))
]

SECTIONS: dict[str, Callable[[int], list[Run]]] = {
    "strategies": lambda sample: _strategy_runs(),
    "languages": language_runs,
    "latency": lambda sample: list(LATENCY_RUNS),
    "lists2023": lambda sample: list(LISTS_2023_RUNS),
    "latency2023": lambda sample: list(LATENCY_2023_RUNS),
}

GAME_HEADER = (
    "run",
    "code",
    "games",
    "mean",
    "max",
    "over six",
    "total",
    "first guess",
    "guesses: games",
    "seconds",
    "measured on",
)
LATENCY_HEADER = (
    "run",
    "code",
    "turns in process",
    "in process: median / p90 / max ms",
    "processes",
    "whole process: median / p90 / max ms",
    "measured on",
)

# The tree builds (tools/gen/build_best_tree.py --doc): one row per lists, mode and code.
TREE_HEADER = (
    "lists, mode",
    "code",
    "games",
    "total",
    "mean",
    "first guess",
    "tree nodes",
    "build s (wall)",
    "build s (CPU)",
    "load average (start / end)",
    "measured on",
)


def machine() -> str:
    """What a figure was measured on: cores, CPU model, Python build."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    python = f"{platform.python_implementation()} {platform.python_version()}"
    return f"{os.cpu_count()} cores ({model}), {python} ({platform.python_compiler()})"


def standard_error(values: Sequence[float]) -> float:
    """The standard error of the values' mean (of paired differences, given those): the
    sample standard deviation over the square root of their number; NaN under two."""
    if len(values) < 2:
        return math.nan
    return statistics.stdev(values) / math.sqrt(len(values))


def measure(run: Run, python: str = sys.executable, source: Path | None = None) -> dict:
    """The JSON `epdle bench --json` prints for this run (`source`: a checkout whose
    host/ package is run instead of the installed one)."""
    environment = dict(os.environ)
    if source is not None:
        environment["PYTHONPATH"] = str(source / "host")
    command = [python, "-m", "epdle", "bench", *run.options, "--json"]
    finished = subprocess.run(command, capture_output=True, text=True, env=environment)
    if finished.returncode != 0:
        lines = finished.stderr.strip().splitlines() or ["no message"]
        raise RuntimeError(f"{' '.join(command[2:])}: {lines[-1]}")
    result: dict = json.loads(finished.stdout)
    return result


def code_label(source: Path) -> str:
    """The code column for a checkout: its short commit, '+' when its host/ package (the
    code a run measures) differs from that commit."""

    def git(*arguments: str) -> str:
        command = ["git", "-C", str(source), *arguments]
        return subprocess.run(command, capture_output=True, text=True, check=True).stdout

    # The document the rows go to is not the code: a section measured run by run would
    # otherwise mark every row after the first as changed code.
    dirty = git("status", "--porcelain", "--untracked-files=all", "--", "host").strip()
    return git("rev-parse", "--short", "HEAD").strip() + ("+" if dirty else "")


def row_cells(run: Run, code: str, result: dict, measured_on: str) -> list[str]:
    """One table row: the run's figures, exactly as its JSON gives them."""
    if run.latency:
        timings = []
        for part in ("in process", "process"):
            figures = result.get(part)
            if figures is None:
                timings += ["", ""]
                continue
            spread = " / ".join(f"{figures[key]:g}" for key in ("median_ms", "p90_ms", "max_ms"))
            timings += [str(figures["turns"]), spread]
        return [run.name, code, *timings, measured_on]
    games = f"{result['games']:,}"
    if run.sample is not None:
        games += " (sample)"
    return [
        run.name,
        code,
        games,
        f"{result['mean']:.4f}",
        str(result["max"]),
        str(result["failures"]),
        f"{result['total']:,}",
        result["first_guess"].upper(),
        ", ".join(f"{turns}: {count}" for turns, count in result["histogram"].items()),
        f"{result['seconds']:g}",
        measured_on,
    ]


def _markers(name: str) -> tuple[str, str]:
    return f"<!-- bench:{name} -->", f"<!-- /bench:{name} -->"


def section_body(text: str, name: str) -> str:
    """What lies between a section's markers (ValueError: not exactly one pair)."""
    start, end = _markers(name)
    if text.count(start) != 1 or text.count(end) != 1 or text.index(start) > text.index(end):
        raise ValueError(f"the document needs one {start} ... {end} pair")
    return text.split(start, 1)[1].split(end, 1)[0]


def replace_section(text: str, name: str, body: str) -> str:
    """The document with the section's content replaced, everything else as it was."""
    start, end = _markers(name)
    section_body(text, name)  # checks the markers
    before, rest = text.split(start, 1)
    after = rest.split(end, 1)[1]
    return f"{before}{start}\n{body.strip()}\n{end}{after}"


def write_section(document: Path, name: str, lines: Sequence[str]) -> None:
    """Replaces the content of `document`'s section `name` (its markers must be there)
    by `lines`."""
    text = document.read_text(encoding="utf-8")
    document.write_text(replace_section(text, name, "\n".join(lines)), encoding="utf-8")


def _parse_rows(body: str, width: int) -> dict[tuple[str, str], list[str]]:
    """The section's rows by (run, code); lines of another table are dropped."""
    rows = {}
    for line in body.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| ") and len(cells) == width and cells[:2] != ["run", "code"]:
            rows[(cells[0], cells[1])] = cells
    return rows


def update_section(
    text: str, name: str, runs: Sequence[Run], new_rows: dict[tuple[str, str], list[str]]
) -> str:
    """The document with `new_rows` put in the section's table, in the runs' order (each
    run's codes in the order first written); rows not measured again stay as they were."""
    header = LATENCY_HEADER if runs and runs[0].latency else GAME_HEADER
    rows = _parse_rows(section_body(text, name), len(header))
    rows.update(new_rows)
    order = {run.name: number for number, run in enumerate(runs)}
    keys = sorted(rows, key=lambda key: order.get(key[0], len(order)))
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(rows[key]) + " |" for key in keys]
    return replace_section(text, name, "\n".join(lines))


def write(
    document: Path,
    name: str,
    runs: Sequence[Run],
    code: str,
    measured: Callable[[Run], dict],
    section_runs: Sequence[Run] | None = None,
    progress: Callable[[Run, dict], None] | None = None,
) -> None:
    """Measure each run and write its row into the document as soon as it is measured
    (a long session interrupted keeps what it measured); rows stay in the order of
    `section_runs` (default: `runs`)."""
    section_body(document.read_text(encoding="utf-8"), name)  # fail before measuring
    on = machine()
    for run in runs:
        result = measured(run)
        text = document.read_text(encoding="utf-8")
        cells = row_cells(run, code, result, on)
        ordered = runs if section_runs is None else section_runs
        document.write_text(update_section(text, name, ordered, {(run.name, code): cells}))
        if progress is not None:
            progress(run, result)


def select(runs: Sequence[Run], pattern: str | None) -> list[Run]:
    """The runs whose name matches `pattern` (a regular expression; None: all)."""
    if pattern is None:
        return list(runs)
    return [run for run in runs if re.search(pattern, run.name)]


def put_row(document: Path, name: str, header: Sequence[str], cells: list[str]) -> None:
    """Put one row into the section's table, replacing the row of the same first two
    cells (what and code); the other rows stay, in their order."""
    text = document.read_text(encoding="utf-8")
    rows = _parse_rows(section_body(text, name), len(header))
    rows.pop((header[0], header[1]), None)  # the header's own line
    rows[(cells[0], cells[1])] = cells
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows.values()]
    document.write_text(replace_section(text, name, "\n".join(lines)), encoding="utf-8")
