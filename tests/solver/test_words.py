from __future__ import annotations

import math
from collections import Counter

import pytest

from epdle import words
from epdle.solver.universe import Universe


def test_shipped_lists():
    answers, guesses = words.answers("original"), words.guesses()
    assert len(answers) == 2315 and len(set(answers)) == 2315
    assert len(guesses) == 14855 and set(answers) <= set(guesses)
    assert all(len(w) == 5 and w.isascii() and w.isalpha() for w in guesses)
    assert set(words.frequency_table()) == set(guesses)


def test_tiers_have_the_documented_sizes():
    tiers = Counter(words.tier_of(info) for info in words.frequency_table().values())
    assert 500 <= tiers[0] <= 900  # "frequent" is about 777 words in word-frequency solvers
    assert 3000 <= tiers[0] + tiers[1] <= 4500  # "common" about 4,056
    original = words.answers("original")
    answers_tiers = Counter(words.tier_of(words.frequency_table()[w]) for w in original)
    assert answers_tiers[0] + answers_tiers[1] > 0.85 * len(original)


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


def test_prior_is_a_value_with_a_signature():
    same = words.Prior(2.9, 0.35, 0.02, 0.3)
    assert same == words.SHIPPED_PRIOR and same.signature() == words.SHIPPED_PRIOR.signature()
    sharper = words.Prior(2.9, 0.3, 0.02, 0.3)
    assert sharper.signature() != words.SHIPPED_PRIOR.signature()
    rare = words.frequency_table()["aargh"]  # Zipf 1.83, far below both centres
    assert words.prior_weight(rare, prior=sharper) < words.prior_weight(rare)
    for bad in [(2.9, 0.0, 0.02, 0.3), (2.9, 0.35, 0.0, 0.3), (2.9, 0.35, 0.02, 1.5),
                (math.inf, 0.35, 0.02, 0.3)]:  # fmt: skip
        with pytest.raises(ValueError, match="prior"):
            words.Prior(*bad)


def test_blind_universe_weights_and_keys_by_its_prior(small_guesses):
    shipped = Universe(small_guesses, None, prior=words.SHIPPED_PRIOR)
    assert shipped.prior == words.SHIPPED_PRIOR
    assert shipped.key.endswith(words.SHIPPED_PRIOR.signature())
    no_plural_penalty = words.Prior(2.9, 0.35, 1.0, 0.3)
    lenient = Universe(small_guesses, None, prior=no_plural_penalty)
    assert lenient.key != shipped.key
    plural = next(i for i, info in enumerate(shipped.infos) if info.plural and info.zipf > 3)
    plain = next(i for i, info in enumerate(shipped.infos) if not info.plural and info.zipf > 3)
    # Only the plural factor differs, so the weight ratio moves by exactly that factor.
    shipped_ratio = shipped.weights[plural] / shipped.weights[plain]
    lenient_ratio = lenient.weights[plural] / lenient.weights[plain]
    assert shipped_ratio == pytest.approx(0.02 * lenient_ratio)


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
