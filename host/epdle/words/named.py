"""The answer lists shipped by name (`--lists`), and which one a game starts from.

Every named list is played with the same 14,855 accepted guesses (`guesses.txt`); a
game on any of them widens to every accepted word when the feedback leaves it. Where
each list comes from: PROVENANCE.md. Import-light: a one-shot `suggest` reads it.
"""

from __future__ import annotations

# name -> the answers file beside this module, and what it is (for --help).
ANSWER_FILES = {
    "original": "answers.txt",
    "nyt2023": "answers-nyt2023.txt",
}
LIST_TEXT = {
    "original": "the original game's 2,315 answers",
    "nyt2023": "the New York Times' answers as of 2023-07-01 (3,158)",
}
# name -> the list in a sentence's words (the note of a game that leaves it).
_LIST_NAME = {
    "original": "the original list",
    "nyt2023": "the 2023 list",
}


def list_name(lists: str | None) -> str:
    """The answer list a game starts from, in a sentence's words: a named shipped list's
    (`lists`), or (None) one's own."""
    return _LIST_NAME[lists] if lists else "the answer list"


# The one place that chooses the lists a game starts from.
DEFAULT_LISTS = "nyt2023"


def answers_file(name: str) -> str:
    """The file name of a named answer list; ValueError naming the choices if unknown."""
    try:
        return ANSWER_FILES[name]
    except KeyError:
        choices = ", ".join(ANSWER_FILES)
        raise ValueError(f"no word lists named {name!r}; choose {choices}") from None
