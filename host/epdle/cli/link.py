"""CLI commands: `push`, `show`, `info` (talk to the device over a serial
port, or to the simulated board with --port sim://) and `link-bench`."""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING

from epdle.cli.options import add_port_option

if TYPE_CHECKING:
    from epdle.link.bench import SweepResult

# Pictures are drawn into a frame; .frame files are already encoded.
FRAME_SUFFIX = ".frame"


def register(commands: argparse._SubParsersAction) -> None:
    """Add this module's subcommands to the `epdle` parser."""
    push = commands.add_parser(
        "push",
        help="upload a set of frames to the device (PNG pictures or .frame files)",
        description="Upload FILEs as the device's frame set, in order, with a progress bar. "
        "Pictures (e.g. the PNGs of `epdle render`) are converted to frames; .frame files "
        "(`epdle image --out x.frame`) are sent as they are. The old set stays current "
        "until the new one is complete and checked.",
    )
    _add_device_options(push)
    push.add_argument("files", nargs="+", type=Path, metavar="FILE")
    push.add_argument("--show", type=int, metavar="N", help="then show frame N")
    push.set_defaults(func=run_push)

    show = commands.add_parser(
        "show",
        help="show frame N of the device's set (waits for the refresh)",
        description="Show frame N and wait until the device reports it on the panel.",
    )
    _add_device_options(show)
    show.add_argument("index", type=int, metavar="N")
    show.set_defaults(func=run_show)

    info = commands.add_parser(
        "info",
        help="firmware version, protocol, capacity, frames stored, current frame",
        description="Ask the device what it runs and holds.",
    )
    _add_device_options(info)
    info.add_argument("--json", action="store_true", help="print JSON")
    info.set_defaults(func=run_info)

    bench = commands.add_parser(
        "link-bench",
        help="measure an upload of typical suggestion frames over the simulated line",
        description="Push 8 typical suggestion frames to the simulated board and report "
        "bytes on the wire, simulated seconds and flash erase cycles (budget: wire <= 1.25 x "
        "payload, as a packet must fit one 80-byte RAM bank of the PIC; <= 3 s).",
    )
    add_port_option(bench, "sim://")
    bench.add_argument("--frames", type=int, default=8, help="how many frames (1-8)")
    bench.add_argument("--json", action="store_true", help="print JSON")
    bench.add_argument(
        "--power-cut-sweep",
        action="store_true",
        help="also cut the power at every flash operation of the upload (about a minute)",
    )
    bench.set_defaults(func=run_bench)


def _add_device_options(parser: argparse.ArgumentParser) -> None:
    add_port_option(parser)
    parser.add_argument(
        "--timeout", type=float, default=2.0, help="seconds to wait for each answer (default 2)"
    )
    parser.add_argument("--retries", type=int, default=3, help="tries per command (default 3)")


def _fail(command: str, message: str) -> int:
    print(f"epdle {command}: error: {message}", file=sys.stderr)
    return 2


def load_frames(paths: list[Path]) -> list[bytes]:
    """Encoded frames from pictures and .frame files, in order."""
    from PIL import Image, UnidentifiedImageError

    from epdle.frames import encode
    from epdle.render.images import picture_to_planes

    frames = []
    for path in paths:
        if path.suffix.lower() == FRAME_SUFFIX:
            frames.append(path.read_bytes())
            continue
        try:
            with Image.open(path) as picture:
                planes = picture_to_planes(picture)
        except UnidentifiedImageError as error:
            raise ValueError(f"{path}: neither a picture nor a {FRAME_SUFFIX} file") from error
        frames.append(encode(planes.black, planes.red))
    return frames


def run_push(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TimeRemainingColumn

    from epdle.link import Device, LinkError

    console = Console(stderr=True)
    try:
        frames = load_frames(args.files)
    except (OSError, ValueError) as error:
        return _fail("push", str(error))
    try:
        with Device.open(args.port, timeout=args.timeout, retries=args.retries) as device:
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

                stats = device.push(frames, progress=advance)
            if args.show is not None:
                device.show(args.show)
    except LinkError as error:
        return _fail("push", str(error))
    erased = "" if stats.erase_cycles is None else f", {stats.erase_cycles} flash rows erased"
    print(
        f"pushed {stats.frames} frame(s): {stats.payload_bytes} B payload, "
        f"{stats.bytes_on_wire} B on the wire ({stats.bytes_on_wire / stats.payload_bytes:.2f}x), "
        f"{stats.seconds:.2f} s, {stats.retries} retries{erased}"
    )
    return 0


def run_show(args: argparse.Namespace) -> int:
    from epdle.link import Device, LinkError

    try:
        with Device.open(args.port, timeout=args.timeout, retries=args.retries) as device:
            device.show(args.index)
    except (LinkError, ValueError) as error:
        return _fail("show", str(error))
    print(f"frame {args.index} shown")
    return 0


def run_info(args: argparse.Namespace) -> int:
    from epdle.link import Device, LinkError

    try:
        with Device.open(args.port, timeout=args.timeout, retries=args.retries) as device:
            info = device.info()
    except LinkError as error:
        return _fail("info", str(error))
    if args.json:
        print(json.dumps(asdict(info)))
    else:
        print(
            f"firmware {info.version}, protocol {info.protocol}: {info.frames} frame(s), "
            f"showing {info.current}; room for {info.capacity} B "
            f"({info.capacity_words} flash words, up to {info.max_frames} frames)"
        )
    return 0


def run_bench(args: argparse.Namespace) -> int:
    from rich.console import Console
    from rich.table import Table

    from epdle.link import LinkError
    from epdle.link.bench import measure_upload

    try:
        result = measure_upload(args.port, args.frames)
    except (LinkError, ValueError) as error:
        return _fail("link-bench", str(error))
    sweep = _sweep_with_progress(args.frames) if args.power_cut_sweep else None
    stats = result.stats
    if args.json:
        report: dict[str, object] = {
            "frame_bytes": result.frame_sizes,
            "payload_bytes": stats.payload_bytes,
            "bytes_on_wire": stats.bytes_on_wire,
            "wire_ratio": round(result.wire_ratio, 4),
            "seconds": stats.seconds,
            "erase_cycles": stats.erase_cycles,
            "retries": stats.retries,
        }
        if sweep is not None:
            report["power_cut_sweep"] = asdict(sweep)
        print(json.dumps(report))
        return 0 if sweep is None or not sweep.failures else 1
    table = Table(title=f"upload of {stats.frames} suggestion frames over {args.port}")
    table.add_column("measure")
    table.add_column("value", justify="right")
    table.add_column("budget", justify="right")
    table.add_row("frame sizes", ", ".join(f"{size}" for size in result.frame_sizes) + " B", "")
    table.add_row("payload", f"{stats.payload_bytes} B", "")
    table.add_row("bytes on the wire", f"{stats.bytes_on_wire} B", "")
    table.add_row("wire / payload", f"{result.wire_ratio:.3f}", "<= 1.25")
    table.add_row("time", f"{stats.seconds:.3f} s", "<= 3 s")
    table.add_row("flash rows erased", str(stats.erase_cycles), "")
    table.add_row("retries", str(stats.retries), "")
    if sweep is not None:
        table.add_row("power cuts (one per operation)", str(sweep.operations), "")
        table.add_row("  -> old set kept", str(sweep.old_kept), "")
        table.add_row("  -> new set complete", str(sweep.new_complete), "")
        table.add_row("  -> anything else", str(len(sweep.failures)), "0")
    console = Console()
    console.print(table)
    if sweep is not None and sweep.failures:
        for failure in sweep.failures:
            console.print(f"[red]{failure}[/red]")
        return 1
    return 0


def _sweep_with_progress(count: int) -> SweepResult:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress

    from epdle.link.bench import power_cut_sweep, typical_planes

    with Progress(
        "power cut sweep",
        BarColumn(),
        MofNCompleteColumn(),
        console=Console(stderr=True),
        transient=True,
    ) as progress:
        task = progress.add_task("sweep", total=None)
        # The old set needs another frame count so the outcomes tell apart.
        old = typical_planes(2 if count == 1 else 1)
        return power_cut_sweep(
            typical_planes(count),
            old,
            lambda done, total: progress.update(task, completed=done, total=total),
        )
