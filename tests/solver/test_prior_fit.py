from __future__ import annotations

import math

import numpy as np
import pytest

from epdle.words import Prior, WordInfo, prior_weight
from epdle.words.prior_fit import _WordGroups, fit_prior

TRUE_PRIOR = Prior(centre_zipf=3.2, width_zipf=0.45, plural_factor=0.05, past_tense_factor=0.3)


def synthetic_words(prior: Prior, count: int, seed: int) -> tuple[list[WordInfo], list[bool]]:
    """Words shaped like the shipped table (Zipf in hundredths), answers drawn from `prior`."""
    rng = np.random.default_rng(seed)
    zipfs = np.round(rng.uniform(0.0, 6.5, count), 2)
    kinds = rng.choice(3, size=count, p=[0.8, 0.13, 0.07])  # plain, plural, past tense
    infos = [
        WordInfo(float(zipf), bool(kind == 1), bool(kind == 2))
        for zipf, kind in zip(zipfs, kinds, strict=True)
    ]
    draws = rng.random(count)
    flags = [
        bool(draw < prior_weight(info, prior=prior))
        for draw, info in zip(draws, infos, strict=True)
    ]
    return infos, flags


def log_likelihood(infos: list[WordInfo], flags: list[bool], prior: Prior) -> float:
    point = [
        prior.centre_zipf,
        math.log(prior.width_zipf),
        math.log(prior.plural_factor),
        math.log(prior.past_tense_factor),
    ]
    return float(_WordGroups(infos, flags).log_likelihood(np.array([point]))[0])


@pytest.fixture(scope="module")
def synthetic() -> tuple[list[WordInfo], list[bool], Prior]:
    infos, flags = synthetic_words(TRUE_PRIOR, 15000, seed=7)
    return infos, flags, fit_prior(infos, flags)


def test_fit_recovers_the_prior_the_answers_were_drawn_from(synthetic):
    infos, flags, fitted = synthetic
    # Enough answers of each kind for the tolerances below (a factor from n answers: ~1/sqrt(n)).
    assert sum(flag for flag, info in zip(flags, infos, strict=True) if info.plural) >= 40
    assert sum(flag for flag, info in zip(flags, infos, strict=True) if info.past_tense) >= 100
    assert fitted.centre_zipf == pytest.approx(TRUE_PRIOR.centre_zipf, abs=0.1)
    assert fitted.width_zipf == pytest.approx(TRUE_PRIOR.width_zipf, rel=0.2)
    assert fitted.plural_factor == pytest.approx(TRUE_PRIOR.plural_factor, rel=0.4)
    assert fitted.past_tense_factor == pytest.approx(TRUE_PRIOR.past_tense_factor, rel=0.4)


def test_fit_is_at_least_as_likely_as_the_truth_and_nearby_points(synthetic):
    infos, flags, fitted = synthetic
    best = log_likelihood(infos, flags, fitted)
    assert best >= log_likelihood(infos, flags, TRUE_PRIOR)
    nudged = [
        Prior(fitted.centre_zipf + 0.05, fitted.width_zipf, fitted.plural_factor, 0.3),
        Prior(fitted.centre_zipf, fitted.width_zipf * 1.1, fitted.plural_factor, 0.3),
        Prior(fitted.centre_zipf, fitted.width_zipf, fitted.plural_factor * 1.5, 0.3),
        Prior(fitted.centre_zipf, fitted.width_zipf, fitted.plural_factor, 0.2),
    ]
    for other in nudged:
        assert best > log_likelihood(infos, flags, other)


def test_fit_finds_a_sharp_prior_with_strong_factors():
    sharp = Prior(centre_zipf=2.5, width_zipf=0.2, plural_factor=0.01, past_tense_factor=0.9)
    infos, flags = synthetic_words(sharp, 8000, seed=11)
    fitted = fit_prior(infos, flags)
    assert fitted.centre_zipf == pytest.approx(2.5, abs=0.1)
    assert fitted.width_zipf == pytest.approx(0.2, rel=0.3)
    assert fitted.plural_factor < 0.05
    assert fitted.past_tense_factor > 0.6


def test_fit_on_a_sample_of_the_answers_needs_the_sampled_share(synthetic):
    infos, flags, _ = synthetic
    answer_rows = [row for row, flag in enumerate(flags) if flag]
    sampled = set(answer_rows[0::2])
    half_flags = [row in sampled for row in range(len(flags))]
    # The left-out half counts as non-answers: told so, the fit finds the same shape...
    fitted = fit_prior(infos, half_flags, answer_share=0.5)
    assert fitted.centre_zipf == pytest.approx(TRUE_PRIOR.centre_zipf, abs=0.15)
    assert fitted.width_zipf == pytest.approx(TRUE_PRIOR.width_zipf, rel=0.25)
    # ...unaware, it pushes the centre up to halve the rate among frequent words.
    assert fit_prior(infos, half_flags).centre_zipf > TRUE_PRIOR.centre_zipf + 0.5


@pytest.mark.parametrize(
    ("infos", "flags", "message"),
    [
        ([WordInfo(3.0, False, False)], [True, False], "1 word infos but 2 answer flags"),
        ([], [], "needs both answers and non-answers"),
        ([WordInfo(3.0, False, False)] * 3, [True] * 3, r"\(3 of 3 words are answers\)"),
        ([WordInfo(3.0, False, False)] * 3, [False] * 3, r"\(0 of 3 words are answers\)"),
        ([WordInfo(math.nan, False, False), WordInfo(1.0, False, False)], [True, False], "finite"),
    ],
)
def test_fit_rejects_bad_input(infos, flags, message):
    with pytest.raises(ValueError, match=message):
        fit_prior(infos, flags)


@pytest.mark.parametrize("share", [0.0, -0.5, 1.5])
def test_fit_rejects_an_answer_share_outside_zero_to_one(synthetic, share):
    infos, flags, _ = synthetic
    with pytest.raises(ValueError, match="answer share must be in"):
        fit_prior(infos, flags, answer_share=share)


def test_pseudo_answers_keep_a_kind_without_answers_off_the_floor(synthetic):
    infos, flags, _ = synthetic
    # No plural is flagged: the likelihood alone wants the plural factor at zero.
    without = [flag and not info.plural for info, flag in zip(infos, flags, strict=True)]
    bare = fit_prior(infos, without)
    assert bare.plural_factor == pytest.approx(1e-4)
    smoothed = fit_prior(infos, without, pseudo_answers=0.5)
    # ...with half a pseudo-answer, at the factor where about half a plural is expected.
    plurals = [info for info in infos if info.plural]
    expected = sum(prior_weight(info, False, smoothed) for info in plurals)
    assert 0.25 < expected < 1.0
    assert smoothed.centre_zipf == pytest.approx(bare.centre_zipf, abs=0.05)
    with pytest.raises(ValueError, match="pseudo answers"):
        fit_prior(infos, without, pseudo_answers=-1)
