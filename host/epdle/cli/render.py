"""CLI commands: `image` (picture -> frame files) and `render` (advice -> preview PNGs)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from epdle.cli.errors import CommandError, UsageError, int_in
from epdle.cli.options import add_solver_options, add_top_option, game_spec
from epdle.cli.paths import input_file, output_dir, output_file

if TYPE_CHECKING:
    from PIL import Image

    from epdle.render.planes import Planes

VARIANT_HELP = "the panel's third ink: red (black/white/red) or yellow; default red"


def register(commands: argparse._SubParsersAction) -> None:
    """Add this module's subcommands to the `epdle` parser."""
    from epdle.render.options import ACCENT_COLOURS, FORMATS, MAX_PICTURE_PIXELS, Fit

    image = commands.add_parser(
        "image",
        help="convert pictures to a frame (.png preview, .frame, C header .h, Intel HEX .hex)",
        description="Convert pictures of any size to panel frames. The output type follows "
        f"OUT's extension ({', '.join(FORMATS)}); .h and .hex take several pictures "
        f"(a frame set, in order). A picture may have up to {MAX_PICTURE_PIXELS:,} pixels.",
    )
    image.add_argument("pictures", nargs="+", type=Path, metavar="IN", help="picture file(s)")
    image.add_argument("--out", type=Path, required=True, help="output file")
    image.add_argument(
        "--fit",
        choices=[fit.value for fit in Fit],
        default=Fit.CONTAIN.value,
        help="contain: whole picture on white (default); cover: fill and crop; stretch",
    )
    image.add_argument(
        "--upright",
        action="store_true",
        help="the picture is for the device held upright (portrait, 104 x 212)",
    )
    image.add_argument("--dither", action="store_true", help="Floyd-Steinberg (for photos)")
    image.add_argument(
        "--threshold",
        type=int_in(0, 256),
        default=128,
        help="luminance below which is black (0-256, default 128)",
    )
    image.add_argument(
        "--variant", choices=sorted(ACCENT_COLOURS), default="red", help=VARIANT_HELP
    )
    image.add_argument("--name", help="C name prefix for .h (default: OUT's stem)")
    image.set_defaults(func=run_image)

    render = commands.add_parser(
        "render",
        help="write the suggestion frames for a game so far as PNG",
        description="Ask the solver about a game so far and write the frames the device "
        "would show (one per suggestion, or a status frame) as PNG in panel colours.",
    )
    render.add_argument("--history", default="", help="guesses so far, e.g. 'salet:BBYBB'")
    add_top_option(render)
    add_solver_options(render)
    render.add_argument(
        "--variant", choices=sorted(ACCENT_COLOURS), default="red", help=VARIANT_HELP
    )
    render.add_argument("--out", type=Path, required=True, help="directory for the PNGs")
    render.set_defaults(func=run_render)


# A frame with less ink than this share of its pixels, from a picture with more, says so.
LOST_INK = 0.002


def _warn_if_lost(path: Path, picture: Image.Image, planes: Planes, threshold: int) -> None:
    from epdle.render.images import ink_share
    from epdle.render.planes import flatten_to_rgb, planes_to_image

    kept = ink_share(planes_to_image(planes))
    if kept < LOST_INK <= ink_share(flatten_to_rgb(picture), threshold):
        pixels = round(kept * 212 * 104)
        print(
            f"epdle image: warning: {path}: the frame keeps {pixels} pixel(s) of ink of a "
            f"picture with more; try a higher --threshold (now {threshold}) or --dither",
            file=sys.stderr,
        )


def run_image(args: argparse.Namespace) -> int:
    from epdle.render.export import write_frames
    from epdle.render.images import open_picture, picture_to_planes
    from epdle.render.options import FORMATS, SINGLE_FRAME_FORMATS, Fit

    suffix = args.out.suffix.lower()
    if suffix not in FORMATS:
        raise UsageError(f"--out {args.out}: unknown output type; use one of {', '.join(FORMATS)}")
    if suffix in SINGLE_FRAME_FORMATS and len(args.pictures) != 1:
        raise UsageError(
            f"a {suffix} file holds one frame, got {len(args.pictures)} pictures; use .h or .hex"
        )
    output_file(args.out)
    frames = []
    for path in args.pictures:
        input_file(path, "picture")
        try:
            picture = open_picture(path)
        except ValueError as error:
            raise CommandError(str(error)) from None
        frames.append(
            picture_to_planes(
                picture,
                Fit(args.fit),
                upright=args.upright,
                dither=args.dither,
                threshold=args.threshold,
            )
        )
        _warn_if_lost(path, picture, frames[-1], args.threshold)
    sizes = write_frames(
        frames, args.out, variant=args.variant, name=args.name, upright=args.upright
    )
    listing = ", ".join(f"{size} B" for size in sizes)
    print(f"{args.out}: {len(sizes)} frame(s), encoded {listing}")
    return 0


def run_render(args: argparse.Namespace) -> int:
    from epdle.render.export import encoded_frames
    from epdle.render.planes import planes_to_image
    from epdle.render.suggestions import render_advice
    from epdle.solver import parse_history

    history = parse_history(args.history)
    solver = game_spec(args).solver()
    advice = solver.advise(history, top=args.top)
    frames = render_advice(history, advice, args.top)
    output_dir(args.out)
    words = [s.word for s in advice.suggestions[: len(frames)]]
    if advice.solved or not words or len(words) != len(frames):
        names = ["solved" if advice.solved else "no-match"]
    else:
        names = [f"{rank}-{word}" for rank, word in enumerate(words, start=1)]
    from rich.console import Console
    from rich.table import Table

    table = Table(title=f"{len(frames)} frame(s) in {args.out}")
    table.add_column("file")
    table.add_column("encoded", justify="right")
    for name, planes, encoded in zip(names, frames, encoded_frames(frames), strict=True):
        path = args.out / f"{name}.png"
        planes_to_image(planes, args.variant).save(path, optimize=True)
        table.add_row(path.name, f"{len(encoded)} B")
    Console().print(table)
    return 0
