"""tools/pic/gen_pic_regs.py: the host <xc.h> stand-in follows the vendor register map."""

from __future__ import annotations

import re

import pytest
from hardware_tools import PIC_DIR, load_tool

gen = load_tool("pic/gen_pic_regs")


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


def test_sdcc_header_declares_every_register_extern(regmap) -> None:
    header = gen.render_sdcc_header(regmap, "p16f18326.inc")
    assert "extern __sfr __at(0x008C) TRISA;" in header
    assert "extern volatile TRISAbits_t __at(0x008C) TRISAbits;" in header
    assert "#define _IOCAN_IOCAN5_MASK 0x20u" in header
    assert "unsigned TRISA0 : 1;" in header
    assert "pic_sfr[" not in header


def test_sdcc_source_defines_each_symbol_after_its_extern(regmap) -> None:
    source = gen.render_sdcc_source(regmap, "xc.h", "p16f18326.inc")
    # SDCC makes an __at definition global only with its extern declaration in sight.
    assert source.index('#include "xc.h"') < source.index("__sfr __at(0x008C) TRISA;")
    assert "volatile TRISAbits_t __at(0x008C) TRISAbits;" in source
    assert source.count("__sfr __at(") == len(regmap.registers)


def test_config_words_follow_main_c_pragmas(regmap) -> None:
    main_c = (PIC_DIR / "main.c").read_text()
    words = gen.config_words(regmap, main_c)
    assert regmap.config_words == {
        "CONFIG1": 0x8007,
        "CONFIG2": 0x8008,
        "CONFIG3": 0x8009,
        "CONFIG4": 0x800A,
    }
    # FEXTOSC OFF, RSTOSC HFINT1 (bits 6:4 = 110), CLKOUTEN OFF, CSWEN ON, FCMEN OFF
    # (datasheet bits).
    assert words["CONFIG1"] == 0x3FFC & 0x3FEF & 0x1FFF
    assert words["CONFIG3"] == 0x3FFD  # WRT HALF (bits 1:0 = 01), LVP ON
    assert words["CONFIG2"] & 0x0200 == 0x0200  # BORV LOW (bit 9 = 1)
    assert words["CONFIG2"] & 0x00C0 == 0x0080  # BOREN SLEEP (bits 7:6 = 10)
    header = gen.render_sdcc_header(regmap, "p16f18326.inc", words)
    assert "static __code uint16_t __at(0x8007) pic_config1 = 0x1FECu;" in header


def test_config_pragmas_are_checked(regmap) -> None:
    with pytest.raises(SystemExit, match="LVP = MAYBE"):
        gen.config_words(regmap, "#pragma config LVP = MAYBE\n")
    with pytest.raises(SystemExit, match="set twice"):
        gen.config_words(regmap, "#pragma config LVP = ON\n#pragma config LVP = OFF\n")


def test_config_addresses_are_not_bits(regmap) -> None:
    # p16f18326.inc lists _CONFIG1 EQU H'8007' after its last Bits section.
    assert all(value < 8 for bits in regmap.bits.values() for value in bits.values())
