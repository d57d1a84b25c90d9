"""Advice from the shipped decision tree and its book, in pure Python (no numpy).

A one-shot `epdle suggest` spends most of its time starting Python and importing numpy,
while the answer for a game still on the shipped tree is already known: the tree holds
the guess, and the book beside it (`best-book-<lists>-<mode>.json`, written by
tools/gen/build_best_tree.py from the Solver itself) the ranked runners-up the Solver shows.
Here the candidates and each suggestion's statistics are recomputed by plain scoring,
so the result equals `Solver("best").advise(...)` on the shipped lists (a test holds
them to it) without loading the pattern engine. Anything else returns None and the
caller asks the Solver.
"""

from __future__ import annotations

import json
import math
import os
from collections import Counter
from collections.abc import Sequence
from functools import cache, lru_cache

from epdle.solver.advice import Advice, Suggestion, worth_showing
from epdle.solver.cache import lists_key, remembered_key
from epdle.solver.names import mode_name
from epdle.solver.ranking.figure import TREE, figured, tree_figure
from epdle.solver.scoring import feedback
from epdle.solver.settings import estimated_cost
from epdle.words.named import DEFAULT_LISTS, answers_file

BOOK_FORMAT = 1
# Ranked guesses the book keeps per node (the tree's own guess first): `--top` up to this.
BOOK_DEPTH = 10
# Candidates Advice lists (most likely first; uniform weights keep the list order).
_LISTED_CANDIDATES = 100


def path_key(history: Sequence[tuple[str, str]]) -> str:
    """The tree key of a history: 'salet:BBYBB/crony:GYBBB' ('' for the first turn)."""
    return "/".join(f"{guess}:{feedback}" for guess, feedback in history)


def tree_file_name(key: str, hard: bool) -> str:
    return f"best-tree-{key}-{mode_name(hard)}.json"


def book_file_name(key: str, hard: bool) -> str:
    return f"best-book-{key}-{mode_name(hard)}.json"


# Beside this package, as importlib.resources would find them (os.path: pathlib and
# importlib.resources cost a cold process more than the whole answer).
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@cache
def shipped_lists(lists: str = DEFAULT_LISTS) -> tuple[list[str], list[str]]:
    """(guesses, answers) of the named shipped lists (epdle.words.named), read plainly:
    epdle.words and importlib.resources cost a cold process more than the whole answer.
    The lists key checks what was read (a list as epdle.words reads it, a word once each,
    or the key names no tree and no matrix: the Solver answers)."""
    return _shipped_files(lists)[0].split(), shipped_answers(lists)


@cache
def shipped_answers(lists: str = DEFAULT_LISTS) -> list[str]:
    """shipped_lists()'s answers, without splitting the twelve thousand guesses."""
    return _shipped_files(lists)[1].split()


@cache
def _shipped_files(lists: str) -> tuple[str, str]:
    """The text of the named shipped lists' files (guesses, answers)."""
    folder = os.path.join(_PACKAGE_DIR, "words")
    answers = os.path.join(folder, answers_file(lists))
    return _read(os.path.join(folder, "guesses.txt")), _read(answers)


def guesses_text() -> str:
    """The shipped guesses file's text (every named list's guesses), one word a line."""
    return _shipped_files(DEFAULT_LISTS)[0]


@cache
def shipped_key(lists: str = DEFAULT_LISTS) -> str:
    """The lists key of the named shipped lists (their Universe's key, found
    without numpy), remembered with the files' text: answering from the tree, a one-shot
    suggest never splits the guesses."""
    guesses, answers = _shipped_files(lists)
    text = f"{len(guesses)}:{guesses}{answers}"  # the two files, told apart
    return remembered_key(text, lambda: lists_key(*shipped_lists(lists)), lists)


@cache
def _shipped_zipf() -> dict[str, float]:
    """The shipped guesses' Zipf frequencies (words/frequencies.tsv), read plainly as
    shipped_lists reads the lists."""
    table = {}
    for line in _read(os.path.join(_PACKAGE_DIR, "words", "frequencies.tsv")).splitlines():
        if line and not line.startswith("#"):
            word, zipf, _ = line.split("\t", 2)
            table[word] = float(zipf)
    return table


def common_key(word: str) -> tuple[float, str]:
    """Where a shipped guess goes among equal ones: the more common word first, then
    alphabetically (Universe.common_rank's order, without numpy; read only when a tie
    needs it)."""
    return -_shipped_zipf().get(word, 0.0), word


def _read(path: str) -> str:
    with open(path, encoding="utf-8") as handle:
        return handle.read()


def _data_file(name: str) -> str:
    return os.path.join(_PACKAGE_DIR, "solver", "data", name)


@cache
def tree_and_book(
    hard: bool, lists: str = DEFAULT_LISTS
) -> tuple[dict[str, str], dict[str, list[str]]] | None:
    """(tree, book) shipped for the named lists, or None if either is missing or stale."""
    try:
        key = shipped_key(lists)
        tree_document = json.loads(_read(_data_file(tree_file_name(key, hard))))
        book_document = json.loads(_read(_data_file(book_file_name(key, hard))))
    except (OSError, ValueError):  # a list or a file missing: the Solver will say so
        return None
    if tree_document.get("lists") != key or book_document.get("lists") != key:
        return None
    if book_document.get("format") != BOOK_FORMAT:
        return None
    return tree_document["tree"], book_document["book"]


def candidates_after(history: Sequence[tuple[str, str]], answers: Sequence[str]) -> list[str]:
    """The answers every (guess, feedback) of the history allows, in list order."""
    left = list(answers)
    for guess, marks in history:
        left = [answer for answer in left if feedback(guess, answer) == marks]
    return left


def suggestion(word: str, candidates: Sequence[str], estimated: bool = True) -> Suggestion:
    """A guess's feedback statistics over equally likely candidates (as guess_stats), with
    the estimate's guesses to finish it is ranked by (not `estimated`: None, the tree's
    own guess)."""
    return _suggestion(word, tuple(candidates), estimated)


# The same few positions come back again and again (every new game's opening shows the
# same suggestions over every answer): a daemon's feed of thousands of games would
# otherwise score each of them thousands of times.
@lru_cache(maxsize=256)
def _suggestion(word: str, candidates: tuple[str, ...], estimated: bool) -> Suggestion:
    sizes = list(Counter(feedback(word, answer) for answer in candidates).values())
    is_candidate = word in candidates
    guesses = estimated_guesses(sizes, is_candidate) if estimated else None
    return suggestion_of(word, sizes, is_candidate, guesses)


def suggestion_of(
    word: str, sizes: Sequence[int], is_candidate: bool, guesses: float | None
) -> Suggestion:
    """A guess's statistics from the sizes of its feedback buckets (candidates equally
    likely), with the guesses to finish it is ranked by (None: placed first by the tree
    or the search)."""
    n = sum(sizes)
    expected_left = sum(c * c for c in sizes) / n - (1.0 / n if is_candidate else 0.0)
    chance = 1.0 / n if is_candidate else 0.0
    return Suggestion(word, _bits(sizes), expected_left, is_candidate, guesses, chance=chance)


def estimated_guesses(sizes: Sequence[int], is_candidate: bool) -> float:
    """The estimate's guesses to finish after a guess with these feedback bucket sizes
    over equally likely candidates (expected_guess_costs)."""
    n = sum(sizes)
    return estimated_cost(_bits(sizes), 1.0 / n if is_candidate else 0.0, math.log2(n))


def _bits(sizes: Sequence[int]) -> float:
    """The entropy of a guess's feedback from its bucket sizes (candidates equally likely)."""
    n = sum(sizes)
    return math.log2(n) - sum(c * math.log2(c) for c in sizes) / n


def tree_advice(
    history: Sequence[tuple[str, str]], hard: bool, top: int = 5, lists: str = DEFAULT_LISTS
) -> Advice | None:
    """`best` advice on the named shipped lists for a history still on their shipped tree,
    else None.

    `history` is normalised (lower-case guesses, G/Y/B feedback), as parse_history gives.
    """
    if top > BOOK_DEPTH:
        return None
    shipped = tree_and_book(hard, lists)
    if shipped is None:
        return None
    tree, book = shipped
    key = path_key(history)
    guess = tree.get(key)
    if guess is None:
        return None
    candidates = candidates_after(history, shipped_answers(lists))
    if len(candidates) <= 2:
        # As the Solver: guess a candidate (equally likely: in list order).
        ranked = [guess, *(word for word in candidates if word != guess)]
    else:
        ranked = book.get(key, [])
        if not ranked or ranked[0] != guess:
            return None
    shown = ranked[: max(1, top)]
    rows = [suggestion(word, candidates, rank > 0) for rank, word in enumerate(shown)]
    lead = opening_figure(hard, lists) if not key else tree_figure(tree, key, candidates)
    return Advice(
        candidates_left=len(candidates),
        solved=False,
        suggestions=figured(worth_showing(rows, len(candidates)), lead, TREE, len(history)),
        candidates=candidates[:_LISTED_CANDIDATES],
    )


@cache
def opening_figure(hard: bool, lists: str = DEFAULT_LISTS) -> float | None:
    """The shipped tree's expected guesses over every answer (figure.tree_figure at its
    root, as its file records it: walked, a one-shot process would take a tenth of a
    second)."""
    try:
        document = json.loads(_read(_data_file(tree_file_name(shipped_key(lists), hard))))
        return float(document["total_guesses"]) / float(document["games"])
    except (OSError, ValueError, KeyError, ZeroDivisionError):
        return None
