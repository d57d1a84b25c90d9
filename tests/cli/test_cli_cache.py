"""`epdle cache`: what the solver keeps on disk, bounded, and cleared on request."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from epdle.cli import main
from epdle.solver import cache


@pytest.fixture
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("EPDLE_CACHE_DIR", str(tmp_path))
    return tmp_path


def _entry(directory: Path, name: str, size: int, age_s: float) -> Path:
    path = directory / name
    path.write_bytes(bytes(size))
    when = path.stat().st_mtime - age_s
    os.utime(path, (when, when))
    return path


def test_cache_lists_and_clears(cache_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _entry(cache_dir, "patterns-a.npy", 3000, 10)
    _entry(cache_dir, "openers-b.json", 100, 0)
    (cache_dir / "unrelated.txt").write_text("mine")
    assert main(["cache", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["bytes"] == 3100 and len(report["entries"]) == 2
    assert main(["cache", "clear"]) == 0
    assert "removed 2 entries" in capsys.readouterr().out
    assert sorted(p.name for p in cache_dir.iterdir()) == ["unrelated.txt"]


def test_a_write_keeps_the_cache_under_its_bound(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EPDLE_CACHE_MAX_MB", str(5000 / 1024 / 1024))  # 5000 bytes
    old = _entry(cache_dir, "patterns-old.npy", 3000, 100)
    recent = _entry(cache_dir, "best-tree-recent.json", 1500, 10)
    new = cache_dir / "openers-new.json"
    cache.write_atomically(new, lambda temporary: temporary.write_bytes(bytes(1000)))
    assert new.exists() and recent.exists()
    assert not old.exists()  # used longest ago: the one to go
