"""The solver's on-disk cache: where it lives, how entries are keyed, how big it may grow.

What it holds (all rebuilt on demand, so any of it may be deleted at any time):
pattern matrices (`patterns-*.npy`, one per pair of word lists: 33 MB for the
shipped lists, about 220 MB for a blind universe), decision trees for lists of
your own (`best-tree-*.json`), ranked openers (`openers-*.json`) and the guesses'
letter shapes a one-shot `suggest` reads off the tree (`cold-shapes-*.json`) and the
last lists key it worked out (`lists-key.txt`).

It lives in $EPDLE_CACHE_DIR, else $XDG_CACHE_HOME/epdle, else ~/.cache/epdle, and
is kept under $EPDLE_CACHE_MAX_MB megabytes (default 1024): after each write, the
entries used longest ago go first. `epdle cache` shows it; `epdle cache clear`
empties it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from contextlib import suppress

TYPE_CHECKING = False
if TYPE_CHECKING:  # at run time only where a path is made: a one-shot suggest needs none
    from pathlib import Path

# Bump when the layout or meaning of a cached file changes.
CACHE_FORMAT = 1
MAX_MB_ENV = "EPDLE_CACHE_MAX_MB"
DEFAULT_MAX_MB = 1024
ENTRY_PATTERNS = (
    "patterns-*.npy",
    "best-tree-*.json",
    "openers-*.json",
    "cold-shapes-*.json",
    "multi-opening-*.json",
    "lists-key.txt",
    "lists-key-*.txt",
)


def cache_dir() -> Path:
    """$EPDLE_CACHE_DIR, else $XDG_CACHE_HOME/epdle, else ~/.cache/epdle."""
    from pathlib import Path

    return Path(cache_dir_name())


def cache_dir_name() -> str:
    """cache_dir() as a string, found with os.path (for a one-shot suggest)."""
    explicit = os.environ.get("EPDLE_CACHE_DIR")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "epdle")


def lists_key(guesses: Sequence[str], answers: Sequence[str]) -> str:
    """A short hash naming one (guesses, answers) pair; any change to either list changes it."""
    import hashlib  # here: a one-shot suggest reads its key from the memo (remembered_key)

    digest = hashlib.sha256(f"format {CACHE_FORMAT}\n".encode())
    digest.update("\n".join(guesses).encode())
    digest.update(b"\n--answers--\n")
    digest.update("\n".join(answers).encode())
    return digest.hexdigest()[:20]


KEY_MEMO = "lists-key.txt"


def remembered_key(text: str, key: Callable[[], str], name: str = "original") -> str:
    """key(), a key that `text` determines (say the word lists' files), kept in the cache
    with the whole of `text` and read back only while `text` is the same: a one-shot
    `suggest` then needs neither the lists worked out nor hashlib (OpenSSL) loaded.
    `name`: the named lists (one memo each, so games on two lists do not evict each
    other's)."""
    memo = KEY_MEMO if name == "original" else f"lists-key-{name}.txt"
    path = os.path.join(cache_dir_name(), memo)
    with suppress(OSError, ValueError), open(path, encoding="utf-8", newline="") as handle:
        remembered, _, remembered_text = handle.read().partition("\n")
        if remembered_text == text:
            return remembered
    found = key()
    from pathlib import Path

    with suppress(OSError):  # only slower next time
        write_atomically(
            Path(path),
            lambda temporary: temporary.write_text(f"{found}\n{text}", "utf-8", newline=""),
        )
    return found


def write_atomically(path: Path, write: Callable[[Path], object]) -> None:
    """Write through a temporary file and rename, so readers never see half a file."""
    import tempfile  # here: a one-shot suggest writes nothing once its caches are made
    from pathlib import Path

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
    if path.parent == cache_dir():
        prune(max_bytes(), keep=path)


def max_bytes() -> int:
    """The cache's bound: $EPDLE_CACHE_MAX_MB megabytes (default 1024)."""
    text = os.environ.get(MAX_MB_ENV, "")
    try:
        megabytes = float(text) if text else DEFAULT_MAX_MB
    except ValueError:
        megabytes = DEFAULT_MAX_MB
    return int(max(megabytes, 0) * 1024 * 1024)


def entries(directory: Path | None = None) -> list[Path]:
    """The cache's files, used longest ago first."""
    directory = directory or cache_dir()
    if not directory.is_dir():
        return []
    found = {path for pattern in ENTRY_PATTERNS for path in directory.glob(pattern)}
    used = {}
    for path in found:
        try:
            stat = path.stat()
        except FileNotFoundError:  # another process's prune removed it since the listing
            continue
        used[path] = max(stat.st_atime, stat.st_mtime)
    return sorted(used, key=used.__getitem__)


def entry_bytes(path: Path) -> int:
    """The entry's bytes; 0 once another process has removed it."""
    try:
        return path.stat().st_size
    except FileNotFoundError:
        return 0


def total_bytes(paths: Sequence[Path]) -> int:
    return sum(entry_bytes(path) for path in paths)


def prune(limit: int, keep: Path | None = None) -> list[Path]:
    """Delete the entries used longest ago until the cache holds at most `limit` bytes
    (`keep` stays whatever its size); the deleted paths back."""
    paths = entries(keep.parent if keep is not None else None)
    size = total_bytes(paths)
    removed = []
    for path in paths:
        if size <= limit:
            break
        if path == keep:
            continue
        size -= entry_bytes(path)
        path.unlink(missing_ok=True)
        removed.append(path)
    return removed
