from __future__ import annotations

import pytest

from epdle import words
from epdle.solver.universe import Universe


@pytest.fixture(autouse=True)
def private_cache(tmp_path, monkeypatch):
    """Every test gets an empty solver cache of its own."""
    cache = tmp_path / "cache"
    monkeypatch.setenv("EPDLE_CACHE_DIR", str(cache))
    return cache


@pytest.fixture(scope="session")
def small_answers() -> list[str]:
    return list(words.answers("original"))[::23]  # 101 words spread over the alphabet


@pytest.fixture(scope="session")
def small_guesses(small_answers) -> list[str]:
    others = [w for w in words.guesses() if w not in set(small_answers)][::40]
    return sorted(set(small_answers) | set(others) | {"salet"})


@pytest.fixture
def small_universe(small_guesses, small_answers) -> Universe:
    return Universe(small_guesses, small_answers)


@pytest.fixture
def list_files(tmp_path, small_guesses, small_answers):
    """The small lists as files, one word a line: (answers, guesses)."""
    answers = tmp_path / "answers.txt"
    answers.write_text("\n".join(small_answers) + "\n")
    guesses = tmp_path / "guesses.txt"
    guesses.write_text("\n".join(small_guesses) + "\n")
    return answers, guesses
