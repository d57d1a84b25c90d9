"""Read the #define values of the firmware's C headers (for mirror checks)."""

from __future__ import annotations

import re
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
DEFINE = re.compile(r"^#define\s+([A-Z0-9_]+)\s+(.+?)\s*(?:/\*.*)?$")


def header_defines(*relative_paths: str) -> dict[str, int]:
    """Integer #defines of the headers, in order; later ones may use earlier ones."""
    values: dict[str, int] = {}
    for relative in relative_paths:
        for line in (FIRMWARE / relative).read_text().splitlines():
            match = DEFINE.match(line)
            if match is None or "(" in match.group(1):
                continue
            expression = re.sub(r"\b(0x[0-9A-Fa-f]+|\d+)u\b", r"\1", match.group(2))
            expression = re.sub(r"\(uint16_t\)", "", expression)
            if not re.fullmatch(r"[\w\s()+\-*/x]+", expression):
                continue
            try:
                values[match.group(1)] = int(eval(expression, {"__builtins__": {}}, dict(values)))
            except (NameError, SyntaxError):
                continue
    return values
