"""What is known of one word: its frequency, whether it looks inflected, and its tier."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

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


def tier_of(info: WordInfo, keep_plurals: bool = False) -> int:
    """0 = frequent, 1 = common, 2 = all (index into TIER_NAMES)."""
    if info.plural and not keep_plurals:
        return 2
    if info.zipf >= FREQUENT_ZIPF:
        return 0
    return 1 if info.zipf >= COMMON_ZIPF else 2
