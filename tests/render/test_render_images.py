"""Pictures of any size fitted to the panel before they become planes."""

from __future__ import annotations

import numpy as np
import pytest
from PIL import Image

from epdle.render.images import fit_to_panel, picture_to_planes
from epdle.render.options import BLACK, RED, WHITE, Fit
from epdle.render.planes import LANDSCAPE_SIZE


def as_array(image: Image.Image) -> np.ndarray:
    return np.asarray(image.convert("RGB"))


def test_contain_keeps_the_whole_picture_with_white_bars() -> None:
    fitted = as_array(fit_to_panel(Image.new("RGB", (300, 300), RED), Fit.CONTAIN))
    assert fitted.shape == (104, 212, 3)
    red_columns = np.flatnonzero((fitted == RED).all(axis=2).all(axis=0))
    assert len(red_columns) == pytest.approx(104, abs=2)
    assert (fitted[:, 0] == WHITE).all() and (fitted[:, -1] == WHITE).all()


def test_cover_fills_the_panel_and_crops_the_sides() -> None:
    wide = Image.new("RGB", (848, 104), WHITE)
    wide.paste(BLACK, (0, 0, 212, 104))  # left quarter black: cropped away by a centre crop
    wide.paste(RED, (318, 0, 530, 104))  # middle quarter red: kept
    fitted = as_array(fit_to_panel(wide, Fit.COVER))
    assert not (fitted == BLACK).all(axis=2).any()
    assert (fitted[:, 100:112] == RED).all()


def test_stretch_fills_the_panel_without_bars() -> None:
    fitted = as_array(fit_to_panel(Image.new("RGB", (50, 400), BLACK), Fit.STRETCH))
    assert (fitted == BLACK).all()


def test_a_picture_of_panel_size_is_left_alone() -> None:
    rng = np.random.default_rng(3)
    pixels = rng.integers(0, 256, (104, 212, 3), dtype=np.uint8)
    picture = Image.fromarray(pixels)
    assert (as_array(fit_to_panel(picture, Fit.COVER)) == pixels).all()


def test_portrait_photo_with_transparency_becomes_planes() -> None:
    gradient = np.tile(np.linspace(0, 255, 300, dtype=np.uint8), (500, 1))
    alpha = np.full((500, 300), 255, dtype=np.uint8)
    alpha[:, :50] = 0  # a transparent strip must come out white, not black
    picture = Image.fromarray(np.dstack([gradient, gradient, gradient, alpha]))
    black, red = picture_to_planes(picture, Fit.STRETCH, dither=True).masks()
    assert not red.any()
    assert not black[:, :30].any()
    # Dithered gradient: dark on the left of the visible part, light on the right.
    assert black[:, 40:80].mean() > black[:, 170:210].mean() + 0.4
    assert fit_to_panel(picture).size == LANDSCAPE_SIZE


def test_empty_picture_is_rejected() -> None:
    with pytest.raises(ValueError, match="empty"):
        fit_to_panel(Image.new("RGB", (0, 10)))


def test_upright_picture_fills_the_panel_held_upright() -> None:
    portrait = Image.new("RGB", (104, 212), WHITE)
    portrait.paste(BLACK, (0, 0, 104, 20))  # a black band along the top
    portrait.paste(RED, (0, 0, 10, 212))  # a red band down the left side
    planes = picture_to_planes(portrait, upright=True)
    native_black = np.unpackbits(np.frombuffer(planes.black, np.uint8)).reshape(212, 104) == 0
    native_red = np.unpackbits(np.frombuffer(planes.red, np.uint8)).reshape(212, 104) == 0
    # Native rows run top to bottom of the upright device, columns left to right.
    assert native_black[:20, 10:].all() and not native_black[20:].any()
    assert native_red[:, :10].all() and not native_red[:, 10:].any()


def test_a_huge_picture_is_reduced_before_any_filter(tmp_path, monkeypatch) -> None:
    """A few KB of PNG declaring 20000 x 1200 pixels of thin lines: every filter and
    resampling runs on a picture near the panel's size, and the lines still show."""
    from PIL import ImageDraw

    from epdle.render.images import open_picture

    drawing = Image.new("1", (20_000, 1_200), 1)
    pen = ImageDraw.Draw(drawing)
    pen.rectangle((0, 0, 19_999, 1_199), outline=0)
    for x in range(1_000, 20_000, 2_000):
        pen.line((x, 0, x, 1_199), fill=0)
    path = tmp_path / "huge.png"
    drawing.save(path)
    assert path.stat().st_size < 20_000
    bound = 16 * LANDSCAPE_SIZE[0] * LANDSCAPE_SIZE[1]
    sizes: list[tuple[str, tuple[int, int]]] = []

    def spy(name: str):
        original = getattr(Image.Image, name)

        def run(self, *args, **kwargs):
            sizes.append((name, self.size))
            if self.width * self.height > bound:  # stop here: at full size it takes minutes
                raise AssertionError(f"{name} ran on {self.width} x {self.height} pixels")
            return original(self, *args, **kwargs)

        return run

    for name in ("filter", "resize"):
        monkeypatch.setattr(Image.Image, name, spy(name))
    black, red = picture_to_planes(open_picture(path)).masks()
    assert sizes, "the picture was fitted by resampling"
    assert all(width * height <= bound for _, (width, height) in sizes), sizes
    # The one-pixel lines, 94 times thinner than a panel pixel, still come out black.
    assert black.sum() > LANDSCAPE_SIZE[0] and not red.any()


def test_darkest_of_blocks_keeps_each_dark_pixel_of_a_long_thin_picture() -> None:
    from epdle.render.images import darkest_of_blocks

    # A side shorter than the step is one block: a 2,000,000 x 1 strip is not padded
    # into a square of blocks 9,435 rows tall.
    strip = Image.new("RGB", (2_000_000, 1), WHITE)
    strip.putpixel((1_000_000, 0), BLACK)
    reduced = darkest_of_blocks(strip, 9_435)
    assert reduced.size == (212, 1)
    assert (as_array(reduced) == BLACK).all(axis=2).sum() == 1
    square = Image.new("RGB", (10, 10), WHITE)
    square.putpixel((9, 9), RED)
    assert as_array(darkest_of_blocks(square, 3)).shape == (4, 4, 3)
    assert tuple(as_array(darkest_of_blocks(square, 3))[3, 3]) == RED
