"""Messages that tell the truth: hard mode's rule, repeated guesses, filler frames,
frame numbers, the .hex sets `image` writes, upright previews."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from PIL import Image

from epdle.cli import main
from epdle.solver import HistoryError, Solver
from epdle.solver.engine import Suggestion, worth_showing
from epdle.solver.scoring import hard_mode_violation


@pytest.mark.parametrize(
    ("history", "guess", "reason"),
    [
        ([("salet", "BBBGB")], "crony", "letter 4 must be E (green in SALET)"),
        ([("salet", "YBBBB")], "crony", "the guess must use S (revealed by SALET)"),
        ([("sassy", "YYBBB")], "basis", None),
        ([("sassy", "YBYBB")], "spore", "the guess must use S 2 times (revealed by SASSY)"),
        ([("salet", "BBBGB")], "other", None),
    ],
)
def test_hard_mode_rule(history: list[tuple[str, str]], guess: str, reason: str | None) -> None:
    assert hard_mode_violation(history, guess) == reason


def test_hard_mode_refuses_a_guess_that_breaks_the_rule_with_the_reason() -> None:
    solver = Solver("entropy", hard=True)
    with pytest.raises(HistoryError, match="guess 2 'crony': hard mode: letter 4 must be E"):
        solver.advise([("salet", "BBBGB"), ("crony", "BBBBB")])
    # Normal mode takes the same game.
    Solver("entropy").advise([("salet", "BBBGB"), ("crony", "BBBBB")])


def test_a_repeated_guess_is_warned_about(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["suggest", "--strategy", "entropy", "--history", "salet:BBBBB,salet:BBBBB"]) == 0
    assert "guess 2 'salet' was already played" in capsys.readouterr().err
    history = "salet:BBBBB,salet:BBBBB"
    assert main(["suggest", "--strategy", "entropy", "--history", history, "--json"]) == 0
    warnings = json.loads(capsys.readouterr().out)["warnings"]
    assert warnings == ["guess 2 'salet' was already played: it tells nothing new"]


def test_suggest_json_carries_the_answer_of_a_solved_game(capsys) -> None:
    assert main(["suggest", "--history", "crane:GGGGG", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["solved"] and result["answer"] == "crane"


def test_filler_that_cannot_win_and_tells_no_more_is_dropped() -> None:
    candidate = Suggestion("blurb", 1.58, 0.67, True)
    filler = Suggestion("aalii", 1.58, 1.0, False)
    probe = Suggestion("probe", 2.0, 0.5, False)
    assert worth_showing([candidate, filler, probe], 2) == [candidate, probe]
    assert worth_showing([filler, candidate], 1) == [filler, candidate]
    # Not with more candidates left than suggestions: the ranking is not padding then.
    assert worth_showing([candidate, filler, probe], 3) == [candidate, filler, probe]
    advice = Solver().advise([("salet", "BBYBB"), ("crony", "BYBBB")], top=8)
    assert advice.candidates_left == 3
    # WHIRL and LURID tie: the more common word first.
    assert [s.word for s in advice.suggestions] == ["blurb", "whirl", "lurid"]


def test_image_writes_a_hex_set_that_push_takes(tmp_path: Path, capsys) -> None:
    pictures = []
    for index, colour in enumerate(("black", "red")):
        pictures.append(tmp_path / f"{index}.png")
        Image.new("RGB", (50, 30), colour).save(pictures[-1])
    hex_set = tmp_path / "set.hex"
    assert main(["image", *map(str, pictures), "--out", str(hex_set)]) == 0
    assert main(["push", "--port", "sim://", str(hex_set), "--show", "2"]) == 0
    assert "pushed 2 frame(s)" in capsys.readouterr().out


def test_show_and_info_count_frames_from_one(capsys) -> None:
    assert main(["show", "--port", "sim://", "1"]) == 0
    assert "frame 1 of" in capsys.readouterr().out
    assert main(["info", "--port", "sim://"]) == 0
    assert "showing frame 1;" in capsys.readouterr().out


def test_upright_preview_is_portrait(tmp_path: Path) -> None:
    picture = tmp_path / "tall.png"
    image = Image.new("RGB", (104, 212), "white")
    image.paste((0, 0, 0), (0, 0, 104, 20))  # a black band at the top
    image.save(picture)
    preview = tmp_path / "preview.png"
    assert main(["image", str(picture), "--upright", "--out", str(preview)]) == 0
    with Image.open(preview) as written:
        assert written.size == (104, 212)
        assert written.convert("L").getpixel((50, 5)) == 0  # the band is still on top
        assert written.convert("L").getpixel((50, 200)) == 255
