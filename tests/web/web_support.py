"""Helpers for the web tests."""

from __future__ import annotations

import time

from starlette.testclient import TestClient


def settle(client: TestClient) -> dict:
    """The state once the device has caught up with the advice (the push follows the
    reply: the page gets the advice first)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        state = client.get("/api/state").json()
        if not state["device"]["updating"]:
            return state
        time.sleep(0.02)
    raise AssertionError("the device never caught up")
