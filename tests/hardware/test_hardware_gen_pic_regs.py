"""tools/gen_pic_regs.py: the host <xc.h> stand-in follows the vendor register map."""

from __future__ import annotations

import re

import pytest
from hardware_tools import load_tool

gen = load_tool("gen_pic_regs")


@pytest.fixture(scope="module")
def regmap():
    return gen.parse_inc(gen.default_inc_path().read_text(encoding="latin-1"))


def test_registers_and_bits_of_the_datasheet(regmap) -> None:
    assert regmap.registers["TRISA"] == 0x08C
    assert regmap.registers["NVMCON2"] == 0x896
    assert regmap.registers["RC1PPS"] == 0xEA1
    assert regmap.bits["RC1STA"]["SPEN"] == 7
    assert regmap.bits["BAUD1CON"]["WUE"] == 1
    assert "TRISA3" not in regmap.bits["TRISA"]  # RA3 is input only
    assert regmap.config_options["_LVP_ON"] == 0x3FFF


def test_header_defines_registers_bits_and_masks(regmap) -> None:
    header = gen.render_header(regmap, {"NVMCON2"}, "p16f18326.inc")
    assert "#define TRISA (pic_sfr[0x008Cu])" in header
    assert "#define NVMCON2 (*pic_host_traced_access(0x0896u))" in header
    assert "#define _IOCAN_IOCAN5_MASK 0x20u" in header
    bits = re.search(r"typedef struct \{([^}]*)\} TRISAbits_t;", header)
    assert bits is not None
    assert bits[1].split(";")[:5] == [
        " uint8_t TRISA0 : 1",
        " uint8_t TRISA1 : 1",
        " uint8_t TRISA2 : 1",
        " uint8_t : 1",
        " uint8_t TRISA4 : 1",
    ]


def test_aliased_bits_share_a_union() -> None:
    regmap = gen.parse_inc(
        ";----- Register Files ----\nREG EQU H'0010'\n"
        ";----- REG Bits ----\nA EQU H'0000'\nB EQU H'0000'\nC EQU H'0003'\n"
    )
    header = gen.render_header(regmap, set(), "test.inc")
    assert "typedef union {" in header
    assert "struct { uint8_t A : 1; uint8_t : 2; uint8_t C : 1; uint8_t : 4; };" in header
    assert "struct { uint8_t B : 1; uint8_t : 7; };" in header


def test_tracing_an_unknown_register_is_an_error(regmap) -> None:
    with pytest.raises(SystemExit, match="NVMCON9"):
        gen.render_header(regmap, {"NVMCON9"}, "p16f18326.inc")
