"""Word lists of your own, bounded: lists whose pattern matrix would not fit are refused
from their lengths in one line naming the limit, and a list that fits is worked out
within a bound set by its matrix, not by the matrix and a block's temporaries beside it."""

from __future__ import annotations

import random
import string
import subprocess
import sys
import time
from pathlib import Path

import pytest

from epdle.cli import main
from epdle.solver.patterns import MAX_MATRIX_BYTES, ListsTooLarge, check_lists_fit, matrix_bytes

# Prints the peak RSS (kB) of `epdle ARGS...` run in this process, after it.
PEAK_OF = """
import resource, runpy, sys
sys.argv = ["epdle", *sys.argv[1:]]
try:
    runpy.run_module("epdle", run_name="__main__")
except SystemExit as end:
    assert not end.code, end.code
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
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
    assert "word lists too large: 50,000 answers" in error and "limit of 1 GiB" in error


def peak_kb(answers: Path, cache: Path) -> int:
    args = ["suggest", "--answers", str(answers), "--strategy", "entropy", "--top", "1"]
    done = subprocess.run(
        [sys.executable, "-c", PEAK_OF, *args],
        capture_output=True,
        text=True,
        env={"EPDLE_CACHE_DIR": str(cache), "PATH": "/usr/bin:/bin"},
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return int(done.stderr.strip().splitlines()[-1])


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
