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


# The cache is shared by processes at once: an entry another process removes between the
# listing and reading it is simply gone, never an error.
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


def test_cache_info_counts_an_entry_removed_meanwhile_as_gone(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    kept = _entry(cache_dir, "patterns-kept.npy", 2000, 20)
    gone = _entry(cache_dir, "patterns-gone.npy", 3000, 10)
    listed = cache.entries

    def listed_then_removed() -> list[Path]:  # another process prunes it meanwhile
        found = listed()
        gone.unlink()
        return found

    monkeypatch.setattr(cache, "entries", listed_then_removed)
    assert main(["cache", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["bytes"] == 2000 and kept.exists()
    assert {e["name"]: e["bytes"] for e in report["entries"]} == {
        "patterns-kept.npy": 2000,
        "patterns-gone.npy": 0,
    }
