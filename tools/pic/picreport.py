"""Figures of a PIC14 (enhanced mid-range) image, read from its COFF objects.

Reads every object of a link and the runtime library members the link pulls
in (through gputils' gpvo and gplib, as gplink resolves them), then reports:

- per module: program words (code + constant tables) and static RAM bytes,
  with the largest RAM section;
- program words of the whole image (objects + runtime members + startup),
  against a limit;
- static RAM against a limit, and every relocatable RAM section larger than
  the largest GPR bank (80 bytes): gplink cannot place those;
- the worst-case hardware stack depth of the call graph: a CALL is one level,
  a GOTO into another function none (tail jump), an indirect call (SDCC calls
  a local label that writes PCL) one level plus the deepest function whose
  address is taken anywhere in the image (conservative), and the interrupt
  (the routine at 0x0004) one level plus its own depth on top of the deepest
  point of the reset path. Recursion is an error.
- with --hex: the image's words at or above --store-from (must be none) and
  its configuration words (--config ADDR=VALUE, must match).

Prints the figures and, last, `words=N ram=M stack=K`; exits 1 with the
figure and its limit on the first line of each failure.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

CODE = 0x20
IDATA = 0x40
UDATA = 0x80
ABSOLUTE = 0x1000
CONFIG_SPACE = 0x8000
GPR_BANK_BYTES = 80
INTERRUPT_VECTOR = 0x0004
# gplink makes _cinit: a table of one count word and, per initialized data
# section, 3 words (ROM address, RAM address, size) plus its bytes in ROM.
LINKER_SYMBOLS = {"_cinit"}


@dataclass
class Section:
    name: str
    address: int
    size: int  # bytes (code: 2 a word)
    flags: int
    module: str
    relocs: list[tuple[int, str, str]] = field(default_factory=list)  # offset, type, symbol
    writes_pcl: bool = False

    @property
    def is_code(self) -> bool:
        return bool(self.flags & CODE)

    @property
    def is_ram(self) -> bool:
        return bool(self.flags & (UDATA | IDATA))

    @property
    def absolute(self) -> bool:
        return bool(self.flags & ABSOLUTE)


@dataclass
class Symbol:
    name: str
    section: str
    value: int
    cls: str


@dataclass
class CoffObject:
    path: Path
    module: str
    sections: dict[str, Section] = field(default_factory=dict)
    symbols: list[Symbol] = field(default_factory=list)

    def defined(self, classes: tuple[str, ...] = ("C_EXT",)) -> dict[str, Symbol]:
        return {
            s.name: s
            for s in self.symbols
            if s.cls in classes and s.section not in ("UNDEFINED", "ABSOLUTE", "DEBUG")
        }

    def undefined(self) -> set[str]:
        return {s.name for s in self.symbols if s.cls == "C_EXT" and s.section == "UNDEFINED"}


def _int(text: str) -> int:
    return int(text, 0)


def read_object(path: Path, module: str | None = None) -> CoffObject:
    out = subprocess.run(
        ["gpvo", "-n", str(path)], capture_output=True, text=True, check=True
    ).stdout
    obj = CoffObject(path, module or path.stem)
    current: Section | None = None
    mode = None
    for line in out.splitlines():
        if line == "Section Header":
            mode = "header"
            current = None
            continue
        if line == "Data":
            mode = "data"
            continue
        if line.startswith("Relocations Table"):
            mode = "relocs"
            continue
        if line.startswith("Symbol Table"):
            mode = "symbols"
            continue
        if line.startswith("Line Number Table"):
            mode = None
            continue
        if mode == "header":
            key, _, value = line.partition("  ")
            value = value.strip()
            if key == "Name":
                current = Section(value, 0, 0, 0, obj.module)
                obj.sections[value] = current
            elif current is not None and key == "Physical address":
                current.address = _int(value)
            elif current is not None and key == "Size of Section":
                current.size = _int(value)
            elif current is not None and key == "Flags":
                current.flags = _int(value)
        elif mode == "data" and current is not None:
            # "000093:  0082  movwf   0x02": PCL is 0x02 in every bank.
            if re.match(r"^[0-9a-f]+:\s+0082\s", line):
                current.writes_pcl = True
        elif mode == "relocs" and current is not None:
            fields = line.split()
            if len(fields) >= 5 and fields[0].startswith("0") and fields[3].startswith("RELOCT"):
                current.relocs.append((_int(fields[0]), fields[3], fields[4]))
        elif mode == "symbols":
            fields = line.split()
            if len(fields) >= 8 and re.fullmatch(r"\d{4,}", fields[0]):
                obj.symbols.append(Symbol(fields[1], fields[2], _int(fields[3]), fields[6]))
    return obj


def read_library(path: Path, workdir: Path) -> list[CoffObject]:
    """Members of a gplib archive: "!<arch>\\n", then per member a 280-byte header
    (name 256, date 12, size 10, magic 2; numbers in decimal) and its bytes;
    the member named "/" is the symbol index. (gplib 1.4.0's -x refuses the
    long member names SDCC's runtime build gives, so it is read here.)"""
    data = path.read_bytes()
    if not data.startswith(b"!<arch>\n"):
        raise SystemExit(f"picreport: {path} is not a gplib archive")
    target = workdir / path.stem
    target.mkdir(parents=True, exist_ok=True)
    objs = []
    offset = 8
    while offset + 280 <= len(data):
        header = data[offset : offset + 280]
        name = re.split(rb"[/\x00 ]", header[:256], maxsplit=1)[0].decode()
        size = int(re.match(rb"\s*(\d+)", header[268:278]).group(1))
        body = data[offset + 280 : offset + 280 + size]
        offset += 280 + size  # no padding to even sizes
        if not name:
            continue  # the symbol index
        member = target / name
        member.write_bytes(body)
        objs.append(read_object(member, f"{path.stem}:{Path(name).stem}"))
    return objs


def resolve(objects: list[CoffObject], libraries: list[list[CoffObject]]) -> list[CoffObject]:
    """The objects plus the library members gplink would pull in."""
    linked = list(objects)
    defined = set().union(*(o.defined() for o in linked))
    while True:
        wanted = set().union(*(o.undefined() for o in linked)) - defined
        added = False
        for library in libraries:
            for member in library:
                if member in linked:
                    continue
                if wanted & set(member.defined()):
                    linked.append(member)
                    defined |= set(member.defined())
                    added = True
        if not added:
            break
    missing = set().union(*(o.undefined() for o in linked)) - defined - LINKER_SYMBOLS
    if missing:
        raise SystemExit(f"picreport: unresolved symbols: {' '.join(sorted(missing))}")
    return linked


def program_words(sections: list[Section]) -> int:
    """Code and constant tables, and the ROM copy of initialized data (with _cinit's entry)."""
    code = sum(s.size // 2 for s in sections if s.is_code and s.address < CONFIG_SPACE)
    return code + sum(3 + s.size for s in sections if s.flags & IDATA and s.size)


def ram_sections(obj: CoffObject) -> list[Section]:
    """RAM the module takes: relocatable data, absolute data in GPR/common RAM."""
    out = []
    for s in obj.sections.values():
        if not s.is_ram or s.size == 0:
            continue
        if s.absolute and (s.address & 0x7F) < 0x70:
            continue  # an SFR (pic_sfr.c): not RAM the firmware takes
        out.append(s)
    return out


# ---- call graph ---------------------------------------------------------------


@dataclass
class Function:
    key: str  # module:section
    names: list[str]
    section: Section
    calls: set[str] = field(default_factory=set)  # keys
    jumps: set[str] = field(default_factory=set)
    indirect: bool = False


def call_graph(linked: list[CoffObject]) -> tuple[dict[str, Function], set[str]]:
    """Functions (code sections) and their CALL/GOTO targets; address-taken functions."""
    functions: dict[str, Function] = {}
    in_module: dict[tuple[str, str], str] = {}  # (module, symbol) -> function key
    by_global: dict[str, str] = {}
    for obj in linked:
        for s in obj.sections.values():
            if s.is_code and s.size > 0 and s.address < CONFIG_SPACE:
                functions[f"{obj.module}:{s.name}"] = Function(f"{obj.module}:{s.name}", [], s)
        for sym in obj.symbols:
            key = f"{obj.module}:{sym.section}"
            if key not in functions or sym.name.startswith(".") or sym.name == sym.section:
                continue
            in_module[(obj.module, sym.name)] = key
            entry = functions[key].section.address if functions[key].section.absolute else 0
            if sym.value == entry and sym.cls in ("C_EXT", "C_STAT", "C_LABEL"):
                # The C function's name first (C_EXT/C_STAT), assembler labels after.
                if sym.cls == "C_LABEL":
                    functions[key].names.append(sym.name)
                else:
                    functions[key].names.insert(0, sym.name)
            if sym.cls == "C_EXT":
                by_global[sym.name] = key
    address_taken: set[str] = set()
    for obj in linked:
        for s in obj.sections.values():
            key = f"{obj.module}:{s.name}"
            if key not in functions:
                continue
            for _, kind, symbol in s.relocs:
                target = in_module.get((obj.module, symbol)) or by_global.get(symbol)
                if target is None:
                    continue
                if kind == "RELOCT_CALL":
                    if target == key:
                        # SDCC's indirect call: CALL a local label that writes PCL.
                        functions[key].indirect = functions[key].indirect or s.writes_pcl
                    else:
                        functions[key].calls.add(target)
                elif kind == "RELOCT_GOTO" and target != key:
                    functions[key].jumps.add(target)
                elif (
                    kind in ("RELOCT_LOW", "RELOCT_HIGH", "RELOCT_ALL")
                    and target != key
                    and not functions[target].section.name.startswith("IDC_")
                ):
                    address_taken.add(target)
    return functions, address_taken


def depths(functions: dict[str, Function], address_taken: set[str]):
    """depth(key): deepest stack use below function `key`, and the path to it.

    An indirect call may reach any address-taken function except one already
    on the path: the firmware has no recursion (hal.h), and without that rule
    every decoder callback would seem to call itself. Direct recursion is
    reported as an error."""
    memo: dict[tuple[str, frozenset[str]], tuple[int, list[str]]] = {}
    active: list[str] = []

    def name(key: str) -> str:
        f = functions[key]
        return f.names[0] if f.names else f.section.name

    def depth(key: str) -> tuple[int, list[str]]:
        pending = frozenset(active) & address_taken
        if (key, pending) in memo:
            return memo[(key, pending)]
        if key in active:
            cycle = " > ".join(name(k) for k in active[active.index(key) :])
            raise SystemExit(f"picreport: recursion {cycle} > {name(key)}: depth unbounded")
        active.append(key)
        f = functions[key]
        best: tuple[int, list[str]] = (0, [name(key)])
        for target in sorted(f.calls):
            d, path = depth(target)
            if d + 1 > best[0]:
                best = (d + 1, [name(key), *path])
        for target in sorted(f.jumps):
            d, path = depth(target)
            if d > best[0]:
                best = (d, [name(key), "(goto)", *path])
        if f.indirect:
            for target in sorted(address_taken - set(active)):
                d, path = depth(target)
                if d + 1 > best[0]:
                    best = (d + 1, [name(key), "(pointer)", *path])
        active.pop()
        memo[(key, pending)] = best
        return best

    return depth


def stack_depth(linked: list[CoffObject]) -> tuple[int, list[str], int, list[str]]:
    functions, address_taken = call_graph(linked)
    depth = depths(functions, address_taken)
    reset = [k for k, f in functions.items() if f.section.absolute and f.section.address == 0]
    isr = [
        k
        for k, f in functions.items()
        if f.section.absolute and f.section.address == INTERRUPT_VECTOR
    ]
    if not reset:
        raise SystemExit("picreport: no code at the reset vector")
    main_depth, main_path = max(depth(k) for k in reset)
    if isr:
        isr_depth, isr_path = max(depth(k) for k in isr)
        return main_depth, main_path, isr_depth + 1, ["(interrupt)", *isr_path]
    return main_depth, main_path, 0, []


# ---- hex ---------------------------------------------------------------------


def hex_words(path: Path) -> dict[int, int]:
    words: dict[int, int] = {}
    upper = 0
    data_bytes: dict[int, int] = {}
    for line in path.read_text().splitlines():
        if not line.startswith(":"):
            continue
        raw = bytes.fromhex(line[1:])
        count, address, kind = raw[0], (raw[1] << 8) | raw[2], raw[3]
        if kind == 4:
            upper = (raw[4] << 8) | raw[5]
        elif kind == 0:
            for i in range(count):
                data_bytes[(upper << 16) + address + i] = raw[4 + i]
    for byte_address, value in data_bytes.items():
        if byte_address % 2 == 0:
            words[byte_address // 2] = value | (data_bytes.get(byte_address + 1, 0) << 8)
    return words


# ---- report ------------------------------------------------------------------


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("objects", nargs="+", type=Path)
    parser.add_argument("--lib", action="append", type=Path, default=[])
    parser.add_argument("--chip", default="PIC16F18326")
    parser.add_argument("--words-limit", type=int, default=0)
    parser.add_argument("--words-percent", type=int, default=95)
    parser.add_argument("--words-region", type=int, default=0)
    parser.add_argument("--ram-limit", type=int, default=1536)
    parser.add_argument("--stack-limit", type=int, default=14)
    parser.add_argument("--hex", type=Path, default=None)
    parser.add_argument("--store-from", type=lambda s: int(s, 0), default=None)
    parser.add_argument("--config", action="append", default=[], help="ADDR=VALUE")
    parser.add_argument("--link-log", type=Path, default=None)
    parser.add_argument(
        "--same-sections",
        type=Path,
        default=None,
        help="directory of twin objects whose sections must match",
    )
    parser.add_argument("--check-only", action="store_true")
    return parser.parse_args()


def sections_differ(objects: list[Path], twins: Path) -> int:
    """How many of these objects have a twin in `twins` with other sections (each named)."""
    differ = 0
    for path in objects:
        twin = twins / path.name
        if not twin.exists():
            continue
        # Configuration words excepted: the link objects have them in config.asm.
        mine, theirs = (
            [
                (s.name, s.size, s.address)
                for s in read_object(p).sections.values()
                if not (s.is_code and s.address >= CONFIG_SPACE)
            ]
            for p in (path, twin)
        )
        if mine != theirs:
            differ += 1
            print(f"picreport: {path} and {twin} differ in their sections", file=sys.stderr)
    return differ


def module_table(linked: list[CoffObject]) -> tuple[int, list[tuple[str, Section]]]:
    """Print each module's words and RAM, then the runtime's; return the static RAM and
    the relocatable RAM sections larger than a GPR bank (module, section)."""
    print(f"{'module':<24} {'code':>6} {'const':>6} {'words':>6} {'ram':>5}  largest RAM section")
    total_ram = 0
    too_big: list[tuple[str, Section]] = []
    runtime_words = 0
    for obj in linked:
        sections = list(obj.sections.values())
        const = sum(s.size // 2 for s in sections if s.is_code and s.name.startswith("IDC_"))
        words = program_words(sections)
        ram = ram_sections(obj)
        ram_bytes = sum(s.size for s in ram)
        total_ram += ram_bytes
        for s in ram:
            if not s.absolute and s.size > GPR_BANK_BYTES:
                too_big.append((obj.module, s))
        if ":" in obj.module:
            runtime_words += words
            continue
        if words == 0 and ram_bytes == 0:
            continue  # pic_sfr (SFRs only), config words
        largest = max(ram, key=lambda s: s.size, default=None)
        big = f"{largest.name} {largest.size} B" if largest else ""
        print(f"{obj.module:<24} {words - const:>6} {const:>6} {words:>6} {ram_bytes:>5}  {big}")
    runtime = [
        o.module.split(":")[1].removeprefix("libsdcce_a-").removeprefix("libce_a-")
        for o in linked
        if ":" in o.module
    ]
    print(
        f"{'runtime (' + str(len(runtime)) + ' members)':<24} {'':>6} {'':>6} {runtime_words:>6}"
        f" {'':>5}  {' '.join(sorted(runtime))}"
    )
    return total_ram, too_big


def size_failures(
    args: argparse.Namespace, words: int, total_ram: int, too_big: list[tuple[str, Section]]
) -> list[str]:
    """Print the image's words and static RAM against their limits; the limits exceeded."""
    print(
        f"{args.chip}: program words {words} (limit {args.words_limit} ="
        f" {args.words_percent} % of the {args.words_region} words below the frame store),"
        f" static RAM {total_ram} B"
        f" (limit {args.ram_limit} B)"
    )
    failures = []
    if words > args.words_limit:
        failures.append(
            f"program words {words} exceed the limit {args.words_limit}"
            f" ({args.words_percent} % of {args.words_region} below the frame store)"
        )
    if total_ram > args.ram_limit:
        failures.append(f"static RAM {total_ram} B exceeds the limit {args.ram_limit} B")
    for module, s in too_big:
        failures.append(
            f"RAM section {module}:{s.name} is {s.size} B: no GPR bank holds more"
            f" than {GPR_BANK_BYTES} B, gplink cannot place it"
        )
    return failures


def stack_report(linked: list[CoffObject], limit: int) -> tuple[int, list[str]]:
    """Print the worst-case stack depth and its paths; the depth and its failure, if any."""
    main_depth, main_path, isr_depth, isr_path = stack_depth(linked)
    stack = main_depth + isr_depth
    print(f"stack: {main_depth} levels on the reset path: {' > '.join(main_path)}")
    if isr_path:
        print(f"stack: + {isr_depth} for the interrupt: {' > '.join(isr_path)}")
    print(f"stack: worst case {stack} of 16 levels (limit {limit})")
    if stack > limit:
        return stack, [f"stack depth {stack} exceeds the limit {limit}"]
    return stack, []


def link_failures(link_log: Path | None) -> list[str]:
    """gplink's errors in its log."""
    if link_log is None or not link_log.exists():
        return []
    return [
        f"gplink: {line.removeprefix('error: ')}"
        for line in link_log.read_text().splitlines()
        if line.startswith("error")
    ]


def hex_failures(hex_path: Path, store_from: int | None, config: list[str]) -> list[str]:
    """Print the image's words and configuration words; what is wrong with them."""
    if not hex_path.exists():
        return [f"no image: {hex_path.name} was not linked"]
    failures = []
    image = hex_words(hex_path)
    code = [a for a in image if a < CONFIG_SPACE]
    print(f"{hex_path.name}: {len(code)} program words, highest 0x{max(code):04X}")
    if store_from is not None:
        inside = [a for a in code if a >= store_from]
        if inside:
            failures.append(
                f"{len(inside)} words in the frame store (from"
                f" 0x{store_from:04X}), first at 0x{min(inside):04X}"
            )
    if 0 not in image:
        failures.append("no reset vector at word 0")
    for item in config:
        address, value = (int(x, 0) for x in item.split("="))
        got = image.get(address)
        if got != value:
            failures.append(
                f"config word 0x{address:04X} is "
                f"{'missing' if got is None else hex(got)}, want 0x{value:04X}"
            )
        else:
            print(f"{hex_path.name}: config 0x{address:04X} = 0x{value:04X}")
    return failures


def main() -> int:
    args = parse_args()
    if args.same_sections is not None:
        differ = sections_differ(args.objects, args.same_sections)
        if args.check_only:
            return 1 if differ else 0

    objects = [read_object(p) for p in args.objects]
    with tempfile.TemporaryDirectory() as tmp:
        libraries = [read_library(p, Path(tmp)) for p in args.lib]
    linked = resolve(objects, libraries)

    total_ram, too_big = module_table(linked)
    words = sum(program_words(list(o.sections.values())) for o in linked) + 1  # _cinit count
    failures = size_failures(args, words, total_ram, too_big)
    stack, stack_failures = stack_report(linked, args.stack_limit)
    failures += stack_failures
    failures += link_failures(args.link_log)
    if args.hex is not None:
        failures += hex_failures(args.hex, args.store_from, args.config)
    for failure in failures:
        print(f"FAIL {args.chip}: {failure}", file=sys.stderr)
    print(f"words={words} ram={total_ram} stack={stack}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
