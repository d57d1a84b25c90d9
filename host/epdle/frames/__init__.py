"""The frame format (docs/frame-format.md): a white page plus compressed windows.

``encode`` turns the panel's two native planes into a frame, ``decode`` is the
reference decoder (the device's twin is firmware/app/frame.c).
"""

from .decoder import decode
from .encoder import encode
from .format import FrameError, FrameErrorKind, Window

__all__ = ["FrameError", "FrameErrorKind", "Window", "decode", "encode"]
