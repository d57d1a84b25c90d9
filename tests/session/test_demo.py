"""`epdle demo`: a whole game on the simulated board, with every artefact written."""

from __future__ import annotations

import json
from pathlib import Path

from PIL import Image

from epdle.cli import main
from epdle.render.planes import planes_to_image
from epdle.render.suggestions import StatusKind, render_status
from epdle.solver import Solver


def test_demo_solves_and_leaves_a_trace(tmp_path: Path) -> None:
    out = tmp_path / "demo"
    out.mkdir()
    (out / "panel-99.png").write_bytes(b"an earlier demo's panel")  # removed, not mixed in
    argv = ["demo", "--answer", "slosh", "--out", str(out), "--strategy", "entropy", "--top", "2"]
    assert main([*argv, "--prior", "uniform"]) == 0  # the game of Solver("entropy") below
    summary = json.loads((out / "summary.json").read_text())
    assert summary["solved"] is True
    assert summary["guesses"][-1] == "slosh"
    assert set(summary["feedback"][-1]) == {"G"}
    assert summary["violations"] == []
    # Before each guess --top frames are pushed (fewer where fewer are worth showing: one
    # when one word is left), and after the last one the solved card and the game's review.
    solver, history = Solver("entropy"), _history(summary)
    shown = [len(solver.advise(history[:turn], top=2).suggestions) for turn in range(len(history))]
    assert summary["frames_pushed"] == sum(shown) + 2
    assert summary["bytes_sent"] >= summary["payload_bytes"] > 0
    assert summary["refreshes"] == len(list(out.glob("panel-*.png")))
    assert summary["energy_per_refresh_mJ"] > 0
    assert (out / "trace.vcd").read_text().startswith("$")
    first_transaction = json.loads((out / "epd.jsonl").read_text().splitlines()[0])
    assert set(first_transaction) >= {"t_ms", "cmd", "len", "data"}
    last_panel = Image.open(out / f"panel-{summary['refreshes']}.png").convert("RGB")
    solved_card = planes_to_image(render_status(StatusKind.SOLVED, _history(summary)))
    assert last_panel.tobytes() == solved_card.convert("RGB").tobytes()


def _history(summary: dict) -> list[tuple[str, str]]:
    return list(zip(summary["guesses"], summary["feedback"], strict=True))


def test_demo_refuses_a_word_the_game_does_not_accept(tmp_path: Path, capsys) -> None:
    assert main(["demo", "--answer", "qqqqq", "--out", str(tmp_path)]) == 1
    assert "'qqqqq' is not an accepted word" in capsys.readouterr().err
