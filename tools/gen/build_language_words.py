"""Precompute the shipped word lists for lengths 4..9 per language (host/epdle/words/lists/).

Needs wordfreq (the `wordfreq` extra) and Debian's hunspell with its dictionaries:

    apt-get install hunspell hunspell-en-us hunspell-de-de hunspell-fr-classical hunspell-es
    PYTHONPATH=host .venv/bin/python tools/gen/build_language_words.py

Every word of wordfreq's large list for the language, spelled as the language's Wordle
spells it (`epdle.words.languages`), is kept when the spelling dictionary accepts it as a
word of the language rather than a name or an abbreviation:

- English, French, Spanish: the dictionary must accept it in lower case (names and
  abbreviations are only accepted capitalised: PARIS, NASA);
- German, where every noun is capitalised: in lower case, or capitalised when its
  dictionary stem is a compound the dictionary builds (FUßBALL) or carries a common
  noun's flags (plural, compound or inflection
  flags; the dictionary gives first names and most places the genitive flag alone) and
  the English, French and Spanish dictionaries do not know the stem as a name only
  (BERLIN, ASSISI).

wordfreq spells German ß as ss (it case-folds): both spellings are offered to the
dictionary, which takes the one of today's orthography (STRASSE is refused, STRAßE
kept; SCHLOSS kept). Plurals are flagged from the dictionary's stems (the word is its stem plus the
language's plural ending; German: any capitalised stem other than the word itself, so
other inflected noun forms count too). The runtime reads the lists and never runs
hunspell; PROVENANCE.md records the versions. Words rarer than
Zipf 2.0 are left out.
"""

from __future__ import annotations

import math
import os
import subprocess
from collections import defaultdict
from collections.abc import Iterable
from itertools import combinations, pairwise
from pathlib import Path

from wordfreq import get_frequency_dict

from epdle.words.languages import LANGUAGES, LENGTHS, Language

LISTS_DIR = Path(__file__).resolve().parents[2] / "host" / "epdle" / "words" / "lists"
DICTIONARIES = {"en": "en_US", "de": "de_DE", "fr": "fr", "es": "es_ES"}
# Common-noun flags of de_DE (igerman98): plural endings, compound parts, inflection.
GERMAN_NOUN_FLAGS = set("ijmNEPTR")
DE_DIC = Path("/usr/share/hunspell/de_DE.dic")
# Rarer words are left out: no game asks for them, and every accepted guess is a column
# of the pattern matrix (2.0 keeps 1,300-12,300 words a length).
MIN_ZIPF = 2.0


def hunspell(dictionary: str, words: Iterable[str], *options: str) -> str:
    env = {**os.environ, "LC_ALL": "C.UTF-8"}
    text = "\n".join(words) + "\n"
    result = subprocess.run(
        ["hunspell", "-d", dictionary, "-i", "utf-8", *options],
        input=text.encode(),
        capture_output=True,
        check=True,
        env=env,
    )
    return result.stdout.decode()


def rejected(dictionary: str, words: list[str]) -> set[str]:
    return set(hunspell(dictionary, words, "-l").split())


def stems(dictionary: str, words: list[str]) -> dict[str, list[str]]:
    """Each word's stems as `hunspell -s` gives them (blank-line separated blocks)."""
    found: dict[str, list[str]] = defaultdict(list)
    for line in hunspell(dictionary, words, "-s").splitlines():
        parts = line.split()
        if len(parts) == 2:
            found[parts[0]].append(parts[1])
    return found


def german_entry_flags() -> dict[str, str]:
    flags: dict[str, str] = {}
    for line in DE_DIC.read_text(encoding="utf-8").splitlines()[1:]:
        word, _, flag = line.strip().partition("/")
        flags[word] = flags.get(word, "") + flag
    return flags


def is_plural(code: str, word: str, word_stems: list[str]) -> bool:
    lowered = [stem.lower() for stem in word_stems]
    if code == "de":
        nouns = [stem for stem in word_stems if stem[:1].isupper()]
        return bool(nouns) and any(stem.lower() != word.lower() for stem in nouns)
    if word.lower() in lowered:
        return False
    for stem in lowered:
        if code == "en" and (
            word in (stem + "s", stem + "es") or (stem.endswith("y") and word == stem[:-1] + "ies")
        ):
            return True
        if code == "fr" and (
            word in (stem + "s", stem + "x")
            or (stem.endswith(("al", "ail")) and word.endswith("aux"))
        ):
            return True
        if code == "es" and (
            word in (stem + "s", stem + "es") or (stem.endswith("z") and word == stem[:-1] + "ces")
        ):
            return True
    return False


def is_past_tense(code: str, word: str, word_stems: list[str]) -> bool:
    if code != "en" or not word.endswith("ed"):
        return False
    return word not in word_stems and any(word.startswith(stem[:-1]) for stem in word_stems)


def build(lang: Language) -> list[tuple[str, float, bool, bool]]:
    dictionary = DICTIONARIES[lang.code]
    frequencies = dict(get_frequency_dict(lang.code, "large"))
    if lang.code == "de":
        # wordfreq case-folds, which spells every ß as ss: offer the dictionary both.
        for word, frequency in list(frequencies.items()):
            for variant in sharp_s_variants(word):
                frequencies.setdefault(variant, frequency)
    originals = [
        word
        for word in frequencies
        if word.isalpha() and lang.is_word(lang.fold(word)) and len(lang.fold(word)) in LENGTHS
    ]
    bad_lower = rejected(dictionary, originals)
    accepted = [word for word in originals if word not in bad_lower]
    if lang.code == "de":
        capitalised = {word: word[0].upper() + word[1:] for word in bad_lower}
        bad_capital = rejected(dictionary, list(capitalised.values()))
        nouns = [cap for cap in capitalised.values() if cap not in bad_capital]
        noun_stems = stems(dictionary, nouns)
        flags = german_entry_flags()
        names = foreign_proper_nouns({s for v in noun_stems.values() for s in v})
        common = []
        for noun in nouns:
            # hunspell -s names no stem for the compounds it builds: the word stands for it.
            entries = [s for s in noun_stems.get(noun, [noun]) if s[:1].isupper()]
            # A stem the dictionary does not list is a compound it built (FUßBALL).
            if any(
                (s not in flags or set(flags[s]) & GERMAN_NOUN_FLAGS) and s not in names
                for s in entries
            ):
                common.append(noun)
        accepted += [noun.lower() for noun in common]
        plural_of = stems(dictionary, list(common) + [w for w in accepted if w not in common])
        keyed = {noun.lower(): noun for noun in common}
    else:
        plural_of = stems(dictionary, accepted)
        keyed = {}
    merged: dict[str, list[tuple[float, bool, bool]]] = defaultdict(list)
    for word in accepted:
        form = keyed.get(word, word)
        word_stems = plural_of.get(form, [])
        merged[lang.fold(word)].append(
            (
                frequencies[word],
                is_plural(lang.code, form, word_stems),
                is_past_tense(lang.code, word, word_stems),
            )
        )
    rows = []
    for word, variants in merged.items():
        frequency = sum(f for f, _, _ in variants)
        zipf = round(math.log10(frequency * 1e9), 2)
        plural = all(p for _, p, _ in variants)
        past = all(p for _, _, p in variants)
        if zipf >= MIN_ZIPF:
            rows.append((word, zipf, plural, past))
    rows.sort(key=lambda row: (len(row[0]), row[0]))
    return rows


def sharp_s_variants(word: str) -> list[str]:
    """``word`` with one or two of its (non-overlapping) "ss" written ß."""
    spots = [i for i in range(len(word) - 1) if word[i : i + 2] == "ss"]
    variants = []
    for count in (1, 2):
        for chosen in combinations(spots, count):
            if any(b - a < 2 for a, b in pairwise(chosen)):
                continue
            letters = list(word)
            for spot in reversed(chosen):
                letters[spot : spot + 2] = ["ß"]
            variants.append("".join(letters))
    return variants


def foreign_proper_nouns(words: set[str]) -> set[str]:
    """Those of ``words`` (capitalised) that the English, French or Spanish dictionary
    knows only capitalised: names (BERLIN is a carriage in English, but a name in French)."""
    capitalised = sorted(word for word in words if word[:1].isupper())
    names: set[str] = set()
    for dictionary in ("en_US", "fr", "es_ES"):
        bad_lower = rejected(dictionary, [word.lower() for word in capitalised])
        bad_capital = rejected(dictionary, capitalised)
        names |= {w for w in capitalised if w.lower() in bad_lower and w not in bad_capital}
    return names


def main() -> None:
    LISTS_DIR.mkdir(parents=True, exist_ok=True)
    for lang in LANGUAGES.values():
        rows = build(lang)
        header = (
            f"# {lang.name} words of {LENGTHS.start}-{LENGTHS.stop - 1} letters: wordfreq 3.1.1 "
            f"'large' list checked with hunspell {lang.hunspell}; "
            "see PROVENANCE.md\n# word\tzipf\tplural\tpast_tense\n"
        )
        lines = [f"{w}\t{z:.2f}\t{int(p)}\t{int(t)}" for w, z, p, t in rows]
        (LISTS_DIR / f"{lang.code}.tsv").write_text(header + "\n".join(lines) + "\n", "utf-8")
        counts = defaultdict(lambda: [0, 0])
        for word, _, plural, _ in rows:
            counts[len(word)][0] += 1
            counts[len(word)][1] += plural
        summary = ", ".join(f"{n}: {c[0]} ({c[1]} plural)" for n, c in sorted(counts.items()))
        print(f"{lang.code}: {summary}")


if __name__ == "__main__":
    main()
