"""The device on stripboard: where each lead goes, which holes to cut, which wire links to fit.

The layout below is checked against the schematic's netlist (hardware/kicad/epdle.net):
the copper strips, split at the cut holes and joined by the links, must connect exactly the
pins of each net and nothing else. The drawing (hardware/stripboard.svg) is made from it.

Holes are (column, row), column 0 at the left, row 0 at the top, seen from the component
side; the strips run along the rows. A cut removes the copper at one hole.

Usage: python tools/hardware/gen_stripboard.py [--out hardware/stripboard.svg] [--check]
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gen_schematic import read_netlist

REPO = Path(__file__).resolve().parents[2]
NETLIST = REPO / "hardware" / "kicad" / "epdle.net"
COLUMNS, ROWS = 30, 22

Hole = tuple[int, int]
HOLE_MM = 2.54
# Murata GRM32E (1210): 3.2 +- 0.3 mm long, 2.5 +- 0.2 mm wide.
MLCC_1210_MM = (2.7, 3.5)
# Between two bodies on the same side: room for the solder fillets and the tweezers.
BODY_CLEARANCE_MM = 0.5


@dataclass(frozen=True)
class Placed:
    ref: str
    pins: dict[str, Hole]  # pin number -> hole
    label: str
    flying: bool = False  # leads on wires (off-board part), not the part's own legs
    copper_side: bool = False  # a surface-mount part soldered across strips, under the board
    # A body drawn to scale and kept clear of the others on its side: (across, along) its
    # pins' axis in mm, at the largest its data sheet allows.
    body_mm: tuple[float, float] | None = None


def _dip(ref: str, label: str, col: int, row: int, pins: int) -> Placed:
    """A DIP package (or a DIP adapter) with pin 1 at (col, row), rows 7.62 mm apart."""
    side = pins // 2
    holes = {str(i + 1): (col, row + i) for i in range(side)}
    holes |= {str(pins - i): (col + 3, row + i) for i in range(side)}
    return Placed(ref, holes, label)


def _column(ref: str, label: str, col: int, row: int, count: int) -> Placed:
    return Placed(ref, {str(i + 1): (col, row + i) for i in range(count)}, label)


PARTS: tuple[Placed, ...] = (
    _dip("U1", "PIC16F18326", 12, 5, 14),
    # TPS22860 on a SOT-23-6 to DIP-6 adapter: pins 1-3 down one side, 4-6 up the other.
    _dip("U2", "TPS22860 (adapter)", 23, 14, 6),
    _column("J2", "ICSP", 24, 3, 6),
    _column("J1", "UART", 28, 9, 3),
    _column("J3", "panel", 20, 14, 8),
    Placed("SW2", {"3": (2, 0), "1": (2, 1), "2": (2, 2)}, "BATT/OFF"),
    Placed("C1", {"1": (10, 1), "2": (10, 3)}, "100n"),
    Placed("C2", {"1": (6, 1), "2": (6, 3)}, "10u"),
    Placed("C3", {"1": (22, 14), "2": (22, 15)}, "1u"),
    # 1210 MLCC on the copper side, one end on U2's VIN strip, the other on the GND strip
    # below; two columns apart (5.08 mm between centres, 2.7 mm wide at most).
    Placed("C4", {"1": (27, 16), "2": (27, 17)}, "220u", copper_side=True, body_mm=MLCC_1210_MM),
    Placed("C5", {"1": (29, 16), "2": (29, 17)}, "220u", copper_side=True, body_mm=MLCC_1210_MM),
    Placed("D1", {"1": (29, 9), "2": (29, 8)}, "BAT85"),
    Placed("R1", {"1": (9, 5), "2": (9, 8)}, "10k"),
    Placed("R2", {"1": (26, 8), "2": (26, 7)}, "220"),
    Placed("R4", {"1": (23, 10), "2": (26, 10)}, "10k"),  # lying along row 10, over the cut
    Placed("R3", {"1": (17, 8), "2": (17, 5)}, "100k"),
    Placed("BT1", {"1": (0, 2), "2": (0, 3)}, "cell holder", flying=True),
    Placed("SW1", {"1": (5, 6), "2": (5, 3)}, "button", flying=True),
)

CUTS: frozenset[Hole] = frozenset(
    {(13, row) for row in range(5, 12)}  # under U1: its two sides apart
    | {(5, 2)}  # VBAT | MCLR
    | {(23, 3)}  # GND rail | J2's MCLR
    | {(23, 8), (25, 8)}  # J2 pin 6 alone; D1's anode and R2 on their own piece
    | {(27, 9), (27, 11)}  # J1's TXD and GND off SCL and SDA
    | {(25, 10)}  # R4 between RC1 and J1's RXD
    | {(24, 14), (24, 15), (24, 16), (22, 16)}  # U2's two sides; its NC pin alone
    | {(24, 17)}  # C4's and C5's GND piece off SCL
)

LINKS: tuple[tuple[Hole, Hole], ...] = (
    ((11, 1), (11, 5)),  # VDD rail to U1 pin 1
    ((16, 3), (16, 5)),  # GND rail to U1 pin 14
    ((26, 4), (26, 1)),  # VDD to J2 pin 2
    ((27, 3), (27, 2)),  # J2's MCLR to row 2
    ((7, 2), (7, 8)),  # row 2 to U1 pin 4 (MCLR)
    ((25, 15), (25, 4)),  # U2 VBIAS to VDD
    ((28, 15), (28, 16)),  # U2 VBIAS to VIN
    ((27, 14), (22, 8)),  # U2 ON to EPD_PWR
    ((18, 15), (18, 5)),  # GND to the panel, U2 and C3
    ((19, 16), (19, 11)),  # EPD_SDA to the panel's DIN
    ((21, 17), (21, 9)),  # EPD_SCL to CLK
    ((11, 18), (11, 10)),  # EPD_CS
    ((10, 19), (10, 9)),  # EPD_DC
    ((9, 20), (9, 11)),  # EPD_RST
    ((8, 21), (8, 7)),  # EPD_BUSY
    ((29, 11), (26, 5)),  # J1 GND
    ((25, 17), (21, 15)),  # C4's and C5's GND piece to the panel's and U2's GND
)


# ---- the check -----------------------------------------------------------------------------


def segment(hole: Hole) -> tuple[int, int]:
    """The strip piece a hole is on: (row, first column of the piece)."""
    col, row = hole
    start = col
    while start > 0 and (start - 1, row) not in CUTS:
        start -= 1
    return row, start


def problems(netlist: dict[tuple[str, str], tuple[str, str]]) -> list[str]:
    """Everything in which the layout differs from the netlist (empty: it matches)."""
    found: list[str] = []
    used: dict[Hole, str] = {}

    def occupy(hole: Hole, what: str) -> None:
        col, row = hole
        if not (0 <= col < COLUMNS and 0 <= row < ROWS):
            found.append(f"{what} at {hole} is off the board")
        elif hole in CUTS:
            found.append(f"{what} at {hole} is on a cut hole")
        elif hole in used:
            found.append(f"{what} and {used[hole]} share hole {hole}")
        used[hole] = what

    placed: dict[tuple[str, str], Hole] = {}
    for part in PARTS:
        for pin, hole in part.pins.items():
            occupy(hole, f"{part.ref}.{pin}")
            placed[(part.ref, pin)] = hole
    for a, b in LINKS:
        occupy(a, f"link {a}-{b}")
        occupy(b, f"link {a}-{b}")

    found += body_overlaps()
    wanted = {key for key in netlist if not key[0].startswith("#")}
    for key in sorted(wanted - set(placed)):
        found.append(f"{key[0]}.{key[1]} is not placed")
    for key in sorted(set(placed) - wanted):
        found.append(f"{key[0]}.{key[1]} is not in the netlist")

    # Strip pieces joined by links: union-find over pieces.
    parent: dict[tuple[int, int], tuple[int, int]] = {}

    def root(piece: tuple[int, int]) -> tuple[int, int]:
        while parent.get(piece, piece) != piece:
            piece = parent[piece]
        return piece

    for a, b in LINKS:
        parent[root(segment(a))] = root(segment(b))

    by_group: dict[tuple[int, int], set[str]] = {}
    for key, hole in placed.items():
        if key in netlist:
            by_group.setdefault(root(segment(hole)), set()).add(netlist[key][0])
    for nets in by_group.values():
        if len(nets) > 1:
            found.append(f"shorted: {', '.join(sorted(nets))}")
    groups: dict[str, set[tuple[int, int]]] = {}
    for key, hole in placed.items():
        if key in netlist:
            groups.setdefault(netlist[key][0], set()).add(root(segment(hole)))
    for net, pieces in sorted(groups.items()):
        if len(pieces) > 1:
            found.append(f"{net} is split into {len(pieces)} unconnected pieces")
    return found


def body_outline(part: Placed) -> tuple[float, float, float, float]:
    """A part's body (x0, y0, x1, y1) in mm, centred between its first and last pin."""
    assert part.body_mm is not None
    holes = list(part.pins.values())
    (c0, r0), (c1, r1) = holes[0], holes[-1]
    across, along = part.body_mm
    width, height = (along, across) if r0 == r1 else (across, along)
    x, y = (c0 + c1) / 2 * HOLE_MM, (r0 + r1) / 2 * HOLE_MM
    return x - width / 2, y - height / 2, x + width / 2, y + height / 2


def body_overlaps() -> list[str]:
    """Bodies on the same side of the board closer than BODY_CLEARANCE_MM."""
    found = []
    bodies = [part for part in PARTS if part.body_mm is not None]
    for i, a in enumerate(bodies):
        for b in bodies[i + 1 :]:
            if a.copper_side != b.copper_side:
                continue
            ax0, ay0, ax1, ay1 = body_outline(a)
            bx0, by0, bx1, by1 = body_outline(b)
            gap = max(bx0 - ax1, ax0 - bx1, by0 - ay1, ay0 - by1)
            if gap < BODY_CLEARANCE_MM:
                found.append(
                    f"{a.ref} and {b.ref} are {gap:.2f} mm apart (at least {BODY_CLEARANCE_MM} mm)"
                )
    return found


# ---- the drawing ---------------------------------------------------------------------------

PITCH = 28  # pixels per 2.54 mm
MARGIN = 40
TOP = 80


def _xy(hole: Hole) -> tuple[int, int]:
    return MARGIN + hole[0] * PITCH, TOP + hole[1] * PITCH


def drawing(netlist: dict[tuple[str, str], tuple[str, str]]) -> str:
    width = 2 * MARGIN + (COLUMNS - 1) * PITCH + 80
    height = TOP + MARGIN + (ROWS - 1) * PITCH
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}"'
        f' viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="10">',
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<text x="{MARGIN}" y="16" font-size="12">epdle on stripboard, seen from the component'
        f" side ({COLUMNS} x {ROWS} holes, 2.54 mm); strips along the rows</text>",
        f'<text x="{MARGIN}" y="30" font-size="11">red X: cut the strip at that hole;'
        " blue: wire link; dashed line: flying lead to an off-board part;"
        " dashed box: SMD part across two strips, copper side</text>",
        "<style>text { paint-order: stroke; stroke: #ffffff; stroke-width: 2.5px; }</style>",
    ]
    for row in range(ROWS):
        y = _xy((0, row))[1]
        out.append(
            f'<rect x="{MARGIN - 8}" y="{y - 7}" width="{(COLUMNS - 1) * PITCH + 16}"'
            ' height="14" fill="#f2c9a0"/>'
        )
        out.append(f'<text x="{MARGIN - 28}" y="{y + 3}">{row}</text>')
    for col in range(0, COLUMNS, 2):
        out.append(f'<text x="{_xy((col, 0))[0] - 4}" y="{TOP - 30}">{col}</text>')
    for col in range(COLUMNS):
        for row in range(ROWS):
            x, y = _xy((col, row))
            out.append(f'<circle cx="{x}" cy="{y}" r="2.2" fill="#ffffff"/>')
    for hole in sorted(CUTS):
        x, y = _xy(hole)
        out.append(
            f'<path d="M{x - 6},{y - 6} L{x + 6},{y + 6} M{x - 6},{y + 6} L{x + 6},{y - 6}"'
            ' stroke="#d00000" stroke-width="2.5"/>'
        )
    for part in PARTS:
        holes = [_xy(hole) for hole in part.pins.values()]
        xs, ys = [x for x, _ in holes], [y for _, y in holes]
        if part.flying:
            for pin, hole in part.pins.items():
                x, y = _xy(hole)
                out.append(
                    f'<line x1="{x}" y1="{y}" x2="{x - 14}" y2="{y - 10}" stroke="#606060"'
                    ' stroke-dasharray="3,2" stroke-width="1.5"/>'
                )
                out.append(f'<text x="{x - 34}" y="{y - 10}">{part.ref}.{pin}</text>')
            continue
        dashed = ' stroke-dasharray="4,2"' if part.copper_side else ""
        out.append(
            f'<rect x="{min(xs) - 8}" y="{min(ys) - 8}" width="{max(xs) - min(xs) + 16}"'
            f' height="{max(ys) - min(ys) + 16}" rx="4" fill="none" stroke="#202020"'
            f' stroke-width="1.5"{dashed}/>'
        )
        under = " (copper side)" if part.copper_side else ""
        out.append(
            f'<text x="{min(xs) - 8}" y="{max(ys) + 21}" font-weight="bold">{part.ref}'
            f'<tspan font-weight="normal"> {part.label}{under}</tspan></text>'
        )
        for pin, hole in part.pins.items():
            x, y = _xy(hole)
            out.append(f'<circle cx="{x}" cy="{y}" r="3.5" fill="#202020"/>')
            out.append(f'<text x="{x + 4}" y="{y + 11}" font-size="7" fill="#606060">{pin}</text>')
    # Each strip piece that carries a pin: its net, in the gap above it at its left end.
    pieces: dict[tuple[int, int], str] = {}
    for part in PARTS:
        for pin, hole in part.pins.items():
            net = netlist.get((part.ref, pin), ("", ""))[0]
            pieces[segment(hole)] = "NC" if net.startswith("unconnected-") else net
    for (row, start), net in sorted(pieces.items()):
        x, y = _xy((start, row))
        out.append(f'<text x="{x - 4}" y="{y - 8}" font-size="8" fill="#8a4b00">{net}</text>')
    for a, b in LINKS:
        (x1, y1), (x2, y2) = _xy(a), _xy(b)
        out.append(
            f'<line x1="{x1}" y1="{y1}" x2="{x2}" y2="{y2}" stroke="#1f5fd0" stroke-width="2.5"'
            ' stroke-linecap="round" opacity="0.85"/>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=REPO / "hardware" / "stripboard.svg")
    parser.add_argument("--check", action="store_true", help="fail if --out is not current")
    args = parser.parse_args()
    netlist = read_netlist(NETLIST.read_text(encoding="utf-8"))
    found = problems(netlist)
    if found:
        for problem in found:
            print(f"gen_stripboard: {problem}", file=sys.stderr)
        return 1
    svg = drawing(netlist)
    if args.check:
        if not args.out.exists() or args.out.read_text(encoding="utf-8") != svg:
            print(
                f"gen_stripboard: {args.out} out of date: run it without --check", file=sys.stderr
            )
            return 1
        return 0
    args.out.write_text(svg, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
