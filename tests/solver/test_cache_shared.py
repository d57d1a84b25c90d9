"""The solver's cache shared by processes at once: an entry another process removes
between listing and reading is simply gone, never an error."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from epdle.solver import cache


def _entry(directory: Path, name: str, size: int, age_s: float) -> Path:
    path = directory / name
    path.write_bytes(bytes(size))
    when = path.stat().st_mtime - age_s
    os.utime(path, (when, when))
    return path


def test_an_entry_removed_by_another_process_while_pruning_is_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("EPDLE_CACHE_DIR", str(tmp_path))
    monkeypatch.setenv("EPDLE_CACHE_MAX_MB", str(5000 / 1024 / 1024))  # 5000 bytes
    old = _entry(tmp_path, "patterns-old.npy", 3000, 100)
    gone = _entry(tmp_path, "patterns-gone.npy", 3000, 50)
    recent = _entry(tmp_path, "best-tree-recent.json", 1500, 10)
    listed = Path.glob

    def glob_then_removed(self: Path, pattern: str):  # the other process prunes it
        found = list(listed(self, pattern))
        gone.unlink(missing_ok=True)
        return iter(found)

    monkeypatch.setattr(Path, "glob", glob_then_removed)
    new = tmp_path / "openers-new.json"
    cache.write_atomically(new, lambda temporary: temporary.write_bytes(bytes(1000)))
    assert new.exists() and recent.exists()
    assert not old.exists() and not gone.exists()
    assert cache.entries() == [recent, new]
    assert cache.total_bytes([recent, gone, new]) == 2500
