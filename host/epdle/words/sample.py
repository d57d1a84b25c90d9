"""Evenly spread samples of a word list: the hidden words a bench plays (numpy-free, so
that a tool run beside another solver draws exactly the same words)."""

from __future__ import annotations

import random


def even_sample(words: list[str], count: int | None, seed: int | None = None) -> list[str]:
    """`count` words spread over the whole list: one from each of `count` equal stretches
    (word i * len // count starts stretch i, in whole numbers: no float rounding moves a
    stretch), picked by a seeded generator (the first N alphabetically would be a biased
    sample); with no seed, the first word of each stretch."""
    if count is None or count >= len(words):
        return list(words)
    generator = random.Random(seed) if seed is not None else None
    spread = max(1, len(words) // count)
    return [
        words[i * len(words) // count + (generator.randrange(spread) if generator else 0)]
        for i in range(count)
    ]
