"""Word lists in the one-word-a-line format (the shipped lists, --answers, --guesses)."""

from __future__ import annotations

import os
import re
from collections.abc import Callable

from epdle.words.languages import LETTERS

_LETTERS = set(LETTERS)


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
    path: str | os.PathLike[str],
    length: int | None = None,
    fold: Callable[[str], str] | None = None,
) -> list[str]:
    """A plain one-word-a-line file (the --answers / --guesses format), UTF-8 with or
    without a byte order mark."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise ValueError(f"cannot read word list {name}: {error.strerror}") from error
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise ValueError(
            f"word list {name}: not UTF-8 text (line {line}: byte {data[error.start]:#04x})"
        ) from None
    return parse_word_lines(text, name, length, fold)
