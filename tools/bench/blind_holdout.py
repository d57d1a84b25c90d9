"""How much does the blind prior owe to the answers it is benched on? A held-out split.

    PYTHONPATH=host nice .venv/bin/python tools/bench/blind_holdout.py [options]
    (options: --hard, --held-out, --limit N)

The shipped prior was read off the full answer list that the blind bench hides.
Here the alphabetical answer list is split into half A (even positions) and half B
(odd positions). A prior fitted on A (A = answers, every other accepted word not)
is benched blind on B, and the other way round; the shipped prior and a prior
fitted on all answers are benched for comparison. Prints one markdown table.

A half fitted as if it were every answer sees the other half as non-answers, and
the prior's sigmoid (which tops out at 1) bends its shape to halve the answer rate:
the "fitted, half share" rows tell the fit that the flags mark half of the answers (and
count half an answer more of each demoted kind, so a kind the half lacks is not ruled out).
Every fit includes the factor for accepted words that the dictionary list lacks
(`epdle.solver.prior`); `--without-unlisted` fits and benches without it (factor 1),
as before that factor existed.
`--limit N` benches only the first N words of each set (a quick check); `--hard` plays
hard mode; `--held-out` runs only the "half share" rows (the held-out benches that count).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence
from dataclasses import dataclass

from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

from epdle import words
from epdle.solver.bench import BenchResult, run_bench
from epdle.solver.engine import Solver
from epdle.solver.prior import (
    BLIND_PRIOR,
    BLIND_UNLISTED_FACTOR,
    HALF_SHARE_PSEUDO_ANSWERS,
    Fit,
    fit_on,
)
from epdle.solver.universe import Universe


@dataclass
class Row:
    prior: str
    fitted_on: str
    benched_on: str
    games: int
    total_guesses: int
    max: int
    over_six: int
    seconds: float
    worst_words: list[str]

    @classmethod
    def from_bench(cls, prior: str, fitted_on: str, benched_on: str, result: BenchResult) -> Row:
        total = sum(turns * games for turns, games in result.histogram.items())
        return cls(
            prior,
            fitted_on,
            benched_on,
            result.games,
            total,
            result.max,
            result.failures,
            result.seconds,
            result.worst_words,
        )

    @classmethod
    def combined(cls, prior: str, fitted_on: str, benched_on: str, parts: Sequence[Row]) -> Row:
        worst = max(part.max for part in parts)
        return cls(
            prior,
            fitted_on,
            benched_on,
            sum(part.games for part in parts),
            sum(part.total_guesses for part in parts),
            worst,
            sum(part.over_six for part in parts),
            sum(part.seconds for part in parts),
            sorted(word for part in parts if part.max == worst for word in part.worst_words),
        )

    def markdown(self) -> str:
        mean = self.total_guesses / self.games
        cells = (self.prior, self.fitted_on, self.benched_on, str(self.games), f"{mean:.4f}",
                 str(self.max), str(self.over_six), f"{self.seconds:.0f}")  # fmt: skip
        return "| " + " | ".join(cells) + " |"


def bench(fit: Fit, hidden: Sequence[str], label: str, hard: bool = False) -> BenchResult:
    prior, factor = fit
    universe = Universe(words.guesses(), None, prior=prior, unlisted_factor=factor)
    started = time.perf_counter()
    solver = Solver("best", hard, blind=True, universe=universe)
    with Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    ) as progress:
        task = progress.add_task(label, total=len(hidden))
        return run_bench(
            solver,
            hidden,
            progress=lambda done, _total: progress.update(task, completed=done),
            started=started,
        )


def describe(fit: Fit) -> str:
    prior, factor = fit
    return (
        f"centre {prior.centre_zipf}, width {prior.width_zipf}, "
        f"plural x{prior.plural_factor}, past tense x{prior.past_tense_factor}, "
        f"unlisted x{factor}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, help="bench only the first N words of each set")
    parser.add_argument("--hard", action="store_true", help="play hard mode")
    parser.add_argument("--held-out", action="store_true", help="only the half-share rows")
    parser.add_argument(
        "--without-unlisted", action="store_true", help="no factor for unlisted words"
    )
    args = parser.parse_args()
    if args.limit is not None and args.limit < 1:
        parser.error("--limit must be at least 1")

    answers = list(words.answers("original"))
    halves = {"A": answers[0::2], "B": answers[1::2]}
    unlisted = not args.without_unlisted
    share, pseudo = 0.5, HALF_SHARE_PSEUDO_ANSWERS
    priors = {
        "A": fit_on(halves["A"], unlisted=unlisted),
        "B": fit_on(halves["B"], unlisted=unlisted),
        "A, half share": fit_on(halves["A"], share, pseudo, unlisted),
        "B, half share": fit_on(halves["B"], share, pseudo, unlisted),
        "all": fit_on(answers, unlisted=unlisted),
    }
    shipped_fit = (BLIND_PRIOR, BLIND_UNLISTED_FACTOR) if unlisted else (words.SHIPPED_PRIOR, 1.0)
    shipped_on = "all, + pseudo-answers" if unlisted else "all (by eye)"

    def hidden(name: str) -> list[str]:
        pool = answers if name == "all" else halves[name]
        return pool[: args.limit]

    def run(prior_name: str, prior: Fit, fitted_on: str, benched_on: str) -> Row:
        label = f"{prior_name} prior (fitted on {fitted_on}) on {benched_on}"
        result = bench(prior, hidden(benched_on), label, args.hard)
        return Row.from_bench(prior_name, fitted_on, benched_on, result)

    held_out_share = [
        run("fitted, half share", priors["A, half share"], "A", "B"),
        run("fitted, half share", priors["B, half share"], "B", "A"),
    ]
    share_rows = [
        *held_out_share,
        Row.combined("fitted, half share", "the other half", "A + B (held out)", held_out_share),
    ]
    if args.held_out:
        rows = share_rows
    else:
        held_out = [
            run("fitted", priors["A"], "A", "B"),
            run("fitted", priors["B"], "B", "A"),
        ]
        shipped = [
            run("shipped", shipped_fit, shipped_on, "A"),
            run("shipped", shipped_fit, shipped_on, "B"),
        ]
        in_sample = run("fitted", priors["all"], "all", "all")
        rows = [
            *held_out,
            Row.combined("fitted", "the other half", "A + B (held out)", held_out),
            *share_rows,
            *shipped,
            Row.combined("shipped", shipped_on, "A + B", shipped),
            in_sample,
        ]

    print("| prior | fitted on | benched on | games | mean | max | games over 6 | seconds |")
    print("|---|---|---|---|---|---|---|---|")
    for row in rows:
        print(row.markdown())
    print()
    for row in rows:
        if row.over_six:
            hardest = ", ".join(word.upper() for word in row.worst_words)
            print(f"- {row.prior} on {row.benched_on}: {row.max} guesses for {hardest}")
    print(f"- shipped: {describe(shipped_fit)}")
    for name, prior in priors.items():
        print(f"- fitted on {name}: {describe(prior)}")


if __name__ == "__main__":
    main()
