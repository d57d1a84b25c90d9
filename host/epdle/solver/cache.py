"""The solver's on-disk cache: where it lives and how entries are keyed."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Sequence
from pathlib import Path

# Bump when the layout or meaning of a cached file changes.
CACHE_FORMAT = 1


def cache_dir() -> Path:
    """$EPDLE_CACHE_DIR, else $XDG_CACHE_HOME/epdle, else ~/.cache/epdle."""
    explicit = os.environ.get("EPDLE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg) if xdg else Path.home() / ".cache"
    return base / "epdle"


def lists_key(guesses: Sequence[str], answers: Sequence[str]) -> str:
    """A short hash naming one (guesses, answers) pair; any change to either list changes it."""
    digest = hashlib.sha256(f"format {CACHE_FORMAT}\n".encode())
    digest.update("\n".join(guesses).encode())
    digest.update(b"\n--answers--\n")
    digest.update("\n".join(answers).encode())
    return digest.hexdigest()[:20]


def write_atomically(path: Path, write: Callable[[Path], None]) -> None:
    """Write through a temporary file and rename, so readers never see half a file."""
    import tempfile  # here: a one-shot suggest reads lists_key only

    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    os.close(handle)
    try:
        write(Path(temporary))
        os.chmod(temporary, 0o644)  # a cache others on the machine may read, like any file
        os.replace(temporary, path)
    finally:
        if os.path.exists(temporary):
            os.unlink(temporary)
