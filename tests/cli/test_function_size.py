"""No function of the product is longer than a reader takes in at once: under 80 lines
(its decorators, signature, docstring and body), measured on the source as written."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "host" / "epdle"
MOST_LINES = 79


def _lengths(source: str) -> list[tuple[int, str]]:
    return [
        (node.end_lineno - node.lineno + 1, f"{node.name} (line {node.lineno})")
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno
    ]


def test_every_function_is_under_80_lines() -> None:
    too_long = [
        f"{path.relative_to(PACKAGE)}: {name}, {lines} lines"
        for path in sorted(PACKAGE.rglob("*.py"))
        for lines, name in _lengths(path.read_text(encoding="utf-8"))
        if lines > MOST_LINES
    ]
    assert too_long == []


def test_a_long_function_is_measured_whole() -> None:
    body = "".join(f"    x{n} = {n}\n" for n in range(80))
    assert _lengths(f"async def f():\n{body}") == [(81, "f (line 1)")]
