"""The blind prior of a guess list that holds non-dictionary words, and how it is fitted.

The original game's accepted guesses (14,855 words) include names, abbreviations,
Scrabble-only words and spellings a dictionary does not use; its answers almost
never are. The shipped English list (`words/lists/en.tsv`) holds every word of
hunspell's en_US dictionary with a Zipf frequency of 2.0 or more, so an accepted
guess at least that frequent which the list lacks is no dictionary word: such
"unlisted" words have their prior weight scaled by a factor fitted like the
others. Rarer words cannot be told apart (the list stops at 2.0) and keep theirs.

The fit has two stages: `words.prior_fit.fit_prior` on the words that are not
unlisted (the sigmoid, plural and past-tense factors), then the unlisted factor
by maximum likelihood on the unlisted words under that prior, with the same
`answer_share` and `pseudo_answers` as the first stage.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from epdle import words
from epdle.words.prior_fit import PROBABILITY_FLOOR, fit_prior

# The Zipf frequency from which the shipped language lists hold every dictionary word
# (tools/gen/build_language_words.py, MIN_ZIPF).
LISTED_MIN_ZIPF = 2.0
# Fitted on all 2,315 original answers with 0.5 pseudo-answers (fit_blind_prior, as
# tools/bench/blind_holdout.py fits each half): 27 of the 1,224 unlisted accepted words are
# answers (British spellings such as FIBRE and MOULT, and CYBER, RALPH), against 2,248
# of the 4,606 listed ones. A test refits them.
BLIND_PRIOR = words.Prior(
    centre_zipf=2.774, width_zipf=0.34, plural_factor=0.00192, past_tense_factor=0.124
)
BLIND_UNLISTED_FACTOR = 0.0695
# The unlisted factor's search: a log grid, then zoomed in around its best point.
_LOG_FACTOR_POINTS = 401
_ZOOM_ROUNDS = 4


def unlisted_flags(
    guesses: Sequence[str], infos: Sequence[words.WordInfo], language: str = "en"
) -> np.ndarray:
    """Per word: frequent enough for the language's dictionary list, yet not on it."""
    table = words.language_table(language)
    return np.array(
        [
            info.zipf >= LISTED_MIN_ZIPF and word not in table
            for word, info in zip(guesses, infos, strict=True)
        ],
        dtype=bool,
    )


def fit_blind_prior(
    guesses: Sequence[str],
    is_answer: Sequence[bool],
    answer_share: float = 1.0,
    pseudo_answers: float = 0.0,
    language: str = "en",
) -> tuple[words.Prior, float]:
    """(prior, unlisted factor) under which `is_answer` over `guesses` is most likely."""
    infos = words.word_info(guesses, language)
    flags = np.asarray(is_answer, dtype=bool)
    unlisted = unlisted_flags(guesses, infos, language)
    listed = np.flatnonzero(~unlisted)
    prior = fit_prior(
        [infos[i] for i in listed], flags[listed].tolist(), answer_share, pseudo_answers
    )
    if not unlisted.any():
        return prior, 1.0
    base = np.array(
        [
            answer_share * words.prior_weight(infos[i], False, prior)
            for i in np.flatnonzero(unlisted)
        ]
    )
    answers = flags[unlisted]
    low, high = math.log(1e-4), 0.0
    best = high
    for _ in range(_ZOOM_ROUNDS):
        grid = np.linspace(low, high, _LOG_FACTOR_POINTS)
        p = np.clip(base[None, :] * np.exp(grid)[:, None], PROBABILITY_FLOOR, 1 - PROBABILITY_FLOOR)
        score = np.log(p) @ answers + np.log1p(-p) @ ~answers + pseudo_answers * grid
        best = float(grid[int(np.argmax(score))])
        step = grid[1] - grid[0]
        low, high = max(math.log(1e-4), best - step), min(0.0, best + step)
    return prior, float(f"{math.exp(best):.3g}")


# A prior and the factor of the words the dictionary list lacks (1: none).
Fit = tuple[words.Prior, float]

# Half share fits count half an answer more of each demoted kind (plural, past tense):
# half B holds no plural answer, and without it the plural factor fell to the grid floor
# (1e-4) and CHAOS, the one answer flagged plural, took 8 guesses held out.
HALF_SHARE_PSEUDO_ANSWERS = 0.5


def fit_on(
    answers: Sequence[str],
    answer_share: float = 1.0,
    pseudo_answers: float = 0.0,
    unlisted: bool = True,
) -> Fit:
    """The prior fitted when `answers` (that share of all answers) are marked."""
    guesses = list(words.guesses())
    positives = set(answers)
    flags = [word in positives for word in guesses]
    if unlisted:
        return fit_blind_prior(guesses, flags, answer_share, pseudo_answers)
    return fit_prior(words.word_info(guesses), flags, answer_share, pseudo_answers), 1.0
