"""The factor for accepted words the dictionary list lacks, and how it is fitted."""

from __future__ import annotations

import numpy as np
import pytest

from epdle import words
from epdle.solver import prior as blind_prior
from epdle.solver.universe import Universe


@pytest.fixture(scope="module")
def guesses() -> list[str]:
    return list(words.guesses())


@pytest.fixture(scope="module")
def unlisted(guesses) -> np.ndarray:
    return blind_prior.unlisted_flags(guesses, words.word_info(guesses))


def test_unlisted_words_are_frequent_enough_for_the_list_but_not_on_it(guesses, unlisted):
    table = words.language_table("en")
    infos = words.word_info(guesses)
    index = {word: i for i, word in enumerate(guesses)}
    assert "house" in table and not unlisted[index["house"]]
    for i in np.flatnonzero(unlisted)[:50]:
        assert guesses[i] not in table and infos[i].zipf >= blind_prior.LISTED_MIN_ZIPF
    # Below the list's frequency floor nothing is known, so nothing is flagged.
    rare = [i for i, info in enumerate(infos) if info.zipf < blind_prior.LISTED_MIN_ZIPF]
    assert rare and not unlisted[rare].any()
    # A dictionary list's own words are all listed.
    dictionary = words.language_list("en", 5)
    assert not blind_prior.unlisted_flags(
        dictionary.guesses, words.word_info(dictionary.guesses)
    ).any()


def test_the_fit_recovers_a_planted_unlisted_factor(guesses, unlisted):
    planted_prior = words.Prior(2.8, 0.35, 0.01, 0.2)
    planted_factor = 0.2
    infos = words.word_info(guesses)
    chance = np.array([words.prior_weight(info, prior=planted_prior) for info in infos])
    chance[unlisted] *= planted_factor
    flags = np.random.default_rng(3).random(len(guesses)) < chance
    prior, factor = blind_prior.fit_blind_prior(guesses, flags.tolist())
    assert factor == pytest.approx(planted_factor, rel=0.35)
    assert prior.centre_zipf == pytest.approx(planted_prior.centre_zipf, abs=0.15)
    # Without unlisted answers the factor is ruled out, unless pseudo-answers keep it up.
    flags[unlisted] = False
    _, none_seen = blind_prior.fit_blind_prior(guesses, flags.tolist())
    _, kept = blind_prior.fit_blind_prior(guesses, flags.tolist(), pseudo_answers=0.5)
    assert none_seen < 0.001 < kept < planted_factor


def test_the_shipped_values_are_the_fit_on_the_original_answers(guesses):
    answers = set(words.answers("original"))
    prior, factor = blind_prior.fit_blind_prior(
        guesses, [word in answers for word in guesses], pseudo_answers=0.5
    )
    assert prior == blind_prior.BLIND_PRIOR
    assert factor == blind_prior.BLIND_UNLISTED_FACTOR


def test_blind_universe_scales_unlisted_words_by_the_factor(small_guesses):
    shipped = Universe(small_guesses, None)
    assert shipped.prior == blind_prior.BLIND_PRIOR
    assert shipped.unlisted_factor == blind_prior.BLIND_UNLISTED_FACTOR
    plain = Universe(small_guesses, None, prior=blind_prior.BLIND_PRIOR, unlisted_factor=1.0)
    assert plain.key != shipped.key
    flags = blind_prior.unlisted_flags(small_guesses, shipped.infos)
    assert flags.any() and not flags.all()
    # Only the unlisted words move, by exactly the factor (before normalising).
    ratio = shipped.weights / plain.weights
    assert ratio[flags] == pytest.approx(ratio[~flags][0] * blind_prior.BLIND_UNLISTED_FACTOR)
    assert ratio[~flags] == pytest.approx(ratio[~flags][0])
    # A dictionary game keeps the shipped prior and no factor: its words are all listed.
    dictionary = Universe.dictionary("en", 5)
    assert dictionary.prior == words.SHIPPED_PRIOR and dictionary.unlisted_factor == 1.0
    with pytest.raises(ValueError, match="unlisted factor"):
        Universe(small_guesses, None, unlisted_factor=0.0)
