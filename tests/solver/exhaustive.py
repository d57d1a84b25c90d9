"""The optimal decision tree's total for tiny lists, by trying every guess at every node.

Written apart from epdle.solver.search (plain scoring, no pattern matrix, no estimate, no
beam), so that the search's totals can be checked against the true optimum.
"""

from __future__ import annotations

from collections import defaultdict
from functools import cache

from epdle.solver import score
from epdle.solver.scoring import hard_mode_violation

INFINITE = float("inf")


def optimal_total(
    guesses: list[str], answers: list[str], hard: bool, limit: int = 6, opener: str | None = None
) -> int | None:
    """The least total guesses over all answers, every game within `limit` guesses
    (None: impossible). Hard mode: every guess obeys the hints shown so far. `opener`:
    the first guess is that one."""
    everything = tuple(sorted(set(guesses) | set(answers)))

    @cache
    def cost(candidates: tuple[str, ...], allowed: tuple[str, ...], left: int) -> float:
        if left <= 0:
            return INFINITE
        if len(candidates) == 1:
            return 1.0
        splits = []
        for guess in allowed:
            parts: dict[str, list[str]] = defaultdict(list)
            for answer in candidates:
                parts[score(guess, answer)].append(answer)
            if left == limit and opener not in (None, guess):
                continue  # the root (the only node with `limit` guesses left)
            if len(parts) > 1 or guess in candidates:  # else it tells nothing
                splits.append((guess, parts))
        splits.sort(key=lambda split: -len(split[1]))  # good guesses first: more cut-offs
        best = INFINITE
        for guess, parts in splits:
            # Each word pays this guess, and each word not yet found two more at least
            # but the first found in its part.
            lower = len(candidates) + sum(2 * len(p) - 1 for p in parts.values() if p != [guess])
            if lower >= best:
                continue
            total = float(len(candidates))
            for feedback, part in sorted(parts.items(), key=lambda item: -len(item[1])):
                if part == [guess]:
                    continue
                narrowed = allowed
                if hard:
                    step = ((guess, feedback),)
                    narrowed = tuple(g for g in allowed if hard_mode_violation(step, g) is None)
                total += cost(tuple(part), narrowed, left - 1)
                if total >= best:
                    break
            best = min(best, total)
        return best

    total = cost(tuple(sorted(answers)), everything, limit)
    return None if total == INFINITE else int(total)
