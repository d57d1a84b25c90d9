"""tools/pic/pagesel.py: PCLATH restores dropped only where nothing in the function needs them."""

from __future__ import annotations

from pathlib import Path

import pytest
from hardware_tools import load_tool

pagesel = load_tool("pic/pagesel")


def _run(tmp_path: Path, body: str) -> tuple[int, list[str]]:
    asm = tmp_path / "m.asm"
    asm.write_text("S_m__f\tcode\n_f:\n" + body + "\n\tend\n")
    saved = pagesel.process(str(asm))
    ops = [line.strip() for line in asm.read_text().split("\n")[2:] if line.startswith("\t")]
    return saved, ops


def test_restores_dropped_and_near_jumps_relative(tmp_path: Path) -> None:
    saved, ops = _run(
        tmp_path,
        "\tPAGESEL\t_g\n\tCALL\t_g\n\tPAGESEL\t$\n\tBTFSC\tSTATUS,0\n\tGOTO\t_a\n\tNOP\n_a:\n\tRETURN",
    )
    assert saved == 1
    assert ops == ["PAGESEL\t_g", "CALL\t_g", "BTFSC\tSTATUS,0", "BRA\t_a", "NOP", "RETURN", "end"]


def test_far_jump_gets_its_pagesel_before_the_skip(tmp_path: Path) -> None:
    filler = "\tNOP\n" * 300
    saved, ops = _run(
        tmp_path,
        "\tPAGESEL\t_g\n\tCALL\t_g\n\tPAGESEL\t$\n\tBTFSC\tSTATUS,0\n\tGOTO\t_a\n"
        + filler
        + "_a:\n\tRETURN",
    )
    assert saved == 0  # one restore dropped, one PAGESEL added
    assert ops[2:5] == ["PAGESEL\t_a", "BTFSC\tSTATUS,0", "GOTO\t_a"]


def test_jump_table_entries_stay_one_word(tmp_path: Path) -> None:
    filler = "\tNOP\n" * 300
    _, ops = _run(
        tmp_path,
        "\tPAGESEL\t_g\n\tCALL\t_g\n\tPAGESEL\t$\n"
        "\tMOVLW\tHIGH(_t)\n\tMOVWF\tPCLATH\n\tMOVLW\t_t\n\tMOVWF\tPCL\n"
        "_t:\n\tGOTO\t_a\n\tGOTO\t_b\n_a:\n\tRETURN\n" + filler + "_b:\n\tRETURN",
    )
    table = ops.index("MOVWF\tPCL")
    assert ops[table + 1 : table + 3] == ["BRA\t_a", "GOTO\t_b"]


@pytest.mark.parametrize(
    "unsafe",
    [
        "\tCALL\t_g\n",  # a call without its PAGESEL
        "\tGOTO\t_g\n",  # a jump out without its PAGESEL
        "\tMOVF\tx,W\n\tMOVWF\tPCL\n",  # a computed jump without PCLATH set
        "\tCALLW\n",
    ],
)
def test_a_function_that_relies_on_pclath_is_left_alone(tmp_path: Path, unsafe: str) -> None:
    body = "\tPAGESEL\t_h\n\tCALL\t_h\n\tPAGESEL\t$\n" + unsafe + "\tRETURN"
    saved, ops = _run(tmp_path, body)
    assert saved == 0
    assert "PAGESEL\t$" in ops
