"""tools/flash.sh (make flash): the ipecmd command it runs, and its refusals."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from hardware_tools import ROOT

FLASH = ROOT / "tools" / "flash.sh"


def run(tmp_path: Path, **env: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """tools/flash.sh with a stand-in ipecmd that records its arguments."""
    record = tmp_path / "args"
    fake = tmp_path / "ipecmd.sh"
    fake.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > {record}\n')
    fake.chmod(0o755)
    image = tmp_path / "epdle.hex"
    image.write_text(":00000001FF\n")
    settings = {"HEX": str(image), "IPECMD": str(fake)} | env
    result = subprocess.run(
        ["bash", str(FLASH)], env=os.environ | settings, capture_output=True, text=True
    )
    args = record.read_text().split("\n")[:-1] if record.exists() else []
    return result, args


def test_programs_verifies_and_powers_the_board_at_3v3(tmp_path: Path) -> None:
    result, args = run(tmp_path)
    assert result.returncode == 0, result.stderr
    assert args == [
        "-P16F18326",
        "-TPPK4",
        f"-F{tmp_path / 'epdle.hex'}",
        "-M",
        "-Y",
        "-W3.3",
        "-OL",
    ]
    assert "SW2 must be OFF" in result.stderr


def test_another_programmer_and_no_power_from_it(tmp_path: Path) -> None:
    result, args = run(tmp_path, TOOL="PK5", POWER="none")
    assert result.returncode == 0, result.stderr
    assert "-TPPK5" in args
    assert not any(arg.startswith("-W") for arg in args)


def test_refuses_a_voltage_the_chip_does_not_take(tmp_path: Path) -> None:
    result, args = run(tmp_path, POWER="5")
    assert result.returncode == 1 and args == []
    assert result.stderr.strip() == "flash: POWER=5 V is outside the PIC16F18326's 1.8-3.6 V"


def test_refuses_a_missing_image(tmp_path: Path) -> None:
    result, args = run(tmp_path, HEX=str(tmp_path / "none.hex"))
    assert result.returncode == 1 and args == []
    assert "run make pic" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
