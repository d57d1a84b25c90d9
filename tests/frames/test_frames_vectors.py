"""The shared vectors (tests/vectors/frames, also read by the C decoder's tests)."""

from __future__ import annotations

import importlib.util

import pytest
from frames_vector_files import ROOT, VECTOR_DIR, manifest

from epdle.frames import FrameError, FrameErrorKind, decode


def test_manifest_covers_every_error_kind() -> None:
    statuses = {status for _, status in manifest()}
    assert statuses == {0} | {kind.value for kind in FrameErrorKind}


@pytest.mark.parametrize(("name", "status"), manifest())
def test_vector(name: str, status: int) -> None:
    frame = (VECTOR_DIR / f"{name}.frame").read_bytes()
    if status == 0:
        planes = (VECTOR_DIR / f"{name}.planes").read_bytes()
        black, red = decode(frame)
        assert black + red == planes
    else:
        with pytest.raises(FrameError) as raised:
            decode(frame)
        assert raised.value.kind.value == status


def test_vectors_are_up_to_date() -> None:
    spec = importlib.util.spec_from_file_location(
        "gen_frame_vectors", ROOT / "tools" / "gen" / "gen_frame_vectors.py"
    )
    assert spec is not None and spec.loader is not None
    generator = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generator)
    for name, content in generator.vectors().items():
        assert (VECTOR_DIR / name).read_bytes() == content, (
            f"{name} is stale: run tools/gen/gen_frame_vectors.py"
        )
