"""The frequency prior against the uniform default, on answers neither shipped list holds.

    PYTHONPATH=host nice .venv/bin/python tools/bench/bench_prior.py [--sample N] [--seed S]
    PYTHONPATH=host nice .venv/bin/python tools/bench/bench_prior.py --hard  # hard mode

Each game is played as `epdle play` advises it (GameSetup's game, its first suggestion
each turn): `--prior uniform` starts from the named answer list and widens to every
accepted word when the feedback leaves it; `--prior frequency` weighs every accepted word
from the first guess. Both play the same words (paired), on four sets:

- the New York Times answers since 2023-07-02 that are on neither list (original 2,315,
  2023's 3,158), from `data/nyt-answers-since-2023-07.tsv` (source in its header);
- a stated proxy for such answers: accepted words on neither list that the shipped English
  dictionary list holds (hunspell en_US, Zipf 2.0 or more) and that are not flagged as
  plurals or past tenses;
- the Times' answers since 2023-07-02, all of them (what a player met);
- the 2023 list's answers (the cost of the frequency prior on the list).

The larger sets are sampled (`--sample`, seeded); the table gives each mean with its
standard error and the paired difference (frequency - uniform) with its own. Writes
the `<!-- bench:prior -->` section of docs/bench.md (`--hard`: the same games in hard
mode, its `<!-- bench:prior-hard -->` section) and prints its rows.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import docs_tables

from epdle import words
from epdle.session.one_board import Game
from epdle.session.setup import GameSetup
from epdle.session.spec import GameSpec
from epdle.solver.prior import unlisted_flags
from epdle.solver.scoring import GAME_GUESSES, is_solved, score

ROOT = Path(__file__).resolve().parents[2]
BENCH_MD = ROOT / "docs" / "bench.md"
RECENT = Path(__file__).resolve().parent / "data" / "nyt-answers-since-2023-07.tsv"
# A game not solved within the game's guesses counts this many (lost).
LOST_AT = GAME_GUESSES + 1
SEED = 0
SAMPLE = 200


def recent_answers() -> list[str]:
    """The Times' answers since 2023-07-02, in the order played (repeats kept)."""
    lines = RECENT.read_text().splitlines()
    return [line.split("\t")[2] for line in lines if line and not line.startswith("#")]


def on_neither(candidates: Sequence[str]) -> list[str]:
    """Those of `candidates` on neither shipped answer list."""
    listed = set(words.answers("original")) | set(words.answers("nyt2023"))
    return [word for word in candidates if word not in listed]


def proxy_words() -> list[str]:
    """Accepted words on neither list, on the dictionary list, not plural nor past tense."""
    guesses = list(words.guesses())
    infos = words.word_info(guesses)
    unlisted = unlisted_flags(guesses, infos)
    table = words.language_table("en")
    kept = {
        word
        for word, info, off in zip(guesses, infos, unlisted, strict=True)
        if word in table and not off and not info.plural and not info.past_tense
    }
    return [word for word in on_neither(guesses) if word in kept]


def play(setup: GameSetup, answer: str) -> int:
    """Guesses `setup`'s game takes to find `answer`, its first suggestion each turn."""
    game = setup.new_game()
    assert isinstance(game, Game)
    for turn in range(1, GAME_GUESSES + 1):
        guess = game.advice.suggestions[0].word if game.advice.suggestions else None
        guess = guess or game.advice.candidates[0]
        feedback = score(guess, answer)
        if is_solved(feedback):
            return turn
        if turn < GAME_GUESSES:
            game.play(guess, feedback)
    return LOST_AT


@dataclass
class Row:
    test_set: str
    size: int
    prior: str
    guesses: list[int]
    seconds: float

    @property
    def mean(self) -> float:
        return statistics.fmean(self.guesses)

    @property
    def error(self) -> float:
        return docs_tables.standard_error(self.guesses)

    def lost(self, played: Sequence[str]) -> str:
        """How many games were lost, and which words when few."""
        lost = [
            w.upper() for w, turns in zip(played, self.guesses, strict=True) if turns > GAME_GUESSES
        ]
        return f"{len(lost)} ({', '.join(lost)})" if 0 < len(lost) <= 3 else str(len(lost))


def measure(name: str, size: int, played: Sequence[str], setups: dict[str, GameSetup]) -> list[Row]:
    rows = []
    for prior, setup in setups.items():
        started = time.process_time()
        guesses = [play(setup, answer) for answer in played]
        rows.append(Row(name, size, prior, guesses, time.process_time() - started))
        print(f"{name}, {prior}: {rows[-1].mean:.4f} over {len(played)}", flush=True)
    return rows


def table_row(row: Row, uniform: dict[str, Row], played: Sequence[str]) -> str:
    """One row; the frequency row's difference against each uniform row, paired."""
    n = len(row.guesses)
    if n <= 5:
        each = ", ".join(f"{w.upper()} {g}" for w, g in zip(played, row.guesses, strict=True))
        mean = f"{row.mean:.2f} ({each})"
    else:
        mean = f"{row.mean:.4f} +- {row.error:.4f}"
    differences = []
    for name, base in uniform.items():
        diffs = [a - b for a, b in zip(row.guesses, base.guesses, strict=True)]
        text = f"{statistics.fmean(diffs):+.4f}"
        if n > 5:
            text += f" +- {docs_tables.standard_error(diffs):.4f}"
        differences.append(f"{text} vs {name}")
    shown = f"{n} of {row.size}" if n < row.size else f"{n}"
    return (
        f"| {row.test_set} | {shown} | {row.prior} | {mean} | {max(row.guesses)} "
        f"| {row.lost(played)} | {'; '.join(differences)} | {row.seconds:.0f} |"
    )


def write_section(lines: list[str], recent: Sequence[str], sample: int, seed: int) -> None:
    original, lists_2023 = set(words.answers("original")), set(words.answers("nyt2023"))
    off = on_neither(sorted(set(recent)))
    added = sum(word in lists_2023 - original for word in recent)
    body = [
        "## The frequency prior on answers off both lists",
        "",
        "`--prior frequency` plays every accepted word from the first guess, weighted by the "
        "blind prior (`epdle.solver.prior.BLIND_PRIOR`: word frequency, plurals and past "
        "tenses less likely, fitted on the original answers); `--prior uniform`, the "
        "default, starts from an answer list, all its words equally likely, and widens to "
        "every accepted word when the feedback leaves it. Each game is played as `epdle "
        "play` advises (`best`, normal mode, the first suggestion each turn), both priors on "
        "the same words. Test sets: the Times' answers since 2023-07-02 "
        f"(`tools/bench/data/nyt-answers-since-2023-07.tsv`, {len(recent):,} puzzles) that "
        f"are on neither list are only {len(off)}, {', '.join(w.upper() for w in off)}; "
        f"{sum(word in original for word in recent):,} were on the original list and "
        f"{added} were among the 2023 list's additions. So the larger off-list set is a "
        "**proxy**, not answers: "
        "the accepted words on neither list that the shipped dictionary list holds "
        "(hunspell en_US, Zipf 2.0 or more) and that are not flagged as plurals or past "
        "tenses. " + _sampling(sample, seed),
        *_table(lines),
    ]
    docs_tables.write_section(BENCH_MD, "prior", body)


def write_hard_section(lines: list[str], sample: int, seed: int) -> None:
    body = [
        "### In hard mode",
        "",
        "The same games in hard mode (`--hard`: every guess keeps the hints found so far), "
        "on the same test sets and words as the table above. " + _sampling(sample, seed),
        *_table(lines),
    ]
    docs_tables.write_section(BENCH_MD, "prior-hard", body)


def _sampling(sample: int, seed: int) -> str:
    return (
        f"The larger sets are samples (seed {seed}, {sample} words); +- is one standard "
        "error, and the differences (against each uniform row, on the same words) are "
        f"paired. Lost: over {GAME_GUESSES} guesses, counted as {LOST_AT} in the mean. "
        f"Written by `tools/bench/bench_prior.py`; {docs_tables.machine()}, shared with "
        "other jobs (seconds: CPU time; widened, a uniform game plays on the frequency "
        "game's solver and what it has worked out already)."
    )


def _table(lines: list[str]) -> list[str]:
    return [
        "",
        "| test set | words | prior | mean guesses | max | lost | frequency - uniform | seconds |",
        "|---|---|---|---|---|---|---|---|",
        *lines,
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=SAMPLE, help="words per large set")
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--hard", action="store_true", help="play the games in hard mode")
    args = parser.parse_args()
    recent = recent_answers()
    rng = random.Random(args.seed)

    def sampled(pool: Sequence[str]) -> list[str]:
        return sorted(rng.sample(list(pool), min(args.sample, len(pool))))

    recent_set = sorted(set(recent))
    sets = [
        ("Times' answers since 2023-07 on neither list", on_neither(recent_set), False),
        ("proxy: dictionary words on neither list", proxy_words(), True),
        ("Times' answers since 2023-07", recent_set, True),
        ("the 2023 list's answers", list(words.answers("nyt2023")), True),
    ]
    hard = args.hard
    frequency = GameSetup(GameSpec(prior="frequency", hard=hard, top=1))
    setups = {"frequency": frequency}
    for lists in ("original", "nyt2023"):
        # Widened, the uniform game plays the frequency game's solver: made once.
        made = {("best", hard, True): frequency.solver(hard, True)}
        spec = GameSpec(lists=lists, hard=hard, top=1)
        setups[f"uniform ({lists})"] = GameSetup(spec, made=made)
    lines = []
    for name, pool, sample in sets:
        played = sampled(pool) if sample else pool
        rows = measure(name, len(pool), played, setups)
        uniform = {row.prior: row for row in rows if row.prior != "frequency"}
        for row in rows:
            lines.append(table_row(row, uniform if row.prior == "frequency" else {}, played))
    if hard:
        write_hard_section(lines, args.sample, args.seed)
    else:
        write_section(lines, recent, args.sample, args.seed)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
