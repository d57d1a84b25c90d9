"""Frequency facts of any word: the shipped tables, else wordfreq (the optional extra)."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from epdle.words.info import WordInfo, inflection_flags
from epdle.words.shipped import frequency_table, language_table


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


def _wordfreq_zipf(language: str) -> Callable[[str], float]:
    try:
        from wordfreq import zipf_frequency
    except ImportError as error:
        raise ValueError(
            "frequencies of words outside the shipped lists need the optional wordfreq "
            "extra: pip install 'epdle[wordfreq]'"
        ) from error
    return lambda word: zipf_frequency(word, language)
