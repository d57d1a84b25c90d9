"""Generate register headers for the PIC HAL from gputils' p16f18326.inc (or p16f1788.inc).

The PIC HAL (firmware/ports/pic16f18326/) is written against XC8 names. Built on
the host against this header, a misspelled register or bit name fails the
build, and the unit tests can read every register the HAL wrote.

Each register becomes an lvalue in one array indexed by its linear address
(``TRISA``), with XC8's bit-field view (``TRISAbits.TRISA4``) and mask/position
macros (``_TRISA_TRISA4_MASK``). Registers named with --trace-writes get a fresh
log slot on every access instead, so a test can check write sequences such as
the NVM unlock (0x55, 0xAA). XC8 builtins (NOP, SLEEP, __delay_us...) call
host hooks the test harness provides.

For SDCC's pic14 port (whose device headers and SFR library are non-free and
not in Debian's source) --sdcc writes instead the same names as an SDCC
header: ``extern __sfr __at(0x008C) TRISA;``, bit-field views
``extern volatile TRISAbits_t __at(0x008C) TRISAbits;`` and the mask/position
macros; --sdcc-source writes the C file that defines every one of them (it
includes the header first: SDCC makes an ``__at`` definition global only when
its extern declaration is visible). --config-from FILE reads the
``#pragma config NAME = VALUE`` lines of a main.c and adds the configuration
words they make (``PIC_CONFIG_WORDS`` with ``PIC_CONFIGn_ADDRESS`` and
``PIC_CONFIGn_VALUE``), every setting checked against the .inc.

Usage: python tools/pic/gen_pic_regs.py [--inc FILE] [--trace-writes NVMCON2,...] --out xc.h
       python tools/pic/gen_pic_regs.py --sdcc [--inc FILE] [--config-from main.c]
                                    --out xc.h [--sdcc-source pic_sfr.c]
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass, field
from pathlib import Path

SFR_SPACE = 0x1000
EQU_LINE = re.compile(r"^\s*(\w+)\s+EQU\s+H'([0-9A-Fa-f]+)'")
BITS_HEADER = re.compile(r"^;-----\s+(\w+)\s+Bits\s+-+")
CONFIG_HEADER = re.compile(r"^;-----\s+(CONFIG\d)\s+Options\s+-+")
CONFIG_WORD = re.compile(r"^_(CONFIG\d)$")
PRAGMA_CONFIG = re.compile(r"^\s*#pragma\s+config\s+(.+)$", re.M)
SECTION_HEADER = re.compile(r"^;-----\s")


@dataclass
class RegisterMap:
    """What the vendor include file says about one chip."""

    registers: dict[str, int] = field(default_factory=dict)
    bits: dict[str, dict[str, int]] = field(default_factory=dict)
    config_options: dict[str, int] = field(default_factory=dict)
    config_option_word: dict[str, str] = field(default_factory=dict)  # _LVP_ON -> CONFIG3
    config_words: dict[str, int] = field(default_factory=dict)  # CONFIG1 -> 0x8007


def default_inc_path() -> Path:
    import pymcu_pic_toolchain

    return Path(pymcu_pic_toolchain.__file__).parent / "header" / "p16f18326.inc"


def parse_inc(text: str) -> RegisterMap:
    """Registers (name -> address), bits per register (name -> position), config options."""
    regmap = RegisterMap()
    section: str | None = None
    current_register: str | None = None
    current_word: str | None = None
    for line in text.splitlines():
        if line.startswith(";----- Register Files"):
            section = "registers"
            continue
        if match := BITS_HEADER.match(line):
            section, current_register = "bits", match.group(1)
            continue
        if match := CONFIG_HEADER.match(line):
            section, current_word = "config", match.group(1)
            continue
        if SECTION_HEADER.match(line):
            section = None
            continue
        match = EQU_LINE.match(line)
        if not match or section is None:
            continue
        name, value = match.group(1), int(match.group(2), 16)
        if word := CONFIG_WORD.match(name):
            regmap.config_words[word.group(1)] = value
        elif section == "registers" and value < SFR_SPACE:
            regmap.registers[name] = value
        elif section == "bits" and current_register in regmap.registers and value < 8:
            regmap.bits.setdefault(current_register, {})[name] = value
        elif section == "config" and current_word is not None:
            regmap.config_options[name] = value
            regmap.config_option_word[name] = current_word
    return regmap


def _bit_layers(bits: dict[str, int]) -> list[dict[int, str]]:
    """Split aliases (several names for one bit) into layers of one name per position."""
    layers: list[dict[int, str]] = []
    for name, position in bits.items():
        for layer in layers:
            if position not in layer:
                layer[position] = name
                break
        else:
            layers.append({position: name})
    return layers


def _struct_fields(layer: dict[int, str], field_type: str = "uint8_t") -> list[str]:
    fields = []
    gap = 0
    for position in range(8):
        if position in layer:
            if gap:
                fields.append(f"{field_type} : {gap};")
                gap = 0
            fields.append(f"{field_type} {layer[position]} : 1;")
        else:
            gap += 1
    if gap:
        fields.append(f"{field_type} : {gap};")
    return fields


def _bits_typedef(register: str, bits: dict[str, int], field_type: str = "uint8_t") -> list[str]:
    layers = _bit_layers(bits)
    if len(layers) == 1:
        body = "".join(f" {f}" for f in _struct_fields(layers[0], field_type))
        return [f"typedef struct {{{body} }} {register}bits_t;"]
    lines = ["typedef union {"]
    for layer in layers:
        body = "".join(f" {f}" for f in _struct_fields(layer, field_type))
        lines.append(f"    struct {{{body} }};")
    lines.append(f"}} {register}bits_t;")
    return lines


HOOKS = """\
/* XC8 builtins, as hooks the host test harness implements. */
void pic_host_nop(void);
void pic_host_sleep(void);
void pic_host_delay_us(uint32_t us);
volatile uint8_t *pic_host_traced_access(uint16_t address);
#define NOP() pic_host_nop()
#define SLEEP() pic_host_sleep()
#define CLRWDT() ((void)0)
#define __delay_us(us) pic_host_delay_us((uint32_t)(us))
#define __delay_ms(ms) pic_host_delay_us((uint32_t)(ms) * 1000u)
#define __interrupt(...)
"""


def render_header(regmap: RegisterMap, traced: set[str], source_name: str) -> str:
    unknown = traced - regmap.registers.keys()
    if unknown:
        raise SystemExit(f"--trace-writes: not registers of this chip: {sorted(unknown)}")
    out = [
        f"/* Generated by tools/pic/gen_pic_regs.py from {source_name}: do not edit. */",
        "#ifndef EPDLE_PIC_HOST_XC_H",
        "#define EPDLE_PIC_HOST_XC_H",
        "",
        "#include <stdint.h>",
        "",
        f"#define PIC_SFR_SPACE 0x{SFR_SPACE:04X}u",
        "/* Every special function register, indexed by its linear address. */",
        "extern volatile uint8_t pic_sfr[PIC_SFR_SPACE];",
        "",
        HOOKS,
    ]
    for register, address in regmap.registers.items():
        out.append(f"#define {register}_ADDRESS 0x{address:04X}u")
        # A traced register's every access, bit fields included, goes through the hook.
        if register in traced:
            cell = f"pic_host_traced_access(0x{address:04X}u)"
            out.append(f"#define {register} (*{cell})")
        else:
            cell = f"&pic_sfr[0x{address:04X}u]"
            out.append(f"#define {register} (pic_sfr[0x{address:04X}u])")
        bits = regmap.bits.get(register)
        if not bits:
            continue
        out.extend(_bits_typedef(register, bits))
        out.append(f"#define {register}bits (*(volatile {register}bits_t *){cell})")
        for name, position in bits.items():
            out.append(f"#define _{register}_{name}_POSN {position}u")
            out.append(f"#define _{register}_{name}_MASK 0x{1 << position:02X}u")
    out.extend(["", "#endif /* EPDLE_PIC_HOST_XC_H */", ""])
    return "\n".join(out)


def config_words(regmap: RegisterMap, main_c: str) -> dict[str, int]:
    """CONFIGn -> value of the `#pragma config` lines: each setting once, each of this chip."""
    words = dict.fromkeys(regmap.config_words, 0x3FFF)
    seen: set[str] = set()
    for line in PRAGMA_CONFIG.findall(main_c):
        for name, value in re.findall(r"(\w+)\s*=\s*(\w+)", line):
            symbol = f"_{name}_{value}"
            if symbol not in regmap.config_options:
                raise SystemExit(f"#pragma config {name} = {value}: not an option of this chip")
            if name in seen:
                raise SystemExit(f"#pragma config {name}: set twice")
            seen.add(name)
            words[regmap.config_option_word[symbol]] &= regmap.config_options[symbol]
    return words


SDCC_BUILTINS = """/* Linear addresses of the configuration words (DS: "Configuration Words"). */"""


def render_sdcc_header(
    regmap: RegisterMap, source_name: str, config: dict[str, int] | None = None
) -> str:
    """The register names of render_header() as SDCC pic14 absolute symbols."""
    out = [
        f"/* Generated by tools/pic/gen_pic_regs.py --sdcc from {source_name}: do not edit. */",
        "#ifndef EPDLE_PIC_SDCC_XC_H",
        "#define EPDLE_PIC_SDCC_XC_H",
        "",
        "#include <stdint.h>",
        "",
    ]
    for register, address in regmap.registers.items():
        out.append(f"#define {register}_ADDRESS 0x{address:04X}u")
        out.append(f"extern __sfr __at(0x{address:04X}) {register};")
        bits = regmap.bits.get(register)
        if not bits:
            continue
        out.extend(_bits_typedef(register, bits, "unsigned"))
        out.append(f"extern volatile {register}bits_t __at(0x{address:04X}) {register}bits;")
        for name, position in bits.items():
            out.append(f"#define _{register}_{name}_POSN {position}u")
            out.append(f"#define _{register}_{name}_MASK 0x{1 << position:02X}u")
    if config is not None:
        out.extend(["", SDCC_BUILTINS])
        definitions = []
        for word, value in sorted(config.items()):
            address = regmap.config_words[word]
            out.append(f"#define PIC_{word}_ADDRESS 0x{address:04X}u")
            out.append(f"#define PIC_{word}_VALUE 0x{value:04X}u")
            definitions.append(
                f"static __code uint16_t __at(0x{address:04X}) pic_{word.lower()} = 0x{value:04X}u;"
            )
        out.append("/* The words main.c's #pragma config lines ask for (XC8 reads those). */")
        out.append("#define PIC_CONFIG_WORDS \\")
        out.append(" \\\n".join(f"    {d}" for d in definitions))
    out.extend(["", "#endif /* EPDLE_PIC_SDCC_XC_H */", ""])
    return "\n".join(out)


def render_sdcc_source(regmap: RegisterMap, header_name: str, source_name: str) -> str:
    """Definitions of every symbol of render_sdcc_header(), its externs visible first."""
    out = [
        f"/* Generated by tools/pic/gen_pic_regs.py --sdcc from {source_name}: do not edit. */",
        f'#include "{header_name}"',
        "",
    ]
    for register, address in regmap.registers.items():
        out.append(f"__sfr __at(0x{address:04X}) {register};")
        if regmap.bits.get(register):
            out.append(f"volatile {register}bits_t __at(0x{address:04X}) {register}bits;")
    out.append("")
    return "\n".join(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inc", type=Path, default=None, help="gputils p16f18326.inc")
    parser.add_argument(
        "--trace-writes",
        default="",
        help="comma-separated register names whose accesses call pic_host_traced_access()",
    )
    parser.add_argument("--out", type=Path, required=True, help="header to write")
    parser.add_argument("--sdcc", action="store_true", help="write an SDCC pic14 header")
    parser.add_argument("--sdcc-source", type=Path, default=None, help="SDCC: definitions file")
    parser.add_argument("--config-from", type=Path, default=None, help="SDCC: main.c to read")
    args = parser.parse_args()
    inc_path = args.inc or default_inc_path()
    regmap = parse_inc(inc_path.read_text(encoding="latin-1"))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    if args.sdcc:
        config = None
        if args.config_from is not None:
            config = config_words(regmap, args.config_from.read_text(encoding="utf-8"))
        header = render_sdcc_header(regmap, inc_path.name, config)
        args.out.write_text(header, encoding="ascii")
        if args.sdcc_source is not None:
            source = render_sdcc_source(regmap, args.out.name, inc_path.name)
            args.sdcc_source.parent.mkdir(parents=True, exist_ok=True)
            args.sdcc_source.write_text(source, encoding="ascii")
        return 0
    traced = {name for name in args.trace_writes.split(",") if name}
    args.out.write_text(render_header(regmap, traced, inc_path.name), encoding="ascii")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
