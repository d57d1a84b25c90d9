"""A cold `epdle suggest` process loads only what its answer needs: what a module costs
to import is paid by every one-shot command, so a new import on its path must be a choice.
And what stands in for typing.NamedTuple and shutil's terminal width behaves as they do."""

from __future__ import annotations

import argparse
import os
import pickle
import shutil
import subprocess
import sys
import typing

import pytest

from epdle import words
from epdle.cli import build_parser
from epdle.cli.errors import terminal_columns
from epdle.named_tuple import NamedTuple
from epdle.solver import score
from epdle.words.languages import LANGUAGES
from epdle.words.named import DEFAULT_LISTS

# Standard-library modules worth milliseconds each (typing; shutil and its compression
# modules; hashlib and OpenSSL; pathlib), and the third-party libraries of other layers.
NOT_LOADED = {"typing", "shutil", "hashlib", "pathlib", "tempfile", "numpy", "rich", "PIL"}


def _imported(arguments: list[str], env: dict[str, str]) -> tuple[set[str], str]:
    """The modules a whole `python -m epdle ...` process imports (its output besides)."""
    command = [sys.executable, "-X", "importtime", *arguments]
    run = subprocess.run(command, capture_output=True, text=True, env=env)
    assert run.returncode == 0, run.stderr
    lines = run.stderr.splitlines()
    timed = [line.rsplit("|", 1)[-1].strip() for line in lines if line.startswith("import time:")]
    return set(timed[1:]), run.stdout  # the first line is the header


def test_a_cold_suggest_loads_no_module_it_does_not_need(tmp_path):
    env = {**os.environ, "EPDLE_CACHE_DIR": str(tmp_path), "COLUMNS": "80"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    # What the interpreter loads before any of epdle's code (site, the install's hooks).
    started, _ = _imported(["-c", "pass"], env)
    # The answer list's game, off its shipped tree (today's game, under the history prior,
    # is ranked by the numpy engine).
    suggest = ["-m", "epdle", "suggest", "--history", "tarse:bbybb", "--prior", "uniform"]
    _imported(suggest, env)  # the first run after an install may write its caches
    loaded, text = _imported(suggest, env)
    assert "ranked by best" in text
    assert "epdle.solver.ranking.book" in loaded  # the answer off the shipped tree was timed
    # The uniform game's tree: the 2023 list's (TARSE opens it), not the original one's.
    left = [a for a in words.answers(DEFAULT_LISTS) if score("tarse", a) == "BBYBB"]
    assert DEFAULT_LISTS == "nyt2023" and text.startswith(f"{len(left)} candidates left\n")
    assert sorted(NOT_LOADED & (loaded - started)) == []


@pytest.mark.parametrize("columns", [None, "", "abc", "0", "-5", "60", "150"])
def test_the_terminal_width_is_shutils(monkeypatch, columns):
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert terminal_columns() == shutil.get_terminal_size().columns


@pytest.mark.parametrize("columns", ["60", "150"])
def test_help_wraps_to_the_terminal_as_argparse_does(monkeypatch, columns):
    monkeypatch.setenv("COLUMNS", columns)
    for argv in ([], ["suggest"]):
        parser = build_parser(argv)
        ours = parser.format_help()
        assert max(len(line) for line in ours.splitlines()) <= int(columns)
        parser.formatter_class = argparse.HelpFormatter
        assert ours == parser.format_help()


def _point_class(base: type) -> type:
    class Point(base):
        """A point."""

        x: int
        y: int = 0

        def norm(self) -> int:
            return abs(self.x) + abs(self.y)

    return Point


def test_epdles_named_tuples_are_typings():
    ours, typings = _point_class(NamedTuple), _point_class(typing.NamedTuple)
    for name in ("__name__", "__qualname__", "__module__", "__doc__", "_fields", "_field_defaults"):
        assert getattr(ours, name) == getattr(typings, name), name
    assert ours.__mro__[1:] == typings.__mro__[1:] == (tuple, object)
    point = ours(3, -4)
    assert repr(point) == repr(typings(3, -4)) == "Point(x=3, y=-4)"
    assert point == typings(3, -4) == (3, -4) and hash(point) == hash((3, -4))
    assert ours(3) == (3, 0) and point.norm() == 7 and point._replace(y=1) == (3, 1)
    x, y = point
    assert (x, y) == (3, -4)
    with pytest.raises(TypeError):
        ours(1, 2, 3)
    english = LANGUAGES["en"]  # a module-level one, as pickled
    assert pickle.loads(pickle.dumps(english)) == english
