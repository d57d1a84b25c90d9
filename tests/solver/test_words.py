from __future__ import annotations

from collections import Counter

import pytest

from epdle import words


def test_shipped_lists():
    answers, guesses = words.answers(), words.guesses()
    assert len(answers) == 2315 and len(set(answers)) == 2315
    assert len(guesses) == 14855 and set(answers) <= set(guesses)
    assert all(len(w) == 5 and w.isascii() and w.isalpha() for w in guesses)
    assert set(words.frequency_table()) == set(guesses)


def test_tiers_have_the_documented_sizes():
    tiers = Counter(words.tier_of(info) for info in words.frequency_table().values())
    assert 500 <= tiers[0] <= 900  # facts §2.3: "frequent" about 777 words
    assert 3000 <= tiers[0] + tiers[1] <= 4500  # "common" about 4,056
    answers_tiers = Counter(words.tier_of(words.frequency_table()[w]) for w in words.answers())
    assert answers_tiers[0] + answers_tiers[1] > 0.85 * len(words.answers())


@pytest.mark.parametrize(("word", "plural"), [("bikes", True), ("ports", True), ("focus", False),
                                               ("glass", False), ("basis", False)])  # fmt: skip
def test_plural_flags(word, plural):
    assert words.frequency_table()[word].plural is plural


def test_prior_prefers_common_words_and_demotes_plurals():
    table = words.frequency_table()
    assert words.prior_weight(table["house"]) > words.prior_weight(table["xylyl"])
    bikes = table["bikes"]
    assert words.prior_weight(bikes) < 0.1 * words.prior_weight(bikes, keep_plurals=True)
    assert words.tier_of(bikes) == 2 and words.tier_of(bikes, keep_plurals=True) < 2


def test_word_files_are_validated(tmp_path):
    good = tmp_path / "good.txt"
    good.write_text("# my list\nCrane\n\nslate\ncrane\n")
    assert words.read_word_file(good) == ["crane", "slate"]
    mixed = tmp_path / "mixed.txt"
    mixed.write_text("crane\nslates\n")
    with pytest.raises(ValueError, match="different lengths"):
        words.read_word_file(mixed)
    with pytest.raises(ValueError, match="cannot read word list"):
        words.read_word_file(tmp_path / "missing.txt")


def test_other_language_words_come_from_wordfreq():
    german = words.language_words("de", 5)
    assert "haben" in german
    assert all(len(w) == 5 and w.isascii() and w.isalpha() for w in german)
    with pytest.raises(ValueError, match="no word list for language"):
        words.language_words("xx", 5)
