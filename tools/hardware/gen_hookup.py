"""How the device is hooked up: the computer's USB-UART adapter on J1, the panel module on
J3, and the pins of the PIC16F18326 each of their lines reaches, in one picture.

Drawn from the schematic's netlist (hardware/kicad/epdle.net: each header pin's name and
net, and the resistors and diodes a line passes through on its way to the chip) and the
pin table (hardware/pins.csv: the chip's port on each net), so it follows the circuit.

Usage: python tools/hardware/gen_hookup.py [--out hardware/hookup.svg] [--check]
"""

from __future__ import annotations

import argparse
import csv
import sys
from html import escape
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_schematic import read_netlist

REPO = Path(__file__).resolve().parents[2]
NETLIST = REPO / "hardware" / "kicad" / "epdle.net"
PINS_CSV = REPO / "hardware" / "pins.csv"
OUT = REPO / "hardware" / "hookup.svg"

Netlist = dict[tuple[str, str], tuple[str, str]]

WIDTH, HEIGHT = 940, 420
ADAPTER_X, BOARD_X, MODULE_X = 170, 420, 760  # left edges
ADAPTER_W, BOARD_W, MODULE_W = 150, 250, 160
J1_TOP, J3_TOP, STEP = 104, 224, 22


def header(netlist: Netlist, ref: str) -> list[tuple[str, str, str]]:
    """(pin number, pin name, net) of a header, in pin order."""
    pins = [(pin, function, net) for (r, pin), (net, function) in netlist.items() if r == ref]
    return sorted(pins, key=lambda pin: int(pin[0]))


def chip_ports() -> dict[str, str]:
    """net -> the chip's port on it (RA0..RC5), from pins.csv."""
    with PINS_CSV.open(newline="", encoding="utf-8") as handle:
        return {row["net"]: row["port_pin"] for row in csv.DictReader(handle) if row["port_pin"]}


def route(netlist: Netlist, net: str, ports: dict[str, str]) -> str:
    """Where a header's line goes: the chip's port, through the resistors and diodes in
    series on the way ("D1, R2 to RA1"), else its net (with the parts on a small one)."""
    passed: list[str] = []
    while net not in ports:
        nodes = [ref for (ref, _), (other, _) in netlist.items() if other == net]
        series = [ref for ref in nodes if ref[0] in "RD" and ref not in passed]
        if len(nodes) != 2 or len(series) != 1:  # not a plain series link: its net
            parts = sorted({ref for ref in nodes if ref[0] == "U"})
            return f"{net} ({', '.join(parts)})" if parts and len(nodes) <= 4 else net
        passed.append(series[0])
        net = next(n for (ref, _), (n, _) in netlist.items() if ref == series[0] and n != net)
    return f"{', '.join(passed)} to {ports[net]}" if passed else ports[net]


def _box(x: int, y: int, w: int, h: int, title: list[str], fill: str) -> list[str]:
    out = [f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="6" fill="{fill}" stroke="#333"/>']
    out += [
        f'<text x="{x + w // 2}" y="{y + 18 + 14 * i}" text-anchor="middle"'
        f' font-weight="{"bold" if i == 0 else "normal"}">{escape(line)}</text>'
        for i, line in enumerate(title)
    ]
    return out


def drawing(netlist: Netlist, ports: dict[str, str]) -> str:
    j1, j3 = header(netlist, "J1"), header(netlist, "J3")
    module = [f"panel module ({len(j3)} pins)", "Waveshare 2.13in e-Paper", "Module (B) V3"]
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}"'
        f' viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="11">',
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
        '<text x="20" y="24" font-size="13">epdle hooked up: the computer through a USB-UART'
        " adapter on J1, the panel module on J3 (from hardware/kicad/epdle.net)</text>",
        *_box(20, J1_TOP - 20, 90, 60, ["computer"], "#eeeeee"),
        f'<line x1="110" y1="{J1_TOP + 10}" x2="{ADAPTER_X}" y2="{J1_TOP + 10}"'
        ' stroke="#333333" stroke-width="3"/>',
        f'<text x="140" y="{J1_TOP + 4}" text-anchor="middle">USB</text>',
        *_box(
            ADAPTER_X, J1_TOP - 40, ADAPTER_W, 130, ["USB-UART adapter", "3.3 V logic"], "#e8f0ff"
        ),
        f'<text x="{ADAPTER_X + 8}" y="{J1_TOP + 82}">its VCC pin: not connected</text>',
        *_box(
            BOARD_X, 50, BOARD_W, HEIGHT - 70, ["epdle board", "U1 PIC16F18326, 2 x AAA"], "#f4fff0"
        ),
        *_box(MODULE_X, J3_TOP - 60, MODULE_W, 60 + STEP * len(j3), module, "#fff4e8"),
    ]
    for row, (pin, name, net) in enumerate(j1):
        y = J1_TOP + STEP * row
        out += [
            f'<line x1="{ADAPTER_X + ADAPTER_W}" y1="{y}" x2="{BOARD_X}" y2="{y}"'
            ' stroke="#1f4fbf" stroke-width="2"/>',
            f'<text x="{ADAPTER_X + ADAPTER_W - 6}" y="{y + 4}" text-anchor="end">{name}</text>',
            f'<text x="{BOARD_X + 6}" y="{y + 4}">'
            f"J1 pin {pin}: {escape(route(netlist, net, ports))}</text>",
        ]
    for row, (pin, name, net) in enumerate(j3):
        y = J3_TOP + STEP * row
        out += [
            f'<line x1="{BOARD_X + BOARD_W}" y1="{y}" x2="{MODULE_X}" y2="{y}"'
            ' stroke="#bf3f1f" stroke-width="2"/>',
            f'<text x="{BOARD_X + BOARD_W - 6}" y="{y + 4}" text-anchor="end">'
            f"{escape(route(netlist, net, ports))}: J3 pin {pin}</text>",
            f'<text x="{MODULE_X + 6}" y="{y + 4}">{name}</text>',
        ]
    button = route(netlist, "BUTTON", ports)
    out += [
        f'<text x="{BOARD_X + 6}" y="{J3_TOP - 46}">SW1, the button: {escape(button)}</text>',
        f'<text x="{BOARD_X + 6}" y="{J3_TOP - 30}">SW2, the cell: BATT / OFF</text>',
        "</svg>",
    ]
    return "\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument("--check", action="store_true", help="fail if --out is out of date")
    args = parser.parse_args()
    text = drawing(read_netlist(NETLIST.read_text(encoding="utf-8")), chip_ports())
    if args.check:
        if not args.out.is_file() or args.out.read_text(encoding="utf-8") != text:
            stale = f"gen_hookup: {args.out} out of date: run python tools/hardware/gen_hookup.py"
            print(stale, file=sys.stderr)
            return 1
        return 0
    args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
