"""Published optimal totals, and the list pairs they were published for.

`best`'s search proves nothing by itself: its totals are upper bounds (a tree that plays
so). Where the lists are those of a published exhaustive search and the total equals
its optimum, the total is optimal; elsewhere it is only the search's.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Record:
    total: int  # guesses over all answers, every game within six
    opener: str
    lists: str  # which lists, in words


def word_sets_digest(guesses: Sequence[str], answers: Sequence[str]) -> str:
    """A name for the word sets (order and duplicates aside; answers count as guesses)."""
    digest = hashlib.sha256()
    digest.update("\n".join(sorted(set(answers))).encode())
    digest.update(b"\n--guesses--\n")
    digest.update("\n".join(sorted(set(guesses) | set(answers))).encode())
    return digest.hexdigest()[:20]


_ORIGINAL = "the original lists (2,315 answers, 12,972 guesses)"
_NYT = "the New York Times lists of 2022-08-30 (2,309 answers, 14,855 guesses)"
_NYT2023 = "the New York Times lists of 2023-07-01 (3,158 answers, 14,855 guesses)"
# By exhaustive search (Alex Selby), keyed by (word_sets_digest, hard).
RECORDS = {
    ("2f9e7c12c6bf7707b90a", False): Record(7920, "salet", _ORIGINAL),
    ("2f9e7c12c6bf7707b90a", True): Record(8122, "salet", _ORIGINAL),
    ("1ef2e89f18320226a73a", False): Record(7883, "tarse", _NYT),
    ("1ef2e89f18320226a73a", True): Record(8097, "salet", _NYT),
    ("629ee8940fa3954c3f43", False): Record(11219, "tarse", _NYT2023),
    ("629ee8940fa3954c3f43", True): Record(11627, "tarse", _NYT2023),
}


def published_optimum(guesses: Sequence[str], answers: Sequence[str], hard: bool) -> Record | None:
    """The published optimum for these lists and mode, if there is one."""
    return RECORDS.get((word_sets_digest(guesses, answers), hard))
