"""Measure the benchmarks and write their tables into docs/bench.md.

    PYTHONPATH=host .venv/bin/python tools/bench/bench_docs.py strategies
    PYTHONPATH=host .venv/bin/python tools/bench/bench_docs.py languages --sample 30
    PYTHONPATH=host .venv/bin/python tools/bench/bench_docs.py latency
    PYTHONPATH=host .venv/bin/python tools/bench/bench_docs.py strategies --only '^best' \\
        --source /path/to/older/checkout --code before

Each run is `epdle bench ... --json` in a process of its own; its row (figures from that
JSON, and what it was measured on) replaces the row of the same run and code between
the section's `<!-- bench:NAME -->` markers, as soon as it is measured. Nothing else in
the document changes. `--source` measures another checkout's code (its host/ package,
run by `--python`).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import docs_tables as bench_docs  # beside this script

ROOT = Path(__file__).resolve().parents[2]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("section", choices=sorted(bench_docs.SECTIONS))
    parser.add_argument("--doc", type=Path, default=ROOT / "docs" / "bench.md")
    parser.add_argument("--only", metavar="REGEX", help="the runs whose name matches")
    parser.add_argument(
        "--sample", type=int, default=30, help="languages: hidden words per list (30)"
    )
    parser.add_argument("--source", type=Path, help="the checkout to measure (this one)")
    parser.add_argument(
        "--python",
        default=sys.executable,
        help="--source: an interpreter with the dependencies but without this checkout "
        "installed (an editable install would run this checkout's code instead)",
    )
    parser.add_argument("--code", help="the code column (default: the checkout's commit)")
    args = parser.parse_args()
    source = (args.source or ROOT).resolve()
    code = args.code or bench_docs.code_label(source)
    every = bench_docs.SECTIONS[args.section](args.sample)
    runs = bench_docs.select(every, args.only)
    if not runs:
        parser.error(f"no run of {args.section} matches {args.only!r}")

    def measured(run: bench_docs.Run) -> dict:
        return bench_docs.measure(run, args.python, source if args.source else None)

    def report(run: bench_docs.Run, result: dict) -> None:
        print(f"{run.name} ({code}): {result}", flush=True)

    try:
        bench_docs.write(args.doc, args.section, runs, code, measured, every, report)
    except (OSError, RuntimeError, ValueError) as error:
        print(f"bench_docs: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
