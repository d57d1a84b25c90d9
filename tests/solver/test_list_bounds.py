"""Word lists of your own, bounded: lists whose pattern matrix would not fit are refused
from their lengths in one line naming the limit, before a huge file is in memory, and a
list that fits is worked out within a bound set by its matrix, not by the matrix and a
block's temporaries beside it, nor a copy of its candidates' rows."""

from __future__ import annotations

import random
import string
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from epdle.cli import main
from epdle.solver.patterns import (
    MAX_MATRIX_BYTES,
    ListsTooLarge,
    check_lists_fit,
    matrix_bytes,
    matrix_path,
    most_words,
)
from epdle.solver.universe import Universe
from epdle.words import MAX_LIST_BYTES

FAST = ["--strategy", "entropy"]

# Prints the peak RSS (kB) of `epdle ARGS...` run in this process, after it, and its exit
# code after that. The peak is the process's own (VmHWM): getrusage's ru_maxrss carries
# over the parent's at the fork, pytest's hundreds of MB.
PEAK_OF = """
import runpy, sys
sys.argv = ["epdle", *sys.argv[1:]]
code = 0
try:
    runpy.run_module("epdle", run_name="__main__")
except SystemExit as end:
    code = end.code
with open("/proc/self/status") as status:
    peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
print(peak, code, file=sys.stderr)
"""


def random_words(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    found: set[str] = set()
    while len(found) < count:
        found.add("".join(rng.choices(string.ascii_lowercase, k=5)))
    return sorted(found)


def test_the_bound_is_on_the_matrix_of_the_lists() -> None:
    check_lists_fit(MAX_MATRIX_BYTES // 20_000, 20_000, 5)
    with pytest.raises(ListsTooLarge, match="over the limit of 1 GiB"):
        check_lists_fit(MAX_MATRIX_BYTES // 20_000 + 1, 20_000, 5)
    # Six letters and more: two bytes a code.
    assert matrix_bytes(100, 10, 6) == 2 * matrix_bytes(100, 10, 5)


def test_a_list_too_large_is_refused_from_its_length(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    answers = tmp_path / "answers.txt"
    answers.write_text("\n".join(random_words(50_000, seed=1)) + "\n")
    started = time.monotonic()
    assert main(["suggest", "--answers", str(answers)]) == 1
    assert time.monotonic() - started < 30  # nothing worked out: a matrix would take minutes
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert f"word lists too large: {answers} has more than 32,768 words" in error
    assert "limit of 1 GiB" in error


def run_peak(args: list[str], cache: Path, stdin: bytes | None = None) -> tuple[int, int, str]:
    """`epdle ARGS` in a fresh interpreter: (its peak RSS in kB, exit code, stderr before)."""
    done = subprocess.run(
        [sys.executable, "-c", PEAK_OF, *args],
        capture_output=True,
        input=stdin,
        env={"EPDLE_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin"},
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    *before, last = done.stderr.decode().strip().splitlines()
    peak, code = last.split()
    return int(peak), int(code), "\n".join(before)


def peak_kb(answers: Path, cache: Path) -> int:
    args = ["suggest", "--answers", str(answers), "--strategy", "entropy", "--top", "1"]
    peak, code, error = run_peak(args, cache)
    assert code == 0, error
    return peak


def test_a_list_that_fits_is_built_within_a_bound_of_its_matrix(tmp_path: Path) -> None:
    """Peak memory of a cold `suggest` (the matrix built) over that of a tiny list: at most
    the matrix two and a half times (the mapped matrix, the candidates' rows gathered from
    it, and a block's temporaries); before, the matrix was built whole in memory beside a
    block's temporaries of hundreds of MB."""
    words = random_words(2000, seed=2)
    small, large = tmp_path / "small.txt", tmp_path / "large.txt"
    small.write_text("\n".join(words[:20]) + "\n")
    large.write_text("\n".join(words) + "\n")
    base = peak_kb(small, tmp_path / "cache-small")
    peak = peak_kb(large, tmp_path / "cache-large")
    guesses = len(set(words) | set(_shipped_guesses()))
    matrix_kb = matrix_bytes(guesses, len(words), 5) // 1024
    assert peak - base < 2.5 * matrix_kb, (base, peak, matrix_kb)


def _shipped_guesses() -> list[str]:
    from epdle import words

    return list(words.guesses())


def test_a_huge_list_is_refused_before_it_is_in_memory(tmp_path: Path) -> None:
    """2,000,000 lines (12 MB: under the file size limit) stop being read at the most
    words that could fit (32,768 answers; 463,819 guesses beside the shipped answers):
    the peak stays within 16 MB / 80 MB of a game on a tiny list; before, every line
    was read into lists and sets first (0.5 GB over it)."""
    small = tmp_path / "small.txt"
    small.write_text("\n".join(random_words(20, seed=3)) + "\n")
    base = peak_kb(small, tmp_path / "cache")
    rng = random.Random(4)
    huge = tmp_path / "huge.txt"
    with huge.open("w") as file:
        for _ in range(2000):
            file.write(
                "".join(
                    "".join(rng.choices(string.ascii_lowercase, k=5)) + "\n" for _ in range(1000)
                )
            )
    for option, bound_mb in (("--answers", 16), ("--guesses", 80)):
        peak, code, error = run_peak(["suggest", option, str(huge), *FAST], tmp_path / "cache")
        assert peak - base < bound_mb * 1024, (option, base, peak)
        assert code == 1
        assert error.count("\n") == 0 and "limit of 1 GiB" in error, error
        assert f"{huge} has more than" in error


def test_a_list_file_over_the_size_limit_is_refused_from_its_size(tmp_path: Path) -> None:
    """A 200 MB file (sparse: its size is all there is) is refused from its size, never
    read; before, it was read whole and decoded (more than 400 MB)."""
    sparse = tmp_path / "sparse.txt"
    with sparse.open("wb") as file:
        file.truncate(200 << 20)
    peak, code, error = run_peak(["suggest", "--answers", str(sparse), *FAST], tmp_path / "c")
    assert peak < 200 * 1024, peak
    assert code == 1
    assert error.count("\n") == 0 and "over the limit of 16 MiB" in error, error
    assert "200.0 MiB" in error


def test_a_list_from_a_pipe_is_read_and_bounded(tmp_path: Path) -> None:
    """/dev/stdin as a list: read as a file is; more than the size limit through it is
    refused once that much is read."""
    words = random_words(30, seed=5)
    args = ["suggest", "--answers", "/dev/stdin", *FAST, "--top", "1"]
    _, code, error = run_peak(args, tmp_path / "c", stdin="\n".join(words).encode())
    assert code == 0, error
    flood = b"#" * (MAX_LIST_BYTES + 1)
    _, code, error = run_peak(args, tmp_path / "c", stdin=flood)
    assert code == 1
    assert error.count("\n") == 0 and "/dev/stdin too large: over the limit of 16 MiB" in error


def test_the_most_words_bound_no_list_that_fits() -> None:
    """The word counts a list is read up to are bounds: one word more never fits."""
    assert most_words(5) == 32_768
    with pytest.raises(ListsTooLarge):
        check_lists_fit(most_words(5) + 1, most_words(5) + 1, 5)
    check_lists_fit(most_words(5), most_words(5), 5)
    with pytest.raises(ListsTooLarge):
        check_lists_fit(most_words(6, 2315) + 1, 2315, 6)
    check_lists_fit(most_words(6, 2315), 2315, 6)


def test_a_large_list_is_ranked_without_a_copy_of_its_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """12,000 answers of their own with the shipped guesses: a 0.3 GiB matrix, every
    guess ranked against every candidate within a fifth of its size over a tiny list's
    peak; before, the ranking copied the candidates' rows beside the mapped matrix (twice
    its size). The matrix is stored beforehand (any codes: what is measured is the
    memory of reading it), so the minute it takes to work out is not in the test."""
    words = random_words(12_000, seed=6)
    answers = tmp_path / "answers.txt"
    answers.write_text("\n".join(words) + "\n")
    small = tmp_path / "small.txt"
    small.write_text("\n".join(words[:20]) + "\n")
    cache = tmp_path / "cache-large"
    monkeypatch.setenv("EPDLE_CACHE_DIR", str(cache))
    universe = Universe(_shipped_guesses(), words)
    shape = (len(universe.answers), len(universe.guesses))
    assert shape[0] * shape[1] > 256 << 20  # over what is kept mapped whole
    cache.mkdir()
    matrix = np.lib.format.open_memmap(
        matrix_path(universe.guesses, universe.answers), mode="w+", dtype=np.uint8, shape=shape
    )
    rng = np.random.default_rng(7)
    for start in range(0, shape[0], 1000):
        rows = matrix[start : start + 1000]
        rows[:] = rng.integers(0, 3**5 - 1, size=rows.shape, dtype=np.uint8)
    matrix.flush()
    del matrix, rows
    base = peak_kb(small, tmp_path / "cache-small")
    peak = peak_kb(answers, cache)
    matrix_kb = shape[0] * shape[1] // 1024
    assert peak - base < matrix_kb / 5, (base, peak, matrix_kb)


@pytest.mark.parametrize("blind", [False, True])
def test_the_ranking_read_a_slab_at_a_time_is_the_ranking(
    blind: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The statistics gathered from the mapped matrix a slab of guesses and a run of rows
    at a time (the limits made small, so that a mid-size list takes many of each) are
    those of the candidates' rows copied whole, for every candidate set and guess order
    (blind: each candidate weighed by its prior, so its row must be its own)."""
    from epdle import words as shipped
    from epdle.solver import patterns
    from epdle.solver.ranking import stats

    answers = list(shipped.answers())
    guesses = sorted(set(answers) | set(list(shipped.guesses())[::4]))
    universe = Universe(guesses, answers, blind=blind)
    assert patterns._mapping(universe.patterns) is not None
    rng = np.random.default_rng(8)
    sets = [
        np.arange(len(answers)),
        np.sort(rng.choice(len(answers), 300, replace=False)),
        np.sort(rng.choice(len(answers), 9, replace=False)),
    ]
    orders = [None, np.sort(rng.choice(len(guesses), 700, replace=False)), rng.permutation(50)]
    monkeypatch.setattr(patterns, "_MAPPED_WHOLE", 1 << 20)
    monkeypatch.setattr(patterns, "_RESIDENT_BYTES", 64 << 10)
    monkeypatch.setattr(stats, "_SLAB_BYTES", 128 << 10)
    slabbed = [stats.guess_stats(universe, c, g) for c in sets for g in orders]
    universe.__dict__["patterns"] = np.array(universe.patterns)  # in memory, not mapped
    monkeypatch.setattr(stats, "_SLAB_BYTES", 1 << 40)  # the candidates' rows whole
    whole = [stats.guess_stats(universe, c, g) for c in sets for g in orders]
    for left, right in zip(slabbed, whole, strict=True):
        for field in ("guesses", "bits", "expected_left", "worst_left", "buckets"):
            assert np.array_equal(getattr(left, field), getattr(right, field)), field


def test_a_list_is_read_up_to_its_most_distinct_words() -> None:
    """Repeats and comments do not count towards `most`; one distinct word more is
    refused."""
    from epdle.words import TooManyWords, parse_word_lines

    for text in ("crane\nslate\ncrane\n", "# two\ncrane\r\n\nslate\ncrane\n"):
        assert parse_word_lines(text, "list", most=2) == ["crane", "slate"]
        with pytest.raises(TooManyWords, match="list has more than 1 words"):
            parse_word_lines(text, "list", most=1)


def test_a_games_file_over_the_size_limit_is_refused_from_its_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`bench --games FILE` is a list too: a 200 MiB file (sparse) is refused from its size
    in one line; before, it was read whole."""
    games = tmp_path / "games.txt"
    with games.open("wb") as file:
        file.truncate(200 << 20)
    assert main(["bench", "--boards", "2", "--games", str(games)]) == 1
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert f"games file {games} too large (200.0 MiB): over the limit of 16 MiB" in error
