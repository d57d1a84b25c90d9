"""A cold `epdle suggest` process loads only what its answer needs: what a module costs
to import is paid by every one-shot command, so a new import on its path must be a choice."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys

import pytest

from epdle.cli import build_parser
from epdle.cli.errors import terminal_columns

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
    suggest = ["-m", "epdle", "suggest", "--history", "tarse:bbybb"]
    _imported(suggest, env)  # the first run after an install may write its caches
    loaded, text = _imported(suggest, env)
    assert "ranked by best" in text
    assert "epdle.solver.quick" in loaded  # what was timed was the answer off the shipped tree
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
