"""Rewrite the golden frames of tests/render after an intended design change.

Usage: `make golden` (or: PYTHONPATH=host python tools/gen/regen_golden.py).
Look at the PNGs it writes before committing them.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

RENDER_TESTS = Path(__file__).resolve().parents[2] / "tests" / "render"
# Each case file, and the name of its {name: render} table.
CASE_FILES = {"render_golden_cases": "GOLDEN_CASES", "multi_golden_cases": "MULTI_GOLDEN_CASES"}


def main() -> int:
    for module, table in CASE_FILES.items():
        cases_file = RENDER_TESTS / f"{module}.py"
        spec = importlib.util.spec_from_file_location(module, cases_file)
        if spec is None or spec.loader is None:
            print(f"cannot load {cases_file}", file=sys.stderr)
            return 1
        cases = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = cases  # dataclasses look their module up while being defined
        spec.loader.exec_module(cases)
        cases.GOLDEN_DIR.mkdir(parents=True, exist_ok=True)
        for name, render in getattr(cases, table).items():
            path = cases.GOLDEN_DIR / f"{name}.png"
            render().save(path, optimize=True)
            print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
