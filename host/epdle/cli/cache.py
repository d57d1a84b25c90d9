"""CLI commands: `cache` (what the solver keeps on disk) and `cache clear`."""

from __future__ import annotations

import argparse
import json


def register(commands: argparse._SubParsersAction) -> None:
    """Add this module's subcommands to the `epdle` parser."""
    cache = commands.add_parser(
        "cache",
        help="show or clear the solver's disk cache (pattern matrices, trees, openers)",
        description="The solver caches what it computes for a pair of word lists: pattern "
        "matrices, decision trees for lists of your own, ranked openers. All of it is "
        "rebuilt on demand. It lives in $EPDLE_CACHE_DIR, else $XDG_CACHE_HOME/epdle, else "
        "~/.cache/epdle, and is kept under $EPDLE_CACHE_MAX_MB megabytes (default 1024), "
        "the entries used longest ago going first.",
    )
    cache.add_argument("--json", action="store_true", help="print one JSON object")
    cache.set_defaults(func=run_info)
    actions = cache.add_subparsers(dest="cache_command", metavar="ACTION")
    clear = actions.add_parser(
        "clear",
        help="delete every cache entry",
        description="Delete every entry of the solver's cache (it is rebuilt on demand).",
    )
    clear.add_argument("--json", action="store_true", help="print one JSON object")
    clear.set_defaults(func=run_clear)


def _megabytes(size: int) -> str:
    return f"{size / 1024 / 1024:.1f} MB"


def run_info(args: argparse.Namespace) -> int:
    from epdle.solver.cache import cache_dir, entries, entry_bytes, max_bytes, total_bytes

    paths = entries()
    size = total_bytes(paths)
    if args.json:
        report = {
            "directory": str(cache_dir()),
            "entries": [{"name": p.name, "bytes": entry_bytes(p)} for p in paths],
            "bytes": size,
            "max_bytes": max_bytes(),
        }
        print(json.dumps(report))
        return 0
    print(
        f"{cache_dir()}: {len(paths)} entr{'y' if len(paths) == 1 else 'ies'}, "
        f"{_megabytes(size)} (kept under {_megabytes(max_bytes())})"
    )
    for path in reversed(paths):
        print(f"  {path.name}  {_megabytes(entry_bytes(path))}")
    return 0


def run_clear(args: argparse.Namespace) -> int:
    from epdle.solver.cache import cache_dir, entries, total_bytes

    paths = entries()
    size = total_bytes(paths)
    for path in paths:
        path.unlink(missing_ok=True)
    if args.json:
        print(json.dumps({"directory": str(cache_dir()), "removed": len(paths), "bytes": size}))
    else:
        print(f"{cache_dir()}: removed {len(paths)} entries, {_megabytes(size)}")
    return 0
