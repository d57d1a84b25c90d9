"""Paths named on the command line, checked before a command uses them: a missing or
unreadable input, or an output that cannot be written, is one clear CommandError.

Apart from `errors` so that commands that take no paths (a one-shot `suggest`) do not
load pathlib.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from epdle.cli.errors import CommandError, describe, shorten


def input_file(path: str | Path, what: str = "file") -> Path:
    """`path` if it is a readable file; CommandError saying why not."""
    path = Path(path)
    if not path.exists():
        raise CommandError(f"{what} {shorten(str(path), 200)} does not exist")
    if path.is_dir():
        raise CommandError(f"{what} {shorten(str(path), 200)} is a directory, not a file")
    if not os.access(path, os.R_OK):
        raise CommandError(f"{what} {shorten(str(path), 200)} is not readable")
    return path


def output_dir(path: str | Path, what: str = "output directory") -> Path:
    """Create directory `path` (and its parents) if needed; CommandError if it cannot be."""
    path = Path(path)
    shown = shorten(str(path), 200)
    if path.exists() and not path.is_dir():
        raise CommandError(f"{what} {shown} is a file, not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise CommandError(f"cannot create {what} {shown}: {_reason(error)}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise CommandError(f"{what} {shown} is not writable")
    return path


def output_file(path: str | Path, what: str = "output file") -> Path:
    """`path` if a file can be written there (its directory exists and is writable)."""
    path = Path(path)
    shown = shorten(str(path), 200)
    if path.is_dir():
        raise CommandError(f"{what} {shown} is a directory")
    parent = path.parent
    if not parent.is_dir():
        raise CommandError(f"cannot write {what} {shown}: directory {parent} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise CommandError(f"cannot write {what} {shown}: permission denied")
    return path


def _reason(error: OSError) -> str:
    if error.errno is not None and error.errno in errno.errorcode:
        text = os.strerror(error.errno)
        return text[:1].lower() + text[1:]
    return describe(error)
