"""tools/hardware/flash.sh (make flash): the ipecmd command it runs, and its refusals."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

from hardware_tools import ROOT

FLASH = ROOT / "tools" / "hardware" / "flash.sh"


def run(
    tmp_path: Path, says: str = "", **env: str
) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """tools/hardware/flash.sh with a stand-in ipecmd that records its arguments and says `says`."""
    record = tmp_path / "args"
    record.unlink(missing_ok=True)
    fake = tmp_path / "ipecmd.sh"
    fake.write_text(f'#!/bin/sh\nprintf "%s\\n" "$@" > {record}\nprintf "{says}"\n')
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


def test_the_board_s_voltage_range_is_2v3_to_3v7(tmp_path: Path) -> None:
    # The PIC16F18326's floor (not the LF part's 1.8 V), the panel's top (the chip's 5.5 V
    # would reach the panel module through U2).
    for volts in ("2.3", "3", "3.7"):
        result, args = run(tmp_path, POWER=volts)
        assert result.returncode == 0, result.stderr
        assert f"-W{volts}" in args
    for volts in ("1.8", "2.2"):
        result, args = run(tmp_path, POWER=volts)
        assert result.returncode == 1 and args == [], volts
        assert result.stderr.strip() == (
            f"flash: POWER={volts} V is outside the PIC16F18326's 2.3 V minimum: give 2.3-3.7 V"
        )
    for volts in ("3.8", "5", "5.5"):
        result, args = run(tmp_path, POWER=volts)
        assert result.returncode == 1 and args == [], volts
        assert result.stderr.strip() == (
            f"flash: POWER={volts} V is above the panel's 3.7 V maximum (the board's VDD reaches"
            " it through U2): give 2.3-3.7 V"
        )


def test_a_snap_cannot_power_the_board(tmp_path: Path) -> None:
    # The Snap has no target supply: by default the board runs from its cell.
    result, args = run(tmp_path, TOOL="SNAP")
    assert result.returncode == 0, result.stderr
    assert "-TPSNAP" in args and not any(arg.startswith("-W") for arg in args)
    assert "SW2 at BATT" in result.stderr
    result, args = run(tmp_path, TOOL="SNAP", POWER="3.3")
    assert result.returncode == 1 and args == []
    assert result.stderr.startswith("flash: TOOL=SNAP cannot power the board: POWER=cell")


def test_the_voltage_the_programmer_reads_is_checked(tmp_path: Path) -> None:
    result, _ = run(tmp_path, says="Target voltage detected: 3.02 V\\n", POWER="cell")
    assert result.returncode == 0, result.stderr
    result, _ = run(tmp_path, says="Target voltage detected: 2.05 V\\n", POWER="cell")
    assert result.returncode == 1
    assert "read VDD = 2.05 V, outside the board's 2.3-3.7 V" in result.stderr


def test_dry_run_checks_the_settings_and_runs_nothing(tmp_path: Path) -> None:
    result, args = run(tmp_path, DRY_RUN="1", POWER="none")
    assert result.returncode == 0 and args == []
    assert result.stdout.split()[1:] == [
        "-P16F18326",
        "-TPPK4",
        f"-F{tmp_path / 'epdle.hex'}",
        "-M",
        "-Y",
        "-OL",
    ]
    result, _ = run(tmp_path, DRY_RUN="1", POWER="6")
    assert result.returncode == 1


def test_no_bash_4_only_constructs() -> None:
    # bash 3.2 (macOS) under set -u calls an empty "${array[@]}" unbound: every array
    # expansion is guarded with ${array[@]+...}. The script also parses as shell.
    text = FLASH.read_text()
    assert subprocess.run(["bash", "-n", str(FLASH)]).returncode == 0
    bare = set(re.findall(r'(?<![+])"\$\{(\w+)\[@\]\}"', text))
    assert bare <= {"command"}, f"unguarded array expansions: {bare - {'command'}}"
    for construct in ("mapfile", "readarray", "declare -A", ",,}", "^^}", "|&", "&>>"):
        assert construct not in text, construct


def test_refuses_a_missing_image(tmp_path: Path) -> None:
    result, args = run(tmp_path, HEX=str(tmp_path / "none.hex"))
    assert result.returncode == 1 and args == []
    assert "run make pic" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
