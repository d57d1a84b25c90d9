"""Shared pieces of the hardware tests: repository paths and the tools/ scripts."""

from __future__ import annotations

import csv
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]
PINS_CSV = ROOT / "hardware" / "pins.csv"
HAL_H = ROOT / "firmware" / "hal" / "hal.h"
PIC_DIR = ROOT / "firmware" / "ports" / "pic16f18326"


def load_tool(path: str) -> ModuleType:
    """Import tools/<family>/<name>.py, given as "family/name" (scripts, not a package)."""
    name = path.rpartition("/")[2]
    script = ROOT / "tools" / f"{path}.py"
    if str(script.parent) not in sys.path:  # as when run: its neighbours import by name
        sys.path.append(str(script.parent))
    spec = importlib.util.spec_from_file_location(name, script)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def pin_rows() -> dict[str, dict[str, str]]:
    """hardware/pins.csv keyed by net."""
    with PINS_CSV.open(newline="", encoding="utf-8") as handle:
        return {row["net"]: row for row in csv.DictReader(handle)}
