"""No function of the product, its tools or the PIC harness is longer than a reader takes
in at once: under 80 lines (its decorators, signature, docstring and body), measured on the
source as written."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The package, the generators, benches and build tools, and the scripts make pic-test runs.
TREES = [ROOT / "host" / "epdle", ROOT / "tools", ROOT / "tests" / "firmware" / "pic"]
MOST_LINES = 79


def _lengths(source: str) -> list[tuple[int, str]]:
    return [
        (node.end_lineno - node.lineno + 1, f"{node.name} (line {node.lineno})")
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.end_lineno
    ]


def test_every_function_is_under_80_lines() -> None:
    too_long = [
        f"{path.relative_to(ROOT)}: {name}, {lines} lines"
        for tree in TREES
        for path in sorted(tree.rglob("*.py"))
        for lines, name in _lengths(path.read_text(encoding="utf-8"))
        if lines > MOST_LINES
    ]
    assert too_long == []


def test_every_tree_has_python_to_measure() -> None:
    assert all(any(tree.rglob("*.py")) for tree in TREES)


def test_a_long_function_is_measured_whole() -> None:
    body = "".join(f"    x{n} = {n}\n" for n in range(80))
    assert _lengths(f"async def f():\n{body}") == [(81, "f (line 1)")]
