"""`epdle image` and `epdle render`, run through the real command-line entry point."""

from __future__ import annotations

from pathlib import Path

import pytest
from PIL import Image

from epdle.cli import main
from epdle.frames import decode
from epdle.render.options import BLACK, RED, WHITE
from epdle.render.planes import LANDSCAPE_SIZE, image_to_planes
from epdle.render.suggestions import StatusKind, render_advice, render_status
from epdle.solver import Solver, parse_history

STRATEGY = "entropy"  # one-ply: quick, and the solver's own tests cover its ranking


def colours(path: Path) -> set[tuple[int, int, int]]:
    with Image.open(path) as image:
        assert image.size == LANDSCAPE_SIZE
        return {colour for _, colour in image.convert("RGB").getcolors()}


@pytest.fixture
def photo(tmp_path: Path) -> Path:
    path = tmp_path / "photo.jpg"
    picture = Image.radial_gradient("L").resize((640, 480)).convert("RGB")
    picture.paste((220, 30, 30), (280, 200, 360, 280))
    picture.save(path)
    return path


def test_image_to_png_preview(photo: Path, tmp_path: Path, capsys) -> None:
    out = tmp_path / "preview.png"
    assert main(["image", str(photo), "--out", str(out), "--dither", "--fit", "cover"]) == 0
    assert colours(out) == {WHITE, BLACK, RED}
    assert "1 frame(s), encoded" in capsys.readouterr().out


def test_image_to_frame_matches_the_png_preview(photo: Path, tmp_path: Path) -> None:
    assert main(["image", str(photo), "--out", str(tmp_path / "a.png")]) == 0
    assert main(["image", str(photo), "--out", str(tmp_path / "a.frame")]) == 0
    with Image.open(tmp_path / "a.png") as preview:
        planes = image_to_planes(preview)
    assert decode((tmp_path / "a.frame").read_bytes()) == (planes.black, planes.red)


def test_image_set_to_header_and_hex(photo: Path, tmp_path: Path) -> None:
    for out in ("splash.h", "splash.hex"):
        assert main(["image", str(photo), str(photo), "--out", str(tmp_path / out)]) == 0
    assert "SPLASH_FRAME_COUNT 2u" in (tmp_path / "splash.h").read_text()
    assert (tmp_path / "splash.hex").read_text().startswith(":")


@pytest.mark.parametrize(
    ("make_input", "out", "message"),
    [
        (lambda path: path.write_text("not a picture"), "x.png", "is not a picture"),
        (lambda path: None, "x.png", "does not exist"),
        (lambda path: Image.new("RGB", (4, 4)).save(path, "PNG"), "x.gif", "unknown output"),
    ],
    ids=["not-an-image", "missing", "bad-extension"],
)
def test_image_errors_are_one_clear_line(tmp_path: Path, capsys, make_input, out, message) -> None:
    source = tmp_path / "in.png"
    make_input(source)
    code = 2 if out.endswith(".gif") else 1  # a type no run can write is a usage error
    assert main(["image", str(source), "--out", str(tmp_path / out)]) == code
    error = capsys.readouterr().err
    assert error.startswith("epdle image: error:") and message in error
    assert not (tmp_path / out).exists()


def test_render_writes_the_frames_the_daemon_would_show(tmp_path: Path, capsys) -> None:
    history_text = "salet:BBYBB,courd:BGBBB"
    out = tmp_path / "frames"
    # The game of Solver(STRATEGY): the answer list's.
    assert main(["render", "--history", history_text, "--top", "3", "--strategy", STRATEGY,
                 "--prior", "uniform", "--out", str(out)]) == 0  # fmt: skip
    history = parse_history(history_text)
    advice = Solver(STRATEGY).advise(history, top=3)
    expected = render_advice(history, advice, 3)
    names = [f"{rank}-{s.word}.png" for rank, s in enumerate(advice.suggestions, start=1)]
    assert sorted(path.name for path in out.iterdir()) == sorted(names)
    for name, planes in zip(names, expected, strict=True):
        with Image.open(out / name) as written:
            assert image_to_planes(written) == planes
    printed = capsys.readouterr().out
    assert all(name in printed for name in names) and " B" in printed


def test_render_of_a_solved_game_writes_the_solved_frame(tmp_path: Path) -> None:
    assert main(["render", "--history", "crane:GGGGG", "--strategy", STRATEGY,
                 "--out", str(tmp_path)]) == 0  # fmt: skip
    with Image.open(tmp_path / "solved.png") as written:
        assert image_to_planes(written) == render_status(StatusKind.SOLVED, [("crane", "GGGGG")])


@pytest.mark.parametrize(
    ("arguments", "message"),
    [(["--history", "salet:BBQBB"], "salet"), (["--top", "0"], "--top")],
)
def test_render_errors_are_one_clear_line(tmp_path: Path, capsys, arguments, message) -> None:
    code = 2 if "--top" in arguments else 1
    assert (
        main(["render", *arguments, "--strategy", STRATEGY, "--out", str(tmp_path / "o")]) == code
    )
    error = capsys.readouterr().err
    assert error.startswith("epdle render: error:") and message in error
    assert not (tmp_path / "o").exists()


def test_a_line_drawing_keeps_its_lines(tmp_path, capsys) -> None:
    from PIL import Image, ImageDraw

    from epdle.cli import main

    drawing = Image.new("RGB", (2120, 1040), "white")
    pen = ImageDraw.Draw(drawing)
    pen.rectangle((100, 100, 2020, 940), outline="black", width=3)
    pen.line((100, 100, 2020, 940), fill="black", width=3)
    pen.ellipse((700, 200, 1400, 800), outline="black", width=3)
    source = tmp_path / "drawing.png"
    drawing.save(source)
    out = tmp_path / "drawing-frame.png"
    assert main(["image", str(source), "--out", str(out)]) == 0
    frame = Image.open(out).convert("L")
    black = sum(1 for value in frame.tobytes() if value < 128)
    # The rectangle alone is about 590 pixels round at the panel's size.
    assert black > 600
    assert "warning" not in capsys.readouterr().err


def test_a_picture_that_loses_its_ink_says_so(tmp_path, capsys) -> None:
    from PIL import Image, ImageDraw

    from epdle.cli import main

    wide = Image.new("RGB", (424, 104), "white")
    ImageDraw.Draw(wide).rectangle((0, 0, 59, 103), fill="black")  # cut off by --fit cover
    source = tmp_path / "edge.png"
    wide.save(source)
    assert main(["image", str(source), "--out", str(tmp_path / "f.png")]) == 0
    assert capsys.readouterr().err == ""
    assert main(["image", str(source), "--out", str(tmp_path / "f.png"), "--fit", "cover"]) == 0
    err = capsys.readouterr().err
    assert err.startswith(f"epdle image: warning: {source}: the frame keeps 0 pixel(s) of ink")
