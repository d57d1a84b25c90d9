"""Planes: layout, rotation, colour mapping, dithering and exact round trips."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from epdle.render.options import BLACK, RED, WHITE, YELLOW
from epdle.render.planes import (
    LANDSCAPE_SIZE,
    NATIVE_SIZE,
    PLANE_BYTES,
    Planes,
    image_to_planes,
    planes_to_image,
)


def native_bit_is_ink(plane: bytes, column: int, row: int) -> bool:
    byte = plane[row * (NATIVE_SIZE[0] // 8) + column // 8]
    return not (byte >> (7 - column % 8)) & 1


def canonical_random_planes(seed: int) -> Planes:
    rng = np.random.default_rng(seed)
    black = rng.integers(0, 256, PLANE_BYTES, dtype=np.uint8)
    red = rng.integers(0, 256, PLANE_BYTES, dtype=np.uint8)
    # A red pixel's black bit is irrelevant on the panel; the canonical form keeps it white.
    return Planes(black=(black | ~red).tobytes(), red=red.tobytes())


def test_sizes_match_the_panel() -> None:
    assert NATIVE_SIZE == (104, 212)
    assert LANDSCAPE_SIZE == (212, 104)
    assert PLANE_BYTES == 2756


def test_planes_reject_wrong_lengths_and_types() -> None:
    with pytest.raises(ValueError, match="2756"):
        Planes(black=b"\xff" * 2755, red=b"\xff" * PLANE_BYTES)
    with pytest.raises(TypeError):
        Planes(black=bytearray(PLANE_BYTES), red=b"\xff" * PLANE_BYTES)  # type: ignore[arg-type]


def test_blank_frame_is_all_white() -> None:
    image = planes_to_image(Planes.blank())
    assert image.size == LANDSCAPE_SIZE
    assert image.getcolors() == [(212 * 104, WHITE)]


@pytest.mark.parametrize(
    ("landscape_xy", "native_column_row"),
    [((0, 0), (103, 0)), ((211, 0), (103, 211)), ((0, 103), (0, 0)), ((211, 103), (0, 211))],
)
def test_landscape_corner_lands_on_the_documented_native_pixel(
    landscape_xy: tuple[int, int], native_column_row: tuple[int, int]
) -> None:
    image = Image.new("RGB", LANDSCAPE_SIZE, WHITE)
    image.putpixel(landscape_xy, BLACK)
    planes = image_to_planes(image)
    ink = [
        (column, row)
        for row in range(NATIVE_SIZE[1])
        for column in range(NATIVE_SIZE[0])
        if native_bit_is_ink(planes.black, column, row)
    ]
    assert ink == [native_column_row]
    assert planes.red == b"\xff" * PLANE_BYTES


def test_red_wins_where_both_planes_have_ink() -> None:
    planes = Planes(black=b"\x00" * PLANE_BYTES, red=b"\x00" * PLANE_BYTES)
    assert planes_to_image(planes).getcolors() == [(212 * 104, RED)]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_planes_to_png_to_planes_is_exact(seed: int, tmp_path) -> None:
    planes = canonical_random_planes(seed)
    path = tmp_path / "frame.png"
    planes_to_image(planes).save(path)
    with Image.open(path) as reloaded:
        assert image_to_planes(reloaded) == planes


def test_preview_uses_only_panel_colours_in_both_variants() -> None:
    planes = canonical_random_planes(7)
    red_colours = {colour for _, colour in planes_to_image(planes).getcolors()}
    yellow_colours = {colour for _, colour in planes_to_image(planes, "yellow").getcolors()}
    assert red_colours == {WHITE, BLACK, RED}
    assert yellow_colours == {WHITE, BLACK, YELLOW}
    assert image_to_planes(planes_to_image(planes, "yellow")) == planes


def test_unknown_variant_is_rejected() -> None:
    with pytest.raises(ValueError, match="variant"):
        planes_to_image(Planes.blank(), "green")


def test_wrong_image_size_is_rejected_with_a_hint() -> None:
    with pytest.raises(ValueError, match="fit or crop"):
        image_to_planes(Image.new("RGB", NATIVE_SIZE, WHITE))


def single_colour_ink(colour, *, mode: str = "RGB", threshold: int = 128) -> tuple[int, int]:
    image = Image.new(mode, LANDSCAPE_SIZE, colour)
    black, red = image_to_planes(image, threshold=threshold).masks()
    return int(black.sum()), int(red.sum())


FULL = 212 * 104


@pytest.mark.parametrize(
    ("colour", "expected"),
    [
        ((250, 250, 250), (0, 0)),
        ((20, 20, 20), (FULL, 0)),
        ((150, 10, 10), (0, FULL)),
        ((230, 60, 40), (0, FULL)),
        ((100, 100, 100), (FULL, 0)),
        ((180, 180, 180), (0, 0)),
    ],
)
def test_nearest_panel_colour(colour: tuple[int, int, int], expected: tuple[int, int]) -> None:
    assert single_colour_ink(colour) == expected


def test_threshold_moves_the_black_white_split() -> None:
    assert single_colour_ink((100, 100, 100), threshold=90) == (0, 0)
    assert single_colour_ink((200, 200, 200), threshold=210) == (FULL, 0)


@pytest.mark.parametrize(
    ("mode", "colour"), [("1", 0), ("L", 0), ("P", 0), ("CMYK", (0, 0, 0, 255))]
)
def test_any_mode_is_accepted(mode: str, colour) -> None:
    assert single_colour_ink(colour, mode=mode) == (FULL, 0)


def test_transparent_pixels_count_as_white() -> None:
    image = Image.new("RGBA", LANDSCAPE_SIZE, (0, 0, 0, 0))
    image.putpixel((10, 10), (0, 0, 0, 255))
    black, red = image_to_planes(image).masks()
    assert int(black.sum()) == 1 and black[10, 10]
    assert not red.any()


def test_dithering_a_mid_grey_gives_about_half_black_and_no_red() -> None:
    image = Image.new("L", LANDSCAPE_SIZE, 128)
    black, red = image_to_planes(image, dither=True).masks()
    assert not red.any()
    assert 0.4 < black.mean() < 0.6
    # Without dithering the same grey is one flat colour.
    flat_black, _ = image_to_planes(image).masks()
    assert flat_black.all() or not flat_black.any()


def test_dithering_leaves_pure_panel_colours_alone() -> None:
    planes = canonical_random_planes(11)
    assert image_to_planes(planes_to_image(planes), dither=True) == planes


def test_masks_round_trip() -> None:
    planes = canonical_random_planes(5)
    assert Planes.from_masks(*planes.masks()) == planes


rectangles = st.lists(
    st.tuples(
        st.integers(0, 211), st.integers(0, 103), st.integers(1, 212), st.integers(1, 104),
        st.sampled_from([WHITE, BLACK, RED]),
    ),
    max_size=12,
)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(rectangles)
def test_any_three_colour_picture_survives_planes_exactly(shapes) -> None:
    picture = Image.new("RGB", LANDSCAPE_SIZE, WHITE)
    for x, y, width, height, colour in shapes:
        picture.paste(colour, (x, y, min(x + width, 212), min(y + height, 104)))
    back = planes_to_image(image_to_planes(picture))
    assert (np.asarray(back) == np.asarray(picture)).all()
