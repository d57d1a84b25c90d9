"""The frame format (docs/frame-format.md): a white page plus compressed windows, and the
device's store of frame sets in flash (`epdle.frames.store`).

``encode`` turns the panel's two native planes into a frame, ``decode`` is the
reference decoder (the device's twin is firmware/app/frame.c). They load numpy on
first use; `epdle.frames.store` and `epdle.frames.format` need neither numpy nor Pillow.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .format import FrameError, FrameErrorKind, Window

if TYPE_CHECKING:
    from .decoder import decode
    from .encoder import encode, encode_set

__all__ = ["FrameError", "FrameErrorKind", "Window", "decode", "encode", "encode_set"]


def __getattr__(name: str) -> Any:
    if name == "encode":
        from .encoder import encode, encode_set

        return encode
    if name == "encode_set":
        from .encoder import encode_set

        return encode_set
    if name == "decode":
        from .decoder import decode

        return decode
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
