"""The lists key names the cache's files and the shipped trees: its value never changes,
and the memo a one-shot `suggest` reads it from never hands back another pair's key."""

from __future__ import annotations

import hashlib
import json

import pytest

from epdle.cli import main
from epdle.solver import cache
from epdle.solver.cache import KEY_MEMO, lists_key, remembered_lists_key

GUESSES = ["crane", "slate", "trace", "eerie"]
ANSWERS = ["crane", "trace"]


def _not_hashed(*_args):
    raise AssertionError("the key should have come from the memo")


def test_the_key_is_the_hash_it_always_was():
    text = b"format 1\ncrane\nslate\ntrace\neerie\n--answers--\ncrane\ntrace"
    assert lists_key(GUESSES, ANSWERS) == hashlib.sha256(text).hexdigest()[:20]


def test_the_memo_gives_the_key_back_without_hashing(private_cache, monkeypatch):
    key = lists_key(GUESSES, ANSWERS)
    assert remembered_lists_key(GUESSES, ANSWERS) == key
    assert (private_cache / KEY_MEMO).exists()
    monkeypatch.setattr(cache, "lists_key", _not_hashed)
    assert remembered_lists_key(GUESSES, ANSWERS) == key


@pytest.mark.parametrize(
    ("guesses", "answers"),
    [
        (GUESSES, ["crane"]),
        ([*GUESSES, "adieu"], ANSWERS),
        (GUESSES[::-1], ANSWERS),
        ([], []),
    ],
)
def test_other_lists_get_their_own_key(guesses, answers):
    remembered_lists_key(GUESSES, ANSWERS)
    assert remembered_lists_key(guesses, answers) == lists_key(guesses, answers)
    assert remembered_lists_key(GUESSES, ANSWERS) == lists_key(GUESSES, ANSWERS)


@pytest.mark.parametrize(
    "memo",
    [b"", b"0123456789abcdef0123", b"\xff\xfe not text", b"0123456789abcdef0123\nformat 1\n"],
)
def test_a_damaged_memo_is_written_again(private_cache, memo):
    private_cache.mkdir()
    (private_cache / KEY_MEMO).write_bytes(memo)
    assert remembered_lists_key(GUESSES, ANSWERS) == lists_key(GUESSES, ANSWERS)
    key, text = (private_cache / KEY_MEMO).read_text().split("\n", 1)
    assert key == lists_key(GUESSES, ANSWERS) and text.endswith("--answers--\ncrane\ntrace")


def test_a_cache_that_cannot_be_written_still_gives_the_key(private_cache):
    private_cache.write_text("a file where the directory would be")
    assert remembered_lists_key(GUESSES, ANSWERS) == lists_key(GUESSES, ANSWERS)


def test_the_memo_is_a_cache_entry(private_cache, capsys):
    remembered_lists_key(GUESSES, ANSWERS)
    assert main(["cache", "clear", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["removed"] == 1
    assert not (private_cache / KEY_MEMO).exists()
