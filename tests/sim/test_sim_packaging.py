"""The installed package carries the simulated board's library (built by scikit-build-core)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from epdle.sim import LIBRARY_ENV, library_path


def test_the_package_finds_its_own_library_without_the_override(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(LIBRARY_ENV, raising=False)
    path = library_path()
    assert path.is_file(), f"{path} missing: is the package installed (pip install -e .)?"


def test_a_board_boots_from_the_packaged_library() -> None:
    script = (
        "from epdle.sim import Board\n"
        "with Board() as b:\n"
        "    b.run_ms(100)\n"
        "    print(b.violations())"
    )
    env = {"PATH": "/usr/bin:/bin"}
    result = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True,
                            text=True, timeout=60)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_the_package_says_it_is_typed() -> None:
    from importlib import resources

    # PEP 561: type checkers read epdle's annotations only with this marker installed.
    assert resources.files("epdle").joinpath("py.typed").is_file()
