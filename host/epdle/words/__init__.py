"""Shipped word data: the game's lists, a precomputed frequency table, tiers and the prior.

The English five-letter game lists ship with the package, and so do word lists of
4-9 letters for every language in `languages` (see PROVENANCE.md); wordfreq (the
optional extra) is needed only for the frequencies of words in lists of your own.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from epdle.words.languages import LETTERS

_LETTERS = set(LETTERS)

# Zipf thresholds chosen so the tiers have the sizes word-frequency solvers use: "frequent"
# keeps about 800 accepted words, "common" about 4,100 (plurals excluded by default).
FREQUENT_ZIPF = 4.2
COMMON_ZIPF = 2.5
TIER_NAMES = ("frequent", "common", "all")

# A stem must be at least this frequent for "stem + s" to count as its plural.
STEM_MIN_ZIPF = 2.8


@dataclass(frozen=True)
class WordInfo:
    zipf: float
    plural: bool
    past_tense: bool


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
SHIPPED_PRIOR = Prior(centre_zipf=2.9, width_zipf=0.35, plural_factor=0.02, past_tense_factor=0.3)


def inflection_flags(word: str, zipf: Callable[[str], float]) -> tuple[bool, bool]:
    """(plural, past tense) guesses for an English word from how frequent its stem is."""
    plural = False
    if word.endswith("s") and not word.endswith(("ss", "us", "is")):
        stems = [word[:-1]]
        if word.endswith("es"):
            stems.append(word[:-2])
        if word.endswith("ies"):
            stems.append(word[:-3] + "y")
        plural = any(len(stem) > 1 and zipf(stem) >= STEM_MIN_ZIPF for stem in stems)
    past_tense = False
    if word.endswith("ed"):
        stems = [word[:-1], word[:-2]]
        if len(word) > 3 and word[-3] == word[-4]:
            stems.append(word[:-3])
        if word.endswith("ied"):
            stems.append(word[:-3] + "y")
        past_tense = any(len(stem) > 1 and zipf(stem) >= STEM_MIN_ZIPF for stem in stems)
    return plural, past_tense


def _package_text(name: str) -> str:
    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def parse_word_lines(
    text: str,
    source: str,
    length: int | None = None,
    fold: Callable[[str], str] | None = None,
) -> list[str]:
    """Words from a one-word-a-line text; blank lines and '#' comments are skipped.

    ``fold`` spells each word as the game's language does (languages.Language.fold)."""
    # Clean lists (the shipped ones) skip the per-line checks: a CLI call parses 17,000 words.
    tokens = text.split()
    if tokens and (length is None or len(tokens[0]) == length):
        pattern = f"[a-z]{{{len(tokens[0])}}}"
        if re.fullmatch(f"{pattern}(?:\\r?\\n{pattern})*(?:\\r?\\n)?", text):
            return list(dict.fromkeys(tokens))
    words: list[str] = []
    seen: set[str] = set()
    for number, raw in enumerate(text.splitlines(), start=1):
        word = raw.strip().lower()
        if not word or word.startswith("#"):
            continue
        if fold is not None:
            word = fold(word)
        if not word.isalpha() or set(word) - _LETTERS:
            raise ValueError(
                f"{source}:{number}: {raw.strip()!r} is not a word of letters {LETTERS}"
            )
        if length is not None and len(word) != length:
            raise ValueError(f"{source}:{number}: {word!r} has {len(word)} letters, not {length}")
        if word not in seen:
            seen.add(word)
            words.append(word)
    if not words:
        raise ValueError(f"{source}: no words")
    lengths = {len(word) for word in words}
    if len(lengths) != 1:
        raise ValueError(f"{source}: words of different lengths {sorted(lengths)}")
    return words


def read_word_file(
    path: str | Path, length: int | None = None, fold: Callable[[str], str] | None = None
) -> list[str]:
    """A plain one-word-a-line file (the --answers / --guesses format)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise ValueError(f"cannot read word list {path}: {error.strerror}") from error
    return parse_word_lines(text, str(path), length, fold)


@cache
def answers() -> tuple[str, ...]:
    """The original game's 2,315 answers (alphabetical)."""
    return tuple(parse_word_lines(_package_text("answers.txt"), "answers.txt", 5))


@cache
def guesses() -> tuple[str, ...]:
    """The 14,855 accepted guesses (answers included), sorted."""
    return tuple(parse_word_lines(_package_text("guesses.txt"), "guesses.txt", 5))


@cache
def frequency_table() -> dict[str, WordInfo]:
    table: dict[str, WordInfo] = {}
    for line in _package_text("frequencies.tsv").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        word, zipf, plural, past = line.split("\t")
        table[word] = WordInfo(float(zipf), plural == "1", past == "1")
    return table


def word_info(words: Iterable[str], language: str = "en") -> list[WordInfo]:
    """Frequency facts per word: from the shipped table, or from wordfreq for other words."""
    table = dict(language_table(language))
    if language == "en":
        table.update(frequency_table())
    words = list(words)
    if all(word in table for word in words):
        return [table[word] for word in words]
    zipf = _wordfreq_zipf(language)
    infos = []
    for word in words:
        if word in table:
            infos.append(table[word])
            continue
        plural, past = inflection_flags(word, zipf) if language == "en" else (False, False)
        infos.append(WordInfo(zipf(word), plural, past))
    return infos


def tier_of(info: WordInfo, keep_plurals: bool = False) -> int:
    """0 = frequent, 1 = common, 2 = all (index into TIER_NAMES)."""
    if info.plural and not keep_plurals:
        return 2
    if info.zipf >= FREQUENT_ZIPF:
        return 0
    return 1 if info.zipf >= COMMON_ZIPF else 2


def prior_weight(info: WordInfo, keep_plurals: bool = False, prior: Prior = SHIPPED_PRIOR) -> float:
    """How likely a word is to be the answer, before any feedback (unnormalised, in (0, 1))."""
    weight = 1.0 / (1.0 + math.exp(-(info.zipf - prior.centre_zipf) / prior.width_zipf))
    if info.plural and not keep_plurals:
        weight *= prior.plural_factor
    if info.past_tense:
        weight *= prior.past_tense_factor
    return weight


def _wordfreq_zipf(language: str) -> Callable[[str], float]:
    try:
        from wordfreq import zipf_frequency
    except ImportError as error:
        raise ValueError(
            "frequencies of words outside the shipped lists need the optional wordfreq "
            "extra: pip install 'epdle[wordfreq]'"
        ) from error
    return lambda word: zipf_frequency(word, language)


# The shipped language lists (lists/<code>.tsv) hold every dictionary word of Zipf 2.0
# and more: those are the accepted guesses. The hidden word is drawn from the ones of at
# least CANDIDATE_MIN_ZIPF, plurals left out unless kept: rarer words would only grow the
# pattern matrix (candidates x guesses) for answers no game picks.
CANDIDATE_MIN_ZIPF = 2.5


@dataclass(frozen=True)
class LanguageList:
    """One language's words of one length from the shipped lists."""

    language: str
    length: int
    guesses: list[str]  # every accepted word, sorted
    candidates: list[str]  # the words the answer is drawn from, sorted


@cache
def language_table(language: str) -> dict[str, WordInfo]:
    """Frequency facts of the shipped words of a language (all lengths)."""
    from epdle.words.languages import language as lookup

    code = lookup(language).code
    table: dict[str, WordInfo] = {}
    for line in _package_text(f"lists/{code}.tsv").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        word, zipf, plural, past = line.split("\t")
        table[word] = WordInfo(float(zipf), plural == "1", past == "1")
    return table


def language_list(language: str, length: int, keep_plurals: bool = False) -> LanguageList:
    """The shipped words of ``length`` letters for ``language`` (see PROVENANCE.md)."""
    from epdle.words.languages import LENGTHS
    from epdle.words.languages import language as lookup

    code = lookup(language).code
    if length not in LENGTHS:
        raise ValueError(
            f"word length {length} is not offered; choose {LENGTHS.start}..{LENGTHS.stop - 1}"
        )
    table = language_table(code)
    guesses = sorted(word for word in table if len(word) == length)
    candidates = [
        word
        for word in guesses
        if table[word].zipf >= CANDIDATE_MIN_ZIPF and (keep_plurals or not table[word].plural)
    ]
    return LanguageList(code, length, guesses, candidates)
