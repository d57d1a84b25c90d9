"""Benchmarks of one solver: guesses per hidden word, and how fast it answers a turn."""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from epdle.solver.engine import Solver
from epdle.solver.names import prior_name
from epdle.solver.records import Record, published_optimum
from epdle.solver.scoring import GAME_GUESSES, score

# A game still unsolved after this many guesses is stopped and counted as a failure.
MAX_TURNS = 20


@dataclass
class BenchResult:
    strategy: str
    hard: bool
    blind: bool
    games: int
    mean: float
    max: int
    histogram: dict[int, int]  # guesses -> games
    failures: int  # games over GAME_GUESSES (or never solved)
    seconds: float
    first_guess: str
    worst_words: list[str] = field(default_factory=list)
    # The published optimum for these lists and mode, when every answer was played.
    published: Record | None = None
    # The prior the games were played under, by name (empty: the mode's, names.prior_name).
    prior: str = ""

    @property
    def total(self) -> int:
        return sum(turns * count for turns, count in self.histogram.items())

    def against_published(self) -> str | None:
        """What the total is next to the published optimum, in words (None: none known)."""
        if self.published is None:
            return None
        record = self.published
        over = self.total - record.total
        side = "over" if over > 0 else "under"
        relation = "equals it" if over == 0 else f"is {abs(over):,} {side} it"
        return (
            f"published optimum for {record.lists}: {record.total:,} "
            f"({record.opener.upper()} first); this total, {self.total:,}, {relation}"
        )

    def as_json(self) -> dict[str, object]:
        return {
            "strategy": self.strategy,
            "hard": self.hard,
            "blind": self.blind,
            "prior": self.prior or prior_name(self.blind),
            "games": self.games,
            "mean": round(self.mean, 4),
            "max": self.max,
            "histogram": {str(turns): count for turns, count in sorted(self.histogram.items())},
            "failures": self.failures,
            "seconds": round(self.seconds, 2),
            "first_guess": self.first_guess,
            "worst_words": self.worst_words,
            "total": self.total,
            "published_optimum": None if self.published is None else self.published.total,
        }


def play(solver: Solver, answer: str) -> list[str]:
    """The guesses the solver makes until it finds `answer` (at most MAX_TURNS)."""
    state = solver.initial_state()
    guesses: list[str] = []
    while len(guesses) < MAX_TURNS:
        guess = solver.next_guess(state)
        guesses.append(guess)
        feedback = score(guess, answer)
        if guess == answer:
            return guesses
        state = solver.apply(state, guess, feedback)
    return guesses


def run_bench(
    solver: Solver,
    hidden_words: Sequence[str],
    progress: Callable[[int, int], None] | None = None,
    started: float | None = None,
) -> BenchResult:
    """Play each hidden word; `started` lets the caller include its own setup in the time."""
    started = time.perf_counter() if started is None else started
    pool = set(solver.universe.answers)
    outside = [word for word in hidden_words if word not in pool]
    if outside:
        raise ValueError(
            f"{len(outside)} hidden words are not possible answers for this solver "
            f"(e.g. {outside[0]!r}); add them to the guess or answer list"
        )
    solver.universe.patterns  # noqa: B018 - build or load the matrix inside the timing
    turns: dict[str, int] = {}
    first_guess = ""
    for done, answer in enumerate(hidden_words, start=1):
        guesses = play(solver, answer)
        first_guess = first_guess or guesses[0]
        solved = guesses[-1] == answer
        turns[answer] = len(guesses) if solved else MAX_TURNS + 1
        if progress is not None:
            progress(done, len(hidden_words))
    histogram = Counter(turns.values())
    worst = max(turns.values(), default=0)
    universe = solver.universe
    every_answer = not solver.blind and sorted(turns) == sorted(universe.answers)
    published = published_optimum(universe.guesses, universe.answers, solver.hard)
    return BenchResult(
        strategy=solver.strategy,
        hard=solver.hard,
        blind=solver.blind,
        games=len(turns),
        mean=sum(turns.values()) / max(1, len(turns)),
        max=worst,
        histogram=dict(sorted(histogram.items())),
        failures=sum(count for t, count in histogram.items() if t > GAME_GUESSES),
        seconds=time.perf_counter() - started,
        first_guess=first_guess,
        worst_words=sorted(word for word, t in turns.items() if t == worst)[:10],
        published=published if every_answer else None,
        prior=universe.prior_name,
    )


# Second turns timed by the latency bench, after the solver's own first guess: popular
# first words, and openers that eliminate almost nothing (the slowest turns to rank).
LATENCY_OPENERS = ("salet", "crane", "slate", "adieu", "audio", "raise", "xylyl", "fuzzy")


@dataclass
class LatencyResult:
    histories: int
    seconds: list[float]  # per history, in the order given

    def summary(self) -> dict[str, float]:
        """Milliseconds: median, 90th percentile and worst."""
        ordered = sorted(self.seconds)
        ninetieth = ordered[min(len(ordered) - 1, int(0.9 * len(ordered)))]
        return {
            "median_ms": round(1000 * statistics.median(ordered), 1),
            "p90_ms": round(1000 * ninetieth, 1),
            "max_ms": round(1000 * ordered[-1], 1),
        }


def second_turn_histories(
    solver: Solver,
    hidden_words: Sequence[str],
    per_opener: int,
    seed: int = 1,
    openers: Sequence[str] | None = None,
) -> list[list[tuple[str, str]]]:
    """Histories of one first guess each: every opener (unless given, the solver's own first
    guess and LATENCY_OPENERS) against sampled hidden words."""
    if openers is None:
        own = solver.advise([], top=1).suggestions[0].word
        openers = list(dict.fromkeys([own, *LATENCY_OPENERS]))
    sample = random.Random(seed)
    histories = []
    for opener in openers:
        if opener not in solver.universe.guess_index:
            continue
        for answer in sample.sample(list(hidden_words), min(per_opener, len(hidden_words))):
            histories.append([(opener, score(opener, answer))])
    return histories


def measure_latency(
    solver: Solver,
    histories: Sequence[Sequence[tuple[str, str]]],
    progress: Callable[[int, int], None] | None = None,
) -> LatencyResult:
    """Time `advise` (what the daemon calls each turn) for each history, memo cleared.

    The disk caches (patterns, tree, openers) are warmed first: the goal is per turn.
    """
    solver.advise([], top=5)
    seconds = []
    for done, history in enumerate(histories, start=1):
        solver.forget_rankings()
        started = time.perf_counter()
        solver.advise(history, top=5)
        seconds.append(time.perf_counter() - started)
        if progress is not None:
            progress(done, len(histories))
    return LatencyResult(len(histories), seconds)


def time_processes(
    options: Sequence[str],
    histories: Sequence[Sequence[tuple[str, str]]],
    progress: Callable[[int, int], None] | None = None,
) -> LatencyResult:
    """Wall time of whole `epdle suggest` processes (interpreter start and imports
    included), each with `options` and printing its text as a user runs it (not --json):
    the `epdle` command beside this Python (else `python -m epdle`), its bytecode compiled
    and its files read once first, as after installing it and a first run."""
    import os
    import subprocess
    import sys

    script = os.path.join(os.path.dirname(sys.executable), "epdle")
    program = [script] if os.access(script, os.X_OK) else [sys.executable, "-m", "epdle"]
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

    def run(history: Sequence[tuple[str, str]]) -> None:
        text = ",".join(f"{guess}:{feedback}" for guess, feedback in history)
        command = [*program, "suggest", "--history", text, *options]
        finished = subprocess.run(command, capture_output=True, text=True, env=environment)
        if finished.returncode != 0:
            raise ValueError(f"epdle suggest failed: {finished.stderr.strip()}")

    for history in histories[:1]:
        run(history)  # untimed: writes the bytecode, reads the files into the page cache
    seconds = []
    for done, history in enumerate(histories, start=1):
        started = time.perf_counter()
        run(history)
        seconds.append(time.perf_counter() - started)
        if progress is not None:
            progress(done, len(histories))
    return LatencyResult(len(histories), seconds)
