"""The blind-mode prior: how likely a word is to be the hidden answer before any feedback."""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass

from epdle.words.info import WordInfo


@dataclass(frozen=True)
class Prior:
    """How likely a word is to be the hidden answer before any feedback (blind mode).

    A sigmoid over the word's Zipf frequency, one half at `centre_zipf` with an edge
    `width_zipf` soft, scaled down for plurals and past tenses.
    """

    centre_zipf: float
    width_zipf: float
    plural_factor: float
    past_tense_factor: float

    def __post_init__(self) -> None:
        if not self.width_zipf > 0:
            raise ValueError(f"prior width must be positive, not {self.width_zipf}")
        for name in ("plural_factor", "past_tense_factor"):
            factor = getattr(self, name)
            if not 0 < factor <= 1:
                raise ValueError(f"prior {name} must be in (0, 1], not {factor}")
        if not math.isfinite(self.centre_zipf):
            raise ValueError(f"prior centre must be finite, not {self.centre_zipf}")

    def signature(self) -> str:
        """A short tag of the settings, for cache keys of prior-dependent results."""
        settings = (self.centre_zipf, self.width_zipf, self.plural_factor, self.past_tense_factor)
        return hashlib.sha256(repr(settings).encode()).hexdigest()[:8]


# Read off the original answer list: answers are almost never plurals and seldom past
# tenses (1 of 1,830 plural-looking accepted words is an answer, 17 of 430 "-ed" words).
# docs/bench.md measures how much that in-sample choice flatters the blind bench.
# The dictionary games (other lengths and languages, whose lists hold only dictionary
# words) play with it; the original English game's blind prior, refitted with a factor
# for its non-dictionary guesses, is epdle.solver.prior.BLIND_PRIOR.
SHIPPED_PRIOR = Prior(centre_zipf=2.9, width_zipf=0.35, plural_factor=0.02, past_tense_factor=0.3)


def prior_weight(info: WordInfo, keep_plurals: bool = False, prior: Prior = SHIPPED_PRIOR) -> float:
    """How likely a word is to be the answer, before any feedback (unnormalised, in (0, 1))."""
    weight = 1.0 / (1.0 + math.exp(-(info.zipf - prior.centre_zipf) / prior.width_zipf))
    if info.plural and not keep_plurals:
        weight *= prior.plural_factor
    if info.past_tense:
        weight *= prior.past_tense_factor
    return weight
