"""make pic-test: the firmware's own code on the PIC instruction set, in gpsim.

Builds a PIC16F1788 image (gpsim 0.31 has no 16F18326; same enhanced core)
from tests/firmware/pic/gpsim_main.c, the objects `make pic` left in
build/pic/1788 (the portable firmware as a library, so only what the test
calls is linked; the gpsim HAL; the SFR definitions) and the pic14 runtime,
linked with the stock 16f1788_g.lkr. Its flash holds, from the frame store's
first row on, a committed set of the shared golden frames
(tests/vectors/frames, written by host/epdle/frames/store.py exactly as
the store leaves a set after a commit).

On the chip: CRC-16 of the vectors below, COBS encode/decode of the host's
vectors, frame_check and a full decode of every built-in frame and every
golden frame (read through the store), and one display_show() of a stored
frame: store -> decoder -> epd -> SPI pin writes. Checked here against the
host's code: host/epdle/link/protocol.py (CRC, COBS), the manifest's status
and host/epdle/frames/decoder.py (the planes of every window), and no
stack-overflow reset. Cycle counts (breakpoints on t_start/t_stop) go to
docs/pic-cycles.md with --write-doc (make pic-test does).
"""

from __future__ import annotations

import argparse
import itertools
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "host"))

from epdle.frames import decoder as host_decoder  # noqa: E402
from epdle.frames import store as flash_layout  # noqa: E402
from epdle.frames.bits import BitReader  # noqa: E402
from epdle.frames.format import WINDOW_HEADER_BYTES  # noqa: E402
from epdle.frames.transitions import transitions_to_pixels  # noqa: E402
from epdle.link.protocol import cobs_encode, crc16  # noqa: E402

BUILD = ROOT / "build" / "pic"
VECTORS = ROOT / "tests" / "vectors" / "frames"
STOCK_LKR = Path("/usr/share/gputils/lkr/16f1788_g.lkr")
CYCLES_DOC = ROOT / "docs" / "pic-cycles.md"
FOSC_HZ = 16_000_000  # 4 clocks an instruction cycle: 4 MIPS, as the 16F18326 runs
CYCLES_PER_US = FOSC_HZ // 4_000_000
CYCLE_LIMIT = 4_000_000_000  # gpsim runs some 50 M cycles a second here
SPI_BYTES = 64
GOLDEN_PER_RUN = 4
GROUPS = ("crc", "cobs", "spi", "builtin", "golden", "show")


def crc_vectors() -> list[bytes]:
    rng = random.Random(1021)
    return [
        b"123456789",
        b"",
        bytes(64),
        bytes(range(255)),
        bytes(rng.randrange(256) for _ in range(200)),
    ]


def cobs_vectors() -> list[bytes]:
    rng = random.Random(254)
    return [
        bytes([0x11, 0x22, 0x00, 0x33]),
        b"\x00",
        b"\x00\x00\x00",
        bytes(range(1, 61)),
        bytes(rng.choice([0, 1, 2, 0xFF]) for _ in range(60)),
    ]


def builtin_frames() -> list[bytes]:
    text = (ROOT / "firmware" / "app" / "builtin_frames.c").read_text()
    body = re.search(r"builtin_frame_bytes\[\] = \{(.*?)\};", text, re.S).group(1)
    body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
    data = bytes(int(x, 16) for x in re.findall(r"0x([0-9A-Fa-f]{2})", body))
    offsets = [
        int(x)
        for x in re.search(r"builtin_frame_offsets\[[^]]*\] = \{([^}]*)\}", text)
        .group(1)
        .replace("u", "")
        .split(",")
    ]
    return [data[a:b] for a, b in itertools.pairwise(offsets)]


def golden_frames() -> list[tuple[str, int, bytes]]:
    """The shared golden frames (manifest order) but the empty one: a stored frame holds
    1..65535 bytes, so an empty frame never reaches the decoder from the store."""
    out = []
    for line in (VECTORS / "manifest.txt").read_text().splitlines():
        if line.strip():
            name, status = line.split()
            frame = (VECTORS / f"{name}.frame").read_bytes()
            if frame:
                out.append((name, int(status), frame))
    return out


def golden_parts() -> list[list[tuple[str, int, bytes]]]:
    """The golden frames as sets the store holds (its data area is smaller than all of
    them together), in manifest order; the first holds `text`, which the show test shows.
    At most GOLDEN_PER_RUN a set, so t_result[] stays inside one 80-byte RAM bank."""
    frames = golden_frames()
    frames.sort(key=lambda entry: entry[0] != "text")
    parts: list[list[tuple[str, int, bytes]]] = [[]]
    for entry in frames:
        trial = [frame for _, _, frame in parts[-1]] + [entry[2]]
        if parts[-1] and (
            len(trial) > GOLDEN_PER_RUN or flash_layout.set_words(trial) > flash_layout.DATA_WORDS
        ):
            parts.append([])
        parts[-1].append(entry)
    return parts


def decoded_bytes(frame: bytes) -> int:
    """Pixel bytes a frame's windows produce (both planes), as the decoder hands them out."""
    total = 0
    _, count_at = host_decoder._frame_header(frame)  # version 1, or 2 with a fast window
    offset = count_at + 1
    for _ in range(frame[count_at]):
        window, orders = host_decoder._window_header(frame, offset)
        bits = BitReader(frame, offset + WINDOW_HEADER_BYTES)
        for order in orders:
            host_decoder._read_transitions(bits, window, order)
        offset = bits.finish()
        total += 2 * window.width_bytes * window.height
    return total


def window_stream_crc(frame: bytes) -> int:
    """CRC of each window's x, y, w, h (native pixels) and its DTM1 then DTM2 bytes, as
    host/epdle/frames/decoder.py decodes them; its planes are those windows applied in order."""
    host_decoder.decode(frame)  # raises on a malformed frame
    data = bytes(frame)
    stream = bytearray()
    _, count_at = host_decoder._frame_header(data)
    offset = count_at + 1
    for _ in range(data[count_at]):
        window, orders = host_decoder._window_header(data, offset)
        bits = BitReader(data, offset + WINDOW_HEADER_BYTES)
        stream += bytes([window.x_bytes * 8, window.y, window.width_bytes * 8, window.height])
        for order in orders:
            pixels = transitions_to_pixels(host_decoder._read_transitions(bits, window, order))
            stream += np.packbits(pixels, axis=1).tobytes()
        offset = bits.finish()
    return crc16(bytes(stream))


def c_bytes(name: str, chunks: list[bytes]) -> list[str]:
    data = b"".join(chunks)
    offsets = [0]
    for chunk in chunks:
        offsets.append(offsets[-1] + len(chunk))
    body = ", ".join(f"0x{b:02X}" for b in data) or "0x00"
    return [
        f"static const uint8_t {name}_data[] = {{{body}}};",
        f"static const uint16_t {name}_offsets[] = {{{', '.join(f'{o}u' for o in offsets)}}};",
    ]


def store_asm(frames: list[bytes]) -> str:
    image = flash_layout.committed_set_words(frames)
    lines = ["\tlist\tp=16f1788", ""]
    run: list[int] = []
    start = None
    for address in [*sorted(image), None]:
        if run and (address is None or address != start + len(run)):
            lines.append(f"store_{start:04X}\tcode\t0x{start:04X}")
            for i in range(0, len(run), 8):
                lines.append("\tdw\t" + ", ".join(f"0x{w:04X}" for w in run[i : i + 8]))
            run = []
        if address is not None:
            if not run:
                start = address
            run.append(image[address])
    lines.append("\tend")
    return "\n".join(lines) + "\n"


def test_lkr(store_from: int) -> str:
    """The stock 16f1788_g.lkr with program memory from the frame store up protected, as
    the 16F18326's script has it (RAM banks untouched). It also keeps code below 0x2000:
    gpsim 0.31 keeps 5 bits of PCLATH on the 16F1788 (MOVLP 0x37 writes 0x17), so a CALL
    or GOTO into pages 4-7 lands 8K words lower."""
    out = []
    for line in STOCK_LKR.read_text(encoding="latin-1").splitlines():
        match = re.match(
            r"CODEPAGE\s+NAME=(page\d+)\s+START=(0x[0-9A-Fa-f]+)\s+END=(0x[0-9A-Fa-f]+)", line
        )
        if match:
            name, start, end = match.group(1), int(match.group(2), 16), int(match.group(3), 16)
            if start >= store_from:
                line = f"CODEPAGE   NAME={name}  START=0x{start:X}  END=0x{end:X}  PROTECTED"
            elif end >= store_from:  # the store starts inside this page: split it
                out.append(f"CODEPAGE   NAME={name}  START=0x{start:X}  END=0x{store_from - 1:X}")
                line = f"CODEPAGE   NAME=store_{name}  START=0x{store_from:X}  END=0x{end:X}"
                line += "  PROTECTED"
        section = re.match(r"SECTION\s+NAME=PROG\d+\s+ROM=page(\d+)", line)
        if section and int(section.group(1)) * 0x800 >= store_from:
            continue
        out.append(line)
    return "\n".join(out) + "\n"


def run(cmd: list[str], **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, **kwargs)


def gpsim(
    cod: Path, script: list[str], timeout: int, name: str | None = None
) -> subprocess.CompletedProcess:
    """Run gpsim on `cod` with these commands (written beside it as <name>.stc)."""
    commands = cod.with_name(f"{name or cod.stem}.stc")
    commands.write_text("\n".join(script) + "\n")
    return run(
        ["gpsim", "-i", "-S", "disable", "-s", str(cod), "-c", str(commands)],
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def ensure_gpsim() -> None:
    if shutil.which("gpsim"):
        return
    if os.geteuid() == 0 and shutil.which("apt-get"):
        run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "gpsim"])
    if not shutil.which("gpsim"):
        sudo = "" if os.geteuid() == 0 else "sudo "
        raise SystemExit(f"pic-test: gpsim not found: run {sudo}apt-get install -y gpsim")


def sdcc_1788(sdcc: Path, source: Path, asm: Path, includes: list[str] | None = None) -> list[str]:
    """The command that compiles `source` for the 16F1788 that gpsim runs."""
    return [
        str(sdcc),
        "-mpic14",
        "-p16f1788",
        "--std-c99",
        "--no-warn-non-free",
        "-S",
        *(includes or []),
        str(source),
        "-o",
        str(asm),
    ]


def fnptr_repro(sdcc: Path, runtime: list[Path], d1788: Path, out: Path) -> str:
    """Run firmware/toolchain/sdcc_pic14_fnptr.c: is SDCC's function-pointer bug there?"""
    src = ROOT / "firmware" / "toolchain" / "sdcc_pic14_fnptr.c"
    asm, obj, hexfile = out / "fnptr.asm", out / "fnptr.o", out / "fnptr.hex"
    for step in (
        sdcc_1788(sdcc, src, asm),
        ["gpasm", "-c", str(asm), "-o", str(obj)],
        [
            "gplink",
            "-m",
            "-s",
            str(STOCK_LKR),
            "-o",
            str(hexfile),
            str(obj),
            str(d1788 / "pic_sfr.o"),
            *map(str, runtime),
        ],
    ):
        if run(step).returncode != 0:
            return "could not be built"
    names = ("direct_first", "via_pointer_first", "direct_second", "via_pointer_second")
    script = ["break e _done", "break c 100000", "run", *(f"_{n}" for n in names), "quit"]
    log = gpsim(out / "fnptr.cod", script, timeout=120).stdout
    got = dict(re.findall(r"_(\w+) = (0x[0-9a-f]+)", log))
    want = {
        "direct_first": "0x5a",
        "via_pointer_first": "0x5a",
        "direct_second": "0xa5",
        "via_pointer_second": "0xa5",
    }
    if all(got.get(n) == want[n] for n in names):
        return "absent (arguments reach the callee through a function pointer)"
    address = re.search(
        r"^\s*_first\s+(0x[0-9a-f]+)\s+program", (out / "fnptr.map").read_text(), re.M
    )
    where = f" (first() is at {address.group(1)})" if address else ""
    return (
        "PRESENT: arguments of calls through function pointers are not passed: first(0x5A)"
        f" {got.get('direct_first')} direct, {got.get('via_pointer_first')} through a"
        f" pointer{where}; second(0x11, 0xA5) {got.get('direct_second')} direct,"
        f" {got.get('via_pointer_second')} through a pointer"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write-doc", action="store_true", help="update docs/pic-cycles.md")
    parser.add_argument(
        "--only",
        default=",".join(GROUPS),
        help=f"comma-separated groups of {','.join(GROUPS)} (default all; the doc needs all)",
    )
    args = parser.parse_args()
    groups = [g for g in args.only.split(",") if g]
    if set(groups) - set(GROUPS):
        raise SystemExit(f"pic-test: unknown groups {sorted(set(groups) - set(GROUPS))}")
    ensure_gpsim()

    d1788 = BUILD / "1788"
    lib = d1788 / "libepdle.lib"
    if not lib.exists():
        print("pic-test: no build/pic/1788/libepdle.lib: run make pic first", file=sys.stderr)
        return 1
    prefix = Path(
        run(["bash", str(ROOT / "tools/pic/toolchain.sh")], check=True).stdout.split()[-1]
    )
    sdcc = prefix / "bin" / "sdcc"
    runtime = [
        prefix / "share/sdcc/lib/pic14/libsdcce.lib",
        prefix / "share/sdcc/lib/pic14/libce.lib",
    ]
    out = BUILD / "gpsim"
    out.mkdir(parents=True, exist_ok=True)

    print(
        f"pic-test: SDCC pic14 function-pointer bug (firmware/toolchain/sdcc_pic14_fnptr.c):"
        f" {fnptr_repro(sdcc, runtime, d1788, out)}"
    )

    parts = golden_parts()
    for i in range(len(groups), 0, -1):
        status = run_groups(groups[:i], sdcc, runtime, d1788, lib, out, args.write_doc, parts[0])
        if status is not None:
            if i < len(groups):
                print(
                    f"pic-test: FAIL: only {','.join(groups[:i])} could be linked and run",
                    file=sys.stderr,
                )
                return 1
            # The other golden frames, a set at a time (no cycle report for these).
            for part in parts[1:] if "golden" in groups else []:
                again = run_groups(["golden"], sdcc, runtime, d1788, lib, out, None, part)
                status = status or (1 if again is None else again)
            return status
        print(f"pic-test: trying without {groups[i - 1]}", file=sys.stderr)
    return 1


def run_groups(groups, sdcc, runtime, d1788, lib, out, write_doc, golden) -> int | None:
    """Build, link and run the test image with these groups, `golden` the stored set:
    exit status, None if no link. write_doc None: a further golden set, no cycle report."""
    crcs = crc_vectors()
    cobs = cobs_vectors()
    builtin = builtin_frames()
    expect, measured = expected_results(groups, crcs, cobs, builtin, golden)
    results = len(expect) + 2  # + SPI byte count and sum
    write_inputs(groups, crcs, cobs, golden, results, out)
    if not compile_image(sdcc, out):
        return 1
    if not link_image(groups, runtime, d1788, lib, out):
        return None
    mapping = (out / "test.map").read_text()
    log = run_image(out, mapping, measured, results)

    failures = []
    if "STKOVF" in log or "Stack overflow" in log:
        failures.append("hardware stack overflow (STKOVF_RESET) during the run")
    cycles, done_seen = measured_cycles(log, mapping)
    if not done_seen:
        failures.append(f"the test main never reached t_done (see {out / 'gpsim.log'})")
    values = result_values(log)
    for i, (what, want) in enumerate(expect):
        got = values[i] if i < len(values) else None
        if got != want:
            failures.append(f"{what}: chip {got if got is None else hex(got)}, host {hex(want)}")
    spi_bytes = values[len(expect)] if len(values) > len(expect) else 0
    data_bytes = 2 * 2756
    if "show" in groups and spi_bytes < data_bytes:
        failures.append(f"show: {spi_bytes} SPI bytes, fewer than the white page's {data_bytes}")

    if "spi" in groups:
        # The SPI measurement comes after the CRC ones.
        failures += spi_pin_check(out, len(crcs) if "crc" in groups else 0)
    checked = len(expect) - sum(1 for f in failures if ": chip" in f)
    print(
        f"pic-test: {checked}/{len(expect)} results as the host computes them ({','.join(groups)})"
    )
    if len(cycles) == measured:
        report_cycles(groups, crcs, builtin, golden, cycles, spi_bytes, write_doc)
    else:
        failures.append(f"{len(cycles)} of {measured} measured calls seen")
    for failure in failures:
        print(f"pic-test: FAIL: {failure}", file=sys.stderr)
    return 1 if failures else 0


def expected_results(groups, crcs, cobs, builtin, golden) -> tuple[list[tuple[str, int]], int]:
    """What the chip must report, in t_result[] order, and how many calls it measures."""
    expect: list[tuple[str, int]] = []
    measured = 0
    if "crc" in groups:
        expect += [(f"crc16 vector {i} ({len(v)} B)", crc16(v)) for i, v in enumerate(crcs)]
        measured += len(crcs)
    for i, v in enumerate(cobs if "cobs" in groups else []):
        encoded = cobs_encode(v) + b"\x00"
        expect += [
            (f"cobs {i}: encoded length", len(encoded)),
            (f"cobs {i}: encoded CRC", crc16(encoded)),
            (f"cobs {i}: decode status", 1),
            (f"cobs {i}: decoded CRC", crc16(v)),
        ]
    if "spi" in groups:
        measured += 3  # hal_spi_write, epd_data, epd_white_window
    for i, frame in enumerate(builtin if "builtin" in groups else []):
        measured += 1
        expect += [
            (f"built-in frame {i}: frame_check", 0),
            (f"built-in frame {i}: window planes CRC", window_stream_crc(frame)),
        ]
    if "golden" in groups:
        expect.append(("store_frame_count", len(golden)))
        expect.append(("store_frame_open(text)", 1))
        measured += 1 + len(golden)
    for name, status, frame in golden if "golden" in groups else []:
        expect.append((f"golden {name}: frame_check", status))
        expect.append(
            (f"golden {name}: window planes CRC", window_stream_crc(frame) if status == 0 else 0)
        )
    if "show" in groups:
        expect.append(("display_show(text)", 0))
        measured += 1
    return expect, measured


def write_inputs(groups, crcs, cobs, golden, results: int, out: Path) -> None:
    """The test main's vectors header, the stored set's image and the linker script."""
    show_index = next((i for i, (name, _, _) in enumerate(golden) if name == "text"), 0)
    header = [
        "/* Generated by tests/firmware/pic/gpsim_test.py: do not edit. */",
        "#include <stdint.h>",
        f"#define T_RESULTS {results}u",
        f"#define T_CRC_COUNT {len(crcs)}u",
        f"#define T_COBS_COUNT {len(cobs)}u",
        f"#define T_COBS_MAX {max(len(v) for v in cobs)}u",
        f"#define T_STORED_FRAMES {len(golden)}u",
        f"#define T_SHOW_INDEX {show_index}u",
        f"#define T_SPI_BYTES {SPI_BYTES}u",
        *(f"#define T_GROUP_{g.upper()} {int(g in groups)}" for g in GROUPS),
        *(c_bytes("t_crc", crcs) if "crc" in groups else []),
        *(c_bytes("t_cobs", cobs) if "cobs" in groups else []),
    ]
    (out / "gpsim_vectors.h").write_text("\n".join(header) + "\n")
    (out / "store_image.asm").write_text(store_asm([frame for _, _, frame in golden]))
    store_from = int((BUILD / "store_from").read_text())
    if "golden" not in groups and "show" not in groups:
        store_from = 0x2000  # no set in flash: only gpsim's 8K-word limit (test_lkr) stays
    (out / "test.lkr").write_text(test_lkr(store_from))


def compile_image(sdcc: Path, out: Path) -> bool:
    """The test main and the stored set assembled into objects (errors printed)."""
    includes = [
        f"-I{out}",
        f"-I{BUILD / 'gen1788'}",
        f"-I{ROOT / 'firmware/ports/pic16f18326'}",
        f"-I{ROOT / 'firmware/hal'}",
        f"-I{ROOT / 'firmware/drivers'}",
        f"-I{ROOT / 'firmware/app'}",
    ]
    steps = [
        sdcc_1788(sdcc, ROOT / "tests/firmware/pic/gpsim_main.c", out / "gpsim_main.asm", includes),
        ["gpasm", "-c", str(out / "gpsim_main.asm"), "-o", str(out / "gpsim_main.o")],
        ["gpasm", "-c", str(out / "store_image.asm"), "-o", str(out / "store_image.o")],
    ]
    for step in steps:
        done = run(step)
        if done.returncode != 0:
            print(done.stdout + done.stderr, file=sys.stderr)
            print(f"pic-test: {Path(step[0]).name} failed", file=sys.stderr)
            return False
    return True


def link_image(groups, runtime: list[Path], d1788: Path, lib: Path, out: Path) -> bool:
    """The test image linked (gplink's complaint printed if it does not link)."""
    link = run(
        [
            "gplink",
            "-m",
            "-s",
            str(out / "test.lkr"),
            "-o",
            str(out / "test.hex"),
            str(out / "gpsim_main.o"),
            str(d1788 / "hal_gpsim.o"),
            str(d1788 / "pic_sfr.o"),
            str(out / "store_image.o"),
            str(lib),
            *map(str, runtime),
        ]
    )
    if link.returncode == 0:
        return True
    print(
        "\n".join(f"  {line}" for line in (link.stdout + link.stderr).splitlines() if line.strip()),
        file=sys.stderr,
    )
    print(
        f"pic-test: FAIL: the test image ({','.join(groups)}) does not link"
        " (build/pic/gpsim/test.lkr)",
        file=sys.stderr,
    )
    return False


def run_image(out: Path, mapping: str, measured: int, results: int) -> str:
    """gpsim's log of the test image: run through every measured call to t_done, then
    t_result[] (RAM, its address from the map) dumped byte by byte."""
    address = int(re.search(r"^\s*_t_result\s+(0x[0-9a-f]+)\s+data", mapping, re.M).group(1), 16)
    script = ["break e _t_start", "break e _t_stop", "break e _t_done", f"break c {CYCLE_LIMIT}"]
    script += ["run"] * (2 * measured + 1)
    script += [f"ramData[0x{address + i:X}]" for i in range(2 * results)]
    script.append("quit")
    sim = gpsim(out / "test.cod", script, timeout=1800)
    log = sim.stdout + sim.stderr
    (out / "gpsim.log").write_text(log)
    return log


def measured_cycles(log: str, mapping: str) -> tuple[list[int], bool]:
    """The cycles of each t_start..t_stop in the log, and whether t_done was reached."""
    # "Execution at line_0a23(0xa23)", "BREAK: ...", then "0x<cycle counter> p16f1788 ...".
    stops = [
        (int(m.group(1), 16), int(m.group(2), 16))
        for m in re.finditer(
            r"Execution at \S*\((0x[0-9A-Fa-f]+)\)\s*\n\s*BREAK:[^\n]*\n"
            r"(?:\S*\s)?0x([0-9A-Fa-f]+) p16f1788",
            log,
        )
    ]
    marks = {
        name: int(re.search(rf"^\s*_{name}\s+(0x[0-9a-f]+)\s+program", mapping, re.M).group(1), 16)
        for name in ("t_start", "t_stop", "t_done")
    }
    cycles: list[int] = []
    begin = None
    done_seen = False
    for target, cycle in stops:
        if target == marks["t_start"]:
            begin = cycle
        elif target == marks["t_stop"] and begin is not None:
            cycles.append(cycle - begin)
            begin = None
        elif target == marks["t_done"]:
            done_seen = True
    return cycles, done_seen


def result_values(log: str) -> list[int]:
    """t_result[]'s 16-bit values, from the RAM bytes dumped in the log."""
    ram = [
        int(m.group(1), 16)
        for m in re.finditer(r"ramData\[\$[0-9a-fA-F]+\] = \$([0-9a-fA-F]+)", log)
    ]
    return [ram[i] | (ram[i + 1] << 8) for i in range(0, len(ram) - 1, 2)]


def report_cycles(groups, crcs, builtin, golden, cycles, spi_bytes, write_doc) -> None:
    """Print the cycle counts: per golden frame for a further set (write_doc None), else the
    report, also written to docs/pic-cycles.md with write_doc."""
    if write_doc is None:
        # cycles[0] is the store_frame_open measurement.
        for name, cycle in zip((name for name, _, _ in golden), cycles[1:], strict=False):
            print(f"pic-test: frame_check, golden `{name}`: {cycle} cycles")
        return
    report = cycle_report(groups, crcs, builtin, golden, cycles, spi_bytes)
    missing = [g for g in GROUPS if g not in groups]
    if missing:
        report += (
            f"\nNot measured: {', '.join(missing)}. The test image with them does not link"
            " for the\n16F1788 (`make pic` lists the RAM sections no bank holds); make"
            " pic-test\nruns what links and fails.\n"
        )
    print(report)
    if write_doc:
        CYCLES_DOC.write_text(report)


def decode_latc(writes: list[int]) -> list[int]:
    """Bytes clocked out by these LATC values: SDA (RC2) sampled at each rise of SCL
    (RC0) while CS (RC4) is low, MSB first, one byte a CS frame. A frame cut off at
    the start of the list (or not 8 bits long) is left out."""
    decoded: list[int] = []
    bits: list[int] | None = None
    previous = writes[0] if writes else 0
    for latc in writes[1:]:
        cs_fell = previous & 0x10 and not latc & 0x10
        cs_rose = latc & 0x10 and not previous & 0x10
        if cs_fell:
            bits = []
        elif cs_rose and bits is not None:
            if len(bits) == 8:
                decoded.append(int("".join(map(str, bits)), 2))
            bits = None
        elif bits is not None and latc & 0x01 and not previous & 0x01 and not latc & 0x10:
            bits.append(1 if latc & 0x04 else 0)
        previous = latc
    return decoded


def spi_pin_check(out: Path, measured_before: int) -> list[str]:
    """The chip's SPI code at the pins: run to the end of the SPI measurement (the
    SPI_BYTES bytes 0, 1, ... through hal_spi_write, after `measured_before` other
    measured calls), dump gpsim's trace buffer (its last few thousand instructions,
    with every register write) and decode the LATC writes in it; they must be the
    last of those bytes, in order."""
    runs = ["run"] * (2 * measured_before + 2)
    script = ["break e _t_start", "break e _t_stop", *runs, "trace 20000", "quit"]
    trace = gpsim(out / "test.cod", script, timeout=300, name="spi_pins").stdout
    writes = [
        int(m.group(1), 16)
        for m in re.finditer(r"Wrote: 0x([0-9A-Fa-f]+) to _LATCbits\(0x010E\)", trace)
    ]
    decoded = decode_latc(writes)
    sent = list(range(SPI_BYTES))
    if len(decoded) < 8 or decoded != sent[-len(decoded) :]:
        return [f"SPI at the pins: LATC decodes to {decoded[:12]}..., not the bytes sent"]
    print(f"pic-test: SPI at the pins: the last {len(decoded)} bytes decode from LATC as sent")
    return []


REPORT_HEAD = [
    "# Firmware cycle counts on the PIC instruction set",
    "",
    "Measured by `make pic-test` (tests/firmware/pic/gpsim_test.py) in gpsim 0.31 on the",
    "PIC16F1788 image: the portable firmware compiled by SDCC 4.2.0 pic14, the",
    "enhanced mid-range core the PIC16F18326 has. One instruction cycle is 4",
    f"clocks: {CYCLES_PER_US} cycles a microsecond at 16 MHz. The gpsim HAL's delays",
    "and sleeps take no cycles, so these are the firmware's own work.",
    "",
    "| what | cycles | at 16 MHz |",
    "|---|---:|---:|",
]


def cycle_report(groups, crcs, builtin, golden, cycles, spi_bytes) -> str:
    it = iter(cycles)
    crc_cycles = [next(it) for _ in crcs] if "crc" in groups else []
    spi = [next(it) for _ in range(3)] if "spi" in groups else []  # write, epd_data, fill
    builtin_cycles = [next(it) for _ in builtin] if "builtin" in groups else []
    open_cycles = next(it) if "golden" in groups else 0
    golden_cycles = [next(it) for _ in golden] if "golden" in groups else []
    show = next(it) if "show" in groups else 0
    per_byte = [c / len(v) for c, v in zip(crc_cycles, crcs, strict=False) if len(v) >= 64]
    long_vectors = [v for v in crcs if len(v) >= 64]
    lines = list(REPORT_HEAD)
    if per_byte:
        sizes = ", ".join(str(len(v)) for v in long_vectors)
        lines.append(
            f"| CRC-16, per byte (crc16_block over {sizes} B)"
            f" | {max(per_byte):.0f} | {max(per_byte) / CYCLES_PER_US:.1f} us |"
        )
    for i, c in enumerate(builtin_cycles):
        lines.append(
            f"| frame_check, built-in frame {i} ({len(builtin[i])} B, program memory)"
            f" | {c} | {c / (CYCLES_PER_US * 1000):.1f} ms |"
        )
    for (name, status, frame), c in zip(golden, golden_cycles, strict=False):
        if status == 0:
            lines.append(
                f"| frame_check, golden `{name}` ({len(frame)} B, through the store)"
                f" | {c} | {c / (CYCLES_PER_US * 1000):.1f} ms |"
            )
    if spi:
        lines += spi_rows(*spi)
    text = next((frame for name, _, frame in golden if name == "text"), None)
    if "golden" in groups and text is not None:
        check = golden_cycles[[name for name, _, _ in golden].index("text")]
        lines += text_rows(text, open_cycles, check)
    if "show" in groups:
        lines += show_rows(show, spi_bytes)
    lines.append("")
    return "\n".join(lines)


def spi_rows(spi: int, epd_data: int, fill: int) -> list[str]:
    """The report's rows of the SPI measurements: hal_spi_write, epd_data, epd_white_window."""
    page = 2 * 2756
    return [
        f"| SPI, per byte (hal_spi_write, {SPI_BYTES} calls with the loop)"
        f" | {spi / SPI_BYTES:.0f} | {spi / SPI_BYTES / CYCLES_PER_US:.1f} us |",
        f"| panel data byte (epd_data: the framed hal_spi_write; {SPI_BYTES} calls)"
        f" | {epd_data / SPI_BYTES:.0f} | {epd_data / SPI_BYTES / CYCLES_PER_US:.1f} us |",
        f"| white page (epd_white_window: a partial window, {page} bytes by hal_spi_repeat),"
        " per byte"
        f" | {fill / page:.0f} | {fill / (CYCLES_PER_US * 1000):.1f} ms in all |",
    ]


def text_rows(text: bytes, open_cycles: int, check: int) -> list[str]:
    """The report's rows of the golden frame `text`: opening it, and its frame_check per
    decoded byte."""
    read_per_byte = open_cycles / len(text)
    decoded = decoded_bytes(text)
    return [
        f"| store_frame_open of `text` ({len(text)} B: header, CRC pass), per byte"
        f" | {read_per_byte:.0f} | {read_per_byte / CYCLES_PER_US:.1f} us |",
        f"| decoding `text`, per decoded byte (frame_check / {decoded} window bytes)"
        f" | {check / decoded:.0f} | {check / decoded / CYCLES_PER_US:.1f} us |",
    ]


def show_rows(show: int, spi_bytes: int) -> list[str]:
    """The report's row of display_show and the paragraph after the table."""
    return [
        f"| display_show of `text` (store CRC, one decode pass, {spi_bytes} SPI bytes)"
        f" | {show} | {show / (CYCLES_PER_US * 1000):.1f} ms |",
        "",
        f"The whole show averages {show / max(spi_bytes, 1):.0f} cycles per SPI byte, the",
        "frame's CRC check at open and its decoding included (a show decodes once: a",
        "stored frame's format is checked when its set is committed).",
    ]


if __name__ == "__main__":
    raise SystemExit(main())
