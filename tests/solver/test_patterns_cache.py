from __future__ import annotations

import numpy as np
import pytest

from epdle.solver import patterns
from epdle.solver.patterns import load_patterns, matrix_path

GUESSES = ["crane", "slate", "trace", "eerie", "llama", "abbey"]
ANSWERS = ["crane", "trace", "llama"]


def _refuse(*_args):
    raise AssertionError("the matrix should have come from the cache")


def test_matrix_is_cached_and_reloaded(private_cache, monkeypatch):
    built = load_patterns(GUESSES, ANSWERS)
    path = matrix_path(GUESSES, ANSWERS)
    assert path.parent == private_cache and path.exists()
    monkeypatch.setattr(patterns, "compute_patterns", _refuse)
    again = load_patterns(GUESSES, ANSWERS)
    assert np.array_equal(np.asarray(again), built)


@pytest.mark.parametrize(
    ("guesses", "answers"),
    [(GUESSES, ["crane", "trace"]), ([*GUESSES, "adieu"], ANSWERS), (GUESSES[::-1], ANSWERS)],
)
def test_changing_either_list_invalidates(guesses, answers):
    load_patterns(GUESSES, ANSWERS)
    assert matrix_path(guesses, answers) != matrix_path(GUESSES, ANSWERS)
    matrix = load_patterns(guesses, answers)
    assert matrix.shape == (len(answers), len(guesses))
    assert matrix_path(guesses, answers).exists()


def test_corrupt_cache_file_is_rebuilt():
    path = matrix_path(GUESSES, ANSWERS)
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a numpy file")
    matrix = load_patterns(GUESSES, ANSWERS)
    assert matrix.shape == (3, 6)
    assert int(matrix[0, 0]) == 242  # crane vs crane: all green
    assert np.load(path).shape == (3, 6)


def test_cache_dir_falls_back_to_xdg(monkeypatch, tmp_path):
    from epdle.solver.cache import cache_dir

    monkeypatch.delenv("EPDLE_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache_dir() == tmp_path / "epdle"
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir() == tmp_path / "home" / ".cache" / "epdle"
