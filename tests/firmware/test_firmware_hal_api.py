"""hal.h declares only what the firmware above it calls: every HAL function has a caller
in firmware/app/ or firmware/drivers/ (an unused one is still linked into the chip's
image, and still has to be right in every port)."""

from __future__ import annotations

import re
from pathlib import Path

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"


def hal_functions() -> set[str]:
    text = re.sub(r"/\*.*?\*/", "", (FIRMWARE / "hal" / "hal.h").read_text(), flags=re.S)
    return set(re.findall(r"^\w[\w ]*?\b(hal_\w+)\(", text, re.M))


def portable_sources() -> str:
    files = sorted((FIRMWARE / "app").glob("*.c")) + sorted((FIRMWARE / "drivers").glob("*.c"))
    return "\n".join(re.sub(r"/\*.*?\*/", "", f.read_text(), flags=re.S) for f in files)


def test_every_hal_function_has_a_caller_above_the_hal() -> None:
    functions = hal_functions()
    assert {"hal_init", "hal_sleep", "hal_flash_write_row"} <= functions
    # hal_work() is reached through the HAL_WORK() macro hal.h defines for it.
    calls = portable_sources().replace("HAL_WORK(", "hal_work(")
    unused = sorted(name for name in functions if not re.search(rf"\b{name}\(", calls))
    assert unused == [], f"declared in hal.h, called nowhere in app/ or drivers/: {unused}"
