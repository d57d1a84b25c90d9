"""Layers run one way: importing a lower layer loads nothing of the ones above it, nor
their third-party libraries (each import runs in a fresh interpreter)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

WATCHED = ("numpy", "PIL", "serial", "rich", "epdle.render", "epdle.link", "epdle.sim",
           "epdle.session", "epdle.solver", "epdle.cli")  # fmt: skip

# module -> what importing it must not load
NOT_LOADED = {
    "epdle.panel": WATCHED,
    "epdle.crc": WATCHED,
    "epdle.frames": WATCHED,
    "epdle.frames.store": WATCHED,
    "epdle.words": WATCHED,
    "epdle.frames.encoder": tuple(name for name in WATCHED if name != "numpy"),
    "epdle.link": (
        "numpy",
        "PIL",
        "rich",
        "epdle.render",
        "epdle.sim",
        "epdle.session",
        "epdle.solver",
        "epdle.cli",
    ),
    "epdle.render.export": (
        "serial",
        "epdle.link",
        "epdle.sim",
        "epdle.session",
        "epdle.solver",
        "epdle.cli",
    ),
    "epdle.sim": (
        "PIL",
        "serial",
        "rich",
        "epdle.render",
        "epdle.link",
        "epdle.session",
        "epdle.solver",
        "epdle.cli",
    ),
    "epdle.solver": (
        "numpy",
        "PIL",
        "serial",
        "rich",
        "epdle.render",
        "epdle.link",
        "epdle.sim",
        "epdle.session",
    ),
}


def _loaded_after(module: str) -> set[str]:
    check = f"import sys, json; import {module}; print(json.dumps(sorted(sys.modules)))"
    done = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout))


@pytest.mark.parametrize("module", sorted(NOT_LOADED))
def test_a_layer_loads_nothing_above_it(module: str) -> None:
    loaded = _loaded_after(module)
    assert module in loaded
    above = {
        name
        for name in loaded
        for watched in NOT_LOADED[module]
        if name == watched or name.startswith(watched + ".")
    }
    assert not above, f"importing {module} loaded {sorted(above)}"


def test_the_words_package_only_re_exports() -> None:
    import epdle.words

    source = Path(epdle.words.__file__).read_text(encoding="utf-8")
    body = ast.parse(source).body
    docstring, *statements = body
    assert isinstance(docstring, ast.Expr) and isinstance(docstring.value, ast.Constant)
    for statement in statements:
        exports = isinstance(statement, ast.Assign) and [
            target.id for target in statement.targets if isinstance(target, ast.Name)
        ] == ["__all__"]
        assert isinstance(statement, ast.ImportFrom) or exports, ast.unparse(statement)
    assert all(hasattr(epdle.words, name) for name in epdle.words.__all__)
