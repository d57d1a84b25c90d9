"""Word lists in the one-word-a-line format (the shipped lists, --answers, --guesses)."""

from __future__ import annotations

import os
import re
import stat
from typing import BinaryIO

from epdle.words.languages import LANGUAGES, Language

_ENGLISH = LANGUAGES["en"]
# The largest word-list file read (--answers, --guesses), refused from its size before it
# is read (from what was read, for a pipe): some 2.8 million five-letter words, six times
# the guesses whose pattern matrix fits beside the shipped answers (epdle.solver.patterns).
MAX_LIST_BYTES = 16 << 20
# A line's text, one at a time: what str.splitlines gives, without a list of every line.
_LINE = re.compile("[^\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]+")


class TooManyWords(ValueError):
    """A word list with more distinct words than its reader allowed (`most`)."""

    def __init__(self, source: str, most: int) -> None:
        super().__init__(f"{source} has more than {most:,} words")
        self.source = source
        self.most = most


def parse_word_lines(
    text: str,
    source: str,
    length: int | None = None,
    language: Language | None = None,
    most: int | None = None,
) -> list[str]:
    """Words from a one-word-a-line text; blank lines and '#' comments are skipped.

    Each word is spelled as the game's ``language`` does (Language.fold; None: English),
    and refused, naming it and its line, if a letter is not of the language's alphabet
    (the game could not take it as a guess).
    More than ``most`` distinct words: TooManyWords, raised as soon as the count passes
    it (the lines are read one at a time, so a huge text costs no more than its words)."""
    # Clean lists (the shipped ones) skip the per-line checks: a CLI call parses 17,000 words.
    if most is None or text.count("\n") < most:
        tokens = text.split()
        if tokens and (length is None or len(tokens[0]) == length):
            pattern = f"[a-z]{{{len(tokens[0])}}}"
            if re.fullmatch(f"{pattern}(?:\\r?\\n{pattern})*(?:\\r?\\n)?", text):
                return list(dict.fromkeys(tokens))
    language = language or _ENGLISH
    words: list[str] = []
    seen: set[str] = set()
    for line in _LINE.finditer(text):
        raw = line.group()
        word = raw.strip().lower()
        if not word or word.startswith("#"):
            continue
        word = language.fold(word)
        if not language.is_word(word):
            where = f"{source}:{_line_number(text, line.start())}"
            raise ValueError(
                f"{where}: {raw.strip()!r} is not a word of {language.name} letters "
                f"({language.alphabet_text()})"
            )
        if length is not None and len(word) != length:
            where = f"{source}:{_line_number(text, line.start())}"
            raise ValueError(f"{where}: {word!r} has {len(word)} letters, not {length}")
        if word not in seen:
            if most is not None and len(words) >= most:
                raise TooManyWords(source, most)
            seen.add(word)
            words.append(word)
    if not words:
        raise ValueError(f"{source}: no words")
    lengths = {len(word) for word in words}
    if len(lengths) != 1:
        raise ValueError(f"{source}: words of different lengths {sorted(lengths)}")
    return words


def _line_number(text: str, start: int) -> int:
    """The number of the line that starts at `start` (as str.splitlines counts them)."""
    return len(text[:start].splitlines()) + 1


def read_word_file(
    path: str | os.PathLike[str],
    length: int | None = None,
    language: Language | None = None,
    most: int | None = None,
) -> list[str]:
    """A plain one-word-a-line file (the --answers / --guesses format), UTF-8 with or
    without a byte order mark; a pipe too. Over MAX_LIST_BYTES it is refused from its
    size, or once that much is read; more than `most` words: TooManyWords."""
    name = os.fspath(path)
    try:
        with open(name, "rb") as handle:
            data = read_limited(handle, f"word list {name}")
    except OSError as error:
        raise ValueError(f"cannot read word list {name}: {error.strerror}") from error
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        raise ValueError(
            f"word list {name}: not UTF-8 text (line {line}: byte {data[error.start]:#04x})"
        ) from None
    return parse_word_lines(text, name, length, language, most)


def read_limited(handle: BinaryIO, what: str) -> bytes:
    """The bytes of an open list file (`what` names it in errors), at most MAX_LIST_BYTES:
    a larger one is refused from its size before it is read, a pipe once that much is."""
    status = os.fstat(handle.fileno())
    size = ""
    if stat.S_ISREG(status.st_mode) and status.st_size > MAX_LIST_BYTES:
        size = f" ({status.st_size / 2**20:,.1f} MiB)"
    else:
        data = handle.read(MAX_LIST_BYTES + 1)
        if len(data) <= MAX_LIST_BYTES:
            return data
    limit = f"{MAX_LIST_BYTES >> 20} MiB"
    raise ValueError(f"{what} too large{size}: over the limit of {limit} a file")
