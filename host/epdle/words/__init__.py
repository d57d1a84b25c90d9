"""Shipped word data: the game's lists, a precomputed frequency table, tiers and the prior.

The English five-letter game lists ship with the package, and so do word lists of
4-9 letters for every language in `languages` (see PROVENANCE.md); wordfreq (the
optional extra) is needed only for the frequencies of words in lists of your own.

The modules, one job each: `info` (what is known of one word, its tier), `prior` (the
blind-mode prior), `parse` (one-word-a-line lists), `sample` (evenly spread samples),
`shipped` (the data in this package), `frequency` (facts of any word, shipped or from
wordfreq), `languages` (the alphabets) and `prior_fit` (fitting the prior; numpy, so not
exported here).

The names below load their module when first used: importing one module of the package
(a one-shot `suggest` needs only `languages`) does not load the others.
"""

from __future__ import annotations

from importlib import import_module

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from epdle.words.frequency import word_info
    from epdle.words.info import (
        COMMON_ZIPF,
        FREQUENT_ZIPF,
        STEM_MIN_ZIPF,
        TIER_NAMES,
        WordInfo,
        inflection_flags,
        tier_of,
    )
    from epdle.words.parse import MAX_LIST_BYTES, TooManyWords, parse_word_lines, read_word_file
    from epdle.words.prior import SHIPPED_PRIOR, Prior, prior_weight
    from epdle.words.sample import even_sample
    from epdle.words.shipped import (
        CANDIDATE_MIN_ZIPF,
        LanguageList,
        answers,
        frequency_table,
        guesses,
        language_list,
        language_table,
    )

__all__ = [
    "CANDIDATE_MIN_ZIPF",
    "COMMON_ZIPF",
    "FREQUENT_ZIPF",
    "MAX_LIST_BYTES",
    "SHIPPED_PRIOR",
    "STEM_MIN_ZIPF",
    "TIER_NAMES",
    "LanguageList",
    "Prior",
    "TooManyWords",
    "WordInfo",
    "answers",
    "even_sample",
    "frequency_table",
    "guesses",
    "inflection_flags",
    "language_list",
    "language_table",
    "parse_word_lines",
    "prior_weight",
    "read_word_file",
    "tier_of",
    "word_info",
]

# Where the names above come from, tried in this order.
_MODULES = ("info", "parse", "prior", "sample", "shipped", "frequency")


def __getattr__(name: str) -> Any:
    if name in __all__:
        for module in _MODULES:
            found = import_module(f"{__name__}.{module}")
            if hasattr(found, name):
                value = getattr(found, name)
                globals()[name] = value  # looked up once
                return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
