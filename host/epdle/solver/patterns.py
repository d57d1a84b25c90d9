"""The pattern engine: feedback codes for every (answer, guess) pair as a numpy matrix.

Layout: rows are answers (candidates), columns are guesses, so the rows of the
candidates still alive are one contiguous gather. Codes are 0 .. 3**length - 1.
"""

from __future__ import annotations

import logging
import math
import mmap
from collections.abc import Iterator, Sequence
from pathlib import Path

import numpy as np

from epdle.solver.cache import cache_dir, lists_key, write_atomically
from epdle.words.languages import LETTERS

log = logging.getLogger(__name__)

# Every language's letters (a-z first): one index space, so the matrix code is the same
# for all of them and an English word's indexes are its letters' ord() - ord("a").
ALPHABET_SIZE = len(LETTERS)
_INDEX_OF = str.maketrans({letter: chr(index) for index, letter in enumerate(LETTERS)})
# The largest pattern matrix (answers x guesses codes) a pair of lists may need: larger
# lists are refused from their lengths, before anything is computed. The solver works
# over the matrix memory-mapped from its cache file, gathering the candidates' codes a
# slab at a time (candidate_rows): 20,000 answers of their own with the shipped guesses
# fit (0.6 GiB), 50,000 do not (2.9 GiB).
MAX_MATRIX_BYTES = 1 << 30
# The temporaries of one block of the matrix being computed, at most (about this many
# bytes per answer-guess pair of the block: the per-position comparisons and the codes).
_BLOCK_BYTES = 64 << 20
_PAIR_BYTES = 48
# A memory-mapped matrix over _MAPPED_WHOLE is read _RESIDENT_BYTES of rows at a time,
# no more of it kept mapped in the process (candidate_rows); the shipped lists' matrices
# (blind: 0.2 GiB) stay mapped whole.
_MAPPED_WHOLE = 256 << 20
_RESIDENT_BYTES = 32 << 20


class ListsTooLarge(ValueError):
    """Word lists whose pattern matrix would pass MAX_MATRIX_BYTES."""


def matrix_bytes(guesses: int, answers: int, length: int) -> int:
    """The bytes of the (answers, guesses) pattern matrix of words of `length` letters."""
    return guesses * answers * np.dtype(code_dtype(length)).itemsize


def check_lists_fit(guesses: int, answers: int, length: int) -> None:
    """ListsTooLarge, in one line naming the limit, if the lists' matrix would not fit."""
    size = matrix_bytes(guesses, answers, length)
    if size > MAX_MATRIX_BYTES:
        raise ListsTooLarge(
            f"word lists too large: {answers:,} answers x {guesses:,} guesses need a "
            f"{size / 2**30:.1f} GiB pattern matrix, over the limit of "
            f"{MAX_MATRIX_BYTES / 2**30:g} GiB (answers x guesses x "
            f"{np.dtype(code_dtype(length)).itemsize} byte(s)): use shorter lists"
        )


def most_words(length: int, answers: int | None = None) -> int:
    """The most words a list can hold whose pattern matrix could fit: the guesses beside
    `answers` answers, or (None) the answers, or a list that is both. The guesses include
    the answers, so n answers need at least n x n codes."""
    codes = MAX_MATRIX_BYTES // np.dtype(code_dtype(length)).itemsize
    return codes // max(1, answers) if answers is not None else math.isqrt(codes)


def too_many_words(error: ValueError) -> ListsTooLarge:
    """A word list read stopped at its reader's `most` words (words.TooManyWords), in one
    line naming the limit."""
    return ListsTooLarge(
        f"word lists too large: {error}, more than a pattern matrix within the limit of "
        f"{MAX_MATRIX_BYTES / 2**30:g} GiB allows: use shorter lists"
    )


def letter_index(letter: str) -> int:
    """A letter's index in the pattern engine's alphabet (LETTERS)."""
    index = LETTERS.find(letter)
    if index < 0 or len(letter) != 1:
        raise ValueError(f"{letter!r} is not a letter the pattern engine knows")
    return index


def encode_words(words: Sequence[str]) -> np.ndarray:
    """Words as an (n, length) uint8 array of letter indexes into LETTERS (a = 0)."""
    if not words:
        return np.zeros((0, 0), dtype=np.uint8)
    joined = "".join(words)
    if joined.isascii():
        raw = np.frombuffer(joined.encode("ascii"), dtype=np.uint8)
        letters = raw - np.uint8(ord("a"))
        bad = letters.max(initial=0) >= 26
    else:
        try:
            raw = np.frombuffer(joined.translate(_INDEX_OF).encode("latin-1"), dtype=np.uint8)
        except UnicodeEncodeError:
            raise ValueError(f"words must be lower-case letters of {LETTERS}") from None
        letters = raw
        bad = letters.max(initial=0) >= ALPHABET_SIZE
    if bad or letters.size != sum(len(word) for word in words):
        raise ValueError(f"words must be lower-case letters of {LETTERS}")
    if letters.size % len(words):
        raise ValueError("words must all have the same length")
    return letters.reshape(len(words), -1)


def code_dtype(length: int) -> type[np.unsignedinteger]:
    return np.uint8 if 3**length <= 256 else np.uint16


def _repeat_groups(guesses: np.ndarray) -> dict[tuple[int, ...], np.ndarray]:
    """Guess columns grouped by which positions repeat a letter (first-occurrence map)."""
    length = guesses.shape[1]
    first = np.zeros_like(guesses)
    for position in range(1, length):
        same = guesses[:, :position] == guesses[:, position : position + 1]
        earliest = np.where(same.any(axis=1), same.argmax(axis=1), position)
        first[:, position] = earliest
    groups: dict[tuple[int, ...], list[int]] = {}
    for column, shape in enumerate(map(tuple, first.tolist())):
        groups.setdefault(shape, []).append(column)
    return {shape: np.array(columns) for shape, columns in groups.items()}


def _block_codes(answers: np.ndarray, guesses: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Codes for answers x guesses that share one repeat shape (int array, answers x guesses).

    A non-green guess letter is yellow iff fewer earlier non-green copies of it in the
    guess have claimed the answer's unused copies than there are unused copies.
    """
    length = guesses.shape[1]
    counts = np.zeros((answers.shape[0], ALPHABET_SIZE), dtype=np.int8)
    for position in range(length):
        np.add.at(counts, (np.arange(answers.shape[0]), answers[:, position]), 1)
    greens = [answers[:, None, p] == guesses[None, :, p] for p in range(length)]
    codes = np.zeros((answers.shape[0], guesses.shape[0]), dtype=np.int32)
    for position in range(length):
        same_letter = [p for p in range(length) if shape[p] == shape[position]]
        unused = counts[:, guesses[:, position]]
        for p in same_letter:
            unused = unused - greens[p]
        claimed = sum(~greens[p] for p in same_letter if p < position)
        yellow = ~greens[position] & (claimed < unused)
        codes += (2 * greens[position] + yellow) * 3**position
    return codes


def pattern_blocks(
    guess_words: Sequence[str], answer_words: Sequence[str]
) -> Iterator[tuple[int, np.ndarray]]:
    """The (answers, guesses) matrix of pattern codes a block of answers' rows at a time,
    (first row, rows), computed vectorised with its temporaries under _BLOCK_BYTES."""
    guesses = encode_words(guess_words)
    answers = encode_words(answer_words)
    length = guesses.shape[1]
    if answers.shape[1] != length:
        raise ValueError("guesses and answers must have the same length")
    groups = _repeat_groups(guesses)
    block = max(1, _BLOCK_BYTES // (_PAIR_BYTES * len(guess_words)))
    for start in range(0, len(answer_words), block):
        rows = answers[start : start + block]
        codes = np.empty((len(rows), len(guess_words)), dtype=code_dtype(length))
        for repeats, columns in groups.items():
            codes[:, columns] = _block_codes(rows, guesses[columns], repeats)
        yield start, codes


def compute_patterns(guess_words: Sequence[str], answer_words: Sequence[str]) -> np.ndarray:
    """The (answers, guesses) matrix of pattern codes, in memory."""
    length = len(guess_words[0]) if guess_words else 0
    matrix = np.empty((len(answer_words), len(guess_words)), dtype=code_dtype(length))
    for start, codes in pattern_blocks(guess_words, answer_words):
        matrix[start : start + len(codes)] = codes
    return matrix


def candidate_rows(matrix: np.ndarray, candidates: np.ndarray, columns: np.ndarray) -> np.ndarray:
    """The candidates' codes for some guess columns, gathered from the (answers, guesses)
    matrix: a run of consecutive columns as one slice of each row, others one by one.

    From a memory-mapped matrix over _MAPPED_WHOLE, gathered from _RESIDENT_BYTES of its
    rows at a time, the pages read dropped from the process after each (the kernel maps whole
    runs of pages around each one read: the rows of a few columns would be all of it).
    They stay in the page cache, so reading them again costs no disk."""
    if len(columns) > 1 and (np.diff(columns) == 1).all():
        span = slice(int(columns[0]), int(columns[-1]) + 1)

        def gather(rows: np.ndarray) -> np.ndarray:
            return matrix[rows, span]
    else:

        def gather(rows: np.ndarray) -> np.ndarray:
            return matrix[np.ix_(rows, columns)]

    mapping = _mapping(matrix)
    if mapping is None or matrix.nbytes <= _MAPPED_WHOLE:
        return np.asarray(gather(candidates))
    out = np.empty((len(candidates), len(columns)), dtype=matrix.dtype)
    # By runs of rows of the matrix, not of candidates: its pages are mapped in runs.
    run = candidates // max(1, _RESIDENT_BYTES // max(1, matrix.strides[0]))
    for part in np.unique(run):
        where = np.flatnonzero(run == part)
        out[where] = gather(candidates[where])
        mapping.madvise(mmap.MADV_DONTNEED)
    return out


def _mapping(matrix: np.ndarray) -> mmap.mmap | None:
    """The file mapping a matrix is a view of (np.load's mmap_mode), if the platform can
    drop its pages; else None."""
    base: object = matrix.base
    while isinstance(base, np.ndarray):
        base = base.base
    return base if isinstance(base, mmap.mmap) and hasattr(mmap, "MADV_DONTNEED") else None


def patterns_against(guess: str, answer_words: np.ndarray) -> np.ndarray:
    """Codes of one guess against encoded answers (used to filter candidates)."""
    encoded = encode_words([guess])
    shape = next(iter(_repeat_groups(encoded)))
    return _block_codes(answer_words, encoded, shape)[:, 0]


def matrix_path(guess_words: Sequence[str], answer_words: Sequence[str]) -> Path:
    return cache_dir() / f"patterns-{lists_key(guess_words, answer_words)}.npy"


def load_patterns(guess_words: Sequence[str], answer_words: Sequence[str]) -> np.ndarray:
    """The pattern matrix from the disk cache, built and stored on a miss or a bad file."""
    path = matrix_path(guess_words, answer_words)
    expected = (len(answer_words), len(guess_words))
    try:
        matrix = np.load(path, mmap_mode="r")
        if matrix.shape == expected and matrix.dtype == code_dtype(len(guess_words[0])):
            return matrix
        log.warning("pattern cache %s has the wrong shape; rebuilding", path)
    except FileNotFoundError:
        pass
    except (OSError, ValueError) as error:
        log.warning("pattern cache %s unreadable (%s); rebuilding", path, error)
    dtype = code_dtype(len(guess_words[0]))

    def save(temporary: Path) -> None:
        # Written to the file a block at a time: never whole in memory (nor mapped).
        header = {"descr": np.lib.format.dtype_to_descr(np.dtype(dtype)), "shape": expected}
        with temporary.open("wb") as file:
            np.lib.format.write_array_header_1_0(file, {**header, "fortran_order": False})
            for _, codes in pattern_blocks(guess_words, answer_words):
                file.write(codes.tobytes())

    try:
        write_atomically(path, save)
        return np.load(path, mmap_mode="r")
    except OSError as error:
        log.warning("cannot write pattern cache %s: %s", path, error)
    return compute_patterns(guess_words, answer_words)
