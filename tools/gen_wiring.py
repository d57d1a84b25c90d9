"""Draw the wiring diagram of the device (hardware/wiring.svg) with schemdraw.

The microcontroller's pins and nets come from hardware/pins.csv, the table the
firmware is checked against, so the drawing cannot drift from the firmware.
Parts are joined by net labels (same name = same wire), schematic style.

Usage: python tools/gen_wiring.py [--pins hardware/pins.csv] [--out hardware/wiring.svg]
"""

from __future__ import annotations

import argparse
import csv
from dataclasses import dataclass
from pathlib import Path

import schemdraw
import schemdraw.elements as elm

REPO = Path(__file__).resolve().parent.parent
STUB = 1.0  # length of the wire from a pin to its net label


@dataclass(frozen=True)
class PinRow:
    net: str
    chip_pin: int
    port_pin: str


def read_pins(path: Path) -> list[PinRow]:
    with path.open(newline="", encoding="utf-8") as handle:
        return [
            PinRow(row["net"], int(row["chip_pin"]), row["port_pin"])
            for row in csv.DictReader(handle)
        ]


def _labelled_ic(
    drawing: schemdraw.Drawing,
    title: str,
    pins: list[tuple[str, str, str, str]],
    at: tuple[float, float],
) -> None:
    """An IC whose pins (name, number, side, net) each end in a net label."""
    ic = (
        elm.Ic(
            pins=[
                elm.IcPin(name=name, pin=number, side=side, anchorname=f"p{i}")
                for i, (name, number, side, _) in enumerate(pins)
            ],
            pinspacing=0.8,
            edgepadH=0.6,
            edgepadW=0.5,
        )
        .at(at)
        .label(title, loc="top")
    )
    drawing.add(ic)
    for i, (_, _, side, net) in enumerate(pins):
        start = getattr(ic, f"p{i}")
        line = elm.Line().at(start)
        line = line.left(STUB) if side == "L" else line.right(STUB)
        drawing.add(line.label(net, loc="end", halign="right" if side == "L" else "left"))


def draw(pins: list[PinRow]) -> schemdraw.Drawing:
    # Its own SVG backend, not matplotlib's (which schemdraw prefers once installed: the
    # plot extra): the committed drawing stays byte for byte what this writes.
    drawing = schemdraw.Drawing(canvas="svg", show=False)
    drawing.config(fontsize=10, unit=2)

    by_number = sorted(pins, key=lambda row: row.chip_pin)
    half = len(by_number) // 2
    # DIP order: 1..7 down the left, 14..8 down the right.
    mcu_pins = [
        (row.port_pin or row.net, str(row.chip_pin), "L", row.net) for row in by_number[:half]
    ]
    mcu_pins += [
        (row.port_pin or row.net, str(row.chip_pin), "R", row.net)
        for row in reversed(by_number[half:])
    ]
    _labelled_ic(drawing, "U1 PIC16F18326", mcu_pins, at=(0, 0))

    _labelled_ic(
        drawing,
        "U2 load switch (TPS22860)",
        [
            ("VIN", "", "L", "VDD"),
            ("ON", "", "L", "EPD_PWR"),
            ("GND", "", "L", "VSS"),
            ("VOUT", "", "R", "EPD_VCC"),
        ],
        at=(12, 2),
    )

    _labelled_ic(
        drawing,
        "P1 2.13in b/w/r e-paper (IL0373)",
        [
            ("VCC", "", "L", "EPD_VCC"),
            ("GND", "", "L", "VSS"),
            ("DIN", "", "L", "EPD_SDA"),
            ("CLK", "", "L", "EPD_SCL"),
            ("CS", "", "L", "EPD_CS"),
            ("DC", "", "L", "EPD_DC"),
            ("RST", "", "L", "EPD_RST"),
            ("BUSY", "", "L", "EPD_BUSY"),
        ],
        at=(12, -7),
    )

    _labelled_ic(
        drawing,
        "J1 UART (3.3 V)",
        [
            ("TXD", "", "R", "UART_RX (1 k in series)"),
            ("RXD", "", "R", "UART_TX"),
            ("GND", "", "R", "VSS"),
        ],
        at=(-14, 2),
    )

    _labelled_ic(
        drawing,
        "J2 ICSP",
        [
            ("VPP", "1", "R", "MCLR"),
            ("VDD", "2", "R", "VDD"),
            ("GND", "3", "R", "VSS"),
            ("PGD", "4", "R", "ICSPDAT"),
            ("PGC", "5", "R", "UART_RX"),
        ],
        at=(-14, -5),
    )

    drawing.add(elm.Line().at((0, -12)).left(STUB).label("BUTTON", loc="end", halign="right"))
    drawing.add(elm.Button().at((0, -12)).right().label("SW1"))
    drawing.add(elm.Line().right(STUB).label("VSS", loc="end", halign="left"))

    drawing.add(elm.BatteryCell().at((10, -12)).right().label("BT1 CR2032 3 V"))
    drawing.add(elm.Line().at((10, -12)).left(STUB / 2).label("VSS", loc="end", halign="right"))
    drawing.add(elm.Line().at((12, -12)).right(STUB / 2).label("VDD", loc="end", halign="left"))
    return drawing


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pins", type=Path, default=REPO / "hardware" / "pins.csv")
    parser.add_argument("--out", type=Path, default=REPO / "hardware" / "wiring.svg")
    args = parser.parse_args()
    args.out.write_bytes(draw(read_pins(args.pins)).get_imagedata("svg"))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
