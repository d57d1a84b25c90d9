"""The languages epdle plays: each one's alphabet, or the transliteration its Wordle uses.

A word of a language is spelled in that language's `alphabet` after `fold`: letters
the popular Wordle variant of the language does not tell apart are folded onto the
letter it shows (French drops accents and spells out ligatures, as Le Mot and SUTOM
do; Spanish drops accents but keeps Ñ, as the Spanish Wordle does); letters it keeps
(German Ä Ö Ü ß, Spanish Ñ) are letters of their own everywhere: scoring, the
pattern matrix, parsing and the panel's font.

Kept free of numpy so the command line can offer the choices without loading it.
"""

from __future__ import annotations

from epdle.named_tuple import NamedTuple

# Every letter any language here uses, in the order the pattern engine indexes them
# (a-z first, so an English word's letter indexes are ord(letter) - ord("a")).
LETTERS = "abcdefghijklmnopqrstuvwxyzäöüßñ"
ASCII_LETTERS = LETTERS[:26]

LENGTHS = range(4, 10)  # the word lengths with shipped lists (and frames that fit them)

_FRENCH_FOLD = {
    **dict.fromkeys("àâä", "a"),
    **dict.fromkeys("éèêë", "e"),
    **dict.fromkeys("îï", "i"),
    **dict.fromkeys("ôö", "o"),
    **dict.fromkeys("ùûü", "u"),
    "ÿ": "y",
    "ç": "c",
    "œ": "oe",
    "æ": "ae",
}
_SPANISH_FOLD = {"á": "a", "é": "e", "í": "i", "ó": "o", "ú": "u", "ü": "u"}


class Language(NamedTuple):
    """A language (a NamedTuple: dataclasses would cost a one-shot `suggest` 15 ms)."""

    code: str  # ISO 639-1, as wordfreq names it
    name: str
    alphabet: str  # within LETTERS (a test holds every language to it)
    hunspell: str  # the Debian hunspell dictionary the shipped lists were checked with
    variant: str  # how the language's popular Wordle spells words (documented per language)
    folds: dict[str, str]  # letters folded onto the one the game shows

    def fold(self, word: str) -> str:
        """``word`` lower-cased and transliterated as the language's Wordle spells it."""
        lowered = word.strip().lower()
        return "".join(self.folds.get(letter, letter) for letter in lowered)

    def spell(self, word: str) -> str:
        """fold(), checked: ValueError naming the first letter not in the alphabet."""
        folded = self.fold(word)
        for letter in folded:
            if letter not in self.alphabet:
                raise ValueError(
                    f"{word.strip()!r}: {letter!r} is not a letter of {self.name} "
                    f"({self.alphabet_text()})"
                )
        return folded

    def is_word(self, word: str) -> bool:
        return bool(word) and all(letter in self.alphabet for letter in word)

    def alphabet_text(self) -> str:
        extra = "".join(letter for letter in self.alphabet if letter not in ASCII_LETTERS)
        return "a-z" + (f" and {' '.join(extra)}" if extra else "")


LANGUAGES: dict[str, Language] = {
    language.code: language
    for language in (
        Language(
            "en",
            "English",
            ASCII_LETTERS,
            "en_US (hunspell-en-us)",
            "letters a-z, as the original game",
            {},
        ),
        Language(
            "de",
            "German",
            ASCII_LETTERS + "äöüß",
            "de_DE (hunspell-de-de)",
            "Ä, Ö, Ü and ß are letters of their own (words are spelled as in the "
            "dictionary: SÄULE has five letters, never SAEULE)",
            {},
        ),
        Language(
            "fr",
            "French",
            ASCII_LETTERS,
            "fr (hunspell-fr-classical)",
            "accents and the cedilla dropped, Œ and Æ spelled OE and AE, as in Le Mot "
            "and SUTOM (ÉTÉ is played ETE)",
            _FRENCH_FOLD,
        ),
        Language(
            "es",
            "Spanish",
            ASCII_LETTERS + "ñ",
            "es_ES (hunspell-es)",
            "Ñ is a letter of its own, accents dropped (ÁRBOL is played ARBOL), as in "
            "the Spanish Wordle",
            _SPANISH_FOLD,
        ),
    )
}


def language(code: str | None) -> Language:
    """The language for a --language value (None: English)."""
    key = (code or "en").strip().lower()
    try:
        return LANGUAGES[key]
    except KeyError:
        raise ValueError(
            f"no word lists for language {code!r}; choose from {', '.join(LANGUAGES)}"
        ) from None


def display_letter(letter: str) -> str:
    """The capital the panel shows for a lower-case letter (ß has the capital ẞ)."""
    return "ẞ" if letter == "ß" else letter.upper()


def display_word(word: str) -> str:
    """A word in capitals, one capital per letter (str.upper() makes ß two letters)."""
    return "".join(display_letter(letter) for letter in word.lower())
