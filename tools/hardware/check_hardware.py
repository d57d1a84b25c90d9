"""Check the schematic with KiCad and refresh what is made from it (`make hardware`).

1. hardware/kicad/ is what tools/hardware/gen_schematic.py writes (the circuit is described there);
2. KiCad's electrical rules check passes with no error and no warning;
3. the netlist (hardware/kicad/epdle.net), the bill of materials (hardware/bom.csv and its
   table in hardware/bom.md) and the drawing (hardware/wiring.svg) exported by kicad-cli
   are the committed ones.

With --update, step 3 writes them instead. Needs kicad-cli (KiCad >= 7; tools/setup/bootstrap.sh
ci installs it).

Usage: python tools/hardware/check_hardware.py [--update]
"""

from __future__ import annotations

import argparse
import csv
import io
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import gen_schematic

REPO = Path(__file__).resolve().parents[2]
HARDWARE = REPO / "hardware"
KICAD_DIR = HARDWARE / "kicad"
SCHEMATIC = KICAD_DIR / "epdle.kicad_sch"
NETLIST = KICAD_DIR / "epdle.net"
BOM_CSV = HARDWARE / "bom.csv"
BOM_MD = HARDWARE / "bom.md"
DRAWING = HARDWARE / "wiring.svg"
BOM_FIELDS = {
    "Reference": "Refs",
    "${QUANTITY}": "Qty",
    "Value": "Value",
    "Manufacturer": "Manufacturer",
    "MPN": "Part number",
    "Footprint": "Footprint",
    "Substitute": "Substitute",
    "Description": "Purpose",
}
BOM_BEGIN = "<!-- bom table: tools/hardware/check_hardware.py --update writes it from bom.csv -->"
BOM_END = "<!-- end of bom table -->"


def _kicad(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["kicad-cli", *args], capture_output=True, text=True, check=False)


def normalise_netlist(text: str) -> str:
    """Without the lines that name the machine: the file's path, the date, KiCad's build;
    the symbol library by its path in the repository, not the checkout's folder."""
    dropped = re.compile(r'^\s*\((source "/|date "|tool ")')
    kept = "".join(line for line in text.splitlines(True) if not dropped.match(line))
    return re.sub(r'\(uri "[^"]*/(hardware/kicad/[^"/]+)"\)', r'(uri "\1")', kept)


def normalise_svg(text: str, kicad: str) -> str:
    """The drawing with its date replaced by the KiCad version that drew it."""
    return re.sub(
        r"<title>SVG Image created as (\S+) date [^<]*</title>",
        lambda match: f"<title>{match[1]}, KiCad {kicad}</title>",
        text,
    )


def drawn_with(svg: str) -> str | None:
    """The KiCad version a committed drawing names (None: none named)."""
    match = re.search(r"<title>\S+, KiCad ([^<]+)</title>", svg)
    return match[1] if match else None


def bom_table(csv_text: str) -> str:
    """bom.csv as a Markdown table (one row per group of identical parts)."""
    rows = list(csv.reader(io.StringIO(csv_text)))
    header, body = rows[0], rows[1:]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for row in body:
        cells = [cell.replace("|", "/") for cell in row]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def with_bom_table(markdown: str, table: str) -> str:
    start = markdown.index(BOM_BEGIN) + len(BOM_BEGIN)
    end = markdown.index(BOM_END)
    return markdown[:start] + "\n" + table + markdown[end:]


def export(out: Path) -> dict[Path, str]:
    """The files kicad-cli makes from the schematic, as they are committed."""
    steps = {
        "epdle.net": ["sch", "export", "netlist", "-o", str(out / "epdle.net")],
        "bom.csv": [
            "sch",
            "export",
            "bom",
            "-o",
            str(out / "bom.csv"),
            "--fields",
            ",".join(BOM_FIELDS),
            "--labels",
            ",".join(BOM_FIELDS.values()),
            "--group-by",
            "Value,MPN,Footprint",
            "--ref-range-delimiter",
            "",
        ],
        # Without the title block, which names KiCad's version in the drawing itself.
        "svg": ["sch", "export", "svg", "--exclude-drawing-sheet", "-o", str(out)],
    }
    for name, args in steps.items():
        result = _kicad(*args, str(SCHEMATIC))
        if result.returncode != 0:
            raise SystemExit(f"check_hardware: kicad-cli could not export {name}: {result.stderr}")
    bom = (out / "bom.csv").read_text(encoding="utf-8")
    return {
        NETLIST: normalise_netlist((out / "epdle.net").read_text(encoding="utf-8")),
        BOM_CSV: bom,
        BOM_MD: with_bom_table(BOM_MD.read_text(encoding="utf-8"), bom_table(bom)),
        DRAWING: normalise_svg((out / "epdle.svg").read_text(encoding="utf-8"), kicad_version()),
    }


def kicad_version() -> str:
    return _kicad("version").stdout.strip()


def erc(out: Path) -> str | None:
    """None if KiCad's ERC finds nothing (errors and warnings alike), else its report."""
    report = out / "erc.rpt"
    result = _kicad(
        "sch", "erc", "--severity-all", "--exit-code-violations", "-o", str(report), str(SCHEMATIC)
    )
    if result.returncode == 0:
        return None
    return report.read_text(encoding="utf-8") if report.exists() else result.stderr


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--update", action="store_true", help="write the exported files")
    args = parser.parse_args()
    if shutil.which("kicad-cli") is None:
        print(
            "check_hardware: kicad-cli not found (KiCad >= 7): bash tools/setup/bootstrap.sh ci",
            file=sys.stderr,
        )
        return 1
    outputs = gen_schematic.outputs()
    stale = [name for name, text in outputs.items() if (KICAD_DIR / name).read_text() != text]
    if stale:
        print(
            f"check_hardware: hardware/kicad/{', '.join(stale)} differ from"
            " tools/hardware/gen_schematic.py:"
            " run python tools/hardware/gen_schematic.py",
            file=sys.stderr,
        )
        return 1
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        report = erc(out)
        if report is not None:
            print(report, file=sys.stderr)
            print("check_hardware: the schematic fails KiCad's ERC", file=sys.stderr)
            return 1
        files = export(out)
    changed = [
        path
        for path, text in files.items()
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]
    # Another KiCad release may draw the same schematic a little differently: the drawing
    # is compared only when it was made by this one (the netlist and the BOM always are).
    drawn = drawn_with(DRAWING.read_text(encoding="utf-8")) if DRAWING.exists() else None
    if not args.update and DRAWING in changed and drawn not in (None, kicad_version()):
        changed.remove(DRAWING)
        print(
            f"check_hardware: {DRAWING.name} was drawn by KiCad {drawn}, this is "
            f"{kicad_version()}: not compared",
            file=sys.stderr,
        )
    if args.update:
        for path in changed:
            path.write_text(files[path], encoding="utf-8")
    elif changed:
        names = ", ".join(str(path.relative_to(REPO)) for path in changed)
        print(
            f"check_hardware: {names} out of date:"
            " python tools/hardware/check_hardware.py --update",
            file=sys.stderr,
        )
        return 1
    print(
        "hardware: ERC clean (0 errors, 0 warnings); netlist, BOM and drawing "
        f"{'written' if args.update else 'current'}"
        f" ({time.monotonic() - started:.1f} s in kicad-cli)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
