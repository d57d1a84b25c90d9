"""make pic-test: the PIC16F18326 model's own behaviour, before it judges the image.

Small assembly programs (gpasm, the enhanced mid-range instruction set) run on the model
with the bench, each checking one rule of the datasheet that the firmware relies on, and
each failing if the model breaks it: the page jump above 0x2000, the NVM unlock, write
protection, the EUSART's auto-wake from normal sleep but not from the low-power one,
interrupt-on-change waking from either. Prints `18326 model: P/T checks passed`.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from image_test import OUT, Log, Scenario, build_module, run_gpsim
from intelhex import IntelHex

MARK = 0x20  # a RAM byte in bank 0 the programs write, the bench reads back

# Registers (p16f18326.inc) the programs use.
REGS = {
    "PORTA": 0x00C, "INTCON": 0x00B, "PIR1": 0x011, "TRISA": 0x08C, "PIE0": 0x090,
    "PIE1": 0x091, "ANSELA": 0x18C, "VREGCON": 0x197, "RC1REG": 0x199, "SP1BRGL": 0x19B,
    "RC1STA": 0x19D, "TX1STA": 0x19E, "BAUD1CON": 0x19F, "WPUA": 0x20C, "IOCAN": 0x392,
    "IOCAF": 0x393, "NVMADRL": 0x891, "NVMADRH": 0x892, "NVMCON1": 0x895, "NVMCON2": 0x896,
    "RXPPS": 0xE24,
}  # fmt: skip


def put(reg: str, value: int) -> str:
    address = REGS[reg]
    return f" movlb {address >> 7:#x}\n movlw {value:#x}\n movwf {address & 0x7F:#x}\n"


def mark(value: int) -> str:
    return f" movlb 0\n movlw {value:#x}\n movwf {MARK:#x}\n"


def program(body: str, config: dict[int, int] | None = None) -> Path:
    """Assemble `body` at 0 (a loop after it) into a .hex with the 18326's config
    words (CONFIG1 32 MHz, CONFIG2 WDT off, MCLR on; CONFIG3 as given)."""
    source = OUT / "model.asm"
    source.write_text(f" list p=16f1788\n org 0\n{body}\nspin:\n goto spin\n end\n")
    result = subprocess.run(
        ["gpasm", "-w", "2", "-o", str(OUT / "model.hex"), str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise SystemExit(f"model-test: gpasm failed: {result.stdout}{result.stderr}")
    hexfile = IntelHex(str(OUT / "model.hex"))
    words = {0x8007: 0x3F8C, 0x8008: 0x3FF3, 0x8009: 0x3FFF, 0x800A: 0x3FFF}
    words.update(config or {})
    for address, word in words.items():
        hexfile[address * 2] = word & 0xFF
        hexfile[address * 2 + 1] = word >> 8
    out = OUT / "model18326.hex"
    hexfile.write_hex_file(str(out))
    return out


def run(library: Path, hexfile: Path, steps: list[tuple[str, object]]) -> Log:
    scenario = Scenario()
    for op, arg in steps:
        scenario.step(op, arg)
    scenario.step("peek", f"{MARK:x}")
    return run_gpsim(library, scenario, "model", timeout=120, hexfile=hexfile)


def peeked(log: Log) -> int:
    value = [e.text for e in log.events if e.kind == "peek"][-1]
    return int(value.split("=")[1], 16)


def nvm(log: Log, what: str) -> bool:
    return any(e.kind == "nvm" and e.text.startswith(what) for e in log.events)


UNLOCK = put("NVMCON2", 0x55) + " movlw 0xaa\n movwf 0x16\n bsf 0x15, 1\n nop\n nop\n"
ERASE_2800 = put("NVMADRL", 0x00) + put("NVMADRH", 0x28) + put("NVMCON1", 0x14)
ERASE_0100 = put("NVMADRL", 0x00) + put("NVMADRH", 0x01) + put("NVMCON1", 0x14)
UART_WAKE = (
    put("ANSELA", 0)
    + put("TRISA", 0x3F)
    + put("WPUA", 0x02)
    + put("RXPPS", 0x01)
    + put("SP1BRGL", 68)
    + put("BAUD1CON", 0x0A)  # BRG16, WUE
    + put("TX1STA", 0x04)  # BRGH
    + put("RC1STA", 0x90)  # SPEN, CREN
    + put("PIE1", 0x20)  # RCIE
    + put("INTCON", 0x40)  # PEIE, no GIE: wake without an interrupt
)
IOC_WAKE = (
    put("ANSELA", 0)
    + put("TRISA", 0x3F)
    + put("WPUA", 0x20)
    + put("IOCAN", 0x20)
    + put("PIE0", 0x10)  # IOCIE
    + put("INTCON", 0x40)
)


def main() -> int:
    if shutil.which("gpasm") is None:
        raise SystemExit("model-test: gpasm is missing: apt-get install gputils")
    library = build_module()
    results: list[tuple[str, bool]] = []

    def check(name: str, ok: bool) -> None:
        results.append((name, ok))
        print(f"  {'ok  ' if ok else 'FAIL'} {name}")

    # A CALL/GOTO into page 4 and beyond needs PCLATH's bits 6:3.
    body = " movlp 0x20\n goto 0x10\n org 0x2010\n" + mark(0x5A)
    log = run(library, program(body), [("wait", 1)])
    check("GOTO with PCLATH = 0x20 reaches 0x2010", peeked(log) == 0x5A)

    log = run(library, program(ERASE_2800 + " bsf 0x15, 1\n nop\n"), [("wait", 5)])
    check(
        "WR without the 55h/AAh unlock erases nothing",
        nvm(log, "refused") and not nvm(log, "erase"),
    )

    log = run(library, program(ERASE_2800 + UNLOCK), [("wait", 5)])
    erased = [e.cycle for e in log.events if e.kind == "nvm" and e.text.startswith("erase")]
    # 2.5 ms at 8 instruction cycles a microsecond: the erase ends 20,000 cycles after WR.
    check("WR after the unlock erases the row, the CPU stalled 2.5 ms", erased[:1] >= [20_000])

    hexfile = program(ERASE_0100 + UNLOCK, {0x8009: 0x3FFD})  # WRT = HALF
    log = run(library, hexfile, [("wait", 5)])
    check(
        "WRT = HALF refuses to erase a row below 0x2000",
        nvm(log, "protected") and not nvm(log, "erase"),
    )

    for vregpm, woke in ((0, True), (1, False)):
        body = UART_WAKE + put("VREGCON", vregpm << 1) + " sleep\n nop\n" + mark(0x77)
        steps = [("wait", 1), ("send", "00"), ("wait", 2)]
        log = run(library, program(body), steps)
        mode = "low-power" if vregpm else "normal"
        verb = "wakes" if woke else "does not wake"
        check(
            f"a start bit with WUE {verb} the chip from {mode} sleep", (peeked(log) == 0x77) == woke
        )

    for vregpm in (0, 1):
        body = IOC_WAKE + put("VREGCON", vregpm << 1) + " sleep\n nop\n" + mark(0x66)
        log = run(library, program(body), [("wait", 1), ("press", 5), ("wait", 1)])
        mode = "low-power" if vregpm else "normal"
        check(
            f"a falling edge on RA5 (IOCAN, IOCIE) wakes the chip from {mode} sleep",
            peeked(log) == 0x66,
        )

    body = IOC_WAKE + put("PIE0", 0) + " sleep\n nop\n" + mark(0x55)
    log = run(library, program(body), [("wait", 1), ("press", 5), ("wait", 1)])
    check("the same edge with IOCIE clear does not wake it", peeked(log) == 0)

    passed = sum(ok for _, ok in results)
    print(f"18326 model: {passed}/{len(results)} checks passed")
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
