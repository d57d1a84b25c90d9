"""Where the shared frame vectors live and what the manifest says."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VECTOR_DIR = ROOT / "tests" / "vectors" / "frames"


def manifest() -> list[tuple[str, int]]:
    """(name, status) of every vector: status 0 = valid, else the FrameErrorKind value."""
    lines = (VECTOR_DIR / "manifest.txt").read_text().split("\n")
    return [(name, int(status)) for name, status in (line.split() for line in lines if line)]


def valid_frames() -> list[bytes]:
    names = [name for name, status in manifest() if status == 0]
    return [(VECTOR_DIR / f"{name}.frame").read_bytes() for name in names]
