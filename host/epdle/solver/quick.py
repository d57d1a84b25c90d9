"""Advice from the shipped decision tree and its book, in pure Python (no numpy).

A one-shot `epdle suggest` spends most of its time starting Python and importing numpy,
while the answer for a game still on the shipped tree is already known: the tree holds
the guess, and the book beside it (`best-book-<lists>-<mode>.json`, written by
tools/build_best_tree.py from the Solver itself) the ranked runners-up the Solver shows.
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
from functools import cache

from epdle.solver.advice import Advice, Suggestion, worth_showing
from epdle.solver.cache import lists_key, remembered_key
from epdle.solver.names import mode_name
from epdle.words.named import ANSWER_FILES, DEFAULT_LISTS, answers_file

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
_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


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


@cache
def shipped_key(lists: str = DEFAULT_LISTS) -> str:
    """The lists key of the named shipped lists (their Universe's key, found
    without numpy), remembered with the files' text: answering from the tree, a one-shot
    suggest never splits the guesses."""
    guesses, answers = _shipped_files(lists)
    text = f"{len(guesses)}:{guesses}{answers}"  # the two files, told apart
    return remembered_key(text, lambda: lists_key(*shipped_lists(lists)), lists)


def shipped_name(key: str) -> str | None:
    """Which named shipped lists have this lists key (None: lists of one's own)."""
    return next((name for name in ANSWER_FILES if shipped_key(name) == key), None)


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


def feedback(guess: str, answer: str) -> str:
    """The game's feedback, as scoring.score, for two lower-case words of one length.

    Three times faster than score (no Counter, no checks): a one-shot suggest filters the
    2,315 answers through it.
    """
    if guess == answer:
        return "G" * len(guess)
    marks: list[str] = []
    unused: dict[str, int] = {}
    for g, a in zip(guess, answer, strict=True):
        if g == a:
            marks.append("G")
        else:
            marks.append("")
            unused[a] = unused.get(a, 0) + 1
    for position, g in enumerate(guess):
        if not marks[position]:
            left = unused.get(g, 0)
            if left:
                marks[position] = "Y"
                unused[g] = left - 1
            else:
                marks[position] = "B"
    return "".join(marks)


def candidates_after(history: Sequence[tuple[str, str]], answers: Sequence[str]) -> list[str]:
    """The answers every (guess, feedback) of the history allows, in list order."""
    left = list(answers)
    for guess, marks in history:
        left = [answer for answer in left if feedback(guess, answer) == marks]
    return left


def suggestion(word: str, candidates: Sequence[str]) -> Suggestion:
    """A guess's feedback statistics over equally likely candidates (as guess_stats)."""
    sizes = Counter(feedback(word, answer) for answer in candidates)
    return suggestion_of(word, list(sizes.values()), word in candidates)


def suggestion_of(word: str, sizes: Sequence[int], is_candidate: bool) -> Suggestion:
    """A guess's statistics from the sizes of its feedback buckets (candidates equally likely)."""
    n = sum(sizes)
    bits = math.log2(n) - sum(c * math.log2(c) for c in sizes) / n
    expected_left = sum(c * c for c in sizes) / n - (1.0 / n if is_candidate else 0.0)
    return Suggestion(word, bits, expected_left, is_candidate)


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
    return Advice(
        candidates_left=len(candidates),
        solved=False,
        suggestions=worth_showing(
            [suggestion(word, candidates) for word in shown], len(candidates)
        ),
        candidates=candidates[:_LISTED_CANDIDATES],
    )
