"""The page with a device on a serial port (the simulated board served on a pty by
`epdle sim serve`): the panel picture is the frame the device reports showing."""

from __future__ import annotations

import io
import signal
import subprocess
import sys
from collections.abc import Callable, Iterator

import pytest
from PIL import Image
from starlette.testclient import TestClient
from web_support import settle

from epdle.frames import decode
from epdle.render.planes import Planes, planes_to_image
from epdle.web.security import Guard, allowed_hosts
from epdle.web.server import ServerOptions, create_app
from epdle.web.state import WebSession


@pytest.fixture
def pty_device() -> Iterator[str]:
    server = subprocess.Popen(
        [sys.executable, "-m", "epdle", "sim", "serve", "--pty"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert server.stdout is not None
        path = server.stdout.readline().strip()
        assert path.startswith("/dev/"), server.stderr.read() if server.stderr else path
        yield path
    finally:
        server.send_signal(signal.SIGTERM)
        server.communicate(timeout=20)


def test_a_serial_device_pictured_by_the_frames_it_shows(
    pty_device: str, web_session: Callable[..., WebSession]
) -> None:
    session = web_session(port=pty_device)
    app = create_app(
        session, Guard(allowed_hosts("127.0.0.1", 8000)), ServerOptions(poll_interval=0.1)
    )
    with TestClient(app, base_url="http://127.0.0.1:8000") as client:
        state = settle(client)
        device = state["device"]
        assert device["port"] == pty_device
        assert device["connected"] and not device["simulated"] and device["error"] is None
        assert device["panel_frame"] == 1 and device["frames"] == 3
        response = client.get("/panel.png")
        picture = Image.open(io.BytesIO(response.content)).convert("RGB")
        black, red = decode(session.controller.presenter.frame(0))
        expected = planes_to_image(Planes(black=black, red=red)).convert("RGB")
        assert picture.tobytes() == expected.tobytes()
        assert any(picture.getpixel((x, 50)) != (255, 255, 255) for x in range(212))
        # Only the simulated board's button can be pressed from here.
        pressed = client.post("/api/press")
        assert pressed.status_code == 409
        assert "only the simulated board's button" in pressed.json()["error"]
        played = client.post("/api/guess", json={"word": "salet", "colours": "BBYGB"})
        assert played.status_code == 200
        after = settle(client)
        assert after["device"]["panel_version"] > device["panel_version"]
        newer = client.get("/panel.png").content
        assert newer != response.content
