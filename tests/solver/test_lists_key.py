"""The lists key names the cache's files and the shipped trees: its value never changes,
and the memo a one-shot `suggest` reads it from never hands back another text's key."""

from __future__ import annotations

import hashlib
import json

import pytest

from epdle.cli import main
from epdle.solver.cache import KEY_MEMO, lists_key, remembered_key
from epdle.solver.ranking import book

GUESSES = ["crane", "slate", "trace", "eerie"]
ANSWERS = ["crane", "trace"]


def _not_worked_out():
    raise AssertionError("the key should have come from the memo")


def test_the_key_is_the_hash_it_always_was():
    text = b"format 1\ncrane\nslate\ntrace\neerie\n--answers--\ncrane\ntrace"
    assert lists_key(GUESSES, ANSWERS) == hashlib.sha256(text).hexdigest()[:20]


def test_the_memo_gives_the_key_back_for_the_same_text_only(private_cache):
    assert remembered_key("lists A", lambda: "key-a") == "key-a"
    assert (private_cache / KEY_MEMO).read_text() == "key-a\nlists A"
    assert remembered_key("lists A", _not_worked_out) == "key-a"
    for other in ("lists B", "lists A ", "lists", "", "key-a\nlists A"):
        assert remembered_key(other, lambda other=other: f"key of {other!r}") == f"key of {other!r}"
    assert remembered_key("lists A", lambda: "key-a") == "key-a"  # worked out again


@pytest.mark.parametrize("memo", [b"", b"key-b", b"\xff\xfe not text", b"key-b\nlists A\n"])
def test_a_damaged_memo_is_written_again(private_cache, memo):
    private_cache.mkdir()
    (private_cache / KEY_MEMO).write_bytes(memo)
    assert remembered_key("lists A", lambda: "key-a") == "key-a"
    assert (private_cache / KEY_MEMO).read_text() == "key-a\nlists A"


def test_a_text_ending_in_line_breaks_is_kept_as_it_is(private_cache):
    text = "crane\r\nslate\n\n"
    assert remembered_key(text, lambda: "key-a") == "key-a"
    assert remembered_key(text, _not_worked_out) == "key-a"
    assert remembered_key(text.replace("\r\n", "\n"), lambda: "key-b") == "key-b"


def test_a_cache_that_cannot_be_written_still_gives_the_key(private_cache):
    private_cache.write_text("a file where the directory would be")
    assert remembered_key("lists A", lambda: "key-a") == "key-a"
    assert remembered_key("lists A", lambda: "key-b") == "key-b"


def test_the_shipped_key_is_the_shipped_lists_key_and_comes_from_the_memo(monkeypatch):
    key = lists_key(*book.shipped_lists())
    book.shipped_key.cache_clear()
    assert book.shipped_key() == key
    book.shipped_key.cache_clear()
    monkeypatch.setattr(book, "lists_key", _not_worked_out)
    monkeypatch.setattr(book, "shipped_lists", _not_worked_out)
    assert book.shipped_key() == key
    book.shipped_key.cache_clear()


def test_the_memo_is_a_cache_entry(private_cache, capsys):
    remembered_key("lists A", lambda: "key-a")
    assert main(["cache", "clear", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["removed"] == 1
    assert not (private_cache / KEY_MEMO).exists()


def test_the_answers_alone_are_the_lists_answers():
    assert book.shipped_answers("original") == book.shipped_lists("original")[1]
    assert len(book.shipped_answers("original")) == 2315
