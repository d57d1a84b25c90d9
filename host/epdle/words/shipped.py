"""The word data that ships in this package: the English game's lists, the frequency
tables, and the per-language lists of 4-9 letters (see PROVENANCE.md)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from epdle.words.info import WordInfo
from epdle.words.languages import LENGTHS
from epdle.words.languages import language as find_language
from epdle.words.named import DEFAULT_LISTS, answers_file
from epdle.words.parse import parse_word_lines

# The shipped language lists (lists/<code>.tsv) hold every dictionary word of Zipf 2.0
# and more: those are the accepted guesses. The hidden word is drawn from the ones of at
# least CANDIDATE_MIN_ZIPF, plurals left out unless kept: rarer words would only grow the
# pattern matrix (candidates x guesses) for answers no game picks.
CANDIDATE_MIN_ZIPF = 2.5


def _package_text(name: str) -> str:
    from importlib import resources  # here: importing the package reads no data

    return resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def _read_table(name: str) -> dict[str, WordInfo]:
    """A shipped `word<TAB>zipf<TAB>plural<TAB>past tense` table ('#' lines are comments)."""
    table: dict[str, WordInfo] = {}
    for line in _package_text(name).splitlines():
        if line.startswith("#") or not line.strip():
            continue
        word, zipf, plural, past = line.split("\t")
        table[word] = WordInfo(float(zipf), plural == "1", past == "1")
    return table


@cache
def answers(lists: str = DEFAULT_LISTS) -> tuple[str, ...]:
    """The answers of the named lists (epdle.words.named; alphabetical): by default the
    lists a game starts from."""
    name = answers_file(lists)
    return tuple(parse_word_lines(_package_text(name), name, 5))


@cache
def guesses() -> tuple[str, ...]:
    """The 14,855 accepted guesses (answers included), sorted."""
    return tuple(parse_word_lines(_package_text("guesses.txt"), "guesses.txt", 5))


@cache
def frequency_table() -> dict[str, WordInfo]:
    """Frequency facts of the English game's accepted guesses."""
    return _read_table("frequencies.tsv")


@cache
def language_table(language: str) -> dict[str, WordInfo]:
    """Frequency facts of the shipped words of a language (all lengths)."""
    return _read_table(f"lists/{find_language(language).code}.tsv")


@dataclass(frozen=True)
class LanguageList:
    """One language's words of one length from the shipped lists."""

    language: str
    length: int
    guesses: list[str]  # every accepted word, sorted
    candidates: list[str]  # the words the answer is drawn from, sorted


def language_list(language: str, length: int, keep_plurals: bool = False) -> LanguageList:
    """The shipped words of ``length`` letters for ``language``."""
    code = find_language(language).code
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
