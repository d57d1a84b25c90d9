"""Write the device's KiCad schematic (hardware/kicad/) from the circuit described here.

Every part, its pins and the net on each pin are listed below, with the part numbers the
bill of materials carries; this script lays them out on one A4 sheet, each pin ending in a
net label (same name = same wire), and writes a KiCad 9 project: the schematic, its
symbol library and the project's library table. KiCad's own tools check and export it
(`make hardware`: ERC, netlist, BOM, SVG).

The MCU's pin nets here, hardware/pins.csv and the firmware's HAL are three separate
statements of the same wiring; tests/hardware/test_hardware_schematic.py holds them
against each other.

Usage: python tools/hardware/gen_schematic.py [--out hardware/kicad] [--check]
"""

from __future__ import annotations

import argparse
import re
import sys
import uuid
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PROJECT = "epdle"
LIB = "epdle"
GRID = 2.54
PIN_LENGTH = 2.54
STUB = 2.54  # wire from a pin's end to its net label
NAMESPACE = uuid.UUID("6f1c3c1e-4d0b-4a36-9a59-3c2f0d0e2b13")
FONT = "(effects (font (size 1.27 1.27)))"
HIDDEN = "(effects (font (size 1.27 1.27)) (hide yes))"


@dataclass(frozen=True)
class Pin:
    number: str
    name: str
    kind: str  # KiCad's electrical type: power_in, input, bidirectional, passive, ...
    side: str  # L, R, T, B: where the pin leaves the body
    net: str | None  # None: not connected (a no-connect flag)


@dataclass(frozen=True)
class Symbol:
    """A library symbol: a rectangle with pins on its sides (or a two-pin passive)."""

    name: str
    prefix: str
    pins: tuple[Pin, ...]
    width: float = 5.08  # half-widths of the body, in mm
    height: float = 2.54
    power_flag: bool = False


@dataclass(frozen=True)
class Part:
    ref: str
    value: str
    symbol: Symbol
    at: tuple[float, float]
    footprint: str = ""
    manufacturer: str = ""
    mpn: str = ""
    substitute: str = ""
    description: str = ""
    nets: dict[str, str | None] = field(default_factory=dict)  # pin number -> net


def _pins(*rows: tuple[str, str, str, str]) -> tuple[Pin, ...]:
    return tuple(Pin(number, name, kind, side, None) for number, name, kind, side in rows)


def _two_pin(name: str, prefix: str) -> Symbol:
    return Symbol(
        name, prefix, _pins(("1", "~", "passive", "T"), ("2", "~", "passive", "B")), 1.27, 2.54
    )


# ---- the circuit ----------------------------------------------------------------------------

# PIC16F18326, DIP-14 / SOIC-14 pin order (DS40001839, pin allocation table).
MCU = Symbol(
    "PIC16F18326",
    "U",
    _pins(
        ("1", "VDD", "power_in", "L"),
        ("2", "RA5", "bidirectional", "L"),
        ("3", "RA4", "bidirectional", "L"),
        ("4", "RA3/~{MCLR}/VPP", "input", "L"),
        ("5", "RC5", "bidirectional", "L"),
        ("6", "RC4", "bidirectional", "L"),
        ("7", "RC3", "bidirectional", "L"),
        ("14", "VSS", "power_in", "R"),
        ("13", "RA0/ICSPDAT", "bidirectional", "R"),
        ("12", "RA1/ICSPCLK", "bidirectional", "R"),
        ("11", "RA2", "bidirectional", "R"),
        ("10", "RC0", "bidirectional", "R"),
        ("9", "RC1", "bidirectional", "R"),
        ("8", "RC2", "bidirectional", "R"),
    ),
    width=12.7,
    height=10.16,
)
# TPS22860DBV (SOT-23-6): 1 VOUT, 2 GND, 3 NC, 4 VIN, 5 VBIAS, 6 ON (TI SLVSD04).
LOAD_SWITCH = Symbol(
    "TPS22860",
    "U",
    _pins(
        ("4", "VIN", "power_in", "L"),
        ("5", "VBIAS", "power_in", "L"),
        ("6", "ON", "input", "L"),
        ("2", "GND", "power_in", "L"),
        ("1", "VOUT", "power_out", "R"),
        ("3", "NC", "no_connect", "R"),
    ),
    width=7.62,
    height=5.08,
)
PANEL = Symbol(
    "EPD_Module_8pin",
    "J",
    _pins(
        ("1", "VCC", "passive", "L"),
        ("2", "GND", "passive", "L"),
        ("3", "DIN", "passive", "L"),
        ("4", "CLK", "passive", "L"),
        ("5", "CS", "passive", "L"),
        ("6", "DC", "passive", "L"),
        ("7", "RST", "passive", "L"),
        ("8", "BUSY", "passive", "L"),
    ),
    width=7.62,
    height=10.16,
)
ICSP = Symbol(
    "ICSP_6pin",
    "J",
    _pins(
        ("1", "~{MCLR}/VPP", "passive", "R"),
        ("2", "VDD", "passive", "R"),
        ("3", "GND", "passive", "R"),
        ("4", "PGD", "passive", "R"),
        ("5", "PGC", "passive", "R"),
        ("6", "LVP", "passive", "R"),
    ),
    width=7.62,
    height=8.89,
)
UART = Symbol(
    "UART_3pin",
    "J",
    _pins(("1", "TXD", "passive", "R"), ("2", "RXD", "passive", "R"), ("3", "GND", "passive", "R")),
    width=7.62,
    height=3.81,
)
# SPDT slide switch with its common on pin 1, the middle pin (Wuerth WS-SLTV 450301014042).
SLIDE = Symbol(
    "SW_SPDT",
    "SW",
    _pins(("1", "C", "passive", "L"), ("2", "A", "passive", "R"), ("3", "B", "passive", "R")),
    width=5.08,
    height=3.81,
)
RESISTOR = _two_pin("R", "R")
# Pin 1 the cathode, pin 2 the anode (KiCad's diode convention); drawn anode at the top.
SCHOTTKY = Symbol(
    "D_Schottky",
    "D",
    _pins(("2", "A", "passive", "T"), ("1", "K", "passive", "B")),
    1.27,
    2.54,
)
CAPACITOR = _two_pin("C", "C")
# C4 and C5, the same part in parallel: each keeps about 100 uF at 3 V of DC bias, and one
# alone is too little for a half-used cell's switch-on (hardware/power.md).
RESERVOIR_PURPOSE = (
    "reservoir at U2 VIN, two in parallel next to it (each about 100 uF at 3 V of DC bias):"
    " the panel's switch-on and refresh current come from here, not through the cell's"
    " resistance; each soldered across two strips"
)


def reservoir(ref: str, at: tuple[float, float]) -> Part:
    """One of the two reservoir capacitors at U2's VIN (the same part, side by side)."""
    return Part(
        ref,
        "220u",
        CAPACITOR,
        at,
        "Capacitor_SMD:C_1210_3225Metric",
        "Murata",
        "GRM32ER60J227ME05L",
        "any 220 uF 6.3 V X5R or X7R MLCC in 1210; not an electrolytic or a tantalum (leakage)",
        RESERVOIR_PURPOSE,
        {"1": "VDD", "2": "GND"},
    )


BATTERY = Symbol(
    "Battery_Cell", "BT", _pins(("1", "+", "passive", "T"), ("2", "-", "passive", "B")), 2.54, 2.54
)
BUTTON = _two_pin("SW_Push", "SW")
PWR_FLAG = Symbol(
    "PWR_FLAG", "#FLG", _pins(("1", "~", "power_out", "B")), 1.27, 1.27, power_flag=True
)

PARTS: tuple[Part, ...] = (
    Part(
        "U1",
        "PIC16F18326",
        MCU,
        (109.22, 68.58),
        "Package_DIP:DIP-14_W7.62mm",
        "Microchip",
        "PIC16F18326-I/P",
        "PIC16F18326-I/SL (SOIC-14) on a SOIC-14 to DIP adapter; no other chip: the frame "
        "store needs its 16K words",
        "8-bit MCU, 16K words flash, 2 KB RAM",
        {
            "1": "VDD",
            "2": "BUTTON",
            "3": "EPD_BUSY",
            "4": "MCLR",
            "5": "EPD_DC",
            "6": "EPD_CS",
            "7": "EPD_RST",
            "8": "EPD_SDA",
            "9": "UART_TX",
            "10": "EPD_SCL",
            "11": "EPD_PWR",
            "12": "UART_RX",
            "13": "ICSPDAT",
            "14": "GND",
        },
    ),
    Part(
        "U2",
        "TPS22860",
        LOAD_SWITCH,
        (177.8, 30.48),
        "Package_TO_SOT_SMD:SOT-23-6",
        "Texas Instruments",
        "TPS22860DBVR",
        "TPS22860DBVT (same part, small reel); or a 2N7002 N-MOSFET driving a DMG2305UX "
        "P-MOSFET with 100 kOhm gate pull-up to VDD (same polarity: EPD_PWR high = on)",
        "ultra-low-leakage load switch, active-high ON; soldered to a SOT-23-6 adapter",
        {"4": "VDD", "5": "VDD", "6": "EPD_PWR", "2": "GND", "1": "EPD_VCC", "3": None},
    ),
    Part(
        "J3",
        "Waveshare 2.13in e-Paper Module (B) V3",
        PANEL,
        (238.76, 68.58),
        "Connector_PinHeader_2.54mm:PinHeader_1x08_P2.54mm_Vertical",
        "Waveshare",
        "2.13inch e-Paper Module (B) V3 (212x104, black/white/red)",
        "Good Display GDEW0213Z16 panel on a DESPI-C02 adapter board (RESE at 3 Ohm), its"
        " header wired to J3 in reverse order (bom.md); NOT the V4 module (250x122, SSD1680)",
        "panel module header: VCC GND DIN CLK CS DC RST BUSY",
        {
            "1": "EPD_VCC",
            "2": "GND",
            "3": "EPD_SDA",
            "4": "EPD_SCL",
            "5": "EPD_CS",
            "6": "EPD_DC",
            "7": "EPD_RST",
            "8": "EPD_BUSY",
        },
    ),
    Part(
        "J2",
        "ICSP",
        ICSP,
        (25.4, 30.48),
        "Connector_PinHeader_2.54mm:PinHeader_1x06_P2.54mm_Vertical",
        "Amphenol ICC",
        "68000-106HLF",
        "any 1x6 2.54 mm straight pin header cut from a strip",
        "PICkit 4/5 / MPLAB Snap pin order, pin 1 = MCLR",
        {"1": "MCLR", "2": "VDD", "3": "GND", "4": "ICSPDAT", "5": "UART_RX", "6": None},
    ),
    Part(
        "J1",
        "UART 3.3V",
        UART,
        (25.4, 106.68),
        "Connector_PinHeader_2.54mm:PinHeader_1x03_P2.54mm_Vertical",
        "Amphenol ICC",
        "68000-103HLF",
        "any 1x3 2.54 mm straight pin header cut from a strip",
        "to a 3.3 V USB-UART adapter: its TXD, RXD, GND",
        {"1": "UART_RX_IN", "2": "UART_TX_OUT", "3": "GND"},
    ),
    Part(
        "D1",
        "BAT85",
        SCHOTTKY,
        (55.88, 106.68),
        "Diode_THT:D_DO-34_SOD68_P2.54mm_Vertical_AnodeUp",
        "Nexperia",
        "BAT85,133",
        "Vishay BAT85S-TAP, or any small-signal Schottky with VF <= 0.32 V at 1 mA and IR <= 2 uA"
        " (hardware/README.md, the UART receive line)",
        "UART receive: the adapter's TXD can only pull RA1 low (cathode to J1), never drive it"
        " above VDD; RA1's weak pull-up makes the high",
        {"1": "UART_RX_IN", "2": "UART_RX_D"},
    ),
    Part(
        "R2",
        "220",
        RESISTOR,
        (71.12, 106.68),
        "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P2.54mm_Vertical",
        "Yageo",
        "MFR-25FBF52-220R",
        "any 220 Ohm 1/4 W resistor",
        "RA1 is also ICSPCLK: limits the current when the programmer drives it against an"
        " adapter pulling low",
        {"1": "UART_RX_D", "2": "UART_RX"},
    ),
    Part(
        "R4",
        "10k",
        RESISTOR,
        (86.36, 106.68),
        "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P7.62mm_Horizontal",
        "Yageo",
        "MFR-25FBF52-10K",
        "any 10 kOhm 1/4 W resistor",
        "UART transmit: bounds what RC1's idle high can push into an unpowered adapter's RXD",
        {"1": "UART_TX", "2": "UART_TX_OUT"},
    ),
    Part(
        "R1",
        "10k",
        RESISTOR,
        (63.5, 30.48),
        "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P7.62mm_Horizontal",
        "Yageo",
        "MFR-25FBF52-10K",
        "any 10 kOhm 1/4 W resistor",
        "MCLR pull-up",
        {"1": "VDD", "2": "MCLR"},
    ),
    Part(
        "R3",
        "100k",
        RESISTOR,
        (147.32, 68.58),
        "Resistor_THT:R_Axial_DIN0207_L6.3mm_D2.5mm_P7.62mm_Horizontal",
        "Yageo",
        "MFR-25FBF52-100K",
        "any 100 kOhm 1/4 W resistor",
        "holds the load switch off while RA2 is an input (reset, programming)",
        {"1": "EPD_PWR", "2": "GND"},
    ),
    Part(
        "C1",
        "100n",
        CAPACITOR,
        (109.22, 106.68),
        "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm",
        "KEMET",
        "C322C104K5R5TA",
        "any 100 nF X7R ceramic, 5.08 mm lead spacing",
        "U1 decoupling, at pins 1 and 14",
        {"1": "VDD", "2": "GND"},
    ),
    Part(
        "C2",
        "10u",
        CAPACITOR,
        (124.46, 106.68),
        "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P5.00mm",
        "KEMET",
        "C322C106K3R5TA",
        "any 10 uF X5R/X7R ceramic of 6.3 V or more, 5.08 mm lead spacing (not an "
        "electrolytic: its leakage is microamps)",
        "bulk at VDD: the panel's inrush against the cell's internal resistance",
        {"1": "VDD", "2": "GND"},
    ),
    reservoir("C4", (144.78, 30.48)),
    reservoir("C5", (129.54, 30.48)),
    Part(
        "C3",
        "1u",
        CAPACITOR,
        (210.82, 30.48),
        "Capacitor_THT:C_Disc_D5.0mm_W2.5mm_P2.50mm",
        "KEMET",
        "C320C105K5R5TA",
        "any 1 uF X7R ceramic, 2.54 mm lead spacing",
        "at U2 VOUT / panel VCC",
        {"1": "EPD_VCC", "2": "GND"},
    ),
    Part(
        "SW1",
        "button",
        BUTTON,
        (139.7, 106.68),
        "Button_Switch_THT:SW_PUSH_6mm",
        "TE Connectivity",
        "1825910-6",
        "any 6 x 6 mm tactile switch, normally open",
        "next frame; wakes the MCU (RA5 to GND, weak pull-up)",
        {"1": "BUTTON", "2": "GND"},
    ),
    Part(
        "BT1",
        "2xAAA lithium",
        BATTERY,
        (25.4, 68.58),
        "Battery:BatteryHolder_Keystone_2468_2xAAA",
        "Keystone Electronics",
        "2468",
        "any holder for two AAA cells in series, on flying leads",
        "holder for two Energizer L92 (Li/FeS2 AAA, 1.8 V fresh, 1,200 mAh) in series: 3.6 V"
        " fresh; not CR2032, CR2450 or alkaline AAA (hardware/power.md, the cell by numbers)",
        {"1": "VBAT", "2": "GND"},
    ),
    Part(
        "SW2",
        "BATT/OFF",
        SLIDE,
        (63.5, 68.58),
        "Button_Switch_THT:SW_Slide-03_Wuerth-WS-SLTV_10x2.5x6.4_P2.54mm",
        "Wurth Elektronik",
        "450301014042",
        "any SPDT slide switch with three pins in a row at 2.54 mm and no mounting lugs; or any"
        " slide switch on flying leads (common to VDD)",
        "cell on/off: OFF isolates the cell while a programmer or a bench supply powers VDD",
        {"1": "VDD", "2": "VBAT", "3": None},
    ),
    Part("#FLG01", "PWR_FLAG", PWR_FLAG, (101.6, 93.98), nets={"1": "VDD"}),
    Part("#FLG02", "PWR_FLAG", PWR_FLAG, (116.84, 93.98), nets={"1": "GND"}),
    Part("#FLG03", "PWR_FLAG", PWR_FLAG, (17.78, 55.88), nets={"1": "VBAT"}),
)


def symbols() -> list[Symbol]:
    seen: dict[str, Symbol] = {}
    for part in PARTS:
        seen.setdefault(part.symbol.name, part.symbol)
    return sorted(seen.values(), key=lambda symbol: symbol.name)


# ---- geometry ------------------------------------------------------------------------------


def pin_points(symbol: Symbol) -> dict[str, tuple[float, float, float]]:
    """Pin number -> (x, y, angle) of its connection end in the library's frame (y up)."""
    sides: dict[str, list[Pin]] = {"L": [], "R": [], "T": [], "B": []}
    for pin in symbol.pins:
        sides[pin.side].append(pin)
    points: dict[str, tuple[float, float, float]] = {}
    for side, pins in sides.items():
        for i, pin in enumerate(pins):
            offset = (len(pins) - 1) * GRID / 2 - i * GRID
            if side == "L":
                points[pin.number] = (-symbol.width - PIN_LENGTH, offset, 0.0)
            elif side == "R":
                points[pin.number] = (symbol.width + PIN_LENGTH, offset, 180.0)
            elif side == "T":
                points[pin.number] = (-offset, symbol.height + PIN_LENGTH, 270.0)
            else:
                points[pin.number] = (-offset, -symbol.height - PIN_LENGTH, 90.0)
    return points


def _fmt(value: float) -> str:
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _uuid(*names: str) -> str:
    return str(uuid.uuid5(NAMESPACE, "/".join(names)))


# ---- KiCad files ---------------------------------------------------------------------------


def _symbol_body(symbol: Symbol) -> list[str]:
    w, h = symbol.width, symbol.height
    name = symbol.name
    if symbol.power_flag:
        graphic = (
            "(polyline (pts (xy 0 0) (xy 0 1.27) (xy -1.016 1.905) (xy 0 2.54) (xy 1.016 1.905)"
            " (xy 0 1.27)) (stroke (width 0) (type default)) (fill (type none)))"
        )
    elif name == "C":
        graphic = (
            "(polyline (pts (xy -1.524 -0.508) (xy 1.524 -0.508)) (stroke (width 0.3048)"
            " (type default)) (fill (type none))) (polyline (pts (xy -1.524 0.508)"
            " (xy 1.524 0.508)) (stroke (width 0.3048) (type default)) (fill (type none)))"
            " (polyline (pts (xy 0 2.54) (xy 0 0.508)) (stroke (width 0) (type default))"
            " (fill (type none))) (polyline (pts (xy 0 -2.54) (xy 0 -0.508))"
            " (stroke (width 0) (type default)) (fill (type none)))"
        )
    elif name == "Battery_Cell":
        graphic = (
            "(rectangle (start -2.286 1.778) (end 2.286 1.27) (stroke (width 0) (type default))"
            " (fill (type outline))) (rectangle (start -1.524 1.016) (end 1.524 0.508)"
            " (stroke (width 0) (type default)) (fill (type outline)))"
            " (polyline (pts (xy 0 2.54) (xy 0 1.778)) (stroke (width 0) (type default))"
            " (fill (type none))) (polyline (pts (xy 0 -2.54) (xy 0 0.508))"
            " (stroke (width 0) (type default)) (fill (type none)))"
        )
    elif name == "D_Schottky":
        # Anode at the top: a triangle pointing down onto the cathode's bar (hooked ends).
        graphic = (
            "(polyline (pts (xy -1.27 1.27) (xy 1.27 1.27) (xy 0 -1.27) (xy -1.27 1.27))"
            " (stroke (width 0.254) (type default)) (fill (type none))) (polyline (pts"
            " (xy -1.905 -0.635) (xy -1.905 -1.27) (xy 1.905 -1.27) (xy 1.905 -1.905))"
            " (stroke (width 0.254) (type default)) (fill (type none))) (polyline (pts"
            " (xy 0 2.54) (xy 0 1.27)) (stroke (width 0) (type default)) (fill (type none)))"
            " (polyline (pts (xy 0 -2.54) (xy 0 -1.27)) (stroke (width 0) (type default))"
            " (fill (type none)))"
        )
    elif name == "SW_Push":
        graphic = (
            "(polyline (pts (xy 0 2.54) (xy 0 1.27) (xy 1.27 -1.27)) (stroke (width 0)"
            " (type default)) (fill (type none))) (polyline (pts (xy 0 -2.54) (xy 0 -1.27))"
            " (stroke (width 0) (type default)) (fill (type none))) (polyline (pts"
            " (xy 1.905 0) (xy 2.54 0)) (stroke (width 0) (type default)) (fill (type none)))"
        )
    else:
        graphic = (
            f"(rectangle (start {_fmt(-w)} {_fmt(h)}) (end {_fmt(w)} {_fmt(-h)})"
            " (stroke (width 0.254) (type default)) (fill (type background)))"
        )
    lines = [f"    (symbol {_q(name + '_0_1')} {graphic})", f"    (symbol {_q(name + '_1_1')}"]
    points = pin_points(symbol)
    for pin in symbol.pins:
        x, y, angle = points[pin.number]
        lines.append(
            f"      (pin {pin.kind} line (at {_fmt(x)} {_fmt(y)} {_fmt(angle)})"
            f" (length {_fmt(PIN_LENGTH)}) (name {_q(pin.name)} {FONT})"
            f" (number {_q(pin.number)} {FONT}))"
        )
    lines.append("    )")
    return lines


def _symbol_definition(symbol: Symbol, lib_name: str) -> list[str]:
    two_pin = len(symbol.pins) <= 3 and all(p.side in "TB" for p in symbol.pins)
    names = "(pin_names (offset 0) (hide yes))" if two_pin else "(pin_names (offset 1.016))"
    power = " (power)" if symbol.power_flag else ""
    numbers = " (pin_numbers (hide yes))" if two_pin or symbol.power_flag else ""
    in_bom = "no" if symbol.power_flag else "yes"
    lines = [
        f"  (symbol {_q(lib_name)}{power}{numbers} {names} (exclude_from_sim no)"
        f" (in_bom {in_bom}) (on_board yes)",
        f'    (property "Reference" {_q(symbol.prefix)} (at 0 {_fmt(symbol.height + 3.81)} 0)'
        f" {FONT})",
        f'    (property "Value" {_q(symbol.name)} (at 0 {_fmt(-symbol.height - 3.81)} 0) {FONT})',
        f'    (property "Footprint" "" (at 0 0 0) {HIDDEN})',
        f'    (property "Datasheet" "" (at 0 0 0) {HIDDEN})',
        f'    (property "Description" "" (at 0 0 0) {HIDDEN})',
    ]
    lines += _symbol_body(symbol)
    lines.append("  )")
    return lines


def symbol_library() -> str:
    lines = ['(kicad_symbol_lib (version 20241209) (generator "epdle") (generator_version "9.0")']
    for symbol in symbols():
        lines += _symbol_definition(symbol, symbol.name)
    lines.append(")")
    return "\n".join(lines) + "\n"


def _placed(part: Part) -> dict[str, tuple[float, float, float]]:
    """Pin number -> (x, y, angle) on the sheet (y down)."""
    x0, y0 = part.at
    return {
        number: (x0 + x, y0 - y, angle) for number, (x, y, angle) in pin_points(part.symbol).items()
    }


def _stub_end(x: float, y: float, angle: float) -> tuple[float, float]:
    """The far end of the wire from a pin end, continuing away from the body."""
    dx, dy = {0.0: (-STUB, 0.0), 180.0: (STUB, 0.0), 270.0: (0.0, -STUB), 90.0: (0.0, STUB)}[angle]
    return x + dx, y + dy


def _property(name: str, value: str, x: float, y: float, hidden: bool) -> str:
    effects = HIDDEN if hidden else FONT
    return f"    (property {_q(name)} {_q(value)} (at {_fmt(x)} {_fmt(y)} 0) {effects})"


def _part_block(part: Part, root: str) -> list[str]:
    x0, y0 = part.at
    symbol = part.symbol
    # Beside a vertical two-pin part; above and below anything with pins on its sides.
    beside = all(pin.side in "TB" for pin in symbol.pins)
    label_x = x0 + (symbol.width + 1.27 if beside else 0)
    ref_y = y0 - 1.27 if beside else y0 - symbol.height - 1.27
    value_y = y0 + 1.27 if beside else y0 + symbol.height + 2.54
    lines = [
        f"  (symbol (lib_id {_q(LIB + ':' + symbol.name)}) (at {_fmt(x0)} {_fmt(y0)} 0)"
        " (unit 1) (exclude_from_sim no)"
        f" (in_bom {'no' if symbol.power_flag else 'yes'}) (on_board yes) (dnp no)",
        f"    (uuid {_q(_uuid('symbol', part.ref))})",
        _property("Reference", part.ref, label_x, ref_y, symbol.power_flag),
        _property("Value", part.value, label_x, value_y, symbol.power_flag),
        _property("Footprint", part.footprint, x0, y0, True),
        _property("Datasheet", "", x0, y0, True),
        _property("Description", part.description, x0, y0, True),
    ]
    if not symbol.power_flag:
        lines += [
            _property("Manufacturer", part.manufacturer, x0, y0, True),
            _property("MPN", part.mpn, x0, y0, True),
            _property("Substitute", part.substitute, x0, y0, True),
        ]
    for pin in symbol.pins:
        lines.append(f"    (pin {_q(pin.number)} (uuid {_q(_uuid('pin', part.ref, pin.number))}))")
    lines.append(
        f"    (instances (project {_q(PROJECT)} (path {_q('/' + root)}"
        f" (reference {_q(part.ref)}) (unit 1))))"
    )
    lines.append("  )")
    return lines


def _connections(part: Part) -> list[str]:
    lines = []
    for number, (x, y, angle) in _placed(part).items():
        net = part.nets[number]
        if net is None:
            flag = _q(_uuid("nc", part.ref, number))
            lines.append(f"  (no_connect (at {_fmt(x)} {_fmt(y)}) (uuid {flag}))")
            continue
        ex, ey = _stub_end(x, y, angle)
        lines.append(
            f"  (wire (pts (xy {_fmt(x)} {_fmt(y)}) (xy {_fmt(ex)} {_fmt(ey)}))"
            f" (stroke (width 0) (type default)) (uuid {_q(_uuid('wire', part.ref, number))}))"
        )
        # Text away from the wire: a label at a left-going stub reads leftwards.
        label_angle = {0.0: 180, 180.0: 0, 270.0: 90, 90.0: 270}[angle]
        justify = "right" if label_angle in (180, 270) else "left"
        lines.append(
            f"  (label {_q(net)} (at {_fmt(ex)} {_fmt(ey)} {label_angle})"
            f" (effects (font (size 1.27 1.27)) (justify {justify} bottom))"
            f" (uuid {_q(_uuid('label', part.ref, number))}))"
        )
    return lines


def schematic() -> str:
    root = _uuid("sheet")
    lines = [
        '(kicad_sch (version 20250114) (generator "epdle") (generator_version "9.0")',
        f"  (uuid {_q(root)})",
        '  (paper "User" 280 140)',
        '  (title_block (title "epdle: pocket Wordle helper") (rev "1")'
        ' (comment 1 "Generated by tools/hardware/gen_schematic.py: edit the circuit there")'
        ' (comment 2 "Stripboard build: hardware/stripboard.svg"))',
        "  (lib_symbols",
    ]
    for symbol in symbols():
        lines += ["  " + line for line in _symbol_definition(symbol, LIB + ":" + symbol.name)]
    lines.append("  )")
    for part in PARTS:
        lines += _part_block(part, root)
        lines += _connections(part)
    lines += ['  (sheet_instances (path "/" (page "1")))', "  (embedded_fonts no)", ")"]
    return "\n".join(lines) + "\n"


def project() -> str:
    # ERC as KiCad's defaults, with the two library checks made errors too: the schematic's
    # symbols must match the project library.
    return (
        "{\n"
        '  "erc": {\n'
        '    "rule_severities": {\n'
        '      "lib_symbol_issues": "error",\n'
        '      "lib_symbol_mismatch": "error",\n'
        '      "footprint_link_issues": "ignore"\n'
        "    }\n"
        "  },\n"
        '  "meta": {"filename": "epdle.kicad_pro", "version": 3}\n'
        "}\n"
    )


def sym_lib_table() -> str:
    return (
        "(sym_lib_table\n  (version 7)\n"
        f'  (lib (name "{LIB}")(type "KiCad")(uri "${{KIPRJMOD}}/{LIB}.kicad_sym")'
        '(options "")(descr "epdle parts"))\n)\n'
    )


def outputs() -> dict[str, str]:
    return {
        f"{PROJECT}.kicad_sch": schematic(),
        f"{LIB}.kicad_sym": symbol_library(),
        f"{PROJECT}.kicad_pro": project(),
        "sym-lib-table": sym_lib_table(),
    }


def read_netlist(text: str) -> dict[tuple[str, str], tuple[str, str]]:
    """A KiCad netlist (kicad-cli sch export netlist) as (ref, pin) -> (net, pin function).

    Pins on no net get a net of their own, named by KiCad "unconnected-(...)".
    """
    pins: dict[tuple[str, str], tuple[str, str]] = {}
    nets = re.finditer(
        r'\(net \(code "\d+"\) \(name "([^"]*)"\)(.*?)(?=\(net \(code|\Z)', text, re.S
    )
    for net in nets:
        name = net[1].lstrip("/")
        nodes = re.finditer(
            r'\(node \(ref "([^"]+)"\) \(pin "([^"]+)"\)(?: \(pinfunction "([^"]*)"\))?', net[2]
        )
        for node in nodes:
            pins[(node[1], node[2])] = (name, node[3] or "")
    return pins


def check_nets() -> None:
    """Every pin has a net entry (or None) and every net joins at least two pins."""
    count: dict[str, int] = {}
    for part in PARTS:
        numbers = {pin.number for pin in part.symbol.pins}
        if set(part.nets) != numbers:
            raise SystemExit(f"{part.ref}: nets given for {sorted(part.nets)}, pins {numbers}")
        for net in part.nets.values():
            if net is not None:
                count[net] = count.get(net, 0) + 1
    lonely = sorted(net for net, n in count.items() if n < 2)
    if lonely:
        raise SystemExit(f"nets with a single pin: {', '.join(lonely)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "hardware" / "kicad")
    parser.add_argument(
        "--check", action="store_true", help="fail if the files in --out differ from the circuit"
    )
    args = parser.parse_args()
    check_nets()
    stale = []
    for name, text in outputs().items():
        path = args.out / name
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if stale:
        print(
            f"gen_schematic: {', '.join(stale)} out of date:"
            " run python tools/hardware/gen_schematic.py",
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
