"""tools/pic/gen_lkr.py: the 16F18326 linker script follows the chip's own .inc."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest
from hardware_tools import ROOT, load_tool

STOCK_1788 = Path("/usr/share/gputils/lkr/16f1788_g.lkr")
INC_1788 = Path("/usr/share/gputils/header/p16f1788.inc")


def _gen_lkr():
    load_tool("pic/gen_pic_regs")
    spec = importlib.util.spec_from_file_location("gen_lkr", ROOT / "tools" / "pic" / "gen_lkr.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_lkr"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def lkr():
    return _gen_lkr()


@pytest.fixture(scope="module")
def mm18326(lkr):
    gen = load_tool("pic/gen_pic_regs")
    return lkr.memory_map(gen.default_inc_path().read_text(encoding="latin-1"))


def test_ram_map_of_the_18326(mm18326) -> None:
    gpr = mm18326["gpr"]
    assert len(gpr) == 26
    assert gpr[0] == ("gpr0", 0x20, 0x6F, 0x2000)
    assert gpr[-1] == ("gpr25", 0xCA0, 0xCBF, 0x27D0)
    assert sum(last - first + 1 for _, first, last, _ in gpr) + 16 == 2048
    assert mm18326["linear_end"] == 0x27EF
    assert mm18326["config"] == (0x8007, 0x800A)


def test_script_keeps_the_store_free(lkr, mm18326) -> None:
    text = lkr.render("16f18326", "p16f18326.inc", mm18326, 16384, 0x1800)
    pages = re.findall(r"CODEPAGE\s+NAME=(\S+)\s+START=(\S+)\s+END=(\S+)(\s+PROTECTED)?", text)
    free = [(int(a, 16), int(b, 16)) for name, a, b, prot in pages if not prot]
    assert free == [(0x0, 0x7FF), (0x800, 0xFFF), (0x1000, 0x17FF)]
    assert "NAME=.config  START=0x8007  END=0x800A  PROTECTED" in text


@pytest.mark.skipif(not STOCK_1788.exists(), reason="gputils not installed")
def test_same_generator_gives_the_stock_1788_gpr_map(lkr) -> None:
    mm = lkr.memory_map(INC_1788.read_text(encoding="latin-1"))
    lkr.compare_gpr(mm, STOCK_1788)  # raises if they differ
