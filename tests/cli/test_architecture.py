"""Rules of the package as written, read from its source: each class name used once, and
the game's controller apart from the kinds of game it drives."""

from __future__ import annotations

import ast
from collections import defaultdict
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "host" / "epdle"


def _class_names(files: dict[str, str]) -> dict[str, list[str]]:
    """Each class name defined more than once, with the files that define it."""
    defined: dict[str, list[str]] = defaultdict(list)
    for name, source in files.items():
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.ClassDef):
                defined[node.name].append(name)
    return {name: where for name, where in defined.items() if len(where) > 1}


def test_each_class_name_is_used_once_in_the_package() -> None:
    files = {
        str(path.relative_to(PACKAGE)): path.read_text(encoding="utf-8")
        for path in sorted(PACKAGE.rglob("*.py"))
    }
    assert _class_names(files) == {}


def test_the_class_name_finder_finds_a_name_twice() -> None:
    files = {"a.py": "class Reply:\n    class Inner: ...\n", "b/c.py": "class Reply(int): ..."}
    assert _class_names(files) == {"Reply": ["a.py", "b/c.py"]}
