"""CLI commands: `push`, `show`, `info` (talk to the device over a serial
port, or to the simulated board with --port sim://) and `link-bench`."""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from epdle.cli.errors import CommandError, examples, int_in, number_in
from epdle.cli.options import add_full_refresh_option, add_port_option
from epdle.render.options import MAX_PICTURE_PIXELS

if TYPE_CHECKING:
    from epdle.link import Device
    from epdle.session.link_bench import SweepResult

# Pictures are drawn into a frame; .frame files are already encoded; a .hex file
# (`epdle image --out set.hex`) holds a whole committed set.
FRAME_SUFFIX = ".frame"
HEX_SUFFIX = ".hex"
HEADER_SUFFIX = ".h"
# The device numbers its frames 0..MAX_FRAMES - 1 on the wire; people count from 1.
MAX_FRAME_NUMBER = 32


def register(commands: argparse._SubParsersAction) -> None:
    """Add this module's subcommands to the `epdle` parser."""
    _register_push(commands)
    _register_show(commands)
    _register_info(commands)
    _register_merge(commands)
    _register_bench(commands)


def _register_push(commands: argparse._SubParsersAction) -> None:
    push = commands.add_parser(
        "push",
        help="upload a set of frames to the device (pictures, .frame or .hex files)",
        description="Upload FILEs as the device's frame set, in order, with a progress bar. "
        "Pictures (e.g. the PNGs of `epdle render`; up to "
        f"{MAX_PICTURE_PIXELS:,} pixels) are converted to frames; .frame files "
        "(`epdle image --out x.frame`) are checked and sent as they are; a .hex frame set "
        "(`epdle image --out set.hex`) adds its frames. The old set stays current until the "
        "new one is complete and checked (a set too big to fit beside it is refused, unless "
        "--replace).",
        epilog=examples(
            "epdle push --port sim:// a.png b.png",
            "epdle image a.png b.png --out set.hex && epdle push --port sim:// set.hex",
        ),
    )
    _add_device_options(push)
    push.add_argument("files", nargs="+", type=Path, metavar="FILE")
    push.add_argument(
        "--replace",
        action="store_true",
        help="if the set does not fit beside the stored one, make room: its first frame goes "
        "alone first, so that a power cut at any moment leaves a whole set; only if not even "
        "that frame fits is the stored set cleared first",
    )
    add_full_refresh_option(push)
    push.add_argument(
        "--show",
        type=int_in(1, MAX_FRAME_NUMBER, "the device holds 32 frames"),
        metavar="N",
        help="then show frame N (counting from 1)",
    )
    push.set_defaults(func=run_push)


def _register_show(commands: argparse._SubParsersAction) -> None:
    show = commands.add_parser(
        "show",
        help="show frame N of the device's set, or the test pattern (waits for the refresh)",
        description="Show frame N (counting from 1, as `info` and `play` do) and wait until "
        "the device reports it on the panel. With --test-pattern, first make the bring-up "
        "test pattern the device's frame set (3 frames: the pattern, all black, all red; "
        "the button steps through them), then show the pattern.",
    )
    _add_device_options(show)
    show.add_argument(
        "number",
        nargs="?",
        type=int_in(1, MAX_FRAME_NUMBER, "the device holds 32 frames"),
        metavar="N",
        help="the frame to show, counting from 1 (not with --test-pattern)",
    )
    show.add_argument(
        "--test-pattern",
        action="store_true",
        help="replace the stored frames with the test pattern (every pixel of both planes, "
        "hardware/bringup.md) and show it",
    )
    show.set_defaults(func=run_show)


def _register_info(commands: argparse._SubParsersAction) -> None:
    info = commands.add_parser(
        "info",
        help="firmware version, protocol, capacity, frames stored, current frame, last reset",
        description="Ask the device what it runs and holds, what reset it last (power-on, "
        "brown-out, watchdog, stack overflow or underflow, the reset pin) and the supply "
        "voltage it last measured.",
    )
    _add_device_options(info)
    info.add_argument("--json", action="store_true", help="print JSON")
    info.add_argument(
        "--calibrate-vdd",
        metavar="MV",
        type=int_in(2000, 3600),
        help="first tell the device the supply voltage measured at its board (a meter on "
        "VDD, in mV): it works out its voltage reference from it and keeps it, so that its "
        "checks of the cell are right to the meter's accuracy",
    )
    info.set_defaults(func=run_info)


def _register_merge(commands: argparse._SubParsersAction) -> None:
    merge = commands.add_parser(
        "merge",
        help="merge the firmware's Intel HEX with a frame set, to program a device that "
        "ships with it",
        description="Write OUT.hex: the firmware's .hex (build/pic/epdle.hex, made by make pic) "
        "plus FILEs (pictures, .frame files or a .hex set from `epdle image`, as `push` takes "
        "them) as the committed frame set in the store's flash region. Refused if the firmware "
        "reaches into that region.",
    )
    merge.add_argument("firmware", type=Path, metavar="FIRMWARE.hex")
    merge.add_argument("files", nargs="+", type=Path, metavar="FILE")
    merge.add_argument(
        "--out", type=Path, required=True, metavar="OUT.hex", help="the merged Intel HEX"
    )
    merge.set_defaults(func=run_merge)


def _register_bench(commands: argparse._SubParsersAction) -> None:
    bench = commands.add_parser(
        "link-bench",
        help="measure an upload of typical suggestion frames over the simulated line",
        description="Push 8 typical suggestion frames to the simulated board and report "
        "bytes on the wire, simulated seconds and flash erase cycles against the link's "
        "budget (docs/protocol.md: wire <= 1.25 x payload, <= 4 s).",
    )
    add_port_option(bench, "sim://")
    bench.add_argument(
        "--frames", type=int_in(1, 8), default=8, help="how many frames (1-8, default 8)"
    )
    bench.add_argument("--json", action="store_true", help="print JSON")
    bench.add_argument(
        "--power-cut-sweep",
        action="store_true",
        help="also cut the power at every flash operation of the upload, and of a replacing "
        "push (8 frames over a stored set of 13 they do not fit beside; a few minutes)",
    )
    bench.set_defaults(func=run_bench)


def _add_device_options(parser: argparse.ArgumentParser) -> None:
    add_port_option(parser)
    parser.add_argument(
        "--timeout",
        type=number_in(0, 600, above=True),
        default=2.0,
        help="seconds to wait for each answer (default 2)",
    )
    parser.add_argument(
        "--retries", type=int_in(1, 100), default=3, help="tries per command (default 3)"
    )


def load_frames(paths: list[Path]) -> list[bytes]:
    """Encoded frames from pictures, .frame and .hex files, in order, each one checked
    against the frame format (the device would refuse a broken one only when shown)."""
    from epdle.cli.paths import input_file
    from epdle.frames import FrameError, decode, encode
    from epdle.frames.store import committed_frames, words_from_hex
    from epdle.render.images import NotAPicture, open_picture, picture_to_planes

    frames = []
    for path in paths:
        input_file(path)
        suffix = path.suffix.lower()
        if suffix == HEADER_SUFFIX:
            raise CommandError(
                f"{path} is a C header (built into firmware); push the pictures, "
                f"{FRAME_SUFFIX} files or a {HEX_SUFFIX} set instead"
            )
        if suffix in (FRAME_SUFFIX, HEX_SUFFIX):
            try:
                loaded = (
                    [path.read_bytes()]
                    if suffix == FRAME_SUFFIX
                    else committed_frames(words_from_hex(path))
                )
                for frame in loaded:
                    decode(frame)
            except (FrameError, ValueError) as error:
                raise CommandError(f"{path}: not a valid {suffix} frame file: {error}") from None
            frames += loaded
            continue
        try:
            picture = open_picture(path)
        except NotAPicture:
            raise CommandError(
                f"{path}: neither a picture nor a {FRAME_SUFFIX} or {HEX_SUFFIX} file"
            ) from None
        except ValueError as error:
            raise CommandError(str(error)) from None
        planes = picture_to_planes(picture)
        frames.append(encode(planes.black, planes.red))
    return frames


@contextlib.contextmanager
def open_device(args: argparse.Namespace) -> Iterator[Device]:
    """The device on --port, closed after; a device lost on the way is one line."""
    from epdle.cli.options import resolve_port
    from epdle.link import Device, DeviceLost

    device = Device.open(resolve_port(args.port), timeout=args.timeout, retries=args.retries)
    # What the device is doing while the command waits for it (a refresh), one line each.
    device.notice = lambda line: print(line, file=sys.stderr, flush=True)
    try:
        with device:
            yield device
    except DeviceLost as error:
        raise CommandError(f"device lost ({error})") from None


def run_push(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TimeRemainingColumn

    from epdle.frames.fast import mark_fast

    console = Console(stderr=True)
    # Loaded frames were checked: their fast windows are recomputed for this set.
    frames = mark_fast(load_frames(args.files), allow=not args.full_refresh)
    if args.show is not None and args.show > len(frames):
        raise CommandError(f"--show {args.show}: the set has {len(frames)} frame(s)")
    with open_device(args) as device:
        with Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            DownloadColumn(),
            TimeRemainingColumn(),
            console=console,
            transient=True,
        ) as progress:
            task = progress.add_task(f"pushing {len(frames)} frame(s)", total=None)

            def advance(done: int, total: int) -> None:
                progress.update(task, completed=done, total=total)

            stats = device.push(frames, progress=advance, replace=args.replace)
        if args.show is not None:
            device.show(args.show - 1)
    erased = "" if stats.erase_cycles is None else f", {stats.erase_cycles} flash rows erased"
    room = "; the old set was cleared first to make room" if stats.cleared_first else ""
    if stats.bridges:
        room += f"; its first frame went alone first ({stats.bridges}x) to make room"
    print(
        f"pushed {stats.frames} frame(s): {stats.payload_bytes} B payload, "
        f"{stats.bytes_on_wire} B on the wire ({stats.bytes_on_wire / stats.payload_bytes:.2f}x), "
        f"{stats.seconds:.2f} s, {stats.retries} retries{erased}{room}"
        + ("" if args.show is None else f"; showing frame {args.show}")
    )
    return 0


def run_show(args: argparse.Namespace) -> int:
    from epdle.cli.errors import UsageError

    if args.test_pattern == (args.number is not None):
        raise UsageError("give a frame number N or --test-pattern (one of the two)")
    if args.test_pattern:
        return _show_test_pattern(args)
    with open_device(args) as device:
        stored = device.info().frames
        if args.number > stored:
            raise CommandError(f"frame {args.number}: the device holds frames 1 to {stored}")
        device.show(args.number - 1)
    print(f"frame {args.number} of {stored} shown")
    return 0


def _show_test_pattern(args: argparse.Namespace) -> int:
    from epdle.frames import encode
    from epdle.render.test_pattern import pattern_frames

    frames = [encode(planes.black, planes.red) for planes in pattern_frames()]
    with open_device(args) as device:
        # The pattern replaces the set in any case: no need to keep the old one beside it.
        device.push(frames, replace=True)
        device.show(0)
    print(
        f"test pattern shown (frame 1 of {len(frames)}); press the button for all black, "
        "then all red"
    )
    return 0


def run_info(args: argparse.Namespace) -> int:
    from epdle.link.protocol import RESET_TEXT

    with open_device(args) as device:
        if args.calibrate_vdd is not None:
            device.calibrate(args.calibrate_vdd)
        info = device.info()
    reset = RESET_TEXT[info.reset_cause]
    if args.json:
        # Frame numbers count from 1, as in the text.
        print(json.dumps({**asdict(info), "current": info.current + 1, "reset_cause": reset}))
    else:
        print(
            f"firmware {info.version}, protocol {info.protocol}: {info.frames} frame(s), "
            f"showing frame {info.current + 1}; room for {info.capacity} B "
            f"({info.capacity_words} flash words, up to {info.max_frames} frames)"
        )
        vdd = "not measured yet" if info.vdd_mv is None else f"{info.vdd_mv} mV"
        print(f"last reset: {reset}; supply last measured: {vdd} (FVR {info.fvr_mv} mV)")
        if info.battery_low:
            print("battery low: the cell was too weak to refresh the panel; replace it")
    return 0


def run_merge(args: argparse.Namespace) -> int:
    from intelhex import AddressOverlapError

    from epdle.cli.errors import UsageError
    from epdle.cli.paths import input_file, output_file
    from epdle.frames import store

    if args.out.suffix.lower() != HEX_SUFFIX:
        raise UsageError(f"--out {args.out}: the merged image is Intel HEX (.hex)")
    firmware = store.read_hex(input_file(args.firmware, "firmware"))
    frames = load_frames(args.files)
    output_file(args.out)
    region = range(
        2 * store.REGION_FIRST_ROW * store.ROW_WORDS,
        2 * (store.REGION_FIRST_ROW + store.REGION_ROWS) * store.ROW_WORDS,
    )
    inside = [address for address in firmware.addresses() if address in region]
    if inside:
        raise CommandError(
            f"{args.firmware} has data in the frame store's flash region "
            f"(byte address {inside[0]:#06x}; the store takes {region.start:#06x} to "
            f"{region.stop - 1:#06x})"
        )
    merged = firmware
    try:
        merged.merge(store.intel_hex(frames), overlap="error")
    except AddressOverlapError as error:
        raise CommandError(f"the firmware and the frame set overlap: {error}") from None
    merged.write_hex_file(str(args.out))
    print(f"{args.out}: {args.firmware} plus {len(frames)} frame(s) in the frame store")
    return 0


def run_bench(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from epdle.session.link_bench import measure_upload

    result = measure_upload(args.port, args.frames)
    sweep = _sweep_with_progress(args.frames) if args.power_cut_sweep else None
    replacing = _sweep_with_progress(args.frames, replace=True) if args.power_cut_sweep else None
    sweeps = [s for s in (sweep, replacing) if s is not None]
    stats = result.stats
    if args.json:
        report: dict[str, object] = {
            "port": args.port,
            "frames": stats.frames,
            "frame_bytes": result.frame_sizes,
            "payload_bytes": stats.payload_bytes,
            "bytes_on_wire": stats.bytes_on_wire,
            "wire_ratio": round(result.wire_ratio, 4),
            "seconds": stats.seconds,
            "erase_cycles": stats.erase_cycles,
            "retries": stats.retries,
        }
        if sweep is not None and replacing is not None:
            report["power_cut_sweep"] = asdict(sweep)
            report["replacing_power_cut_sweep"] = asdict(replacing)
        print(json.dumps(report))
        return 1 if any(s.failures for s in sweeps) else 0
    table = Table(title=f"upload of {stats.frames} suggestion frames over {args.port}")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("budget", justify="right")
    table.add_row("frame sizes", ", ".join(f"{size}" for size in result.frame_sizes) + " B", "")
    table.add_row("payload", f"{stats.payload_bytes} B", "")
    table.add_row("bytes on the wire", f"{stats.bytes_on_wire} B", "")
    table.add_row("wire / payload", f"{result.wire_ratio:.3f}", "<= 1.25")
    table.add_row("time", f"{stats.seconds:.3f} s", "<= 4 s")
    table.add_row("flash rows erased", str(stats.erase_cycles), "")
    table.add_row("retries", str(stats.retries), "")
    for name, swept in (("", sweep), ("replacing push: ", replacing)):
        if swept is None:
            continue
        table.add_row(f"{name}power cuts (one per operation)", str(swept.operations), "")
        table.add_row("  -> old set kept", str(swept.old_kept), "")
        if swept is replacing:
            table.add_row("  -> new set's first frame alone", str(swept.first_alone), "")
        table.add_row("  -> new set complete", str(swept.new_complete), "")
        table.add_row("  -> anything else", str(len(swept.failures)), "0")
    console = Console()
    console.print(table)
    failures = [failure for swept in sweeps for failure in swept.failures]
    for failure in failures:
        console.print(f"[red]{failure}[/red]")
    return 1 if failures else 0


def _sweep_with_progress(count: int, replace: bool = False) -> SweepResult:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress

    from epdle.session.link_bench import power_cut_sweep, replacing_sweep_planes, typical_planes

    with Progress(
        "replacing push power cut sweep" if replace else "power cut sweep",
        BarColumn(),
        MofNCompleteColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as progress:
        task = progress.add_task("sweep", total=None)
        if replace:
            return power_cut_sweep(
                *replacing_sweep_planes(),
                lambda done, total: progress.update(task, completed=done, total=total),
                replace=True,
            )
        # The old set needs another frame count so the outcomes tell apart.
        old = typical_planes(2 if count == 1 else 1)
        return power_cut_sweep(
            typical_planes(count),
            old,
            lambda done, total: progress.update(task, completed=done, total=total),
        )
