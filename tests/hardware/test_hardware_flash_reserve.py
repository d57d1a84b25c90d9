"""The XC8 build keeps code out of the frame store's flash."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ROW_WORDS = 32
FLASH_WORDS = 16384


def test_xc8_link_reserves_exactly_the_store_region() -> None:
    layout = (ROOT / "firmware/app/store_layout.h").read_text()
    first_row = int(re.search(r"#define STORE_REGION_FIRST_ROW (\d+)u", layout).group(1))
    toolchain = (ROOT / "firmware/toolchain/CMakeLists.txt").read_text()
    reserved = re.search(r"-mreserve=rom@0x([0-9A-Fa-f]+):0x([0-9A-Fa-f]+)", toolchain)
    assert reserved is not None, "the XC8 link must reserve the frame store"
    assert int(reserved.group(1), 16) == first_row * ROW_WORDS
    assert int(reserved.group(2), 16) == FLASH_WORDS - 1
