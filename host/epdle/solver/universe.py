"""The word universe one solver plays in: guess list, candidate pool, prior, tiers, patterns."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

import numpy as np

from epdle import words
from epdle.solver import prior as blind_prior
from epdle.solver.cache import lists_key
from epdle.solver.history_prior import HistoryPrior, prior_text
from epdle.solver.names import HISTORY_PRIOR, prior_name
from epdle.solver.patterns import (
    ALPHABET_SIZE,
    check_lists_fit,
    encode_words,
    letter_index,
    load_patterns,
)
from epdle.solver.scoring import hard_mode_hints
from epdle.words import languages
from epdle.words.named import DEFAULT_LISTS

__all__ = ["ALPHABET_SIZE", "Universe"]


class Universe:
    """Guesses the game accepts and the pool the hidden word is drawn from, with its prior.

    `blind` universes have no answer list: every accepted word is a candidate,
    weighted by the frequency prior (`prior`), and the weight of words the language's
    dictionary list lacks scaled by `unlisted_factor` (epdle.solver.prior; by default
    its BLIND_PRIOR and BLIND_UNLISTED_FACTOR, fitted on such a list).
    Otherwise candidates are equally likely. `blind=True` with an answer list weighs
    those candidates by the prior (a language's list without its plurals, say; by
    default words.SHIPPED_PRIOR, and no unlisted factor: its words are all listed).
    With `history` (the history prior of one day, over these guesses), every accepted
    word is a candidate, weighted by it.
    """

    def __init__(
        self,
        guess_words: Sequence[str],
        answer_words: Sequence[str] | None = None,
        *,
        language: str = "en",
        keep_plurals: bool = False,
        prior: words.Prior | None = None,
        unlisted_factor: float | None = None,
        blind: bool | None = None,
        history: HistoryPrior | None = None,
        lists: str | None = None,
    ) -> None:
        guess_list = list(dict.fromkeys(guess_words))
        self.history = history
        # The named shipped lists these words are (epdle.words.named), as their maker
        # says; None for lists of one's own and for blind play.
        self.lists = None if answer_words is None else lists
        if history is not None and (
            answer_words is not None or len(history.weights) != len(guess_list)
        ):
            raise ValueError("a history prior weighs every accepted word: no answer list")
        self.blind = answer_words is None if blind is None else blind
        answer_list = list(guess_list if answer_words is None else dict.fromkeys(answer_words))
        if not guess_list or not answer_list:
            raise ValueError("word lists must not be empty")
        self.length = len(guess_list[0])
        if any(len(word) != self.length for word in guess_list + answer_list):
            raise ValueError("every guess and answer must have the same length")
        known = set(guess_list)
        extra_answers = [word for word in answer_list if word not in known]
        # An answer can always be typed, even if a custom guess list forgot it.
        self.guesses: list[str] = guess_list + extra_answers
        self.answers: list[str] = answer_list
        # From the lengths alone, before anything is worked out of them.
        check_lists_fit(len(self.guesses), len(self.answers), self.length)
        self.language = language
        self.lang = languages.language(language)
        self.keep_plurals = keep_plurals
        if prior is None and answer_words is None:
            prior = blind_prior.BLIND_PRIOR
            if unlisted_factor is None:
                unlisted_factor = blind_prior.BLIND_UNLISTED_FACTOR
        self.prior = words.SHIPPED_PRIOR if prior is None else prior
        self.unlisted_factor = 1.0 if unlisted_factor is None else unlisted_factor
        if not 0 < self.unlisted_factor <= 1:
            raise ValueError(f"unlisted factor must be in (0, 1], not {self.unlisted_factor}")
        self.guess_index = {word: index for index, word in enumerate(self.guesses)}
        answer_index = {word: index for index, word in enumerate(self.answers)}
        # For each guess, its row among the answers (-1 when it cannot be the answer).
        self.answer_of_guess = np.array(
            [answer_index.get(word, -1) for word in self.guesses], dtype=np.int64
        )
        self.guess_index_of_answers = np.array(
            [self.guess_index[word] for word in self.answers], dtype=np.int64
        )
        self.guess_letters = encode_words(self.guesses)
        self.answer_letters = encode_words(self.answers)
        every_guess = self.blind and len(self.answers) == len(self.guesses)
        self.key = lists_key(self.guesses, [] if every_guess else self.answers)
        if self.blind:
            # Blind rankings depend on the prior too: its settings are part of the key.
            self.key += f"-blind-{language}-{int(keep_plurals)}-{self.prior.signature()}"
            if self.unlisted_factor != 1.0:
                self.key += f"-unlisted{self.unlisted_factor:g}"
            if history is not None:
                self.key += f"-history{history.puzzle}-{history.signature()}"

    @classmethod
    def dictionary(cls, language: str, length: int, keep_plurals: bool = False) -> Universe:
        """A language's shipped dictionary words of one length, played blind (the
        candidates leave plurals out unless kept)."""
        shipped = words.language_list(language, length, keep_plurals=keep_plurals)
        return cls(
            shipped.guesses,
            shipped.candidates,
            language=shipped.language,
            keep_plurals=keep_plurals,
            blind=True,
        )

    @classmethod
    def shipped(
        cls, blind: bool = False, keep_plurals: bool = False, lists: str = DEFAULT_LISTS
    ) -> Universe:
        """The shipped guesses with the named answer list (epdle.words.named)."""
        answers = None if blind else words.answers(lists)
        return cls(words.guesses(), answers, keep_plurals=keep_plurals, lists=lists)

    @cached_property
    def infos(self) -> list[words.WordInfo]:
        return words.word_info(self.answers, self.language)

    @cached_property
    def weights(self) -> np.ndarray:
        """Prior probability of each answer (sums to 1)."""
        if not self.blind:
            return np.full(len(self.answers), 1.0 / len(self.answers))
        if self.history is not None:
            return self.history.weights
        raw = np.array(
            [words.prior_weight(info, self.keep_plurals, self.prior) for info in self.infos]
        )
        if self.unlisted_factor != 1.0:
            unlisted = blind_prior.unlisted_flags(self.answers, self.infos, self.language)
            raw[unlisted] *= self.unlisted_factor
        return raw / raw.sum()

    @property
    def prior_name(self) -> str:
        """The prior's name, as `--prior` gives it (epdle.solver.names.PRIORS)."""
        return HISTORY_PRIOR if self.history is not None else prior_name(self.blind)

    @property
    def prior_text(self) -> str:
        """The prior by name, then which words the answer is drawn from and how likely
        each is, in words."""
        if self.history is not None:
            history = self.history
            return prior_text(len(self.answers), history.puzzle, history.last)
        if self.blind:
            return f"{self.prior_name} ({len(self.answers):,} words, weighted by word frequency)"
        return f"{self.prior_name} ({len(self.answers):,} answers, equally likely)"

    @cached_property
    def common_rank(self) -> np.ndarray:
        """Each guess's place in the order equal guesses are listed: the more common word
        first (its Zipf frequency in the shipped tables; 0 for a word they lack), then
        alphabetically. epdle.solver.ranking.book.common_key is the same without numpy."""
        tables = [words.language_table(self.language)]
        if self.language == "en":  # the English game's guesses: their own table first
            tables.insert(0, words.frequency_table())
        zipf = [next((t[w].zipf for t in tables if w in t), 0.0) for w in self.guesses]
        order = np.lexsort((np.array(self.guesses), -np.array(zipf)))
        rank = np.empty(len(order), dtype=np.int64)
        rank[order] = np.arange(len(order))
        return rank

    @cached_property
    def tiers(self) -> np.ndarray:
        """Tier of each answer: 0 frequent, 1 common, 2 all."""
        return np.array([words.tier_of(info, self.keep_plurals) for info in self.infos])

    @cached_property
    def patterns(self) -> np.ndarray:
        """(answers, guesses) pattern codes, from the disk cache."""
        return load_patterns(self.guesses, self.answers)

    @cached_property
    def guess_letter_counts(self) -> np.ndarray:
        counts = np.zeros((len(self.guesses), ALPHABET_SIZE), dtype=np.int8)
        for position in range(self.length):
            np.add.at(counts, (np.arange(len(self.guesses)), self.guess_letters[:, position]), 1)
        return counts

    @property
    def pattern_count(self) -> int:
        return 3**self.length

    def hard_mode_mask(
        self, guess: str, feedback: str, among: np.ndarray | None = None
    ) -> np.ndarray:
        """Guesses hard mode allows after `guess` got `feedback` (scoring.hard_mode_hints):
        over every guess, or the guesses `among` (indexes)."""
        letters = self.guess_letters if among is None else self.guess_letters[among]
        counts = self.guess_letter_counts if among is None else self.guess_letter_counts[among]
        mask = np.ones(len(letters), dtype=bool)
        hints = hard_mode_hints(guess, feedback)
        for position, letter in hints.greens:
            mask &= letters[:, position] == letter_index(letter)
        for letter, count in hints.counts.items():
            mask &= counts[:, letter_index(letter)] >= count
        return mask
